"""Draw offers and takeback requests: kept until answered, answered once, withdrawn by a move."""

from __future__ import annotations

import asyncio

import pytest
from storage_helpers import new_game, open_storage, play_opening

from bot.storage import (
    GameNotActive,
    GameResult,
    PositionChanged,
    Storage,
    StoredOffer,
    TableEnding,
)


async def test_an_offer_is_kept_until_taken_and_taken_once(storage: Storage) -> None:
    game = await new_game(storage)
    await play_opening(storage, game)
    made = await storage.offers.make(game.id, "draw", 101, 2)
    assert made == StoredOffer(game.id, "draw", 101, 2, None)
    await storage.offers.set_message(game.id, "draw", 2, 555)
    assert await storage.offers.open_offers() == [StoredOffer(game.id, "draw", 101, 2, 555)]
    assert await storage.offers.take(game.id, "draw", 1) is None  # another ply's offer
    assert await storage.offers.take(game.id, "takeback", 2) is None  # another kind
    taken = await storage.offers.take(game.id, "draw", 2)
    assert taken == StoredOffer(game.id, "draw", 101, 2, 555)
    assert await storage.offers.take(game.id, "draw", 2) is None
    assert await storage.offers.open_offers() == []


async def test_a_new_offer_replaces_the_old_and_a_stale_or_ended_game_refuses(
    storage: Storage,
) -> None:
    game = await new_game(storage)
    await play_opening(storage, game)
    await storage.offers.make(game.id, "takeback", 101, 2)
    await storage.offers.set_message(game.id, "takeback", 2, 9)
    await storage.offers.make(game.id, "takeback", 102, 2)
    assert await storage.offers.open_offers() == [StoredOffer(game.id, "takeback", 102, 2, None)]
    with pytest.raises(PositionChanged):
        await storage.offers.make(game.id, "draw", 101, 1)
    await storage.games.finish(game.id, GameResult.DRAW, TableEnding.AGREED_DRAW)
    with pytest.raises(GameNotActive):
        await storage.offers.make(game.id, "draw", 101, 2)
    assert await storage.offers.open_offers() == []


@pytest.mark.parametrize("change", ["move", "takeback", "finish", "set aside"])
async def test_every_change_of_the_game_withdraws_its_offers(storage: Storage, change: str) -> None:
    game = await new_game(storage)
    await play_opening(storage, game)
    await storage.offers.make(game.id, "draw", 101, 2)
    await storage.offers.make(game.id, "takeback", 102, 2)
    if change == "move":
        await storage.games.append_move(game.id, 2, "a4-a2")
    elif change == "takeback":
        await storage.games.take_back(game.id, 2)
    elif change == "finish":
        await storage.games.finish(game.id, GameResult.DEFENDERS, TableEnding.RESIGNATION)
    else:
        await storage.games.mark_unreplayable(game.id, "test")
    assert await storage.offers.open_offers() == []


async def test_two_answers_from_two_processes_take_an_offer_once(database_target: str) -> None:
    first = await open_storage(database_target)
    second = await open_storage(database_target)
    try:
        for channel in range(6):
            game = await new_game(first, 100 + channel)
            await play_opening(first, game)
            await first.offers.make(game.id, "draw", 101, 2)
            taken = await asyncio.gather(
                first.offers.take(game.id, "draw", 2), second.offers.take(game.id, "draw", 2)
            )
            assert sum(offer is not None for offer in taken) == 1
    finally:
        await first.close()
        await second.close()
