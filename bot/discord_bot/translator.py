"""Discord's own localization: the names and descriptions Discord shows each user in the command
picker, in their client's language, from the catalogues (:mod:`bot.i18n.language`).

discord.py wraps every command's, option's and choice's name and description in a
``locale_str`` (the commands are written with plain strings: ``auto_locale_strings``) and asks
the tree's translator for each, in every Discord locale, when it builds the payload it syncs.
:class:`CommandTranslator` answers from the shipped catalogue for that locale, with the
message's context (``command name``, ``option description``...), or nothing where the
catalogue has no translation: Discord then shows the English, which stays each command's
default name, so typing the English name keeps working everywhere.

:func:`command_messages` walks the command tree for the template (``python -m bot catalogs
extract``); :func:`command_problems` checks what a locale would register against Discord's
rules and :func:`oversized` the commands too large for Discord once translated (the
catalogues' check and the tests run both on the real tree).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from ..i18n.language import (
    CHOICE_NAME,
    COMMAND_DESCRIPTION,
    COMMAND_NAME,
    DESCRIPTION_LENGTH,
    NAME_CONTEXTS,
    OPTION_DESCRIPTION,
    OPTION_NAME,
    Language,
    Languages,
    is_command_name,
)
from .compose.catalogs import Message

log = logging.getLogger(__name__)

CONTEXT_OF = {
    Where.command_name: COMMAND_NAME,
    Where.group_name: COMMAND_NAME,
    Where.command_description: COMMAND_DESCRIPTION,
    Where.group_description: COMMAND_DESCRIPTION,
    Where.parameter_name: OPTION_NAME,
    Where.parameter_description: OPTION_DESCRIPTION,
    Where.choice_name: CHOICE_NAME,
}
"""The catalogue's context for each place discord.py asks about."""

Node = app_commands.Command[app_commands.Group, ..., None] | app_commands.Group
"""A command or a group of them, as the tree holds them."""


def valid(context: str, text: str) -> bool:
    """Whether Discord takes ``text`` where ``context`` puts it."""
    if context in NAME_CONTEXTS:
        return is_command_name(text)
    return 0 < len(text) <= DESCRIPTION_LENGTH


def localized(language: Language, context: str, message: str) -> str | None:
    """What ``language`` registers for ``message`` in ``context`` (``None``: nothing, Discord
    shows the English). The pseudo-locale's descriptions are cut to Discord's limit."""
    text = language.translated(context, message)
    if text is not None and language.is_pseudo and context not in NAME_CONTEXTS:
        text = text if len(text) <= DESCRIPTION_LENGTH else text[: DESCRIPTION_LENGTH - 1] + "⟧"
    return text


COMMAND_SIZE = 8000
"""Discord's limit on one top-level command: the characters of every name, description and
choice (name and value) of it, its subcommands and options, where for a string with
localizations only the longest (the default included) counts."""


def command_size(command: Node, languages: Iterable[Language]) -> int:
    """``command``'s size as Discord counts it (:data:`COMMAND_SIZE`) with what ``languages``
    register: each string at its longest, the English included."""
    readers = list(languages)
    size = 0
    for entry in tree_entries([command]):
        texts = (localized(language, entry.context, entry.message) for language in readers)
        longest = max((len(text) for text in texts if text is not None), default=0)
        size += max(len(entry.message), longest) + len(entry.value)
    return size


def oversized(
    commands: Iterable[Node], languages: Languages, locales: Iterable[str]
) -> list[tuple[str, int]]:
    """The top-level commands Discord would refuse, with their sizes, once every shipped
    language of ``locales`` is registered (every translation is: none is left out, so a
    translation that makes a command too large must be shortened, or the command split)."""
    shown = [language for language in map(languages.shipped, locales) if language is not None]
    sizes = [(command.name, command_size(command, shown)) for command in commands]
    return [(name, size) for name, size in sizes if size > COMMAND_SIZE]


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of the commands in each shipped language, from the catalogues."""

    def __init__(self, languages: Languages) -> None:
        self.languages = languages

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalogue's translation of ``string`` for ``locale``, or ``None``: none there,
        or one Discord would refuse (the catalogues' check reports it; the sync must not fail
        for it)."""
        where = CONTEXT_OF.get(context.location)
        language = self.languages.shipped(locale.value)
        if where is None or language is None:
            return None
        text = localized(language, where, string.message)
        if text is not None and not valid(where, text):
            log.warning("%s: %s %r is not a valid %s for Discord", locale.value, where, text, where)
            return None
        return text


# ---------------------------------------------------------------------------- the tree's strings


@dataclass(frozen=True)
class Entry:
    """One string of the command tree: where it shows, its English, whose it is."""

    context: str
    message: str
    path: str
    """The command (and option) it belongs to: ``/tafl challenge opponent``."""
    siblings: str
    """Names that must differ from one another in every language share this key."""
    source: tuple[str, int] | None
    """The file and line of the command's code (a group has none)."""
    value: str = ""
    """A choice's value (Discord counts it in a command's size)."""


def _source(command: Node) -> tuple[str, int] | None:
    if not isinstance(command, app_commands.Command):
        return None  # a group made in the client, not a class of its own: no line to show
    function = command.callback
    try:
        lines = inspect.getsourcelines(function)[1]
        path = Path(inspect.getsourcefile(function) or "")
    except (OSError, TypeError):
        return None
    root = Path(__file__).resolve().parents[2]
    try:
        return (path.resolve().relative_to(root).as_posix(), lines)
    except ValueError:
        return (path.name, lines)


def tree_entries(commands: Iterable[Node], parent: str = "") -> Iterator[Entry]:
    """Every name and description of ``commands`` (groups walked into), option and choice."""
    for command in commands:
        path = f"{parent} {command.name}".strip()
        source = _source(command)
        yield Entry(COMMAND_NAME, command.name, "/" + path, parent or "/", source)
        yield Entry(COMMAND_DESCRIPTION, command.description, "/" + path, "", source)
        if isinstance(command, app_commands.Group):
            yield from tree_entries(command.commands, path)
            continue
        for parameter in command.parameters:
            where = f"/{path} {parameter.name}"
            yield Entry(OPTION_NAME, parameter.name, where, "/" + path, source)
            yield Entry(OPTION_DESCRIPTION, parameter.description, where, "", source)
            for choice in parameter.choices:
                yield Entry(CHOICE_NAME, choice.name, where, "", source, str(choice.value))


def command_messages(commands: Iterable[Node]) -> list[Message]:
    """The command tree's strings as the template holds them: one per context and English,
    with where each shows and Discord's rule for it (for translators)."""
    found: dict[tuple[str, str], Message] = {}
    for entry in tree_entries(commands):
        key = (entry.context, entry.message)
        rule = (
            "a name: lowercase letters, digits, - and _, at most 32, no spaces"
            if entry.context in NAME_CONTEXTS
            else "at most 100 characters"
        )
        if key not in found:
            found[key] = Message(entry.context, entry.message, [], [f"Discord: {rule}."])
        if entry.source is not None:
            found[key].locations.append(entry.source)
        found[key].comments.append(entry.path)
    return list(found.values())


def command_problems(
    commands: Iterable[Node], languages: Languages, locales: Iterable[str]
) -> list[str]:
    """What Discord would refuse of the localizations registered for ``locales``: a name or
    description breaking its rules, two options (or commands) of one command with one name."""
    entries = list(tree_entries(commands))
    problems = []
    for locale in locales:
        language = languages.shipped(locale)
        if language is None:
            continue
        names: dict[str, dict[str, str]] = {}
        for entry in entries:
            text = localized(language, entry.context, entry.message)
            shown = entry.message if text is None else text
            if not valid(entry.context, shown):
                problems.append(f"{locale}: {entry.path}: {entry.context} {shown!r} is invalid")
            if entry.siblings:
                seen = names.setdefault(entry.siblings, {})
                if shown in seen and seen[shown] != entry.path:
                    problems.append(
                        f"{locale}: {entry.path} and {seen[shown]} are both named {shown!r}"
                    )
                seen.setdefault(shown, entry.path)
    return problems
