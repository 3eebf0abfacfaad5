"""End-to-end: the real bot stops promptly and cleanly on Ctrl+C (SIGINT) and on SIGTERM while
the AI is thinking in a worker process, and loses nothing.

Each test starts its own bot with one AI worker and three games against ``master`` (a search
of seconds each). Every player moves, so the AI has three searches to make one after the
other, longer in all than the bot lets interactions run at shutdown; then the signal comes.
Ctrl+C in a terminal reaches the bot's whole process group, its AI workers too: that case
has a worker more than games, one of them idle.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from e2e_support import WAIT, BotProcess, bot_env, split_log
from fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeUser

pytestmark = [pytest.mark.timeout(240)]

GAMES = 3
STOP_BOUND = 60.0
"""Only a timeout for a bot that hangs: a clean stop takes about a second."""


async def start_game(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> None:
    """``user`` plays the defenders against ``master``, which moves first."""
    mark = fake.checkpoint()
    started = await fake.send_slash_command(
        user,
        channel,
        "tafl",
        subcommand="play",
        options={"variant": "tablut", "level": "master", "side": "defenders"},
    )
    await started.wait_callback(timeout=WAIT)
    await fake.wait_for_message(
        channel, lambda m: f"{user.mention}, your move" in m.text, after=mark, timeout=WAIT
    )


async def send_move(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> FakeInteraction:
    """``user`` plays the first move the bot offers; returns the interaction once the bot has
    first answered it (it shows it is thinking while the AI searches its reply)."""
    ask = await fake.send_autocomplete(
        user, channel, "tafl", subcommand="move", focused="move", options={"move": ""}
    )
    await ask.wait_callback(timeout=WAIT)
    move = await fake.send_slash_command(
        user, channel, "tafl", subcommand="move", options={"move": ask.choices[0]["value"]}
    )
    await move.wait_callback(timeout=WAIT)
    return move


@pytest.mark.parametrize(
    ("signum", "group"),
    [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["SIGINT", "Ctrl+C to the process group", "SIGTERM"],
)
async def test_the_bot_stops_cleanly_while_the_ai_thinks(
    tmp_path: Path, signum: signal.Signals, group: bool
) -> None:
    """``group``: the signal reaches the bot's AI workers too, as Ctrl+C in a terminal does."""
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Tafl Club")
        users = [fake.create_user(f"player{i}", guild=guild) for i in range(GAMES)]
        channels = [fake.create_channel(guild, f"ai-game-{i}") for i in range(GAMES)]
        # Ctrl+C to the group needs a worker waiting for work too: it is the one that would
        # be interrupted at once (a search in the fast core notices it only when it ends).
        workers = GAMES + 1 if group else 1
        env = bot_env(fake, guild, tmp_path, {"TAFL_AI_WORKERS": str(workers)})
        bot = BotProcess(env, tmp_path / "bot.log", own_group=group)
        await bot.start(fake, guild)
        try:
            await asyncio.gather(*map(start_game, [fake] * GAMES, users, channels))
            await asyncio.gather(*map(send_move, [fake] * GAMES, users, channels))
            assert bot.process is not None
            if group:
                os.killpg(bot.process.pid, signum)
            else:
                bot.process.send_signal(signum)
            bot.interrupted = True  # stop() only waits from here
            code = await asyncio.wait_for(bot.process.wait(), STOP_BOUND)
        finally:
            await bot.stop()
        log = bot.log_text()
        print(log)
        assert code == 0, f"the bot exited with status {code}"
        errors = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
        assert not errors, "the bot logged errors:\n" + "\n".join(errors)
        assert "gave back the leases" in log  # its shutdown ran to the end
        # No player was left waiting: each move was answered with its board (the AI's reply
        # comes when the bot is back), none cut short by the stop.
        assert "interaction(s) still running at shutdown" not in log, "interactions were cut"
        for user, channel in zip(users, channels, strict=True):
            last = fake.bot_messages(channel)[-1]
            assert f"{user.mention} played `" in last.text, last.text
        # Nothing is lost: back, the bot lets the AI answer each move it had saved.
        mark = fake.checkpoint()
        await bot.start(fake, guild)
        try:
            for user, channel in zip(users, channels, strict=True):
                your_move = f"{user.mention}, your move"
                await fake.wait_for_message(
                    channel,
                    lambda m, words=your_move: words in m.text,
                    after=mark,
                    timeout=WAIT * 2,
                )
        finally:
            assert await bot.stop() == 0, bot.log_text()
