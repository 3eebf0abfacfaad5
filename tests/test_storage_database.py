"""Opening the database: migrations, settings, and files the bot must refuse without touching."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from storage_helpers import ALICE, BOB, new_game, open_storage

from bot.storage import (
    LATEST_VERSION,
    DatabaseCorruptError,
    DatabaseUnusable,
    MigrationMismatchError,
    NotADatabaseError,
    SchemaTooNewError,
    Storage,
    StorageError,
)
from bot.storage.migrations import MIGRATIONS, Migration, load_migrations
from bot.storage.sqlite import SqliteDatabase as Database

ADD_COLOUR = "ALTER TABLE games ADD COLUMN colour TEXT NOT NULL DEFAULT 'plain';"
EXTRA = Migration(LATEST_VERSION + 1, "test: a column added later", ADD_COLOUR, ADD_COLOUR)
BROKEN = "CREATE TABLE t (x INTEGER);\nSELECT * FROM nowhere;"
FAILING = Migration(LATEST_VERSION + 1, "test: broken", BROKEN, BROKEN)


def list_folder(path: Path) -> list[Path]:
    """The files in a folder (no -wal or -journal file may appear beside a refused file)."""
    return list(path.iterdir())


def schema(path: Path) -> list[tuple[str, str, str]]:
    """The schema objects of a database file, for comparing two databases."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        ).fetchall()
    connection.close()
    return [(kind, name, " ".join((sql or "").split())) for kind, name, sql in rows]


async def test_a_new_database_is_created_with_its_folder_and_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "folder" / "tafl.sqlite3"
    storage = await open_storage(path)
    try:
        assert await storage.db.schema_version() == LATEST_VERSION
        names = ("journal_mode", "foreign_keys", "busy_timeout", "synchronous", "user_version")
        async with storage.db.read() as connection:
            pragmas = {
                name: next(iter(await connection.fetch(f"PRAGMA {name}")))[0] for name in names
            }
    finally:
        await storage.close()
    assert pragmas == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "busy_timeout": 5000,
        "synchronous": 2,  # FULL: an announced move survives a power cut
        "user_version": LATEST_VERSION,
    }


async def test_reopening_applies_nothing_twice_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "tafl.sqlite3"
    storage = await open_storage(path)
    game = await new_game(storage)
    await storage.games.append_move(game.id, 0, "d1-d3")
    await storage.close()
    before = schema(path)
    for _ in range(2):
        storage = await open_storage(path)
        assert await storage.games.moves(game.id) == ["d1-d3"]
        await storage.close()
    assert schema(path) == before
    with sqlite3.connect(path) as connection:
        recorded = connection.execute("SELECT version, name FROM schema_migrations").fetchall()
    connection.close()
    assert recorded == [(m.version, m.name) for m in MIGRATIONS]


async def test_the_durability_reported_is_the_bots_own_connections(tmp_path: Path) -> None:
    # synchronous is set per connection, so only the bot's own connection can say it.
    for level in ("FULL", "NORMAL"):
        database = await Database.open(tmp_path / f"{level}.sqlite3", synchronous=level)
        try:
            reported = await database.durability()
        finally:
            await database.close()
        assert reported == f"SQLite journal_mode=wal, synchronous={level}"


@pytest.mark.parametrize("version", range(LATEST_VERSION))
async def test_every_earlier_version_upgrades_to_the_same_schema_as_a_new_database(
    tmp_path: Path, version: int
) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    old = tmp_path / "old.sqlite3"
    await (await Database.open(fresh)).close()
    await (await Database.open(old, migrations=MIGRATIONS[:version])).close()
    storage = await open_storage(old)
    assert await storage.db.schema_version() == LATEST_VERSION
    await storage.close()
    assert schema(old) == schema(fresh)


async def test_a_later_migration_upgrades_a_database_in_use_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tafl.sqlite3"
    storage = await open_storage(path)
    game = await new_game(storage)
    await storage.games.append_move(game.id, 0, "d1-d3")
    await storage.close()

    db = await Database.open(path, migrations=(*MIGRATIONS, EXTRA))
    assert await db.schema_version() == EXTRA.version
    async with db.read() as connection:
        rows = list(await connection.fetch("SELECT id, colour FROM games"))
    await db.close()
    assert [tuple(row) for row in rows] == [(game.id, "plain")]


async def test_a_failing_migration_leaves_the_database_at_the_previous_version(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tafl.sqlite3"
    await (await open_storage(path)).close()
    with pytest.raises(StorageError, match=rf"migration {FAILING.version} .* failed"):
        await Database.open(path, migrations=(*MIGRATIONS, FAILING))
    storage = await open_storage(path)
    assert await storage.db.schema_version() == LATEST_VERSION
    async with storage.db.read() as connection:
        tables = [
            row[0]
            for row in await connection.fetch("SELECT name FROM sqlite_master WHERE name = 't'")
        ]
    await storage.close()
    assert tables == []


async def test_a_database_from_a_newer_bot_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "tafl.sqlite3"
    await (await Database.open(path, migrations=(*MIGRATIONS, EXTRA))).close()
    before = path.read_bytes()
    with pytest.raises(
        SchemaTooNewError,
        match=rf"version {EXTRA.version}, from a newer bot.* only up to {LATEST_VERSION}",
    ) as raised:
        await Storage.open(path)
    assert str(path) in str(raised.value)
    assert path.read_bytes() == before


ADD_NOTE = "ALTER TABLE games ADD COLUMN note TEXT;"
EXPANDING = Migration(
    LATEST_VERSION + 1, "test: a column only added", ADD_NOTE, ADD_NOTE, LATEST_VERSION
)


async def test_a_newer_schema_this_release_can_read_is_run_on_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A rolling upgrade: a newer release added a column (expand), and this older release,
    restarted meanwhile, runs on it without touching it."""
    path = tmp_path / "tafl.sqlite3"
    await (await Database.open(path, migrations=(*MIGRATIONS, EXPANDING))).close()
    caplog.set_level("INFO", "bot.storage.migrations")
    storage = await Storage.open(path)
    try:
        game = await new_game(storage)
        await storage.games.append_move(game.id, 0, "d1-d3")
        assert await storage.db.schema_version() == EXPANDING.version
    finally:
        await storage.close()
    assert (
        f"its schema is version {EXPANDING.version}, newer than this release's"
        f" {LATEST_VERSION}; releases that know {LATEST_VERSION} migrations or more run on it,"
        " so this one does, without migrating"
    ) in caplog.text
    # Then a contracting migration on top: every release older than it must refuse.
    contracting = Migration(EXPANDING.version + 1, "test: contract", "SELECT 1;", "SELECT 1;")
    await (await Database.open(path, migrations=(*MIGRATIONS, EXPANDING, contracting))).close()
    with pytest.raises(SchemaTooNewError, match=f"fewer than {contracting.version} migrations"):
        await Storage.open(path)


def test_expanding_migrations_only_add() -> None:
    """A migration that older releases may read (its oldest reader is before it) must take
    nothing away that they use: no dropping, renaming or retyping, and no new column they would
    have to fill."""
    forbidden = re.compile(
        r"\bDROP\b|\bRENAME\b|ALTER\s+COLUMN|ADD\s+COLUMN\s+\w+\s+[^,;]*NOT\s+NULL(?![^,;]*DEFAULT)",
        re.IGNORECASE,
    )
    for migration in MIGRATIONS:
        if migration.oldest_reader == migration.version:
            continue
        for script in (migration.sqlite, migration.postgres):
            code = "\n".join(line.split("--")[0] for line in script.splitlines())
            assert not forbidden.search(code), (migration.version, forbidden.search(code))
    assert MIGRATIONS[7].oldest_reader == 8, "leases replaced advisory locks: no older reader"
    assert EXPANDING.oldest_reader == LATEST_VERSION


async def test_a_migration_history_that_differs_from_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tafl.sqlite3"
    renamed = Migration(1, "something else", MIGRATIONS[0].sqlite, MIGRATIONS[0].postgres)
    await (await Database.open(path, migrations=(renamed,))).close()
    with pytest.raises(MigrationMismatchError, match="something else"):
        await Storage.open(path)


@pytest.mark.parametrize(
    "content",
    [
        b"this is a text file, not a database\n" * 10,
        b"\x00" * 4096,
        b"SQLite format 2\x00" + b"x" * 100,
    ],
)
async def test_a_file_that_is_not_a_database_is_refused_untouched(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "tafl.sqlite3"
    path.write_bytes(content)
    with pytest.raises(NotADatabaseError) as raised:
        await Storage.open(path)
    assert str(path) in str(raised.value)
    assert "not an SQLite database" in str(raised.value)
    assert path.read_bytes() == content
    assert sorted(p.name for p in list_folder(tmp_path)) == ["tafl.sqlite3"]


async def test_a_damaged_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "tafl.sqlite3"
    storage = await open_storage(path)
    for channel in range(50):
        await new_game(storage, channel)
    await storage.close()
    data = bytearray(path.read_bytes())
    # Keep the header page, scribble over the rest: tables and indexes point at garbage.
    data[4096:] = b"\xa5" * (len(data) - 4096)
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseCorruptError) as raised:
        await Storage.open(path)
    assert str(path) in str(raised.value)
    assert path.read_bytes() == bytes(data)


async def test_someone_elses_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    connection.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseUnusable, match="not this bot's"):
        await Storage.open(path)
    assert path.read_bytes() == before


async def test_a_folder_in_place_of_the_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable, match="folder"):
        await Storage.open(tmp_path)


async def test_an_empty_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "tafl.sqlite3"
    path.touch()
    storage = await open_storage(path)
    assert await storage.db.schema_version() == LATEST_VERSION
    await storage.close()


async def test_the_move_log_cannot_be_rewritten_even_with_sql(tmp_path: Path) -> None:
    path = tmp_path / "tafl.sqlite3"
    storage = await open_storage(path)
    game = await new_game(storage, attackers=ALICE, defenders=BOB)
    await storage.games.append_move(game.id, 0, "d1-d3")
    await storage.close()
    with sqlite3.connect(path) as connection:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            connection.execute("UPDATE moves SET move = 'a1-a2'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            connection.execute("DELETE FROM moves")
    connection.close()


async def test_backup_writes_a_consistent_copy_while_open(tmp_path: Path) -> None:
    storage = await open_storage(tmp_path / "tafl.sqlite3")
    game = await new_game(storage)
    await storage.games.append_move(game.id, 0, "d1-d3")
    await storage.backup(tmp_path / "backups" / "copy.sqlite3")
    with pytest.raises(FileExistsError):
        await storage.backup(tmp_path / "backups" / "copy.sqlite3")
    await storage.close()
    copy = await open_storage(tmp_path / "backups" / "copy.sqlite3")
    assert await copy.games.moves(game.id) == ["d1-d3"]
    await copy.close()


def test_migrations_are_read_from_one_sql_file_per_backend(tmp_path: Path) -> None:
    create = "CREATE TABLE a (b INT);\n"
    for backend in ("sqlite", "postgres"):
        (tmp_path / backend).mkdir()
        (tmp_path / backend / "0001_first.sql").write_text(f"-- the first\n{create}")
    [first] = load_migrations(tmp_path)
    assert (first.version, first.name, first.sqlite) == (1, "the first", create)
    (tmp_path / "postgres" / "0002_second.sql").write_text("-- the second\nSELECT 1;\n")
    with pytest.raises(ValueError, match="migration 2 needs a script for each"):
        load_migrations(tmp_path)
    (tmp_path / "sqlite" / "0002_second.sql").write_text("-- another name\nSELECT 1;\n")
    with pytest.raises(ValueError, match="named 'another name' and 'the second'"):
        load_migrations(tmp_path)
    # The shipped ones: each number has both scripts, named alike, in sequence.
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))
