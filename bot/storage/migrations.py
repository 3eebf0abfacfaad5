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

Rolling upgrades: migrations are expand-then-contract. A migration that only adds (a table, a
nullable column, an index) leaves the schema readable by the release before it, so while a newer
release migrates, older processes keep serving and an older one that restarts runs on the newer
schema. A migration that takes something away that an older release still uses (or changes the
way processes share work) says so in its header with ``-- oldest reader: N``: releases that know
fewer than N migrations must refuse a database with it applied. The database records each
migration's oldest reader, so a release judges a newer schema it has never seen.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .errors import MigrationMismatchError, SchemaTooNewError

log = logging.getLogger(__name__)

EXPAND_CONTRACT_SINCE = 8
"""The first migration written under the expand-then-contract rule. Those before it shipped with
releases that refused any newer schema, so each is its own oldest reader."""


@dataclass(frozen=True)
class Migration:
    """One step of the schema's history."""

    version: int
    name: str
    sqlite: str
    postgres: str
    oldest_reader: int = 0
    """The fewest migrations a release may know and still run on a database with this one
    applied (0: this migration's own version)."""

    def __post_init__(self) -> None:
        if self.oldest_reader == 0:
            object.__setattr__(self, "oldest_reader", self.version)
        if not 1 <= self.oldest_reader <= self.version:
            raise ValueError(
                f"migration {self.version}: its oldest reader must be between 1 and"
                f" {self.version}, not {self.oldest_reader}"
            )

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
    version       INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    applied_at    INTEGER NOT NULL,
    oldest_reader INTEGER
)
"""
POSTGRES_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version       BIGINT PRIMARY KEY,
    name          TEXT NOT NULL,
    applied_at    BIGINT NOT NULL,
    oldest_reader BIGINT
)
"""
OLDEST_READER_COLUMN = "oldest_reader"
"""The column of ``schema_migrations`` added with rolling upgrades (a database made before has
it added, empty for the migrations it had: each of those is its own oldest reader)."""

SCHEMA = "schema"
"""The package folder of the migrations: ``schema/<backend>/NNNN_<slug>.sql``, one file per
migration and backend, each starting with a ``-- <name>`` line (the name the database records);
a ``-- oldest reader: N`` line among the comments that open it marks a contracting migration."""
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
    migrations: list[Migration] = []
    for version in sorted(scripts):
        found = scripts[version]
        if set(found) != set(BACKENDS):
            raise ValueError(f"migration {version} needs a script for each of {BACKENDS}")
        (name, sqlite), (other, postgres) = found["sqlite"], found["postgres"]
        if name != other:
            raise ValueError(f"migration {version} is named {name!r} and {other!r}")
        readers = {declared_oldest_reader(sqlite), declared_oldest_reader(postgres)}
        if len(readers) != 1:
            raise ValueError(f"migration {version} declares two oldest readers: {readers}")
        declared = readers.pop()
        if declared is not None:
            oldest = declared
        elif version < EXPAND_CONTRACT_SINCE or not migrations:
            oldest = version
        else:  # expanding: whoever could read the schema before still can
            oldest = migrations[-1].oldest_reader
        migrations.append(Migration(version, name, sqlite, postgres, oldest))
    result = tuple(migrations)
    check_sequence(result)
    return result


_FILE = re.compile(r"(?P<number>\d{4})_[a-z0-9_]+\.sql")
_OLDEST_READER = re.compile(r"--\s*oldest reader:\s*(\d+)\s*")


def declared_oldest_reader(script: str) -> int | None:
    """The ``-- oldest reader: N`` a script declares among its opening comments, if any."""
    for line in script.splitlines():
        if not line.startswith("--"):
            break
        match = _OLDEST_READER.fullmatch(line.strip())
        if match:
            return int(match.group(1))
    return None


def check_sequence(migrations: tuple[Migration, ...]) -> None:
    """Refuse a migration list with gaps or repeats (a programming error, caught at start-up)."""
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.version} is out of sequence (expected {expected})"
            )


def check_history(
    target: str | Path,
    recorded: list[tuple[int, str, int | None]],
    migrations: tuple[Migration, ...],
    *,
    newest: int = 0,
) -> set[int]:
    """The versions a database has applied, from its ``(version, name, oldest_reader)`` rows,
    refusing one this code must not touch: a newer schema whose migrations this release cannot
    read (``newest`` adds a version recorded elsewhere, SQLite's ``user_version``), or a history
    that names its migrations differently.

    A newer schema whose every migration this release may read is accepted: the release runs
    on it as it is (a newer release migrated it during a rolling upgrade).
    """
    known = len(migrations)
    newest = max([newest, *(version for version, _, _ in recorded)])
    if newest > known:
        readers = [reader or version for version, _, reader in recorded]
        if newest not in {version for version, _, _ in recorded}:
            # Known only from SQLite's user_version, with no row to say who may read it.
            readers.append(newest)
        oldest_reader = max(readers)
        if oldest_reader > known:
            raise SchemaTooNewError(
                target,
                f"its schema is version {newest}, from a newer bot, which bots that know fewer"
                f" than {oldest_reader} migrations cannot run on; this one knows only up to"
                f" {known} (upgrade the bot, or restore an older backup)",
            )
        log.info(
            "database %s: its schema is version %d, newer than this release's %d; releases"
            " that know %d migrations or more run on it, so this one does, without migrating",
            target, newest, known, oldest_reader,
        )  # fmt: skip
    for version, name, _ in recorded:
        if version > known:
            continue
        if migrations[version - 1].name != name:
            raise MigrationMismatchError(
                target,
                f"its migration {version} is {name!r} but this code's migration {version} is "
                f"{migrations[version - 1].name!r}",
            )
    return {version for version, _, _ in recorded}


MIGRATIONS = load_migrations()
"""The schema's history, read at import."""
LATEST_VERSION = MIGRATIONS[-1].version
