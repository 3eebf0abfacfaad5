"""Lobby benchmark: pairing latency with 1,000 open seeks: `.venv/bin/python benchmarks/lobby.py`.

Fills the lobby shared by every server (``bot/storage/lobby.py``) with 1,000 open seeks through
its public API, then times what players and the bot's timer do to it:

(a) a seek paired at once: a new player seeks the game an open seek asks for, at a rating within
    its reach (every other one with the default reach, which often fits several open seeks); the
    lobby pairs it with the oldest compatible seek, in one transaction under the lobby's turn.
    Then the lobby is filled again to 1,000 with (b).
(b) a seek that finds nobody and waits (a new seek that pairs with none of the open ones).
(c) ``/tafl lobby``'s listing: the open seeks the viewer may play (``playable``: every open
    seek read, then those whose reach holds the viewer's rating, none of anyone blocked either
    way), of which it shows the 10 oldest, and the viewer's own seek, as the command asks for
    them; also with its ``variant`` option.
(d) the periodic sweep (every 10 s in the bot): expiry, pairs reopened, pairs made by reaches
    that widened; timed with nothing to do (the usual case), then once 100 s later, when seeks
    have expired and some widened reaches meet.

The lobby is what a busy lobby looks like between two sweeps: no two open seeks pair with each
other (otherwise they would have been paired already). Its 1,000 seeks are drawn at random (seed
``--seed``) over the 7 variants, the lobby's 5 times per move and rated or not, weighted towards
the popular ones; ratings around 1500 (sd 300); a third of the seekers left the reach at its
default (300 points, widening 50 a minute while the seek waits, up to 1000), the rest set 50 to
200 points; the seeks have waited up to 29.5 minutes (of their 30). Each candidate that would pair
with a seek already drawn is drawn again, so the lobby that stays open is the fussy part of the
seekers, as in life (about a tenth of them keep the default reach in the end). Behind them lie
20,000 closed seeks (cancelled, expired, withdrawn) and 500 blocks, so that no query gets away
with scanning a small table.

The database clock is frozen (the seeks' ages and the reach they have widened to stay put while
timing), so what is timed is the storage's own work and the database's: on SQLite the file in a
temporary folder (WAL, ``synchronous=FULL``: every commit fsynced, as the bot runs it), on
PostgreSQL a fresh schema on the server ``--postgres-url`` or ``TAFL_TEST_POSTGRES_URL`` names,
else a throwaway one (tests/pg_server.py, which runs with ``fsync=off``; the server's settings are
printed), else PostgreSQL is skipped, and the output says so.

Correctness is checked as it goes, by rules written here independently of the lobby's code: each
pairing pairs the new seeker with the oldest open seek compatible with it, both seeks become
``matched`` and name each other; each waiting seek is told how many others of its variant its
player may play (their reach holds its rating, nobody blocked either way); the count of open seeks
per variant stays what it should after every trial; the listing lists exactly the open seeks
whose reach holds the viewer's rating, oldest first; the sweep with nothing to do does nothing,
and the later one expires exactly the seeks past their 30 minutes and makes only compatible
pairs, each seek at most once, leaving no compatible pair behind. Any miss exits with status 1
and no verdict. ``--no-postgres`` measures SQLite only.

Targets (chosen here; Discord's limit on a first answer is 3 s, and a seek holds the lobby's turn,
so every other seek waits behind it): on each backend, a seek, paired or waiting, p95 <= 50 ms;
the listing p95 <= 50 ms; the sweep with nothing to do p95 <= 100 ms.

``--smoke``: 100 seeks, 20 trials (a few seconds); the figures are printed, speed is not judged.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # pg_server

import pg_server  # noqa: E402

from bot.storage import Participant, Storage, redact  # noqa: E402
from bot.storage.lobby import (  # noqa: E402
    DEFAULT_RATING,
    DEFAULT_REACH,
    LISTED,
    SEEK_LIFETIME,
    WIDENING_PER_MINUTE,
    WIDEST_REACH,
    Pairing,
    SeekRequest,
    Waiting,
)

T = TypeVar("T")

START = 1_800_000_000
"""The frozen clock's time while timing (epoch seconds)."""
VARIANTS = {
    "copenhagen": 30,
    "brandubh": 20,
    "tablut": 15,
    "fidchell": 10,
    "tablut-unarmed": 10,
    "tablut-ashton": 8,
    "tablut-corner": 7,
}
"""Variants and how often each is sought."""
TIMES = {120: 10, 600: 15, 3600: 15, 86400: 45, 3 * 86400: 15}
"""The lobby's times per move (``bot/discord_bot/choices.py``) and how often each is sought."""
RATED = 0.8
"""The share of rated seeks."""
SET_REACHES = {50: 30, 75: 25, 100: 25, 150: 12, 200: 8}
"""Reaches players set (``/tafl seek range``, 50 at least) and how often each."""
DEFAULT_SHARE = 1 / 3
"""The share of seekers who leave the reach at its default (widening as they wait)."""
OLDEST = SEEK_LIFETIME - 30
"""The oldest open seek's age, in seconds (just short of its expiry)."""
LATER = 100
"""Seconds between the sweeps with nothing to do and the one with work: some seeks expire,
some widened reaches meet, no pair made in the trials is old enough to be reopened (120 s)."""
SEEK_TARGET_MS = 50.0
LISTING_TARGET_MS = 50.0
SWEEP_TARGET_MS = 100.0
"""The targets, at the 95th percentile on each backend (see the module's text)."""
FIRST_USER = 1_000_000
"""The Discord ids of the benchmark's players start here."""


VIEWER = 1
"""The Discord user id of the player looking at the list (no seek of theirs is open, no rating
yet: they are rated :data:`DEFAULT_RATING` in every variant, and have blocked nobody)."""


class BenchFailure(Exception):
    """The lobby did not do what its rules say."""


@dataclass(frozen=True)
class Plan:
    """How much to measure."""

    seeks: int
    """Open seeks in the lobby."""
    trials: int
    """Seeks paired at once, each followed by a seek that waits (refilling the lobby)."""
    listings: int
    """Times ``/tafl lobby``'s listing is asked for (each way)."""
    sweeps: int
    """Sweeps timed with nothing to do."""
    history: int
    """Closed seeks in the table behind the open ones."""
    blocks: int
    """Blocks between the lobby's players."""


FULL = Plan(seeks=1000, trials=200, listings=100, sweeps=50, history=20_000, blocks=500)
SMOKE = Plan(seeks=100, trials=20, listings=10, sweeps=5, history=500, blocks=20)


class Clock:
    """The database's clock, set by the benchmark."""

    def __init__(self) -> None:
        self.now = float(START)

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Entry:
    """An open seek as this benchmark knows it (its own model of the lobby)."""

    seek_id: int
    user_id: int
    variant: str
    move_seconds: int
    rated: bool
    rating: float
    reach_set: int | None
    created_at: int

    @property
    def kind(self) -> tuple[str, int, bool]:
        """The game it asks for."""
        return (self.variant, self.move_seconds, self.rated)

    @property
    def expires_at(self) -> int:
        """When it expires."""
        return self.created_at + SEEK_LIFETIME

    def reach(self, now: int) -> float:
        """Rating points either way it accepts ``now``: the lobby's rule, as players are told."""
        if self.reach_set is not None:
            return float(self.reach_set)
        minutes = max(0, now - self.created_at) / 60
        return float(min(WIDEST_REACH, DEFAULT_REACH + WIDENING_PER_MINUTE * minutes))


def open_to(
    entry: Entry, user_id: int, rating: float, now: int, blocks: set[tuple[int, int]]
) -> bool:
    """Whether the player ``user_id`` rated ``rating`` may play ``entry`` ``now``: not its own
    player, nobody blocked either way, the rating within its reach."""
    return (
        entry.user_id != user_id
        and (entry.user_id, user_id) not in blocks
        and (user_id, entry.user_id) not in blocks
        and abs(entry.rating - rating) <= entry.reach(now)
    )


def compatible(one: Entry, other: Entry, now: int, blocks: set[tuple[int, int]]) -> bool:
    """Whether two seeks make a game ``now``: the same game, two players who have not blocked
    each other, each within the other's reach."""
    gap = abs(one.rating - other.rating)
    return (
        one.user_id != other.user_id
        and one.kind == other.kind
        and gap <= one.reach(now)
        and gap <= other.reach(now)
        and (one.user_id, other.user_id) not in blocks
        and (other.user_id, one.user_id) not in blocks
    )


class Model:
    """The open seeks the lobby should hold, by kind, and the blocks."""

    def __init__(self) -> None:
        self.open: dict[int, Entry] = {}
        self.blocks: set[tuple[int, int]] = set()

    def of_kind(self, kind: tuple[str, int, bool]) -> list[Entry]:
        """Open seeks asking for ``kind``, oldest first."""
        found = [entry for entry in self.open.values() if entry.kind == kind]
        return sorted(found, key=lambda entry: (entry.created_at, entry.seek_id))

    def pairs_with_any(self, candidate: Entry, now: int) -> bool:
        """Whether ``candidate`` would pair with an open seek (blocks left out: stricter)."""
        return any(compatible(candidate, entry, now, set()) for entry in self.open.values())

    def counts(self) -> dict[str, int]:
        """Open seeks per variant."""
        return dict(Counter(entry.variant for entry in self.open.values()))


def weighted(rng: random.Random, weights: dict[T, int]) -> T:
    """One key of ``weights``, drawn in proportion to its weight."""
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def draw(rng: random.Random, user_id: int, created_at: int) -> Entry:
    """A random seek (its id unknown until stored)."""
    rating = round(min(2500.0, max(700.0, rng.gauss(1500, 300))), 1)
    reach = None if rng.random() < DEFAULT_SHARE else weighted(rng, SET_REACHES)
    return Entry(
        0, user_id, weighted(rng, VARIANTS), weighted(rng, TIMES), rng.random() < RATED,
        rating, reach, created_at,
    )  # fmt: skip


def draw_lone(rng: random.Random, model: Model, user_id: int, created_at: int) -> Entry:
    """A random seek that pairs with none of the model's open seeks at :data:`START`, nor at
    any time before (a reach only widens)."""
    for _ in range(100_000):
        candidate = draw(rng, user_id, created_at)
        if not model.pairs_with_any(candidate, START):
            return candidate
    raise BenchFailure("no seek found that pairs with nobody: the lobby is too crowded")


def request(entry: Entry, guild: int) -> SeekRequest:
    """What the player of ``entry`` asks the lobby for, from server ``guild``."""
    return SeekRequest(
        Participant.user(entry.user_id, f"player {entry.user_id}"), guild, guild * 100 + 1,
        entry.variant, entry.move_seconds, entry.rated, entry.reach_set,
    )  # fmt: skip


async def timed(call: Callable[[], Awaitable[T]]) -> tuple[T, float]:
    """``call``'s result and its wall time in seconds."""
    started = time.perf_counter()
    result = await call()
    return result, time.perf_counter() - started


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def spread(seconds: Sequence[float]) -> str:
    """``p50 1.234 ms  p95 2.345 ms  max 3.456 ms``."""
    p50, p95 = percentile(seconds, 0.5) * 1000, percentile(seconds, 0.95) * 1000
    return f"p50 {p50:.3f} ms  p95 {p95:.3f} ms  max {max(seconds) * 1000:.3f} ms"


@dataclass
class Verdicts:
    """Each figure against its target."""

    lines: list[tuple[str, bool]]

    def judge(self, what: str, seconds: Sequence[float], target_ms: float) -> str:
        """``[target p95 <= 50 ms: ok]``, remembered for the final verdict."""
        ok = percentile(seconds, 0.95) * 1000 <= target_ms
        self.lines.append((what, ok))
        return f"[target p95 <= {target_ms:g} ms: {'ok' if ok else 'MISSED'}]"


class Bench:
    """One backend's run: the lobby, its model, the clock and the random draws."""

    def __init__(self, storage: Storage, clock: Clock, plan: Plan, seed: int) -> None:
        self.storage = storage
        self.clock = clock
        self.plan = plan
        self.rng = random.Random(seed)
        self.model = Model()
        self.next_user = FIRST_USER
        self.choices = 0
        """Trials whose seeker fitted several open seeks (the oldest must be chosen)."""

    # ------------------------------------------------------------------ setting up

    def new_user(self) -> int:
        """A Discord id nobody has used yet."""
        self.next_user += 1
        return self.next_user

    async def add_players(self, entries: Sequence[Entry]) -> None:
        """Write the players and their rating in their seek's variant (as if earned)."""
        async with self.storage.db.transaction() as connection:
            await connection.execute_many(
                "INSERT INTO players (discord_user_id, display_name, created_at) VALUES (?, ?, 0)",
                [(entry.user_id, f"player {entry.user_id}") for entry in entries],
            )
            await connection.execute_many(
                "INSERT INTO ratings (player_id, variant, rating, rd, volatility, updated_at)"
                " SELECT id, ?, ?, 60, 0.06, 0 FROM players WHERE discord_user_id = ?",
                [(entry.variant, entry.rating, entry.user_id) for entry in entries],
            )

    async def add_history(self, users: Sequence[int]) -> None:
        """Closed seeks of ``users`` (weeks old), and blocks between some of them."""
        rng = self.rng
        rows = []
        for index in range(self.plan.history):
            old = draw(rng, users[index % len(users)], START - rng.randrange(3600, 60 * 86400))
            status = rng.choice(("cancelled", "expired", "withdrawn"))
            rows.append((
                old.variant, old.move_seconds, int(old.rated), old.rating, old.reach_set,
                status, old.created_at, old.expires_at, old.created_at + 600, old.user_id,
            ))  # fmt: skip
        pairs: set[tuple[int, int]] = set()
        while len(pairs) < self.plan.blocks:
            one, other = rng.sample(list(users), 2)
            pairs.add((one, other))
        async with self.storage.db.transaction() as connection:
            await connection.execute_many(
                "INSERT INTO seeks (player_id, guild_id, channel_id, variant, move_seconds, rated,"
                " rating, rating_range, status, created_at, expires_at, ended_at)"
                " SELECT id, 1, 101, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM players"
                " WHERE discord_user_id = ?",
                rows,
            )
            await connection.execute_many(
                "INSERT INTO blocks (player_id, blocked_id, created_at)"
                " SELECT a.id, b.id, 0 FROM players AS a, players AS b"
                " WHERE a.discord_user_id = ? AND b.discord_user_id = ?",
                sorted(pairs),
            )
        self.model.blocks = pairs

    async def put(self, entry: Entry) -> tuple[Entry, float]:
        """Seek ``entry`` (which must pair with nobody): it waits, told of the right number of
        others it may play. The entry with its id, and the seek's wall time."""
        now = int(self.clock.now)
        others = sum(
            1
            for seek in self.model.open.values()
            if seek.variant == entry.variant
            and open_to(seek, entry.user_id, entry.rating, now, self.model.blocks)
        )
        outcome, seconds = await timed(
            lambda: self.storage.lobby.seek(request(entry, self.rng.randrange(1, 300)))
        )
        if not isinstance(outcome, Waiting):
            raise BenchFailure(f"a seek that pairs with nobody was paired: {outcome}")
        if outcome.others != others or outcome.replaced is not None:
            raise BenchFailure(
                f"a waiting seek was told of {outcome.others} others ({others} it may play wait "
                f"for {entry.variant}), replacing {outcome.replaced}"
            )
        stored = Entry(
            outcome.seek.id, entry.user_id, entry.variant, entry.move_seconds, entry.rated,
            entry.rating, entry.reach_set, int(self.clock.now),
        )  # fmt: skip
        if (outcome.seek.rating, outcome.seek.reach_set) != (entry.rating, entry.reach_set):
            raise BenchFailure(f"seek {outcome.seek.id} stored as {outcome.seek}, not {entry}")
        self.model.open[stored.seek_id] = stored
        return stored, seconds

    async def fill(self) -> list[float]:
        """Fill the lobby to :attr:`Plan.seeks` open seeks of various ages, oldest first; the
        wall time of each seek."""
        model = Model()  # the seeks drawn, to draw each next one apart from them
        drawn: list[Entry] = []
        for _ in range(self.plan.seeks):
            created = START - self.rng.randrange(0, OLDEST + 1)
            entry = draw_lone(self.rng, model, self.new_user(), created)
            model.open[len(drawn) + 1] = entry
            drawn.append(entry)
        drawn.sort(key=lambda entry: entry.created_at)
        await self.add_players(drawn)
        await self.add_history([entry.user_id for entry in drawn])
        times = []
        for entry in drawn:
            self.clock.now = entry.created_at
            times.append((await self.put(entry))[1])
        self.clock.now = START
        await self.check_counts("after filling")
        return times

    # ------------------------------------------------------------------ checks

    async def check_counts(self, when: str) -> None:
        """The lobby counts the seeks the model holds, per variant."""
        counts = await self.storage.lobby.counts()
        if counts != self.model.counts():
            raise BenchFailure(f"{when}: the lobby counts {counts}, not {self.model.counts()}")

    def check_listing(self, listed: Sequence[int], variant: str | None) -> None:
        """The listing is the :data:`LISTED` oldest open seeks (of ``variant``) the viewer may
        play."""
        now = int(self.clock.now)
        expected = sorted(
            (
                e
                for e in self.model.open.values()
                if (variant is None or e.variant == variant)
                and open_to(e, VIEWER, DEFAULT_RATING, now, self.model.blocks)
            ),
            key=lambda entry: (entry.created_at, entry.seek_id),
        )[:LISTED]
        if list(listed) != [entry.seek_id for entry in expected]:
            raise BenchFailure(
                f"/tafl lobby lists {len(listed)} seeks, not the {len(expected)} oldest open ones "
                "the viewer may play"
            )

    # ------------------------------------------------------------------ (a) and (b)

    async def trials(self) -> tuple[list[float], list[float]]:
        """Seeks paired at once, each followed by one that waits; their wall times."""
        paired, waited = [], []
        for trial in range(self.plan.trials):
            target = self.rng.choice(list(self.model.open.values()))
            # Every other seeker keeps the default reach, and often fits several seeks.
            seeker = Entry(
                0, self.new_user(), target.variant, target.move_seconds, target.rated,
                round(target.rating + self.rng.uniform(-20, 20), 1),
                50 if trial % 2 else None, START,
            )  # fmt: skip
            fits = [
                e for e in self.model.of_kind(seeker.kind) if compatible(seeker, e, START, set())
            ]
            if not fits:
                raise BenchFailure(f"the benchmark's seeker {seeker} fits nobody")
            self.choices += len(fits) > 1
            expected = fits[0]  # the oldest
            await self.add_players([seeker])
            outcome, seconds = await timed(partial(self.storage.lobby.seek, request(seeker, 7)))
            await self.check_pairing(outcome, seeker, expected)
            del self.model.open[expected.seek_id]
            paired.append(seconds)
            await self.check_counts("after a pairing")
            refill = draw_lone(self.rng, self.model, self.new_user(), START)
            await self.add_players([refill])
            waited.append((await self.put(refill))[1])
            await self.check_counts("after a seek that waits")
        return paired, waited

    async def check_pairing(self, outcome: Pairing | Waiting, seeker: Entry, target: Entry) -> None:
        """``outcome`` pairs ``seeker`` with ``target``, and the database says so."""
        if not isinstance(outcome, Pairing):
            raise BenchFailure(f"a seek that fits seek {target.seek_id} was left waiting")
        users = {seek.player.user_id for seek in outcome.seeks}
        if users != {seeker.user_id, target.user_id}:
            raise BenchFailure(
                f"a seek that fits seek {target.seek_id} (player {target.user_id}) first was "
                f"paired with player(s) {users - {seeker.user_id}}"
            )
        first, second = outcome.seeks
        for mine, theirs in ((first, second), (second, first)):
            stored = await self.storage.lobby.get(mine.id)
            if stored is None or stored.status != "matched" or stored.opponent_id != theirs.id:
                raise BenchFailure(f"seek {mine.id} is stored as {stored} after its pairing")

    # ------------------------------------------------------------------ (c)

    async def listings(self, variant: str | None) -> list[float]:
        """``/tafl lobby``'s queries (of ``variant``), timed together."""
        times = []
        for _ in range(self.plan.listings):
            started = time.perf_counter()
            # As the command asks: the seeks the viewer may play (it shows the oldest and
            # counts them all), the viewer's own seek.
            seeks = await self.storage.lobby.playable(VIEWER, variant)
            await self.storage.lobby.open_seek_of(VIEWER)
            times.append(time.perf_counter() - started)
            self.check_listing([seek.id for seek in seeks[:LISTED]], variant)
        return times

    # ------------------------------------------------------------------ (d)

    async def idle_sweeps(self) -> list[float]:
        """Sweeps with nothing to do: nothing expires, nothing pairs."""
        times = []
        for _ in range(self.plan.sweeps):
            (pairs, expired), seconds = await timed(self.storage.lobby.sweep)
            if pairs or expired:
                raise BenchFailure(
                    f"a sweep with nothing to do made {len(pairs)} pairs, expired {len(expired)}"
                )
            times.append(seconds)
        await self.check_counts("after the sweeps")
        return times

    async def later_sweep(self) -> tuple[int, int, float]:
        """The sweep :data:`LATER` seconds on: checked against the rules; how many seeks it
        expired, how many pairs it made, and its wall time."""
        now = START + LATER
        self.clock.now = now
        (pairs, expired), seconds = await timed(self.storage.lobby.sweep)
        due = {entry.seek_id for entry in self.model.open.values() if entry.expires_at <= now}
        if {seek.id for seek in expired} != due:
            raise BenchFailure(f"the sweep expired {len(expired)} seeks, not the {len(due)} due")
        for seek_id in due:
            del self.model.open[seek_id]
        taken: set[int] = set()
        for pairing in pairs:
            one, other = (self.model.open.get(seek.id) for seek in pairing.seeks)
            if one is None or other is None or not compatible(one, other, now, self.model.blocks):
                raise BenchFailure(f"the sweep paired seeks that make no game: {pairing}")
            if {one.seek_id, other.seek_id} & taken:
                raise BenchFailure(f"the sweep paired a seek twice: {pairing}")
            taken.update((one.seek_id, other.seek_id))
        for seek_id in taken:
            del self.model.open[seek_id]
        left = sorted(self.model.open.values(), key=lambda entry: entry.seek_id)
        for index, one in enumerate(left):
            for other in left[index + 1 :]:
                if compatible(one, other, now, self.model.blocks):
                    raise BenchFailure(f"the sweep left seeks {one} and {other} unpaired")
        await self.check_counts("after the later sweep")
        return len(expired), len(pairs), seconds


async def server_settings(storage: Storage) -> str:
    """What the database's durability is, for the printout."""
    async with storage.db.read() as connection:
        if storage.db.backend == "postgresql":
            version = await connection.fetch_value("SHOW server_version")
            fsync = await connection.fetch_value("SHOW fsync")
            commit = await connection.fetch_value("SHOW synchronous_commit")
            return f"server {version}, fsync={fsync}, synchronous_commit={commit}"
        mode = await connection.fetch_value("PRAGMA journal_mode")
        level = await connection.fetch_value("PRAGMA synchronous")
    names = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
    return f"journal_mode={mode}, synchronous={names.get(int(level), level)}"


def filesystem(path: Path) -> str:
    """The type of the file system ``path`` lies on (from /proc/mounts), or ``unknown``."""
    best, kind = "", "unknown"
    with contextlib.suppress(OSError), open("/proc/mounts") as mounts:
        for line in mounts:
            fields = line.split()
            if len(fields) < 3:
                continue
            mount = Path(fields[1])
            if (mount == path or mount in path.parents) and len(fields[1]) > len(best):
                best, kind = fields[1], fields[2]
    return kind


async def run(name: str, target: str, plan: Plan, seed: int, verdicts: Verdicts) -> None:
    """Fill, measure and check the lobby in the database ``target``; print the figures."""
    clock = Clock()
    storage = await Storage.open(target, clock=clock)
    try:
        print(f"\n{name}: {await server_settings(storage)}")
        bench = Bench(storage, clock, plan, seed)
        started = time.perf_counter()
        filling = await bench.fill()
        kinds = len({entry.kind for entry in bench.model.open.values()})
        defaults = sum(1 for entry in bench.model.open.values() if entry.reach_set is None)
        print(
            f"  {name} fill: {plan.seeks:,} seeks, every one waiting, in "
            f"{time.perf_counter() - started:.1f} s (one seek: {spread(filling)}); "
            f"{kinds} kinds of game, {defaults} with the default reach; behind them "
            f"{plan.history:,} closed seeks and {plan.blocks:,} blocks"
        )
        paired, waited = await bench.trials()
        print(
            f"  {name} (a) paired at once: {spread(paired)}  "
            f"{verdicts.judge(f'{name} paired at once', paired, SEEK_TARGET_MS)}"
        )
        print(f"      {plan.trials} trials ({bench.choices} fitting several seeks), each "
              "paired with the oldest compatible seek, both stored as matched; the lobby "
              "refilled after each")  # fmt: skip
        print(
            f"  {name} (b) waits: {spread(waited)}  "
            f"{verdicts.judge(f'{name} waits', waited, SEEK_TARGET_MS)}"
        )
        print(f"      {plan.trials} trials, each told how many others of its variant it may play; "
              f"{len(bench.model.open):,} open seeks counted right after every trial")  # fmt: skip
        everything = await bench.listings(None)
        print(
            f"  {name} (c) /tafl lobby, all {len(bench.model.open):,} seeks: {spread(everything)}"
            f"  {verdicts.judge(f'{name} listing', everything, LISTING_TARGET_MS)}"
        )
        popular = max(bench.model.counts().items(), key=lambda item: item[1])
        one_variant = await bench.listings(popular[0])
        print(
            f"  {name} (c) /tafl lobby variant:{popular[0]} ({popular[1]:,} seeks): "
            f"{spread(one_variant)}  "
            f"{verdicts.judge(f'{name} listing of a variant', one_variant, LISTING_TARGET_MS)}"
        )
        print(f"      {plan.listings} listings each way, every one the open seeks the viewer "
              "may play, oldest first")  # fmt: skip
        sweeps = await bench.idle_sweeps()
        print(
            f"  {name} (d) sweep, nothing to do: {spread(sweeps)}  "
            f"{verdicts.judge(f'{name} sweep', sweeps, SWEEP_TARGET_MS)}"
        )
        expired, pairs, seconds = await bench.later_sweep()
        print(
            f"  {name} (d) sweep {LATER} s later: {expired} expired, {pairs} pairs made in "
            f"{seconds * 1000:.3f} ms (checked: the seeks due expired, every pair compatible, "
            "none left behind)"
        )
    finally:
        await storage.close()


async def on_postgres(url: str, plan: Plan, seed: int, verdicts: Verdicts) -> None:
    """:func:`run` in a fresh schema of ``url``, dropped afterwards."""
    schema = await pg_server.fresh_schema(url)
    try:
        print(f"\n(PostgreSQL at {redact(url)}, a fresh schema)")
        await run("PostgreSQL", schema, plan, seed, verdicts)
    finally:
        await pg_server.drop_schema(schema)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when every check held (whatever the speed), 1 otherwise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--smoke", action="store_true", help="a quick run on a small lobby")
    parser.add_argument("--seeks", type=int, help="open seeks in the lobby (default 1000)")
    parser.add_argument("--trials", type=int, help="seeks paired at once (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the random draws' seed")
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    parser.add_argument(
        "--postgres-url",
        help=f"an existing PostgreSQL database (default: ${pg_server.URL_VARIABLE}, else a "
        "throwaway server, else PostgreSQL is skipped)",
    )
    args = parser.parse_args(argv)
    plan = SMOKE if args.smoke else FULL
    if args.seeks is not None:
        if args.seeks < 2:
            parser.error("--seeks must be at least 2")
        plan = Plan(args.seeks, plan.trials, plan.listings, plan.sweeps, plan.history, plan.blocks)
    if args.trials is not None:
        if args.trials < 1:
            parser.error("--trials must be at least 1")
        plan = Plan(plan.seeks, args.trials, plan.listings, plan.sweeps, plan.history, plan.blocks)
    print(
        f"lobby: {plan.seeks:,} open seeks over {len(VARIANTS)} variants, {len(TIMES)} times per "
        f"move, rated or not (seed {args.seed}); {plan.trials} trials, {plan.listings} "
        f"listings, {plan.sweeps} sweeps"
    )
    print(
        f"targets, on each backend: a seek (paired or waiting) p95 <= {SEEK_TARGET_MS:g} ms; "
        f"/tafl lobby's listing p95 <= {LISTING_TARGET_MS:g} ms; the sweep p95 <= "
        f"{SWEEP_TARGET_MS:g} ms"
    )
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs, load average {load} (a busy machine inflates figures)")
    verdicts = Verdicts([])
    started = time.perf_counter()
    server = None
    url = args.postgres_url or os.environ.get(pg_server.URL_VARIABLE) or None
    skipped = None
    try:
        with tempfile.TemporaryDirectory(prefix="tafl-lobby-") as folder:
            path = Path(folder) / "lobby.sqlite3"
            print(f"\n(SQLite file in {folder}, on {filesystem(Path(folder))})")
            asyncio.run(run("SQLite", str(path), plan, args.seed, verdicts))
        if args.no_postgres:
            skipped, url = "--no-postgres", None
        elif url is None:
            try:
                server = pg_server.start()
                url = server.url
            except (pg_server.PostgresUnavailable, RuntimeError) as missing:
                skipped = f"no server: {missing}"
        if url is not None:
            asyncio.run(on_postgres(url, plan, args.seed, verdicts))
    except BenchFailure as error:
        print(f"\nFAILED: {error}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.stop()
    if skipped is not None:
        print(f"\nPostgreSQL: skipped ({skipped})")
    missed = [what for what, ok in verdicts.lines if not ok]
    elapsed = time.perf_counter() - started
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\nload average at the end: {load}")
    if args.smoke:
        print(f"\nsmoke run ok in {elapsed:.0f} s: every check held (speed not judged)")
    elif missed:
        print(f"\nverdict: MISSED: {', '.join(missed)} (every check held; {elapsed:.0f} s)")
    else:
        print(f"\nverdict: every target met, every check held ({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
