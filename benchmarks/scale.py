"""Move latency as the bot scales out: `.venv/bin/python benchmarks/scale.py [--smoke]`.

Plays many games between people at once through the real bot, first as one process on SQLite,
then as 1, 2 and 4 processes (``python -m bot cluster --processes P``) sharing one PostgreSQL,
and prints for each: the moves answered, the median and 95th percentile of a move's latency, and
moves per second; also the CPU count, and how much CPU the bot, PostgreSQL and the stand-in used.

Each configuration gets a fresh Discord stand-in (tests/fakediscord) that recommends 4 shards
and lets all 4 identify at once, 8 guilds spread over the shards, a fresh database (an SQLite file;
a new schema in PostgreSQL) and a fresh bot. 200 games (``--games``) are started through the real
commands: ``/tafl challenge`` then the Accept button, each game in its own channel between two
members who play nothing else. Then every game is played at once, without pauses: the player to
move asks autocomplete for the legal moves (as Discord's client does while they type), picks one
at random, sends ``/tafl move`` and waits for the board; then it is the other player's turn. A game
that ends is rematched (``/tafl rematch`` and Accept). After a warm-up (5 s), a 30 s window
(``--seconds``) is measured.

What is timed: a move's latency is the time from the stand-in writing the ``/tafl move``
interaction to the bot's gateway connection to the bot's first response reaching the stand-in
(the interaction callback, which carries the new board). The moves sent in the window count
(at its end the players stop and wait for their last answers, so a slow one is not left out);
moves per second is their number over the window. Autocomplete is timed the same way and printed
apart. Answers later than Discord's 3 s limit are refused by the stand-in (as Discord would: the
player sees "This interaction failed"); they are counted as late, and timed all the same (the
time their answer reached the stand-in), so a slow bot cannot hide its slowest moves.

Each player waits for the answer before the next move, so the load is closed: the bot always has
about one interaction per game waiting, and the latency it shows under that load is roughly the
number of games over its throughput. This is a saturation test of the bot, not a model of people,
who think between moves (``--think SECONDS`` adds such a pause before each move).

The machine matters: the bot processes, their AI worker processes (idle here), PostgreSQL, the
stand-in and this driver all share its CPUs. This prints how many there are, and the CPU each
used in the window (from /proc). On 2 CPUs, 4 bot processes oversubscribe them.

Every wait for the bot is bounded (30 s), and so is each configuration (240 s): if the bot stops
answering or a process exits, the benchmark says how far it got and exits with status 2.
``--smoke`` is a short run (8 games, 2 s measured, SQLite and PostgreSQL with 2 processes, under
a minute) that checks the benchmark works; it judges no speed. PostgreSQL is the server
``--postgres-url`` or ``TAFL_TEST_POSTGRES_URL`` names, else a throwaway one (tests/pg_server.py).
``--keep FOLDER`` keeps the bots' logs and SQLite files (and the PostgreSQL schemas).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Literal, Self, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the stand-in lives with the tests
sys.path.insert(0, str(ROOT / "benchmarks"))

import pg_server  # noqa: E402
from bot_latency import (  # noqa: E402
    MENTION,
    WAIT,
    BenchFailure,
    answer_text,
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

LATE = re.compile(r"callback after ([\d.]+) s")
"""How the stand-in notes an answer it refused as late (``fakediscord/webhooks.py``)."""
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ +")
"""The start of an entry of the bot's log."""

Backend = Literal["sqlite", "postgresql"]
T = TypeVar("T")


@dataclass(frozen=True)
class Plan:
    """How much to measure."""

    games: int
    """Games played at once."""
    processes: tuple[int, ...]
    """Bot processes on PostgreSQL, one configuration each (after SQLite with one)."""
    warm_up: float
    """Seconds of play before the measured window."""
    seconds: float
    """The measured window."""
    limit: float
    """Seconds one configuration may take (setting up and playing) before it is stuck."""
    setup_at_once: int = 16
    """Games being set up at the same time: all 200 at once would only measure a queue."""
    think: float = 0.0
    """Seconds a player waits after seeing the board before asking for their moves."""


FULL = Plan(games=200, processes=(1, 2, 4), warm_up=5.0, seconds=30.0, limit=240.0)
SMOKE = Plan(games=8, processes=(2,), warm_up=0.5, seconds=2.0, limit=90.0)


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
class Stats:
    """What one configuration measured; times are ``time.perf_counter()`` seconds."""

    config: Config
    games: int = 0
    moves: list[tuple[float, float]] = field(default_factory=list)
    """(sent at, latency) of every ``/tafl move``, answered in time or not."""
    completions: list[tuple[float, float]] = field(default_factory=list)
    """The same for autocomplete."""
    late_moves: list[float] = field(default_factory=list)
    """When the moves answered too late (refused by the stand-in) were sent."""
    late_completions: list[float] = field(default_factory=list)
    """The same for autocomplete."""
    rematches: int = 0
    window: tuple[float, float] = (0.0, 0.0)
    cpu: dict[str, float | None] = field(default_factory=dict)
    """CPU seconds used in the window: the bot, PostgreSQL, the stand-in and driver."""
    start_seconds: float = 0.0
    setup_seconds: float = 0.0
    shutdown: int | None = None
    errors: list[str] = field(default_factory=list)
    """The bot's logged errors (first line of each)."""
    warnings: int = 0
    stand_in: list[str] = field(default_factory=list)
    phase: str = "starting the bot"

    def in_window(self, samples: list[tuple[float, float]]) -> list[float]:
        """The latencies of the samples sent to the bot inside the measured window (all
        answered: the players stop at the window's end and wait for their last answers)."""
        start, end = self.window
        return [latency for at, latency in samples if start <= at <= end]

    @property
    def seconds(self) -> float:
        return self.window[1] - self.window[0]

    def late_in_window(self, sent: list[float]) -> int:
        """How many of the late answers were to interactions sent inside the window."""
        start, end = self.window
        return sum(1 for at in sent if start <= at <= end)

    def progress(self) -> str:
        """How far the run got, for a failure message."""
        return (
            f"{self.config.name} with {self.config.processes} process(es), while {self.phase}: "
            f"{self.games} games started, {len(self.moves)} moves answered, "
            f"{len(self.late_moves)} moves answered late, {self.rematches} rematches"
        )


@dataclass
class Table:
    """One game's channel, its two players and who is to move (``None``: the game is over)."""

    channel: FakeChannel
    players: tuple[FakeUser, FakeUser]
    mover: FakeUser | None = None

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
        """``future``'s result within :data:`WAIT` seconds, else a :class:`BenchFailure`."""
        try:
            async with asyncio.timeout(WAIT):
                return await future
        except TimeoutError:
            if self._watcher is not None and self._watcher.done():
                await self._watcher  # raises what stopped it
            raise BenchFailure(f"the bot did not answer {what} within {WAIT:.0f} s") from None

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


async def open_game(driver: Driver, table: Table, stats: Stats) -> None:
    """The first player challenges the second, who accepts."""
    first, second = table.players
    ask = await driver.command(first, table.channel, "challenge", opponent=second)
    if ask.original_message is None or "challenges you" not in ask.original_message.text:
        raise BenchFailure(
            f"/tafl challenge was not posted in {table.channel.name}: "
            f"{ask.responses or ask.rejected}"
        )
    table.follow(await driver.accept(second, ask.original_message, table.channel))
    stats.games += 1


async def rematch(driver: Driver, table: Table, stats: Stats) -> None:
    """One player offers a rematch of the game that just ended; the other accepts.

    An offer answered too late never shows its Accept button (and the bot refuses the same
    player a second open offer), so then the other player offers instead, as people would."""
    for asker, opponent in (table.players, table.players[::-1]):
        offer = await driver.command(asker, table.channel, "rematch")
        if offer.callback is None:
            continue
        message = offer.original_message
        if message is None or "asks for a rematch" not in message.text:
            raise BenchFailure(
                f"/tafl rematch did not offer a rematch in {table.channel.name}: {offer.responses}"
            )
        table.follow(await driver.accept(opponent, message, table.channel))
        stats.rematches += 1
        return
    raise BenchFailure(f"both offers of a rematch in {table.channel.name} were answered late")


async def play(
    driver: Driver,
    table: Table,
    stats: Stats,
    rng: random.Random,
    think: float,
    stop: asyncio.Event,
) -> None:
    """Play the game at ``table`` move after move, each ``think`` seconds after the previous
    answer, until ``stop`` is set; then return once the last interaction is answered."""
    while not stop.is_set():
        mover = table.mover
        if mover is None:
            await rematch(driver, table, stats)
            continue
        if think > 0:
            await asyncio.sleep(think)
            if stop.is_set():
                break
        ask = await driver.choices(mover, table.channel)
        seconds, too_late = latency(ask)
        stats.completions.append((ask.dispatched_at or 0.0, seconds))
        if too_late:
            stats.late_completions.append(ask.dispatched_at or 0.0)
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
        if stop.is_set():
            break
        move = rng.choice(values)
        ix = await driver.command(mover, table.channel, "move", move=move)
        seconds, too_late = latency(ix)
        stats.moves.append((ix.dispatched_at or 0.0, seconds))
        if too_late:
            # The bot plays a move before it answers, so the turn passed all the same.
            stats.late_moves.append(ix.dispatched_at or 0.0)
            table.mover = table.other(mover)
            continue
        text = answer_text(ix, f"/tafl move {move} in {table.channel.name}")
        if ix.callback is not None and ix.callback.ephemeral:
            raise BenchFailure(f"/tafl move {move} in {table.channel.name} was refused: {text!r}")
        table.follow(text)


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


def postmaster_pid(server: pg_server.PostgresServer | None) -> int | None:
    """The PID of the throwaway PostgreSQL server (``None`` for a server named by URL)."""
    if server is None:
        return None
    try:
        return int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def cpu_snapshot(bot: BotProcess, postgres: int | None) -> dict[str, float | None]:
    """CPU seconds so far of the bot's processes, PostgreSQL's, and this one (the stand-in and
    the driver share it)."""
    table = _processes()
    return {
        "bot": tree_cpu(bot.process.pid if bot.process is not None else None, table),
        "postgres": tree_cpu(postgres, table),
        "driver": time.process_time(),
    }


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
        tables.append(Table(fake.create_channel(guild, f"game-{number}"), players))
    return tables


async def set_up(driver: Driver, tables: list[Table], plan: Plan, stats: Stats) -> None:
    """Start every game, a few at a time."""
    gate = asyncio.Semaphore(plan.setup_at_once)

    async def one(table: Table) -> None:
        async with gate:
            await open_game(driver, table, stats)

    tasks = [asyncio.create_task(one(table)) for table in tables]
    try:
        await asyncio.gather(*tasks)
    finally:
        await cancel_all(tasks)


async def play_all(
    driver: Driver,
    tables: list[Table],
    plan: Plan,
    stats: Stats,
    bot: BotProcess,
    postgres: int | None,
) -> None:
    """Play every game at once; measure after the warm-up for ``plan.seconds``, then let
    every player wait for their last answer.

    The last answers are waited for, rather than the players cancelled, so that a bot that
    stalls near the end of the window fails the run (or shows in the figures) instead of
    leaving its slowest moves out of them."""
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(play(driver, table, stats, random.Random(number), plan.think, stop))
        for number, table in enumerate(tables)
    ]

    async def run_for(seconds: float) -> None:
        # The games do not end before ``stop``: one that does has failed, so say why now.
        done, _ = await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            await task
            raise BenchFailure("a game stopped playing")

    try:
        stats.phase = "warming up"
        await run_for(plan.warm_up)
        stats.phase = "measuring"
        before = cpu_snapshot(bot, postgres)
        start = time.perf_counter()
        await run_for(plan.seconds)
        stop.set()
        end = time.perf_counter()
        after = cpu_snapshot(bot, postgres)
        stats.window = (start, end)
        for key, value in after.items():
            was = before.get(key)
            stats.cpu[key] = None if value is None or was is None else value - was
        stats.phase = "waiting for the last answers"
        # Each wait inside is bounded; the margin covers a rematch's three in a row.
        done, pending = await asyncio.wait(tasks, timeout=4 * WAIT)
        for task in done:
            task.result()  # raises what went wrong in that game
        if pending:
            raise BenchFailure(f"{len(pending)} games still waited for the bot")
    finally:
        stats.phase = "stopping the games"
        await cancel_all(tasks)


def read_log(stats: Stats, bot: BotProcess) -> None:
    """Note the errors and warnings the bot logged."""
    if not bot.log_path.exists():
        return
    for entry in split_log(bot.log_text()):
        if "Traceback" in entry or " ERROR " in entry or " CRITICAL " in entry:
            # Without the timestamp, so that the same error counts as one kind.
            stats.errors.append(TIMESTAMP.sub("", entry.splitlines()[0], count=1))
        elif " WARNING " in entry:
            stats.warnings += 1


async def measure(
    config: Config,
    plan: Plan,
    folder: Path,
    postgres_url: str | None,
    postgres: int | None,
    *,
    keep: bool = False,
) -> Stats:
    """Run one configuration from a fresh stand-in, database and bot; return what it measured.

    ``postgres`` is the PID of the PostgreSQL server (for its CPU use) when known; ``keep``
    keeps the PostgreSQL schema."""
    stats = Stats(config)
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    database = str(folder / "tafl.sqlite3")
    if config.backend == "postgresql":
        assert postgres_url is not None
        try:
            database = await pg_server.fresh_schema(postgres_url)
        except Exception as error:  # asyncpg's and the socket's errors alike
            raise BenchFailure(
                f"cannot create a schema in PostgreSQL at {redact(postgres_url)}: {error}"
            ) from None
    async with FakeDiscord(recommended_shards=SHARDS, max_concurrency=SHARDS) as fake:
        tables = make_tables(fake, plan.games)
        env = bot_env(fake, None, folder, {"TAFL_DATABASE": database})
        bot = BotProcess(
            env, folder / "bot.log", args=("cluster", "--processes", str(config.processes))
        )
        try:
            try:
                started = time.perf_counter()
                await asyncio.wait_for(bot.start(fake, None), WAIT * 3)
                await fake.wait_until_connected(
                    identifies=SHARDS, shard_count=SHARDS, timeout=WAIT * 2
                )
                stats.start_seconds = time.perf_counter() - started
            except AssertionError as error:  # it exited during start-up
                raise BenchFailure(str(error)) from None

            async def games() -> None:
                async with Driver(fake) as driver:
                    stats.phase = "starting the games"
                    started = time.perf_counter()
                    await set_up(driver, tables, plan, stats)
                    stats.setup_seconds = time.perf_counter() - started
                    await play_all(driver, tables, plan, stats, bot, postgres)

            await bounded(games(), bot, plan.limit)
        except (BenchFailure, TimeoutError) as error:
            what = f"{error}\n({stats.progress()})"
            if isinstance(error, TimeoutError):
                what = f"the bot stopped answering: {what}"
            tail = "\n".join(bot.log_text().splitlines()[-20:]) if bot.log_path.exists() else ""
            raise BenchFailure(f"{what}\n---- end of the bot's log ----\n{tail}") from None
        finally:
            stats.shutdown = await bot.stop()
            stats.stand_in = fake.problems()
            if config.backend == "postgresql" and not keep:
                with contextlib.suppress(Exception):
                    await pg_server.drop_schema(database)
    read_log(stats, bot)
    return stats


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


def share(seconds: float | None, window: float) -> str:
    """CPU seconds as a share of one core over ``window`` (n/a: a server not started here)."""
    return "n/a" if seconds is None else f"{100.0 * seconds / window:.0f}%"


def report(results: list[Stats], plan: Plan) -> None:
    """Print the table of figures, then a few details per configuration."""
    ms = 1000.0
    print()
    print(cpu_count_line(plan))
    pace = (
        f"{plan.think:g} s after the previous move is answered"
        if plan.think > 0
        else "as soon as the previous move is answered"
    )
    print(
        f"{plan.games} games at once over {SHARDS} shards and {GUILDS} guilds; each player "
        f"moves {pace}; {plan.seconds:g} s measured after {plan.warm_up:g} s of warm-up"
    )
    print()
    header = (
        f"{'configuration':<14} {'processes':>9} {'games':>6} {'moves':>7} {'median ms':>10} "
        f"{'p95 ms':>8} {'moves/s':>8} {'late':>5}"
    )
    print(header)
    print("-" * len(header))
    for stats in results:
        moves = stats.in_window(stats.moves)
        median = statistics.median(moves) * ms if moves else float("nan")
        p95 = percentile(moves, 0.95) * ms if moves else float("nan")
        print(
            f"{stats.config.name:<14} {stats.config.processes:>9} {stats.games:>6} "
            f"{len(moves):>7} {median:>10.1f} {p95:>8.1f} {len(moves) / stats.seconds:>8.1f} "
            f"{stats.late_in_window(stats.late_moves):>5}"
        )
    print(
        f"late: moves answered after Discord's {DEADLINE:g} s limit (the player saw \"This "
        'interaction failed"); they count in the median and p95 with their real latency'
    )
    print()
    for stats in results:
        completions = stats.in_window(stats.completions)
        cpu = stats.cpu
        window = stats.seconds
        print(f"{stats.config.name}, {stats.config.processes} process(es):")
        if completions:
            print(
                f"  autocomplete: {len(completions)} answered, median "
                f"{statistics.median(completions) * ms:.1f} ms, p95 "
                f"{percentile(completions, 0.95) * ms:.1f} ms, "
                f"{stats.late_in_window(stats.late_completions)} late"
            )
        database = (
            f", PostgreSQL {share(cpu.get('postgres'), window)}"
            if stats.config.backend == "postgresql"
            else ""
        )
        print(
            f"  CPU in the window (100% = one core): bot {share(cpu.get('bot'), window)}"
            f"{database}, stand-in and driver {share(cpu.get('driver'), window)}"
        )
        code = "cleanly" if stats.shutdown == 0 else f"with status {stats.shutdown}"
        print(
            f"  bot up in {stats.start_seconds:.1f} s, {stats.games} games started in "
            f"{stats.setup_seconds:.1f} s, {stats.rematches} rematches; stopped {code}; "
            f"log: {len(stats.errors)} errors, {stats.warnings} warnings"
        )
        for line, count in Counter(stats.errors).most_common(3):
            print(f"    {count} x {line[:150]}")
        for problem in stats.stand_in[:3]:
            print(f"    stand-in: {problem[:160]}")


def problems(results: list[Stats], plan: Plan) -> list[str]:
    """What did not work (an empty list when every configuration measured what it should)."""
    found = []
    for stats in results:
        where = f"{stats.config.name} with {stats.config.processes} process(es)"
        if stats.games < plan.games:
            found.append(f"{where}: only {stats.games} of {plan.games} games started")
        if not stats.in_window(stats.moves):
            found.append(f"{where}: no move was answered in the measured window")
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
    postgres_url: str | None,
    server: pg_server.PostgresServer | None,
    *,
    keep: bool,
) -> list[Stats]:
    """Every configuration in turn."""
    configs = [Config("sqlite", 1)] + [Config("postgresql", p) for p in plan.processes]
    results = []
    for config in configs:
        print(f"{config.name}, {config.processes} process(es): ", end="", flush=True)
        started = time.perf_counter()
        postgres = postmaster_pid(server) if config.backend == "postgresql" else None
        stats = await measure(config, plan, folder / config.slug, postgres_url, postgres, keep=keep)
        moves = len(stats.in_window(stats.moves))
        print(
            f"{moves} moves in the window, done in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
        results.append(stats)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when it measured every configuration."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--smoke", action="store_true", help="a short run that checks the benchmark works"
    )
    parser.add_argument("--games", type=int, help="games played at once (default 200)")
    parser.add_argument(
        "--processes",
        type=parse_processes,
        help="bot process counts to run on PostgreSQL, e.g. 1,2,4 (the default)",
    )
    parser.add_argument("--seconds", type=float, help="the measured window (default 30)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each player waits before a move (default 0: as soon as it is their turn)",
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

    started = time.perf_counter()
    url = args.postgres_url or os.environ.get(pg_server.URL_VARIABLE) or None
    server = None
    if url is None:
        try:
            server = pg_server.start()
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
            results = asyncio.run(run_all(plan, folder, url, server, keep=args.keep is not None))
    except BenchFailure as error:
        print(f"\nFAILED: {error}", file=sys.stderr)
        return 2
    finally:
        if server is not None:
            server.stop()
    found = problems(results, plan)
    if found:
        print("FAILED: " + "; ".join(found), file=sys.stderr)
        return 2
    report(results, plan)
    elapsed = time.perf_counter() - started
    if args.smoke:
        print(f"smoke run ok in {elapsed:.0f} s (speed not judged)")
    else:
        print(f"done in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
