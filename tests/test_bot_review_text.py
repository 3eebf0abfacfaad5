"""The review's text: which moments it lists when there are more than fit, and how each reads."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.ai.analysis import GameAnalysis, Moment, MomentKind, PositionEval
from bot.ai.explain import Allowed, ChancesFell, MissedDefence, OpensRoads, Plays, Reason
from bot.ai.search import MATE
from bot.discord_bot.compose.review import (
    MOMENTS_LISTED,
    inaccuracies_text,
    listed_moments,
    moment_line,
    progress_text,
    result_line,
)
from bot.discord_bot.table import EMBED_FIELD_VALUE
from bot.engine import Side, Termination, get_variant
from bot.i18n.language import Languages
from bot.storage import GameEnding, GameRecord, GameResult, GameStatus, Participant, TableEnding

NAMES = {Side.ATTACKERS: "Ann", Side.DEFENDERS: "Ben"}


LONG = ChancesFell("a4-a3", Side.ATTACKERS, 0.6, 0.1, OpensRoads("e5-e7", ("x" * 90,)))
"""A reason whose words are long: ``a4-a3 allows e5-e7, opening a road for the king to xxx…``."""
SHORT = Allowed("a4-a3", "e5-a7", Termination.KING_ESCAPED, "a7", Side.ATTACKERS)
"""``a4-a3 lets the king reach a7``."""
PLAYS = ChancesFell("a4-a3", Side.ATTACKERS, 0.6, 0.2, Plays(Side.DEFENDERS, "e5-e7"))


def moment(ply: int, loss: float, *, critical: bool = False, why: Reason = LONG) -> Moment:
    return Moment(
        ply=ply,
        side=Side.ATTACKERS if ply % 2 else Side.DEFENDERS,
        kind=MomentKind.BLUNDER,
        move="a4-a3",
        better="d2-d3",
        before=0,
        after=0,
        reason=why,
        loss=loss,
        critical=critical,
    )


def analysis(moments: list[Moment]) -> GameAnalysis:
    brandubh = get_variant("brandubh")
    return GameAnalysis(
        variant="brandubh",
        start_position=brandubh.start,
        first_turn=brandubh.first,
        moves=("a4-a3",) * 40,
        evals=(),
        moments=tuple(moments),
        move_accuracy=(),
        attackers_accuracy=None,
        defenders_accuracy=None,
    )


def test_the_boards_moments_and_the_costliest_are_listed_whole_in_game_order() -> None:
    # Twelve early small slips, then the two that decided the game (shown as boards).
    moments = [moment(ply, 0.21) for ply in range(1, 13)]
    moments += [moment(30, 0.6, critical=True), moment(35, 0.9, critical=True)]
    moments.insert(3, moment(4, 0.5))
    reviewed = analysis(moments)
    lines, left_out = listed_moments(reviewed, NAMES)
    text = "\n".join(lines)
    assert len(text) <= EMBED_FIELD_VALUE and len(lines) < len(moments)
    assert left_out == len(moments) - len(lines)
    assert lines[-2].startswith("**15… a4-a3**") and lines[-1].startswith("**18. a4-a3**")
    assert any(line.startswith("**2… a4-a3**") for line in lines)  # the costliest early one
    assert all(line.endswith(".") for line in lines)  # none cut short
    plies = [int(line.split("**")[1].split(".")[0].split("…")[0]) for line in lines]
    assert plies == sorted(plies)


def test_at_most_eight_are_listed_even_when_short() -> None:
    moments = [moment(ply, 0.3, why=SHORT) for ply in range(1, 20)]
    lines, left_out = listed_moments(analysis(moments), NAMES)
    assert len(lines) == MOMENTS_LISTED and left_out == 19 - MOMENTS_LISTED


def test_the_better_move_is_named_once() -> None:
    reviewed = analysis([])
    named = moment(3, 0.4, why=MissedDefence(replace(SHORT, standing=True), "d2-d3"))
    line = moment_line(reviewed, named, NAMES)
    assert line.endswith("leaves the king's road to a7 open; d2-d3 would have closed it.")
    plain = moment(3, 0.4, why=PLAYS)
    line = moment_line(reviewed, plain, NAMES)
    # The move is said once, in bold at the start.
    assert line == (
        "**2. a4-a3** Ann (attackers), blunder: lets the defenders play e5-e7: the attackers' "
        "chances fall from 60% to 20%; better **d2-d3**."
    )


def test_the_move_is_named_once_in_a_language_whose_sentence_opens_with_punctuation() -> None:
    """The explanation's sentence starts with the move after an opening mark (Spanish's ¡,
    French's «, the pseudo-locale's ⟦): the line, which starts with the move in bold, drops
    it there too."""
    marked = Languages(pseudo=True).language(None)
    line = moment_line(analysis([]), moment(3, 0.4, why=SHORT), NAMES, lang=marked)
    assert line.count("a4-a3") == 1, line


def finished(result: GameResult | None, reason: GameEnding) -> GameRecord:
    brandubh = get_variant("brandubh")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return GameRecord(
        id=7, guild_id=1, channel_id=1, variant="brandubh", start_position=brandubh.start,
        first_turn="attackers", attackers=Participant.user(1, "Ann"),
        defenders=Participant.user(2, "Ben"), rated=True, status=GameStatus.FINISHED,
        result=result, reason=reason, ply=3, move_seconds=None, move_deadline=None,
        reminder_sent=False, board_message_id=None, problem=None, created_at=now,
        updated_at=now, ended_at=now,
    )  # fmt: skip


def ending_at(score: int, best: str | None = "a4-a5") -> GameAnalysis:
    """An analysis whose last position scores ``score`` (the attackers' view)."""
    return replace(analysis([]), evals=(PositionEval(0, "d2-d3"), PositionEval(score, best)))


def test_the_review_says_how_the_game_ended_and_what_a_resignation_gave_away() -> None:
    won = finished(GameResult.DEFENDERS, Termination.KING_ESCAPED)
    assert result_line(ending_at(-MATE, None), won, NAMES) == (
        "Ben won with the defenders (king escaped)."
    )
    drawn = finished(GameResult.DRAW, TableEnding.AGREED_DRAW)
    assert result_line(ending_at(0), drawn, NAMES) == "Drawn (agreed draw)."
    # Ben resigned with a forced win of his own on the board (the defenders' mate score).
    resigned = finished(GameResult.ATTACKERS, TableEnding.RESIGNATION)
    assert result_line(ending_at(-(MATE - 3)), resigned, NAMES) == (
        "Ben (defenders) resigned, with a forced win on the board (a4-a5 started it)."
    )
    better = result_line(ending_at(-900), resigned, NAMES)
    assert better.startswith("Ben (defenders) resigned where the engine gave them ")
    assert better.endswith("% winning chances.")
    assert result_line(ending_at(900), resigned, NAMES) == "Ben (defenders) resigned."
    late = finished(GameResult.DEFENDERS, TableEnding.TIMEOUT)
    assert result_line(ending_at(900), late, NAMES).startswith("Ann (attackers) ran out of time")


def test_the_progress_line_says_roughly_how_long_is_left() -> None:
    assert progress_text(3, 10, 100, 5.0) == (
        "Reviewing game #3: 10 of 100 positions searched, about 45 s left…"
    )
    assert progress_text(3, 10, 161, 9.0).endswith(", about 2 min left…")
    assert progress_text(3, 99, 100, 30.0).endswith(", about 5 s left…")  # never "0 s"
    # Shown before the first search, when there is no pace to tell yet.
    assert progress_text(3, 0, 100, 0.0) == "Reviewing game #3: 0 of 100 positions searched…"


def test_the_ais_name_takes_its_side_inside_its_own_brackets() -> None:
    names = {Side.ATTACKERS: "ann", Side.DEFENDERS: "Tafl AI (easy)"}
    line = moment_line(analysis([]), moment(4, 0.4, why=PLAYS), names)
    assert line.startswith("**2… a4-a3** Tafl AI (easy, defenders), blunder: lets the"), line
    resigned = finished(GameResult.ATTACKERS, TableEnding.RESIGNATION)
    assert result_line(ending_at(900), resigned, names) == "Tafl AI (easy, defenders) resigned."


def test_inaccuracies_are_grouped_by_side_with_what_each_cost() -> None:
    small = [
        replace(moment(12, 0.114), kind=MomentKind.INACCURACY, move="a4-a5"),
        replace(moment(15, 0.12), kind=MomentKind.INACCURACY, move="c3-c5"),
        replace(moment(20, 0.1), kind=MomentKind.INACCURACY, move="d5-d6"),
        replace(moment(22, 0.25), kind=MomentKind.MISTAKE),
    ]
    reviewed = analysis(small)
    assert inaccuracies_text(reviewed, NAMES) == (
        "Ann (attackers): 8. c3-c5 (−12%)\nBen (defenders): 6… a4-a5 (−11%), 10… d5-d6 (−10%)"
    )
    # Mistakes are listed in full, apart from the decisive moments.
    lines, left_out = listed_moments(reviewed, NAMES, moments=[small[-1]])
    assert left_out == 0 and lines[0].startswith("**11… a4-a3** Ben (defenders), mistake: ")
