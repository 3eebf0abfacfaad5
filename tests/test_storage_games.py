"""Games: one per channel, moves with optimistic concurrency, takebacks, endings and deadlines."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest
from storage_helpers import ALICE, BOB, START, FakeClock, new_game, open_storage, raw_execute

from bot.engine import Termination
from bot.storage import (
    ChannelBusy,
    GameEnding,
    GameNotActive,
    GameResult,
    GameStatus,
    NotFound,
    NothingToTakeBack,
    Participant,
    PositionChanged,
    Storage,
    TableEnding,
    game_ending,
    is_postgres_url,
)


async def test_a_new_game_uses_the_variants_start_and_first_side(storage: Storage) -> None:
    game = await new_game(storage, variant="tablut-corner", move_seconds=300)
    assert game.start_position == "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    assert game.first_turn == "defenders" and game.turn == "defenders"
    assert game.player_to_move == BOB
    assert game.status is GameStatus.ACTIVE and game.ply == 0 and game.rated
    assert game.move_deadline == datetime.fromtimestamp(START + 300, UTC)
    assert await storage.games.get(game.id) == game


async def test_one_active_game_per_channel(storage: Storage) -> None:
    first = await new_game(storage, channel_id=7)
    with pytest.raises(ChannelBusy) as raised:
        await new_game(
            storage, channel_id=7, attackers=Participant.user(5), defenders=Participant.user(6)
        )
    assert raised.value.game_id == first.id
    # A thread is a channel of its own: the thread under channel 7 may hold a game too.
    thread = await new_game(storage, channel_id=7_0001)
    assert (await storage.games.active_in_channel(7)) == first
    assert (await storage.games.active_in_channel(7_0001)) == thread
    await storage.games.finish(first.id, "defenders", "resignation")
    assert await storage.games.active_in_channel(7) is None
    second = await new_game(storage, channel_id=7)
    assert second.id != first.id


async def test_the_database_itself_refuses_a_second_active_game(
    storage: Storage, database_target: str
) -> None:
    game = await new_game(storage, channel_id=7)
    # Bypass the storage layer: the rule is a unique index, not Python.
    postgres = is_postgres_url(database_target)
    with pytest.raises(
        asyncpg.UniqueViolationError if postgres else sqlite3.IntegrityError
    ) as raised:
        await raw_execute(
            database_target,
            "INSERT INTO games (channel_id, variant, start_position, first_turn, attackers_id,"
            " defenders_id, rated, created_at, updated_at)"
            " SELECT channel_id, variant, start_position, first_turn, attackers_id,"
            f" defenders_id, 0, 0, 0 FROM games WHERE id = {'$1' if postgres else '?'}",
            game.id,
        )
    if postgres:
        assert isinstance(raised.value, asyncpg.UniqueViolationError)
        assert raised.value.constraint_name == "games_one_active_per_channel"
    else:
        assert "games.channel_id" in str(raised.value)


async def test_moves_are_appended_with_the_expected_ply(storage: Storage, clock: FakeClock) -> None:
    game = await new_game(storage, move_seconds=60)
    clock.advance(10)
    appended = await storage.games.append_move(game.id, 0, "d1-d3")
    assert appended.ply == 1
    assert appended.move_deadline == datetime.fromtimestamp(START + 70, UTC)
    await storage.games.append_move(game.id, 1, "e3-c3")
    record = await storage.games.get(game.id)
    assert record.ply == 2 and record.turn == "attackers"
    assert await storage.games.moves(game.id) == ["d1-d3", "e3-c3"]


async def test_a_stale_submission_gets_position_changed(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.games.append_move(game.id, 0, "d1-d3")
    with pytest.raises(PositionChanged) as raised:
        await storage.games.append_move(game.id, 0, "d1-d2")
    assert (raised.value.expected_ply, raised.value.actual_ply) == (0, 1)
    assert "position changed" in str(raised.value)
    assert await storage.games.moves(game.id) == ["d1-d3"]


async def test_racing_submissions_on_one_connection_apply_exactly_one(storage: Storage) -> None:
    game = await new_game(storage)
    for ply in range(20):
        outcomes = await asyncio.gather(
            storage.games.append_move(game.id, ply, f"first-{ply}"),
            storage.games.append_move(game.id, ply, f"second-{ply}"),
            return_exceptions=True,
        )
        assert sum(isinstance(o, PositionChanged) for o in outcomes) == 1
        assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    moves = await storage.games.moves(game.id)
    # Which one wins is the backend's affair (SQLite takes turns in order, a PostgreSQL pool
    # does not); that exactly one per ply does is the guarantee.
    assert [move.split("-")[1] for move in moves] == [str(ply) for ply in range(20)]


async def test_racing_submissions_from_two_connections_apply_exactly_one(
    storage: Storage, database_target: str
) -> None:
    other = await open_storage(database_target)
    try:
        game = await new_game(storage)
        for ply in range(20):
            outcomes = await asyncio.gather(
                storage.games.append_move(game.id, ply, f"a-{ply}"),
                other.games.append_move(game.id, ply, f"b-{ply}"),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["AppendedMove", "PositionChanged"]
        log = await other.games.log(game.id)
    finally:
        await other.close()
    assert [entry.ply for entry in log] == list(range(1, 21))


@pytest.mark.parametrize("delay", [0, 0.0001, 0.0002, 0.0003, 0.0005, 0.001, 0.01])
async def test_a_cancelled_submission_leaves_storage_usable_and_consistent(
    storage: Storage, delay: float
) -> None:
    # Cancelled at different points of its transaction: before, during and after the commit.
    game = await new_game(storage)
    task = asyncio.create_task(storage.games.append_move(game.id, 0, "d1-d3"))
    await asyncio.sleep(delay)
    task.cancel()
    try:
        await task
        applied = True
    except asyncio.CancelledError:
        applied = (await storage.games.get(game.id)).ply == 1
    ply = 1 if applied else 0
    await storage.games.append_move(game.id, ply, "e3-c3")
    assert await storage.games.moves(game.id) == (["d1-d3"] if applied else []) + ["e3-c3"]


async def test_moves_to_a_finished_or_unknown_game_are_refused(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.games.finish(game.id, "attackers", "resignation")
    with pytest.raises(GameNotActive):
        await storage.games.append_move(game.id, 0, "d1-d3")
    with pytest.raises(NotFound):
        await storage.games.append_move(9999, 0, "d1-d3")


async def test_a_takeback_appends_to_the_log_and_replay_skips_the_moves(storage: Storage) -> None:
    game = await new_game(storage)
    for ply, move in enumerate(["d1-d3", "e3-c3", "a4-c4"]):
        await storage.games.append_move(game.id, ply, move)
    taken = await storage.games.take_back(game.id, 3, plies=2)
    assert taken.ply == 1
    await storage.games.append_move(game.id, 1, "e3-d3")
    assert await storage.games.moves(game.id) == ["d1-d3", "e3-d3"]
    log = await storage.games.log(game.id)
    assert [(e.kind, e.ply, e.move) for e in log] == [
        ("move", 1, "d1-d3"),
        ("move", 2, "e3-c3"),
        ("move", 3, "a4-c4"),
        ("takeback", 1, None),
        ("move", 2, "e3-d3"),
    ]
    with pytest.raises(NothingToTakeBack):
        await storage.games.take_back(game.id, 2, plies=3)
    with pytest.raises(PositionChanged):
        await storage.games.take_back(game.id, 3)


async def test_finishing_records_the_result_and_frees_the_channel(storage: Storage) -> None:
    game = await new_game(storage, move_seconds=60)
    await storage.games.append_move(game.id, 0, "d1-d3")
    await storage.games.append_move(game.id, 1, "e3-d3")
    finished = await storage.games.finish(game.id, GameResult.DEFENDERS, Termination.KING_ESCAPED)
    record = finished.record
    assert (record.status, record.result, record.reason) == (
        GameStatus.FINISHED,
        GameResult.DEFENDERS,
        Termination.KING_ESCAPED,
    )
    assert record.ended_at is not None and record.move_deadline is None
    assert len(finished.rating_changes) == 2
    with pytest.raises(GameNotActive):
        await storage.games.finish(game.id, "attackers", "resignation")


async def test_finishing_with_an_expected_ply_cannot_overtake_a_move(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.games.append_move(game.id, 0, "d1-d3")
    with pytest.raises(PositionChanged):
        await storage.games.finish(game.id, "defenders", "timeout", expected_ply=0)
    assert (await storage.games.get(game.id)).status is GameStatus.ACTIVE


@pytest.mark.parametrize(
    ("result", "reason"),
    [
        ("draw", "resignation"),
        ("attackers", "agreed draw"),
        ("nobody", "timeout"),
        ("draw", "boredom"),
    ],
)
async def test_impossible_endings_are_refused(storage: Storage, result: str, reason: str) -> None:
    game = await new_game(storage)
    with pytest.raises(ValueError):
        await storage.games.finish(game.id, result, reason)
    assert (await storage.games.get(game.id)).status is GameStatus.ACTIVE


@pytest.mark.parametrize("termination", [*Termination, *TableEnding])
async def test_every_ending_the_board_s_and_the_table_s_is_stored_and_read_back(
    storage: Storage, termination: GameEnding
) -> None:
    """The rules' endings are the engine's (storage keeps no copy of them) and the table's are
    storage's own: every one of either is stored and read back as itself."""
    game = await new_game(storage)
    result = "draw" if termination.is_draw else "attackers"
    finished = await storage.games.finish(game.id, result, termination)
    assert (finished.record.reason, finished.record.result) == (termination, GameResult(result))
    assert (await storage.games.get(game.id)).reason is termination


def test_the_stored_names_of_endings_never_change_and_never_collide() -> None:
    """The database stores these and game records write them (the ``termination`` tag): a
    value that has shipped keeps its spelling, whichever layer's vocabulary it is in, and no
    value is in both, so a stored one reads back as one ending."""
    board = {ending.value for ending in Termination}
    table = {ending.value for ending in TableEnding}
    assert board == {
        "king escaped",
        "king captured",
        "king's group surrounded",
        "tuichi",
        "exit fort",
        "encirclement",
        "no legal move",
        "threefold repetition",
        "perpetual repetition",
    }
    assert table == {"resignation", "timeout", "agreed draw", "abandoned"}
    assert not board & table
    assert game_ending("agreed draw") is TableEnding.AGREED_DRAW
    assert game_ending("tuichi") is Termination.TUICHI
    with pytest.raises(ValueError, match="'forfeit' is not an ending"):
        game_ending("forfeit")


async def test_an_aborted_game_has_no_result_and_no_rating(storage: Storage) -> None:
    game = await new_game(storage)
    aborted = await storage.games.abort(game.id)
    assert aborted.status is GameStatus.ABORTED and aborted.result is None
    assert await storage.ratings.changes_for_game(game.id) == ()
    assert await storage.games.active_in_channel(game.channel_id) is None


async def test_deadlines_reminders_and_timeouts(storage: Storage, clock: FakeClock) -> None:
    quick = await new_game(storage, channel_id=1, move_seconds=60)
    slow = await new_game(storage, channel_id=2, move_seconds=3600)
    untimed = await new_game(storage, channel_id=3)
    clock.advance(50)
    assert [g.id for g in await storage.games.due_for_reminder(15)] == [quick.id]
    assert await storage.games.mark_reminder_sent(quick.id, 0)
    assert await storage.games.due_for_reminder(15) == []
    assert await storage.games.past_deadline() == []
    clock.advance(20)  # 70 s: the quick game's side to move ran out of time
    assert [g.id for g in await storage.games.past_deadline()] == [quick.id]
    # A move resets the deadline and the reminder flag; a reminder for an old ply is moot.
    await storage.games.append_move(quick.id, 0, "d1-d3")
    assert not await storage.games.mark_reminder_sent(quick.id, 0)
    record = await storage.games.get(quick.id)
    assert not record.reminder_sent
    assert record.move_deadline == datetime.fromtimestamp(START + 130, UTC)
    later = datetime.fromtimestamp(START + 4000, UTC)
    assert [g.id for g in await storage.games.past_deadline(later)] == [quick.id, slow.id]
    assert untimed.move_deadline is None


async def test_deadlines_that_passed_while_the_bot_was_offline_are_found(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "offline.sqlite3"
    storage = await open_storage(path, clock)
    game = await new_game(storage, move_seconds=60)
    await storage.close()
    clock.advance(24 * 3600)
    storage = await open_storage(path, clock)
    assert [g.id for g in await storage.games.past_deadline()] == [game.id]
    await storage.close()


async def test_the_latest_board_message_is_remembered(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.games.set_board_message(game.id, 123456789012345678, 12)
    stored = await storage.games.get(game.id)
    assert (stored.board_message_id, stored.board_ply) == (123456789012345678, 12)
    with pytest.raises(NotFound):
        await storage.games.set_board_message(4242, 1)


async def test_an_unreplayable_game_is_kept_and_can_be_restored(storage: Storage) -> None:
    game = await new_game(storage, channel_id=9)
    await storage.games.mark_unreplayable(game.id, "IllegalMoveError: no")
    record = await storage.games.get(game.id)
    assert record.status is GameStatus.UNREPLAYABLE and record.problem == "IllegalMoveError: no"
    assert [g.id for g in await storage.games.unreplayable()] == [game.id]
    other = await new_game(storage, channel_id=9)
    with pytest.raises(ChannelBusy):
        await storage.games.restore(game.id)
    await storage.games.abort(other.id)
    restored = await storage.games.restore(game.id)
    assert restored.status is GameStatus.ACTIVE and restored.problem is None


async def test_a_game_against_the_ai_records_its_level(storage: Storage) -> None:
    game = await new_game(storage, attackers=ALICE, defenders=Participant.ai(3))
    assert game.defenders.is_ai and game.defenders.ai_level == 3
    assert not game.rated  # the server has not turned rated AI games on
    assert game.side_of(ALICE.user_id or 0) == "attackers"
    assert game.side_of(BOB.user_id or 0) is None


async def test_last_finished_game_in_a_channel(tmp_path: Path) -> None:
    from bot.storage import Participant, Storage

    storage = await Storage.open(tmp_path / "t.sqlite3")
    games = storage.games
    assert await games.last_finished_in_channel(5) is None
    one = Participant.user(1, "Ann")
    two = Participant.user(2, "Bo")
    first = await games.create(
        guild_id=1, channel_id=5, variant="brandubh", attackers=one, defenders=two
    )
    await games.finish(first.id, "attackers", "resignation")
    second = await games.create(
        guild_id=1, channel_id=5, variant="brandubh", attackers=two, defenders=one
    )
    assert await games.last_finished_in_channel(5) == first.id
    await games.finish(second.id, "draw", "agreed draw")
    assert await games.last_finished_in_channel(5) == second.id
    await storage.close()
