"""The catalogues' upkeep: the template extracted from the code (marker calls and the command
tree), kept up to date; the check that fails on what players would see broken and lists what
is still in English; ``python -m bot catalogs``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.discord_bot.compose import catalogs
from bot.discord_bot.main import catalogs as command
from bot.i18n.language import COMMAND_CONTEXTS, LOCALES_DIR

SOURCE = """\
from bot.i18n.language import N_, Language

TITLE = N_("Tafl tournament")


def words(language: Language, name: str, rounds: int) -> str:
    # Translators: said in the tournament's thread when it starts.
    start = language.gettext("{name} starts now.", name=name)
    count = language.ngettext("{count} round", "{count} rounds", rounds)
    caption = language.pgettext("board caption", "Attackers")
    return " ".join((start, count, caption, language.gettext(TITLE)))
"""


def test_the_extractor_finds_every_marker_call_with_its_translator_comment(tmp_path: Path) -> None:
    (tmp_path / "words.py").write_text(SOURCE, encoding="utf-8")
    extra = catalogs.Message("command name", "challenge", [("cogs/challenges.py", 7)], ["/tafl"])
    template = catalogs.extract([extra], directory=tmp_path)
    found = {(m.context, m.id) for m in template if m.id}
    assert found == {
        (None, "Tafl tournament"),
        (None, "{name} starts now."),
        (None, ("{count} round", "{count} rounds")),
        ("board caption", "Attackers"),
        ("command name", "challenge"),
    }
    assert template.get("{name} starts now.").auto_comments == [
        "said in the tournament's thread when it starts."
    ]


def copy_of_shipped(tmp_path: Path) -> Path:
    directory = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, directory)
    return directory


def edit(path: Path, english: str, context: str | None, translation: str | tuple[str, ...]) -> None:
    made = catalogs.read(path, path.stem)
    message = made.get(english, context=context)
    assert message is not None, english
    message.string = translation
    catalogs.write(made, path)


def errors_of(directory: Path, code: str) -> list[str]:
    template = catalogs.read(directory / "tafl.pot")
    (report,) = [r for r in catalogs.check(template, directory) if r.code == code]
    return report.errors


def test_the_shipped_catalogues_pass_the_check_and_list_what_is_in_english() -> None:
    template = catalogs.read(catalogs.TEMPLATE)
    reports = {report.code: report for report in catalogs.check(template)}
    assert set(reports) == {"de", "es", "fr", "sv"}
    for report in reports.values():
        assert report.errors == [], report.code
        assert report.total == sum(1 for m in template if m.id)
    # Every command, option and choice has its name and description in each language.
    commands = [m for m in template if m.id and m.context in COMMAND_CONTEXTS]
    for code in reports:
        catalogue = catalogs.read(LOCALES_DIR / f"{code}.po", code)
        assert all(catalogue.get(m.id, context=m.context).string for m in commands), code
        assert "[command name] 'challenge'" not in reports[code].untranslated


def test_the_template_holds_what_the_code_says_now() -> None:
    shipped = catalogs.read(catalogs.TEMPLATE)
    assert catalogs.template_drift(command.template_from_code(), shipped) == [], (
        "run `python -m bot catalogs update`"
    )


def test_a_wrong_placeholder_fails_the_check(tmp_path: Path) -> None:
    directory = copy_of_shipped(tmp_path)
    fr = directory / "fr.po"
    message = "Time per move, like 10m, 1h, 1d (default 1d)"
    edit(fr, message, "option description", "Temps par coup {défaut}")
    assert any("unknown placeholders ['défaut']" in e for e in errors_of(directory, "fr"))
    assert command.run(["check"], directory) == 1


def test_a_command_name_discord_would_refuse_fails_the_check(tmp_path: Path) -> None:
    directory = copy_of_shipped(tmp_path)
    edit(directory / "fr.po", "challenge", "command name", "Défier Quelqu'un")
    assert any("not a name Discord takes" in e for e in errors_of(directory, "fr"))
    edit(directory / "fr.po", "challenge", "command name", "défier")
    long = "x" * 101
    edit(directory / "fr.po", "Lift a block", "command description", long)
    assert any("101 characters" in e for e in errors_of(directory, "fr"))


def test_two_options_of_one_command_with_one_name_fail_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_of_shipped(tmp_path)
    # /tafl seek has both: each is valid alone, together Discord refuses the command.
    edit(directory / "fr.po", "range", "option name", "temps")
    assert errors_of(directory, "fr") == []
    assert command.run(["check"], directory) == 1
    assert "/tafl seek range and /tafl seek time are both named 'temps'" in capsys.readouterr().out


def test_plural_forms_must_be_the_languages(tmp_path: Path) -> None:
    directory = tmp_path / "locales"
    directory.mkdir()
    (directory / "tafl.pot").write_text(
        'msgid "{count} round"\nmsgid_plural "{count} rounds"\nmsgstr[0] ""\nmsgstr[1] ""\n',
        encoding="utf-8",
    )
    template = catalogs.read(directory / "tafl.pot")
    for code in ("fr", "sv"):
        catalogs.write(catalogs.new_catalogue(code, template), directory / f"{code}.po")
    edit(directory / "sv.po", "{count} round", None, ("{count} runda", "{count} rundor"))
    edit(directory / "fr.po", "{count} round", None, ("{count} ronde", "{count} rondes"))
    assert errors_of(directory, "sv") == []
    # French has three forms in CLDR (one, many, other): two are not enough.
    assert any("a plural form is left empty" in e for e in errors_of(directory, "fr"))
    # A catalogue claiming English's plural rule for French is refused too.
    text = (directory / "fr.po").read_text(encoding="utf-8")
    start = text.index('"Plural-Forms:')
    end = text.index("\\n", start)
    broken = text[:start] + '"Plural-Forms: nplurals=2; plural=(n != 1);' + text[end:]
    (directory / "fr.po").write_text(broken, encoding="utf-8")
    assert any("CLDR's for 'fr'" in e for e in errors_of(directory, "fr"))


def test_a_catalogue_behind_its_template_fails_until_updated(tmp_path: Path) -> None:
    directory = copy_of_shipped(tmp_path)
    template = catalogs.read(directory / "tafl.pot")
    template.add("A new sentence, {name}.")
    catalogs.write(template, directory / "tafl.pot")
    assert any("run `python -m bot catalogs update`" in e for e in errors_of(directory, "fr"))
    assert catalogs.update(template, directory) == ["de", "es", "fr", "sv"]
    (report,) = [r for r in catalogs.check(template, directory) if r.code == "fr"]
    assert report.errors == []
    assert "'A new sentence, {name}.'" in report.untranslated


def test_the_command_checks_the_shipped_catalogues_and_a_language_can_be_required_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_of_shipped(tmp_path)
    assert command.run(["check"], directory) == 0
    out = capsys.readouterr().out
    assert "fr: " in out and "check passed" in out
    edit(directory / "de.po", "challenge", "command name", "")
    assert command.run(["check"], directory) == 0
    assert "  in English: [command name] 'challenge'" in capsys.readouterr().out
    assert command.run(["check", "--complete", "de"], directory) == 1
    assert "error: in English: [command name] 'challenge'" in capsys.readouterr().out
    assert command.run(["init", "it"], directory) == 0
    italian = catalogs.read(directory / "it.po", "it")
    assert italian.num_plurals == 3 and sum(1 for m in italian if m.id) > 0


def test_words_the_extractor_cannot_read_fail_the_check() -> None:
    source = """
def words(language, name, rounds):
    language.gettext(f"Good luck, {name}.")
    language.ngettext("{count} round", "{count} rounds " + name, rounds)
    language.pgettext(CONTEXT, "Attackers")
    language.gettext("Fine, {name}.", name=name)
    language.gettext(TITLE)  # a constant marked with N_ where it is defined
    N_(TITLE)
"""
    assert catalogs.marker_problems(source, "words.py") == [
        "words.py:3: gettext() needs plain words, not \"f'Good luck, {name}.'\": put values in "
        "{placeholders}",
        "words.py:4: ngettext() needs plain words, not \"'{count} rounds ' + name\": put values "
        "in {placeholders}",
        "words.py:5: pgettext() needs plain words, not 'CONTEXT': put values in {placeholders}",
        "words.py:8: N_() needs plain words, not 'TITLE': put values in {placeholders}",
    ]
    assert catalogs.code_problems() == []


PLACEHOLDER_HEADER = """\
# French translations for tafl-bot.
# Copyright (C) 2026 ORGANIZATION
# This file is distributed under the same license as the tafl-bot project.
# FIRST AUTHOR <EMAIL@ADDRESS>, 2026.
#
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: tafl-bot VERSION\\n"
"Report-Msgid-Bugs-To: EMAIL@ADDRESS\\n"
"POT-Creation-Date: 2026-11-28 23:09+0000\\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
"Language: fr\\n"
"Language-Team: fr <LL@li.org>\\n"
"Plural-Forms: nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Generated-By: Babel 2.19.0\\n"
"""


def test_the_shipped_files_have_true_headers_and_no_retired_strings() -> None:
    """Every catalogue and the template name the project, its version and its translators,
    never Babel's placeholders, and hold only strings the code has."""
    version = catalogs.version()
    assert version and version != "VERSION"
    for path in sorted(LOCALES_DIR.glob("*.po*")):
        assert catalogs.file_problems(path) == [], path.name
        text = path.read_text(encoding="utf-8")
        header = text.split("\n\n", 1)[0]
        assert f'"Project-Id-Version: tafl-bot {version}\\n"' in header, path.name
        assert "Copyright (C) 2026 tafl-bot translators" in header, path.name
        assert '"Last-Translator: tafl-bot translators\\n"' in header, path.name
        assert "@" not in header and "#~" not in text, path.name
    french = (LOCALES_DIR / "fr.po").read_text(encoding="utf-8")
    assert '"Language-Team: French (tafl-bot translators)\\n"' in french


def test_placeholders_and_retired_strings_fail_the_check_until_updated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_of_shipped(tmp_path)
    french = directory / "fr.po"
    body = french.read_text(encoding="utf-8").split("\n\n", 1)[1]
    retired = '#~ msgid "A sentence the code no longer says"\n#~ msgstr "Une phrase d\'antan"\n'
    french.write_text(PLACEHOLDER_HEADER + "\n" + body + "\n" + retired, encoding="utf-8")
    errors = errors_of(directory, "fr")
    for placeholder in catalogs.PLACEHOLDERS:
        assert any(repr(placeholder) in error for error in errors), placeholder
    assert "1 strings the code no longer has (#~): run `python -m bot catalogs update`" in errors
    assert command.run(["check"], directory) == 1
    # A template with Babel's header fails too.
    template = directory / "tafl.pot"
    template.write_text(
        PLACEHOLDER_HEADER.replace('"Language: fr\\n"\n', "")
        + "\n"
        + template.read_text(encoding="utf-8").split("\n\n", 1)[1],
        encoding="utf-8",
    )
    capsys.readouterr()
    assert command.run(["check"], directory) == 1
    assert "error: tafl.pot: its header holds Babel's placeholder 'ORGANIZATION'" in (
        capsys.readouterr().out
    )
    # `update` writes them true, and drops what the code no longer has.
    catalogs.write(catalogs.read(template), template)
    assert catalogs.update(catalogs.read(template), directory) == ["de", "es", "fr", "sv"]
    assert errors_of(directory, "fr") == []
    assert catalogs.file_problems(template) == []
    assert "A sentence the code no longer says" not in french.read_text(encoding="utf-8")


def test_a_new_language_starts_with_a_true_header(tmp_path: Path) -> None:
    directory = copy_of_shipped(tmp_path)
    assert command.run(["init", "it"], directory) == 0
    italian = directory / "it.po"
    assert catalogs.file_problems(italian) == []
    assert '"Language-Team: Italian (tafl-bot translators)\\n"' in italian.read_text(
        encoding="utf-8"
    )
