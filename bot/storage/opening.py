"""Opening a database: the backend for the target (an SQLite file, or a PostgreSQL URL), its
schema brought up to date."""

from __future__ import annotations

import os
import time

from .database import DEFAULT_POSTGRES, Clock, Database, PostgresOptions, Synchronous
from .migrations import MIGRATIONS, Migration
from .target import is_postgres_url


async def open_database(
    target: str | os.PathLike[str],
    *,
    synchronous: Synchronous = "FULL",
    check_integrity: bool = True,
    clock: Clock = time.time,
    migrations: tuple[Migration, ...] = MIGRATIONS,
    postgres: PostgresOptions = DEFAULT_POSTGRES,
) -> Database:
    """Open ``target`` (a file path, or a ``postgresql://`` URL) and bring its schema up to date.

    Raises a :class:`~.errors.DatabaseUnusable` subclass when the bot must not start on it (left
    untouched), :class:`~.errors.DatabaseUnavailable` when a server cannot be reached.
    ``synchronous`` and ``check_integrity`` concern SQLite only, ``postgres`` PostgreSQL only.
    """
    if is_postgres_url(target):
        # Imported only here: a bot on SQLite never loads the PostgreSQL driver.
        from .postgres import PostgresDatabase

        return await PostgresDatabase.open(
            str(target), clock=clock, migrations=migrations, options=postgres
        )
    from .sqlite import SqliteDatabase

    return await SqliteDatabase.open(
        target,
        synchronous=synchronous,
        check_integrity=check_integrity,
        clock=clock,
        migrations=migrations,
    )
