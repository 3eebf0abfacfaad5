"""Message and modal components: walking the nested tree, and answering a modal."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

JSON = dict[str, Any]

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)
LABEL = 18
LINK_STYLE = 5


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Yield every component depth-first: rows, containers, sections, labels and leaves."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def number_components(components: list[JSON]) -> list[JSON]:
    """Give each component the numeric ``id`` Discord assigns when a message is stored."""
    used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in walk_components(components):
        if not isinstance(component.get("id"), int):
            while next_id in used:
                next_id += 1
            component["id"] = next_id
            used.add(next_id)
    return components


def text_inputs(components: list[JSON]) -> list[JSON]:
    return [c for c in walk_components(components) if c.get("type") == TEXT_INPUT]


def modal_submit_components(components: list[JSON], values: Mapping[str, str]) -> list[JSON]:
    """The ``data.components`` of a modal submit: the modal's layout with values filled in."""
    submitted: list[JSON] = []
    for component in components:
        kind = component.get("type")
        if kind == ACTION_ROW:
            submitted.append(
                {
                    "type": ACTION_ROW,
                    "components": modal_submit_components(component.get("components", []), values),
                }
            )
        elif kind == LABEL and isinstance(component.get("component"), dict):
            inner = modal_submit_components([component["component"]], values)
            if inner:
                submitted.append({"type": LABEL, "id": component.get("id"), "component": inner[0]})
        elif kind == TEXT_INPUT:
            custom_id = component["custom_id"]
            submitted.append(
                {
                    "type": TEXT_INPUT,
                    "id": component.get("id"),
                    "custom_id": custom_id,
                    "value": values.get(custom_id, ""),
                }
            )
    return submitted
