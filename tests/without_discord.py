"""Runs a service's scenario in a fresh interpreter and checks that discord.py was never imported
(the services of the Discord layer must not need it; not a test module itself).

A test run imports discord.py for the end-to-end tests, so the check cannot be made in the
test process: the scenario, a coroutine function of a test module, runs in a child process.
"""

from __future__ import annotations

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


def run_without_discord(module: str, function: str, *args: str) -> None:
    """Run the coroutine function ``function(*args)`` of the test module ``module`` in a new
    interpreter; fail if it fails, or if any module of discord.py was imported meanwhile."""
    probe = _PROBE.format(tests=str(TESTS), module=module, function=function, args=args)
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=240
    )
    assert run.returncode == 0, run.stderr
    assert "discord modules: []" in run.stdout.splitlines(), run.stdout
