"""The puzzle sessions on real SQLite storage, without Discord: the go a person is given, what
their moves (typed or clicked) do to it, and why a menu or a move is refused, as typed
refusals the composition words."""

from __future__ import annotations

from pathlib import Path

import pytest
from storage_helpers import FakeClock, open_storage
from without_discord import run_without_discord

from bot.discord_bot.app.errors import Refused
from bot.discord_bot.app.puzzles import (
    AllTried,
    DailyNeedsServer,
    IllegalMove,
    PieceStuck,
    PuzzleClosed,
    PuzzleSessions,
    StaleBoard,
)
from bot.engine import Game, square_name
from bot.storage import Participant

ANN = Participant.user(1, "ann")


def piece_that_cannot_move(game: Game) -> int:
    """A square of the side to move whose piece has no legal move (or an empty square)."""
    movable = {move.origin for move in game.legal_moves()}
    return next(sq for sq in range(game.size**2) if sq not in movable)


async def a_go_and_its_refusals(path: str) -> None:
    """Ann is given a puzzle; a wrong move typed, an illegal one, a stale menu, a stuck piece and
    a closed puzzle are refused as data; the right moves clicked solve it (run here and, without
    Discord, in a fresh process)."""
    storage = await open_storage(path, FakeClock())
    try:
        sessions = PuzzleSessions(storage)
        await sessions.stock()
        with pytest.raises(Refused) as refused:
            await sessions.choose(ANN, None, None, daily=True, fresh=False)
        assert refused.value.refusal == DailyNeedsServer()
        session = await sessions.choose(ANN, 5, "brandubh", daily=False, fresh=True)
        puzzle, attempt = session.puzzle, session.attempt
        assert not session.resumed and attempt.line == ()
        again = await sessions.choose(ANN, 5, None, daily=False, fresh=False)
        assert again.resumed and again.puzzle.id == puzzle.id
        with pytest.raises(Refused) as refused:
            await sessions.judge(1, attempt, "z9-z1")
        assert isinstance(refused.value.refusal, IllegalMove)
        game = puzzle.game()
        stuck = piece_that_cannot_move(game)
        with pytest.raises(Refused) as refused:
            await sessions.piece(1, puzzle.id, 0, stuck)
        assert refused.value.refusal == PieceStuck()
        with pytest.raises(Refused) as refused:
            await sessions.board(1, puzzle.id, 2)
        assert refused.value.refusal == StaleBoard()
        with pytest.raises(Refused) as refused:
            await sessions.board(1, "brandubh-00000000", 0)
        assert refused.value.refusal == PuzzleClosed("brandubh-00000000")
        line = puzzle.main_line()
        step = 0
        judged = None
        for index in range(0, len(line), 2):
            move = game.parse_move(line[index])
            # The piece clicked can move: the sessions give the position to offer its moves.
            shown = await sessions.piece(1, puzzle.id, step, move.origin)
            assert shown.ply == game.ply
            judged = await sessions.judge_squares(1, puzzle.id, step, move.origin, move.target)
            assert judged.verdict.correct and judged.puzzle.id == puzzle.id
            for played in judged.line[step:]:
                game.play(played)
            step = len(judged.line)
        assert judged is not None and judged.verdict.solved
        assert square_name(move.target, game.size) in judged.line[-1]
        assert await sessions.open_go(1) is None
    finally:
        await storage.close()


async def test_a_go_is_given_played_and_refused_as_data(tmp_path: Path) -> None:
    await a_go_and_its_refusals(str(tmp_path / "tafl.sqlite3"))


def test_the_service_runs_without_discord(tmp_path: Path) -> None:
    run_without_discord("test_app_puzzles", "a_go_and_its_refusals", str(tmp_path / "t.sqlite3"))


async def test_someone_who_tried_every_puzzle_of_a_variant_is_told_so(tmp_path: Path) -> None:
    storage = await open_storage(tmp_path / "tafl.sqlite3", FakeClock())
    try:
        sessions = PuzzleSessions(storage)
        await storage.puzzles.add([])
        sessions.stocked.set()  # an empty set: nothing to give
        with pytest.raises(Refused) as refused:
            await sessions.choose(ANN, 5, "brandubh", daily=False, fresh=True)
        assert refused.value.refusal == AllTried("brandubh")
    finally:
        await storage.close()
