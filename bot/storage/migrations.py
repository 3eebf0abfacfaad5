"""The database schema, as numbered migrations applied in order at start-up.

The migrations are SQL files (``schema/sqlite/`` and ``schema/postgres/``, one per migration and
backend); this module reads them and checks a database's history against them. Never change a
migration that has shipped; add a new one at the end.
Each migration runs in one transaction together with its row in ``schema_migrations`` (and, on
SQLite, ``PRAGMA user_version``), so it is applied completely or not at all, and applying them
again is a no-op.

Each migration is written twice, once per backend, under one number: the two scripts must make
the same tables, columns, constraints and indexes (the test suite compares them). PostgreSQL's
differences: 64-bit ``BIGINT`` for ids and times (Discord ids do not fit its 32-bit
``INTEGER``), identity columns for row ids, ``DOUBLE PRECISION`` for SQLite's ``REAL``, and a
trigger function for the append-only move log.

Time columns hold whole UTC epoch seconds. Yes/no columns hold 0 or 1 on both backends, so the
stores' SQL is the same for both.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .errors import MigrationMismatchError, SchemaTooNewError


@dataclass(frozen=True)
class Migration:
    """One step of the schema's history."""

    version: int
    name: str
    sqlite: str
    postgres: str

    def sqlite_statements(self) -> list[str]:
        """The SQLite script split into single statements (trigger bodies contain ``;``)."""
        statements: list[str] = []
        pending = ""
        for line in self.sqlite.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):
                statements.append(pending.strip())
                pending = ""
        if pending.strip():
            raise ValueError(f"migration {self.version} ends with an incomplete statement")
        return statements


MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
)
"""
POSTGRES_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    BIGINT PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at BIGINT NOT NULL
)
"""

SCHEMA = "schema"
"""The package folder of the migrations: ``schema/<backend>/NNNN_<slug>.sql``, one file per
migration and backend, each starting with a ``-- <name>`` line (the name the database records)."""
BACKENDS = ("sqlite", "postgres")


def load_migrations(folder: Traversable | None = None) -> tuple[Migration, ...]:
    """Every migration, in order, read from its two SQL files (one per backend). Refuses a
    number without both files, or two files of one number that name it differently."""
    root = folder if folder is not None else resources.files(__package__).joinpath(SCHEMA)
    scripts: dict[int, dict[str, tuple[str, str]]] = {}
    for backend in BACKENDS:
        for entry in root.joinpath(backend).iterdir():
            match = _FILE.fullmatch(entry.name)
            if match is None:
                continue
            header, _, body = entry.read_text(encoding="utf-8").partition("\n")
            if not header.startswith("-- "):
                raise ValueError(f"{backend}/{entry.name} must start with '-- <its name>'")
            scripts.setdefault(int(match["number"]), {})[backend] = (header[3:].strip(), body)
    migrations = []
    for version in sorted(scripts):
        found = scripts[version]
        if set(found) != set(BACKENDS):
            raise ValueError(f"migration {version} needs a script for each of {BACKENDS}")
        (name, sqlite), (other, postgres) = found["sqlite"], found["postgres"]
        if name != other:
            raise ValueError(f"migration {version} is named {name!r} and {other!r}")
        migrations.append(Migration(version, name, sqlite, postgres))
    result = tuple(migrations)
    check_sequence(result)
    return result


_FILE = re.compile(r"(?P<number>\d{4})_[a-z0-9_]+\.sql")




def check_sequence(migrations: tuple[Migration, ...]) -> None:
    """Refuse a migration list with gaps or repeats (a programming error, caught at start-up)."""
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.version} is out of sequence (expected {expected})"
            )


def check_history(
    target: str | Path,
    recorded: list[tuple[int, str]],
    migrations: tuple[Migration, ...],
    *,
    newest: int = 0,
) -> set[int]:
    """The versions a database has applied, from its ``(version, name)`` rows, refusing one
    this code must not touch: a newer schema (``newest`` adds a version recorded elsewhere,
    SQLite's ``user_version``), or a history that names its migrations differently."""
    known = len(migrations)
    newest = max([newest, *(version for version, _ in recorded)])
    if newest > known:
        raise SchemaTooNewError(
            target,
            f"its schema is version {newest} but this version of the bot knows only up to {known}"
            " (was it opened by a newer bot? upgrade the bot or restore an older backup)",
        )
    for version, name in recorded:
        if migrations[version - 1].name != name:
            raise MigrationMismatchError(
                target,
                f"its migration {version} is {name!r} but this code's migration {version} is "
                f"{migrations[version - 1].name!r}",
            )
    return {version for version, _ in recorded}


MIGRATIONS = load_migrations()
"""The schema's history, read at import."""
LATEST_VERSION = MIGRATIONS[-1].version
