"""The tests' own PostgreSQL server: started on loopback, reachable, and gone afterwards."""

from __future__ import annotations

import asyncpg
import pg_server
import pytest


async def test_the_session_database_is_a_real_postgresql(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        version = await connection.fetchval("SHOW server_version_num")
        assert int(version) >= 150000
        await connection.execute("CREATE TEMPORARY TABLE probe (n integer PRIMARY KEY)")
        await connection.executemany("INSERT INTO probe VALUES ($1)", [(1,), (2,)])
        assert await connection.fetchval("SELECT sum(n) FROM probe") == 3
        with pytest.raises(asyncpg.UniqueViolationError):
            await connection.execute("INSERT INTO probe VALUES ($1)", 1)
    finally:
        await connection.close()


def test_a_throwaway_server_listens_on_loopback_and_is_removed() -> None:
    if pg_server.find_binaries() is None:
        pytest.skip("PostgreSQL is not installed")
    server = pg_server.start()
    try:
        assert server.url.startswith("postgresql://tafl@127.0.0.1:")
        assert (server.folder / "data" / "postmaster.pid").exists()
    finally:
        server.stop()
    assert not server.folder.exists()
