"""What the code once fixed in English, now each reader's: the words players type (a time's
units, "none", "all"), the option names the refusals tell them to fill in, the crosstable's
side letters, the variants' titles in the lobby and an event's kind, in every shipped
language, English's output unchanged."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from crosstable_samples import eight_player_swiss
from test_bot_tournament_sheet import swiss
from test_compose_lobby_tournaments_fr import event, seek

from bot.discord_bot.app.durations import (
    NO_LIMIT_WORDS,
    UNIT_SECONDS,
    UNIT_WORDS,
    NotATime,
    TimeOutOfRange,
    parse_move_time,
)
from bot.discord_bot.app.lobby import LobbyOff, NameWhomToBlock
from bot.discord_bot.app.players import NotAVariant, parse_times, parse_variants
from bot.discord_bot.app.tournaments import (
    MinutesForArenas,
    RoundsForSwiss,
    RoundShorterThanMove,
)
from bot.discord_bot.compose import board, catalogs, lobby, tournaments
from bot.discord_bot.compose.challenges import TIME_OPTION
from bot.discord_bot.compose.errors import refusal_words
from bot.discord_bot.compose.inputs import (
    UNITS,
    input_words,
    spellings,
    time_examples,
    typed_words,
)
from bot.discord_bot.compose.players import SETTINGS_TIME_OPTION
from bot.discord_bot.compose.post import Answer
from bot.i18n.language import (
    ENGLISH_LANGUAGE,
    LOCALES_DIR,
    OPTION_DESCRIPTION,
    Language,
    Languages,
)
from bot.render.crosstable import crosstable_text
from bot.storage.lobby import Waiting

LANGUAGES = Languages()
SV, FR = LANGUAGES.language("sv"), LANGUAGES.language("fr")
SHIPPED = [LANGUAGES.language(code) for code in LANGUAGES.codes]
COMPOSE = Path(__file__).resolve().parents[1] / "bot" / "discord_bot" / "compose"

# ---------------------------------------------------------------------------- typed words


def test_a_swedish_or_french_player_types_their_own_words() -> None:
    swedish, french = input_words(SV), input_words(FR)
    assert parse_move_time("ingen", swedish) is None
    assert parse_move_time("1t", swedish) == 3600
    assert parse_move_time("2 dagar", swedish) == 2 * 86400
    assert parse_times("alla", swedish) == frozenset()
    assert parse_variants("alla", swedish) == frozenset()
    assert parse_move_time("aucune", french) is None
    assert parse_move_time("3j", french) == 3 * 86400
    assert parse_variants("toutes", french) == frozenset()
    # English's words keep working in every language.
    for words in (swedish, french):
        assert parse_move_time("none", words) is None
        assert parse_move_time("24h", words) == 86400
        assert parse_times("all", words) == frozenset()


@pytest.mark.parametrize("lang", SHIPPED, ids=lambda lang: lang.catalogue)
def test_each_languages_words_mean_one_thing_and_parse(lang: Language) -> None:
    """A translation's spellings: each one unit (or no limit), never a different unit than
    English gives it, and each read by the parser as it says."""
    words = input_words(lang)
    meanings: dict[str, str] = {}
    for unit, spelling in [(u, s) for s, u in words.units.items()] + [
        ("none", s) for s in words.no_limit
    ]:
        assert meanings.setdefault(spelling, unit) == unit, (spelling, unit)
        assert UNIT_WORDS.get(spelling, unit) == unit, (spelling, unit)
        assert spelling not in NO_LIMIT_WORDS or unit == "none", spelling
    amounts = {"s": 30, "m": 10, "h": 2, "d": 2}
    for spelling, unit in words.units.items():
        expected = amounts[unit] * UNIT_SECONDS[unit]
        assert parse_move_time(f"{amounts[unit]}{spelling}", words) == expected
        assert parse_move_time(f"{amounts[unit]} {spelling}", words) == expected
    for spelling in words.no_limit:
        assert parse_move_time(spelling, words) is None
    for example in time_examples(lang).values():
        parse_move_time(example, words)  # what the refusals show is accepted


def test_the_refusals_name_the_readers_words() -> None:
    assert refusal_words(NotATime("snart"), SV) == (
        "'snart' är ingen tid: skriv den som `30s`, `10m`, `24t` eller `3d`, eller `ingen` för "
        "ingen gräns."
    )
    assert "`3j`" in refusal_words(NotATime("bientôt"), FR)
    assert "`aucune`" in refusal_words(TimeOutOfRange(10, 14 * 86400), FR)
    assert refusal_words(NotAVariant("x", ("tablut",)), SV).endswith("eller ”alla”.")
    # English as before.
    assert refusal_words(NotATime("soon"), ENGLISH_LANGUAGE) == (
        "'soon' is not a time: write it like `30s`, `10m`, `24h` or `3d`, or `none` for no limit."
    )
    assert refusal_words(NotAVariant("x", ("tablut",)), ENGLISH_LANGUAGE) == (
        "'x' is not a variant: write names from tablut, or 'all'."
    )


@pytest.mark.parametrize("lang", SHIPPED, ids=lambda lang: lang.catalogue)
def test_the_time_options_descriptions_name_words_the_parser_takes(lang: Language) -> None:
    """The picker's descriptions are fixed strings Discord registers: each language's must
    name its own word for no limit, not English's."""
    none = typed_words(lang)["none"]
    for description in (TIME_OPTION, SETTINGS_TIME_OPTION):
        translated = lang.pgettext(OPTION_DESCRIPTION, description)
        assert none in translated and "none" not in translated, translated


def test_input_words_are_listed_one_per_line_of_the_catalogue() -> None:
    assert spellings(" T | tim|timmar |t") == ("t", "tim", "timmar")
    assert set(typed_words(ENGLISH_LANGUAGE)) == {"none", "all", *UNITS}
    assert dict(typed_words(ENGLISH_LANGUAGE)) == {k: k for k in ("none", "all", *UNITS)}


# ---------------------------------------------------------------------------- option names


def test_the_refusals_name_options_as_the_readers_picker_does() -> None:
    assert refusal_words(RoundsForSwiss(), FR).startswith("`rondes` ne sert qu'au système suisse")
    assert refusal_words(MinutesForArenas(), SV) == (
        "`minuter` gäller bara arenor: en schweizerturnering har `ronder`."
    )
    assert "`durée_ronde`" in refusal_words(RoundShorterThanMove(3600, 86400), FR)
    assert f"{FR.command('tafl block')} partie:12" in refusal_words(NameWhomToBlock(), FR)
    assert refusal_words(RoundsForSwiss(), ENGLISH_LANGUAGE) == (
        "`rounds` is for Swiss events (a round robin plays everyone once)."
    )
    assert "(`/tafl block game:12`)" in refusal_words(NameWhomToBlock(), ENGLISH_LANGUAGE)
    spanish = LANGUAGES.language("es")
    assert f"{spanish.command('tafl settings')} sala:True`" in refusal_words(LobbyOff(), spanish)
    assert "`/tafl settings lobby:True`" in refusal_words(LobbyOff(), ENGLISH_LANGUAGE)


def test_every_option_a_sentence_names_is_a_commands_option() -> None:
    named = {
        name
        for path in COMPOSE.glob("*.py")
        for name in re.findall(r"\.option\(\"(\w+)\"\)", path.read_text(encoding="utf-8"))
    }
    assert {"rounds", "minutes", "round_time", "game", "lobby"} <= named
    template = catalogs.read(catalogs.TEMPLATE)
    options = {m.id for m in template if m.context == "option name"}
    assert named <= options


# ---------------------------------------------------------------------------- the crosstable


def test_the_text_crosstables_side_letters_are_the_readers_and_match_its_legend() -> None:
    swedish = crosstable_text(replace(eight_player_swiss(), words=tournaments.crosstable_words(SV)))
    assert "a/f: spelade med anfallarna/försvararna" in swedish
    assert re.search(r"\b\d+f\b", swedish) and not re.search(r"\b\d+d\b", swedish)
    german = crosstable_text(
        replace(eight_player_swiss(), words=tournaments.crosstable_words(LANGUAGES.language("de")))
    )
    assert "a/v: spielte" in german and re.search(r"\b\d+v\b", german)
    english = crosstable_text(eight_player_swiss())
    assert "a/d: played attackers/defenders" in english and re.search(r"\b\d+d\b", english)


# ---------------------------------------------------------------------------- variants' titles


def test_the_lobby_names_variants_as_the_readers_picker_does() -> None:
    [answer] = lobby.waiting(Waiting(seek(), 2), lang=SV)
    assert isinstance(answer, Answer)
    assert "**Köpenhamnshnefatafl**" in (answer.post.content or "")
    assert "Copenhagen" not in (answer.post.content or "")
    [english] = lobby.waiting(Waiting(seek(), 2))
    assert isinstance(english, Answer)
    assert "**Copenhagen Hnefatafl**" in (english.post.content or "")


def test_an_events_kind_is_one_sentence_in_each_language() -> None:
    running = event(spec=swiss(), status="running", round=2)
    assert tournaments.standings_subtitle(running, 2, lang=SV).startswith(
        "Schweizerturnering i Brandubh · "
    )
    assert tournaments.standings_subtitle(running, 2).startswith("Brandubh Swiss · ")
    assert tournaments.describe_event(running, lang=FR).startswith("Brandubh en système suisse")
    assert board.variant_title("copenhagen", LANGUAGES.language("de")) == "Kopenhagener Hnefatafl"


def test_the_catalogues_hold_every_string_of_these_fixes() -> None:
    for code in LANGUAGES.codes:
        catalogue = catalogs.read(LOCALES_DIR / f"{code}.po", code)
        for context, message in (
            ("input words", "none"),
            ("input words", "h"),
            ("crosstable side", "d"),
            ("event kind", "{variant} Swiss"),
        ):
            found = catalogue.get(message, context=context)
            assert found is not None and found.string and not found.fuzzy, (code, message)
