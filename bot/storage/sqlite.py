"""The SQLite backend: one file, one connection, used one transaction at a time.

Durability: WAL mode with ``synchronous=FULL``. Every commit is written to the WAL file and
fsynced before :meth:`SqliteDatabase.transaction` returns, so neither a killed process (even
``kill -9``) nor an operating-system crash or power loss loses a move the bot has announced.
``synchronous="NORMAL"`` (no fsync per commit, so a power loss may drop the last few commits,
though never corrupt the file) exists only so benchmarks can compare the two.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from .database import (
    Clock,
    Connection,
    Database,
    Parameters,
    Row,
    Synchronous,
    Value,
    watched,
    whole,
)
from .errors import (
    DatabaseCorruptError,
    DatabaseUnavailable,
    DatabaseUnusable,
    NotADatabaseError,
    StorageError,
    UniqueViolation,
)
from .migrations import (
    MIGRATIONS,
    MIGRATIONS_TABLE,
    OLDEST_READER_COLUMN,
    Migration,
    check_history,
    check_sequence,
)

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"
SYNCHRONOUS_LEVELS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
"""The names of the numbers ``PRAGMA synchronous`` answers."""

_UNIQUE_CODES = {sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY}
# Primary result codes that mean "not now" (another writer holds the lock past the busy
# timeout, the disk is full or failing), as opposed to a mistake in the statement.
_UNAVAILABLE_CODES = {
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_READONLY,
}


def classify(error: sqlite3.Error, target: str) -> Exception:
    """The backend-neutral error for ``error``, by SQLite's extended result code; the error
    itself when the stores have no use for a neutral one."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return error
    if code in _UNIQUE_CODES:
        return UniqueViolation(None, str(error))
    if code & 0xFF in _UNAVAILABLE_CODES:
        return DatabaseUnavailable(target, str(error))
    return error


class SqliteConnection(Connection):
    """The one aiosqlite connection, as the stores see it."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, target: str) -> None:
        self._connection = connection
        self._target = target

    async def fetch(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        try:
            return list(await self._connection.execute_fetchall(sql, parameters))
        except sqlite3.Error as error:
            raise classify(error, self._target) from error

    async def execute(self, sql: str, parameters: Parameters = ()) -> int:
        try:
            async with self._connection.execute(sql, parameters) as cursor:
                return cursor.rowcount
        except sqlite3.Error as error:
            raise classify(error, self._target) from error

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Value]]) -> None:
        try:
            await self._connection.executemany(sql, rows)
        except sqlite3.Error as error:
            raise classify(error, self._target) from error

    @property
    def for_update(self) -> str:
        return ""


class SqliteDatabase(Database):
    """An open, migrated SQLite database.

    Use :meth:`open`. :meth:`transaction`, :meth:`read` and :meth:`snapshot` take turns on the one
    connection, so one coroutine never sees another's half-done transaction.
    """

    backend = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        super().__init__(str(path), clock)
        self._connection = connection
        self._wrapped = SqliteConnection(connection, str(path))
        self.path = path
        # One connection serves the whole bot; the lock keeps a transaction's statements together.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout: float = 5.0,
        check_integrity: bool = True,
        clock: Clock = time.time,
        migrations: tuple[Migration, ...] = MIGRATIONS,
    ) -> SqliteDatabase:
        """Open (or create) the database at ``path`` and bring its schema up to date.

        Raises a :class:`DatabaseUnusable` subclass, leaving the file untouched, when the file is
        not an SQLite database, fails the integrity check, holds someone else's tables, or was
        written by a newer version of the bot.
        """
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', not {synchronous!r}")
        check_sequence(migrations)
        path = Path(path)
        _check_header(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseUnusable(path, f"cannot create its folder ({error})") from error
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            raise DatabaseUnusable(path, str(error)) from error
        try:
            connection.row_factory = sqlite3.Row
            await connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            await connection.execute("PRAGMA foreign_keys = ON")
            # Everything up to the version check only reads, so a refused file is never written to.
            await _check_readable(connection, path, check_integrity)
            applied = await _check_version(connection, path, migrations)
            mode = await _fetch_value(connection, "PRAGMA journal_mode = WAL")
            if str(mode).lower() != "wal":
                raise DatabaseUnusable(path, f"it cannot use WAL mode (journal mode is {mode!s})")
            await connection.execute(f"PRAGMA synchronous = {synchronous}")
            await _migrate(connection, path, migrations, applied, clock)
        except BaseException:
            await connection.close()
            raise
        return cls(connection, path, clock)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """Run the block as one write transaction: committed on success, rolled back on error.

        ``BEGIN IMMEDIATE`` takes the write lock at the start, so a transaction that reads and then
        writes cannot be overtaken by another process between the two.
        """
        async with self._lock, watched(self.outage):
            connection = self._connection
            try:
                # Inside the try: a caller cancelled during BEGIN must still roll it back (the
                # statement runs to completion in aiosqlite's thread either way).
                await self._wrapped.execute("BEGIN IMMEDIATE")
                yield self._wrapped
            except BaseException:
                # Shielded: even a cancelled caller must leave no transaction open behind it.
                await asyncio.shield(connection.rollback())
                raise
            try:
                await asyncio.shield(connection.commit())
            except sqlite3.Error as error:
                await asyncio.shield(connection.rollback())
                raise classify(error, self.target) from error

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """Run read-only statements while no transaction is half done."""
        async with self._lock, watched(self.outage):
            yield self._wrapped

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Connection]:
        """Run several reads that must see one consistent state (a deferred read transaction)."""
        async with self._lock, watched(self.outage):
            connection = self._connection
            try:
                await connection.execute("BEGIN")
                yield self._wrapped
            finally:
                await asyncio.shield(connection.rollback())

    async def durability(self) -> str:
        """The journal mode and ``synchronous`` level of the bot's connection (a per-connection
        setting: another connection to the same file may run with a different one)."""
        async with self.read() as connection:
            mode = await connection.fetch_value("PRAGMA journal_mode")
            level = await connection.fetch_value("PRAGMA synchronous")
        level_name = SYNCHRONOUS_LEVELS.get(level, level) if isinstance(level, int) else level
        return f"SQLite journal_mode={mode!s}, synchronous={level_name!s}"

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """Write a consistent, compacted copy of the database to ``target`` (which must not exist).

        Safe while the bot runs: other work waits for the copy (about a second per 100 MB).
        """
        target_path = _backup_target(Path(target))
        async with self._lock:
            await self._connection.execute("VACUUM INTO ?", (str(target_path),))

    async def close(self) -> None:
        """Close the connection (waiting for any transaction in progress)."""
        async with self._lock:
            try:
                await self._connection.execute("PRAGMA optimize")
            except sqlite3.OperationalError as error:
                # Housekeeping only: another process holding the file busy past the timeout
                # must not make a close fail (the statistics are refreshed next time).
                log.info("skipped PRAGMA optimize on close: %s", error)
            finally:
                await self._connection.close()


def _backup_target(target: Path) -> Path:
    if target.exists():
        raise FileExistsError(f"backup target {str(target)!r} already exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before SQLite ever opens it."""
    if path.is_dir():
        raise DatabaseUnusable(path, "it is a folder, not a file")
    if not path.exists():
        return
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise DatabaseUnusable(path, f"it cannot be read ({error})") from error
    # An empty file is a valid empty database (SQLite creates files that way).
    if header and header != SQLITE_HEADER:
        raise NotADatabaseError(path, "it is not an SQLite database (wrong file header)")


async def _fetch_value(
    connection: aiosqlite.Connection, sql: str, parameters: Sequence[Value] = ()
) -> Value:
    rows = list(await connection.execute_fetchall(sql, parameters))
    return rows[0][0] if rows else None


async def _check_readable(
    connection: aiosqlite.Connection, path: Path, check_integrity: bool
) -> None:
    try:
        await connection.execute_fetchall("SELECT count(*) FROM sqlite_master")
        if check_integrity:
            problems = [row[0] for row in await connection.execute_fetchall("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise DatabaseCorruptError(
                    path, "it fails SQLite's integrity check: " + "; ".join(problems[:5])
                )
    except sqlite3.DatabaseError as error:
        message = str(error)
        if "not a database" in message:
            raise NotADatabaseError(path, f"it is not an SQLite database ({message})") from error
        raise DatabaseCorruptError(path, f"it is damaged ({message})") from error


async def _check_version(
    connection: aiosqlite.Connection, path: Path, migrations: tuple[Migration, ...]
) -> set[int]:
    """Return the versions already applied, refusing a database this code must not touch."""
    known = len(migrations)
    tables = {
        row[0]
        for row in await connection.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    user_version = whole(await _fetch_value(connection, "PRAGMA user_version"))
    recorded: list[tuple[int, str, int | None]] = []
    if "schema_migrations" in tables:
        columns = {
            row[1]
            for row in await connection.execute_fetchall("PRAGMA table_info(schema_migrations)")
        }
        reader = OLDEST_READER_COLUMN if OLDEST_READER_COLUMN in columns else "NULL"
        recorded = [
            (int(row[0]), str(row[1]), None if row[2] is None else int(row[2]))
            for row in await connection.execute_fetchall(
                f"SELECT version, name, {reader} FROM schema_migrations ORDER BY version"
            )
        ]
    elif tables and user_version <= known:
        raise DatabaseUnusable(
            path, "it holds tables that are not this bot's (there is no schema_migrations table)"
        )
    return check_history(path, recorded, migrations, newest=user_version)


async def _add_oldest_reader_column(connection: aiosqlite.Connection) -> None:
    """Give a ``schema_migrations`` made before rolling upgrades its ``oldest_reader`` column."""
    columns = {
        row[1] for row in await connection.execute_fetchall("PRAGMA table_info(schema_migrations)")
    }
    if OLDEST_READER_COLUMN not in columns:
        await connection.execute(
            f"ALTER TABLE schema_migrations ADD COLUMN {OLDEST_READER_COLUMN} INTEGER"
        )


async def _migrate(
    connection: aiosqlite.Connection,
    path: Path,
    migrations: Iterable[Migration],
    applied: set[int],
    clock: Clock,
) -> None:
    for migration in migrations:
        if migration.version in applied:
            continue
        await connection.execute("BEGIN IMMEDIATE")
        try:
            await connection.execute(MIGRATIONS_TABLE)
            await _add_oldest_reader_column(connection)
            # Another process may have applied it since we looked; the write lock makes this final.
            done = await _fetch_value(
                connection,
                "SELECT 1 FROM schema_migrations WHERE version = ?",
                (migration.version,),
            )
            if not done:
                for statement in migration.sqlite_statements():
                    await connection.execute(statement)
                await connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at, oldest_reader)"
                    " VALUES (?, ?, ?, ?)",
                    (migration.version, migration.name, int(clock()), migration.oldest_reader),
                )
                # PRAGMA takes no parameters; the version is an int from our own table.
                await connection.execute(f"PRAGMA user_version = {int(migration.version)}")
            await connection.commit()
        except sqlite3.Error as error:
            await connection.rollback()
            raise StorageError(
                f"migration {migration.version} ({migration.name!r}) failed on {str(path)!r}:"
                f" {error}; the database was left at the previous version"
            ) from error
        except BaseException:
            await connection.rollback()
            raise
        if not done:
            log.info(
                "database %s: applied migration %d (%s)", path, migration.version, migration.name
            )
