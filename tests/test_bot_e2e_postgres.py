"""Two bot processes on one PostgreSQL, each running one of two shards, against the Discord
stand-in: games in both, a rated game of one player finishing in each at the same instant (both
rating changes kept), the same record seen from both, and one process killed with SIGKILL
mid-game and restarted with nothing lost. Also: a database out of reach at start is one line."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pg_server
import pytest
from e2e_support import ROOT, WAIT, BotProcess, World, bot_env, split_log
from fakediscord import FakeDiscord, FakeGuild, FakeUser

from bot.storage import GameStatus, Participant, Storage


def sessions_of(fake: FakeDiscord, guild: FakeGuild) -> set[tuple[int, int] | None]:
    """The shards whose sessions received ``guild``'s interactions."""
    return {
        session.shard
        for session in fake.gateway.sessions.values()
        for _, item in session.buffer
        if item.payload["t"] == "INTERACTION_CREATE"
        and item.payload["d"].get("guild_id") == str(guild.id)
    }


async def kill_shard(fake: FakeDiscord, bot: BotProcess, shard: tuple[int, int]) -> None:
    """SIGKILL one process (as when its host dies) and wait until its shard's session is gone."""
    assert bot.process is not None
    bot.process.send_signal(signal.SIGKILL)
    await bot.process.wait()
    await fake.wait_until(
        lambda: True if shard not in fake.gateway.live_shards else None, timeout=WAIT
    )


async def stats_text(world: World, user: FakeUser, about: FakeUser) -> str:
    interaction = await world.command(
        user, world.guild.channel("general"), "stats", player=about, variant="brandubh"
    )
    shown = interaction.original_message
    assert shown is not None and shown.embeds, interaction.responses
    return str(shown.embeds[0]["fields"])


async def test_two_processes_on_one_postgresql_share_players_and_survive_a_kill(
    tmp_path: Path, schema_url: str
) -> None:
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        north = fake.create_guild("North", shard=(0, 2))
        south = fake.create_guild("South", shard=(1, 2))
        ann = fake.create_user("ann", guild=north)
        fake.add_member(south, ann)
        ben = fake.create_user("ben", guild=north)
        cat = fake.create_user("cat", guild=south)
        dan = fake.create_user("dan", guild=south)
        bots = [
            BotProcess(
                bot_env(
                    fake, None, tmp_path,
                    {"TAFL_TIMER_TICK": "0.5", "TAFL_DATABASE": schema_url,
                     "TAFL_SHARD_COUNT": "2", "TAFL_SHARD_IDS": str(shard)},
                ),
                tmp_path / f"bot{shard}.log",
            )
            for shard in (0, 1)
        ]  # fmt: skip
        try:
            for bot in bots:
                await bot.start(fake, None)
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
            worlds = [World(fake, north, bots[0], {}), World(fake, south, bots[1], {})]
            opponents = [ben, cat]

            # A rated game in each server, each served by its own process; ann attacks in both.
            # (Each challenger asks once: the challenge cooldown is shared through the database.)
            channels = [world.channel("duel") for world in worlds]
            await worlds[0].challenge(ann, ben, channels[0], variant="brandubh", side="attackers")
            await worlds[1].challenge(cat, ann, channels[1], variant="brandubh", side="defenders")
            for world, opponent, channel in zip(worlds, opponents, channels, strict=True):
                await world.play_line(ann, opponent, channel, ["a4-a2", "d5-f5"])

            # Both opponents resign at the same instant, on two processes.
            resigned = await asyncio.gather(
                *(
                    world.command(opponent, channel, "resign")
                    for world, opponent, channel in zip(worlds, opponents, channels, strict=True)
                )
            )
            for interaction in resigned:
                assert interaction.original_message is not None, interaction.responses
                assert "resigned" in interaction.original_message.text

            # Each process reads the shared ratings: ann's record is the same from both.
            north_view, south_view = [await stats_text(world, ann, ann) for world in worlds]
            assert north_view == south_view and "after 2 rated games" in north_view, north_view
            assert "As attackers: 2 wins" in north_view

            # A game in the south, its process killed mid-game and restarted.
            kill_channel = worlds[1].channel("marathon")
            await worlds[1].challenge(dan, ann, kill_channel, variant="brandubh", side="defenders")
            await worlds[1].play_line(ann, dan, kill_channel, ["a4-a2", "d5-f5", "a2-c2"])
            await kill_shard(fake, bots[1], (1, 2))
            # The north keeps playing meanwhile.
            busy = worlds[0].channel("meanwhile")
            await worlds[0].challenge(ben, ann, busy, variant="brandubh", side="defenders")
            await worlds[0].play_line(ann, ben, busy, ["a4-a2"])
            await bots[1].start(fake, None)
            await fake.wait_until_connected(identifies=3, shard_count=2, timeout=WAIT)
            [board] = await worlds[1].play_line(dan, ann, kill_channel, ["e4-e6"])
            assert "played `e4-e6`" in board.text
        finally:
            codes = [await bot.stop() for bot in bots]
        logs = [bot.log_text() for bot in bots]
        for log in logs:
            print(log)
        fake.assert_healthy()

    assert codes == [0, 0], "a bot process did not stop cleanly"
    # Each server's interactions reached only its own shard's session.
    assert sessions_of(fake, north) == {(0, 2)}
    assert sessions_of(fake, south) == {(1, 2)}
    for log in logs:
        problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
        assert not problems, "a bot logged errors:\n" + "\n".join(problems)

    storage = await Storage.open(schema_url)
    try:
        ann_id = Participant.user(ann.id)
        rating = await storage.ratings.get(ann_id, "brandubh")
        assert (rating.games, rating.wins) == (2, 2)
        # The two results took turns on ann's rating: neither overwrote the other.
        finished = [
            game_id for game_id in range(1, 10) if (await storage.ratings.changes_for_game(game_id))
        ]
        assert len(finished) == 2
        changes = [
            change
            for game_id in finished
            for change in await storage.ratings.changes_for_game(game_id)
            if change.participant == ann_id
        ]
        first, second = sorted(changes, key=lambda change: change.before.rd, reverse=True)
        assert second.before == first.after
        # The global leaderboard, one table for every process, lists her once with both games.
        board = await storage.leaderboards.leaderboard("brandubh", min_games=1)
        assert [(entry.user_id, entry.games) for entry in board if entry.user_id == ann.id] == [
            (ann.id, 2)
        ]
        active = {record.channel_id: record for record in await storage.games.active()}
        survivor = active[kill_channel.id]
        assert survivor.status is GameStatus.ACTIVE and survivor.ply == 4
        assert await storage.games.moves(survivor.id) == ["a4-a2", "d5-f5", "a2-c2", "e4-e6"]
    finally:
        await storage.close()


async def logged(bot: BotProcess, text: str, times: int = 1) -> None:
    """Wait until the bot's log contains ``text`` (at least ``times`` times)."""
    for _ in range(int(WAIT / 0.05)):
        if bot.log_text().count(text) >= times:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot never logged {text!r} {times} times:\n{bot.log_text()}")


async def test_a_database_out_of_reach_at_start_is_one_line_without_its_password(
    tmp_path: Path,
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAFL_"))},
        "DISCORD_TOKEN": "not-used",
        "TAFL_DATABASE": f"postgresql://tafl:hunter2@127.0.0.1:{pg_server.free_port()}/tafl",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, stderr = await asyncio.wait_for(process.communicate(), WAIT)
    log = stderr.decode()
    assert process.returncode == 1
    assert "hunter2" not in log and "Traceback" not in log
    [line] = [line for line in log.splitlines() if "CRITICAL" in line]
    assert "the database postgresql://tafl:***@127.0.0.1:" in line and "unavailable" in line


async def test_a_database_lost_mid_game_refuses_moves_with_a_sentence_until_it_is_back(
    tmp_path: Path,
) -> None:
    try:
        server = pg_server.start()
    except pg_server.PostgresUnavailable as missing:
        pytest.skip(f"no PostgreSQL server: {missing}")
    try:
        async with FakeDiscord() as fake:
            guild = fake.create_guild("Club")
            ann = fake.create_user("ann", guild=guild)
            ben = fake.create_user("ben", guild=guild)
            # DEBUG: the clock says at each tick that it still waits, so the test can count
            # ticks rather than sleep through them.
            env = bot_env(fake, guild, tmp_path, {"TAFL_TIMER_TICK": "0.5",
                                                  "TAFL_DATABASE": server.url,
                                                  "LOG_LEVEL": "DEBUG"})  # fmt: skip
            bot = BotProcess(env, tmp_path / "bot.log")
            await bot.start(fake, guild)
            try:
                world = World(fake, guild, bot, {})
                channel = world.channel("duel")
                await world.challenge(ann, ben, channel, variant="brandubh", side="attackers")

                # The database goes while ann's board is on its way to her: the move is
                # committed and shown, only which message shows it cannot be recorded.
                async def halt(_: object) -> None:
                    fake.before_answering_callbacks(None)
                    await asyncio.to_thread(server.halt)

                fake.before_answering_callbacks(halt)
                [shown] = await world.play_line(ann, ben, channel, ["a4-a2"])
                [answered] = [i for i in fake.interactions if i.original_message is shown]
                await logged(bot, "its new board was not recorded")
                await logged(bot, "the turn notice was not sent")
                assert [r.kind for r in answered.responses] == ["callback"]  # and no error
                refused = await world.error_reply(ben, channel, "move", move="d5-f5")
                assert refused == (
                    "The bot cannot reach its game database right now. Please try again in a "
                    "minute; if you had just moved, the board will then show whether your move "
                    "counted."
                )
                # The clocks notice once, and wait (the first tick comes once the bot is ready).
                await logged(bot, "the clocks wait for the database")
                # Two more ticks while it is away: no more lines above DEBUG.
                await logged(bot, "the clocks still wait for the database", times=2)
                await asyncio.to_thread(server.resume)
                [board] = await world.play_line(ben, ann, channel, ["d5-f5"])
                assert "played `d5-f5`" in board.text
                # The board posted while the database was away was still the one to retire.
                assert board.buttons
                await fake.wait_until(lambda: True if not shown.buttons else None, timeout=WAIT)
                await logged(bot, "answers again after")
            finally:
                code = await bot.stop()
            log = bot.log_text()
            print(log)
            fake.assert_healthy()
        assert code == 0
        assert "Traceback" not in log
        entries = split_log(log)
        assert len([e for e in entries if "/tafl move refused: the database" in e]) == 1
        assert len([e for e in entries if "the clocks wait for the database" in e]) == 1
        # The outage itself: one line when it starts, one when it ends.
        assert len([e for e in entries if " WARNING " in e and " is unavailable: " in e]) == 1
        assert len([e for e in entries if "answers again after" in e]) == 1
    finally:
        server.stop()
