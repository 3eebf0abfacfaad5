"""The tactical suite of late forced losses mined from the recorded Copenhagen games
(``tests/copenhagen_suite.py``, ``tests/data/copenhagen-suite.jsonl``): exit forts, encirclements
and king captures that a real player walked into although another move held.

- ``hard``, at its own limits, avoids every one of them: after its move the other side cannot
  force a win within five plies (proved by a full-width search, and where that search finds one,
  by the rules engine's endings alone, which then must agree: only a real forced loss fails).
  Both builds play the same move (the pure Python on a few cases; ``tests/test_native.py``
  proves the two searches alike node for node).
- A review of the game names the move that allowed the loss, or one of the same side's moves
  before it, as a decisive moment (the position before the losing move was not lost within six
  plies, but a longer loss may already have been there), unless the review holds the game lost
  already before it (the loser's chances under :data:`~bot.ai.analysis.HOPELESS`).

The held-out half (the even-numbered games) was checked only once the work on the search and
the reviews was done: there ``hard`` avoided 29 of its 34 losses (every exit fort and king
capture; not four encirclements and a loss by no legal move), and the reviews blamed all but
one (an encirclement). The known gaps are marked (:data:`HARD_GAPS`, :data:`REVIEW_GAPS`). The
king captures in two plies are left out of the reviews' test: most came in games already lost.
"""

from __future__ import annotations

import pytest
from copenhagen_records import load_games
from copenhagen_suite import Case, full_width, load_suite, wins_within

from bot.ai import fast, search, think
from bot.ai.analysis import (
    HOPELESS,
    PositionEval,
    calibration_for,
    chance_for,
    deepen,
    evaluate_position,
    review,
)
from bot.ai.player import move_text
from bot.engine import Board, Game, get_variant

SUITE = load_suite()
needs_fast = pytest.mark.skipif(
    not fast.supports(get_variant("copenhagen")),
    reason=f"proving 11x11 positions five plies deep needs the fast core ({fast.state()})",
)


def _label(case: Case) -> str:
    half = "held-out" if case.held_out else "dev"
    return f"{half}-game{case.game}-ply{case.ply}-{case.ending.replace(' ', '-')}"


def _forces_a_win(game: Game) -> bool:
    """Whether the side to move in ``game`` forces a win within five plies: found by a
    full-width search, then proved by the rules engine's endings alone (the search scores any
    return to a position as the attackers' win, which the rules do not at a second
    occurrence)."""
    mate, _ = full_width(game, 5)
    if mate is None or not 0 < mate <= 5:
        return False
    return wins_within(Board(game.variant, list(game.board.cells), game.board.turn), mate)


HARD_GAPS = {
    (352, 67),
    (364, 77),
    (364, 79),
    (532, 35),
    (657, 95),
    (740, 39),
    (859, 91),
    (983, 179),
}
"""Cases ``hard`` still loses (checked once both halves were mined): encirclements, a loss by no
legal move, and two lines that end neither by a fort nor a capture. Its quiescence reads the
defenders' exit forts, not yet the attackers' encirclements. Every exit fort and king capture
of the suite is avoided."""
REVIEW_GAPS = {(532, 35)}
"""Suite games whose review does not yet blame the loser (an encirclement)."""


def _gaps(cases: list[Case], gaps: set[tuple[int, int]]) -> list[object]:
    """The cases, those in ``gaps`` marked as the known failures they are."""
    mark = pytest.mark.xfail(reason="a known gap (an encirclement or a line not read)", strict=True)
    return [pytest.param(c, marks=mark) if (c.game, c.ply) in gaps else c for c in cases]


def test_the_suite_holds_forts_and_both_halves() -> None:
    endings = {case.ending for case in SUITE}
    assert "exit fort" in endings and len(SUITE) >= 20
    assert any(case.held_out for case in SUITE) and any(not case.held_out for case in SUITE)


@needs_fast
@pytest.mark.parametrize("case", _gaps(SUITE, HARD_GAPS), ids=_label)
def test_hard_avoids_every_loss_of_the_suite(case: Case) -> None:
    board = case.board()
    result = think(board, "hard", seed=1, fresh=True)
    assert result.move is not None
    played = move_text(result.move, 11)
    after = case.game_before()
    after.play(played)
    if after.outcome is not None:
        assert after.outcome.winner is case.side, f"{played} ends the game against hard"
        return
    assert not _forces_a_win(after), f"{played} loses by force (the game played {case.losing})"


@needs_fast
@pytest.mark.parametrize("case", [c for c in SUITE if c.ending == "exit fort"][:3], ids=_label)
def test_the_pure_python_hard_plays_the_same_move(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = think(case.board(), "hard", seed=1, fresh=True)
    monkeypatch.setattr(search.fast_core, "supports", lambda variant: False)
    python = think(case.board(), "hard", seed=1, fresh=True)
    assert (python.move, python.score, python.nodes) == (
        expected.move,
        expected.score,
        expected.nodes,
    )


REVIEW_BEFORE = 6
"""How many plies before the losing move a suite game's review starts."""


@needs_fast
@pytest.mark.parametrize(
    "case", _gaps([c for c in SUITE if c.ending != "king captured"], REVIEW_GAPS), ids=_label
)
def test_a_review_names_the_move_that_allowed_the_loss(case: Case) -> None:
    [recorded] = [game for game in load_games() if game.index == case.game]
    moves = [move for move, _ in recorded.moves]
    start_ply = max(0, case.ply - REVIEW_BEFORE)
    game = Game("copenhagen")
    for move in moves[:start_ply]:
        game.play(move)
    start, turn = game.position_otn(), game.turn
    tail = []
    for move in moves[start_ply:]:
        game.play(move)
        tail.append(move)
        if game.outcome is not None:
            break

    def evaluate(index: int, depth: int, exclude: str | None = None) -> PositionEval:
        return evaluate_position(
            "copenhagen", start, turn, tail[:index], max_depth=depth, exclude=exclude
        )

    depth = 5
    evals = [evaluate(index, depth) for index in range(len(tail) + 1)]
    deeper = deepen(evals, depth, tail, turn, "copenhagen", evaluate)
    analysis = review("copenhagen", start, turn, tail, deeper)
    losing_ply = case.ply - start_ply + 1
    before = chance_for(case.side, deeper[losing_ply - 1], calibration_for("copenhagen"))
    if before < HOPELESS:
        return  # the review holds the game lost already (as lichess, it blames nobody then)
    blamed = [
        moment
        for moment in analysis.moments
        if moment.kind.decisive and moment.side is case.side and moment.ply <= losing_ply
    ]
    named = [(m.ply, m.move, m.kind.value) for m in analysis.moments]
    assert blamed, f"{case.losing} (ply {losing_ply}) allowed the loss; the review named {named}"
