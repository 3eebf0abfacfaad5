"""The PostgreSQL backend, through asyncpg: a pool of connections shared by the stores.

Several bot processes (shards) use one database at once, so every guarantee the stores give rests
on PostgreSQL's own locking, never on a lock in this process:

* transactions run at READ COMMITTED; a conditional ``UPDATE ... WHERE ply = :expected`` that
  waits for another transaction's row lock re-checks its condition on the committed row, so of two
  racing writes exactly one matches;
* rows a transaction reads in order to write them back (ratings) are read ``FOR UPDATE``;
* migrations take an advisory lock, so processes starting together apply each one once.

The stores' SQL uses SQLite's ``?`` and ``:name`` placeholders; :func:`numbered` rewrites them
into PostgreSQL's ``$1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, TypeAlias, TypedDict

import asyncpg

from .database import (
    DEFAULT_POSTGRES,
    Clock,
    Connection,
    Database,
    Parameters,
    PoolStats,
    PostgresOptions,
    Row,
    Value,
    real,
    watched,
)
from .errors import (
    Conflict,
    DatabaseBusy,
    DatabaseUnavailable,
    DatabaseUnusable,
    StorageError,
    UniqueViolation,
)
from .migrations import (
    MIGRATIONS,
    OLDEST_READER_COLUMN,
    POSTGRES_MIGRATIONS_TABLE,
    Migration,
    check_history,
    check_sequence,
)
from .target import redact

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # asyncpg's classes take no type arguments when the code runs
    _Direct: TypeAlias = asyncpg.Connection[asyncpg.Record]
    """A connection of its own (the control connection, the listening one)."""
    _Pooled: TypeAlias = asyncpg.pool.PoolConnectionProxy[asyncpg.Record]
    """A connection lent by the pool."""


class _ConnectSettings(TypedDict, total=False):
    """What every connection is opened with, pooled or not."""

    timeout: float
    command_timeout: float
    statement_cache_size: int
    password: str


MIGRATION_LOCK = 0x7AF1_0001
"""The advisory lock key that serialises migrations between processes starting together."""

CLOSE_TIMEOUT = 10.0
"""Seconds :meth:`PostgresDatabase.close` waits for connections in use."""

LISTEN_CHECK_SECONDS = 10.0
"""How long the listening connection waits for a signal of its own, sent as the others' are, to
come back before saying that the other processes' signals do not reach it."""

COMMAND_TIMEOUT = 30.0
"""Seconds one statement may take before it is abandoned (a half-open connection must not hold
a game's lock until the kernel gives up on it)."""

# SQLSTATE classes and codes that mean "the server cannot be used right now" rather than "this
# statement is wrong": connection exceptions, resources exhausted (disk full, too many
# connections), the server shutting down or starting, a standby after a failover refusing
# writes, and system (I/O) errors.
_UNAVAILABLE_CLASSES = ("08", "53", "57P", "58", "25006")
_CONFLICT = ("40001", "40P01")
_AUTHENTICATION = ("28000", "28P01")
_NO_DATABASE = "3D000"
_UNIQUE = "23505"

DRIVER_ERRORS = (
    asyncpg.PostgresError,
    OSError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)
"""What asyncpg raises: the server's errors, the socket's, and its own (misuse, or a connection
lost in the middle of an operation)."""

CHECK_TOPIC = "listening"
"""The topic of the listening connection's test signal (each process knows its own by its
payload)."""

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|--[^\n]*|\?|(?<![:\w]):([A-Za-z_]\w*)")


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> tuple[str, tuple[str, ...] | int]:
    """``sql`` with ``?`` or ``:name`` placeholders rewritten as ``$1, $2, …``.

    Returns the new text and either the number of ``?`` or the names in ``$`` order (a name used
    twice is one parameter). String literals and comments are left alone; ``::type`` casts are not
    placeholders.
    """
    names: list[str] = []
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        text = match.group(0)
        if text.startswith(("'", "--")):
            return text
        if text == "?":
            count += 1
            return f"${count}"
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    rewritten = _PLACEHOLDER.sub(replace, sql)
    if count and names:
        raise ValueError("SQL mixes ? and :name placeholders")
    return rewritten, (tuple(names) if names else count)


def bind(sql: str, parameters: Parameters) -> tuple[str, list[Value]]:
    """The PostgreSQL text of ``sql`` and its arguments in ``$`` order."""
    rewritten, shape = numbered(sql)
    if isinstance(shape, tuple):
        if not isinstance(parameters, Mapping):
            raise TypeError("SQL with :name placeholders needs a mapping of parameters")
        return rewritten, [parameters[name] for name in shape]
    if isinstance(parameters, Mapping):
        if parameters and shape:
            raise TypeError("SQL with ? placeholders needs a sequence of parameters")
        parameters = ()
    if len(parameters) != shape:
        raise TypeError(f"SQL has {shape} placeholders but {len(parameters)} parameters were given")
    return rewritten, list(parameters)


def sqlstate(error: BaseException) -> str | None:
    """The SQLSTATE code of a server error (``None`` for errors that did not come from one)."""
    code = getattr(error, "sqlstate", None)
    return code if isinstance(code, str) else None


def is_unavailable(error: BaseException, *, connection_closed: bool = False) -> bool:
    """Whether ``error`` means the database cannot be reached or used right now.

    Without an SQLSTATE only a failed socket, a timeout, an error raised because the connection
    is closed (``connection_closed``, asked of the connection itself), or the driver finding its
    connection's protocol in a state only a connection lost mid-operation leaves it in, count:
    asyncpg's other client-side errors are mistakes in our use of it, and must surface as bugs.
    """
    code = sqlstate(error)
    if code is not None:
        return code.startswith(_UNAVAILABLE_CLASSES)
    if isinstance(error, OSError | TimeoutError | asyncpg.InternalClientError):
        return True
    return connection_closed and isinstance(error, asyncpg.InterfaceError)


def classify(
    error: BaseException, target: str, *, connection_closed: bool = False
) -> BaseException:
    """The backend-neutral error for ``error`` (by SQLSTATE), or ``error`` itself."""
    code = sqlstate(error)
    if code == _UNIQUE:
        constraint = getattr(error, "constraint_name", None)
        return UniqueViolation(constraint if isinstance(constraint, str) else None, str(error))
    if code in _CONFLICT:
        return Conflict(target, _describe(error))
    if is_unavailable(error, connection_closed=connection_closed):
        return DatabaseUnavailable(target, _describe(error))
    return error


def _describe(error: BaseException) -> str:
    """``error`` in one line, for the log and the readiness check: the server's message,
    then its DETAIL and HINT lines (which asyncpg puts on lines of their own), then the
    SQLSTATE."""
    code = sqlstate(error)
    lines = [" ".join(line.split()) for line in str(error).splitlines()]
    text = "; ".join(line for line in lines if line) or type(error).__name__
    return f"{text} (SQLSTATE {code})" if code else text


def _gone(
    connection: _Direct | _Pooled | None,
) -> bool:
    """Whether a pooled connection was closed under us. asyncpg detaches the proxy of a
    connection it has lost, after which even asking raises: that too means it is gone."""
    if connection is None:
        return True
    try:
        return connection.is_closed()
    except asyncpg.InterfaceError:
        return True


class PostgresConnection(Connection):
    """One asyncpg connection (pooled, or the control connection), as the stores see it."""

    dialect = "postgresql"

    def __init__(
        self,
        connection: _Direct | _Pooled,
        target: str,
    ) -> None:
        self._connection = connection
        self._target = target

    async def fetch(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        query, arguments = bind(sql, parameters)
        try:
            return list(await self._connection.fetch(query, *arguments))
        except DRIVER_ERRORS as error:
            raise self._classify(error) from error

    async def execute(self, sql: str, parameters: Parameters = ()) -> int:
        query, arguments = bind(sql, parameters)
        try:
            status = await self._connection.execute(query, *arguments)
        except DRIVER_ERRORS as error:
            raise self._classify(error) from error
        # The command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0"; its last word is the row count.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Value]]) -> None:
        query, _ = numbered(sql)
        try:
            await self._connection.executemany(query, [tuple(row) for row in rows])
        except DRIVER_ERRORS as error:
            raise self._classify(error) from error

    async def server_time(self) -> float:
        # clock_timestamp(), not now(): the moment of the statement, not of the transaction.
        value = await self.fetch_value("SELECT extract(epoch FROM clock_timestamp())::float8")
        return real(value)

    async def take_turn(self, key: int) -> None:
        await self.execute("SELECT pg_advisory_xact_lock(?)", (key,))

    def _classify(self, error: BaseException) -> BaseException:
        return classify(error, self._target, connection_closed=_gone(self._connection))

    @property
    def for_update(self) -> str:
        return " FOR UPDATE"


class PostgresDatabase(Database):
    """An open, migrated PostgreSQL database (a pool of connections)."""

    backend = "postgresql"

    def __init__(
        self,
        pool: asyncpg.Pool,
        target: str,
        clock: Clock,
        connect: Callable[[], Awaitable[_Direct]],
        options: PostgresOptions,
        connect_listener: Callable[[], Awaitable[_Direct]] | None = None,
    ) -> None:
        """``connect`` makes a connection outside the pool; ``connect_listener`` the one that
        listens for signals (by default, the same)."""
        super().__init__(target, clock)
        self._pool = pool
        self._options = options
        self._connect = connect
        self._connect_listener = connect_listener or connect
        self._check: tuple[str, asyncio.Event] | None = None
        """The payload of the listening connection's own test signal, and its arrival."""
        self._deaf = False
        """Whether the last test signal went unheard (said once, until one is heard)."""
        self._heard = False
        """Whether a test signal has been heard yet (said once)."""
        self._control: _Direct | None = None
        self._control_lock = asyncio.Lock()
        self._listeners: dict[str, list[Callable[[str | None], None]]] = {}
        self._listening: asyncio.Task[None] | None = None
        self._namespace = ""
        """Put before every signal's topic: the schema, so that two bots in one database (each
        in a schema of its own) do not hear each other."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Clock = time.time,
        migrations: tuple[Migration, ...] = MIGRATIONS,
        options: PostgresOptions = DEFAULT_POSTGRES,
    ) -> PostgresDatabase:
        """Connect to ``url`` and bring the schema up to date.

        :class:`DatabaseUnavailable` when the server cannot be reached; a
        :class:`DatabaseUnusable` subclass (nothing written) when it refuses us or holds a schema
        this code must not touch.
        """
        check_sequence(migrations)
        target = redact(url)
        settings = _ConnectSettings(
            timeout=options.connect_timeout,
            command_timeout=COMMAND_TIMEOUT,
            statement_cache_size=options.statement_cache,
        )
        if options.password is not None:
            settings["password"] = options.password
        try:
            # No floor of idle connections (min_size 0): asyncpg would otherwise keep
            # reconnecting in the background while the server is away, logging a traceback a
            # second; connections are made when asked for, and kept for reuse.
            pool = await asyncpg.create_pool(
                url, min_size=0, max_size=options.pool_size, **settings
            )
        except DRIVER_ERRORS as error:
            raise _refusal(error, target) from error
        except ValueError as error:  # asyncpg's verdict on a malformed URL
            raise DatabaseUnusable(target, "the URL is not valid") from error
        try:
            # The first connection, made now so that a refusal (no such database, a wrong
            # password, no server, a bad connection option) is told as such at start-up.
            async with pool.acquire(timeout=options.connect_timeout) as probe:
                await probe.fetchval("SELECT 1")
        except (*DRIVER_ERRORS, ValueError) as error:
            pool.terminate()
            raise _refusal(error, target) from error
        try:
            await _migrate(pool, target, migrations, clock)
        except BaseException:
            pool.terminate()
            raise

        async def connect() -> _Direct:
            connection: _Direct = await asyncpg.connect(url, **settings)
            return connection

        connect_listener = None
        if options.listen_url is not None:
            listen_url = options.listen_url

            async def connect_listener() -> _Direct:
                connection: _Direct = await asyncpg.connect(listen_url, **settings)
                return connection

            # One connection now, so that a refusal there (a wrong password, no such server)
            # is told at start-up rather than retried quietly for ever.
            try:
                checked = await asyncio.wait_for(connect_listener(), options.connect_timeout)
                await checked.close()
            except (*DRIVER_ERRORS, TimeoutError, ValueError) as error:
                pool.terminate()
                raise _refusal(error, f"{redact(listen_url)} (for listening)") from error
        database = cls(pool, target, clock, connect, options, connect_listener)
        async with pool.acquire() as connection:
            database._namespace = str(await connection.fetchval("SELECT current_schema()"))
        return database

    async def signal(self, topic: str, payload: str) -> None:
        """``NOTIFY``: every process listening to ``topic`` on this database hears it."""
        async with self._connection() as connection:
            await connection.execute("SELECT pg_notify($1, $2)", self._channel(topic), payload)

    def listen(self, topic: str, callback: Callable[[str | None], None]) -> None:
        """``LISTEN`` on a connection of its own, made again whenever it is lost."""
        self._listeners.setdefault(topic, []).append(callback)
        if self._listening is None:
            self._listening = asyncio.create_task(self._listen(), name="database-listener")

    def _channel(self, topic: str) -> str:
        return f"tafl:{self._namespace}:{topic}"

    async def _listen(self) -> None:
        """Keep a listening connection; after each (re)connection tell every listener that
        signals may have been missed, and check that signals reach it."""
        while True:
            lost = asyncio.Event()
            connection: _Direct | None = None
            try:
                connection = await asyncio.wait_for(
                    self._connect_listener(), self._options.connect_timeout
                )
                connection.add_termination_listener(functools.partial(_set, lost))
                for topic in self._listeners:
                    await connection.add_listener(self._channel(topic), self._deliver)
                await connection.add_listener(self._channel(CHECK_TOPIC), self._checked)
                for callbacks in self._listeners.values():
                    for callback in callbacks:
                        callback(None)
                await self._check_signals_arrive(lost)
                await lost.wait()
            except DRIVER_ERRORS:
                pass
            finally:
                if connection is not None and not connection.is_closed():
                    connection.terminate()
            await asyncio.sleep(1.0)  # the server is away: try again soon, not in a spin

    async def _check_signals_arrive(self, lost: asyncio.Event) -> None:
        """Send a signal of its own the way the other processes send theirs, and say so in the
        log when the listening connection does not hear it: behind a pooler in transaction
        mode (PgBouncer) ``LISTEN`` runs on whichever server connection the pooler lends, which
        goes back to its pool at once and never passes a signal on."""
        payload = secrets.token_hex(8)
        arrived = asyncio.Event()
        self._check = (payload, arrived)
        try:
            await self.signal(CHECK_TOPIC, payload)
        except StorageError:
            return  # the database is away: the connection is being lost too
        waiting = {asyncio.create_task(arrived.wait()), asyncio.create_task(lost.wait())}
        try:
            await asyncio.wait(
                waiting, timeout=LISTEN_CHECK_SECONDS, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in waiting:
                task.cancel()
        if arrived.is_set():
            if self._deaf:
                self._deaf = False
                log.warning("signals from the other processes reach this one again")
            elif not self._heard:
                log.info("signals from the other processes reach this one (LISTEN works)")
            self._heard = True
        elif not lost.is_set() and not self._deaf:
            self._deaf = True
            log.error(
                "signals from the other processes do not reach this one: a test signal sent"
                " through %s was not heard on the listening connection within %g s. Behind"
                " PgBouncer in transaction pooling mode LISTEN cannot work: set"
                " TAFL_DATABASE_LISTEN_URL to a direct connection to PostgreSQL. Until then,"
                " this process is not told at once of the moves other processes make in games"
                " across servers",
                self.target,
                LISTEN_CHECK_SECONDS,
            )

    def _checked(self, _connection: object, _pid: int, _channel: str, payload: object) -> None:
        if self._check is not None and self._check[0] == payload:
            self._check[1].set()

    def _deliver(self, _connection: object, _pid: int, channel: str, payload: object) -> None:
        topic = channel.rsplit(":", 1)[-1]
        for callback in self._listeners.get(topic, []):
            callback(str(payload))

    def pool_stats(self) -> PoolStats:
        idle = self._pool.get_idle_size()
        return PoolStats(self._pool.get_size() - idle, idle, self._pool.get_max_size())

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[_Pooled]:
        """A pooled connection for the block. The server's failures, in getting the connection
        or in the block (its statements, or beginning and ending its transaction), arrive as
        storage errors, and :attr:`outage` hears of each request's fate."""
        async with watched(self.outage):
            connection = await self._acquire()
            try:
                yield connection
            except DRIVER_ERRORS as error:
                # Asked before the release below, which detaches the proxy.
                converted = classify(error, self.target, connection_closed=_gone(connection))
                if converted is error:
                    raise
                raise converted from error
            finally:
                await self._release(connection)

    async def _acquire(self) -> _Pooled:
        try:
            return await self._pool.acquire(timeout=self._options.pool_wait)
        except TimeoutError as error:
            if self._pool_full():
                raise DatabaseBusy(
                    self.target,
                    f"all {self._options.pool_size} connections stayed busy for"
                    f" {self._options.pool_wait:g} s",
                ) from error
            raise DatabaseUnavailable(self.target, "no connection was made in time") from error
        except DRIVER_ERRORS as error:
            converted = classify(error, self.target)
            if converted is error:
                raise
            raise converted from error

    async def _release(self, connection: _Pooled) -> None:
        # The reset on release fails with the server gone: the pool then drops the connection
        # and makes a new one when asked; the block's own outcome stands.
        with contextlib.suppress(*DRIVER_ERRORS):
            await self._pool.release(connection)

    def _pool_full(self) -> bool:
        return self._pool.get_size() >= self._options.pool_size and not self._pool.get_idle_size()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A READ COMMITTED transaction on a pooled connection: committed when the block ends,
        rolled back on any error or cancellation."""
        # READ COMMITTED named, not left to the server's default: every guarantee above is
        # argued for it, and a stricter default would bring serialisation failures instead.
        async with (
            self._connection() as connection,
            connection.transaction(isolation="read_committed"),
        ):
            yield PostgresConnection(connection, self.target)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """A pooled connection; each statement sees what was committed when it started."""
        async with self._connection() as connection:
            yield PostgresConnection(connection, self.target)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Connection]:
        """A read-only REPEATABLE READ transaction: every read sees the same moment."""
        async with (
            self._connection() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresConnection(connection, self.target)

    async def durability(self) -> str:
        """The server's ``fsync`` and ``synchronous_commit`` as a pooled connection sees them
        (either can be set per database or role, not only in the server's configuration)."""
        async with self.read() as connection:
            fsync = await connection.fetch_value("SHOW fsync")
            commit = await connection.fetch_value("SHOW synchronous_commit")
        return f"PostgreSQL fsync={fsync!s}, synchronous_commit={commit!s}"

    @asynccontextmanager
    async def control(self) -> AsyncIterator[Connection]:
        """A READ COMMITTED transaction on the control connection: one connection of its own,
        made again when lost, so that renewing the shard leases never waits for a pool that
        the players' requests keep busy."""
        async with self._control_lock:
            try:
                if self._control is None or self._control.is_closed():
                    self._control = await asyncio.wait_for(
                        self._connect(), self._options.connect_timeout
                    )
                control = self._control
                async with control.transaction(isolation="read_committed"):
                    yield PostgresConnection(control, self.target)
            except BaseException as error:
                converted = error
                if isinstance(error, DRIVER_ERRORS):
                    closed = _gone(self._control)
                    converted = classify(error, self.target, connection_closed=closed)
                if not isinstance(error, StorageError) and self._control is not None:
                    # Whatever state a failure left it in, the next use starts afresh.
                    self._control.terminate()
                    self._control = None
                if converted is not error:
                    raise converted from error
                raise

    async def close(self) -> None:
        """Wait for connections in use to be released (at most 10 s), then close the pool."""
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
            self._listening = None
        if self._control is not None:
            self._control.terminate()
            self._control = None
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_TIMEOUT)
        except (*DRIVER_ERRORS, TimeoutError):
            self._pool.terminate()


def _set(event: asyncio.Event, *_: object) -> None:
    event.set()


def _refusal(error: BaseException, target: str) -> StorageError:
    """Why the first connection failed, as the error that stops the start-up."""
    if isinstance(error, ValueError | asyncpg.ClientConfigurationError):
        # asyncpg's verdict on the URL or its options (its text may quote the URL: not shown).
        return DatabaseUnusable(
            target, f"the URL or one of its options is not valid ({type(error).__name__})"
        )
    code = sqlstate(error)
    if code in _AUTHENTICATION:
        return DatabaseUnusable(target, f"the server refused the login ({_describe(error)})")
    if code == _NO_DATABASE:
        return DatabaseUnusable(
            target, f"the database does not exist; create it first ({_describe(error)})"
        )
    if is_unavailable(error):
        return DatabaseUnavailable(target, _describe(error))
    return DatabaseUnusable(target, _describe(error))


async def _migrate(
    pool: asyncpg.Pool, target: str, migrations: tuple[Migration, ...], clock: Clock
) -> None:
    """Check the recorded history, then apply each missing migration in its own transaction.

    Every step holds the advisory lock, so of several processes starting at once one applies a
    migration and the others find it applied.
    """
    try:
        async with pool.acquire() as connection:
            async with connection.transaction():
                await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                applied = await _check_version(connection, target, migrations)
            for migration in migrations:
                if migration.version in applied:
                    continue
                try:
                    async with connection.transaction():
                        await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                        await connection.execute(POSTGRES_MIGRATIONS_TABLE)
                        await connection.execute(
                            "ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS"
                            f" {OLDEST_READER_COLUMN} BIGINT"
                        )
                        done = await connection.fetchval(
                            "SELECT 1 FROM schema_migrations WHERE version = $1", migration.version
                        )
                        if not done:
                            await connection.execute(migration.postgres)
                            await connection.execute(
                                "INSERT INTO schema_migrations"
                                " (version, name, applied_at, oldest_reader)"
                                " VALUES ($1, $2, $3, $4)",
                                migration.version,
                                migration.name,
                                int(clock()),
                                migration.oldest_reader,
                            )
                except asyncpg.PostgresError as error:
                    if is_unavailable(error):
                        raise
                    raise StorageError(
                        f"migration {migration.version} ({migration.name!r}) failed on {target}:"
                        f" {_describe(error)}; the database was left at the previous version"
                    ) from error
                if not done:
                    log.info(
                        "database %s: applied migration %d (%s)",
                        target,
                        migration.version,
                        migration.name,
                    )
    except DRIVER_ERRORS as error:
        converted = classify(error, target)
        if converted is error:
            raise
        raise converted from error


async def _check_version(
    connection: _Pooled,
    target: str,
    migrations: tuple[Migration, ...],
) -> set[int]:
    """The versions already applied, refusing a schema this code must not touch."""
    schema = await connection.fetchval("SELECT current_schema()")
    if schema is None:
        raise DatabaseUnusable(
            target, "its search_path names no schema that exists; create the schema first"
        )
    tables = {
        row[0]
        for row in await connection.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", schema
        )
    }
    if not tables:
        return set()
    if "schema_migrations" not in tables:
        raise DatabaseUnusable(
            target,
            f"its schema {schema!r} holds tables that are not this bot's (there is no"
            " schema_migrations table); use an empty database or schema",
        )
    columns = {
        row[0]
        for row in await connection.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = $1 AND table_name = 'schema_migrations'",
            schema,
        )
    }
    reader = OLDEST_READER_COLUMN if OLDEST_READER_COLUMN in columns else "NULL"
    try:
        recorded = [
            (int(row[0]), str(row[1]), None if row[2] is None else int(row[2]))
            for row in await connection.fetch(
                f"SELECT version, name, {reader} FROM schema_migrations ORDER BY version"
            )
        ]
    except asyncpg.UndefinedColumnError as error:
        raise DatabaseUnusable(
            target,
            f"its schema {schema!r} has a schema_migrations table of another application; use"
            " an empty database or schema",
        ) from error
    return check_history(target, recorded, migrations)
