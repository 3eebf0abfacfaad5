"""A reader's language: which catalogue a Discord locale gets, translations with their
placeholders and plurals, English where a translation is missing, CLDR's numbers, lists and
durations, and the pseudo-locale."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_bot.compose import catalogs
from bot.i18n.language import (
    ENGLISH,
    LOCALES_DIR,
    PSEUDO,
    Languages,
    chain,
    is_command_name,
    placeholders,
    pseudo,
    unmarked,
    unpseudo,
)

TEMPLATE = """\
msgid "Your move, {player}."
msgstr ""

msgid "{count} round"
msgid_plural "{count} rounds"
msgstr[0] ""
msgstr[1] ""

msgctxt "command name"
msgid "challenge"
msgstr ""

msgid "Resign"
msgstr ""
"""


def catalogue(directory: Path, code: str, translations: dict[str, str | list[str]]) -> Path:
    """A catalogue for ``code`` made from the template above, as ``init`` makes one, with
    ``translations`` (by English singular) written in."""
    source = directory / "tafl.pot"
    source.write_text(TEMPLATE, encoding="utf-8")
    made = catalogs.new_catalogue(code, catalogs.read(source))
    for message in made:
        english = message.id if isinstance(message.id, str) else message.id[0]
        if message.id and english in translations:
            wanted = translations[english]
            message.string = wanted if isinstance(wanted, str) else tuple(wanted)
    path = directory / f"{code}.po"
    catalogs.write(made, path)
    return path


def plain(text: str) -> str:
    """``text`` with CLDR's non-breaking spaces as plain ones."""
    return text.replace("\xa0", " ").replace("\u202f", " ")


@pytest.fixture
def languages(tmp_path: Path) -> Languages:
    catalogue(
        tmp_path,
        "fr",
        {
            "Your move, {player}.": "À vous de jouer, {player}.",
            # CLDR's French forms: one (0 and 1), many (whole millions), other.
            "{count} round": ["{count} ronde", "{count} de rondes", "{count} rondes"],
            "challenge": "défier",
        },
    )
    catalogue(tmp_path, "es", {"Your move, {player}.": "Te toca, {player}."})
    return Languages(tmp_path)


def test_a_locale_gets_its_own_catalogue_then_its_languages_then_english(
    languages: Languages,
) -> None:
    assert chain("es-419") == ("es_419", "es")
    assert chain("sv-SE") == ("sv_SE", "sv")
    assert chain("fr") == ("fr",)
    assert chain("not a locale") == ()
    assert languages.language("fr").catalogue == "fr"
    # Latin America's Spanish reads the Spanish catalogue, but writes numbers its own way.
    latin = languages.language("es-419")
    assert (latin.catalogue, latin.gettext("Your move, {player}.", player="Ana")) == (
        "es",
        "Te toca, Ana.",
    )
    assert latin.decimal(1.5) == "1.5" and languages.language("es-ES").decimal(1.5) == "1,5"
    for unshipped in ("pt-BR", "en-GB", None, "xx-YY"):
        language = languages.language(unshipped)
        assert language.catalogue == ENGLISH
        assert language.gettext("Your move, {player}.", player="Ana") == "Your move, Ana."
    assert languages.shipped("en-US") is None and languages.shipped("pt-BR") is None
    assert languages.shipped("es-419") is not None


def test_a_missing_translation_is_written_in_english_and_listed(
    tmp_path: Path, languages: Languages
) -> None:
    french = languages.language("fr")
    assert french.gettext("Your move, {player}.", player="Ana") == "À vous de jouer, Ana."
    assert french.gettext("Resign") == "Resign"
    assert (
        french.gettext("A string added after the catalogue") == "A string added after the catalogue"
    )
    (report,) = [r for r in catalogs.check(directory=tmp_path) if r.code == "fr"]
    assert report.errors == []
    assert report.untranslated == ["'Resign'"]
    assert (report.total, report.translated) == (4, 3)


def test_a_fuzzy_translation_waits_for_review_in_english(tmp_path: Path) -> None:
    path = catalogue(tmp_path, "de", {"Resign": "Aufgeben"})
    made = catalogs.read(path, "de")
    made.get("Resign").flags.add("fuzzy")
    catalogs.write(made, path)
    german = Languages(tmp_path).language("de")
    assert german.gettext("Resign") == "Resign"
    (report,) = [r for r in catalogs.check(directory=tmp_path) if r.code == "de"]
    assert "'Resign'" in report.untranslated


def test_plurals_follow_cldr(languages: Languages) -> None:
    french = languages.language("fr")
    # French counts 0 and 1 as one, and millions apart.
    assert french.ngettext("{count} round", "{count} rounds", 0) == "0 ronde"
    assert french.ngettext("{count} round", "{count} rounds", 1) == "1 ronde"
    assert french.ngettext("{count} round", "{count} rounds", 2) == "2 rondes"
    assert (
        french.ngettext("{count} round", "{count} rounds", 1000000)
        == "1\u202f000\u202f000 de rondes"
    )
    english = languages.language("en-US")
    assert english.ngettext("{count} round", "{count} rounds", 0) == "0 rounds"
    assert english.ngettext("{count} round", "{count} rounds", 1) == "1 round"
    assert english.ngettext("{count} round", "{count} rounds", 1500) == "1,500 rounds"


def test_a_translation_that_cannot_be_filled_falls_back_to_english(tmp_path: Path) -> None:
    catalogue(tmp_path, "fr", {"Your move, {player}.": "À vous, {joueur}."})
    french = Languages(tmp_path).language("fr")
    assert french.gettext("Your move, {player}.", player="Ana") == "Your move, Ana."
    (report,) = catalogs.check(directory=tmp_path)
    assert any("unknown placeholders ['joueur']" in error for error in report.errors)
    assert any("placeholders ['player'] missing" in error for error in report.errors)


def test_numbers_lists_and_durations_are_written_as_each_language_writes_them(
    languages: Languages,
) -> None:
    french, english = languages.language("fr"), languages.language("en-US")
    assert french.number(1234567) == "1\u202f234\u202f567"
    assert english.number(1234567) == "1,234,567"
    assert (french.decimal(1.5), english.decimal(1.5), french.decimal(2, 1)) == (
        "1,5",
        "1.5",
        "2,0",
    )
    assert french.percent(0.25) == "25\xa0%" and english.percent(0.25) == "25%"
    assert french.join(["Ana", "Bo", "Cy"]) == "Ana, Bo et Cy"
    assert english.join(["Ana", "Bo", "Cy"]) == "Ana, Bo, and Cy"
    assert french.join(["1d", "3d"], style="or") == "1d ou 3d"
    # A number keeps its unit on its line (CLDR's spaces do not break).
    assert french.duration(90061) == "1\xa0jour et 1\xa0heure"
    assert plain(english.duration(3 * 3600 + 600)) == "3 hours and 10 minutes"
    assert plain(english.duration(86400 + 59)) == "1 day"  # the next unit down is zero
    assert plain(english.duration(0)) == "0 seconds"
    assert plain(french.duration(3 * 86400 + 60, length="short")) == "3 j"
    assert plain(languages.language("de").duration(7200)) == "2 Stunden"
    assert plain(languages.language("sv-SE").duration(600)) == "10 minuter"


def test_the_pseudo_locale_marks_and_lengthens_every_string_keeping_placeholders(
    languages: Languages,
) -> None:
    marked = languages.language(PSEUDO)
    text = marked.gettext("Your move, {player}.", player="Ana")
    assert text.startswith("⟦") and text.endswith("⟧") and "Ana" in text
    assert "Your" not in text and len(text) > len("Your move, Ana.")
    assert marked.ngettext("{count} round", "{count} rounds", 3).startswith("⟦3 ŕöûñđš")
    # Code, mentions and links are kept as they are; names are only accented.
    line = pseudo("Try `/tafl move` <@1> at https://example.org/x, {player}.")
    assert "`/tafl move`" in line and "<@1>" in line and "https://example.org/x," in line
    assert placeholders(pseudo("{a} and {b} {{not one}}")) == {"a", "b"}
    assert is_command_name(pseudo("challenge", name=True))
    assert len(pseudo("word " * 40, limit=100)) == 100
    # TAFL_PSEUDO_LOCALE: every reader gets it, whatever their locale.
    assert Languages(LOCALES_DIR, pseudo=True).language("fr").is_pseudo


def test_the_pseudo_locale_leaves_what_escaped_the_template_unmarked(
    languages: Languages,
) -> None:
    """A string the extractor never saw (an f-string given to gettext, a template not
    updated) stays plain English in a pseudo-locale run: that is how such a run finds it."""
    marked = languages.language(PSEUDO)
    name = "Ana"
    assert marked.gettext(f"Good luck, {name}.") == "Good luck, Ana."
    assert unmarked(marked.gettext("Resign") + " " + marked.gettext(f"Bye {name}")) == ["Bye Ana"]
    assert marked.translated("command name", "challenge") == "çĥàļļéñĝé"
    assert marked.translated("command name", "not-a-command") is None


def test_a_pseudo_locale_text_gives_back_its_english(languages: Languages) -> None:
    """What the end-to-end tests read in a pseudo-locale run: the English, its values (nested
    strings, a case changed, a text cut short by a limit) included."""
    marked = languages.language(PSEUDO)
    line = marked.gettext("Your move, {player}.", player=marked.ngettext("{count} round", "", 1))
    assert unpseudo(line) == "Your move, 1 round."
    assert unpseudo(pseudo("Defenders win").upper()) == "DEFENDERS WIN"
    assert unpseudo(pseudo("Try `/tafl move` <@1> · {x}")) == "Try `/tafl move` <@1> · {x}"
    assert unpseudo(pseudo("word " * 40, limit=50)) == ("word " * 40)[:48]
    assert unpseudo("ann, e5 ·") == "ann, e5 ·"


def test_the_pseudo_locale_marks_cldrs_words_in_lists_and_durations(
    languages: Languages,
) -> None:
    """Lists' and durations' words come from CLDR, translated for every locale: marked in a
    pseudo-locale run, so that they are not taken for words that escaped translation."""
    marked = languages.language(PSEUDO)
    joined = marked.join(["{ann}", "bo", "cy"])
    assert unmarked(joined) == [] and unpseudo(joined) == "{ann}, bo, and cy"
    assert unmarked(marked.join(["a", "b"], style="or")) == []
    assert unpseudo(marked.duration(3660)) == "1 hour and 1 minute"
    assert unmarked(marked.duration(3660)) == []
    assert marked.join(["one"]) == "one"


def test_a_command_is_named_as_the_readers_discord_shows_it(languages: Languages) -> None:
    assert languages.language("fr").command("tafl challenge") == "/tafl défier"
    assert languages.language("es-ES").command("tafl challenge") == "/tafl challenge"
    assert languages.language("fr").translated("command name", "challenge") == "défier"
    assert languages.language("es-ES").translated("command name", "challenge") is None


def test_a_channel_reads_the_servers_choice_else_its_discord_language(
    languages: Languages,
) -> None:
    assert languages.for_channel("fr", "es-ES").catalogue == "fr"
    assert languages.for_channel(None, "es-419").catalogue == "es"
    assert languages.for_channel(None, None).catalogue == ENGLISH
    # What one person reads alone follows their own client.
    assert languages.for_reader("es-419").catalogue == "es"
    assert languages.for_reader("en-GB").catalogue == ENGLISH


def test_text_outside_the_pseudo_locales_marks_is_found(languages: Languages) -> None:
    marked = languages.language(PSEUDO)
    line = marked.gettext("Your move, {player}.", player="Ana")
    assert unmarked(line) == []  # the name is inside, as a placeholder's value
    assert unmarked(f"Game over. {line} ({marked.gettext('Resign')})") == ["Game over.", "(", ")"]
    assert languages.language("fr") is languages.language("fr")
