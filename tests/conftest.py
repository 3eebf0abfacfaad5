"""Fixtures shared by the storage tests (a fake clock and a fresh database on it), and a guard
that turns a thread left running by a test into a failure instead of a hang at exit."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pg_server
import pseudo_locale
import pytest
from storage_helpers import FakeClock, open_storage
from without_discord import inner_run

from bot.storage import Storage


@pytest.fixture
def clock() -> FakeClock:
    """A clock the test moves by hand."""
    return FakeClock()


BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
async def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where a new, empty database lives, once per backend: a file in the test's folder, or a
    fresh schema on the session's PostgreSQL server."""
    if request.param == "sqlite":
        yield str(tmp_path / "tafl.sqlite3")
        return
    url = await pg_server.fresh_schema(request.getfixturevalue("postgres_url"))
    try:
        yield url
    finally:
        await pg_server.drop_schema(url)


@pytest.fixture
async def schema_url(postgres_url: str) -> AsyncIterator[str]:
    """An empty schema of its own on the session's PostgreSQL server, dropped afterwards."""
    url = await pg_server.fresh_schema(postgres_url)
    try:
        yield url
    finally:
        await pg_server.drop_schema(url)


@pytest.fixture
async def storage(database_target: str, clock: FakeClock) -> AsyncIterator[Storage]:
    """A new database on each backend, on the fake clock."""
    storage = await open_storage(database_target, clock)
    yield storage
    await storage.close()


# -- a real PostgreSQL server ------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A real PostgreSQL database for the session: ``TAFL_TEST_POSTGRES_URL`` when set, else a
    throwaway server started here (``tests/pg_server.py``). Without PostgreSQL the tests that
    need it skip with one line, except in CI (``CI=true``), where they must run."""
    url = os.environ.get(pg_server.URL_VARIABLE)
    if url:
        yield url
        return
    try:
        server = pg_server.start()
    except pg_server.PostgresUnavailable as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test PostgreSQL: {missing}")
        pytest.skip(f"no PostgreSQL server: {missing}")
    try:
        yield server.url
    finally:
        server.stop()


# -- the end-to-end tests in the pseudo-locale --------------------------------------------------


PSEUDO_RECORD = "pseudo_locale_record"
"""Where a worker of a spread run (pytest-xdist) leaves its pseudo-locale record."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--pseudo-locale",
        action="store_true",
        help="run every end-to-end test's bot in the pseudo-locale and list the text that "
        "escaped translation (tests/pseudo_locale.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "catalogue_words: the test reads a shipped catalogue's words (not the pseudo-locale's)",
    )
    if config.getoption("--pseudo-locale"):
        # The bot processes and the stand-in read it from the environment.
        os.environ[pseudo_locale.ENV] = "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pseudo-locale run, the tests that read a shipped catalogue's words (a French
    server's posts) have nothing to read: every reader gets the pseudo-locale."""
    if not pseudo_locale.enabled():
        return
    skip = pytest.mark.skip(reason="reads a catalogue's words; the pseudo-locale replaces them")
    for item in items:
        if item.get_closest_marker("catalogue_words"):
            item.add_marker(skip)


# -- a stale fast core would test old code -----------------------------------------------------


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to run on a fast core older than its C sources (``python -m bot.native``): it
    would be ignored, and the tests that compare it with the Python would compare nothing."""
    from bot import native

    old = native.stale()
    if old:
        pytest.exit(
            f"the fast core is older than its C sources ({', '.join(old)}): run `pip install "
            "-e .` or `python -m bot.native build` (or `clean` to test the pure Python)",
            returncode=2,
        )


# -- a leaked thread fails the run instead of hanging it ---------------------------------------

_LEFT_RUNNING: list[threading.Thread] = []


def _left_running() -> list[threading.Thread]:
    """Non-daemon threads still alive besides the main thread, which would keep the interpreter
    from exiting (an unclosed aiosqlite connection, say). Thread pools are left out: their
    workers are joined at exit."""
    return [
        thread
        for thread in threading.enumerate()
        if thread is not threading.main_thread()
        and not thread.daemon
        and not thread.name.startswith(("ThreadPoolExecutor", "asyncio_"))
    ]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Give stray threads a moment, then fail the run if any is still alive. In a worker of a
    spread run, hand the pseudo-locale's record to the controller, which reports it."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None and pseudo_locale.enabled():
        output[PSEUDO_RECORD] = pseudo_locale.RECORD.dump()
    for thread in _left_running():
        thread.join(timeout=2)
    _LEFT_RUNNING[:] = _left_running()
    if _LEFT_RUNNING:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """A worker of a spread run is done: count its pseudo-locale record in the run's (each
    worker checks the tests it ran; the controller prints the whole)."""
    dumped = getattr(node, "workeroutput", {}).get(PSEUDO_RECORD)
    if dumped is not None:
        pseudo_locale.RECORD.add(dumped)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Name the threads left running (the name says which function each one runs); in a
    pseudo-locale run, list the text that escaped translation."""
    if pseudo_locale.enabled():
        for line in pseudo_locale.RECORD.summary():
            terminalreporter.write_line(line)
    if _LEFT_RUNNING:
        names = ", ".join(thread.name for thread in _LEFT_RUNNING)
        terminalreporter.write_line(
            f"FAILED: threads left running after the tests (a connection or server a test "
            f"did not close): {names}",
            red=True,
        )


def pytest_unconfigure(config: pytest.Config) -> None:
    """Exit now when threads were left running: waiting for them would hang CI until its
    time limit, after the report has already been printed."""
    if _LEFT_RUNNING:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(pytest.ExitCode.TESTS_FAILED))


@pytest.fixture(autouse=True)
def _never_discord() -> Iterator[None]:
    """In the fresh interpreter of ``without_discord.rerun_without_discord``: a service's test
    must not have imported discord.py."""
    yield
    if inner_run():
        assert "discord" not in sys.modules, "a service imported discord.py"
