"""Runs a service's scenario in a fresh interpreter and checks that discord.py was never imported
(the services of the Discord layer must not need it; not a test module itself).

A test run imports discord.py for the end-to-end tests, so the check cannot be made in the
test process: the scenario, a coroutine function of a test module, runs in a child process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

_PROBE = """
import asyncio, importlib, sys
sys.path.insert(0, {tests!r})
module = importlib.import_module({module!r})
asyncio.run(getattr(module, {function!r})(*{args!r}))
loaded = sorted(name for name in sys.modules if name.split(".")[0] == "discord")
print("discord modules:", loaded)
"""


INNER = "TAFL_WITHOUT_DISCORD"
"""Set in the fresh interpreter of :func:`rerun_without_discord` (tests/conftest.py then checks,
after each test, that discord.py was never imported)."""


def inner_run() -> bool:
    """Whether this is the fresh interpreter of :func:`rerun_without_discord`."""
    return os.environ.get(INNER) == "1"


def rerun_without_discord(test_file: str) -> None:
    """Run every test of ``test_file`` but PostgreSQL's again, in a fresh interpreter that must
    never import discord.py (checked after each test there)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", test_file, "-q", "-p", "no:cacheprovider",
         "-k", "not postgresql"],
        cwd=ROOT, env={**os.environ, INNER: "1"}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout


def run_without_discord(module: str, function: str, *args: str) -> None:
    """Run the coroutine function ``function(*args)`` of the test module ``module`` in a new
    interpreter; fail if it fails, or if any module of discord.py was imported meanwhile."""
    probe = _PROBE.format(tests=str(TESTS), module=module, function=function, args=args)
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=240
    )
    assert run.returncode == 0, run.stderr
    assert "discord modules: []" in run.stdout.splitlines(), run.stdout
