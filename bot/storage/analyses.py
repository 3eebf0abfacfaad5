"""Stored reviews of finished games: written once per game and budget, read back at once.

The review itself is the AI's JSON (``bot.ai.analysis``); storage keeps it as text and does not
read it, so the review's format can grow without a migration.
"""

from __future__ import annotations

from .database import Database


class AnalysisStore:
    """Keeps each finished game's review."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, game_id: int, budget: str) -> str | None:
        """The stored review of ``game_id`` made with ``budget``, or ``None``."""
        async with self._db.read() as connection:
            value = await connection.fetch_value(
                "SELECT data FROM game_analyses WHERE game_id = ? AND budget = ?",
                (game_id, budget),
            )
        return None if value is None else str(value)

    async def save(self, game_id: int, budget: str, data: str) -> None:
        """Store a review; one made meanwhile by another request with the same budget wins (the
        two are the same, as the analysis is deterministic for a budget)."""
        async with self._db.transaction() as connection:
            await connection.execute(
                """
                INSERT INTO game_analyses (game_id, budget, data, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (game_id, budget) DO NOTHING
                """,
                (game_id, budget, data, self._db.now()),
            )
