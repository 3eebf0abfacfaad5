"""Discord's own localization: the payload the bot syncs for its real command tree, built by
discord.py with the bot's translator, gives each shipped language (and the pseudo-locale)
names and descriptions Discord accepts, while the English names stay the commands' own."""

from __future__ import annotations

import gettext
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import cast

import discord
import pytest
from discord import app_commands
from fakediscord.httpio import DiscordHTTPError
from fakediscord.validation import MAX_COMMAND_SIZE, check_commands, command_size

from bot.discord_bot.client import TaflBot, make_bot
from bot.discord_bot.runtime.config import load_settings
from bot.discord_bot.translator import CommandTranslator, Node, oversized
from bot.discord_bot.translator import command_size as translator_size
from bot.i18n.language import LOCALES_DIR, NAME_CONTEXTS, Language, Languages
from bot.storage import Storage

JSON = dict[str, object]
NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for names (``^[-_\\p{L}\\p{N}...]{1,32}$``): Python's ``\\w`` is letters,
digits and ``_`` in every script."""
SHIPPED = ("fr", "es-ES", "es-419", "sv-SE", "de")


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[TaflBot]:
    storage = await Storage.open(tmp_path / "tafl.sqlite3")
    made = make_bot(load_settings({"DISCORD_TOKEN": "t"}, dotenv=False), storage)
    made.gather_commands(made.features())
    yield made
    await storage.close()


async def payload(bot: TaflBot, languages: Languages) -> list[JSON]:
    """What ``tree.sync()`` would send, the translator set as the client's setup sets it."""
    await bot.tree.set_translator(CommandTranslator(languages))
    translator = bot.tree.translator
    assert translator is not None
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


def nodes(items: list[JSON], path: str = "") -> Iterator[tuple[str, JSON, list[JSON]]]:
    """Every command and option (with its path and siblings) of a payload."""
    for item in items:
        where = f"{path} {item['name']}".strip()
        yield where, item, items
        yield from nodes(cast(list[JSON], item.get("options") or []), where)


def check_rules(commands: list[JSON], locale: str) -> int:
    """Assert Discord's rules on ``locale``'s localizations; return how many names it has."""
    localized = 0
    for path, item, siblings in nodes(commands):
        names = cast(dict[str, str], item.get("name_localizations") or {})
        descriptions = cast(dict[str, str], item.get("description_localizations") or {})
        name = names.get(locale, cast(str, item["name"]))
        localized += locale in names
        assert NAME.match(name) and name == name.lower(), f"{locale} {path}: {name!r}"
        description = descriptions.get(locale, cast(str, item["description"]))
        assert 1 <= len(description) <= 100, f"{locale} {path}: {description!r}"
        shown = [
            cast(dict[str, str], s.get("name_localizations") or {}).get(locale, s["name"])
            for s in siblings
        ]
        assert shown.count(name) == 1, f"{locale} {path}: {name!r} named twice"
        for choice in cast(list[JSON], item.get("choices") or []):
            label = cast(dict[str, str], choice.get("name_localizations") or {})
            chosen = label.get(locale, cast(str, choice["name"]))
            assert 1 <= len(chosen) <= 100, f"{locale} {path}: {chosen!r}"
    return localized


def named(commands: list[JSON], name: str) -> JSON:
    """The top-level command ``name`` of a payload."""
    (found,) = [command for command in commands if command["name"] == name]
    return found


async def test_every_shipped_locale_registers_names_discord_accepts(bot: TaflBot) -> None:
    commands = await payload(bot, Languages(LOCALES_DIR))
    for locale in SHIPPED:
        check_rules(commands, locale)
    # The tournaments stand beside /tafl (together they would pass Discord's size limit).
    assert [command["name"] for command in commands] == ["tafl", "tafl-tournament"]
    tafl = named(commands, "tafl")
    french = Languages(LOCALES_DIR).language("fr")
    # English stays each command's own name: typing it keeps working in every language.
    by_name = {c["name"]: c for c in cast(list[JSON], tafl["options"])}
    challenge = by_name["challenge"]
    assert challenge["name_localizations"] == {
        "fr": "défier",
        "es-ES": "retar",
        "es-419": "retar",  # Latin America reads the Spanish catalogue
        "sv-SE": "utmana",
        "de": "herausfordern",
    }
    # Every description is French, however long (see the size test below).
    for path, item, _ in nodes(commands):
        english = cast(str, item["description"])
        context = f"{'command' if item.get('type') in (1, 2) else 'option'} description"
        text = cast(dict[str, str], item.get("description_localizations") or {}).get("fr")
        assert text == french.pgettext(context, english), path
    tournament = named(commands, "tafl-tournament")
    assert cast(dict[str, str], tournament["name_localizations"]) == {
        "fr": "tafl-tournoi",
        "es-ES": "tafl-torneo",
        "es-419": "tafl-torneo",
        "sv-SE": "tafl-turnering",
        "de": "tafl-turnier",
    }
    options = {o["name"]: o for o in cast(list[JSON], challenge["options"])}
    assert cast(dict[str, str], options["side"]["name_localizations"])["fr"] == "camp"
    sides = cast(list[JSON], options["side"]["choices"])
    for side in sides:
        label = cast(dict[str, str], side.get("name_localizations") or {}).get("fr")
        english = cast(str, side["name"])
        assert label == french.pgettext("choice name", english)
    assert cast(dict[str, str], by_name["move"]["name_localizations"])["fr"] == "coup"
    # English needs nothing registered: the names are the commands' own.
    assert all(
        locale not in cast(dict[str, str], challenge["name_localizations"])
        for locale in ("en-US", "en-GB")
    )


async def test_every_command_option_and_choice_has_its_french_name(bot: TaflBot) -> None:
    """Registered wherever French differs from English (Discord shows the English name of
    ``/tafl``, ``Brandubh`` or ``stats`` as it is): none is left out, however long."""
    commands = await payload(bot, Languages(LOCALES_DIR))
    french = Languages(LOCALES_DIR).language("fr")

    def missing(context: str, english: str, registered: object) -> bool:
        same = french.pgettext(context, english) == english
        return "fr" not in cast(dict[str, str], registered or {}) and not same

    absent = []
    for path, item, _ in nodes(commands):
        kind = "command" if "type" not in item or item["type"] in (1, 2) else "option"
        if missing(f"{kind} name", cast(str, item["name"]), item.get("name_localizations")):
            absent.append(path)
        description = cast(str, item["description"])
        if missing(f"{kind} description", description, item.get("description_localizations")):
            absent.append(f"{path}: {description}")
        for choice in cast(list[JSON], item.get("choices") or []):
            name = cast(str, choice["name"])
            if missing("choice name", name, choice.get("name_localizations")):
                absent.append(f"{path}: {name}")
    assert absent == []
    assert french.pgettext("command name", "tafl") == "tafl"


async def test_the_pseudo_locale_registers_marked_strings_discord_accepts(bot: TaflBot) -> None:
    commands = await payload(bot, Languages(LOCALES_DIR, pseudo=True))
    for locale in (*SHIPPED, "en-US", "ja"):
        assert check_rules(commands, locale) > 0
    tafl = named(commands, "tafl")
    descriptions = cast(dict[str, str], tafl["description_localizations"])
    assert descriptions["fr"].startswith("⟦") and descriptions["fr"].endswith("⟧")
    assert cast(dict[str, str], tafl["name_localizations"])["ja"] == "ŧàƒļ"


async def test_a_language_without_a_translation_registers_nothing_for_it(
    bot: TaflBot, tmp_path: Path
) -> None:
    directory = tmp_path / "locales"
    directory.mkdir()
    french = (LOCALES_DIR / "fr.po").read_text(encoding="utf-8")
    emptied = french.replace('msgid "challenge"\nmsgstr "défier"', 'msgid "challenge"\nmsgstr ""')
    assert emptied != french
    (directory / "fr.po").write_text(emptied, encoding="utf-8")
    tafl = named(await payload(bot, Languages(directory)), "tafl")
    challenge = next(c for c in cast(list[JSON], tafl["options"]) if c["name"] == "challenge")
    # Discord shows the English name.
    assert challenge["name_localizations"] == {}


async def test_a_name_discord_would_refuse_is_left_out_rather_than_failing_the_sync(
    bot: TaflBot, tmp_path: Path
) -> None:
    directory = tmp_path / "locales"
    directory.mkdir()
    french = (LOCALES_DIR / "fr.po").read_text(encoding="utf-8")
    broken = french.replace(
        'msgid "challenge"\nmsgstr "défier"', 'msgid "challenge"\nmsgstr "Défier Qqn"'
    )
    assert broken != french
    (directory / "fr.po").write_text(broken, encoding="utf-8")
    commands = await payload(bot, Languages(directory))
    check_rules(commands, "fr")
    tafl = named(commands, "tafl")
    challenge = next(c for c in cast(list[JSON], tafl["options"]) if c["name"] == "challenge")
    assert challenge["name_localizations"] == {}


def test_discord_py_asks_the_translator_for_plain_strings() -> None:
    """The cogs write plain strings: discord.py wraps them for the translator
    (``auto_locale_strings``), which this test pins on the installed release."""

    @app_commands.command(name="sample", description="A sample")
    @app_commands.describe(side="Which side")
    async def sample(interaction: discord.Interaction, side: str) -> None:
        del interaction, side

    assert isinstance(sample._locale_name, app_commands.locale_str)
    assert isinstance(sample._locale_description, app_commands.locale_str)
    assert isinstance(sample._params["side"].description, app_commands.locale_str)


async def test_the_stand_in_takes_the_payload_and_refuses_a_broken_localization(
    bot: TaflBot,
) -> None:
    """The local Discord stand-in (tests/fakediscord), which every end-to-end test syncs with,
    checks localizations as Discord does: the real payload passes, in every language and the
    pseudo-locale; a bad name, or two options named alike in one language, are refused."""
    check_commands(await payload(bot, Languages(LOCALES_DIR)))
    check_commands(await payload(bot, Languages(LOCALES_DIR, pseudo=True)))
    commands = await payload(bot, Languages(LOCALES_DIR))
    tafl = named(commands, "tafl")
    seek = next(c for c in cast(list[JSON], tafl["options"]) if c["name"] == "seek")
    options = cast(list[JSON], seek["options"])
    options[0]["name_localizations"] = {"fr": "Temps"}
    with pytest.raises(DiscordHTTPError) as invalid:
        check_commands(commands)
    assert "Invalid name 'Temps'" in repr(invalid.value.errors)
    for option in options[:2]:
        option["name_localizations"] = {"fr": "temps"}
    with pytest.raises(DiscordHTTPError) as twice:
        check_commands(commands)
    assert "must be unique" in repr(twice.value.errors)


async def test_every_command_fits_discords_size_limit_with_every_translation_in(
    bot: TaflBot,
) -> None:
    """Discord counts a command's every name, description and choice, each at its longest
    localization (8000 characters in all): each top-level command fits with every shipped
    language registered at once (and in a pseudo-locale run), no translation left out; the
    bot's count is the stand-in's."""
    for languages in (Languages(LOCALES_DIR), Languages(LOCALES_DIR, pseudo=True)):
        locales = [locale.value for locale in discord.Locale]
        assert oversized(bot.tree.get_commands(), languages, locales) == []
        commands = await payload(bot, languages)
        shown = [language for language in map(languages.shipped, locales) if language]
        for command, node in zip(commands, bot.tree.get_commands(), strict=True):
            assert command_size(command) <= MAX_COMMAND_SIZE, command["name"]
            assert command_size(command) == translated_size(node, shown), command["name"]
    # Every translation of every shipped language is registered: none left out for size.
    languages = Languages(LOCALES_DIR)
    commands = await payload(bot, languages)
    for locale in SHIPPED:
        language = languages.shipped(locale)
        assert language is not None
        for path, item, _ in nodes(commands):
            kind = "command" if item.get("type") in (None, 1, 2) else "option"
            english = cast(str, item["description"])
            wanted = language.translated(f"{kind} description", english)
            registered = cast(dict[str, str], item.get("description_localizations") or {})
            assert registered.get(locale) == wanted, (locale, path)
            for choice in cast(list[JSON], item.get("choices") or []):
                label = cast(dict[str, str], choice.get("name_localizations") or {}).get(locale)
                assert label == language.translated("choice name", cast(str, choice["name"]))


async def test_a_command_too_large_once_translated_is_reported_and_refused() -> None:
    """A command whose English fits but whose translations do not is reported (none of them is
    dropped to make it fit), and Discord (the stand-in) refuses it: both count each string at
    its longest localization, whichever locale has it."""
    group = app_commands.Group(name="g", description="G")
    for number in range(25):

        @app_commands.command(name=f"c{number:02}", description="D" * 60)
        @app_commands.describe(o="E" * 60, p="F" * 60)
        @app_commands.choices(
            o=[app_commands.Choice(name="C" * 60, value="c")],
            p=[app_commands.Choice(name="B" * 60, value="b")],
        )
        async def command(interaction: discord.Interaction, o: str, p: str) -> None:
            del interaction, o, p

        group.add_command(command)

    class Halved(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            return message if context in NAME_CONTEXTS else message[: len(message) // 2]

    class HalfAgain(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            return message + message[: len(message) // 2]

    class Shipped(Languages):
        def __init__(self, codes: tuple[str, ...]) -> None:
            super().__init__(LOCALES_DIR)
            self.codes = codes

        def shipped(self, locale: str) -> Language | None:
            if locale not in self.codes:
                return None
            return Language(locale, locale, Halved() if locale == "fr" else HalfAgain())

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(group)

    async def synced(languages: Shipped) -> JSON:
        translator = CommandTranslator(languages)
        return await group.get_translated_payload(tree, translator)

    # English: 2 + 25 * (3 + 60 + 2 * (1 + 60 + 60 + 1)) = 7677, French (shorter) adds nothing.
    french = Shipped(("fr",))
    assert oversized([group], french, ["fr", "de"]) == []
    check_commands([await synced(french)])
    assert command_size(await synced(french)) == 7677
    # German half again: 2 + 25 * (4 + 90 + 2 * (1 + 90 + 90 + 1)) = 11452, with French in
    # or not (each string counts at its longest).
    both = Shipped(("fr", "de"))
    assert oversized([group], both, ["fr", "de"]) == [("g", 11452)]
    payload = await synced(both)
    assert command_size(payload) == 11452
    with pytest.raises(DiscordHTTPError) as refused:
        check_commands([payload])
    assert "APPLICATION_COMMAND_TOO_LARGE" in repr(refused.value.errors)


def translated_size(command: Node, languages: list[Language]) -> int:
    """The bot's count of a command's size with these languages registered."""
    return translator_size(command, languages)
