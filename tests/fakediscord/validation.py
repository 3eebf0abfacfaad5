"""Discord's documented limits, enforced so the bot's bugs fail here as they would in production.

Each check raises the error Discord returns (mostly 50035 "Invalid Form Body" with the
offending field's path), which discord.py turns into ``HTTPException`` with that text.
"""

from __future__ import annotations

import re
from typing import Any

from .components import (
    ACTION_ROW,
    BUTTON,
    LINK_STYLE,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    walk_components,
)
from .httpio import DiscordHTTPError, ReceivedFile, invalid_form_body
from .models import COMPONENTS_V2

JSON = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ATTACHMENTS = 10
MAX_CHOICES = 25
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _max_length(value: object, limit: int, path: tuple[str | int, ...]) -> None:
    if isinstance(value, str) and len(value) > limit:
        raise invalid_form_body(
            path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
        )


def check_message(
    payload: JSON, files: tuple[ReceivedFile, ...], *, size_limit: int, creating: bool
) -> None:
    """Limits of a message create or edit (content, embeds, components, files)."""
    _max_length(payload.get("content"), MAX_CONTENT, ("content",))
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise invalid_form_body(
            ("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
        )
    total = 0
    for index, embed in enumerate(embeds):
        total += _check_embed(embed, ("embeds", index))
    if total > MAX_EMBED_TOTAL:
        raise invalid_form_body(
            ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    check_components(
        payload.get("components") or [], v2=bool((payload.get("flags") or 0) & COMPONENTS_V2)
    )
    if len(files) > MAX_ATTACHMENTS or len(payload.get("attachments") or []) > MAX_ATTACHMENTS:
        raise invalid_form_body(
            ("attachments",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
        )
    for upload in files:
        if len(upload.data) > size_limit:
            raise DiscordHTTPError(413, 40005, "Request entity too large")
    if creating and not (
        payload.get("content")
        or embeds
        or files
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
    ):
        raise DiscordHTTPError(400, 50006, "Cannot send an empty message")


def _check_embed(embed: JSON, path: tuple[str | int, ...]) -> int:
    limits = {"title": 256, "description": 4096}
    total = 0
    for key, limit in limits.items():
        _max_length(embed.get(key), limit, (*path, key))
        total += len(str(embed.get(key) or ""))
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise invalid_form_body(
            (*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    for index, embed_field in enumerate(fields):
        _max_length(embed_field.get("name"), 256, (*path, "fields", index, "name"))
        _max_length(embed_field.get("value"), 1024, (*path, "fields", index, "value"))
        total += len(str(embed_field.get("name") or "")) + len(str(embed_field.get("value") or ""))
    footer = embed.get("footer") or {}
    _max_length(footer.get("text"), 2048, (*path, "footer", "text"))
    author = embed.get("author") or {}
    _max_length(author.get("name"), 256, (*path, "author", "name"))
    total += len(str(footer.get("text") or "")) + len(str(author.get("name") or ""))
    return total


def check_components(components: list[JSON], *, v2: bool = False) -> None:
    """Rows of at most 5 buttons or 1 select, 5 rows, unique ``custom_id``s of <= 100 chars."""
    if not v2:
        if len(components) > 5:
            raise invalid_form_body(
                ("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."
            )
        for row_index, row in enumerate(components):
            path: tuple[str | int, ...] = ("components", row_index)
            if row.get("type") != ACTION_ROW:
                raise invalid_form_body(
                    (*path, "type"), "UNION_TYPE_CHOICES", "Value must be an action row."
                )
            children = row.get("components") or []
            if not children or len(children) > 5:
                raise invalid_form_body(
                    (*path, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 5 in length.",
                )
            if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
                raise invalid_form_body(
                    (*path, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu fills a whole row.",
                )
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        kind = component.get("type")
        if custom_id is not None:
            if len(custom_id) > 100 or not custom_id:
                raise invalid_form_body(
                    ("components", "custom_id"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"custom_id {custom_id!r}: 1 to 100 chars.",
                )
            if custom_id in seen:
                raise invalid_form_body(
                    ("components", "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id {custom_id!r} cannot be duplicated",
                )
            seen.add(custom_id)
        if kind == BUTTON:
            _max_length(component.get("label"), 80, ("components", "label"))
            if component.get("style") == LINK_STYLE:
                if not component.get("url") or custom_id is not None:
                    raise invalid_form_body(
                        ("components", "url"),
                        "BUTTON_COMPONENT_INVALID",
                        "Link buttons need a url.",
                    )
            elif custom_id is None and component.get("sku_id") is None:
                raise invalid_form_body(
                    ("components", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"
                )
        elif kind in SELECT_TYPES:
            if custom_id is None:
                raise invalid_form_body(
                    ("components", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"
                )
            _max_length(component.get("placeholder"), 150, ("components", "placeholder"))
            if kind == STRING_SELECT:
                options = component.get("options") or []
                if not 1 <= len(options) <= 25:
                    raise invalid_form_body(
                        ("components", "options"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 25 in length.",
                    )
                for option in options:
                    _max_length(option.get("label"), 100, ("components", "options", "label"))
                    _max_length(option.get("value"), 100, ("components", "options", "value"))


def check_choices(data: JSON) -> None:
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise invalid_form_body(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
    if len(choices) > MAX_CHOICES:
        raise invalid_form_body(
            ("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    for index, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise invalid_form_body(
                ("data", "choices", index, "name"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        _max_length(choice.get("value"), 100, ("data", "choices", index, "value"))


def check_modal(data: JSON) -> None:
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= 45:
        raise invalid_form_body(
            ("data", "title"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."
        )
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        raise invalid_form_body(
            ("data", "custom_id"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        raise invalid_form_body(
            ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    for component in walk_components(components):
        if component.get("type") == TEXT_INPUT:
            _max_length(component.get("label"), 45, ("data", "components", "label"))


MAX_COMMAND_SIZE = 8000


def command_size(item: JSON) -> int:
    """Discord's size of a command: the characters of its name, description and choices'
    names and values, its options' and subcommands' included, where only the longest of a
    string's localizations (its default included) counts."""

    def longest(key: str) -> int:
        texts = [str(item.get(key) or ""), *(item.get(f"{key}_localizations") or {}).values()]
        return max(len(text) for text in texts)

    size = longest("name") + longest("description") + len(str(item.get("value") or ""))
    for child in [*(item.get("options") or []), *(item.get("choices") or [])]:
        size += command_size(child)
    return size


def check_commands(commands: list[JSON]) -> None:
    """The checks of a bulk overwrite that discord.py does not already do locally."""
    if len(commands) > 100:
        raise invalid_form_body((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    for index, command in enumerate(commands):
        _check_command(command, (index,))
        size = command_size(command)
        if size > MAX_COMMAND_SIZE:
            raise invalid_form_body(
                (index,),
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({MAX_COMMAND_SIZE}): {size}",
            )


def _check_command(command: JSON, path: tuple[str | int, ...]) -> None:
    name = command.get("name")
    kind = command.get("type", 1)
    if (
        not isinstance(name, str)
        or not _COMMAND_NAME.match(name)
        or (kind == 1 and name != name.lower())
    ):
        raise invalid_form_body(
            (*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}"
        )
    description = command.get("description", "")
    if kind == 1 and not 1 <= len(description) <= 100:
        raise invalid_form_body(
            (*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    _check_localizations(command, path, name_rule=kind == 1)
    options = command.get("options") or []
    _check_unique_names(options, (*path, "options"))
    if len(options) > 25:
        raise invalid_form_body(
            (*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    seen_optional = False
    for index, option in enumerate(options):
        option_path = (*path, "options", index)
        if option.get("type") in (1, 2):
            _check_command({**option, "type": 1}, option_path)
            continue
        if option.get("required"):
            if seen_optional:
                raise invalid_form_body(
                    (*option_path, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        _check_command({**option, "type": 1, "options": []}, option_path)
        if len(option.get("choices") or []) > MAX_CHOICES:
            raise invalid_form_body(
                (*option_path, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
            )
        for choice_index, choice in enumerate(option.get("choices") or []):
            choice_path = (*option_path, "choices", choice_index)
            for locale, label in (choice.get("name_localizations") or {}).items():
                _check_locale(locale, (*choice_path, "name_localizations"))
                if not 1 <= len(label) <= 100:
                    raise invalid_form_body(
                        (*choice_path, "name_localizations", locale),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
        if option.get("choices") and option.get("autocomplete"):
            raise invalid_form_body(
                (*option_path, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID",
                "Autocomplete cannot be set on options with choices",
            )


DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
"""The locales Discord takes in ``name_localizations`` and ``description_localizations``."""


def _check_locale(locale: str, path: tuple[str | int, ...]) -> None:
    if locale not in DISCORD_LOCALES:
        raise invalid_form_body((*path, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}")


def _check_localizations(item: JSON, path: tuple[str | int, ...], *, name_rule: bool) -> None:
    """A command's or option's localized names follow its name's rules (lowercase where the
    script has case); its localized descriptions, its description's."""
    for locale, name in (item.get("name_localizations") or {}).items():
        _check_locale(locale, (*path, "name_localizations"))
        if not _COMMAND_NAME.match(name) or (name_rule and name != name.lower()):
            raise invalid_form_body(
                (*path, "name_localizations", locale),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Invalid name {name!r}",
            )
    for locale, text in (item.get("description_localizations") or {}).items():
        _check_locale(locale, (*path, "description_localizations"))
        if not 1 <= len(text) <= 100:
            raise invalid_form_body(
                (*path, "description_localizations", locale),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )


def _check_unique_names(items: list[JSON], path: tuple[str | int, ...]) -> None:
    """Options (or subcommands) of one command have different names in every locale."""
    locales = {locale for item in items for locale in item.get("name_localizations") or {}}
    for locale in (None, *sorted(locales)):
        names = [
            item["name"]
            if locale is None
            else (item.get("name_localizations") or {}).get(locale, item["name"])
            for item in items
        ]
        if len(names) != len(set(names)):
            raise invalid_form_body(
                path,
                "APPLICATION_COMMAND_DUPLICATE_NAME",
                f"Command names must be unique ({locale or 'default'}: {sorted(names)})",
            )


def check_text_input_values(components: list[JSON], values: dict[str, str]) -> None:
    """What Discord's client enforces before a modal can be submitted (raises ``ValueError``)."""
    inputs = {c["custom_id"]: c for c in walk_components(components) if c.get("type") == TEXT_INPUT}
    unknown = set(values) - set(inputs)
    if unknown:
        raise ValueError(f"modal has no text inputs {sorted(unknown)}; it has {sorted(inputs)}")
    for custom_id, component in inputs.items():
        value = values.get(custom_id, "")
        if component.get("required", True) and not value:
            raise ValueError(f"text input {custom_id!r} is required")
        if value and len(value) < (component.get("min_length") or 0):
            raise ValueError(
                f"{custom_id!r}: {value!r} is shorter than min_length {component['min_length']}"
            )
        if len(value) > (component.get("max_length") or 4000):
            raise ValueError(
                f"{custom_id!r}: value is longer than max_length {component.get('max_length')}"
            )
