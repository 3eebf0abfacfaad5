"""Interaction latency of the real bot: `.venv/bin/python benchmarks/bot_latency.py [--smoke]`.

Starts the local Discord stand-in (tests/fakediscord) and the real bot process (`python -m bot`,
with ``TAFL_LOOP_MONITOR=1``), then measures:

1. the time from a `/tafl move` interaction reaching the bot to its first response (the new
   board, rendered in a thread), over games between two people: median and 95th percentile.
   A game is resigned after 30 moves unless it ended on the board, and the players play a
   rematch: one offers it with `/tafl rematch`, the other accepts it with the offer's button;
2. while four AI games (four channels, level ``hard``) think at once: the event loop's worst lag
   as the bot itself logs it, and the latency of a cheap command (`/tafl variants`);
3. the time the bot takes to stop on SIGINT (Ctrl+C), sent while the AI games still think.

Targets: move median 50 ms or less, p95 150 ms or less; loop lag 50 ms or less; the bot stops
cleanly (exit status 0), not killed after 15 s.

Every wait for the bot is bounded (30 s), and so is the whole run (180 s): if the bot stops
answering or exits, the benchmark says how far it got and exits with status 2. Status 1 means
it worked but missed a target. ``--smoke`` is a short run of the same steps (10 moves, a game
resigned after 6, 4 s of load; about 10 s in all, 90 s at most) that checks the benchmark
works: moves answered, a rematch offered and accepted, every AI game answered, loop lag
reported. It prints the same figures but never judges them (exit 0 unless something did not
work). ``--keep FOLDER`` keeps the bot's log and database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the stand-in lives with the tests

from e2e_support import STOP_WAIT, BotProcess, bot_env, button_id  # noqa: E402
from fakediscord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
)

T = TypeVar("T")

WAIT = 30.0
"""The longest wait for any one answer of the bot."""
MENTION = re.compile(r"<@(\d+)>, your move")
LAG = re.compile(r"loop lag: worst ([\d.]+) ms")
MOVE_MEDIAN_TARGET_MS = 50.0
MOVE_P95_TARGET_MS = 150.0
LAG_TARGET_MS = 50.0
KILLED = -9
"""The exit status of a bot that had to be killed (SIGKILL)."""


@dataclass(frozen=True)
class Plan:
    """How much to measure."""

    moves: int
    """``/tafl move`` calls timed between two people."""
    game_moves: int
    """A game between people is resigned after this many moves, then rematched."""
    load_seconds: float
    """How long the cheap command is probed while the AI games think."""
    ai_games: int
    """AI games thinking at once during the load phase."""
    level: str
    """The AI level of those games."""
    limit: float
    """Seconds the whole run may take before it is declared stuck."""
    warm_up: int
    """First moves left out of the figures (they warm up the renderer's thread)."""


FULL = Plan(
    moves=60, game_moves=30, load_seconds=15.0, ai_games=4, level="hard", limit=180.0, warm_up=3
)
SMOKE = Plan(  # the same paths; the easy AI keeps a loaded machine (CI) from stalling it
    moves=10, game_moves=6, load_seconds=4.0, ai_games=4, level="easy", limit=90.0, warm_up=1
)


class BenchFailure(Exception):
    """The benchmark could not measure: the bot did not answer, or answered wrongly."""


@dataclass
class Figures:
    """Everything measured, in seconds."""

    moves: list[float] = field(default_factory=list)
    games: int = 0
    rematch_offers: list[float] = field(default_factory=list)
    rematch_accepts: list[float] = field(default_factory=list)
    cheap: list[float] = field(default_factory=list)
    lags_ms: list[float] = field(default_factory=list)
    ai_moves: dict[str, int] = field(default_factory=dict)
    """AI moves answered in each AI channel during the load phase."""
    phase: str = "starting the bot"
    shutdown: tuple[int | None, float] = (None, 0.0)
    """The bot's exit status after SIGINT (-9 when it had to be killed) and how long it took."""

    def progress(self) -> str:
        """How far the run got, for a failure message."""
        return (
            f"while {self.phase}: {len(self.moves)} moves timed, {self.games} games, "
            f"AI moves {self.ai_moves or 'none'}, {len(self.cheap)} cheap commands"
        )


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def game_over(text: str) -> bool:
    """Whether a board message announces the end of its game."""
    return "wins**" in text or "**Draw**" in text


def answer_text(interaction: FakeInteraction, what: str) -> str:
    """The text of the bot's first answer to ``interaction`` (fails if there is none)."""
    message = interaction.original_message
    if message is None:
        raise BenchFailure(f"{what}: the bot answered without a message: {interaction.responses}")
    return message.text


async def command(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, subcommand: str, **options: object
) -> FakeInteraction:
    """Send ``/tafl subcommand`` and wait (bounded) for the bot's first response."""
    interaction = await fake.send_slash_command(
        user, channel, "tafl", subcommand=subcommand, options=options
    )
    await interaction.wait_callback(timeout=WAIT)
    return interaction


async def legal_choice(
    fake: FakeDiscord, rng: random.Random, user: FakeUser, channel: FakeChannel
) -> str:
    """A random legal move for ``user``, as the bot's own autocomplete offers them."""
    ask = await fake.send_autocomplete(
        user, channel, "tafl", subcommand="move", focused="move", options={"move": ""}
    )
    await ask.wait_callback(timeout=WAIT)
    if not ask.choices:
        raise BenchFailure(f"the bot offered {user.username} no legal move in {channel.name}")
    return str(rng.choice(ask.choices)["value"])


async def first_board(fake: FakeDiscord, channel: FakeChannel, after: int) -> FakeMessage:
    """The first board of a game that has just begun in ``channel``."""
    return await fake.wait_for_message(
        channel, lambda m: "begins" in m.text and bool(m.attachments), after=after, timeout=WAIT
    )


async def accept_offer(
    fake: FakeDiscord, opponent: FakeUser, offer: FakeMessage, channel: FakeChannel
) -> tuple[FakeInteraction, FakeMessage]:
    """``opponent`` accepts a challenge or rematch offer; returns the click and the first board."""
    mark = fake.checkpoint()
    click = await fake.click_button(opponent, offer, button_id(offer, ":accept"))
    await click.wait_callback(timeout=WAIT)
    return click, await first_board(fake, channel, mark)


async def rematch(
    fake: FakeDiscord, asker: FakeUser, opponent: FakeUser, channel: FakeChannel, figures: Figures
) -> str:
    """``asker`` offers a rematch of the game that just ended and ``opponent`` accepts it.

    Returns the text of the new game's first board."""
    offer = await command(fake, asker, channel, "rematch")
    text = answer_text(offer, "/tafl rematch")
    if "asks for a rematch" not in text or offer.original_message is None:
        raise BenchFailure(f"/tafl rematch did not offer a rematch: {text!r}")
    accept, board = await accept_offer(fake, opponent, offer.original_message, channel)
    if offer.latency is not None:
        figures.rematch_offers.append(offer.latency)
    if accept.latency is not None:
        figures.rematch_accepts.append(accept.latency)
    figures.games += 1
    return board.text


async def move_latencies(
    fake: FakeDiscord, guild: FakeGuild, users: list[FakeUser], plan: Plan, figures: Figures
) -> None:
    """Time ``plan.moves`` moves between two people, playing rematches as games end."""
    figures.phase = "challenging"
    rng = random.Random(7)
    channel = fake.create_channel(guild, "bench-moves")
    first, second = users
    by_id = {u.id: u for u in users}
    ask = await command(fake, first, channel, "challenge", opponent=second)
    if ask.original_message is None or "challenges you" not in ask.original_message.text:
        raise BenchFailure(f"/tafl challenge was not posted: {ask.responses}")
    _, board = await accept_offer(fake, second, ask.original_message, channel)
    figures.games = 1
    figures.phase = "timing moves between people"
    text, in_game = board.text, 0
    while len(figures.moves) < plan.moves:
        found = MENTION.search(text)
        if game_over(text):
            text, in_game = await rematch(fake, first, second, channel, figures), 0
            continue
        if found is None:
            raise BenchFailure(f"no player to move and no result in the board message: {text!r}")
        mover = by_id[int(found.group(1))]
        if in_game >= plan.game_moves:
            resigned = await command(fake, mover, channel, "resign")
            text = answer_text(resigned, "/tafl resign")
            if not game_over(text):
                raise BenchFailure(f"/tafl resign did not end the game: {text!r}")
            continue
        move = await legal_choice(fake, rng, mover, channel)
        ix = await command(fake, mover, channel, "move", move=move)
        text = answer_text(ix, f"/tafl move {move}")
        if ix.latency is None or (MENTION.search(text) is None and not game_over(text)):
            raise BenchFailure(f"/tafl move {move} was not answered with a board: {text!r}")
        figures.moves.append(ix.latency)
        in_game += 1


async def keep_ai_busy(
    fake: FakeDiscord, channel: FakeChannel, human: FakeUser, level: str, figures: Figures
) -> None:
    """Answer every AI move at once, so the AI is always thinking in this channel; when a game
    ends, start another."""
    rng = random.Random(channel.name)
    figures.ai_moves[channel.name] = 0
    your_move = f"{human.mention}, your move"
    while True:
        mark = fake.checkpoint()
        ask = await command(
            fake, human, channel, "play", variant="tablut", level=level, side="defenders"
        )
        answer_text(ask, "/tafl play")
        while True:
            message = await fake.wait_for_message(
                channel,
                lambda m: your_move in m.text or game_over(m.text),
                after=mark,
                timeout=WAIT,
            )
            if game_over(message.text):
                break
            figures.ai_moves[channel.name] += 1
            mark = fake.checkpoint()
            move = await legal_choice(fake, rng, human, channel)
            ix = await command(fake, human, channel, "move", move=move)
            if game_over(answer_text(ix, f"/tafl move {move}")):
                break


async def under_load(
    fake: FakeDiscord,
    guild: FakeGuild,
    users: list[FakeUser],
    bot: BotProcess,
    plan: Plan,
    figures: Figures,
) -> None:
    """Cheap-command latencies and the bot's logged loop lags while AI games think."""
    players = [
        asyncio.create_task(
            keep_ai_busy(
                fake, fake.create_channel(guild, f"bench-ai-{i}"), user, plan.level, figures
            )
        )
        for i, user in enumerate(users[: plan.ai_games])
    ]
    figures.phase = "probing while AI games think"
    try:
        await asyncio.sleep(1.0)  # let the searches start
        log_start = await asyncio.to_thread(os.path.getsize, bot.log_path)
        prober, channel = users[-1], guild.channel("general")
        deadline = time.perf_counter() + plan.load_seconds
        while time.perf_counter() < deadline or not all(figures.ai_moves.values()):
            if time.perf_counter() > deadline + WAIT:
                idle = [name for name, count in figures.ai_moves.items() if not count]
                raise BenchFailure(f"the AI never moved in {', '.join(idle)}")
            failed = [task for task in players if task.done()]
            if failed:
                await failed[0]  # raises what stopped that game
                raise BenchFailure("an AI game stopped")
            ix = await command(fake, prober, channel, "variants")
            if ix.latency is None or ix.original_message is None:
                raise BenchFailure(f"/tafl variants was not answered: {ix.responses}")
            figures.cheap.append(ix.latency)
            await asyncio.sleep(0.1)
    finally:
        await cancel_all(players)
    figures.lags_ms = logged_lags(bot.log_path, log_start)


async def cancel_all(tasks: Sequence[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait for them to finish.

    The cancel is repeated: on Python 3.11, ``asyncio.wait_for`` swallows a cancellation that
    arrives as the awaited reply completes, and the task would go on playing.
    """
    pending = set(tasks)
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=0.5)


def logged_lags(log_path: Path, offset: int) -> list[float]:
    """The worst lags the bot logged after ``offset`` in its log."""
    with log_path.open("rb") as handle:
        handle.seek(offset)
        return [float(m.group(1)) for m in LAG.finditer(handle.read().decode(errors="replace"))]


async def bounded(work: Awaitable[T], bot: BotProcess, limit: float) -> T:
    """``work``'s result, unless the bot exits first or ``limit`` seconds pass."""
    assert bot.process is not None
    task = asyncio.ensure_future(work)
    exited = asyncio.ensure_future(bot.process.wait())
    try:
        done, _ = await asyncio.wait(
            {task, exited}, timeout=limit, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        for pending in (task, exited):
            if not pending.done():
                pending.cancel()
        await asyncio.gather(task, exited, return_exceptions=True)
    if task in done:
        return task.result()
    if exited in done:
        raise BenchFailure(f"the bot exited with status {exited.result()} during the benchmark")
    raise BenchFailure(f"the benchmark did not finish within {limit:.0f} s")


async def measure(plan: Plan, workdir: Path) -> Figures:
    """Start the stand-in and the bot, run both phases, stop the bot; return the figures."""
    figures = Figures()
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Bench")
        users = [fake.create_user(f"player{i}", guild=guild) for i in range(plan.ai_games + 3)]
        env = bot_env(fake, guild, workdir, {"TAFL_LOOP_MONITOR": "1"})
        bot = BotProcess(env, workdir / "bot.log")
        try:
            try:
                await asyncio.wait_for(bot.start(fake, guild), WAIT * 3)
            except AssertionError as error:  # it exited during start-up
                raise BenchFailure(str(error)) from None

            async def both_phases() -> None:
                await move_latencies(fake, guild, users[:2], plan, figures)
                await under_load(fake, guild, users[2:], bot, plan, figures)

            await bounded(both_phases(), bot, plan.limit)
        except (BenchFailure, TimeoutError) as error:
            what = f"{error}\n({figures.progress()})"
            if isinstance(error, TimeoutError):
                what = f"the bot stopped answering: {what}"
            tail = "\n".join(bot.log_text().splitlines()[-15:]) if bot.log_path.exists() else ""
            raise BenchFailure(f"{what}\n---- end of the bot's log ----\n{tail}") from None
        finally:
            stopping = time.perf_counter()
            code = await bot.stop()
            figures.shutdown = (code, time.perf_counter() - stopping)
    return figures


def report(plan: Plan, figures: Figures) -> bool:
    """Print the figures; true when every target is met."""
    ms = 1000.0
    moves = figures.moves[plan.warm_up :]
    median, p95 = statistics.median(moves) * ms, percentile(moves, 0.95) * ms
    print(
        f"/tafl move -> first response over {len(moves)} moves "
        f"(target <= {MOVE_MEDIAN_TARGET_MS:.0f} / <= {MOVE_P95_TARGET_MS:.0f} ms):"
    )
    print(f"  median {median:.1f} ms, p95 {p95:.1f} ms, max {max(moves) * ms:.1f} ms")
    print(
        f"  {figures.games} games, {len(figures.rematch_offers)} rematches offered and accepted "
        f"(offer median {statistics.median(figures.rematch_offers) * ms:.1f} ms, "
        f"accept median {statistics.median(figures.rematch_accepts) * ms:.1f} ms)"
    )
    ai_moves = sum(figures.ai_moves.values())
    print(
        f"while {len(figures.ai_moves)} AI games ({plan.level}) think, over "
        f"{plan.load_seconds:.0f} s ({ai_moves} AI moves answered):"
    )
    worst_lag = max(figures.lags_ms)
    print(
        f"  event loop worst lag {worst_lag:.1f} ms (target <= {LAG_TARGET_MS:.0f} ms; "
        f"{len(figures.lags_ms)} reports)"
    )
    cheap = figures.cheap
    print(
        f"  /tafl variants: median {statistics.median(cheap) * ms:.1f} ms, "
        f"p95 {percentile(cheap, 0.95) * ms:.1f} ms, max {max(cheap) * ms:.1f} ms "
        f"({len(cheap)} calls)"
    )
    code, seconds = figures.shutdown
    if code == KILLED:
        how = f"did not stop within {STOP_WAIT:.0f} s and was killed"
    else:
        how = "stopped cleanly" if code == 0 else f"stopped with status {code}"
    print(
        f"SIGINT with the AI games thinking -> the bot {how}: time to stop {seconds:.1f} s "
        "(target: exit status 0, no kill)"
    )
    return (
        median <= MOVE_MEDIAN_TARGET_MS
        and p95 <= MOVE_P95_TARGET_MS
        and worst_lag <= LAG_TARGET_MS
        and code == 0
    )


def problems(plan: Plan, figures: Figures) -> list[str]:
    """What did not work (an empty list when the benchmark measured everything it should)."""
    found: list[str] = []
    if len(figures.moves) < plan.moves:
        found.append(f"only {len(figures.moves)} of {plan.moves} moves were answered")
    if not figures.rematch_offers or len(figures.rematch_accepts) != len(figures.rematch_offers):
        found.append("no rematch was offered and accepted")
    idle = [name for name, count in figures.ai_moves.items() if not count]
    if len(figures.ai_moves) < plan.ai_games or idle:
        found.append(f"AI games that never moved: {idle or 'not started'}")
    if not figures.lags_ms:
        found.append("the bot logged no loop lag (TAFL_LOOP_MONITOR)")
    if not figures.cheap:
        found.append("/tafl variants was never answered")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when it worked (and, unless ``--smoke``, met its targets)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--smoke", action="store_true", help="a short run that checks the benchmark works"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="FOLDER",
        help="keep the bot's log and database in FOLDER (default: a temporary folder)",
    )
    args = parser.parse_args(argv)
    plan = SMOKE if args.smoke else FULL
    started = time.perf_counter()
    try:
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            figures = asyncio.run(measure(plan, args.keep))
        else:
            with tempfile.TemporaryDirectory(prefix="tafl-latency-") as tmp:
                figures = asyncio.run(measure(plan, Path(tmp)))
    except BenchFailure as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 2
    found = problems(plan, figures)
    if found:
        print("FAILED: " + "; ".join(found), file=sys.stderr)
        return 2
    ok = report(plan, figures)
    elapsed = time.perf_counter() - started
    if args.smoke:
        print(
            f"smoke run ok in {elapsed:.0f} s (targets not judged: "
            f"{'met' if ok else 'NOT met'} on this run)"
        )
        return 0
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
