"""Start-up: every active game is replayed to its exact position; broken ones are kept, marked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from storage_helpers import moves_to_the_end, new_game, open_storage, random_moves

from bot.engine import Board, Game, Side, core
from bot.storage import GameRecord, GameStatus, Shards, Storage
from bot.storage.movelog import MoveLogError, moves_in_effect
from bot.storage.storage import (
    ACTIVE_GAMES_SQL,
    ACTIVE_LOGS_SQL,
    active_games_sql,
    active_logs_sql,
)


def replayed(variant: str, moves: Sequence[str]) -> Game:
    game = Game(variant)
    for move in moves:
        game.play(move)
    return game


async def store(storage: Storage, game_id: int, moves: Sequence[str], start_ply: int = 0) -> None:
    for ply, move in enumerate(moves, start=start_ply):
        await storage.games.append_move(game_id, ply, move)


async def test_active_games_are_replayed_to_the_exact_position(database_target: str) -> None:
    path = database_target
    storage = await open_storage(path)
    expected: dict[int, tuple[str, list[str]]] = {}
    for channel, variant in enumerate(["tablut", "brandubh", "fidchell", "tablut-ashton"]):
        game = await new_game(storage, channel, variant=variant)
        moves = random_moves(variant, 12 + channel, seed=channel)
        await store(storage, game.id, moves)
        expected[game.id] = (variant, moves)
    # One with takebacks: 10 moves, take back 3, play 4 others.
    game = await new_game(storage, 99)
    first = random_moves("tablut", 10, seed=7)
    await store(storage, game.id, first)
    await storage.games.take_back(game.id, 10, plies=3)
    replacement = replayed("tablut", first[:7])
    extra: list[str] = []
    for _ in range(4):
        move = replacement.legal_moves()[-1].text(9)
        replacement.play(move)
        extra.append(move)
    await store(storage, game.id, extra, start_ply=7)
    expected[game.id] = ("tablut", first[:7] + extra)
    finished = await new_game(storage, 100)
    await storage.games.finish(finished.id, "draw", "agreed draw")
    await storage.close()

    storage = await open_storage(path)
    report = await storage.load_active_games()
    await storage.close()
    assert report.unreplayable == ()
    assert {loaded.record.id for loaded in report.games} == set(expected)
    for loaded in report.games:
        variant, moves = expected[loaded.record.id]
        reference = replayed(variant, moves)
        assert loaded.moves == tuple(moves)
        assert loaded.game.ply == len(moves) == loaded.record.ply
        assert loaded.game.position_otn() == reference.position_otn()
        assert loaded.game.turn is reference.turn
        assert Side(loaded.record.turn) is reference.turn
    assert report.over_on_board == ()
    assert report.total_seconds >= report.replay_seconds > 0


async def test_the_start_up_replay_does_not_walk_the_moves_through_the_python_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where the fast core is built, a restart replays the stored moves on it: the Python
    # board only takes over the final position (issue 33, item 17).
    if core.extension() is None:
        pytest.skip(f"the fast core is not in use ({core.state()})")
    storage = await open_storage(tmp_path / "tafl.sqlite3")
    game = await new_game(storage, 1)
    moves = random_moves("tablut", 40, seed=3)
    await store(storage, game.id, moves)
    made: list[int] = []
    python_make = Board.make

    def counted(board: Board, move: int) -> object:
        made.append(move)
        return python_make(board, move)

    monkeypatch.setattr(Board, "make", counted)
    [loaded] = (await storage.load_active_games()).games
    await storage.close()
    assert made == []
    monkeypatch.undo()
    reference = replayed("tablut", moves)
    assert loaded.game.history == reference.history
    assert loaded.game.board.stack == reference.board.stack
    assert loaded.game.position_otn() == reference.position_otn()


async def test_a_game_whose_moves_no_longer_replay_is_reported_kept_and_marked(
    database_target: str,
) -> None:
    path = database_target
    storage = await open_storage(path)
    good = await new_game(storage, 1)
    await store(storage, good.id, random_moves("tablut", 6, seed=1))
    bad = await new_game(storage, 2)
    moves = random_moves("tablut", 4, seed=2)
    # The bot never stores an illegal move; an engine change can make an old one illegal.
    await store(storage, bad.id, [*moves, "a1-a2"])
    # A variant that a later version dropped or renamed.
    unknown = await storage.games.create(
        guild_id=1,
        channel_id=3,
        variant="hnefatafl-2099",
        attackers=good.attackers,
        defenders=good.defenders,
        start_position="/9/",
        first_turn="attackers",
    )
    report = await storage.load_active_games()

    assert [loaded.record.id for loaded in report.games] == [good.id]
    problems = {entry.record.id: entry.problem for entry in report.unreplayable}
    assert set(problems) == {bad.id, unknown.id}
    assert problems[bad.id].startswith("IllegalMoveError") and "a1" in problems[bad.id]
    assert problems[unknown.id].startswith("UnknownVariantError")
    kept = await storage.games.get(bad.id)
    assert kept.status is GameStatus.UNREPLAYABLE and kept.problem == problems[bad.id]
    assert await storage.games.moves(bad.id) == [*moves, "a1-a2"]
    assert await storage.games.active_in_channel(2) is None
    # Reported once: the next start-up neither loads nor reports it again.
    again = await storage.load_active_games()
    assert [loaded.record.id for loaded in again.games] == [good.id] and again.unreplayable == ()
    await storage.close()


async def test_an_engine_crash_during_replay_marks_only_that_game(database_target: str) -> None:
    storage = await open_storage(database_target)
    first = await new_game(storage, 1)
    second = await new_game(storage, 2)

    def fragile(record: GameRecord, moves: Sequence[str]) -> Game:
        if record.id == first.id:
            raise RuntimeError("engine bug")
        return Game(record.variant)

    report = await storage.load_active_games(fragile)
    await storage.close()
    assert [loaded.record.id for loaded in report.games] == [second.id]
    assert report.unreplayable[0].problem == "RuntimeError: engine bug"
    assert report.unreplayable[0].record.status is GameStatus.UNREPLAYABLE


async def test_a_game_won_on_the_board_but_not_yet_recorded_is_flagged(
    database_target: str,
) -> None:
    storage = await open_storage(database_target)
    game = await new_game(storage, variant="brandubh")
    moves = moves_to_the_end("brandubh", seed=3)
    await store(storage, game.id, moves)  # the bot stopped before calling finish()
    report = await storage.load_active_games()
    await storage.close()
    assert [loaded.record.id for loaded in report.over_on_board] == [game.id]
    outcome = report.over_on_board[0].game.outcome
    assert outcome is not None and outcome == replayed("brandubh", moves).outcome


@pytest.mark.parametrize(
    ("log", "moves"),
    [
        ([], []),
        ([("move", 1, "a"), ("move", 2, "b")], ["a", "b"]),
        ([("move", 1, "a"), ("move", 2, "b"), ("takeback", 0, None), ("move", 1, "c")], ["c"]),
        ([("move", 1, "a"), ("move", 2, "b"), ("takeback", 1, None), ("takeback", 1, None)], ["a"]),
    ],
)
def test_moves_in_effect_follow_takebacks(
    log: list[tuple[str, int, str | None]], moves: list[str]
) -> None:
    assert moves_in_effect(log) == moves


@pytest.mark.parametrize(
    "log",
    [
        [("move", 2, "a")],
        [("move", 1, "a"), ("takeback", 2, None)],
        [("move", 1, "a"), ("move", 1, "b")],
        [("resign", 0, None)],
    ],
)
def test_a_contradictory_log_is_refused(log: list[tuple[str, int, str | None]]) -> None:
    with pytest.raises(MoveLogError):
        moves_in_effect(log)


@pytest.mark.parametrize(
    "sql",
    [
        ACTIVE_GAMES_SQL,
        ACTIVE_LOGS_SQL,
        active_games_sql(Shards.of(4, {1, 2})),
        active_logs_sql(Shards.of(4, {1, 2})),
    ],
)
async def test_the_start_up_load_never_scans_the_whole_history(tmp_path: Path, sql: str) -> None:
    storage = await open_storage(tmp_path / "tafl.sqlite3")
    async with storage.db.read() as connection:
        plan = [row[3] for row in await connection.fetch("EXPLAIN QUERY PLAN " + sql)]
    await storage.close()
    assert not [step for step in plan if step.startswith("SCAN") and "INDEX" not in step], plan


async def test_a_row_with_a_value_this_version_does_not_know_is_set_aside(
    database_target: str,
) -> None:
    storage = await open_storage(database_target)
    good = await new_game(storage, 1)
    odd = await new_game(storage, 2)
    moves = random_moves("tablut", 3, seed=1)
    await store(storage, odd.id, moves)
    async with storage.db.transaction() as connection:
        await connection.execute(
            "UPDATE games SET reason = 'the king fell asleep' WHERE id = ?", (odd.id,)
        )
    report = await storage.load_active_games()

    assert [loaded.record.id for loaded in report.games] == [good.id]
    [broken] = report.unreplayable
    assert (broken.id, broken.channel_id, broken.record) == (odd.id, 2, None)
    assert "the king fell asleep" in broken.problem
    async with storage.db.read() as connection:
        rows = list(
            await connection.fetch("SELECT status, problem FROM games WHERE id = ?", (odd.id,))
        )
    assert tuple(rows[0]) == ("unreplayable", broken.problem)
    assert await storage.games.moves(odd.id) == moves
    await storage.close()
