"""Move latency and throughput as the bot scales out:
`.venv/bin/python benchmarks/scale.py [--rate MOVES_PER_SECOND] [--smoke]`.

Plays many games between people at once through the real bot, first as one process on SQLite,
then as 1, 2 and 4 processes (``python -m bot cluster --processes P``) sharing one PostgreSQL,
and prints for each the moves answered, their latency, moves per second, moves per CPU-second,
and the durability the database ran with.

Each configuration gets a fresh Discord stand-in (tests/fakediscord) that recommends 4 shards
and lets all 4 identify at once, 8 guilds spread over the shards, a fresh database (an SQLite file;
a new schema in PostgreSQL) and a fresh bot. 200 games (``--games``) are started through the real
commands: ``/tafl challenge`` then the Accept button, each game in its own channel between two
members who play nothing else. A player's turn is what a person's would be: ask autocomplete for
the legal moves (as Discord's client does while they type), pick one at random, send
``/tafl move`` and wait for the board. A game that ends is rematched (``/tafl rematch`` and
Accept). After a warm-up (5 s), a 30 s window (``--seconds``) is measured, in one of two ways.

Closed loop (the default) is a saturation test. Each player moves as soon as their previous move
is answered (``--think SECONDS`` adds a pause), so the bot always has about one interaction per
game waiting. Its figure is the throughput. Its latency is not what a player would feel: it is
the length of the queue the benchmark keeps full, about games / throughput (200 games at 100
moves a second: 2 s), and the output labels it so. The moves counted are those sent in the
window; at its end the players stop and wait for their last answers, so a slow one is not left
out.

Open loop (``--rate R``) is what players feel at a given load. Moves arrive at R a second in all,
whatever the bot answers, as moves from many independent people would: at random times, a
Poisson process (exponential gaps, from a fixed seed, so every configuration and every run gets
the same schedule). Each player asks autocomplete and picks a move as soon as it is their turn
(timed apart); an arrival goes to the game whose player has been ready longest. A move's latency
is timed from its scheduled arrival, not from when it was sent, so a move that waited (for a game
to be ready, for the driver, or behind other events on the way to a busy bot process) counts the
wait: no coordinated omission. The moves counted are
those scheduled in the window; the report gives their median, p95 and p99, how many were late
(answered more than 3 s after their arrival) and how many were unanswered (no answer 30 s after
the window; a game left without an answer stops playing). Choose R below the closed loop's
throughput (the README uses 70% of one PostgreSQL process's): above it the queue grows without
end and the latency only says how long the window was.

What is timed: from the stand-in writing the ``/tafl move`` interaction to the bot's gateway
connection (closed loop) or from the move's scheduled arrival (open loop; the time until it was
written is printed apart), to the new board reaching the stand-in: the interaction callback, or
when the bot was slow and acknowledged the move first (Discord shows it "thinking"), the
follow-up message that carries the board. Autocomplete is timed from its sending, and printed
apart. A board later than Discord's 3 s counts as late, keeping its real latency in the
percentiles, so a slow bot cannot hide its slowest moves; a move whose first response came after
the 3 s was refused by the stand-in (as Discord would: the player sees "This interaction
failed") and counts as failed too.

Durability: each bot process logs at start-up what its database reports for the bot's own
connection (SQLite's ``PRAGMA journal_mode`` and ``PRAGMA synchronous``, PostgreSQL's ``SHOW
fsync`` and ``SHOW synchronous_commit``), and this prints it for each configuration with the
filesystem the data lives on. SQLite runs as the bot always does: WAL, ``synchronous=FULL``,
the WAL fsynced at every commit. The throwaway PostgreSQL runs with its defaults, ``fsync=on``
and ``synchronous_commit=on``: each commit's WAL flushed to disk before the commit returns.
``--postgres-fsync off`` runs it with ``fsync=off`` (as the test suite does): faster, but not
durable, and the output marks every PostgreSQL figure so. A server given by URL runs as it is
configured, and is reported the same way. The disk matters as much as the settings, so this also
times fsync (50 writes of 4 KB, each followed by ``fdatasync``) before the run and again before
each configuration where its database's files live: on a shared machine the disk is shared too,
and one flush can cost 0.05 ms one minute and 4 ms the next.
Once the bot has stopped, every move it acknowledged (answered in time with the new board, in
the warm-ups and windows alike) is looked for in the database's move log, over a connection of
this process's own, in its channel and in the order played; a configuration that lost one
fails the run. (This shows the bot announces only committed moves; what a crash of the machine
would keep is what the settings above say.)

CPU: moves per CPU-second is the moves counted in the window (and answered) over the CPU
seconds (user + system, all threads, from /proc/<pid>/stat) used in the window by the bot's
process tree (the cluster supervisor, its bot processes and their AI worker processes, idle
here; SQLite runs inside the bot processes) plus, on PostgreSQL, the server's process tree (the
postmaster, a backend per connection, the WAL writer, checkpointer and other background
processes). Not counted: the stand-in and this driver (they stand for Discord and the players;
their share is printed), processes that ended during the window, and a PostgreSQL on another
machine, whose processes cannot be seen from here (then the figure is n/a; a server on this
machine, whether started here or named by URL, is found through a connection's backend process).
The CPU is all the work of the window, so each move carries its share of the autocompletes and
rematches around it. Work in flight at the window's edges is counted for some moves outside the
window and missing for some inside it, which in a steady state about cancels.

The machine matters: the bot processes, PostgreSQL, the stand-in and this driver all share its
CPUs and its disk. This prints how many CPUs there are, the load average before and after the
run and each configuration (the run's own processes count in it), the CPU each process used in
the window and, as ``others``, the CPU everything else on the machine used in it (the machine's
busy time from /proc/stat less the bot's, PostgreSQL's and this process's, so it also holds
kernel work charged to no process): the other work the figures shared the cores with. On 2
CPUs, 4 bot processes oversubscribe them.

Every wait for the bot is bounded (30 s), and so is each configuration: if the bot stops
answering or a process exits, the benchmark says how far it got and exits with status 2.
``--smoke`` is a short run (8 games, 2 s measured, SQLite and PostgreSQL with 2 processes, each
in closed loop and then in open loop at 10 moves a second on the same bot, under a minute) that
checks the benchmark works; it judges no speed. PostgreSQL is the server ``--postgres-url`` or
``TAFL_TEST_POSTGRES_URL`` names, else a throwaway one (tests/pg_server.py). ``--keep FOLDER``
keeps the bots' logs and SQLite files (and the PostgreSQL schemas).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import os
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Literal, Self, TypeVar
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the stand-in lives with the tests
sys.path.insert(0, str(ROOT / "benchmarks"))

import pg_server  # noqa: E402
from bot_latency import (  # noqa: E402
    MENTION,
    WAIT,
    BenchFailure,
    bounded,
    cancel_all,
    game_over,
    percentile,
)
from e2e_support import BotProcess, bot_env, button_id, split_log  # noqa: E402
from fakediscord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
)
from fakediscord.interactions import DEFERRED_CHANNEL_MESSAGE  # noqa: E402

from bot.storage import redact  # noqa: E402

SHARDS = 4
GUILDS = 8
"""Two guilds on each shard, so every process of a cluster serves some games."""
DEADLINE = 3.0
"""Discord's (and the stand-in's) limit on the first response to an interaction."""
NO_GAME = "none"
NOT_YOUR_TURN = "wait"
"""What the bot's autocomplete offers when there is no game, or it is not the asker's turn
(``bot/discord_bot/cogs/play.py``)."""
ARRIVAL_SEED = 25
"""The seed of the open loop's arrival times: every configuration gets the same schedule."""
FAST_FSYNC = 0.0002
"""An fsync quicker than this (0.2 ms) has not waited for a disk: a cache answered it."""
SMOKE_RATE = 10.0
"""The open loop's rate in a smoke run: well within what 8 games on any machine answer."""

TOO_LATE = "answered too late for Discord"
"""How the bot logs an answer Discord no longer takes (``bot/discord_bot/errors.py``)."""
LATE = re.compile(r"callback after ([\d.]+) s")
"""How the stand-in notes an answer it refused as late (``fakediscord/webhooks.py``)."""
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ +")
"""The start of an entry of the bot's log."""
DURABILITY = re.compile(r"durability of the database .*?: ((?:SQLite|PostgreSQL) .*)$", re.M)
"""The line each bot process logs at start-up (``bot/discord_bot/main/launcher.py``)."""
SQLITE_DURABILITY = re.compile(r"SQLite journal_mode=(\w+), synchronous=(\w+)")
POSTGRES_DURABILITY = re.compile(r"PostgreSQL fsync=(\w+), synchronous_commit=(\w+)")

Backend = Literal["sqlite", "postgresql"]
Mode = Literal["closed", "open"]
T = TypeVar("T")


@dataclass(frozen=True)
class Plan:
    """How much to measure."""

    games: int
    """Games played at once."""
    processes: tuple[int, ...]
    """Bot processes on PostgreSQL, one configuration each (after SQLite with one)."""
    warm_up: float
    """Seconds of play before each measured window."""
    seconds: float
    """Each measured window."""
    limit: float
    """Seconds one configuration may take beyond its warm-ups and windows (starting the bot and
    the games, waiting for the last answers) before it is stuck."""
    setup_at_once: int = 16
    """Games being set up at the same time: all 200 at once would only measure a queue."""
    closed_loop: bool = True
    """Measure a closed-loop window (a saturation test)."""
    think: float = 0.0
    """Closed loop: seconds a player waits after seeing the board before asking for moves."""
    rate: float | None = None
    """Open loop: moves a second in all, measured after the closed loop if there is one."""

    @property
    def modes(self) -> tuple[Mode, ...]:
        """The windows measured on each bot, in order."""
        closed: tuple[Mode, ...] = ("closed",) if self.closed_loop else ()
        return closed + (("open",) if self.rate is not None else ())

    @property
    def budget(self) -> float:
        """Seconds one configuration may take in all."""
        return self.limit + len(self.modes) * (self.warm_up + self.seconds)


FULL = Plan(games=200, processes=(1, 2, 4), warm_up=5.0, seconds=30.0, limit=200.0)
SMOKE = Plan(games=8, processes=(2,), warm_up=0.5, seconds=2.0, limit=80.0, rate=SMOKE_RATE)


@dataclass(frozen=True)
class Config:
    """One way of running the bot."""

    backend: Backend
    processes: int

    @property
    def name(self) -> str:
        return "SQLite" if self.backend == "sqlite" else "PostgreSQL"

    @property
    def slug(self) -> str:
        return f"{self.backend}-{self.processes}"


@dataclass
class Timed:
    """One interaction of a player: when it arrived and when the bot answered it.

    Times are ``time.perf_counter()`` seconds, the stand-in's clock."""

    at: float
    """When the player acted: the interaction's sending (closed loop, autocomplete), or the
    move's scheduled arrival (open loop)."""
    latency: float | None = None
    """Seconds from ``at`` to the bot's answer reaching the stand-in (in time or refused as
    late; for a move, its board); ``None`` while (or if never) answered."""
    sent: float | None = None
    """When the stand-in wrote the interaction to the bot's gateway connection."""
    refused: bool = False
    """The stand-in refused the bot's first response: it came over 3 s after the interaction
    was sent (the player saw "This interaction failed")."""

    @property
    def late(self) -> bool:
        """Answered more than Discord's 3 s after ``at``: the player waited too long."""
        return self.refused or (self.latency is not None and self.latency > DEADLINE)


@dataclass
class Phase:
    """One measured window on one bot: closed or open loop."""

    mode: Mode
    rate: float | None = None
    moves: list[Timed] = field(default_factory=list)
    """Every ``/tafl move``; in the open loop, every scheduled arrival."""
    completions: list[Timed] = field(default_factory=list)
    """Every autocomplete."""
    window: tuple[float, float] = (0.0, 0.0)
    cpu: dict[str, float | None] = field(default_factory=dict)
    """CPU seconds used in the window: the bot, PostgreSQL, the stand-in and driver."""
    waited_for_game: int = 0
    """Open loop: arrivals in the window that found no game ready for a move."""
    dropped: int = 0
    """Games the players gave up on: both rematch offers answered too late, or (open loop) an
    interaction left unanswered."""

    @property
    def seconds(self) -> float:
        return self.window[1] - self.window[0]

    def in_window(self, samples: list[Timed]) -> list[Timed]:
        """The samples that arrived inside the measured window."""
        start, end = self.window
        return [sample for sample in samples if start <= sample.at <= end]

    def answered(self, samples: list[Timed]) -> list[Timed]:
        """The samples of the window the bot answered (in time or late)."""
        return [sample for sample in self.in_window(samples) if sample.latency is not None]

    def label(self) -> str:
        """``closed loop`` or ``open loop, 50 moves/s``."""
        return "closed loop" if self.rate is None else f"open loop, {self.rate:g} moves/s"


@dataclass(frozen=True)
class ReadBack:
    """The moves the players were told were played, looked for in the database's move log after
    the bot stopped."""

    acknowledged: int
    """Moves the bot answered in time with the new board (the whole run, warm-ups included)."""
    found: int
    """Of those, the ones in the move log, in the order they were played in their channel."""
    rows: int
    """Moves in the move log of the run's channels (also those answered late or never)."""
    missing: tuple[str, ...] = ()
    """A few of the missing ones, as ``channel: move``."""

    @property
    def complete(self) -> bool:
        return self.found == self.acknowledged


@dataclass
class Run:
    """What one configuration did: its bot, its games and each measured window."""

    config: Config
    games: int = 0
    rematches: int = 0
    phases: list[Phase] = field(default_factory=list)
    start_seconds: float = 0.0
    setup_seconds: float = 0.0
    shutdown: int | None = None
    errors: list[str] = field(default_factory=list)
    """The bot's logged errors (first line of each)."""
    warnings: int = 0
    too_late: int = 0
    """Of the warnings, the bot's notes of an answer that came too late for Discord."""
    fsync: str | None = None
    """What an fsync cost where the database's files live, just before the configuration ran
    (the disk is shared too, and its cost changes from one minute to the next)."""
    stand_in: list[str] = field(default_factory=list)
    durability: list[str] = field(default_factory=list)
    """What each bot process logged of its database's durability (one entry per distinct line)."""
    storage: str | None = None
    """The filesystem the database's files live on, when known."""
    load: tuple[str, str] = ("unknown", "unknown")
    """The machine's load average when the configuration started and when it ended."""
    read_back: ReadBack | None = None
    """The acknowledged moves looked for in the database once the bot had stopped."""
    step: str = "starting the bot"

    def progress(self) -> str:
        """How far the run got, for a failure message."""
        moves = [move for phase in self.phases for move in phase.moves]
        answered = sum(1 for move in moves if move.latency is not None)
        late = sum(1 for move in moves if move.late)
        failed = sum(1 for move in moves if move.refused)
        return (
            f"{self.config.name} with {self.config.processes} process(es), while {self.step}: "
            f"{self.games} games started, {answered} moves answered, {late} moves answered "
            f"late ({failed} failed), {self.rematches} rematches"
        )


@dataclass
class Table:
    """One game's channel, its two players and who is to move (``None``: the game is over)."""

    channel: FakeChannel
    players: tuple[FakeUser, FakeUser]
    rng: random.Random
    """Picks this game's moves (seeded by the game's number)."""
    mover: FakeUser | None = None
    move: str | None = None
    """The move the player to move has picked from autocomplete and will send."""
    acknowledged: list[str] = field(default_factory=list)
    """Every move of this channel the bot answered in time with the new board, in order: what
    the players were told was played, read back from the database at the end."""

    def other(self, user: FakeUser) -> FakeUser:
        """The opponent of ``user``."""
        return self.players[1] if user is self.players[0] else self.players[0]

    def follow(self, board: str) -> None:
        """Note who is to move from a board message (``None`` once the game is over)."""
        if game_over(board):
            self.mover = None
            return
        found = MENTION.search(board)
        if found is None:
            raise BenchFailure(f"no player to move and no result in {self.channel.name}: {board!r}")
        mover = int(found.group(1))
        by_id = {player.id: player for player in self.players}
        if mover not in by_id:
            raise BenchFailure(f"the board in {self.channel.name} names a stranger: {board!r}")
        self.mover = by_id[mover]


class NoAnswer(BenchFailure):
    """The bot did not answer an interaction within :data:`WAIT` seconds."""


class GameLost(BenchFailure):
    """A game its players cannot go on with (both rematch offers answered too late: neither
    player can see an Accept button). A saturated bot does this now and then; the run carries
    on without the game and counts it."""


@dataclass
class _MessageWait:
    """A wait for the bot's next message in a channel that matches a predicate."""

    channel_id: int
    predicate: Callable[[FakeMessage], bool]
    cursor: int
    """Index in the stand-in's message order of the first message not yet looked at."""
    future: asyncio.Future[FakeMessage]


class Driver:
    """The players of every game, acting through the stand-in, with one waiter for all of them.

    The stand-in wakes every waiting task after each change it sees (a request, a message, a
    response). With hundreds of games each waiting for its own answer, as
    ``bot_latency.command`` waits, every move would wake hundreds of tasks several times and
    the driver would take the CPU the bot is being measured on (and, running the stand-in's
    event loop too, delay its timestamps). Here one task re-checks the pending waits after each
    change, and looks at each new message once.
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._answers: dict[int, tuple[FakeInteraction, asyncio.Future[None]]] = {}
        self._messages: list[_MessageWait] = []
        self._watcher: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Self:
        self._watcher = asyncio.create_task(self._watch())
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._watcher is not None:
            await cancel_all([self._watcher])

    async def _watch(self) -> None:
        # The check never returns a value: it resolves the waits as a side effect, and the
        # watcher runs until cancelled (the day-long timeout only satisfies the signature).
        await self.fake.wait_until(self._check, timeout=86_400.0, what="the benchmark's end")

    def _check(self) -> None:
        for key, (interaction, future) in list(self._answers.items()):
            if interaction.callback is not None or interaction.rejected:
                del self._answers[key]
                if not future.done():
                    future.set_result(None)
        if not self._messages:
            return None
        order = self.fake.world.message_order
        bot_user = self.fake.bot_user
        for wait in list(self._messages):
            for message in order[wait.cursor :]:
                if (
                    message.channel_id == wait.channel_id
                    and message.author is bot_user
                    and not message.deleted
                    and wait.predicate(message)
                ):
                    self._messages.remove(wait)
                    if not wait.future.done():
                        wait.future.set_result(message)
                    break
            wait.cursor = len(order)
        return None

    async def _bounded(self, future: asyncio.Future[T], what: str) -> T:
        """``future``'s result within :data:`WAIT` seconds, else :class:`NoAnswer`."""
        try:
            async with asyncio.timeout(WAIT):
                return await future
        except TimeoutError:
            if self._watcher is not None and self._watcher.done():
                await self._watcher  # raises what stopped it
            raise NoAnswer(f"the bot did not answer {what} within {WAIT:.0f} s") from None

    async def answer(self, interaction: FakeInteraction, what: str) -> FakeInteraction:
        """Wait for the bot's first response to ``interaction``, or for the stand-in to refuse
        it as too late (then ``interaction.callback`` stays ``None``)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._answers[interaction.id] = (interaction, future)
        self._check()
        await self._bounded(future, what)
        if interaction.callback is None and late(interaction) is None:
            raise BenchFailure(f"the stand-in refused the answer to {what}: {interaction.rejected}")
        return interaction

    async def reply(self, interaction: FakeInteraction, what: str) -> tuple[FakeMessage, float]:
        """The message that answers a command the bot answered (see :meth:`answer`), and when
        it reached the stand-in: the callback's, or when the bot acknowledged the command first
        (it was slow: Discord shows it "thinking"), the follow-up message that came after."""
        placeholder = interaction.original_message
        if placeholder is None:
            raise BenchFailure(f"{what}: the bot answered without a message: {interaction}")
        callback = interaction.callback
        if callback is None or callback.type != DEFERRED_CHANNEL_MESSAGE:
            return placeholder, callback.at if callback is not None else math.nan
        channel = self.fake.world.channels[placeholder.channel_id]
        message = await self.message(
            channel,
            lambda m: m.interaction_id == interaction.id and not m.loading,
            placeholder.sequence,
            f"the answer that follows {what}",
        )
        at = next(r.at for r in interaction.responses if r.message is message)
        return message, at

    async def message(
        self, channel: FakeChannel, predicate: Callable[[FakeMessage], bool], after: int, what: str
    ) -> FakeMessage:
        """The bot's first message in ``channel`` after checkpoint ``after`` that matches
        ``predicate`` when it is created (later edits are not looked at)."""
        future: asyncio.Future[FakeMessage] = asyncio.get_running_loop().create_future()
        # A checkpoint is the number of messages so far, hence the index of the next one.
        self._messages.append(_MessageWait(channel.id, predicate, after, future))
        self._check()
        return await self._bounded(future, what)

    async def command(
        self, user: FakeUser, channel: FakeChannel, subcommand: str, **options: object
    ) -> FakeInteraction:
        """Send ``/tafl subcommand`` and wait for the first response."""
        with reachable():
            interaction = await self.fake.send_slash_command(
                user, channel, "tafl", subcommand=subcommand, options=options
            )
        return await self.answer(interaction, f"/tafl {subcommand} in {channel.name}")

    async def choices(self, user: FakeUser, channel: FakeChannel) -> FakeInteraction:
        """Autocomplete of ``/tafl move`` with nothing typed yet: the mover's legal moves."""
        with reachable():
            interaction = await self.fake.send_autocomplete(
                user, channel, "tafl", subcommand="move", focused="move", options={"move": ""}
            )
        return await self.answer(interaction, f"autocomplete in {channel.name}")

    async def accept(self, user: FakeUser, offer: FakeMessage, channel: FakeChannel) -> str:
        """``user`` accepts a challenge or rematch offer; returns the game's first board."""
        mark = self.fake.checkpoint()
        # No gateway round trip first (sync): the offer was seen in the bot's own answer, and
        # a round trip to every shard per click would stall under this load.
        with reachable():
            click = await self.fake.click_button(
                user, offer, button_id(offer, ":accept"), sync=False
            )
        # Answered late or not, the game has begun: the bot posts its board in the channel
        # even when it cannot edit the offer.
        await self.answer(click, f"Accept in {channel.name}")
        board = await self.message(
            channel,
            lambda m: "begins" in m.text and bool(m.attachments),
            mark,
            f"the first board in {channel.name}",
        )
        return str(board.text)


def late(interaction: FakeInteraction) -> float | None:
    """The latency of the bot's first response to ``interaction`` if the stand-in refused it
    for coming after Discord's deadline, else ``None``."""
    for reason in interaction.rejected:
        found = LATE.fullmatch(reason)
        if found:
            return float(found.group(1))
    return None


def latency(interaction: FakeInteraction) -> tuple[float, bool]:
    """Seconds from sending ``interaction`` to the bot's first response, and whether that
    response came too late (it was refused; the time is the stand-in's note of it)."""
    if interaction.latency is not None:
        return interaction.latency, False
    too_late = late(interaction)
    assert too_late is not None, "Driver.answer returns answered or late interactions only"
    return too_late, True


@contextlib.contextmanager
def reachable() -> Iterator[None]:
    """Turn the stand-in's refusal to send an interaction to a shard that is not connected
    (a bot process died) into a :class:`BenchFailure`."""
    try:
        yield
    except RuntimeError as error:
        first = "\n".join(str(error).splitlines()[:2])
        raise BenchFailure(f"cannot reach the bot: {first}") from None


async def open_game(driver: Driver, table: Table, run: Run) -> None:
    """The first player challenges the second, who accepts."""
    first, second = table.players
    ask = await driver.command(first, table.channel, "challenge", opponent=second)
    if ask.callback is None:
        raise BenchFailure(f"/tafl challenge in {table.channel.name} failed: {ask.rejected}")
    offer, _ = await driver.reply(ask, f"/tafl challenge in {table.channel.name}")
    if "challenges you" not in offer.text:
        raise BenchFailure(
            f"/tafl challenge was not posted in {table.channel.name}: {ask.responses}"
        )
    table.follow(await driver.accept(second, offer, table.channel))
    run.games += 1


async def rematch(driver: Driver, table: Table, run: Run) -> None:
    """One player offers a rematch of the game that just ended; the other accepts.

    An offer answered too late never shows its Accept button (and the bot refuses the same
    player a second open offer), so then the other player offers instead, as people would."""
    for asker, opponent in (table.players, table.players[::-1]):
        offer = await driver.command(asker, table.channel, "rematch")
        if offer.callback is None:
            continue
        message, _ = await driver.reply(offer, f"/tafl rematch in {table.channel.name}")
        if "asks for a rematch" not in message.text:
            raise BenchFailure(
                f"/tafl rematch did not offer a rematch in {table.channel.name}: {offer.responses}"
            )
        table.follow(await driver.accept(opponent, message, table.channel))
        run.rematches += 1
        return
    raise GameLost(f"both offers of a rematch in {table.channel.name} were answered late")


async def get_ready(driver: Driver, table: Table, run: Run, phase: Phase) -> None:
    """Make the game at ``table`` ready for its next move: a rematch if it is over, then the
    player to move asks autocomplete for the legal moves and picks one (``table.move``)."""
    while True:
        mover = table.mover
        if mover is None:
            await rematch(driver, table, run)
            continue
        ask = await driver.choices(mover, table.channel)
        seconds, too_late = latency(ask)
        sent = ask.dispatched_at or 0.0
        phase.completions.append(Timed(sent, seconds, sent, refused=too_late))
        if too_late:
            continue  # as a person would: type again
        values = [str(choice["value"]) for choice in ask.choices]
        if values == [NO_GAME]:  # a move answered too late ended the game
            table.mover = None
            continue
        if values == [NOT_YOUR_TURN]:  # a move answered too late was played all the same
            table.mover = table.other(mover)
            continue
        if not values:
            raise BenchFailure(f"the bot offered {mover.username} no move in {table.channel.name}")
        table.move = table.rng.choice(values)
        return


async def send_move(driver: Driver, table: Table, arrival: Timed | None = None) -> Timed:
    """Send the move the player at ``table`` picked and follow the game to the bot's answer.

    Timed from ``arrival.at`` (the open loop's schedule) when given, else from the sending."""
    mover, move = table.mover, table.move
    assert mover is not None and move is not None, "get_ready picks the move first"
    table.move = None
    ix = await driver.command(mover, table.channel, "move", move=move)
    seconds, too_late = latency(ix)
    sent = ix.dispatched_at or 0.0
    sample = arrival if arrival is not None else Timed(sent)
    sample.sent = sent
    sample.latency = sent + seconds - sample.at
    sample.refused = too_late
    if too_late:
        # The bot plays a move before it answers, so the turn passed all the same.
        table.mover = table.other(mover)
        return sample
    answer, answered_at = await driver.reply(ix, f"/tafl move {move} in {table.channel.name}")
    sample.latency = answered_at - sample.at
    if answer.ephemeral:
        raise BenchFailure(
            f"/tafl move {move} in {table.channel.name} was refused: {answer.text!r}"
        )
    table.follow(answer.text)
    table.acknowledged.append(move)
    return sample


async def play(
    driver: Driver, table: Table, run: Run, phase: Phase, think: float, stop: asyncio.Event
) -> None:
    """Closed loop: play the game at ``table`` move after move, each ``think`` seconds after
    the previous answer, until ``stop`` is set; then return once the last interaction is
    answered. Returns early, counted in ``phase.dropped``, if the game is lost."""
    while not stop.is_set():
        if think > 0:
            await asyncio.sleep(think)
            if stop.is_set():
                break
        try:
            await get_ready(driver, table, run, phase)
        except GameLost:
            phase.dropped += 1
            return
        if stop.is_set():
            break
        phase.moves.append(await send_move(driver, table))


def poisson_arrivals(rate: float, start: float, end: float, seed: int) -> list[float]:
    """Arrival times between ``start`` and ``end`` of a Poisson process of ``rate`` a second."""
    rng = random.Random(seed)
    times = []
    at = start + rng.expovariate(rate)
    while at < end:
        times.append(at)
        at += rng.expovariate(rate)
    return times


async def sleep_until(at: float) -> None:
    """Sleep until ``time.perf_counter()`` reaches ``at``."""
    delay = at - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)


def raise_failures(tasks: Sequence[asyncio.Task[None]]) -> None:
    """Raise the first error of the finished ``tasks``: what went wrong in that game."""
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            task.result()


# -- CPU accounting (Linux /proc) --------------------------------------------------------------


def _processes() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds so far (user + system), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    found: dict[int, tuple[int, float]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    stat = handle.read().decode(errors="replace")
            except OSError:
                continue  # it has just exited
            # The command name is in parentheses and may hold spaces: split after it.
            fields = stat[stat.rfind(")") + 2 :].split()
            found[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    return found


def tree_cpu(root: int | None, table: dict[int, tuple[int, float]]) -> float | None:
    """CPU seconds used so far by ``root`` and its descendants still running (``None`` when
    ``root`` is unknown or gone)."""
    if root is None or root not in table:
        return None
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += table[pid][1]
        todo.extend(children.get(pid, ()))
    return total


@dataclass(frozen=True)
class Postgres:
    """The PostgreSQL server the bot uses."""

    url: str
    pid: int | None
    """Its postmaster's PID, when it runs on this machine (for its CPU use)."""
    folder: Path | None
    """Its data folder, when known (for the filesystem it lives on)."""


def _command_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


async def find_postgres(url: str, server: pg_server.PostgresServer | None) -> Postgres:
    """The server at ``url``: the throwaway ``server`` if this started one, else whatever of
    it can be seen from here. A server on this machine is found through a connection's backend
    process, whose parent is the postmaster (the same process tree is counted for either)."""
    if server is not None:
        try:
            pid = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pid = None
        return Postgres(url, pid, server.folder)
    if urlsplit(url).hostname not in ("localhost", "127.0.0.1", "::1"):
        return Postgres(url, None, None)
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        backend = int(await connection.fetchval("SELECT pg_backend_pid()"))
        try:
            data = await connection.fetchval("SHOW data_directory")
        except asyncpg.PostgresError:  # readable by superusers and pg_read_all_settings only
            data = None
    finally:
        await connection.close()
    parent = _processes().get(backend, (0, 0.0))[0]
    # A PID seen here could belong to another machine's process (a server in a container with
    # its own PID namespace): only a postgres backend whose parent is postgres counts.
    local = _command_name(backend).startswith("postgres") and _command_name(parent) == "postgres"
    return Postgres(url, parent if local else None, Path(data) if data and local else None)


def _machine() -> tuple[float | None, float | None]:
    """CPU seconds the whole machine has been busy (every core, every process, the kernel),
    and those the hypervisor gave to others (steal), from /proc/stat."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        with open("/proc/stat") as handle:
            fields = [int(value) for value in handle.readline().split()[1:]]
    except (OSError, ValueError):
        return None, None
    # user, nice, system, idle, iowait, irq, softirq, steal (guest time is inside user).
    busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6]
    steal = fields[7] if len(fields) > 7 else 0
    return busy / ticks, steal / ticks


def cpu_snapshot(bot: BotProcess, postgres: int | None) -> dict[str, float | None]:
    """CPU seconds so far of the bot's processes, PostgreSQL's, this one (the stand-in and the
    driver share it) and the whole machine."""
    table = _processes()
    machine, steal = _machine()
    return {
        "bot": tree_cpu(bot.process.pid if bot.process is not None else None, table),
        "postgres": tree_cpu(postgres, table),
        "driver": time.process_time(),
        "machine": machine,
        "steal": steal,
    }


def other_work(cpu: dict[str, float | None]) -> float | None:
    """CPU seconds the machine spent on anything but the bot, PostgreSQL and this process: other
    people's work, which the figures shared the cores with (``None`` when not known)."""
    machine, bot, driver = cpu.get("machine"), cpu.get("bot"), cpu.get("driver")
    if machine is None or bot is None or driver is None:
        return None
    return max(0.0, machine - bot - driver - (cpu.get("postgres") or 0.0))


# -- one configuration ---------------------------------------------------------------------------


def make_tables(fake: FakeDiscord, games: int) -> list[Table]:
    """``games`` channels spread over :data:`GUILDS` guilds on :data:`SHARDS` shards, each with
    two members of its own."""
    guilds: list[FakeGuild] = [
        fake.create_guild(f"Club {k}", shard=(k % SHARDS, SHARDS)) for k in range(GUILDS)
    ]
    tables = []
    for number in range(games):
        guild = guilds[number % GUILDS]
        players = (
            fake.create_user(f"p{number}a", guild=guild),
            fake.create_user(f"p{number}b", guild=guild),
        )
        channel = fake.create_channel(guild, f"game-{number}")
        tables.append(Table(channel, players, random.Random(number)))
    return tables


async def set_up(driver: Driver, tables: list[Table], plan: Plan, run: Run) -> None:
    """Start every game, a few at a time."""
    gate = asyncio.Semaphore(plan.setup_at_once)

    async def one(table: Table) -> None:
        async with gate:
            await open_game(driver, table, run)

    tasks = [asyncio.create_task(one(table)) for table in tables]
    try:
        await asyncio.gather(*tasks)
    finally:
        await cancel_all(tasks)


def cpu_used(
    before: dict[str, float | None], after: dict[str, float | None]
) -> dict[str, float | None]:
    """CPU seconds used between two snapshots (``None`` where either is unknown)."""
    used: dict[str, float | None] = {}
    for key, value in after.items():
        was = before.get(key)
        used[key] = None if value is None or was is None else value - was
    return used


async def closed_loop(
    driver: Driver,
    tables: list[Table],
    plan: Plan,
    run: Run,
    phase: Phase,
    bot: BotProcess,
    postgres: int | None,
) -> None:
    """Play every game at once, each player moving as soon as answered; measure after the
    warm-up for ``plan.seconds``, then let every player wait for their last answer.

    The last answers are waited for, rather than the players cancelled, so that a bot that
    stalls near the end of the window fails the run (or shows in the figures) instead of
    leaving its slowest moves out of them."""
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(play(driver, table, run, phase, plan.think, stop)) for table in tables
    ]

    playing = set(tasks)

    async def run_for(seconds: float) -> None:
        # A game ends before ``stop`` only when it is dropped (and counted) or has failed: then
        # say why now.
        deadline = time.perf_counter() + seconds
        while playing and (left := deadline - time.perf_counter()) > 0:
            done, _ = await asyncio.wait(playing, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                playing.discard(task)
                task.result()
        if not playing:
            raise BenchFailure("every game was dropped")

    try:
        run.step = "warming up (closed loop)"
        await run_for(plan.warm_up)
        run.step = "measuring (closed loop)"
        before = cpu_snapshot(bot, postgres)
        start = time.perf_counter()
        await run_for(plan.seconds)
        stop.set()
        end = time.perf_counter()
        phase.cpu = cpu_used(before, cpu_snapshot(bot, postgres))
        phase.window = (start, end)
        run.step = "waiting for the last answers (closed loop)"
        # Each wait inside is bounded; the margin covers a rematch's three in a row.
        done, pending = await asyncio.wait(tasks, timeout=4 * WAIT)
        for task in done:
            task.result()  # raises what went wrong in that game
        if pending:
            raise BenchFailure(f"{len(pending)} games still waited for the bot")
    finally:
        run.step = "stopping the games"
        await cancel_all(tasks)


async def open_loop(
    driver: Driver,
    tables: list[Table],
    plan: Plan,
    run: Run,
    phase: Phase,
    bot: BotProcess,
    postgres: int | None,
) -> None:
    """Send moves at the times of a Poisson process of ``phase.rate`` a second, whatever the
    bot answers; measure the arrivals of ``plan.seconds`` after the warm-up, then wait for
    their answers until :data:`WAIT` seconds after the window (later: unanswered).

    A game is ready for an arrival once its player has picked a move from autocomplete; the
    arrival waits for one when none is (and its latency counts the wait). A game whose
    interaction the bot never answers is dropped (``phase.dropped``): its state is unknown."""
    assert phase.rate is not None
    ready: asyncio.Queue[Table] = asyncio.Queue()
    preparing: list[asyncio.Task[None]] = []
    moving: list[asyncio.Task[None]] = []

    async def prepare(table: Table) -> None:
        try:
            await get_ready(driver, table, run, phase)
        except (NoAnswer, GameLost):
            phase.dropped += 1
            return
        ready.put_nowait(table)

    async def move(table: Table, arrival: Timed) -> None:
        try:
            await send_move(driver, table, arrival)
        except NoAnswer:
            phase.dropped += 1
            return
        preparing.append(asyncio.create_task(prepare(table)))

    begin = time.perf_counter()
    start, end = begin + plan.warm_up, begin + plan.warm_up + plan.seconds
    phase.moves = [Timed(at) for at in poisson_arrivals(phase.rate, begin, end, ARRIVAL_SEED)]

    async def schedule() -> None:
        for arrival in phase.moves:
            await sleep_until(arrival.at)
            if ready.empty() and arrival.at >= start:
                phase.waited_for_game += 1
            table = await ready.get()
            moving.append(asyncio.create_task(move(table, arrival)))

    preparing.extend(asyncio.create_task(prepare(table)) for table in tables)
    scheduler = asyncio.create_task(schedule())
    try:
        run.step = "warming up (open loop)"
        await sleep_until(start)
        before = cpu_snapshot(bot, postgres)
        run.step = "measuring (open loop)"
        await sleep_until(end)
        phase.cpu = cpu_used(before, cpu_snapshot(bot, postgres))
        phase.window = (start, end)
        raise_failures([scheduler, *moving, *preparing])
        run.step = "waiting for the last answers (open loop)"
        cutoff = end + WAIT
        await asyncio.wait([scheduler], timeout=max(0.0, cutoff - time.perf_counter()))
        if moving:
            await asyncio.wait(moving, timeout=max(0.0, cutoff - time.perf_counter()))
        raise_failures([scheduler, *moving, *preparing])
    finally:
        run.step = "stopping the games"
        await cancel_all([scheduler, *moving, *preparing])


def read_log(run: Run, bot: BotProcess) -> None:
    """Note the errors and warnings the bot logged, and the durability it reported."""
    if not bot.log_path.exists():
        return
    text = bot.log_text()
    run.durability = sorted(set(DURABILITY.findall(text)))
    for entry in split_log(text):
        if "Traceback" in entry or " ERROR " in entry or " CRITICAL " in entry:
            # Without the timestamp, so that the same error counts as one kind.
            run.errors.append(TIMESTAMP.sub("", entry.splitlines()[0], count=1))
        elif " WARNING " in entry:
            run.warnings += 1
            if TOO_LATE in entry:
                run.too_late += 1


MOVE_LOG = (
    "SELECT games.channel_id, moves.move FROM moves JOIN games ON games.id = moves.game_id"
    " WHERE moves.kind = 'move' ORDER BY games.channel_id, games.id, moves.seq"
)
"""Every move played, by channel, in the order played (a rematch is a later game)."""


def _sqlite_move_log(path: str) -> list[tuple[int, str]]:
    connection = sqlite3.connect(path)
    try:
        return [(int(channel), str(move)) for channel, move in connection.execute(MOVE_LOG)]
    finally:
        connection.close()


async def move_log(config: Config, database: str) -> list[tuple[int, str]]:
    """The database's move log as (channel id, move) rows: what survived the bot's run, read
    over a connection of this process's own, after every bot process has exited."""
    if config.backend == "sqlite":
        return await asyncio.to_thread(_sqlite_move_log, database)
    import asyncpg

    connection = await asyncpg.connect(database)  # the URL names the run's schema
    try:
        rows = await connection.fetch(MOVE_LOG)
    finally:
        await connection.close()
    return [(int(row[0]), str(row[1])) for row in rows]


async def read_back(config: Config, database: str, tables: list[Table]) -> ReadBack:
    """Look for every move the bot acknowledged in the database, channel by channel and in the
    order the players saw them played."""
    try:
        rows = await move_log(config, database)
    except Exception as error:  # sqlite3's, asyncpg's and the socket's errors alike
        raise BenchFailure(f"cannot read the move log back: {error}") from None
    logged: dict[int, list[str]] = {}
    for channel, move in rows:
        logged.setdefault(channel, []).append(move)
    acknowledged = found = kept = 0
    missing: list[str] = []
    for table in tables:
        log = logged.get(table.channel.id, [])
        kept += len(log)
        at = 0
        for move in table.acknowledged:
            acknowledged += 1
            try:
                at = log.index(move, at) + 1
            except ValueError:
                missing.append(f"{table.channel.name}: {move}")
                continue
            found += 1
    return ReadBack(acknowledged, found, kept, tuple(missing[:5]))


def filesystem(path: Path) -> str | None:
    """The type and device of the filesystem holding ``path`` (from /proc/mounts)."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return None
    real = os.path.realpath(path)
    best: tuple[str, str, str] | None = None
    for line in mounts:
        parts = line.split()
        if len(parts) < 3:
            continue
        device, point, kind = parts[0], parts[1].replace("\\040", " "), parts[2]
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) > len(best[0])):
            best = (point, kind, device)
    return None if best is None else f"{best[1]} ({best[2]}, mounted on {best[0]})"


async def measure(
    config: Config, plan: Plan, folder: Path, server: Postgres, *, keep: bool = False
) -> Run:
    """Run one configuration from a fresh stand-in, database and bot; return what it measured.

    ``keep`` keeps the PostgreSQL schema."""
    run = Run(config)
    loaded = load_average()
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    database = str(folder / "tafl.sqlite3")
    postgres = None
    if config.backend == "postgresql":
        postgres = server.pid
        run.storage = filesystem(server.folder) if server.folder is not None else None
        try:
            database = await pg_server.fresh_schema(server.url)
        except Exception as error:  # asyncpg's and the socket's errors alike
            raise BenchFailure(
                f"cannot create a schema in PostgreSQL at {redact(server.url)}: {error}"
            ) from None
    else:
        run.storage = filesystem(folder)
    # Where the database writes: PostgreSQL's data folder when known (and writable from here).
    probe = server.folder if config.backend == "postgresql" and server.folder else folder
    run.fsync = await asyncio.to_thread(fsync_cost, probe, explain=False)
    async with FakeDiscord(recommended_shards=SHARDS, max_concurrency=SHARDS) as fake:
        tables = make_tables(fake, plan.games)
        env = bot_env(fake, None, folder, {"TAFL_DATABASE": database})
        bot = BotProcess(
            env, folder / "bot.log", args=("cluster", "--processes", str(config.processes))
        )
        finished = False
        try:
            try:
                started = time.perf_counter()
                await asyncio.wait_for(bot.start(fake, None), WAIT * 3)
                await fake.wait_until_connected(
                    identifies=SHARDS, shard_count=SHARDS, timeout=WAIT * 2
                )
                run.start_seconds = time.perf_counter() - started
            except AssertionError as error:  # it exited during start-up
                raise BenchFailure(str(error)) from None

            async def games() -> None:
                async with Driver(fake) as driver:
                    run.step = "starting the games"
                    started = time.perf_counter()
                    await set_up(driver, tables, plan, run)
                    run.setup_seconds = time.perf_counter() - started
                    for mode in plan.modes:
                        phase = Phase(mode, rate=plan.rate if mode == "open" else None)
                        run.phases.append(phase)
                        loop = closed_loop if mode == "closed" else open_loop
                        await loop(driver, tables, plan, run, phase, bot, postgres)

            await bounded(games(), bot, plan.budget)
            finished = True
        except (BenchFailure, TimeoutError) as error:
            what = f"{error}\n({run.progress()})"
            if isinstance(error, TimeoutError):
                what = f"the bot stopped answering: {what}"
            tail = "\n".join(bot.log_text().splitlines()[-20:]) if bot.log_path.exists() else ""
            raise BenchFailure(f"{what}\n---- end of the bot's log ----\n{tail}") from None
        finally:
            run.shutdown = await bot.stop()
            run.stand_in = fake.problems()
            try:
                if finished:
                    run.step = "reading the moves back from the database"
                    run.read_back = await read_back(config, database, tables)
            finally:
                if config.backend == "postgresql" and not keep:
                    with contextlib.suppress(Exception):
                        await pg_server.drop_schema(database)
    read_log(run, bot)
    run.load = (loaded, load_average())
    return run


# -- the report ------------------------------------------------------------------------------


def cpu_count_line(plan: Plan) -> str:
    """How many CPUs there are, and whether the largest cluster oversubscribes them."""
    count = os.cpu_count() or 1
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else count
    line = f"CPUs: {count} (os.cpu_count()), {usable} usable by this process"
    most = max(plan.processes, default=1)
    if most > usable:
        line += (
            f"; this machine has {usable} cores, so {most} bot processes oversubscribe it"
            " (and PostgreSQL, the stand-in and the driver run on the same cores)"
        )
    else:
        line += "; the bot processes share them with PostgreSQL, the stand-in and the driver"
    return line


def fsync_cost(folder: Path, writes: int = 50, *, explain: bool = True) -> str | None:
    """How long an fsync takes on ``folder``'s filesystem: ``writes`` times a 4 KB write and
    ``fdatasync``, as a commit's WAL write is (``None`` where that cannot be done). ``explain``
    says what a very quick one means."""
    probe = folder / "fsync-probe"
    times = []
    try:
        handle = os.open(probe, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            for number in range(writes):
                os.pwrite(handle, b"x" * 4096, (number % 16) * 4096)
                started = time.perf_counter()
                os.fdatasync(handle)
                times.append(time.perf_counter() - started)
        finally:
            os.close(handle)
            probe.unlink()
    except (OSError, AttributeError):  # no fdatasync on some systems
        return None
    where = filesystem(folder) or "its filesystem"
    median = percentile(times, 0.5)
    line = (
        f"fsync on {where}: median {median * 1000.0:.3f} ms, max {max(times) * 1000.0:.3f} ms "
        f"({writes} writes of 4 KB, each followed by fdatasync)"
    )
    if explain and median < FAST_FSYNC:
        line += (
            "; that fast, a write cache acknowledges the flush (a drive's with power-loss "
            "protection, or a virtual machine's host): a commit costs less here than on storage "
            "that waits for the medium"
        )
    return line


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes."""
    try:
        return ", ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def describe_durability(reported: str) -> tuple[str, bool]:
    """What a durability line the bot logged means, and whether an announced move survives an
    operating-system crash or a power loss."""
    found = SQLITE_DURABILITY.fullmatch(reported)
    if found is not None:
        mode, level = found.group(1).lower(), found.group(2).upper()
        journal = "WAL" if mode == "wal" else f"journal_mode={mode}"
        if level in ("FULL", "EXTRA"):
            return f"SQLite {journal}, synchronous={level} (fsync per commit)", True
        if level == "NORMAL" and mode == "wal":
            meaning = "no fsync per commit, only at checkpoints: a power loss can lose the last"
            return f"SQLite {journal}, synchronous={level} ({meaning} commits)", False
        return f"SQLite {journal}, synchronous={level} (not durable)", False
    found = POSTGRES_DURABILITY.fullmatch(reported)
    if found is not None:
        fsync, commit = found.group(1).lower(), found.group(2).lower()
        settings = f"PostgreSQL fsync={fsync}, synchronous_commit={commit}"
        if fsync != "on":
            meaning = (
                "nothing is forced to disk: an operating-system crash or a power loss can lose "
                "commits or corrupt the database; not durable"
            )
            return f"{settings} ({meaning})", False
        if commit == "off":
            meaning = "a commit returns before its WAL is flushed: a crash can lose the last ones"
            return f"{settings} ({meaning})", False
        return f"{settings} (each commit's WAL flushed to disk before it returns)", True
    return f"{reported} (not understood by this benchmark)", False


def durability_of(run: Run) -> tuple[list[str], bool]:
    """What the run's bot processes reported, explained, and whether all of it was durable."""
    if not run.durability:
        return ["unknown: the bot did not report it"], False
    described = [describe_durability(line) for line in run.durability]
    return [text for text, _ in described], all(durable for _, durable in described)


def share(seconds: float | None, window: float) -> str:
    """CPU seconds as a share of one core over ``window`` (n/a: a server not started here)."""
    return "n/a" if seconds is None else f"{100.0 * seconds / window:.0f}%"


def ms(seconds: float) -> str:
    """Seconds in milliseconds; ``never`` for an interaction the bot did not answer."""
    return "never" if math.isinf(seconds) else f"{seconds * 1000.0:.1f}"


def quantiles(samples: list[Timed]) -> tuple[str, str, str]:
    """Median, p95 and p99 latency of ``samples`` (unanswered ones count as the slowest)."""
    if not samples:
        return ("n/a", "n/a", "n/a")
    values = [math.inf if s.latency is None else s.latency for s in samples]
    return (
        ms(percentile(values, 0.5)),
        ms(percentile(values, 0.95)),
        ms(percentile(values, 0.99)),
    )


def bot_and_database_cpu(run: Run, phase: Phase) -> float | None:
    """CPU seconds the bot and its database used in the window (``None``: not all known)."""
    bot = phase.cpu.get("bot")
    if bot is None:
        return None
    if run.config.backend == "sqlite":
        return bot  # SQLite runs inside the bot's processes
    database = phase.cpu.get("postgres")
    return None if database is None else bot + database


def per_cpu_second(run: Run, phase: Phase) -> str:
    """Answered moves of the window per CPU-second of the bot and its database."""
    cpu = bot_and_database_cpu(run, phase)
    if cpu is None or cpu <= 0:
        return "n/a"
    return f"{len(phase.answered(phase.moves)) / cpu:.1f}"


def table_row(run: Run, phase: Phase) -> str:
    """The table's line for one window."""
    moves = phase.in_window(phase.moves)
    answered = phase.answered(phase.moves)
    median, p95, p99 = quantiles(moves)
    late = sum(1 for move in moves if move.late)
    failed = sum(1 for move in moves if move.refused)
    _, durable = durability_of(run)
    name = run.config.name + ("" if durable else "*")
    row = (
        f"{name:<14} {run.config.processes:>9} {run.games:>6} {len(moves):>7} {median:>10} "
        f"{p95:>8} {p99:>8} {late:>5} {failed:>6}"
    )
    if phase.mode == "open":
        row += f" {len(moves) - len(answered):>10}"
    others = share(other_work(phase.cpu), phase.seconds)
    return (
        f"{row} {len(answered) / phase.seconds:>8.1f} {per_cpu_second(run, phase):>11} {others:>8}"
    )


def report(results: list[Run], plan: Plan, loads: tuple[str, str], disk: str | None) -> None:
    """Print a table of figures per kind of window, then a few details per configuration.

    ``loads`` is the load average before and after the run; ``disk``, what an fsync cost."""
    print()
    print(cpu_count_line(plan))
    print(
        f"load average (1, 5, 15 min): {loads[0]} before the run, {loads[1]} after it (the "
        "run's own processes count in it)"
    )
    if disk is not None:
        print(disk)
    print(
        f"{plan.games} games at once over {SHARDS} shards and {GUILDS} guilds; each window "
        f"{plan.seconds:g} s, after {plan.warm_up:g} s of warm-up"
    )
    for mode in plan.modes:
        windows = [(run, phase) for run in results for phase in run.phases if phase.mode == mode]
        header = (
            f"{'configuration':<14} {'processes':>9} {'games':>6} {'moves':>7} "
            f"{'median ms':>10} {'p95 ms':>8} {'p99 ms':>8} {'late':>5} {'failed':>6}"
        )
        if mode == "open":
            header += f" {'unanswered':>10}"
        header += f" {'moves/s':>8} {'moves/CPU-s':>11} {'others':>8}"
        print()
        if mode == "closed":
            pace = (
                f"{plan.think:g} s after their previous move is answered"
                if plan.think > 0
                else "as soon as their previous move is answered"
            )
            print(f"Closed loop, a saturation test: each player moves {pace}.")
            print(
                "Its latency is the queue this keeps full (about games / throughput), not what "
                "a player feels; read its moves/s."
            )
        else:
            print(
                f"Open loop: moves arrive at {plan.rate:g} a second in all (Poisson, seed "
                f"{ARRIVAL_SEED}), whatever the bot answers;"
            )
            print(
                "latency from each move's scheduled arrival (any wait on the way to the bot "
                "included) to the bot's answer: what a player feels."
            )
        print(header)
        print("-" * len(header))
        for run, phase in windows:
            print(table_row(run, phase))
        if mode == "closed":
            queues = ", ".join(
                f"{run.config.name} {run.config.processes}: "
                f"{plan.games / (len(phase.answered(phase.moves)) / phase.seconds) * 1000:.0f} ms"
                for run, phase in windows
                if phase.answered(phase.moves)
            )
            print(
                f"the queue, games / (moves/s): {queues}; the latency follows it, less each "
                "turn's autocomplete"
            )
            print(
                f"moves: sent in the window; late: the board came after Discord's {DEADLINE:g} "
                "s, in the percentiles with its real latency; failed: of those, moves whose "
                'first response Discord refused (the player saw "This interaction failed")'
            )
        else:
            print(
                f"moves: scheduled in the window; late: the board came over {DEADLINE:g} s "
                "after arrival; failed: of those, moves whose first response Discord refused; "
                f"unanswered: no answer {WAIT:g} s after the window (counted as the slowest)"
            )
        print(
            "moves/s: moves of the window answered, per second; moves/CPU-s: the same moves "
            "per CPU-second used in the window by the bot's processes and the database's;"
        )
        print(
            "others: the CPU everything else on the machine used in the window (100% = one "
            "core), other work the figures shared the cores with"
        )
    not_durable = [run for run in results if not durability_of(run)[1]]
    if not_durable:
        print()
        for run in not_durable:
            print(
                f"* NOT DURABLE: {run.config.name}, {run.config.processes} process(es), ran with "
                + "; ".join(durability_of(run)[0])
            )
    print()
    for run in results:
        details(run)


def details(run: Run) -> None:
    """A configuration's durability, autocomplete, CPU and bot's health."""
    print(f"{run.config.name}, {run.config.processes} process(es):")
    where = f"; data on {run.storage}" if run.storage else ""
    for line in durability_of(run)[0]:
        print(f"  durability: {line}{where}")
    if run.fsync is not None:
        print(f"  just before it: {run.fsync}")
    if run.read_back is not None:
        print(f"  {read_back_line(run.read_back)}")
    for phase in run.phases:
        completions = phase.in_window(phase.completions)
        cpu, window = phase.cpu, phase.seconds
        print(f"  {phase.label()}:")
        if completions:
            median, p95, _ = quantiles(completions)
            late = sum(1 for sample in completions if sample.late)
            print(
                f"    autocomplete: {len(completions)} answered, median {median} ms, p95 "
                f"{p95} ms, {late} late"
            )
        database = (
            f", PostgreSQL {share(cpu.get('postgres'), window)}"
            if run.config.backend == "postgresql"
            else ""
        )
        used = bot_and_database_cpu(run, phase)
        counted = "the bot" if run.config.backend == "sqlite" else "the bot and PostgreSQL"
        per_cpu = (
            "n/a (the database's CPU is not visible here)"
            if used is None
            else f"{len(phase.answered(phase.moves))} moves / {used:.1f} CPU s of {counted}"
        )
        steal = cpu.get("steal") or 0.0
        stolen = (
            f", taken by the hypervisor {share(steal, window)}" if steal > 0.01 * window else ""
        )
        print(
            f"    CPU in the window (100% = one core): bot {share(cpu.get('bot'), window)}"
            f"{database}, stand-in and driver {share(cpu.get('driver'), window)}, everything "
            f"else on the machine {share(other_work(cpu), window)}{stolen}; moves per "
            f"CPU-second: {per_cpu}"
        )
        if phase.mode == "open":
            moves = phase.in_window(phase.moves)
            delays = [move.sent - move.at for move in moves if move.sent is not None]
            if delays:
                print(
                    "    from arrival to the bot's gateway connection (a queue there: the bot or "
                    f"the machine behind): median {ms(percentile(delays, 0.5))} ms, p99 "
                    f"{ms(percentile(delays, 0.99))} ms; {phase.waited_for_game} arrivals found "
                    "no game ready"
                )
        unanswered = f", or an interaction unanswered for {WAIT:g} s" if phase.rate else ""
        print(
            f"    games dropped: {phase.dropped} (both rematch offers answered too late"
            f"{unanswered})"
        )
    print(f"  load average (1, 5, 15 min): {run.load[0]} at the start, {run.load[1]} at the end")
    code = "cleanly" if run.shutdown == 0 else f"with status {run.shutdown}"
    print(
        f"  bot up in {run.start_seconds:.1f} s, {run.games} games started in "
        f"{run.setup_seconds:.1f} s, {run.rematches} rematches; stopped {code}; "
        f"log: {len(run.errors)} errors, {run.warnings} warnings"
        + (f" ({run.too_late} of them answers too late for Discord)" if run.too_late else "")
    )
    for line, count in Counter(run.errors).most_common(3):
        print(f"    {count} x {line[:150]}")
    for problem in run.stand_in[:3]:
        print(f"    stand-in: {problem[:160]}")


def read_back_line(seen: ReadBack) -> str:
    """What reading the acknowledged moves back from the database found."""
    told = (
        f"{seen.acknowledged} moves acknowledged to the players (answered in time with the new "
        "board, warm-ups included)"
    )
    if seen.complete:
        others = seen.rows - seen.acknowledged
        held = (
            f"it holds {others} more moves of these games, answered late or not at all"
            if others
            else "and no other move"
        )
        return (
            f"read back once the bot had stopped: all {told} are in the database's move log, in "
            f"the order played ({held})"
        )
    return (
        f"read back once the bot had stopped: MISSING {seen.acknowledged - seen.found} of {told} "
        f"from the database's move log, e.g. {', '.join(seen.missing)}"
    )


def problems(results: list[Run], plan: Plan) -> list[str]:
    """What did not work (an empty list when every configuration measured what it should)."""
    found = []
    for run in results:
        where = f"{run.config.name} with {run.config.processes} process(es)"
        if run.games < plan.games:
            found.append(f"{where}: only {run.games} of {plan.games} games started")
        for phase in run.phases:
            if not phase.answered(phase.moves):
                found.append(f"{where}, {phase.label()}: no move of the window was answered")
        if run.read_back is None:
            found.append(f"{where}: the moves were not read back from the database")
        elif not run.read_back.complete:
            lost = run.read_back.acknowledged - run.read_back.found
            found.append(f"{where}: {lost} acknowledged moves are not in the database")
    return found


# -- running it ------------------------------------------------------------------------------


def parse_processes(text: str) -> tuple[int, ...]:
    """``1,2,4`` as a tuple; each between 1 and the shard count."""
    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not counts or not all(1 <= count <= SHARDS for count in counts):
        raise argparse.ArgumentTypeError(f"each count must be between 1 and {SHARDS}")
    return counts


async def run_all(
    plan: Plan,
    folder: Path,
    postgres_url: str,
    server: pg_server.PostgresServer | None,
    *,
    keep: bool,
) -> list[Run]:
    """Every configuration in turn."""
    configs = [Config("sqlite", 1)] + [Config("postgresql", p) for p in plan.processes]
    try:
        postgres = await find_postgres(postgres_url, server)
    except Exception as error:  # asyncpg's and the socket's errors alike
        raise BenchFailure(f"cannot reach PostgreSQL at {redact(postgres_url)}: {error}") from None
    results = []
    for config in configs:
        print(f"{config.name}, {config.processes} process(es): ", end="", flush=True)
        started = time.perf_counter()
        run = await measure(config, plan, folder / config.slug, postgres, keep=keep)
        counts = ", ".join(
            f"{phase.label()} {len(phase.answered(phase.moves))}" for phase in run.phases
        )
        print(
            f"moves answered in the window: {counts}; done in "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        results.append(run)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when it measured every configuration."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a short run that checks the benchmark works, in closed and then open loop",
    )
    parser.add_argument("--games", type=int, help="games played at once (default 200)")
    parser.add_argument(
        "--processes",
        type=parse_processes,
        help="bot process counts to run on PostgreSQL, e.g. 1,2,4 (the default)",
    )
    parser.add_argument("--seconds", type=float, help="the measured window (default 30)")
    parser.add_argument(
        "--rate",
        type=float,
        metavar="MOVES_PER_SECOND",
        help="open loop: moves arrive at this rate in all (Poisson), whatever the bot answers; "
        f"latency from each move's arrival (default: closed loop; --smoke: {SMOKE_RATE:g} "
        "after its closed loop)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="closed loop: seconds each player waits before a move (default 0: as soon as it "
        "is their turn)",
    )
    parser.add_argument(
        "--postgres-fsync",
        choices=("on", "off"),
        help="the throwaway PostgreSQL's fsync: on (its default, durable) or off (faster, not "
        "durable; the output says so)",
    )
    parser.add_argument(
        "--postgres-url",
        help=f"an existing PostgreSQL database (default: ${pg_server.URL_VARIABLE}, else a "
        "throwaway server)",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="FOLDER",
        help="keep the bots' logs and databases in FOLDER (default: a temporary folder)",
    )
    args = parser.parse_args(argv)
    plan = SMOKE if args.smoke else FULL
    # The stand-in warns of every late answer; the report counts them instead.
    logging.getLogger("fakediscord").setLevel(logging.ERROR)
    if args.games is not None:
        if args.games < 1:
            parser.error("--games must be at least 1")
        plan = replace(plan, games=args.games)
    if args.processes is not None:
        plan = replace(plan, processes=args.processes)
    if args.seconds is not None:
        if args.seconds <= 0:
            parser.error("--seconds must be positive")
        plan = replace(plan, seconds=args.seconds)
    if args.think < 0:
        parser.error("--think cannot be negative")
    plan = replace(plan, think=args.think)
    if args.rate is not None:
        if args.rate <= 0:
            parser.error("--rate must be positive")
        if args.think > 0 and not args.smoke:
            parser.error("--think paces the closed loop; the open loop's pace is --rate")
        # A smoke run keeps its closed loop: it checks both ways work.
        plan = replace(plan, rate=args.rate, closed_loop=plan.closed_loop and args.smoke)

    started = time.perf_counter()
    loads_before = load_average()
    url = args.postgres_url or os.environ.get(pg_server.URL_VARIABLE) or None
    if url is not None and args.postgres_fsync is not None:
        parser.error(
            "--postgres-fsync sets up the throwaway server; a server given by URL runs as it "
            "is configured (and the output says how)"
        )
    server = None
    if url is None:
        try:
            server = pg_server.start(fsync=args.postgres_fsync != "off")
        except pg_server.PostgresUnavailable as missing:
            print(f"FAILED: no PostgreSQL: {missing}", file=sys.stderr)
            return 2
        url = server.url
    try:
        with contextlib.ExitStack() as stack:
            if args.keep is not None:
                folder = args.keep
                folder.mkdir(parents=True, exist_ok=True)
            else:
                folder = Path(
                    stack.enter_context(tempfile.TemporaryDirectory(prefix="tafl-scale-"))
                )
            disk = fsync_cost(folder)
            results = asyncio.run(run_all(plan, folder, url, server, keep=args.keep is not None))
    except BenchFailure as error:
        print(f"\nFAILED: {error}", file=sys.stderr)
        return 2
    finally:
        if server is not None:
            server.stop()
    report(results, plan, (loads_before, load_average()), disk)
    found = problems(results, plan)
    if found:
        print("FAILED: " + "; ".join(found), file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    if args.smoke:
        print(f"smoke run ok in {elapsed:.0f} s (speed not judged)")
    else:
        print(f"done in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
