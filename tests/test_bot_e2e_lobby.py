"""The lobby end to end: two players of two servers seek, are paired, and play a whole game across
servers (a capture, a takeback by consent, a Raichi and an escape), each in a thread of their own
server, each seeing every board; a draw declined, a rematch; spectators in both servers.

Once on SQLite with one bot process, and once on PostgreSQL with the two servers on two shards
served by two processes (one of them restarted mid-game)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from e2e_support import WAIT, BotProcess, bot_env, private_text, split_log
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser

from bot.engine import Game, Side

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


async def play_across(fake: FakeDiscord, players: list[Player]) -> list[str]:
    """Seek, pair, and play the lobby line with a takeback and a declined draw; returns the
    texts of the attackers' thread."""
    first = await seek(fake, players[0])
    assert "Seeking a **Brandubh** game from any server" in first, first
    assert "Nobody else is seeking this variant right now." in first
    found = await seek(fake, players[1])
    assert found.startswith("Found: ann (North Club)."), found
    for player in players:
        player.thread = thread_of(fake, player)
    opening = boards(fake, players[0].thread)[0]
    assert "from the lobby begins" in opening.text and "(South Club)" in opening.text
    attacker, defender = (
        (players[0], players[1]) if "You play the defenders" in found else (players[1], players[0])
    )
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


@pytest.fixture
def two_servers() -> tuple[list[str], list[str]]:
    return (["North Club", "South Club"], ["ann", "ben"])


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
        finally:
            code = await bot.stop()
        log = bot.log_text()
        print(log)
        fake.assert_healthy()
    assert code == 0
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)
