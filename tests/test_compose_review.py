"""The review as the composition builds it: plain posts (no Discord), the chart and boards as
images to render, the reasons of its moments and the service's refusals in words."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import MADE_UP_BLUNDER, made_up_analysis, untranslated

from bot.ai import explain
from bot.ai.analysis import MomentKind
from bot.discord_bot.app.errors import Refused
from bot.discord_bot.app.reviews import (
    NoFinishedGame,
    NoResult,
    Reviewed,
    ReviewProgress,
    ReviewWaiting,
    StillPlaying,
)
from bot.discord_bot.compose import review as compose
from bot.discord_bot.compose.board import PLAIN, BoardLook
from bot.discord_bot.compose.post import Chart, Picture, Revise
from bot.discord_bot.table import EMBED_FIELD_VALUE, friendly_message
from bot.engine import Side, Termination
from bot.i18n.language import Languages
from bot.render import analysis_view, render_png
from bot.render.chart import ChartWords, render_eval_chart
from bot.storage import GameRecord, GameResult, GameStatus, Participant

REASONS: list[explain.Reason] = [
    explain.MissedFinish("a4-a7", Termination.KING_ESCAPED, Side.ATTACKERS),
    explain.MissedFinish("a4-a7", Termination.NO_LEGAL_MOVE, Side.ATTACKERS),
    explain.Allowed("d4-d8", "e9-c9", Termination.KING_ESCAPED, "c9", Side.ATTACKERS),
    explain.Allowed("d4-e4", "g5-e5", Termination.KING_CAPTURED, "e5", Side.DEFENDERS),
    explain.MissedDefence(
        explain.Allowed("e2-e4", "e5-e9", Termination.KING_ESCAPED, "e9", Side.ATTACKERS, True),
        "d8-e8",
    ),
    explain.MissedDefence(
        explain.Allowed("e5-e6", "b6-b4", Termination.KING_CAPTURED, "b4", Side.DEFENDERS, True),
        "e6-e7",
    ),
    explain.Repeated("b4-c4", None),
    explain.Repeated("b4-c4", Side.DEFENDERS),
    explain.OpenedRoads("d4-d5", ("g5", "a5")),
    explain.OpenedRoads("d4-d5", ("a5",)),
    explain.ForcedWin("d4-d5"),
    explain.ForcedWin("d4-d5", Side.ATTACKERS, "a3-a4", "d5-a5", Termination.KING_ESCAPED),
    explain.SlippedWin("d3-d2", "d3-c3", 3),
    explain.LostByForce(
        "g3-g2", Side.DEFENDERS, "f2-f1", explain.OpensRoads("f2-f1", ("a1", "g1")), True
    ),
    explain.LostByForce("i3-g3", Side.DEFENDERS, "j7-j3"),
    explain.LostByForce("i3-g3", Side.DEFENDERS, "j7-j3", standing=True),
    explain.ChancesFell(
        "d4-d5",
        Side.DEFENDERS,
        0.5,
        0.25,
        explain.ForNothing("d4-d5", 1, Side.DEFENDERS, ("c5",), "e6-e5"),
    ),
    explain.ChancesFell(
        "d4-d5",
        Side.ATTACKERS,
        0.5,
        0.25,
        explain.Captures("e6-e5", 2, Side.ATTACKERS, ("d5", "f5")),
    ),
    explain.ChancesFell("f6-f7", Side.ATTACKERS, 0.7, 0.3, explain.KingGoes("c2")),
    explain.ChancesFell("f6-f7", Side.ATTACKERS, 0.7, 0.3, explain.Plays(Side.DEFENDERS, "a1-a2")),
    explain.ChancesFell("f6-f7", Side.ATTACKERS, 0.7, 0.3),
]


def test_each_reason_is_worded_and_says_what_the_game_record_says() -> None:
    words = {compose.reason_words(reason) for reason in REASONS}
    assert len(words) == len(REASONS) and all(words)
    for reason in REASONS:
        # The review and the game record's remarks say the same of a move.
        assert compose.reason_words(reason) == explain.describe(reason)
    assert compose.reason_words(REASONS[2]) == "d4-d8 lets the king reach c9"
    assert compose.reason_words(REASONS[4]) == (
        "e2-e4 leaves the king's road to e9 open; d8-e8 would have closed it"
    )
    assert compose.reason_words(REASONS[8]) == (
        "d4-d5 would have opened two roads for the king (g5 and a5): one move cannot close both"
    )
    assert compose.reason_words(REASONS[16]) == (
        "d4-d5 loses the defender on c5 to e6-e5 for nothing: the defenders' chances fall from "
        "50% to 25%"
    )


def record(result: GameResult | None = GameResult.ATTACKERS) -> GameRecord:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return GameRecord(
        id=7, guild_id=1, channel_id=1, variant="brandubh", start_position=None,
        first_turn="attackers", attackers=Participant.user(1, "Ann"),
        defenders=Participant.user(2, "Ben"), rated=True, status=GameStatus.FINISHED,
        result=result, reason=Termination.GROUP_CAPTURED, ply=19, move_seconds=None,
        move_deadline=None, reminder_sent=False, board_message_id=None, problem=None,
        created_at=now, updated_at=now, ended_at=now,
    )  # fmt: skip


def test_the_review_replaces_the_progress_line_with_its_card_chart_and_boards() -> None:
    analysis = made_up_analysis((MADE_UP_BLUNDER,))
    look = BoardLook(theme="contrast", flip=True)
    [revise] = compose.review(Reviewed(record(), analysis, 10), look)
    assert isinstance(revise, Revise) and not revise.quiet
    post = revise.post
    assert post.content is None  # the progress line goes
    assert post.card is not None and post.card.picture
    assert post.card.title == "Review of game #7 (Brandubh, 10 moves)"
    assert post.card.description.startswith("Ann won with the attackers (")
    [field] = post.card.fields
    assert field.name == "The moments that decided it" and not field.inline
    assert field.value.startswith("**4… f5-f3** Ben (defenders), blunder: lets the attackers")
    chart, board = post.pictures
    # The chart first: the card shows it.
    assert chart == Chart(analysis, "review-7.png", "contrast", compose.CHART_WORDS)
    assert isinstance(board, Picture) and board.filename == "review-7-move-8.png"
    assert (board.theme, board.flip) == ("contrast", True)
    # Drawn as the renderer's own view of the moment draws it.
    view = analysis_view(analysis, 8, caption=True, attackers="Ann", defenders="Ben")
    assert render_png(board.view, theme="contrast", flip=True) == render_png(
        view, theme="contrast", flip=True
    )


def test_the_charts_words_are_the_compositions() -> None:
    analysis = made_up_analysis((MADE_UP_BLUNDER,))
    assert render_eval_chart(analysis, words=compose.CHART_WORDS) == render_eval_chart(analysis)
    kinds = {**compose.CHART_WORDS.kinds, MomentKind.BLUNDER: "gaffe"}
    renamed = ChartWords(kinds=kinds)
    assert render_eval_chart(analysis, words=renamed) != render_eval_chart(analysis)
    # A game without moments says so in its legend, in the words given.
    quiet = made_up_analysis()
    silent = replace(compose.CHART_WORDS, no_moments="all quiet")
    assert render_eval_chart(quiet, words=silent) != render_eval_chart(quiet)


def test_the_progress_is_a_quiet_rewrite_of_the_answer() -> None:
    [revise] = compose.progress(ReviewProgress(3, 0, 11, 0.0))
    assert isinstance(revise, Revise) and revise.quiet  # a courtesy: a failure is only logged
    assert revise.post.content == "Reviewing game #3: 0 of 11 positions searched…"
    [waiting] = compose.progress(ReviewWaiting(3, 2))
    assert waiting.post.content is not None
    assert waiting.post.content.startswith("Game #3 will be reviewed after your 2 other reviews")
    [deeper] = compose.progress(ReviewProgress(3, 11, 11, 2.0, deeper=True))
    assert deeper.post.content is not None and "looking deeper" in deeper.post.content


def test_the_moments_listed_fit_a_card_field() -> None:
    assert compose.FIELD_ROOM == EMBED_FIELD_VALUE


def test_the_review_services_refusals_are_worded() -> None:
    assert friendly_message(Refused(NoFinishedGame())) == (
        "No game has finished in this channel yet: name one, e.g. `/tafl analyze game:12`."
    )
    assert friendly_message(Refused(StillPlaying(4))) == (
        "Game #4 is still being played: it can be reviewed once it ends."
    )
    assert friendly_message(Refused(NoResult(4))) == (
        "Game #4 ended without a result, so there is nothing to review."
    )


FRENCH = Languages().language("fr")


def test_a_review_reads_in_french_in_a_french_channel(tmp_path: Path) -> None:
    analysis = made_up_analysis((MADE_UP_BLUNDER,))
    [revise] = compose.review(Reviewed(record(), analysis, 10), PLAIN, lang=FRENCH)
    card = revise.post.card
    assert card is not None
    assert card.title == "Analyse de la partie n° 7 (Brandubh, 10 coups)"
    assert card.description.startswith("Ann a gagné avec les attaquants (")
    assert "Ann (attaquants) : précision " in card.description
    [field] = card.fields
    assert field.name == "Les moments qui l'ont décidée"
    assert field.value.startswith(
        "**4… f5-f3** Ben (défenseurs), gaffe : laisse les attaquants jouer d1-d2, et les "
        "chances des défenseurs tombent de 50\xa0% à 17\xa0% ; mieux valait **f5-f4**."
    ), field.value
    chart, board = revise.post.pictures
    assert isinstance(chart, Chart) and chart.words == compose.chart_words(FRENCH)
    assert chart.words.kinds[MomentKind.BLUNDER] == "gaffe"
    assert (chart.words.accuracy, chart.words.attackers) == ("précision", "Attaquants")
    assert chart.words.percent == "{value}\xa0%"
    # The chart and the moment's board are drawn with these words (looked at in French).
    drawn = render_eval_chart(analysis, words=chart.words)
    assert drawn != render_eval_chart(analysis)
    (tmp_path / "chart-fr.png").write_bytes(drawn)
    assert isinstance(board, Picture) and board.view.caption is not None
    assert board.view.caption.status == "Gaffe : mieux valait f5-f4"
    assert compose.moment_status(analysis, 8, lang=FRENCH)[1] == "Gaffe : mieux valait f5-f4"


def test_each_reason_reads_in_french() -> None:
    worded = [compose.reason_words(reason, lang=FRENCH) for reason in REASONS]
    assert len(set(worded)) == len(REASONS)
    english = [compose.reason_words(reason) for reason in REASONS]
    assert not set(worded) & set(english)
    assert worded[2] == "d4-d8 laisse le roi atteindre c9"
    assert worded[4] == "e2-e4 laisse ouverte la voie du roi vers e9 ; d8-e8 l'aurait fermée"
    assert worded[8] == (
        "d4-d5 aurait ouvert deux voies au roi (g5 et a5) : un seul coup ne peut pas fermer "
        "les deux"
    )
    assert worded[16] == (
        "d4-d5 perd pour rien le défenseur en c5, pris par e6-e5, et les chances des défenseurs "
        "tombent de 50\xa0% à 25\xa0%"
    )
    assert worded[17].startswith("d4-d5 permet e6-e5, qui prend 2 attaquants en d5 et f5, et ")


def test_the_progress_and_the_refusals_read_in_french() -> None:
    [revise] = compose.progress(ReviewProgress(3, 0, 11, 0.0), lang=FRENCH)
    assert revise.post.content == "Analyse de la partie n° 3 : 0 position examinée sur 11…"
    [waiting] = compose.progress(ReviewWaiting(3, 2), lang=FRENCH)
    assert (waiting.post.content or "").startswith(
        "La partie n° 3 sera analysée après vos 2 autres analyses"
    )
    [going] = compose.progress(ReviewProgress(3, 4, 11, 8.0), lang=FRENCH)
    assert going.post.content == (
        "Analyse de la partie n° 3 : 4 positions examinées sur 11, encore 15 s environ…"
    )
    assert friendly_message(Refused(NoFinishedGame()), FRENCH) == (
        "Aucune partie n'est encore terminée dans ce salon : indiquez-en une, par exemple "
        "`/tafl analyser partie:12`."
    )
    assert friendly_message(Refused(StillPlaying(4)), FRENCH) == (
        "La partie n° 4 est encore en cours : elle pourra être analysée une fois terminée."
    )


@pytest.mark.parametrize(
    ("code", "title"),
    [
        ("fr", "Analyse de la partie n° 7 (Brandubh, 10 coups)"),
        ("es", "Análisis de la partida n.º 7 (Brandubh, 10 jugadas)"),
        ("sv", "Analys av parti nr 7 (Brandubh, 10 drag)"),
        ("de", "Analyse von Partie Nr. 7 (Brandubh, 10 Züge)"),
    ],
)
def test_every_string_of_the_review_is_translated(code: str, title: str) -> None:
    assert untranslated(code, "compose/review.py") == []
    lang = Languages().language(code)
    analysis = made_up_analysis((MADE_UP_BLUNDER,))
    [revise] = compose.review(Reviewed(record(), analysis, 10), PLAIN, lang=lang)
    assert revise.post.card is not None and revise.post.card.title == title
