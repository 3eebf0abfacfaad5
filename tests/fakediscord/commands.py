"""The synced application-command tree, and slash-command options shaped as Discord sends them."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .ids import SnowflakeFactory
from .models import FakeChannel, FakeMember, FakeRole, FakeUser, Upload
from .validation import check_commands

JSON = dict[str, Any]

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


class CommandRegistry:
    """What ``PUT .../commands`` stored, globally and per guild, with stable ids."""

    def __init__(self, application_id: int, ids: SnowflakeFactory) -> None:
        self._application_id = application_id
        self._ids = ids
        self._commands: dict[int | None, list[JSON]] = {}
        self._known_ids: dict[tuple[int | None, str, int], int] = {}
        self.sync_count = 0

    def overwrite(self, guild_id: int | None, commands: list[JSON]) -> list[JSON]:
        """A bulk overwrite: validate, give ids (kept for a name seen before), store."""
        check_commands(commands)
        stored: list[JSON] = []
        for command in commands:
            kind = int(command.get("type", 1))
            key = (guild_id, command["name"], kind)
            if key not in self._known_ids:
                self._known_ids[key] = self._ids.next()
            entry = copy.deepcopy(command)
            entry.update(
                {
                    "id": str(self._known_ids[key]),
                    "application_id": str(self._application_id),
                    "type": kind,
                    "version": str(self._ids.next()),
                    "default_member_permissions": command.get("default_member_permissions"),
                    "nsfw": command.get("nsfw", False),
                    "description": command.get("description", ""),
                }
            )
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        self._commands[guild_id] = stored
        self.sync_count += 1
        return copy.deepcopy(stored)

    def synced(self, guild_id: int | None) -> list[JSON]:
        return copy.deepcopy(self._commands.get(guild_id, []))

    def find(self, guild_id: int | None, name: str, kind: int = 1) -> JSON | None:
        """The command a user in ``guild_id`` would invoke: guild commands shadow global ones."""
        scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self._commands.get(scope, []):
                if command["name"] == name and command["type"] == kind:
                    return command
        return None

    def names(self, guild_id: int | None) -> list[str]:
        return sorted(
            {c["name"] for scope in (guild_id, None) for c in self._commands.get(scope, [])}
        )


class Resolver(Protocol):
    """Produces the ``resolved`` entries for snowflake-valued options of one invocation."""

    def user(self, user: FakeUser) -> tuple[JSON, JSON | None]: ...

    def channel(self, channel: FakeChannel) -> JSON: ...

    def role(self, role: FakeRole) -> JSON: ...

    def attachment(self, upload: Upload) -> JSON: ...


def build_command_data(
    command: JSON,
    path: Sequence[str],
    options: Mapping[str, object],
    *,
    focused: str | None,
    resolver: Resolver,
) -> JSON:
    """``data`` of an application-command (or autocomplete) interaction for ``/name path...``.

    Raises ``LookupError`` for a subcommand that is not in the synced tree and ``ValueError``
    for options Discord's client would not let a user submit.
    """
    node = command
    chain: list[JSON] = []
    for name in path:
        children = [
            o for o in node.get("options", []) if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
        ]
        child = next((o for o in children if o["name"] == name), None)
        if child is None:
            where = " ".join([command["name"], *(c["name"] for c in chain)])
            raise LookupError(
                f"/{where} has no subcommand {name!r}; it has {[c['name'] for c in children]}"
            )
        chain.append(child)
        node = child
    definitions: list[JSON] = node.get("options", [])
    nested = [o["name"] for o in definitions if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if nested:
        where = " ".join([command["name"], *(c["name"] for c in chain)])
        raise LookupError(f"/{where} needs a subcommand, one of {nested}")

    resolved: dict[str, JSON] = {}
    leaf = _leaf_options(
        definitions, options, focused=focused, resolver=resolver, resolved=resolved
    )
    wrapped: list[JSON] = leaf
    for link in reversed(chain):
        wrapped = [{"type": link["type"], "name": link["name"], "options": wrapped}]

    data: JSON = {"id": command["id"], "name": command["name"], "type": command.get("type", 1)}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if wrapped:
        data["options"] = wrapped
    if resolved and focused is None:
        data["resolved"] = resolved
    return data


def _leaf_options(
    definitions: list[JSON],
    options: Mapping[str, object],
    *,
    focused: str | None,
    resolver: Resolver,
    resolved: dict[str, JSON],
) -> list[JSON]:
    by_name = {d["name"]: d for d in definitions}
    unknown = [name for name in options if name not in by_name]
    if unknown:
        raise ValueError(f"unknown options {unknown}; the command has {list(by_name)}")
    if focused is not None:
        definition = by_name.get(focused)
        if definition is None or not definition.get("autocomplete"):
            raise ValueError(
                f"option {focused!r} has no autocomplete; Discord would not ask the bot"
            )
    payload: list[JSON] = []
    for definition in definitions:
        name = definition["name"]
        if name not in options:
            if definition.get("required") and focused is None:
                raise ValueError(f"required option {name!r} is missing")
            continue
        value = options[name]
        if name == focused:
            # What the user has typed so far: always a string, never validated.
            payload.append(
                {"name": name, "type": definition["type"], "value": str(value), "focused": True}
            )
            continue
        wire = _option_value(definition, value, resolver, resolved)
        payload.append({"name": name, "type": definition["type"], "value": wire})
    return payload


def _option_value(
    definition: JSON, value: object, resolver: Resolver, resolved: dict[str, JSON]
) -> object:
    name = definition["name"]
    kind = definition["type"]

    def wrong(expected: str) -> ValueError:
        return ValueError(f"option {name!r} takes {expected}, not {value!r}")

    wire: object
    if kind == STRING:
        if not isinstance(value, str):
            raise wrong("a str")
        if not definition.get("min_length", 0) <= len(value) <= definition.get("max_length", 6000):
            raise ValueError(f"option {name!r}: {value!r} has a length outside the allowed range")
        wire = value
    elif kind == INTEGER:
        if not isinstance(value, int) or isinstance(value, bool):
            raise wrong("an int")
        wire = value
    elif kind == NUMBER:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise wrong("a number")
        wire = value
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise wrong("a bool")
        wire = value
    elif kind == USER or (kind == MENTIONABLE and isinstance(value, FakeUser | FakeMember)):
        user = value.user if isinstance(value, FakeMember) else value
        if not isinstance(user, FakeUser):
            raise wrong("a FakeUser")
        user_payload, member_payload = resolver.user(user)
        resolved.setdefault("users", {})[str(user.id)] = user_payload
        if member_payload is not None:
            resolved.setdefault("members", {})[str(user.id)] = member_payload
        wire = str(user.id)
    elif kind in (ROLE, MENTIONABLE):
        if not isinstance(value, FakeRole):
            raise wrong("a FakeRole" if kind == ROLE else "a FakeUser or FakeRole")
        resolved.setdefault("roles", {})[str(value.id)] = resolver.role(value)
        wire = str(value.id)
    elif kind == CHANNEL:
        if not isinstance(value, FakeChannel):
            raise wrong("a FakeChannel")
        allowed_types = definition.get("channel_types")
        if allowed_types and value.type not in allowed_types:
            raise ValueError(
                f"option {name!r} accepts channel types {allowed_types}, not {value.type}"
            )
        resolved.setdefault("channels", {})[str(value.id)] = resolver.channel(value)
        wire = str(value.id)
    elif kind == ATTACHMENT:
        if not isinstance(value, Upload):
            raise wrong("an Upload")
        attachment = resolver.attachment(value)
        resolved.setdefault("attachments", {})[attachment["id"]] = attachment
        wire = attachment["id"]
    else:
        raise ValueError(f"option {name!r} has unsupported type {kind}")

    if kind in (INTEGER, NUMBER):
        low, high = definition.get("min_value"), definition.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {name!r}: {value!r} is outside [{low}, {high}]")
    choices = definition.get("choices")
    if choices and wire not in [c["value"] for c in choices]:
        raise ValueError(
            f"option {name!r}: {value!r} is not one of the choices {[c['value'] for c in choices]}"
        )
    return wire
