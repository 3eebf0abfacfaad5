"""Keeping a set of processes running: start each, restart one that dies (after a pause that
doubles while it keeps dying), and stop them all in order on SIGTERM or SIGINT.

A process that exits with status 2 refused to run (a configuration error, a database schema it
cannot read): restarting it would only repeat the refusal, so it is left stopped, with its reason
in the log above, while the others keep serving. Once every process has refused, the set stops
with status 2. The processes write to the supervisor's own stdout and
stderr; the supervisor logs when one exits, under the name it was given.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

log = logging.getLogger("bot.cluster")

DEFAULT_GRACE = 45.0
"""Seconds the processes get to stop after SIGTERM before they are killed: a bot process's
slowest clean stop (interactions finishing, the AI workers, the leases given back on a fresh
connection, the pool closing) with room to spare."""
CONFIG_ERROR = 2
"""The exit status of a process that refused its configuration (``python -m bot`` uses it)."""


@dataclass(frozen=True)
class Backoff:
    """How long to wait before restarting a process that exited."""

    first: float = 1.0
    longest: float = 60.0
    healthy_after: float = 60.0
    """A process that ran this long before it exited starts again from :attr:`first`."""

    def pause(self, previous: float | None, ran_for: float) -> float:
        """The pause after a run of ``ran_for`` seconds; ``previous`` is the last pause of this
        process (``None`` before its first restart)."""
        if previous is None or ran_for >= self.healthy_after:
            return self.first
        return min(previous * 2, self.longest)


@dataclass(frozen=True)
class Child:
    """A process to keep running."""

    name: str
    """How the logs call it, e.g. ``"process 2 (shards 4-7)"``."""
    command: Sequence[str]
    env: Mapping[str, str] | None = None
    """Its whole environment (``None``: the supervisor's own)."""


@dataclass(frozen=True)
class Exit:
    """One exit of a child, as the supervisor saw it."""

    child: int
    """Its position in the supervisor's list."""
    status: int
    """Its exit status (negative: killed by that signal, as in :mod:`asyncio.subprocess`)."""
    ran_for: float
    restart_in: float | None
    """The pause before it was started again, or ``None`` if it was not."""


class Supervisor:
    """Runs :class:`Child` processes until :meth:`stop` (or SIGTERM/SIGINT, see :meth:`run`)."""

    def __init__(
        self,
        children: Sequence[Child],
        *,
        backoff: Backoff = Backoff(),
        grace: float = DEFAULT_GRACE,
        on_exit: Callable[[Exit], None] | None = None,
    ) -> None:
        """``on_exit`` is told of every exit as it happens (after it is logged)."""
        if not children:
            raise ValueError("a supervisor needs at least one process to run")
        self.children = tuple(children)
        self.backoff = backoff
        self.grace = grace
        """Seconds the processes get to stop after SIGTERM before they are killed."""
        self.exits: list[Exit] = []
        """Every exit so far, oldest first."""
        self._on_exit = on_exit
        self._running: dict[int, asyncio.subprocess.Process] = {}
        self._refused: set[int] = set()
        self._stopping = asyncio.Event()
        self._status = 0

    def stop(self, status: int = 0) -> None:
        """Begin stopping every process; :meth:`run` then returns ``status`` (the first one
        given, so that an error is not overwritten by the stop it causes)."""
        if not self._stopping.is_set():
            self._status = status
            self._stopping.set()

    async def run(self, *, handle_signals: bool = True) -> int:
        """Start every process, keep them running, and return once all have stopped: 0 after
        a stop, :data:`CONFIG_ERROR` when every process refused to run, 1 when a process could
        not be started at all."""
        loop = asyncio.get_running_loop()
        signals = (signal.SIGTERM, signal.SIGINT) if handle_signals else ()
        for signum in signals:
            loop.add_signal_handler(signum, self._on_signal, signum)
        keepers = [
            asyncio.create_task(self._keep(index), name=f"supervise-{index}")
            for index in range(len(self.children))
        ]
        for keeper in keepers:
            keeper.add_done_callback(self._on_keeper_done)
        try:
            await self._stopping.wait()
            await self._shut_down(keepers)
        finally:
            for signum in signals:
                loop.remove_signal_handler(signum)
            # Only when run() itself was cancelled: no process may outlive its supervision.
            for keeper in keepers:
                keeper.cancel()
            for process in self._running.values():
                _signal(process, signal.SIGKILL)
        return self._status

    def _on_signal(self, signum: int) -> None:
        if self._stopping.is_set():
            log.info("%s: already stopping", signal.Signals(signum).name)
            return
        log.info("%s: stopping every process", signal.Signals(signum).name)
        self.stop()

    def _on_keeper_done(self, keeper: asyncio.Task[None]) -> None:
        # A keeper returns only once stopping; anything else is a bug that must not leave the
        # other processes running unsupervised.
        if not keeper.cancelled() and keeper.exception() is not None:
            log.critical("supervising failed", exc_info=keeper.exception())
            self.stop(1)

    async def _keep(self, index: int) -> None:
        """Run child ``index`` until stopping, restarting it after each exit."""
        child = self.children[index]
        pause: float | None = None
        while not self._stopping.is_set():
            started = time.monotonic()
            try:
                process = await asyncio.create_subprocess_exec(
                    *child.command,
                    env=child.env,
                    stdin=asyncio.subprocess.DEVNULL,
                    # Its own process group: a terminal's Ctrl+C reaches only the supervisor,
                    # which then stops every process once, in order.
                    process_group=0,
                    preexec_fn=_die_with(os.getpid()),
                )
            except OSError as error:
                log.critical("%s could not be started: %s", child.name, error)
                self.stop(1)
                return
            self._running[index] = process
            if self._stopping.is_set():  # stop() came while it was starting
                _signal(process, signal.SIGTERM)
            status = await process.wait()
            del self._running[index]
            ran_for = time.monotonic() - started
            if self._stopping.is_set():
                level = logging.INFO if status == 0 else logging.WARNING
                log.log(level, "%s stopped with exit status %d", child.name, status)
                self._record(Exit(index, status, ran_for, None))
                return
            if status == CONFIG_ERROR:
                self._refused.add(index)
                others = len(self.children) - len(self._refused)
                log.error(
                    "%s refused to run (exit status %d; its reason is above): it is not"
                    " restarted%s",
                    child.name,
                    status,
                    f"; {others} other process(es) keep serving" if others else "",
                )
                self._record(Exit(index, status, ran_for, None))
                if not others:
                    self.stop(CONFIG_ERROR)
                return
            pause = self.backoff.pause(pause, ran_for)
            log.warning(
                "%s exited with code %d%s after %.0f s; restarting in %g s",
                child.name,
                status,
                _signal_name(status),
                ran_for,
                pause,
            )
            self._record(Exit(index, status, ran_for, pause))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), pause)

    def _record(self, ended: Exit) -> None:
        self.exits.append(ended)
        if self._on_exit is not None:
            self._on_exit(ended)

    async def _shut_down(self, keepers: list[asyncio.Task[None]]) -> None:
        """SIGTERM to every process, SIGKILL to those still running after :attr:`grace`."""
        for process in self._running.values():
            _signal(process, signal.SIGTERM)
        _, late = await asyncio.wait(keepers, timeout=self.grace)
        if late:
            for index, process in self._running.items():
                log.warning(
                    "%s did not stop within %g s of SIGTERM: killing it",
                    self.children[index].name,
                    self.grace,
                )
                _signal(process, signal.SIGKILL)
            await asyncio.wait(late)


def _signal(process: asyncio.subprocess.Process, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it has just exited by itself
        process.send_signal(signum)


def _signal_name(status: int) -> str:
    """`` (SIGKILL)`` for a status of -9; empty for a normal exit."""
    if status >= 0:
        return ""
    try:
        return f" ({signal.Signals(-status).name})"
    except ValueError:
        return ""


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: a signal the kernel sends a process when its parent dies."""


def _die_with(supervisor: int) -> Callable[[], None] | None:
    """Run in each child between fork and exec: on Linux, ask for SIGTERM when the supervisor
    dies, even by SIGKILL. Without it a killed supervisor would leave its bot processes running,
    and a restarted cluster would then answer every shard twice."""
    if not sys.platform.startswith("linux"):
        return None

    def arrange() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != supervisor:  # it died before the request was made
            os.kill(os.getpid(), signal.SIGTERM)

    return arrange
