"""Puzzles in storage: the set, goes at them, lichess-style ratings, and daily puzzles."""

from __future__ import annotations

import asyncio

import pytest
from storage_helpers import ALICE, BOB, open_storage

from bot.storage import AttemptChanged, Participant, Storage

SET = [
    ("p-easy", "tablut", '{"id": "p-easy"}', 1200.0),
    ("p-mid", "tablut", '{"id": "p-mid"}', 1500.0),
    ("p-hard", "brandubh", '{"id": "p-hard"}', 1900.0),
]
ALICE_ID = ALICE.user_id or 0


async def test_the_set_is_added_once_and_keeps_earned_ratings(storage: Storage) -> None:
    assert await storage.puzzles.add(SET) == 3
    assert await storage.puzzles.count() == {"brandubh": 1, "tablut": 2}
    await storage.puzzles.start(ALICE, "p-mid")
    await storage.puzzles.mistake(ALICE_ID, "p-mid", ())
    earned = (await storage.puzzles.get("p-mid")).rating
    assert earned.rating > 1500  # the puzzle beat her
    assert await storage.puzzles.add(SET) == 0
    assert (await storage.puzzles.get("p-mid")).rating == earned


async def test_the_pick_is_the_nearest_untried_puzzle(storage: Storage) -> None:
    await storage.puzzles.add(SET)
    first = await storage.puzzles.pick(ALICE_ID)
    assert first is not None and first.id == "p-mid"  # a newcomer is 1500
    await storage.puzzles.start(ALICE, first.id)
    second = await storage.puzzles.pick(ALICE_ID, "tablut")
    assert second is not None and second.id == "p-easy"
    await storage.puzzles.start(ALICE, "p-easy")
    assert await storage.puzzles.pick(ALICE_ID, "tablut") is None
    assert (await storage.puzzles.pick(ALICE_ID)) is not None


async def test_a_first_go_solved_cleanly_is_a_win_and_later_goes_are_practice(
    storage: Storage,
) -> None:
    await storage.puzzles.add(SET)
    attempt = await storage.puzzles.start(ALICE, "p-mid", guild_id=1)
    assert attempt.status == "open" and attempt.line == ()
    attempt = await storage.puzzles.advance(ALICE_ID, "p-mid", (), ("e5-e7", "f7-e7"))
    with pytest.raises(AttemptChanged):  # a second click on the old position
        await storage.puzzles.advance(ALICE_ID, "p-mid", (), ("e5-e8", "a1-a2"))
    solved, rated = await storage.puzzles.solve(
        ALICE_ID, "p-mid", ("e5-e7", "f7-e7"), ("e5-e7", "f7-e7", "d5-d9")
    )
    assert solved.status == "solved" and rated is not None and rated.result == "win"
    assert rated.player_after.rating > 1500 and rated.puzzle_after.rating < 1500
    mine = await storage.puzzles.rating(ALICE_ID)
    assert (mine.attempts, mine.solved) == (1, 1)
    # Again, as practice: no rating moves.
    again = await storage.puzzles.start(ALICE, "p-mid")
    assert again.status == "open" and again.line == () and again.rated == "win"
    _, rated = await storage.puzzles.mistake(ALICE_ID, "p-mid", ())
    assert rated is None
    assert (await storage.puzzles.rating(ALICE_ID)).attempts == 1


async def test_a_wrong_move_loses_the_first_go_once_and_the_go_stays_open(
    storage: Storage,
) -> None:
    await storage.puzzles.add(SET)
    await storage.puzzles.start(ALICE, "p-easy")
    attempt, rated = await storage.puzzles.mistake(ALICE_ID, "p-easy", ())
    assert rated is not None and rated.result == "loss" and attempt.status == "open"
    attempt, rated = await storage.puzzles.mistake(ALICE_ID, "p-easy", ())
    assert rated is None and attempt.mistakes == 2
    solved, rated = await storage.puzzles.solve(ALICE_ID, "p-easy", (), ("a1-a9",))
    assert rated is None and solved.status == "solved"
    assert (await storage.puzzles.rating(ALICE_ID)).solved == 0


async def test_one_open_go_per_person(storage: Storage) -> None:
    await storage.puzzles.add(SET)
    await storage.puzzles.start(ALICE, "p-easy")
    await storage.puzzles.start(ALICE, "p-hard")
    current = await storage.puzzles.open_attempt(ALICE_ID)
    assert current is not None and current.puzzle_id == "p-hard"


async def test_a_servers_daily_puzzle_is_one_for_everyone_and_lists_its_solvers(
    storage: Storage,
) -> None:
    await storage.puzzles.add(SET)
    day = "2026-11-25"
    chosen = await storage.puzzles.daily(7, day, ["p-hard", "p-mid"])
    assert chosen == "p-hard"
    assert await storage.puzzles.daily(7, day, ["p-mid"]) == "p-hard"
    assert await storage.puzzles.daily(7, "2026-11-26", ["p-hard", "p-mid"]) == "p-mid"
    for person in (ALICE, BOB):
        await storage.puzzles.start(person, "p-hard", guild_id=7, daily_day=day)
        await storage.puzzles.solve(person.user_id or 0, "p-hard", (), ("d1-d7",))
    solvers = await storage.puzzles.daily_solvers(7, day)
    assert [solver.user_id for solver in solvers] == [ALICE.user_id, BOB.user_id]


async def test_two_people_solving_one_puzzle_at_once_on_two_processes_both_count(
    database_target: str,
) -> None:
    first = await open_storage(database_target)
    second = await open_storage(database_target)
    try:
        await first.puzzles.add([(f"p{n}", "tablut", "{}", 1500.0) for n in range(5)])
        for n in range(5):
            people = [Participant.user(300 + 2 * n), Participant.user(301 + 2 * n)]
            for person in people:
                await first.puzzles.start(person, f"p{n}", guild_id=1, daily_day="2026-11-25")
            solved = await asyncio.gather(
                first.puzzles.solve(people[0].user_id or 0, f"p{n}", (), ("x",)),
                second.puzzles.solve(people[1].user_id or 0, f"p{n}", (), ("x",)),
            )
            one, other = (rated for _, rated in solved)
            assert one is not None and other is not None
            # The puzzle's rating took both results in turn: neither overwrote the other.
            assert (
                one.puzzle_after == other.puzzle_before or other.puzzle_after == one.puzzle_before
            )
            puzzle = await second.puzzles.get(f"p{n}")
            assert (puzzle.attempts, puzzle.solved) == (2, 2)
    finally:
        await first.close()
        await second.close()
