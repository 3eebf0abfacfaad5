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

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from .errors import DatabaseBusy, DatabaseUnavailable, StorageError

log = logging.getLogger(__name__)

Synchronous = Literal["NORMAL", "FULL"]
Clock = Callable[[], float]
Value = str | int | float | bytes | None
"""A value a statement is given, or a column :meth:`Connection.fetch_value` reads: what both
drivers bind and return for the schema's types (a ``bool`` is an ``int``)."""
Parameters = Sequence[Value] | Mapping[str, Value]


def whole(value: Value) -> int:
    """``value`` read as a whole number, for a column that holds one whatever the rows (an id
    an insert returns, a count): :class:`StorageError` if it is ``NULL`` or not a number."""
    if isinstance(value, int | float | str):
        return int(value)
    raise StorageError(f"expected a number from the database, not {value!r}")


def real(value: Value) -> float:
    """``value`` read as a number of any kind (a time, a clock's reading): see :func:`whole`."""
    if isinstance(value, int | float | str):
        return float(value)
    raise StorageError(f"expected a number from the database, not {value!r}")


class Row(Protocol):
    """A result row: by column position or by name (``sqlite3.Row`` and ``asyncpg.Record``)."""

    def __getitem__(self, key: int | str, /) -> Any:  # a column, typed by the code reading it
        ...

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
    async def execute_many(self, sql: str, rows: Iterable[Sequence[Value]]) -> None:
        """Run ``sql`` once per parameter row (bulk inserts)."""

    async def fetch_one(self, sql: str, parameters: Parameters = ()) -> Row | None:
        """The first row, or ``None``."""
        rows = await self.fetch(sql, parameters)
        return rows[0] if rows else None

    async def fetch_value(self, sql: str, parameters: Parameters = ()) -> Value:
        """The first column of the first row, or ``None``."""
        row = await self.fetch_one(sql, parameters)
        return None if row is None else row[0]

    async def server_time(self) -> float:
        """The time as the database's server sees it, in UTC epoch seconds: the one clock every
        process sharing the database agrees on (an SQLite file is shared by one machine only,
        so its clock is that machine's)."""
        return time.time()

    async def take_turn(self, key: int) -> None:  # noqa: B027 (SQLite needs nothing more)
        """Wait until no other transaction holds the turn ``key``, and hold it until this one
        ends (PostgreSQL: a transaction-scoped advisory lock). SQLite's write transactions
        already take turns."""

    @property
    @abstractmethod
    def for_update(self) -> str:
        """The clause that locks rows read in a transaction until it ends (PostgreSQL's
        ``FOR UPDATE``). Empty on SQLite, whose write transactions already exclude each other."""


class Outage:
    """Whether the database answers, told in the log once per outage rather than once per
    refused request: a line when it stops answering, and one when it answers again.

    Requests run concurrently, so their outcomes arrive out of order: a request whose answer
    came just before a crash may finish (returning its connection to the pool) just after
    another request has found the database gone. Only a request that began after the last
    change of state is evidence of a new one: an answer to a request older than the failure
    does not end the outage, and a failure of a request older than the answer that ended the
    last one does not start another. Each request takes a ticket from :meth:`begin` and hands
    it back with its outcome."""

    def __init__(self, target: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.target = target
        self._clock = clock
        self.since: float | None = None
        """When the current outage began (``None``: the database answers)."""
        self.count = 0
        """Outages so far."""
        self.refused = 0
        """Requests refused during the current (or the last) outage."""
        self.answered_at: float | None = None
        """When a request was last answered (the clock's time; ``None``: never yet), so that a
        health check need not ask the database again while it is answering anyway."""
        self._tickets = 0
        """Requests begun so far."""
        self._changed_at_ticket = 0
        """How many requests had begun when the state last changed: only later ones can
        change it again."""

    @property
    def ongoing(self) -> bool:
        """Whether the last request found the database unavailable."""
        return self.since is not None

    def answered_within(self, seconds: float) -> bool:
        """Whether a request was answered in the last ``seconds`` and none refused since."""
        return (
            self.since is None
            and self.answered_at is not None
            and self._clock() - self.answered_at < seconds
        )

    def begin(self) -> int:
        """A request is about to ask the database: its ticket, for :meth:`failed` or
        :meth:`answered`."""
        self._tickets += 1
        return self._tickets

    def failed(self, error: DatabaseUnavailable, ticket: int) -> None:
        """The request of ``ticket`` (from :meth:`begin`) found the database unavailable."""
        if self.since is not None:
            self.refused += 1
            return
        if ticket <= self._changed_at_ticket:
            # Begun before the database was seen answering again: it says nothing newer.
            log.debug("a request begun before the database answered again failed: %s", error)
            return
        self.since = self._clock()
        self.count += 1
        self.refused = 1
        self._changed_at_ticket = self._tickets
        log.warning("%s; requests that need it are refused until it answers again", error)

    def answered(self, ticket: int) -> None:
        """The request of ``ticket`` (from :meth:`begin`) was answered."""
        if self.since is None:
            self.answered_at = self._clock()
            return
        if ticket <= self._changed_at_ticket:
            return  # begun before the failure was seen: its answer may predate it
        self.answered_at = self._clock()
        lasted = self.answered_at - self.since
        self.since = None
        self._changed_at_ticket = self._tickets
        log.warning(
            "the database %s answers again after %.0f s (%d request(s) refused meanwhile)",
            self.target,
            lasted,
            self.refused,
        )


@asynccontextmanager
async def watched(outage: Outage) -> AsyncIterator[None]:
    """Tell ``outage`` how the block's request fared: refused as unavailable, or answered
    (a refusal of the stores' own, such as a position that changed, is an answer too)."""
    ticket = outage.begin()
    try:
        yield
    except DatabaseBusy:
        raise  # the database answers; this process asks too much of it at once
    except DatabaseUnavailable as error:
        outage.failed(error, ticket)
        raise
    except StorageError:
        outage.answered(ticket)
        raise
    else:
        outage.answered(ticket)


@dataclass(frozen=True)
class PostgresOptions:
    """How the bot uses a PostgreSQL server (defaults suit one bot process on its own server)."""

    pool_size: int = 10
    """At most this many connections per process (``TAFL_DB_POOL_SIZE``)."""
    pool_wait: float = 30.0
    """Seconds a request waits for a free connection when all are busy before it is answered
    "busy, try again" (``TAFL_DB_POOL_WAIT``)."""
    connect_timeout: float = 10.0
    """Seconds to wait for a new connection before calling the server unreachable
    (``TAFL_DB_CONNECT_TIMEOUT``)."""
    statement_cache: int = 100
    """Prepared statements cached per connection; 0 behind a pooler in transaction mode
    (PgBouncer), where a connection's prepared statements may vanish between transactions
    (``TAFL_DB_STATEMENT_CACHE``)."""
    password: str | None = field(default=None, repr=False)
    """The password, when kept out of the URL (``TAFL_DATABASE_PASSWORD`` or its file)."""
    listen_url: str | None = field(default=None, repr=False)
    """Where the connection that listens for the other processes' signals goes, when not
    where the pool does (``TAFL_DATABASE_LISTEN_URL``): ``LISTEN`` needs a session of its own
    on the server, which a pooler in transaction mode (PgBouncer) does not keep."""

    def __post_init__(self) -> None:
        if self.pool_size < 1:
            raise ValueError(f"the pool needs at least one connection, not {self.pool_size}")
        if self.pool_wait <= 0 or self.connect_timeout <= 0:
            raise ValueError("the pool's waits must be positive")
        if self.statement_cache < 0:
            raise ValueError("the statement cache size cannot be negative")


DEFAULT_POSTGRES = PostgresOptions()


@dataclass(frozen=True)
class PoolStats:
    """How many connections a database holds, for metrics."""

    in_use: int
    idle: int
    limit: int


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
        self.outage = Outage(target)
        """Whether it answers; the backends report each request's fate to it."""

    async def signal(self, topic: str, payload: str) -> None:  # noqa: B027 (SQLite: nobody)
        """Tell the other processes sharing the database that ``topic`` changed (``payload``
        says what). A file is shared by no other process: nothing to tell."""

    def listen(  # noqa: B027 (SQLite: nobody else to hear)
        self, topic: str, callback: Callable[[str | None], None]
    ) -> None:
        """Hear the other processes' signals of ``topic``; ``callback`` gets each payload, or
        ``None`` when signals may have been missed (the listening connection was lost and made
        again): then everything the topic covers must be looked at afresh."""

    def pool_stats(self) -> PoolStats | None:
        """The connections in use and idle (``None``: a backend without a pool)."""
        return None

    def control(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction for the process's own bookkeeping (its shard leases), which a
        busy backend must not keep waiting: PostgreSQL runs it on a connection of its own,
        outside the pool the players' requests share."""
        return self.transaction()

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

    async def ping(self) -> None:
        """Ask the database the simplest question (``SELECT 1``), as any request would: a
        :class:`DatabaseUnavailable` when it cannot be reached, and :attr:`outage` told either
        way (an answer ends an outage). The caller bounds the wait."""
        async with self.read() as connection:
            await connection.fetch_value("SELECT 1")

    async def schema_version(self) -> int:
        """The newest migration applied to this database."""
        async with self.read() as connection:
            value = await connection.fetch_value("SELECT max(version) FROM schema_migrations")
        return whole(value or 0)

    async def table_counts(self, tables: Sequence[str]) -> dict[str, int]:
        """Row counts of our own tables (names from our code, never from input), in one view."""
        counts: dict[str, int] = {}
        async with self.snapshot() as connection:
            for table in tables:
                counts[table] = whole(await connection.fetch_value(f"SELECT count(*) FROM {table}"))
        return counts

    @abstractmethod
    async def durability(self) -> str:
        """What a commit survives, as the database reports it for this bot's connections
        (e.g. ``SQLite journal_mode=wal, synchronous=FULL``), for the log at start-up."""

    @abstractmethod
    async def close(self) -> None:
        """Close the database (waiting for any transaction in progress)."""
