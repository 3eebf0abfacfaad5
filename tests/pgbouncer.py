"""A throwaway PgBouncer in front of a test PostgreSQL server (``tests/pg_server.py``), as an
operator runs one: Debian's ``pgbouncer``, listening on a free loopback port only, trusting one
user, in transaction pooling mode unless asked otherwise. PgBouncer refuses to run as root, so
when the tests run as root it runs as the ``postgres`` user. :meth:`Bouncer.stop` stops it and
removes its folder.

Every database of the server is reachable through it by name. PgBouncer refuses asyncpg's
``search_path`` start-up setting, so the tests behind it use a database of their own
(:func:`fresh_database`) rather than a schema.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from pg_server import USER, PostgresServer, free_port

DEBIAN_BINARY = Path("/usr/sbin/pgbouncer")


class PgBouncerUnavailable(RuntimeError):
    """PgBouncer cannot be started here; the message says what is missing."""


@dataclass
class Bouncer:
    """A running PgBouncer."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    def url(self, database: str) -> str:
        """The URL of ``database`` through PgBouncer."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Stop PgBouncer and remove its folder."""
        try:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def find_binary() -> Path | None:
    """Debian's ``/usr/sbin/pgbouncer``, or one on ``PATH``."""
    if DEBIAN_BINARY.exists():
        return DEBIAN_BINARY
    found = shutil.which("pgbouncer")
    return Path(found) if found else None


def start(server: PostgresServer, *, pool_mode: str = "transaction") -> Bouncer:
    """Start PgBouncer in front of ``server``; :class:`PgBouncerUnavailable` when it is not
    installed (or there is no ``postgres`` user to run it as, as root)."""
    binary = find_binary()
    if binary is None:
        raise PgBouncerUnavailable(
            "PgBouncer is not installed (no /usr/sbin/pgbouncer or pgbouncer on PATH);"
            " install Debian's pgbouncer"
        )
    folder = Path(tempfile.mkdtemp(prefix="tafl-pgbouncer-"))
    command = [str(binary), str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:
        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            raise PgBouncerUnavailable(
                "the tests run as root and there is no 'postgres' user to run PgBouncer as"
            ) from None
        os.chown(folder, account.pw_uid, account.pw_gid)
        command = ["runuser", "-u", "postgres", "--", *command]
    port = free_port()
    (folder / "users.txt").write_text(f'"{USER}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        f"[databases]\n"
        f"* = host=127.0.0.1 port={server.port}\n"
        f"[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\n"
        f"listen_port = {port}\n"
        f"unix_socket_dir =\n"
        f"auth_type = trust\n"
        f"auth_file = {folder / 'users.txt'}\n"
        f"pool_mode = {pool_mode}\n"
        f"logfile = {folder / 'pgbouncer.log'}\n"
        f"pidfile = {folder / 'pgbouncer.pid'}\n"
    )
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    bouncer = Bouncer(folder, port, process)
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return bouncer
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            log = folder / "pgbouncer.log"
            detail = log.read_text()[-2000:] if log.exists() else ""
            bouncer.stop()
            raise RuntimeError(f"PgBouncer did not start (exit status {process.poll()}):\n{detail}")
        time.sleep(0.05)


async def fresh_database(server: PostgresServer) -> str:
    """Create an empty database with a new name on ``server``; its name."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(server.url)
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
    return name


async def drop_database(server: PostgresServer, name: str) -> None:
    """Remove a database made by :func:`fresh_database`, closing its connections."""
    import asyncpg

    connection = await asyncpg.connect(server.url)
    try:
        await connection.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await connection.close()


def direct_url(server: PostgresServer, database: str) -> str:
    """The URL of ``database`` on ``server`` itself, not through PgBouncer."""
    return f"postgresql://{USER}@127.0.0.1:{server.port}/{database}"
