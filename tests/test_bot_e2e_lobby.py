"""The lobby end to end: two players of two servers seek, are paired, and play a whole game across
servers (a capture, a takeback by consent, a Raichi and an escape), each in a thread of their own
server, each seeing every board; a draw declined, a rematch; spectators in both servers.

Once on SQLite with one bot process, and once on PostgreSQL with the two servers on two shards
served by two processes (one of them restarted mid-game)."""

from __future__ import annotations

import signal
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from e2e_support import WAIT, BotProcess, bot_env, private_text, split_log
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser, Permission

from bot.engine import Game, Side
from bot.storage import Storage

LOBBY_LINE = [
    "b4-b5",
    "d3-a3",
    "d2-a2",
    "e4-e3",
    "b5-b7",
    "c4-c6",
    "a2-d2",
    "c6-c3",
    "b7-b1",
    "d5-e5",
    "a4-a6",
    "d4-a4",
    "f4-f1",
    "a4-a1",
]


def lobby_line() -> list[str]:
    """A Brandubh line (attackers first) with a capture, then the defenders' Raichi, then the
    king's escape; checked move by move with the engine, so the test cannot pass on a line that
    no longer shows what it claims."""
    game = Game("brandubh")
    captured = raichi = False
    for ply, text in enumerate(LOBBY_LINE):
        result = game.play(text)
        captured = captured or bool(result.captures)
        raichi = raichi or (captured and result.raichi)
        assert (result.outcome is None) == (ply < len(LOBBY_LINE) - 1), text
    assert captured and raichi
    assert result.outcome is not None and result.outcome.winner is Side.DEFENDERS
    return list(LOBBY_LINE)


@dataclass
class Player:
    user: FakeUser
    guild: FakeGuild
    lobby: FakeChannel
    thread: FakeChannel | None = None


async def seek(fake: FakeDiscord, player: Player, **options: object) -> str:
    interaction = await fake.send_slash_command(
        player.user,
        player.lobby,
        "tafl",
        subcommand="seek",
        options={"variant": "brandubh", **options},
    )
    await interaction.wait_callback(timeout=WAIT)
    return await private_text(interaction)


def thread_of(fake: FakeDiscord, player: Player) -> FakeChannel:
    """The newest thread the bot opened in the player's lobby channel."""
    threads = [
        channel for channel in fake.world.channels.values() if channel.parent_id == player.lobby.id
    ]
    assert threads, "no thread was opened"
    return max(threads, key=lambda channel: channel.id)


def boards(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.bot_messages(channel) if m.attachments and not m.ephemeral]


async def move(fake: FakeDiscord, player: Player, text: str) -> FakeMessage:
    assert player.thread is not None
    interaction = await fake.send_slash_command(
        player.user, player.thread, "tafl", subcommand="move", options={"move": text}
    )
    await interaction.wait_callback(timeout=WAIT)
    assert interaction.original_message is not None, interaction.responses
    assert f"played `{text}`" in interaction.original_message.text, (
        interaction.original_message.text
    )
    return interaction.original_message


async def same_board_in(fake: FakeDiscord, players: list[Player], text: str) -> None:
    """Each venue's newest board names the move ``text``."""
    for player in players:
        assert player.thread is not None
        message = await fake.wait_for_message(
            player.thread, lambda m, t=text: t in m.text and bool(m.attachments), timeout=WAIT
        )
        assert message is not None


def no_cross_server_mentions(fake: FakeDiscord, players: list[Player]) -> None:
    """Nobody is ever mentioned in the other server's thread: named, in plain text."""
    for player, other in ((players[0], players[1]), (players[1], players[0])):
        assert player.thread is not None
        for message in fake.bot_messages(player.thread):
            assert f"<@{other.user.id}>" not in message.text, message.text


async def play_across(
    fake: FakeDiscord,
    players: list[Player],
    midway: Callable[[], Awaitable[None]] | None = None,
) -> list[str]:
    """Seek, pair, and play the lobby line with a takeback and a declined draw (then
    ``midway``, e.g. a restart); returns the texts of the attackers' thread."""
    first = await seek(fake, players[0])
    assert "Seeking a **Brandubh** game from any server" in first, first
    assert "Nobody you can play is seeking this variant right now." in first
    found = await seek(fake, players[1])
    assert found.startswith("Found: ann (North Club)."), found
    for player in players:
        player.thread = thread_of(fake, player)
    opening = boards(fake, players[0].thread)[0]
    assert "from the lobby begins" in opening.text and "(South Club)" in opening.text
    attacker, defender = (
        (players[0], players[1]) if "You play the defenders" in found else (players[1], players[0])
    )
    assert defender.thread is not None
    called = await fake.wait_for_message(
        defender.thread, lambda m: "your game from the lobby has begun here" in m.text, timeout=WAIT
    )
    assert f"<@{defender.user.id}>" in called.text and "you play the defenders" in called.text
    line = lobby_line()
    sides = [attacker, defender]
    for ply, text in enumerate(line[:2]):
        await move(fake, sides[ply % 2], text)
        await same_board_in(fake, players, f"`{text}`")
    # A takeback by consent: the attackers' third move taken back, then played again.
    await move(fake, attacker, line[2])
    asked = await fake.send_slash_command(
        attacker.user, attacker.thread, "tafl", subcommand="takeback", options={}
    )
    await asked.wait_callback(timeout=WAIT)
    request = await fake.wait_for_message(
        defender.thread, lambda m: "take back" in m.text and bool(m.custom_ids), timeout=WAIT
    )
    accept = next(cid for cid in request.custom_ids if cid.endswith(":yes"))
    answered = await fake.click_button(defender.user, request, accept)
    await answered.wait_callback(timeout=WAIT)
    await same_board_in(fake, players, "taken back")
    # A draw offered by the defender, declined in the other server.
    offered = await fake.send_slash_command(
        defender.user, defender.thread, "tafl", subcommand="draw", options={}
    )
    await offered.wait_callback(timeout=WAIT)
    offer = await fake.wait_for_message(
        attacker.thread, lambda m: "offers a draw" in m.text and bool(m.custom_ids), timeout=WAIT
    )
    decline = next(cid for cid in offer.custom_ids if cid.endswith(":no"))
    declined = await fake.click_button(attacker.user, offer, decline)
    await declined.wait_callback(timeout=WAIT)
    await fake.wait_for_message(
        defender.thread, lambda m: "declined the draw" in m.text, timeout=WAIT
    )
    if midway is not None:
        await midway()
    for ply, text in enumerate(line[2:], start=2):
        await move(fake, sides[ply % 2], text)
        await same_board_in(fake, players, f"`{text}`")
    assert attacker.thread is not None
    return [message.text for message in boards(fake, attacker.thread)]


def check_the_game(texts: list[str]) -> None:
    joined = "\n".join(texts)
    assert "capturing the piece on" in joined, joined
    assert "**Raichi!**" in joined
    assert "The king escaped to" in texts[-1]


async def test_two_servers_play_one_game_through_the_lobby_on_sqlite(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        north = fake.create_guild("North Club")
        south = fake.create_guild("South Club")
        players = [
            Player(fake.create_user("ann", guild=north), north, north.channel("general")),
            Player(fake.create_user("ben", guild=south), south, south.channel("general")),
        ]
        sam = fake.create_user("sam", guild=north)  # a spectator in each server
        sue = fake.create_user("sue", guild=south)
        bot = BotProcess(
            bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"}), tmp_path / "bot.log"
        )
        await bot.start(fake, None)
        try:
            texts = await play_across(fake, players)
            check_the_game(texts)
            no_cross_server_mentions(fake, players)
            for spectator, player in ((sam, players[0]), (sue, players[1])):
                assert player.thread is not None
                tried = await fake.send_slash_command(
                    spectator, player.thread, "tafl", subcommand="move", options={"move": "a4-a3"}
                )
                await tried.wait_callback(timeout=WAIT)
                assert "over" in await private_text(tried)
            # South turns the lobby off: its finished game takes no rematch across servers.
            managers = fake.create_role(south, "managers", Permission.MANAGE_GUILD)
            fake.give_role(south, sue, managers)
            off = await fake.send_slash_command(
                sue, south.channel("general"), "tafl", subcommand="settings",
                options={"lobby": False},
            )  # fmt: skip
            await off.wait_callback(timeout=WAIT)
            assert players[0].thread is not None
            again = await fake.send_slash_command(
                players[0].user, players[0].thread, "tafl", subcommand="rematch", options={}
            )
            await again.wait_callback(timeout=WAIT)
            assert "South Club has turned games with other servers off" in await private_text(again)
        finally:
            code = await bot.stop()
        log = bot.log_text()
        print(log)
        fake.assert_healthy()
    assert code == 0
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)


async def test_a_deleted_venue_adjourns_the_game_until_its_player_continues_elsewhere(
    tmp_path: Path,
) -> None:
    """South Club lets the bot open no threads (the game is played in the channel and says
    why); the channel is deleted mid-game (the game is adjourned, both players told), ben
    continues in another channel; then his new thread is deleted and he never comes back: he
    forfeits when the adjournment runs out."""
    async with FakeDiscord() as fake:
        north = fake.create_guild("North Club")
        south = fake.create_guild("South Club")
        ann = Player(fake.create_user("ann", guild=north), north, north.channel("general"))
        ben = Player(fake.create_user("ben", guild=south), south, south.channel("general"))
        fake.set_permissions(ben.lobby, fake.bot_user, deny=Permission.CREATE_PUBLIC_THREADS)
        env = bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"})
        bot = BotProcess(env, tmp_path / "bot.log")
        await bot.start(fake, None)
        try:
            await seek(fake, ann)
            found = await seek(fake, ben)
            assert "Found: ann (North Club)" in found, found
            ann.thread = thread_of(fake, ann)
            ben.thread = ben.lobby  # no thread allowed: the channel itself, saying why
            await fake.wait_for_message(
                ben.lobby, lambda m: "I may not open threads" in m.text, timeout=WAIT
            )
            mover, waiter = (ann, ben) if "You play the defenders" in found else (ben, ann)
            await move(fake, mover, LOBBY_LINE[0])
            await same_board_in(fake, [ann, ben], f"`{LOBBY_LINE[0]}`")

            fake.delete_channel(ben.lobby)
            told = await fake.wait_for_message(
                ann.thread, lambda m: "is adjourned" in m.text, timeout=WAIT
            )
            assert "ben's channel in South Club was deleted" in told.text, told.text
            assert f"<@{ann.user.id}>" in told.text  # ann is told, in her own server
            dm = await fake.wait_for_message(
                fake.dm_channel(ben.user), lambda m: "was deleted" in m.text, timeout=WAIT
            )
            assert "Continue it with `/tafl board`" in dm.text, dm.text
            refused = await fake.send_slash_command(
                ann.user, ann.thread, "tafl", subcommand="draw", options={}
            )
            await refused.wait_callback(timeout=WAIT)
            assert "is adjourned" in await private_text(refused)

            games = fake.create_channel(south, "games")
            resumed = await fake.send_slash_command(
                ben.user, games, "tafl", subcommand="board", options={}
            )
            await resumed.wait_callback(timeout=WAIT)
            answer = await private_text(resumed)
            assert "Game #1 goes on in" in answer, answer
            ben.lobby, ben.thread = games, thread_of(fake, Player(ben.user, south, games))
            await same_board_in(fake, [ann, ben], "ben continues game #1 from South Club")
            await move(fake, waiter, LOBBY_LINE[1])
            await same_board_in(fake, [ann, ben], f"`{LOBBY_LINE[1]}`")

            fake.delete_channel(ben.thread)
            await fake.wait_for_message(
                ann.thread,
                lambda m: "is adjourned" in m.text and "ben's thread" in m.text,
                timeout=WAIT,
            )
            set_deadline_in(env, 1, -1)
            ended = await fake.wait_for_message(
                ann.thread, lambda m: "did not continue the adjourned game" in m.text, timeout=WAIT
            )
            assert "**ann (North Club) wins**" not in ended.text  # ann is at home: mentioned
            assert f"**<@{ann.user.id}> wins**" in ended.text, ended.text
        finally:
            code = await bot.stop()
        log = bot.log_text()
        fake.assert_healthy()
    assert code == 0
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)


def set_deadline_in(env: dict[str, str], game_id: int, seconds_from_now: float) -> None:
    """Move a game's deadline in the bot's SQLite database, as time passing would."""
    deadline = int(time.time() + seconds_from_now)
    with sqlite3.connect(env["TAFL_DATABASE"], timeout=10) as connection:
        connection.execute("UPDATE games SET move_deadline = ? WHERE id = ?", (deadline, game_id))


async def test_two_servers_on_two_processes_play_through_a_restart_on_postgresql(
    tmp_path: Path, schema_url: str
) -> None:
    """North Club on shard 0, South Club on shard 1, each served by a process of its own that
    shares only the database; South's process is killed mid-game and restarted: nothing is
    lost, and each board still reaches both servers."""
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        north = fake.create_guild("North Club", shard=(0, 2))
        south = fake.create_guild("South Club", shard=(1, 2))
        players = [
            Player(fake.create_user("ann", guild=north), north, north.channel("general")),
            Player(fake.create_user("ben", guild=south), south, south.channel("general")),
        ]
        sam = fake.create_user("sam", guild=south)  # a spectator in South Club

        def process(shard: int) -> BotProcess:
            home = tmp_path / f"shard{shard}"
            home.mkdir(exist_ok=True)
            env = bot_env(fake, None, home, {
                "TAFL_DATABASE": schema_url, "TAFL_SHARD_COUNT": "2",
                "TAFL_SHARD_IDS": str(shard), "TAFL_TIMER_TICK": "0.5", "TAFL_AI_WORKERS": "1",
                "TAFL_INSTANCE": f"tafl-bot-{shard}",
            })  # fmt: skip
            return BotProcess(env, home / "bot.log")

        bots = [process(0), process(1)]

        async def restart_south() -> None:
            south_bot = bots[1]
            assert south_bot.process is not None
            south_bot.process.send_signal(signal.SIGKILL)  # as when its machine dies
            await south_bot.process.wait()
            await fake.wait_until(
                lambda: True if (1, 2) not in fake.gateway.live_shards else None, timeout=WAIT
            )
            await south_bot.start(fake, None)
            await fake.wait_until_connected(identifies=3, shard_count=2, timeout=WAIT)
            # A spectator in South Club asks for the board from the restarted process.
            assert players[1].thread is not None
            watched = await fake.send_slash_command(
                sam, players[1].thread, "tafl", subcommand="board", options={}
            )
            await watched.wait_callback(timeout=WAIT)
            board = watched.original_message
            assert board is not None and board.attachments and not board.ephemeral, board

        try:
            for bot in bots:
                await bot.start(fake, None)
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
            texts = await play_across(fake, players, restart_south)
            check_the_game(texts)
            no_cross_server_mentions(fake, players)
            assert players[1].thread is not None
            tried = await fake.send_slash_command(
                sam, players[1].thread, "tafl", subcommand="move", options={"move": "a4-a3"}
            )
            await tried.wait_callback(timeout=WAIT)
            assert "over" in await private_text(tried)
        finally:
            codes = [await bot.stop() for bot in bots]
        logs = [bot.log_text() for bot in bots]
        print(*logs)
        fake.assert_healthy()
    assert codes[0] == 0
    for log in logs:
        problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
        assert not problems, "\n".join(problems)
    storage = await Storage.open(schema_url)
    try:
        record = await storage.games.get(1)
        assert await storage.games.moves(record.id) == LOBBY_LINE
        assert record.result is not None and record.result.value == "defenders"
    finally:
        await storage.close()


async def test_the_clock_pairs_seeks_whose_reach_has_widened_and_expires_old_ones(
    tmp_path: Path,
) -> None:
    """ann (rated 1900) and ben (1500) are too far apart to pair when they seek; once their
    seeks have waited ten minutes (their reach widened to ±800) the bot's clock pairs them and
    opens their game in both servers. cat's seek runs out: her Cancel button says so."""
    async with FakeDiscord() as fake:
        north = fake.create_guild("North Club")
        south = fake.create_guild("South Club")
        ann = Player(fake.create_user("ann", guild=north), north, north.channel("general"))
        ben = Player(fake.create_user("ben", guild=south), south, south.channel("general"))
        cat = Player(fake.create_user("cat", guild=south), south, south.channel("general"))
        env = bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"})
        bot = BotProcess(env, tmp_path / "bot.log")
        await bot.start(fake, None)
        try:
            await seek(fake, ann)
            with sqlite3.connect(env["TAFL_DATABASE"], timeout=10) as connection:
                connection.execute("UPDATE seeks SET rating = 1900")
            # Ben waits: 400 points apart, he is out of her reach, so not told of her seek.
            assert "Nobody you can play is seeking" in await seek(fake, ben)
            asked = await fake.send_slash_command(
                cat.user, cat.lobby, "tafl", subcommand="seek", options={"variant": "tablut"}
            )
            await asked.wait_callback(timeout=WAIT)
            [waiting] = [m for m in asked.messages if m.custom_ids]
            with sqlite3.connect(env["TAFL_DATABASE"], timeout=10) as connection:
                connection.execute("UPDATE seeks SET created_at = created_at - 600")
                connection.execute(
                    "UPDATE seeks SET expires_at = created_at + 1 WHERE variant = 'tablut'"
                )
            for player in (ann, ben):
                await fake.wait_until(
                    lambda p=player: (
                        True
                        if any(c.parent_id == p.lobby.id for c in fake.world.channels.values())
                        else None
                    ),
                    timeout=WAIT,
                )
                player.thread = thread_of(fake, player)
            await same_board_in(fake, [ann, ben], "from the lobby begins")
            cancel = next(cid for cid in waiting.custom_ids if cid.endswith(":cancel"))
            clicked = await fake.click_button(cat.user, waiting, cancel)
            await clicked.wait_callback(timeout=WAIT)
            await fake.wait_for_message(
                cat.lobby, lambda m: "That seek is over: it expired." in m.text, timeout=WAIT
            )
        finally:
            code = await bot.stop()
        log = bot.log_text()
        fake.assert_healthy()
    assert code == 0
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)


def set_rating_in(env: dict[str, str], user: FakeUser, rating: float) -> None:
    """Give a player a Brandubh rating in the bot's SQLite database, as rated games would."""
    with sqlite3.connect(env["TAFL_DATABASE"], timeout=10) as connection:
        connection.execute(
            "INSERT INTO players (discord_user_id, display_name, created_at) VALUES (?, ?, 0)"
            " ON CONFLICT (discord_user_id) DO NOTHING",
            (user.id, user.username),
        )
        connection.execute(
            "INSERT INTO ratings (player_id, variant, rating, rd, volatility, updated_at)"
            " SELECT id, 'brandubh', ?, 60, 0.06, 0 FROM players WHERE discord_user_id = ?"
            " ON CONFLICT (player_id, variant) DO UPDATE SET rating = excluded.rating",
            (rating, user.id),
        )


async def lobby_list(fake: FakeDiscord, player: Player) -> FakeMessage:
    """``/tafl lobby`` as ``player`` sees it (a private embed, with its Play buttons)."""
    interaction = await fake.send_slash_command(
        player.user, player.lobby, "tafl", subcommand="lobby", options={}
    )
    await interaction.wait_callback(timeout=WAIT)
    [message] = interaction.messages
    return message


async def test_the_lobby_lists_counts_and_plays_only_the_seeks_a_player_may_play(
    tmp_path: Path,
) -> None:
    """Ann (rated 1900) seeks, within ±300. Cat, at 1700, sees her seek listed; her rating
    falls to 1500 before she presses Play, which then says why she cannot play it (not that it
    is gone). Her list no longer shows it, and her own seek is told of nobody she can play."""
    async with FakeDiscord() as fake:
        north = fake.create_guild("North Club")
        south = fake.create_guild("South Club")
        ann = Player(fake.create_user("ann", guild=north), north, north.channel("general"))
        cat = Player(fake.create_user("cat", guild=south), south, south.channel("general"))
        env = bot_env(fake, None, tmp_path)
        bot = BotProcess(env, tmp_path / "bot.log")
        await bot.start(fake, None)
        try:
            await seek(fake, ann, range=300)
            with sqlite3.connect(env["TAFL_DATABASE"], timeout=10) as connection:
                connection.execute("UPDATE seeks SET rating = 1900")
            set_rating_in(env, cat.user, 1700)
            listed = await lobby_list(fake, cat)
            assert "#1 · Brandubh" in listed.text and "rating 1900" in listed.text, listed.text
            set_rating_in(env, cat.user, 1500)  # a rated game lost meanwhile
            play = next(cid for cid in listed.custom_ids if cid.endswith(":take"))
            pressed = await fake.click_button(cat.user, listed, play)
            await pressed.wait_callback(timeout=WAIT)
            answer = await private_text(pressed)
            assert "no longer open" not in answer, answer
            assert (
                "That seek is for players rated 1600 to 2200, and your Brandubh rating is 1500, "
                "so you cannot play it." in answer
            ), answer
            again = await lobby_list(fake, cat)
            assert "#1" not in again.text and "Nobody to play right now" in again.text, again.text
            assert "Brandubh 1" not in again.text and not again.custom_ids  # nor counted
            waiting = await seek(fake, cat)
            assert "Nobody you can play is seeking this variant right now." in waiting, waiting
        finally:
            code = await bot.stop()
        log = bot.log_text()
        fake.assert_healthy()
    assert code == 0
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)


async def test_a_player_blocks_a_lobby_opponent_from_the_final_board_and_unblocks_them(
    tmp_path: Path,
) -> None:
    """Ann and ben play from the lobby; ben resigns. The final board in each server offers
    Block opponent beside Rematch; after a restart ben presses it, confirms in private, and the
    lobby neither lists nor counts ann's seeks for him. ``/tafl unblock`` lists whom he has
    blocked as he types (ann is not in his server's member list), and lifts it."""
    async with FakeDiscord() as fake:
        north = fake.create_guild("North Club")
        south = fake.create_guild("South Club")
        ann = Player(fake.create_user("ann", guild=north), north, north.channel("general"))
        ben = Player(fake.create_user("ben", guild=south), south, south.channel("general"))
        sue = fake.create_user("sue", guild=south)  # watches ben's thread
        env = bot_env(fake, None, tmp_path)
        bot = BotProcess(env, tmp_path / "bot.log")
        await bot.start(fake, None)
        try:
            await seek(fake, ann)
            await seek(fake, ben)
            ann.thread, ben.thread = thread_of(fake, ann), thread_of(fake, ben)
            resigned = await fake.send_slash_command(
                ben.user, ben.thread, "tafl", subcommand="resign", options={}
            )
            await resigned.wait_callback(timeout=WAIT)
            finals = {}
            for player in (ann, ben):
                assert player.thread is not None
                finals[player.user.id] = await fake.wait_for_message(
                    player.thread,
                    lambda m: "resigned" in m.text and bool(m.custom_ids),
                    timeout=WAIT,
                )
                labels = finals[player.user.id].custom_ids
                assert any(":rm:" in c for c in labels) and any(c.endswith(":ask") for c in labels)
            await bot.stop()  # the button outlives a restart
            await bot.start(fake, None)
            final = finals[ben.user.id]
            block = next(cid for cid in final.custom_ids if cid.endswith(":ask"))
            stranger = await fake.click_button(sue, final, block)
            await stranger.wait_callback(timeout=WAIT)
            assert "You did not play game #1." in await private_text(stranger)
            asked = await fake.click_button(ben.user, final, block)
            await asked.wait_callback(timeout=WAIT)
            assert "Block ann? The lobby will never pair you together again" in (
                await private_text(asked)
            )
            [question] = asked.messages
            assert question.ephemeral
            confirm = next(cid for cid in question.custom_ids if cid.endswith(":yes"))
            confirmed = await fake.click_button(ben.user, question, confirm)
            await confirmed.wait_callback(timeout=WAIT)
            await fake.wait_for_message(
                ben.thread, lambda m: "ann is now blocked" in m.text and m.ephemeral, timeout=WAIT
            )
            # Ann seeks again: ben is neither shown nor told of her seek.
            await seek(fake, ann)
            hidden = await lobby_list(fake, ben)
            assert "#1" not in hidden.text and "Nobody to play right now" in hidden.text
            told = await seek(fake, ben, time=600)
            assert "Nobody you can play is seeking this variant right now." in told, told
            # Unblocking: his blocks are offered as he types.
            typed = await fake.send_autocomplete(
                ben.user, ben.lobby, "tafl", subcommand="unblock", focused="player",
                options={"player": "an"},
            )  # fmt: skip
            await typed.wait_callback(timeout=WAIT)
            assert [(c["name"], c["value"]) for c in typed.choices] == [("ann", str(ann.user.id))]
            lifted = await fake.send_slash_command(
                ben.user, ben.lobby, "tafl", subcommand="unblock",
                options={"player": str(ann.user.id)},
            )  # fmt: skip
            await lifted.wait_callback(timeout=WAIT)
            assert "ann is no longer blocked." in await private_text(lifted)
            shown = await lobby_list(fake, ben)
            assert "#1 · Brandubh" in shown.text, shown.text
            # The opponent of a game can be blocked by its number, too.
            by_game = await fake.send_slash_command(
                ben.user, ben.lobby, "tafl", subcommand="block", options={"game": 1}
            )
            await by_game.wait_callback(timeout=WAIT)
            assert "ann is now blocked" in await private_text(by_game)
        finally:
            code = await bot.stop()
        log = bot.log_text()
        fake.assert_healthy()
    assert code == 0
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)
