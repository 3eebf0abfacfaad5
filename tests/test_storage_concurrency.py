"""What one writer hid on SQLite must hold with several processes on one database: each test
races two storages (two connections, or two pools on PostgreSQL, as two bot processes have) on
each backend."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from storage_helpers import ALICE, BOB, CAROL, new_game, open_storage, play_opening

from bot.engine import Termination
from bot.storage import ChallengeClosed, ChannelBusy, GameResult, Participant, Storage

DAVE = Participant.user(104, "Dave")


@pytest.fixture
async def two(database_target: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two storages on one database, as two bot processes would hold."""
    first = await open_storage(database_target)
    second = await open_storage(database_target)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_two_rated_games_of_one_player_finishing_at_once_both_count(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    for round_ in range(6):
        games = [
            await new_game(first, 100 + 2 * round_, attackers=ALICE, defenders=BOB),
            await new_game(first, 101 + 2 * round_, attackers=ALICE, defenders=CAROL),
        ]
        for game in games:
            await play_opening(first, game)
        finished = await asyncio.gather(
            first.games.finish(games[0].id, GameResult.ATTACKERS, Termination.KING_CAPTURED),
            second.games.finish(games[1].id, GameResult.ATTACKERS, Termination.KING_CAPTURED),
        )
        # The two updates took turns: one started from the rating the other ended with.
        one, other = [
            change
            for done in finished
            for change in done.rating_changes
            if change.participant == ALICE
        ]
        assert one.after == other.before or other.after == one.before
    alice = await second.ratings.get(ALICE, "tablut")
    assert (alice.games, alice.wins) == (12, 12)
    history = await first.ratings.every_variant(ALICE)
    assert history[0].rating == alice.rating


async def test_an_open_challenge_accepted_by_two_people_on_two_processes_makes_one_game(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    for round_ in range(6):
        offer = await first.challenges.create(
            guild_id=1, channel_id=50, challenger=ALICE, challenged=None, variant="tablut"
        )
        # Each accepter's game would go to a thread of its own, so no channel rule can save us.
        outcomes = await asyncio.gather(
            first.challenges.accept(offer.id, BOB, channel_id=1000 + 2 * round_),
            second.challenges.accept(offer.id, CAROL, channel_id=1001 + 2 * round_),
            return_exceptions=True,
        )
        assert sorted(type(outcome).__name__ for outcome in outcomes) == [
            "ChallengeClosed",
            "tuple",
        ]
        [closed] = [outcome for outcome in outcomes if isinstance(outcome, ChallengeClosed)]
        assert closed.status == "accepted"
    assert len(await first.games.active()) == 6


async def test_two_processes_starting_a_game_in_one_channel_make_one(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    for channel in range(2000, 2006):
        outcomes = await asyncio.gather(
            new_game(first, channel, attackers=ALICE, defenders=BOB),
            new_game(second, channel, attackers=CAROL, defenders=DAVE),
            return_exceptions=True,
        )
        [busy] = [outcome for outcome in outcomes if isinstance(outcome, ChannelBusy)]
        [made] = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
        assert busy.game_id == made.id
