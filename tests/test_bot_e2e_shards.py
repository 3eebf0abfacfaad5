"""Starting on Discord's gateway end to end: ``python -m bot cluster`` (the real supervisor and
bot against the Discord stand-in, which recommends 4 shards; one process runs them all on
SQLite, and guilds on two different shards each get their games answered over their own
shard's connection), its processes' turns to identify, and the day's budget of sessions."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

from e2e_support import ROOT, WAIT, BotProcess, World, bot_env, split_log
from fakediscord import FakeDiscord, FakeGuild


def receivers(fake: FakeDiscord, guild: FakeGuild) -> set[tuple[int, int] | None]:
    """The shards of the sessions the stand-in sent ``guild``'s interactions to."""
    return {
        session.shard
        for session in fake.gateway.sessions.values()
        for _, item in session.buffer
        if item.payload["t"] == "INTERACTION_CREATE"
        and item.payload["d"].get("guild_id") == str(guild.id)
    }


async def test_a_cluster_process_runs_the_recommended_shards_and_answers_each_guild(
    tmp_path: Path,
) -> None:
    async with FakeDiscord(recommended_shards=4, max_concurrency=4) as fake:
        guilds = [fake.create_guild(f"Club on shard {k}", shard=(k, 4)) for k in (1, 3)]
        players = [
            [fake.create_user(f"{name}{k}", guild=guild) for name in ("ann", "ben")]
            for k, guild in zip((1, 3), guilds, strict=True)
        ]
        env = bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"})
        bot = BotProcess(env, tmp_path / "bot.log", args=("cluster", "--processes", "1"))
        await bot.start(fake, None)
        try:
            await fake.wait_until_connected(identifies=4, shard_count=4, timeout=WAIT)
            for guild, (ann, ben) in zip(guilds, players, strict=True):
                world = World(fake, guild, bot, {})
                channel = guild.channel("general")
                await world.challenge(ann, ben, channel, variant="brandubh", side="attackers")
                [board] = await world.play_line(ann, ben, channel, ["a4-a2"])
                assert "played `a4-a2`" in board.text
        finally:
            code = await bot.stop()
        log = bot.log_text()
        print(log)
        fake.assert_healthy()

    assert code == 0, "the cluster did not stop cleanly on SIGINT"
    assert fake.gateway.identify_count == 4
    assert {session.shard for session in fake.gateway.sessions.values()} == {
        (0, 4),
        (1, 4),
        (2, 4),
        (3, 4),
    }
    assert [receivers(fake, guild) for guild in guilds] == [{(1, 4)}, {(3, 4)}]
    for line in (
        "bot.cluster: 4 shards (recommended by Discord) in 1 process(es)",
        "[shards 0-3] bot: serving shards 0-3 of 4",
        "bot.cluster: SIGINT: stopping every process",
        "[shards 0-3] bot: SIGTERM: stopping",
        "bot.cluster: process 1 (shards 0-3) stopped with exit status 0",
    ):
        assert line in log
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "the bot logged errors:\n" + "\n".join(problems)


async def test_the_processes_of_a_cluster_take_turns_to_identify(
    tmp_path: Path, schema_url: str
) -> None:
    """Discord lets this bot identify one shard per 5 s (max_concurrency 1) whichever process
    runs it: two processes started together must not both identify at once."""
    async with FakeDiscord(recommended_shards=2, max_concurrency=1) as fake:
        env = bot_env(fake, None, tmp_path, {"TAFL_DATABASE": schema_url})
        bot = BotProcess(env, tmp_path / "bot.log", args=("cluster", "--processes", "2"))
        await bot.start(fake, None)
        try:
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
        finally:
            code = await bot.stop()
        log = bot.log_text()
        print(log)
        fake.assert_healthy()
    assert code == 0
    (first, _), (second, _) = sorted(fake.gateway.identified, key=lambda item: item[0])
    assert {shard for _, shard in fake.gateway.identified} == {(0, 2), (1, 2)}
    assert second - first >= 4.5, fake.gateway.identified  # 5 s apart, less the clocks' slack
    assert "bot.cluster: 2 shards (recommended by Discord) in 2 process(es)" in log


async def test_a_bot_short_of_gateway_sessions_waits_for_the_days_budget(tmp_path: Path) -> None:
    """Past its daily budget of sessions Discord resets a bot's token: a bot restarted in a loop
    must wait for the budget to reset instead of connecting again."""
    async with FakeDiscord(session_starts=10, session_reset_after_ms=1500) as fake:
        guild = fake.create_guild("Club")
        bot = BotProcess(bot_env(fake, guild, tmp_path), tmp_path / "bot.log")
        started = time.monotonic()
        await bot.start(fake, guild)
        try:
            [(connected, _)] = fake.gateway.identified
        finally:
            code = await bot.stop()
        log = bot.log_text()
    assert code == 0, log
    assert connected - started >= 1.5, "it connected before the budget reset"
    assert (
        "Discord allows only 10 more gateway sessions today (of 10); starting 1 now would risk"
        in log
    )


async def test_a_bot_waiting_for_the_days_budget_stops_at_once_when_asked(tmp_path: Path) -> None:
    async with FakeDiscord(session_starts=5, session_reset_after_ms=3_600_000) as fake:
        guild = fake.create_guild("Club")
        log_path = tmp_path / "bot.log"
        with log_path.open("wb") as log_file:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=bot_env(fake, guild, tmp_path),
                stdin=asyncio.subprocess.DEVNULL, stdout=log_file, stderr=log_file,
            )  # fmt: skip
            try:
                await wait_for_line(log_path, "waits 60 minutes for the day's budget to reset")
                process.send_signal(signal.SIGTERM)
                code = await asyncio.wait_for(process.wait(), WAIT)
            finally:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
        assert fake.gateway.identify_count == 0
    log = log_path.read_text()
    assert code == 0, log
    assert "stopped while waiting for Discord's session budget" in log


async def wait_for_line(path: Path, text: str) -> None:
    deadline = time.monotonic() + WAIT
    while text not in (logged := await asyncio.to_thread(path.read_text, errors="replace")):
        assert time.monotonic() < deadline, f"never logged {text!r}:\n{logged}"
        await asyncio.sleep(0.1)
