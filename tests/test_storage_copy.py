"""``python -m bot.storage copy``: SQLite to PostgreSQL and back, every row, counts checked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from storage_helpers import ALICE, BOB, CAROL, new_game, open_storage, play_opening, random_moves

from bot.engine import Termination
from bot.storage import GameResult, PlayerPreferences, ServerSettings, Storage
from bot.storage.copy import NOT_COPIED, TABLES, CopyError, copy_database
from bot.storage.opening import open_database

ROOT = Path(__file__).resolve().parent.parent


async def fill(storage: Storage) -> None:
    """A little of everything the bot stores."""
    await storage.settings.save(ServerSettings(guild_id=1, rated_ai_games=True, game_threads=True))
    await storage.preferences.save(PlayerPreferences(ALICE.user_id or 0, "classic", True), "Alice")
    for channel in range(5):
        game = await new_game(storage, 100 + channel, defenders=CAROL if channel % 2 else BOB)
        await play_opening(storage, game)
        if channel < 3:
            await storage.games.finish(game.id, GameResult.ATTACKERS, Termination.KING_CAPTURED)
    active = await new_game(storage, 200, move_seconds=300)
    for ply, move in enumerate(random_moves("tablut", 6, seed=3)):
        await storage.games.append_move(active.id, ply, move)
    await storage.games.take_back(active.id, 6, 2)
    offer = await storage.challenges.create(
        guild_id=1, channel_id=300, challenger=ALICE, challenged=BOB, variant="brandubh"
    )
    await storage.challenges.accept(offer.id, BOB)
    await storage.challenges.create(
        guild_id=1, channel_id=301, challenger=CAROL, challenged=None, variant="tablut"
    )


async def dump(target: str | Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in key order, with the backend's types made plain."""
    db = await open_database(target)
    tables: dict[str, list[tuple[object, ...]]] = {}
    try:
        async with db.snapshot() as connection:
            for table, key in TABLES:
                rows = await connection.fetch(f"SELECT * FROM {table} ORDER BY {', '.join(key)}")
                tables[table] = [
                    tuple((column, row[column]) for column in sorted(row.keys())) for row in rows
                ]
    finally:
        await db.close()
    return tables


async def test_a_copy_to_postgresql_and_back_keeps_every_row(
    tmp_path: Path, schema_url: str
) -> None:
    original = tmp_path / "tafl.sqlite3"
    storage = await open_storage(original)
    await fill(storage)
    await storage.close()
    lines: list[str] = []
    report = await copy_database(original, schema_url, progress=lines.append)
    # 5 openings of 2 moves, 6 moves and a takeback; 3 rated games rate 2 players each.
    assert (report.counts["moves"], report.counts["rating_changes"]) == (17, 6)
    assert len(lines) == len(TABLES) and "postgresql://" in report.describe()
    assert await dump(schema_url) == await dump(original)
    back = tmp_path / "back.sqlite3"
    await copy_database(schema_url, back)
    assert await dump(back) == await dump(original)
    # The copy is a working database: new rows get new ids, active games replay.
    copied = await Storage.open(schema_url)
    try:
        newest = await new_game(copied, 999)
        assert newest.id == report.counts["games"] + 1  # ids 1..7 were copied
        report_load = await copied.load_active_games()
        assert not report_load.unreplayable
        assert {loaded.record.channel_id for loaded in report_load.games} >= {103, 104, 200}
    finally:
        await copied.close()


async def test_a_target_that_holds_anything_is_refused_untouched(
    tmp_path: Path, schema_url: str
) -> None:
    source = tmp_path / "tafl.sqlite3"
    storage = await open_storage(source)
    await fill(storage)
    await storage.close()
    target = await open_storage(schema_url)
    await new_game(target, 5)
    await target.close()
    before = await dump(schema_url)
    with pytest.raises(CopyError, match="not empty"):
        await copy_database(source, schema_url)
    assert await dump(schema_url) == before
    with pytest.raises(CopyError, match="same database"):
        await copy_database(source, source)


async def test_the_copy_knows_every_table_of_the_schema(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "tafl.sqlite3")
    try:
        async with db.read() as connection:
            rows = await connection.fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
    finally:
        await db.close()
    tables = {row[0] for row in rows} - {"schema_migrations", *NOT_COPIED}
    assert tables == {table for table, _ in TABLES}


def test_the_command_prints_a_summary_or_one_line_why_not(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "bot.storage", "copy"]
    missing = subprocess.run(
        [*command, str(tmp_path / "a.sqlite3"), str(tmp_path / "a.sqlite3")],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert missing.returncode == 1
    assert missing.stderr.strip() == (
        "copy refused: the source and the target are the same database"
    )
    absent = subprocess.run(
        [*command, str(tmp_path / "typo.sqlite3"), str(tmp_path / "b.sqlite3")],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert absent.returncode == 1 and "there is no database file" in absent.stderr
    assert not (tmp_path / "typo.sqlite3").exists() and not (tmp_path / "b.sqlite3").exists()
    (tmp_path / "a.sqlite3").touch()  # an empty file is an empty database
    done = subprocess.run(
        [*command, str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("copied 0 players, 0 guild_settings")
