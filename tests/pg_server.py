"""A throwaway PostgreSQL server for the tests, or the one ``TAFL_TEST_POSTGRES_URL`` names.

:func:`start` runs Debian's PostgreSQL (``initdb`` and ``pg_ctl`` from
``/usr/lib/postgresql/<version>/bin``, or from ``PATH``): a new cluster in a temporary folder,
listening on a free loopback port only, with trust authentication for one user, and with
``fsync=off`` unless asked otherwise: the tests want speed, and a crash of the machine could only
lose a throwaway cluster. PostgreSQL refuses to run as root, so when the tests run as root the
cluster belongs to the ``postgres`` user. :meth:`PostgresServer.stop` stops it and removes the
folder.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

URL_VARIABLE = "TAFL_TEST_POSTGRES_URL"
USER = "tafl"
DATABASE = "tafl_test"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says what is missing."""


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest Debian version first)."""
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
        reverse=True,
    )
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


def free_port() -> int:
    """A loopback port nothing listens on (a moment ago)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """A running throwaway cluster."""

    folder: Path
    binaries: Path
    port: int
    owner: str | None
    """The system user the cluster runs as (``None``: the current one)."""
    fsync: bool = False
    """Whether the server forces its writes to disk (PostgreSQL's own default, ``fsync=on``)."""

    @property
    def url(self) -> str:
        """The connection URL of the test database."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(arg) for arg in args]
        if self.owner is not None:
            command = ["runuser", "-u", self.owner, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    def halt(self) -> None:
        """Stop the server at once, as a crash would (its data stays: :meth:`resume` restarts
        it on the same port)."""
        self._run(
            str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
            "-w", "stop",
        )  # fmt: skip

    def resume(self) -> None:
        """Start a halted server again."""
        done = self._run(*self._start_command())
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {(done.stderr or done.stdout).strip()}")

    def _start_command(self) -> tuple[str, ...]:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        if not self.fsync:
            options += " -c fsync=off"
        return (
            str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"),
            "-l", str(self.folder / "server.log"), "-w", "-t", "60", "-o", options, "start",
        )  # fmt: skip

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        try:
            self._run(
                str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                "-w", "stop",
            )  # fmt: skip
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def start(*, fsync: bool = False) -> PostgresServer:
    """Create and start a cluster with the database :data:`DATABASE`; raises
    :class:`PostgresUnavailable` when the binaries or the ``postgres`` user are missing.

    ``fsync=True`` leaves PostgreSQL's durable default on (every commit's WAL flushed to disk
    before the commit returns), for benchmarks that must compare like with like; the tests
    leave it off."""
    binaries = find_binaries()
    if binaries is None:
        raise PostgresUnavailable(
            "PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin or on "
            f"PATH); install Debian's postgresql or set {URL_VARIABLE}"
        )
    owner = None
    folder = Path(tempfile.mkdtemp(prefix="tafl-pg-"))
    if os.geteuid() == 0:
        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            raise PostgresUnavailable(
                "the tests run as root and there is no 'postgres' user to run PostgreSQL as"
            ) from None
        owner = "postgres"
        os.chown(folder, account.pw_uid, account.pw_gid)
    server = PostgresServer(folder, binaries, free_port(), owner, fsync)
    data = folder / "data"
    steps = [
        (str(binaries / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
         "--no-sync"),
        server._start_command(),
        (str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(server.port), "-U", USER,
         DATABASE),
    ]  # fmt: skip
    for step in steps:
        if not Path(step[0]).exists():
            step = (Path(step[0]).name, *step[1:])
        done = server._run(*step)
        if done.returncode != 0:
            log = folder / "server.log"
            detail = log.read_text()[-2000:] if log.exists() else ""
            server.stop()
            raise RuntimeError(
                f"{Path(step[0]).name} failed ({done.returncode}): "
                f"{(done.stderr or done.stdout).strip()}\n{detail}"
            )
    return server


async def fresh_schema(url: str) -> str:
    """Create an empty schema with a new name in ``url``'s database and return a URL whose
    connections use it (asyncpg passes ``search_path`` on as a server setting): each test gets a
    database of its own in milliseconds, without creating databases."""
    import uuid

    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"CREATE SCHEMA {name}")
    finally:
        await connection.close()
    return f"{url}{'&' if '?' in url else '?'}search_path={name}"


async def drop_schema(schema_url: str) -> None:
    """Remove a schema made by :func:`fresh_schema` and everything in it."""
    import asyncpg

    base, _, query = schema_url.partition("?")
    name = dict(part.split("=", 1) for part in query.split("&"))["search_path"]
    rest = "&".join(part for part in query.split("&") if not part.startswith("search_path="))
    connection = await asyncpg.connect(f"{base}?{rest}" if rest else base)
    try:
        await connection.execute(f"DROP SCHEMA {name} CASCADE")
    finally:
        await connection.close()
