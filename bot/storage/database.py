"""The database the stores talk to: one interface, two backends.

* An SQLite file (the default, :mod:`.sqlite`): one process, one connection, WAL and ``fsync`` on
  every commit.
* PostgreSQL through asyncpg (:mod:`.postgres`): a pool of connections, for several bot processes
  on one database.

The stores write their SQL once, in the dialect both understand, with ``?`` or ``:name``
placeholders, and run it through a :class:`Connection`; they never see which backend answers.
Where the two must differ (row locks), the connection says so (:attr:`Connection.for_update`).
Errors the stores act on arrive as backend-neutral exceptions, classified by the backends' error
codes (SQLSTATE, SQLite's extended result codes), never by message text.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, Protocol

Synchronous = Literal["NORMAL", "FULL"]
Clock = Callable[[], float]
Parameters = Sequence[Any] | Mapping[str, Any]


class Row(Protocol):
    """A result row: by column position or by name (``sqlite3.Row`` and ``asyncpg.Record``)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Iterable[str]:
        """The column names, in order."""
        ...


class Connection(ABC):
    """One connection inside a transaction (or a read), as the stores use it."""

    dialect: str
    """``"sqlite"`` or ``"postgresql"``."""

    @abstractmethod
    async def fetch(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        """Run ``sql`` and return every row (``RETURNING`` rows for writes)."""

    @abstractmethod
    async def execute(self, sql: str, parameters: Parameters = ()) -> int:
        """Run ``sql`` and return how many rows it changed."""

    @abstractmethod
    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run ``sql`` once per parameter row (bulk inserts)."""

    async def fetch_one(self, sql: str, parameters: Parameters = ()) -> Row | None:
        """The first row, or ``None``."""
        rows = await self.fetch(sql, parameters)
        return rows[0] if rows else None

    async def fetch_value(self, sql: str, parameters: Parameters = ()) -> Any:
        """The first column of the first row, or ``None``."""
        row = await self.fetch_one(sql, parameters)
        return None if row is None else row[0]

    @property
    @abstractmethod
    def for_update(self) -> str:
        """The clause that locks rows read in a transaction until it ends (PostgreSQL's
        ``FOR UPDATE``). Empty on SQLite, whose write transactions already exclude each other."""


class Database(ABC):
    """An open, migrated database.

    Every statement goes through :meth:`transaction`, :meth:`read` or :meth:`snapshot`. A
    method returns only after its transaction has committed (or rolled back, and raised).
    """

    backend: str
    """``"sqlite"`` or ``"postgresql"``."""

    def __init__(self, target: str, clock: Clock) -> None:
        self.target = target
        """Where the data lives, safe to show (a URL's password is redacted)."""
        self._clock = clock

    def now(self) -> int:
        """The current time in whole UTC epoch seconds (the clock is replaceable for tests)."""
        return int(self._clock())

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """Run the block as one write transaction: committed on success, rolled back on error
        (including cancellation)."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Connection]:
        """Run read-only statements that see only committed work."""

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Connection]:
        """Run several reads that must see one consistent state."""

    async def schema_version(self) -> int:
        """The newest migration applied to this database."""
        async with self.read() as connection:
            value = await connection.fetch_value("SELECT max(version) FROM schema_migrations")
        return int(value or 0)

    async def table_counts(self, tables: Sequence[str]) -> dict[str, int]:
        """Row counts of our own tables (names from our code, never from input), in one view."""
        counts: dict[str, int] = {}
        async with self.snapshot() as connection:
            for table in tables:
                counts[table] = int(await connection.fetch_value(f"SELECT count(*) FROM {table}"))
        return counts

    @abstractmethod
    async def durability(self) -> str:
        """What a commit survives, as the database reports it for this bot's connections
        (e.g. ``SQLite journal_mode=wal, synchronous=FULL``), for the log at start-up."""

    @abstractmethod
    async def close(self) -> None:
        """Close the database (waiting for any transaction in progress)."""
