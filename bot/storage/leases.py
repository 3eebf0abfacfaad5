"""Which bot process serves each shard: leases in the database, renewed by their holders.

Two processes must never answer the same servers (each would reply to every click, and post
every board twice). A process therefore serves its shards only while it holds their leases, rows
of ``shard_leases`` that say who holds each shard and until when, by the database server's clock
(the one clock processes on several machines share):

* It takes all of its shards at once before it connects to Discord, or none: a lease another
  process holds stops it until that lease is given back or runs out (a stray process started by
  mistake for a shard already served waits, and never connects).
* It renews them every few seconds (:data:`RENEW_FRACTION` of their length). It counts itself
  their holder only until its last successful renewal, timed from just *before* it was sent, plus
  the lease's length less a margin: by its own clock that moment always comes before the lease
  can run out in the database, so another process can take a shard only after its previous
  holder has stopped answering for it. A process that cannot renew (the database out of reach)
  stops answering at that moment, and answers again once a renewal succeeds, if the lease is
  still its own; if another process has taken it meanwhile, the shard is lost to it for good.
* It gives them back when it stops, so that its successor starts at once.

A process killed outright cannot give its leases back, so its successor would wait for them to
run out. It need not when it can know the holder is gone:

* on the same machine (the same boot, and the same process namespace, so the same process ids),
  the holder's process id no longer runs: a bot restarted by systemd after a crash starts at once;
* where the orchestrator guarantees that at most one process runs under a name at a time (a
  Kubernetes StatefulSet's pod, a cluster supervisor's child), the process runs under that name
  (``TAFL_INSTANCE``), and takes back at once a lease its own name held.

An SQLite file is served by one machine only; its leases keep a second process on that machine
from serving the same file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .database import Connection, Database
from .errors import DatabaseUnavailable, UniqueViolation
from .shards import Shards, format_ranges

log = logging.getLogger(__name__)

DEFAULT_LEASE_SECONDS = 30.0
"""How long a lease lasts unrenewed (``TAFL_SHARD_LEASE``): long enough for a database restart
to pass without a process giving up its shards, short enough that a killed process's shards are
served again within it."""
RENEW_FRACTION = 1 / 6
"""Leases are renewed this often, as a fraction of their length (every 5 s of 30)."""
MARGIN_FRACTION = 1 / 15
"""A holder stops answering this much before its lease could run out in the database (2 s of
30): room for its clock and the server's to run at slightly different rates."""
WAITING_LOG_EVERY = 60.0
"""Seconds between the log lines of a process waiting for its leases."""
TAKE_TURN = 0x7AF1_0002
"""The turn (PostgreSQL advisory lock key) that processes taking leases take one at a time."""


def host_key() -> str:
    """What two processes share exactly when each can see whether the other's process id runs:
    the machine's boot (Linux's boot id) and the process-id namespace (containers have their
    own). Empty where it cannot be told."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return ""
    return f"{boot}/{namespace}"


def process_runs(pid: int) -> bool:
    """Whether a process with this id runs here (any process: an id reused counts as running,
    which only makes a successor wait for the lease to run out)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class Holder:
    """A process, as the leases name it."""

    instance: str
    """The name it runs under: ``TAFL_INSTANCE``, or one of its own."""
    incarnation: str
    """This run of it: new at every start, so that a restarted process is told from the one
    before it."""
    named: bool = False
    """Whether ``instance`` was given (and is promised to no other running process)."""
    host: str = field(default_factory=host_key)
    pid: int = field(default_factory=os.getpid)

    @classmethod
    def new(cls, instance: str | None = None) -> Holder:
        """This process, under ``instance`` or a name of its own (the machine's and the
        process id)."""
        name = instance or f"{socket.gethostname()}:{os.getpid()}"
        return cls(name, secrets.token_hex(8), named=instance is not None)

    def succeeds(self, instance: str, host: str, pid: int) -> bool:
        """Whether the holder of a lease (``instance``, on ``host`` as process ``pid``) is known
        to be gone, this process being its successor: it had this process's given name, or it
        ran where this one does and runs no more."""
        if self.named and instance == self.instance:
            return True
        return bool(host) and host == self.host and pid != self.pid and not process_runs(pid)


@dataclass(frozen=True)
class Taken:
    """The leases are this process's until ``expires_at`` (the server's clock)."""

    expires_at: float
    reclaimed: tuple[tuple[int, str], ...]
    """The shards whose unexpired lease a process known to be gone held, and its name."""


@dataclass(frozen=True)
class Held:
    """Another process holds a lease this process needs."""

    reason: str
    """Who holds what, for the log."""
    retry_in: float
    """Seconds until it runs out, if its holder does not renew it (or until it is worth asking
    again)."""
    lease: bool = True
    """Whether ``retry_in`` is a lease's time left (not when the database was out of reach)."""


@dataclass(frozen=True)
class Lost:
    """A lease this process held belongs to another process now (or to no one)."""

    shard: int
    instance: str | None


class LeaseStore:
    """The ``shard_leases`` table: taking, renewing and giving back a process's leases."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def take(self, shards: Shards, holder: Holder, seconds: float) -> Taken | Held:
        """Take a lease on every shard of ``shards`` for ``seconds``, or on none of them."""
        ids = sorted(shards.ids)
        try:
            async with self.db.control() as connection:
                # One taker at a time: two processes must not both find a shard free and take
                # it, nor take shards of two different counts (whose servers overlap).
                await connection.take_turn(TAKE_TURN)
                now = await connection.server_time()
                other = await connection.fetch_one(
                    "SELECT shard_count, instance, expires_at FROM shard_leases"
                    " WHERE shard_count <> ? AND expires_at > ? AND instance <> ?"
                    " ORDER BY expires_at DESC",
                    (shards.count, now, holder.instance),
                )
                if other is not None:
                    return Held(
                        f"{other[1]} serves the bot's servers in {other[0]} shards, and this"
                        f" process is set for {shards.count} (TAFL_SHARD_COUNT): every process"
                        " of a bot must use the same count",
                        max(0.0, float(other[2]) - now),
                    )
                rows = await connection.fetch(
                    "SELECT shard_id, instance, expires_at, host, pid FROM shard_leases"
                    f" WHERE shard_count = ? AND shard_id IN ({_marks(ids)})"
                    f"{connection.for_update}",
                    (shards.count, *ids),
                )
                current = {int(row[0]): (str(row[1]), float(row[2])) for row in rows}
                reclaimed = []
                for row in sorted(rows, key=lambda row: int(row[0])):
                    shard, instance, left = int(row[0]), str(row[1]), float(row[2]) - now
                    if left <= 0:
                        continue
                    if not holder.succeeds(instance, str(row[3]), int(row[4])):
                        return Held(f"shard {shard} is served by {instance}", left)
                    reclaimed.append((shard, instance))
                expires_at = now + seconds
                await _write_leases(connection, shards.count, ids, current, holder, expires_at)
                # Leases of another shard count, run out: the bot was resharded.
                await connection.execute(
                    "DELETE FROM shard_leases WHERE shard_count <> ? AND expires_at <= ?",
                    (shards.count, now),
                )
        except UniqueViolation:
            # Another taker inserted a row first (PostgreSQL without the turn would get here).
            return Held("another process took a shard at the same moment", 0.5, lease=False)
        return Taken(expires_at, tuple(reclaimed))

    async def renew(self, shards: Shards, holder: Holder, seconds: float) -> float | Lost:
        """Extend this process's leases to ``seconds`` from now; their new end (the server's
        clock), or the first one that is no longer its own."""
        ids = sorted(shards.ids)
        async with self.db.control() as connection:
            now = await connection.server_time()
            renewed = await connection.execute(
                "UPDATE shard_leases SET expires_at = ?"
                f" WHERE shard_count = ? AND incarnation = ? AND shard_id IN ({_marks(ids)})",
                (now + seconds, shards.count, holder.incarnation, *ids),
            )
            if renewed == len(ids):
                return now + seconds
            rows = await connection.fetch(
                "SELECT shard_id, instance FROM shard_leases"
                f" WHERE shard_count = ? AND incarnation = ? AND shard_id IN ({_marks(ids)})",
                (shards.count, holder.incarnation, *ids),
            )
            mine = {int(row[0]) for row in rows}
            shard = min(set(ids) - mine)
            row = await connection.fetch_one(
                "SELECT instance FROM shard_leases WHERE shard_count = ? AND shard_id = ?",
                (shards.count, shard),
            )
        return Lost(shard, None if row is None else str(row[0]))

    async def give_back(self, holder: Holder) -> int:
        """Give back every lease of this process; how many there were."""
        async with self.db.control() as connection:
            return await connection.execute(
                "DELETE FROM shard_leases WHERE incarnation = ?", (holder.incarnation,)
            )

    async def holders(self) -> list[tuple[int, int, str, float]]:
        """Every lease: ``(shard_count, shard_id, instance, seconds left)`` (negative: run
        out), for status reports."""
        async with self.db.read() as connection:
            now = await connection.server_time()
            rows = await connection.fetch(
                "SELECT shard_count, shard_id, instance, expires_at FROM shard_leases"
                " ORDER BY shard_count, shard_id"
            )
        return [(int(r[0]), int(r[1]), str(r[2]), float(r[3]) - now) for r in rows]


def _marks(ids: Sequence[int]) -> str:
    return ", ".join("?" for _ in ids)


async def _write_leases(
    connection: Connection,
    count: int,
    ids: Sequence[int],
    current: dict[int, tuple[str, float]],
    holder: Holder,
    expires_at: float,
) -> None:
    who = (holder.instance, holder.incarnation, holder.host, holder.pid)
    for shard in ids:
        if shard in current:
            await connection.execute(
                "UPDATE shard_leases SET instance = ?, incarnation = ?, host = ?, pid = ?,"
                " epoch = epoch + 1, expires_at = ? WHERE shard_count = ? AND shard_id = ?",
                (*who, expires_at, count, shard),
            )
        else:
            await connection.execute(
                "INSERT INTO shard_leases (shard_count, shard_id, instance, incarnation, host,"
                " pid, epoch, expires_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
                (count, shard, *who, expires_at),
            )


class LeaseKeeper:
    """One process's leases on its shards: taken before it serves them, renewed while it runs,
    given back when it stops; and whether, right now, it may answer for them."""

    def __init__(
        self,
        store: LeaseStore,
        shards: Shards,
        holder: Holder,
        *,
        seconds: float = DEFAULT_LEASE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if seconds < 3:
            raise ValueError(f"a lease must last at least 3 s, not {seconds:g}")
        self.store = store
        self.shards = shards
        self.holder = holder
        self.seconds = seconds
        self._clock = clock
        self._valid_until = float("-inf")
        self.lost: Lost | None = None
        """Set once a lease is lost to another process: this process must stop."""
        self.renewals = 0
        self._lapsed = False

    @property
    def renew_every(self) -> float:
        """Seconds between renewals."""
        return self.seconds * RENEW_FRACTION

    @property
    def margin(self) -> float:
        """Seconds before the lease's end at which its holder stops answering."""
        return self.seconds * MARGIN_FRACTION

    def valid(self) -> bool:
        """Whether this process may answer for its shards now."""
        return self.lost is None and self._clock() < self._valid_until

    def valid_for(self) -> float:
        """Seconds this process may go on answering without another renewal (0 if not now)."""
        return max(0.0, self._valid_until - self._clock()) if self.lost is None else 0.0

    async def acquire(self, stopping: asyncio.Event | None = None) -> bool:
        """Take every lease, waiting as long as another process holds one, the database is out
        of reach, or until ``stopping`` is set (then ``False``)."""
        stopping = stopping or asyncio.Event()
        logged_at: float | None = None
        said = ""
        while not stopping.is_set():
            sent = self._clock()
            try:
                outcome = await self.store.take(self.shards, self.holder, self.seconds)
            except DatabaseUnavailable as error:
                outcome = Held(
                    f"the database cannot be reached ({error.problem})", 2.0, lease=False
                )
            if isinstance(outcome, Taken):
                self._valid_until = sent + self.seconds - self.margin
                self._lapsed = False
                for name in sorted({name for _, name in outcome.reclaimed}):
                    log.warning(
                        "took over shard(s) %s at once from %s, which has stopped",
                        format_ranges(s for s, held_by in outcome.reclaimed if held_by == name),
                        name,
                    )
                log.info(
                    "holding %s as %s (leases of %g s)",
                    self.shards.describe(),
                    self.holder.instance,
                    self.seconds,
                )
                return True
            now = self._clock()
            if logged_at is None or now - logged_at >= WAITING_LOG_EVERY or outcome.reason != said:
                left = ""
                if outcome.lease:
                    left = f" (unless renewed, its lease runs out in {outcome.retry_in:.0f} s)"
                log.warning(
                    "waiting to serve %s: %s%s", self.shards.describe(), outcome.reason, left
                )
                logged_at, said = now, outcome.reason
            # Soon after it could run out, but never sleeping long: its holder may give it
            # back at any moment, and a stop must not wait.
            pause = min(max(outcome.retry_in + 0.2, 0.5), 2.0)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), pause)
        return False

    async def keep(self, on_lost: Callable[[Lost], None]) -> None:
        """Renew the leases until cancelled; ``on_lost`` is called once if one is lost."""
        while True:
            sent = self._clock()
            try:
                outcome = await self.store.renew(self.shards, self.holder, self.seconds)
            except DatabaseUnavailable:
                outcome = None
            except Exception:
                # Never the end of renewing: a keeper that stopped would leave the process
                # silent for good once its leases lapsed.
                log.exception("renewing the leases failed")
                outcome = None
            if isinstance(outcome, Lost):
                self.lost = outcome
                holder = outcome.instance or "no one"
                log.error(
                    "lost the lease on shard %d (now held by %s): this process stops serving",
                    outcome.shard,
                    holder,
                )
                on_lost(outcome)
                return
            if outcome is not None:
                self._valid_until = max(self._valid_until, sent + self.seconds - self.margin)
                self.renewals += 1
                if self._lapsed:
                    log.warning("leases renewed: answering for %s again", self.shards.describe())
                    self._lapsed = False
                await asyncio.sleep(self.renew_every)
                continue
            if not self.valid() and not self._lapsed:
                self._lapsed = True
                log.warning(
                    "could not renew the leases of %s for %g s: not answering for them until"
                    " a renewal succeeds",
                    self.shards.describe(),
                    self.seconds - self.margin,
                )
            await asyncio.sleep(min(1.0, self.renew_every))

    async def give_back(self) -> None:
        """Give the leases back (a successor may take them at once); quietly does nothing when
        the database cannot be reached (they then run out)."""
        self._valid_until = float("-inf")
        if self.lost is not None:
            return
        try:
            given = await self.store.give_back(self.holder)
        except DatabaseUnavailable as error:
            log.warning("could not give back the leases (they run out by themselves): %s", error)
            return
        if given:
            log.info("gave back the leases of %s", self.shards.describe())
