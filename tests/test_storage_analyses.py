"""Stored reviews of finished games: one per game and budget, the first one kept."""

from __future__ import annotations

from storage_helpers import new_game

from bot.storage import Storage


async def test_a_review_is_kept_per_game_and_budget(storage: Storage) -> None:
    game = await new_game(storage)
    assert await storage.analyses.get(game.id, "depth 3") is None
    await storage.analyses.save(game.id, "depth 3", '{"evals": [0, 12]}')
    await storage.analyses.save(game.id, "depth 3", '{"evals": [0, 99]}')  # a racing twin
    await storage.analyses.save(game.id, "depth 5", '{"evals": [0, 15]}')
    assert await storage.analyses.get(game.id, "depth 3") == '{"evals": [0, 12]}'
    assert await storage.analyses.get(game.id, "depth 5") == '{"evals": [0, 15]}'
