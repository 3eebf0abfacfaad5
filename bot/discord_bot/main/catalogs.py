"""``python -m bot catalogs``: the translators' command (README, "Translating").

- ``extract``: write the template, ``locales/tafl.pot``, from the code: every marked string of
  the composition and every name and description of the commands (the bot's real command tree,
  built without connecting anywhere).
- ``update``: extract, then bring every language's catalogue in step with the template.
- ``init LANG``: start the catalogue of a new language (Babel's code: ``it``, ``pt_BR``...).
- ``check [--complete LANG ...]``: fail on what would be wrong in front of players (a
  marker call whose words the extractor cannot read (an f-string), a placeholder a translation
  lacks or invents, plural forms that are not the language's, a
  command name Discord would refuse, two options of one command given one name, a top-level
  command past Discord's size limit with its translations, a template
  older than the code, a catalogue not updated); list what is still in English in each
  language (an error for the languages given to ``--complete``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from discord import Locale

from bot.storage import Storage

from ...i18n.language import LOCALES_DIR, PSEUDO, Languages
from ..client import make_bot
from ..compose import catalogs
from ..compose import help as guide
from ..runtime.config import load_settings
from ..translator import (
    COMMAND_SIZE,
    Node,
    command_messages,
    command_problems,
    oversized,
)

USAGE = "python -m bot catalogs {extract,update,check,init LANG}"


async def command_tree() -> list[Node]:
    """The bot's commands as it registers them (the bot built on a throwaway database, never
    connected)."""
    with tempfile.TemporaryDirectory() as directory:
        storage = await Storage.open(Path(directory) / "catalogs.sqlite3")
        try:
            settings = load_settings({"DISCORD_TOKEN": "catalogs"}, dotenv=False)
            bot = make_bot(settings, storage)
            return bot.gather_commands(bot.features())
        finally:
            await storage.close()


def template_from_code() -> Catalog:
    """The template the code gives now (with the engine's words about each variant, which
    /tafl rules translates)."""
    commands = command_messages(asyncio.run(command_tree()))
    return catalogs.extract([*commands, *guide.engine_messages()])


def too_large_for_discord(directory: Path) -> list[tuple[str, int]]:
    """The top-level commands Discord would refuse with every translation registered (in every
    Discord locale at once, or the pseudo-locale's in all), with their sizes."""
    tree = asyncio.run(command_tree())
    locales = [locale.value for locale in Locale]
    return oversized(tree, Languages(directory), locales) + oversized(
        tree, Languages(directory, pseudo=True), [PSEUDO]
    )


def problems_in_commands(directory: Path) -> list[str]:
    """What Discord would refuse of the command names and descriptions every Discord locale
    would register, the pseudo-locale's included."""
    tree = asyncio.run(command_tree())
    locales = [locale.value for locale in Locale]
    found = command_problems(tree, Languages(directory), locales)
    return found + command_problems(tree, Languages(directory, pseudo=True), [PSEUDO])


def run(argv: Sequence[str], directory: Path = LOCALES_DIR) -> int:
    """Carry out one of the commands; 0 when it went well (``check``: nothing wrong)."""
    parser = argparse.ArgumentParser(prog="python -m bot catalogs", usage=USAGE)
    parser.add_argument("command", choices=("extract", "update", "check", "init"))
    parser.add_argument("language", nargs="?", help="init: the new language's code")
    parser.add_argument(
        "--complete", nargs="*", default=[], help="check: languages that must be whole"
    )
    arguments = parser.parse_args(list(argv))
    template_path = directory / catalogs.TEMPLATE.name
    if arguments.command in ("extract", "update"):
        template = template_from_code()
        catalogs.write(template, template_path)
        print(f"{template_path}: {sum(1 for m in template if m.id)} strings")
        if arguments.command == "update":
            for code in catalogs.update(template, directory):
                print(f"{directory / code}.po updated")
        return 0
    if arguments.command == "init":
        if not arguments.language:
            parser.error("init needs the new language's code")
        path = directory / f"{arguments.language}.po"
        if path.exists():
            parser.error(f"{path} exists already: `update` keeps it in step")
        template = catalogs.read(template_path)
        catalogs.write(catalogs.new_catalogue(arguments.language, template), path)
        print(f"{path} started: translate it, then `check`")
        return 0
    return _check(directory, template_path, set(arguments.complete))


def _check(directory: Path, template_path: Path, complete: set[str]) -> int:
    shipped = catalogs.read(template_path)
    failed = False
    for problem in catalogs.file_problems(template_path):
        failed = True
        print(f"error: {template_path.name}: {problem}")
    drift = catalogs.template_drift(template_from_code(), shipped)
    if drift:
        failed = True
        print(f"{template_path} is older than the code (run `python -m bot catalogs update`):")
        print("".join(f"  {line}\n" for line in drift), end="")
    for report in catalogs.check(shipped, directory):
        print(f"{report.code}: {report.translated} of {report.total} strings translated")
        for error in report.errors:
            print(f"  error: {error}")
        strict = report.code in complete
        for label in report.untranslated:
            print(f"  {'error: ' if strict else ''}in English: {label}")
        failed = failed or bool(report.errors) or (strict and bool(report.untranslated))
    for name, size in too_large_for_discord(directory):
        failed = True
        print(
            f"error: /{name} counts {size} characters with its translations, past Discord's"
            f" {COMMAND_SIZE}: shorten the longest descriptions (their English, then the"
            " translations), or give some of its commands a top-level command of their own"
        )
    for problem in catalogs.code_problems():
        failed = True
        print(f"error: {problem}")
    for problem in problems_in_commands(directory):
        failed = True
        print(f"error: {problem}")
    print("check failed" if failed else "check passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
