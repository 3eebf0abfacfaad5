"""Interaction latency of the real bot: `.venv/bin/python benchmarks/bot_latency.py`.

Starts the local Discord stand-in (tests/fakediscord) and the real bot process (`python -m bot`,
with ``TAFL_LOOP_MONITOR=1``), then measures:

1. the time from a `/tafl move` interaction reaching the bot to its first response (the new
   board, rendered in a thread), over a game between two people: median and 95th percentile;
2. while four AI games (four channels, level ``hard``) think at once: the event loop's worst lag
   as the bot itself logs it, and the latency of a cheap command (`/tafl variants`).

Targets: move median 50 ms or less, p95 150 ms or less; loop lag 50 ms or less.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the stand-in lives with the tests

from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser  # noqa: E402

MOVES = 60
LOAD_SECONDS = 15.0
AI_GAMES = 4
WAIT = 30.0
MENTION = re.compile(r"<@(\d+)>, your move")
LAG = re.compile(r"loop lag: worst ([\d.]+) ms")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def start_bot(fake: FakeDiscord, guild: FakeGuild, workdir: Path) -> tuple[object, Path]:
    log_path = workdir / "bot.log"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAFL_"))},
        **fake.env(guild),
        "TAFL_DATABASE": str(workdir / "tafl.sqlite3"),
        "TAFL_LOOP_MONITOR": "1",
        "LOG_LEVEL": "INFO",
    }
    log = log_path.open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env, stdout=log, stderr=log
    )
    await fake.wait_until_connected(timeout=WAIT)
    await fake.wait_for_commands(guild, timeout=WAIT)
    await fake.sync(timeout=WAIT)
    return process, log_path


async def legal_choice(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> str:
    """A random legal move for ``user``, as the bot's own autocomplete offers them."""
    ask = await fake.send_autocomplete(
        user, channel, "tafl", subcommand="move", focused="move", options={"move": ""}
    )
    await ask.wait_callback(timeout=WAIT)
    return str(random.choice(ask.choices)["value"])


async def move_latencies(fake: FakeDiscord, guild: FakeGuild, users: list[FakeUser]) -> list[float]:
    """Play ``MOVES`` moves between two people; rematch when a game ends."""
    channel = fake.create_channel(guild, "bench-moves")
    first, second = users
    by_id = {u.id: u for u in users}
    ask = await fake.send_slash_command(
        first, channel, "tafl", subcommand="challenge", options={"opponent": second}
    )
    await ask.wait_callback(timeout=WAIT)
    assert ask.original_message is not None
    accept = next(c for c in ask.original_message.custom_ids if c.endswith(":accept"))
    mark = fake.checkpoint()
    await (await fake.click_button(second, ask.original_message, accept)).wait_callback()
    board = await fake.wait_for_message(
        channel, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    latencies: list[float] = []
    text = board.content
    while len(latencies) < MOVES:
        found = MENTION.search(text)
        if found is None:  # the game ended: play a rematch
            again = await fake.send_slash_command(first, channel, "tafl", subcommand="rematch")
            await again.wait_callback(timeout=WAIT)
            assert again.original_message is not None
            text = again.original_message.content
            continue
        mover = by_id[int(found.group(1))]
        move = await legal_choice(fake, mover, channel)
        ix = await fake.send_slash_command(
            mover, channel, "tafl", subcommand="move", options={"move": move}
        )
        await ix.wait_callback(timeout=WAIT)
        assert ix.latency is not None and ix.original_message is not None
        latencies.append(ix.latency)
        text = ix.original_message.content
    return latencies[3:]  # the first few warm up the renderer's thread


AI_MOVES: list[float] = []
"""When each AI move arrived during the load phase (proof the AI was really thinking)."""


async def keep_ai_busy(fake: FakeDiscord, channel: FakeChannel, human: FakeUser) -> None:
    """Answer every AI move at once, so the AI is always thinking in this channel."""
    mark = fake.checkpoint()
    ask = await fake.send_slash_command(
        human,
        channel,
        "tafl",
        subcommand="play",
        options={"variant": "tablut", "level": "hard", "side": "defenders"},
    )
    await ask.wait_callback(timeout=WAIT)
    while True:
        message = await fake.wait_for_message(
            channel, lambda m: f"{human.mention}, your move" in m.content, after=mark, timeout=120
        )
        AI_MOVES.append(time.perf_counter())
        mark = fake.checkpoint()
        move = await legal_choice(fake, human, channel)
        ix = await fake.send_slash_command(
            human, channel, "tafl", subcommand="move", options={"move": move}
        )
        await ix.wait_callback(timeout=WAIT)
        del message


async def under_load(
    fake: FakeDiscord, guild: FakeGuild, users: list[FakeUser], log_path: Path
) -> tuple[list[float], list[float]]:
    """Cheap-command latencies and the bot's logged loop lags while AI games think."""
    players = [
        asyncio.create_task(keep_ai_busy(fake, fake.create_channel(guild, f"bench-ai-{i}"), user))
        for i, user in enumerate(users[:AI_GAMES])
    ]
    await asyncio.sleep(1.0)  # let the searches start
    log_start = await asyncio.to_thread(os.path.getsize, log_path)
    prober, channel = users[-1], guild.channel("general")
    latencies: list[float] = []
    deadline = time.perf_counter() + LOAD_SECONDS
    while time.perf_counter() < deadline:
        ix = await fake.send_slash_command(prober, channel, "tafl", subcommand="variants")
        await ix.wait_callback(timeout=WAIT)
        assert ix.latency is not None
        latencies.append(ix.latency)
        await asyncio.sleep(0.1)
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    return latencies, logged_lags(log_path, log_start)


def logged_lags(log_path: Path, offset: int) -> list[float]:
    """The worst lags the bot logged after ``offset`` in its log."""
    with log_path.open("rb") as handle:
        handle.seek(offset)
        return [float(m.group(1)) for m in LAG.finditer(handle.read().decode(errors="replace"))]


async def main() -> int:
    random.seed(7)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            guild = fake.create_guild("Bench")
            users = [fake.create_user(f"player{i}", guild=guild) for i in range(AI_GAMES + 3)]
            process, log_path = await start_bot(fake, guild, Path(tmp))
            try:
                moves = await move_latencies(fake, guild, users[:2])
                cheap, lags = await under_load(fake, guild, users[2:], log_path)
            finally:
                process.send_signal(signal.SIGINT)  # type: ignore[attr-defined]
                await process.wait()  # type: ignore[attr-defined]
    ms = 1000.0
    median, p95 = statistics.median(moves) * ms, percentile(moves, 0.95) * ms
    print(f"/tafl move -> first response over {len(moves)} moves (target <= 50 / <= 150 ms):")
    print(f"  median {median:.1f} ms, p95 {p95:.1f} ms, max {max(moves) * ms:.1f} ms")
    print(
        f"while {AI_GAMES} AI games (hard) think, over {LOAD_SECONDS:.0f} s "
        f"({len(AI_MOVES)} AI moves answered):"
    )
    worst_lag = max(lags) if lags else float("nan")
    print(f"  event loop worst lag {worst_lag:.1f} ms (target <= 50 ms; {len(lags)} reports)")
    print(
        f"  /tafl variants: median {statistics.median(cheap) * ms:.1f} ms, "
        f"p95 {percentile(cheap, 0.95) * ms:.1f} ms, max {max(cheap) * ms:.1f} ms "
        f"({len(cheap)} calls)"
    )
    ok = median <= 50 and p95 <= 150 and worst_lag <= 50
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
