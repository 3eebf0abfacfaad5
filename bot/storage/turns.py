"""Turns to start gateway sessions, shared by every process of the bot through the database.

Discord lets a bot start ``max_concurrency`` gateway sessions (IDENTIFYs) per 5 seconds, shard
``i`` in bucket ``i % max_concurrency``, however many processes and machines it runs on. Each
process books its shards' turns in ``identify_turns``, by the database server's clock, so that two
processes that share nothing else still identify 5 s apart.
"""

from __future__ import annotations

from .database import Database, real


class IdentifyTurns:
    """The ``identify_turns`` table: when each bucket may next identify."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def reserve(self, shard_id: int, max_concurrency: int, window: float) -> float:
        """Book the next turn of ``shard_id``'s bucket; the seconds to wait for it."""
        bucket = shard_id % max_concurrency
        async with self.db.control() as connection:
            await connection.execute(
                "INSERT INTO identify_turns (max_concurrency, bucket, next_at) VALUES (?, ?, 0)"
                " ON CONFLICT (max_concurrency, bucket) DO NOTHING",
                (max_concurrency, bucket),
            )
            booked = await connection.fetch_value(
                "SELECT next_at FROM identify_turns WHERE max_concurrency = ? AND bucket = ?"
                f"{connection.for_update}",
                (max_concurrency, bucket),
            )
            now = await connection.server_time()
            at = max(now, real(booked))
            await connection.execute(
                "UPDATE identify_turns SET next_at = ? WHERE max_concurrency = ? AND bucket = ?",
                (at + window, max_concurrency, bucket),
            )
        return at - now
