"""Copying everything from one database to another: SQLite to PostgreSQL when a bot outgrows
one process, and back.

The copy reads the source in one consistent snapshot and writes the target in one transaction,
so a failure leaves the target as empty as it was. It refuses a target that holds anything, and
compares every table's row count on both sides before it commits. Stop the bot first: moves
played during the copy would not be in it. Both databases are opened as the bot opens them, so
an older source is first brought up to the current schema.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass

from .database import Connection, Database, Value, whole
from .errors import StorageError
from .opening import open_database
from .postgres import PostgresDatabase
from .target import is_postgres_url

TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("players", ("id",)),
    ("guild_settings", ("guild_id",)),
    ("player_preferences", ("player_id",)),
    ("games", ("id",)),
    ("moves", ("game_id", "seq")),
    ("offers", ("game_id", "kind")),
    ("challenges", ("id",)),
    ("ratings", ("player_id", "variant")),
    ("rating_changes", ("game_id", "player_id")),
    ("game_analyses", ("game_id", "budget")),
    ("puzzles", ("id",)),
    ("puzzle_ratings", ("player_id",)),
    ("puzzle_attempts", ("player_id", "puzzle_id")),
    ("daily_puzzles", ("guild_id", "day")),
    ("game_venues", ("game_id", "side")),
    ("seeks", ("id",)),
    ("blocks", ("player_id", "blocked_id")),
    ("tournaments", ("id",)),
    ("tournament_entrants", ("tournament_id", "player_id")),
    ("tournament_pairings", ("tournament_id", "round", "board")),
    ("tournament_log", ("id",)),
)
"""Every table with data, parents before the tables whose rows refer to them, and its key."""

NOT_COPIED = ("shard_leases", "identify_turns")
"""The running processes' own bookkeeping (who serves which shard, when each may connect): it
belongs to the processes of the source, stopped for the copy, not to the data."""

IDENTITY_TABLES = ("players", "games", "challenges", "seeks", "tournaments", "tournament_log")
"""Tables whose ids PostgreSQL hands out from a sequence, moved past the copied ids."""

BATCH = 5_000


class CopyError(StorageError):
    """The copy was refused or failed; the target holds nothing of it."""


@dataclass(frozen=True)
class CopyReport:
    """What was copied: rows per table, equal on both sides."""

    source: str
    target: str
    counts: dict[str, int]

    def describe(self) -> str:
        """One line for the operator."""
        rows = ", ".join(f"{count:,} {table}" for table, count in self.counts.items())
        return f"copied {rows} from {self.source} to {self.target}; every count checked"


async def copy_database(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    progress: Callable[[str], None] | None = None,
) -> CopyReport:
    """Copy every row of ``source`` into the empty database ``target`` (paths or URLs).

    Both are opened as the bot opens them, so both end at the newest schema first.
    """
    if os.fspath(source) == os.fspath(target):
        raise CopyError("the source and the target are the same database")
    if not is_postgres_url(source) and not await asyncio.to_thread(os.path.isfile, source):
        # Opening it would create an empty database and "copy" nothing.
        raise CopyError(f"there is no database file {os.fspath(source)!r} to copy from")
    say = progress or (lambda line: None)
    source_db = await open_database(source)
    try:
        target_db = await open_database(target)
        try:
            return await _copy(source_db, target_db, say)
        finally:
            await target_db.close()
    finally:
        await source_db.close()


async def _copy(source: Database, target: Database, say: Callable[[str], None]) -> CopyReport:
    names = [table for table, _ in TABLES]
    held = {table: count for table, count in (await target.table_counts(names)).items() if count}
    if held:
        what = ", ".join(f"{count:,} {table}" for table, count in held.items())
        raise CopyError(
            f"the target {target.target} is not empty (it holds {what}); copy into an empty "
            "database"
        )
    counts: dict[str, int] = {}
    async with source.snapshot() as reading, target.transaction() as writing:
        for table, key in TABLES:
            counts[table] = await _copy_table(reading, writing, table, key)
            say(f"{table}: {counts[table]:,} rows")
        if isinstance(target, PostgresDatabase):
            for table in IDENTITY_TABLES:
                # Future rows must get ids after the copied ones.
                await writing.fetch(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" (SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
                )
        # Checked before the commit, against the one snapshot that was read: a mismatch rolls
        # the whole copy back and leaves the target empty.
        original = await _counts(reading, names)
        copied = await _counts(writing, names)
        if copied != original or copied != counts:
            raise CopyError(
                f"the counts differ (source {original}, target {copied}); nothing was copied"
            )
    return CopyReport(source.target, target.target, counts)


async def _counts(connection: Connection, tables: list[str]) -> dict[str, int]:
    return {
        table: whole(await connection.fetch_value(f"SELECT count(*) FROM {table}"))
        for table in tables
    }


async def _copy_table(
    reading: Connection, writing: Connection, table: str, key: tuple[str, ...]
) -> int:
    """Copy ``table`` in batches ordered by its key, continuing after the last key seen."""
    order = ", ".join(key)
    after = f"({order}) > ({', '.join('?' for _ in key)})"
    last: tuple[Value, ...] | None = None
    total = 0
    while True:
        where = "" if last is None else f"WHERE {after} "
        rows = await reading.fetch(
            f"SELECT * FROM {table} {where}ORDER BY {order} LIMIT {BATCH}", last or ()
        )
        if not rows:
            return total
        columns = list(rows[0].keys())
        await writing.execute_many(
            f"INSERT INTO {table} ({', '.join(columns)})"
            f" VALUES ({', '.join('?' for _ in columns)})",
            [tuple(row[column] for column in columns) for row in rows],
        )
        total += len(rows)
        last = tuple(rows[-1][column] for column in key)
