"""The PostgreSQL backend on a real server: its schema, its migrations between processes, and a
server that cannot be reached at start or is lost mid-run."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from pathlib import Path

import asyncpg
import pg_server
import pytest
from storage_helpers import ALICE, BOB, new_game, open_storage, raw_execute

from bot.storage import (
    LATEST_VERSION,
    DatabaseBusy,
    DatabaseUnavailable,
    DatabaseUnusable,
    MigrationMismatchError,
    PoolStats,
    PostgresOptions,
    SchemaTooNewError,
    Storage,
    StorageError,
    redact,
)
from bot.storage.database import Connection
from bot.storage.migrations import MIGRATIONS, Migration
from bot.storage.postgres import PostgresDatabase, bind, classify, numbered

ADD_COLOUR = "ALTER TABLE games ADD COLUMN colour TEXT NOT NULL DEFAULT 'plain';"
EXTRA = Migration(LATEST_VERSION + 1, "test: a column added later", ADD_COLOUR, ADD_COLOUR)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://tafl:hunter2@db:5432/tafl?sslmode=require",
         "postgresql://tafl:***@db:5432/tafl?sslmode=require"),
        ("postgresql://u@h/db?password=hunter2&sslmode=require",
         "postgresql://u@h/db?password=***&sslmode=require"),
        ("postgresql://tafl:hun#ter2@h:5432/db", "postgresql://***@h:5432/db"),
        ("postgresql://tafl:hun?ter2@h/db", "postgresql://***@h/db"),
        ("postgresql://tafl:hunter2@h:99999/db", "postgresql://***@h:99999/db"),
        ("postgresql://tafl@127.0.0.1:5432/t?search_path=s1",
         "postgresql://tafl@127.0.0.1:5432/t?search_path=s1"),
        ("data/tafl.sqlite3", "data/tafl.sqlite3"),
    ],
)  # fmt: skip
def test_a_password_never_shows_in_a_database_name(url: str, shown: str) -> None:
    assert redact(url) == shown


def test_placeholders_become_numbered_and_literals_stay() -> None:
    assert numbered("SELECT ? , 'a?b' -- why?\n, ?") == ("SELECT $1 , 'a?b' -- why?\n, $2", 2)
    assert numbered("x = :a AND y = :b OR z = :a AND w = 'it''s :a' AND v::text")[0] == (
        "x = $1 AND y = $2 OR z = $1 AND w = 'it''s :a' AND v::text"
    )
    assert bind("x = :a AND y = :b", {"b": 2, "a": 1}) == ("x = $1 AND y = $2", [1, 2])
    with pytest.raises(TypeError):
        bind("x = ? AND y = ?", (1,))
    with pytest.raises(ValueError, match="mixes"):
        numbered("x = ? AND y = :b")


def test_a_refusal_with_a_detail_line_is_one_line() -> None:
    """PostgreSQL recovering from a crash refuses connections with a DETAIL, which asyncpg
    puts on a line of its own: the error, as logged and as /readyz gives it, is one line."""
    refusal = asyncpg.PostgresError.new(
        {
            "S": "FATAL",
            "C": "57P03",
            "M": "the database system is not yet accepting connections",
            "D": "Consistent recovery state has not been yet reached.",
        }
    )
    assert "\n" in str(refusal)  # as asyncpg words it
    converted = classify(refusal, "postgresql://tafl@db/tafl")
    assert isinstance(converted, DatabaseUnavailable)
    assert converted.problem == (
        "the database system is not yet accepting connections; DETAIL: Consistent recovery"
        " state has not been yet reached. (SQLSTATE 57P03)"
    )


async def _postgres_schema(url: str) -> dict[str, object]:
    connection = await asyncpg.connect(url)
    try:
        schema = await connection.fetchval("SELECT current_schema()")
        columns = await connection.fetch(
            "SELECT table_name, column_name, is_nullable FROM information_schema.columns"
            " WHERE table_schema = $1",
            schema,
        )
        indexes = await connection.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = $1", schema
        )
    finally:
        await connection.close()
    return {
        "columns": sorted(
            (row["table_name"], row["column_name"], row["is_nullable"] == "YES") for row in columns
        ),
        # Named indexes only: the ones behind keys and UNIQUE columns are named differently.
        "indexes": sorted(
            row["indexname"] for row in indexes if not row["indexname"].endswith(("_pkey", "_key"))
        ),
    }


def _sqlite_schema(path: Path) -> dict[str, object]:
    with sqlite3.connect(path) as connection:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        columns = [
            (table, row[1], not row[3] and not row[5])
            for table in tables
            for row in connection.execute(f"PRAGMA table_info({table})")
        ]
        indexes = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        ]
    connection.close()
    return {"columns": sorted(columns), "indexes": sorted(indexes)}


async def test_both_backends_make_the_same_tables_columns_and_indexes(
    schema_url: str, tmp_path: Path
) -> None:
    await (await open_storage(schema_url)).close()
    await (await open_storage(tmp_path / "tafl.sqlite3")).close()
    assert await _postgres_schema(schema_url) == _sqlite_schema(tmp_path / "tafl.sqlite3")


async def test_migrations_apply_once_even_when_processes_start_together(schema_url: str) -> None:
    # Four pools at once stand for four bot processes starting at the same moment.
    opened = await asyncio.gather(*(Storage.open(schema_url) for _ in range(4)))
    for storage in opened:
        await storage.close()
    storage = await Storage.open(schema_url, check_integrity=False)
    try:
        assert await storage.db.schema_version() == LATEST_VERSION
        async with storage.db.read() as connection:
            versions = [
                row[0] for row in await connection.fetch("SELECT version FROM schema_migrations")
            ]
        assert sorted(versions) == list(range(1, LATEST_VERSION + 1))
    finally:
        await storage.close()


async def test_a_later_migration_upgrades_and_a_newer_or_different_history_is_refused(
    schema_url: str,
) -> None:
    storage = await open_storage(schema_url)
    game = await new_game(storage)
    await storage.close()
    db = await PostgresDatabase.open(schema_url, migrations=(*MIGRATIONS, EXTRA))
    async with db.read() as connection:
        assert await connection.fetch_value(
            "SELECT colour FROM games WHERE id = ?", (game.id,)
        ) == ("plain")
    await db.close()
    with pytest.raises(SchemaTooNewError, match="newer bot"):
        await Storage.open(schema_url)
    renamed = Migration(1, "something else", MIGRATIONS[0].sqlite, MIGRATIONS[0].postgres)
    with pytest.raises(MigrationMismatchError):
        await PostgresDatabase.open(schema_url, migrations=(renamed, *MIGRATIONS[1:], EXTRA))


async def test_a_failing_migration_leaves_the_schema_at_the_previous_version(
    schema_url: str,
) -> None:
    broken = "CREATE TABLE t (x INTEGER);\nSELECT * FROM nowhere;"
    failing = Migration(LATEST_VERSION + 1, "test: broken", broken, broken)
    await (await open_storage(schema_url)).close()
    with pytest.raises(StorageError, match="left at the previous version"):
        await PostgresDatabase.open(schema_url, migrations=(*MIGRATIONS, failing))
    storage = await open_storage(schema_url)
    assert await storage.db.schema_version() == LATEST_VERSION
    await storage.close()


async def test_someone_elses_tables_are_refused_untouched(schema_url: str) -> None:
    await raw_execute(schema_url, "CREATE TABLE invoices (id integer PRIMARY KEY)")
    with pytest.raises(DatabaseUnusable, match="not this bot's"):
        await Storage.open(schema_url)


async def test_the_durability_reported_is_the_servers(schema_url: str) -> None:
    storage = await open_storage(schema_url)
    try:
        reported = await storage.db.durability()
    finally:
        await storage.close()
    connection = await asyncpg.connect(schema_url)
    try:
        fsync = await connection.fetchval("SHOW fsync")
        commit = await connection.fetchval("SHOW synchronous_commit")
    finally:
        await connection.close()
    assert reported == f"PostgreSQL fsync={fsync}, synchronous_commit={commit}"


async def test_the_move_log_is_append_only_on_postgresql_too(schema_url: str) -> None:
    storage = await open_storage(schema_url)
    game = await new_game(storage, attackers=ALICE, defenders=BOB)
    await storage.games.append_move(game.id, 0, "d1-d3")
    await storage.close()
    for sql in ("UPDATE moves SET move = 'a1-a2'", "DELETE FROM moves", "TRUNCATE moves"):
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await raw_execute(schema_url, sql)


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    url = f"postgresql://tafl:hunter2@127.0.0.1:{pg_server.free_port()}/tafl"
    with pytest.raises(DatabaseUnavailable) as raised:
        await Storage.open(url)
    message = str(raised.value)
    assert "\n" not in message and "hunter2" not in message and "***" in message
    assert message.startswith("the database postgresql://tafl:***@127.0.0.1:")


async def test_a_database_that_does_not_exist_is_unusable(postgres_url: str) -> None:
    url = postgres_url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(DatabaseUnusable, match="does not exist"):
        await Storage.open(url)


async def test_a_server_lost_mid_run_refuses_writes_then_recovers_with_nothing_half_written(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    try:
        server = pg_server.start()
    except pg_server.PostgresUnavailable as missing:
        pytest.skip(f"no PostgreSQL server: {missing}")
    try:
        storage = await Storage.open(server.url)
        try:
            game = await new_game(storage)
            await storage.games.append_move(game.id, 0, "d1-d3")
            caplog.set_level(logging.INFO)
            await asyncio.to_thread(server.halt)
            with pytest.raises(DatabaseUnavailable) as raised:
                await storage.games.append_move(game.id, 1, "e3-c3")
            assert "\n" not in str(raised.value)
            for _ in range(20):  # many players trying during the outage
                with pytest.raises(DatabaseUnavailable):
                    await storage.games.get(game.id)
            assert storage.db.outage.ongoing
            await asyncio.to_thread(server.resume)
            # The pool replaces its broken connections: the same call now works.
            await storage.games.append_move(game.id, 1, "e3-c3")
            assert not storage.db.outage.ongoing and storage.db.outage.count == 1
            assert await storage.games.moves(game.id) == ["d1-d3", "e3-c3"]
            assert (await storage.games.get(game.id)).ply == 2
        finally:
            await storage.close()
    finally:
        server.stop()

    # One line when the outage starts and one when it ends, not one per refused request.
    told = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(told) == 2, told
    assert told[0].startswith(f"the database {server.url} is unavailable: ")
    assert told[0].endswith("; requests that need it are refused until it answers again")
    assert told[1].startswith(f"the database {server.url} answers again after ")
    assert told[1].endswith(" s (21 request(s) refused meanwhile)")


async def test_one_crash_is_one_outage_however_the_requests_around_it_finish(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Requests run side by side, and their outcomes arrive out of order around a crash: one
    answered just before it ends (handing its connection back) after another has found the
    server gone, and one whose connection died with the crash fails after the server is back.
    Neither is news: the crash is told, and counted, once."""
    try:
        server = pg_server.start()
    except pg_server.PostgresUnavailable as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test PostgreSQL: {missing}")
        pytest.skip(f"no PostgreSQL server: {missing}")
    try:
        storage = await Storage.open(server.url)
        outage = storage.db.outage
        caplog.set_level(logging.WARNING, "bot.storage")
        try:
            async with storage.db.read() as late_failure:
                async with storage.db.read() as late_answer:
                    await late_answer.fetch_value("SELECT 1")
                    await late_failure.fetch_value("SELECT 1")
                    await asyncio.to_thread(server.halt)
                    with pytest.raises(DatabaseUnavailable):
                        await storage.db.ping()
                # Answered before the crash, finished after the failure above.
                assert outage.ongoing
                with pytest.raises(DatabaseUnavailable):
                    await storage.db.ping()
                await asyncio.to_thread(server.resume)
                await storage.db.ping()
                assert not outage.ongoing
                # Its connection died with the crash; the server has answered since.
                with pytest.raises(DatabaseUnavailable):
                    await late_failure.fetch_value("SELECT 1")
            assert not outage.ongoing
            assert outage.count == 1
        finally:
            await storage.close()
    finally:
        server.stop()
    told = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(told) == 2, told
    assert " is unavailable: " in told[0]
    assert told[1].endswith(" s (2 request(s) refused meanwhile)"), told


async def backend_pid(connection: Connection) -> int:
    return int(await connection.fetch_value("SELECT pg_backend_pid()"))


async def test_a_connection_dropped_mid_transaction_is_the_database_being_unavailable(
    schema_url: str,
) -> None:
    """A crash, a failover or an administrator ending a session, in the middle of a
    transaction: the reply is "unavailable" (nothing was written), never a bug, whether the
    next statement or the commit finds the connection gone."""
    storage = await open_storage(schema_url)
    try:
        game = await new_game(storage)
        for where in ("statement", "commit") * 10:  # the commit races the news of the drop
            with pytest.raises(DatabaseUnavailable):
                async with storage.db.transaction() as connection:
                    await connection.execute("UPDATE games SET ply = ply WHERE id = ?", (game.id,))
                    await raw_execute(
                        schema_url, f"SELECT pg_terminate_backend({await backend_pid(connection)})"
                    )
                    if where == "statement":
                        await connection.fetch("SELECT 1")
        # The pool has dropped the dead connections; the next request is served.
        assert (await storage.games.get(game.id)).ply == 0
    finally:
        await storage.close()


async def hold_only_connection(storage: Storage, release: asyncio.Event) -> asyncio.Task[None]:
    """Keep the pool's one connection busy until ``release`` is set."""
    holding = asyncio.Event()

    async def hold() -> None:
        async with storage.db.read():
            holding.set()
            await release.wait()

    task = asyncio.create_task(hold())
    await holding.wait()
    return task


async def test_a_busy_pool_waits_for_a_connection_then_says_busy_not_unavailable(
    schema_url: str,
) -> None:
    patient = await Storage.open(schema_url, postgres=PostgresOptions(pool_size=1, pool_wait=60))
    hasty = await Storage.open(schema_url, postgres=PostgresOptions(pool_size=1, pool_wait=0.1))
    try:
        game = await new_game(patient)
        release = asyncio.Event()
        holder = await hold_only_connection(patient, release)
        waiting = asyncio.create_task(patient.games.get(game.id))
        await asyncio.sleep(0)
        assert not waiting.done()
        release.set()  # the request waited for the connection, and is answered
        assert (await waiting).id == game.id
        await holder

        release = asyncio.Event()
        holder = await hold_only_connection(hasty, release)
        with pytest.raises(DatabaseBusy, match=r"all 1 connections stayed busy for 0\.1 s"):
            await hasty.games.get(game.id)
        assert not hasty.db.outage.ongoing  # busy is not an outage
        release.set()
        await holder
        assert hasty.db.pool_stats() == PoolStats(in_use=0, idle=1, limit=1)
    finally:
        await patient.close()
        await hasty.close()
