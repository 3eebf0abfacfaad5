"""The bot on several machines, as an operator runs it: bot processes that share nothing but one
PostgreSQL (no file, no parent process), against the Discord stand-in, through the faults an
operator meets.

* PostgreSQL restarted mid-game, then a stray process started by mistake for a shard already
  served: the stray waits and never connects; every move gets one answer; once the shard's
  rightful process stops, the stray (now its only candidate) serves it.
* A process killed outright (``kill -9``): restarted under its name, or replaced by another process
  on its machine (which sees that the holder's process is gone), its successor takes its shards
  at once; no move is lost. (On another machine, the successor waits for the lease to run out:
  see test_storage_leases.py.)
* A rolling upgrade: a newer release migrates the schema while an older process keeps serving,
  and the older one, restarted, runs on the newer schema.
* Identify pacing: two processes started together identify 5 s apart (Discord's limit for a
  bot whose ``max_concurrency`` is 1), with nothing shared but the database.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pg_server
import pytest
from e2e_support import ROOT, WAIT, BotProcess, World, bot_env, split_log
from fakediscord import FakeDiscord, FakeGuild, FakeUser

from bot.storage import LATEST_VERSION, Storage


@pytest.fixture(scope="module")
def server() -> Iterator[pg_server.PostgresServer]:
    """A PostgreSQL server of this module's own, to stop and start again (crash-like)."""
    try:
        started = pg_server.start()
    except pg_server.PostgresUnavailable as missing:
        pytest.skip(f"no PostgreSQL server: {missing}")
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
async def database(server: pg_server.PostgresServer) -> AsyncIterator[str]:
    url = await pg_server.fresh_schema(server.url)
    try:
        yield url
    finally:
        await pg_server.drop_schema(url)


def process(
    fake: FakeDiscord,
    folder: Path,
    database: str,
    name: str,
    shard: int,
    count: int = 2,
    **extra: str,
) -> BotProcess:
    """A bot process for one shard, in a folder of its own (as on a machine of its own)."""
    home = folder / name
    home.mkdir(exist_ok=True)
    env = bot_env(fake, None, home, {
        "TAFL_DATABASE": database, "TAFL_SHARD_COUNT": str(count), "TAFL_SHARD_IDS": str(shard),
        "TAFL_TIMER_TICK": "0.5", "TAFL_AI_WORKERS": "1", **extra,
    })  # fmt: skip
    return BotProcess(env, home / "bot.log")


async def logged(bot: BotProcess, text: str) -> None:
    """Wait until the bot's log contains ``text``."""
    for _ in range(int(WAIT / 0.05)):
        if text in bot.log_text():
            return
        if bot.process is not None and bot.process.returncode is not None:
            break
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot never logged {text!r}:\n{bot.log_text()}")


async def kill(fake: FakeDiscord, bot: BotProcess, shard: tuple[int, int]) -> None:
    """SIGKILL (as when its machine dies), and wait until its shard's session is gone."""
    assert bot.process is not None
    bot.process.send_signal(signal.SIGKILL)
    await bot.process.wait()
    await fake.wait_until(
        lambda: True if shard not in fake.gateway.live_shards else None, timeout=WAIT
    )


def identified(fake: FakeDiscord, shard: tuple[int, int]) -> int:
    """How many sessions the stand-in has started for ``shard``."""
    return sum(1 for _, which in fake.gateway.identified if which == shard)


async def one_answer_each(world: World, players: list[FakeUser], moves: list[str]) -> None:
    """Play ``moves`` (players taking turns); each must be answered exactly once."""
    channel = world.existing("duel")
    for ply, move in enumerate(moves):
        interaction = await world.command(players[ply % 2], channel, "move", move=move)
        assert interaction.original_message is not None, interaction.responses
        assert f"played `{move}`" in interaction.original_message.text
        assert len(interaction.responses) == 1, interaction.responses


def clean(log: str) -> None:
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "a bot logged errors:\n" + "\n".join(problems)


def no_second_answers(fake: FakeDiscord) -> None:
    """No interaction was answered twice (Discord refuses the second with 40060)."""
    twice = [r for r in fake.request_log.rejected if "40060" in str(r)]
    assert not twice, twice


def guild_on(fake: FakeDiscord, shard: int, count: int = 2) -> tuple[FakeGuild, list[FakeUser]]:
    guild = fake.create_guild(f"Club on shard {shard}", shard=(shard, count))
    ann = fake.create_user(f"ann{shard}", guild=guild)
    ben = fake.create_user(f"ben{shard}", guild=guild)
    return guild, [ann, ben]


async def test_after_a_database_restart_a_stray_for_a_served_shard_never_answers(
    tmp_path: Path, server: pg_server.PostgresServer, database: str
) -> None:
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        guild, players = guild_on(fake, 1)
        bots = [process(fake, tmp_path, database, f"machine{k}", k) for k in (0, 1)]
        stray = process(fake, tmp_path, database, "stray", 1)
        try:
            for bot in bots:
                await bot.start(fake, None)
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
            world = World(fake, guild, bots[1], {})
            await world.challenge(
                *players, world.channel("duel"), variant="brandubh", side="attackers"
            )
            await one_answer_each(world, players, ["a4-a2"])

            # PostgreSQL crashes and comes back (its advisory locks, had we used them, gone).
            await asyncio.to_thread(server.halt)
            await asyncio.to_thread(server.resume)
            await one_answer_each(world, players[::-1], ["d5-f5"])

            # A stray for shard 1, started by mistake: it waits, and never connects.
            await stray.launch()
            await logged(stray, "waiting to serve shards 1 of 2: shard 1 is served by")
            await one_answer_each(world, players, ["a2-c2", "e4-e6"])
            assert identified(fake, (1, 2)) == 1
            no_second_answers(fake)

            # The rightful process stops (and gives its lease back): the stray, the only one
            # left for shard 1, takes it at once and serves the game where it was.
            assert await bots[1].stop() == 0
            await logged(stray, "holding shards 1 of 2")
            await fake.wait_until_connected(identifies=3, shard_count=2, timeout=WAIT)
            world.bot = stray
            await one_answer_each(world, players, ["c2-c3"])
        finally:
            codes = [await bot.stop() for bot in (*bots, stray)]
        logs = [bot.log_text() for bot in (*bots, stray)]
        for log in logs:
            print(log)
        fake.assert_healthy()
    assert codes == [0, 0, 0]
    no_second_answers(fake)
    for log in logs:
        clean(log)
    # The outage was logged once by the process that saw it, not once per request.
    outages = [e for e in split_log(logs[1]) if "is unavailable: " in e]
    assert len(outages) <= 1, outages
    storage = await Storage.open(database)
    try:
        [game] = await storage.games.active()
        assert await storage.games.moves(game.id) == ["a4-a2", "d5-f5", "a2-c2", "e4-e6", "c2-c3"]
    finally:
        await storage.close()


async def test_a_killed_process_is_served_again_by_its_successor_with_no_move_lost(
    tmp_path: Path, database: str
) -> None:
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        guild, players = guild_on(fake, 1)
        bot = process(fake, tmp_path, database, "machine1", 1, TAFL_INSTANCE="tafl-bot-1")
        other = process(fake, tmp_path, database, "machine2", 1)
        # Shard 0's process syncs the commands (and plays no part otherwise).
        keeper = process(fake, tmp_path, database, "machine0", 0)
        try:
            await keeper.start(fake, None)
            await bot.start(fake, None)
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
            world = World(fake, guild, bot, {})
            await world.challenge(
                *players, world.channel("duel"), variant="brandubh", side="attackers"
            )
            await one_answer_each(world, players, ["a4-a2", "d5-f5"])

            # kill -9 (no lease given back); restarted under its name it takes it back at once.
            await kill(fake, bot, (1, 2))
            await bot.start(fake, None)
            await logged(bot, "took over shard(s) 1 at once from tafl-bot-1, which has stopped")
            await fake.wait_until_connected(identifies=3, shard_count=2, timeout=WAIT)
            await one_answer_each(world, players, ["a2-c2"])

            # Killed again, and replaced by a process of another name on the same machine,
            # which sees that the holder's process is gone.
            await kill(fake, bot, (1, 2))
            await other.start(fake, None)
            await logged(other, "at once from tafl-bot-1, which has stopped")
            await fake.wait_until_connected(identifies=4, shard_count=2, timeout=WAIT)
            world.bot = other
            await one_answer_each(world, players[::-1], ["e4-e6"])
        finally:
            codes = [await bot.stop(), await other.stop(), await keeper.stop()]
        log = other.log_text()
        print(bot.log_text(), log)
        fake.assert_healthy()
    assert codes[1:] == [0, 0]
    no_second_answers(fake)
    clean(log)
    storage = await Storage.open(database)
    try:
        [game] = await storage.games.active()
        assert await storage.games.moves(game.id) == ["a4-a2", "d5-f5", "a2-c2", "e4-e6"]
    finally:
        await storage.close()


NEWER_MIGRATION = """-- test: a column a newer release adds
-- Expanding only: releases before it run on it unchanged.
ALTER TABLE games ADD COLUMN newer_note TEXT;
"""


def newer_release(folder: Path) -> Path:
    """A copy of this release with one more (expanding) migration: the next release."""
    copy = folder / "newer"
    shutil.copytree(ROOT / "bot", copy / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "assets").symlink_to(ROOT / "assets")
    number = f"{LATEST_VERSION + 1:04d}"
    for backend in ("sqlite", "postgres"):
        path = copy / "bot" / "storage" / "schema" / backend / f"{number}_newer_note.sql"
        path.write_text(NEWER_MIGRATION)
    return copy


async def test_a_newer_release_migrates_while_an_older_one_keeps_serving(
    tmp_path: Path, database: str
) -> None:
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        worlds = []
        old = [
            process(fake, tmp_path, database, f"old{k}", k, TAFL_INSTANCE=f"tafl-bot-{k}")
            for k in (0, 1)
        ]
        newer = process(fake, tmp_path, database, "new0", 0, TAFL_INSTANCE="tafl-bot-0")
        newer.cwd = newer_release(tmp_path)
        newer.env["PYTHONPATH"] = str(newer.cwd)
        try:
            for bot in old:
                await bot.start(fake, None)
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
            for shard, bot in enumerate(old):
                guild, players = guild_on(fake, shard)
                worlds.append((World(fake, guild, bot, {}), players))
                await worlds[-1][0].challenge(
                    *players, worlds[-1][0].channel("duel"), variant="brandubh", side="attackers"
                )
            # Shard 0's process is replaced by the newer release, which migrates.
            assert await old[0].stop() == 0
            await newer.start(fake, None)
            await logged(newer, f"applied migration {LATEST_VERSION + 1} (test: a column")
            await fake.wait_until_connected(identifies=3, shard_count=2, timeout=WAIT)
            worlds[0][0].bot = newer
            await one_answer_each(worlds[0][0], worlds[0][1], ["a4-a2"])
            # The older process on shard 1 kept serving throughout...
            await one_answer_each(worlds[1][0], worlds[1][1], ["a4-a2"])
            # ...and, killed and restarted, runs on the newer schema.
            await kill(fake, old[1], (1, 2))
            await old[1].start(fake, None)
            await logged(old[1], f"newer than this release's {LATEST_VERSION}")
            await fake.wait_until_connected(identifies=4, shard_count=2, timeout=WAIT)
            await one_answer_each(worlds[1][0], worlds[1][1][::-1], ["d5-f5"])
        finally:
            codes = [await bot.stop() for bot in (*old, newer)]
        logs = [bot.log_text() for bot in (*old, newer)]
        for log in logs:
            print(log)
        fake.assert_healthy()
    assert codes[0] == 0 and codes[2] == 0
    no_second_answers(fake)
    for log in logs:
        clean(log)


async def test_processes_that_share_only_the_database_identify_five_seconds_apart(
    tmp_path: Path, database: str
) -> None:
    async with FakeDiscord(recommended_shards=2, max_concurrency=1) as fake:
        bots = [process(fake, tmp_path, database, f"machine{k}", k) for k in (0, 1)]
        try:
            await asyncio.gather(*(bot.launch() for bot in bots))
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
        finally:
            codes = [await bot.stop() for bot in bots]
        fake.assert_healthy()
    assert codes == [0, 0]
    (first, _), (second, _) = sorted(fake.gateway.identified, key=lambda item: item[0])
    assert second - first >= 4.5, fake.gateway.identified  # 5 s apart, less the clocks' slack


async def test_a_process_that_cannot_prove_its_lease_stops_answering_until_it_can(
    tmp_path: Path, server: pg_server.PostgresServer, database: str
) -> None:
    """With the database away longer than a lease (3 s here), the process cannot know whether
    another has taken its shards: it answers nothing rather than risk a second answer, and
    answers again once it has renewed its lease."""
    async with FakeDiscord() as fake:
        guild, players = guild_on(fake, 0, 1)
        bot = process(fake, tmp_path, database, "machine", 0, 1, TAFL_SHARD_LEASE="3")
        try:
            await bot.start(fake, None)
            world = World(fake, guild, bot, {})
            await world.challenge(
                *players, world.channel("duel"), variant="brandubh", side="attackers"
            )
            await one_answer_each(world, players, ["a4-a2"])
            await asyncio.to_thread(server.halt)
            try:
                await logged(bot, "could not renew the leases of all servers (unsharded) for 2.8 s")
                ignored = await fake.send_slash_command(
                    players[1], world.existing("duel"), "tafl", subcommand="move",
                    options={"move": "d5-f5"},
                )  # fmt: skip
                await logged(
                    bot, "not answering interactions: this process cannot prove its leases"
                )
            finally:
                await asyncio.to_thread(server.resume)
            await logged(bot, "leases renewed: answering for all servers (unsharded) again")
            await one_answer_each(world, players[::-1], ["d5-f5"])
        finally:
            code = await bot.stop()
        log = bot.log_text()
        print(log)
        fake.assert_healthy()
    assert code == 0
    assert ignored.responses == []
    clean(log)
