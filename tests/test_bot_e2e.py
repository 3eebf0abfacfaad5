"""End-to-end: the real bot process (``python -m bot``) against the local Discord stand-in.

One bot process serves the whole module (start-up costs seconds); each scenario plays in its own
channel, and the restart scenario replaces the process with a fresh one on the same database.
The bot's log is printed for any failing test.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from e2e_support import (
    WAIT,
    World,
    attachment_is_png,
    game_number,
    open_world,
    printed_log,
    set_deadline,
)
from fakediscord import FakeChannel, FakeMessage, Permission
from helpers import BRANDUBH_GROUP_CAPTURE

from bot.engine import Game, Side

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]


# -- a forced line, found with the engine -------------------------------------------------------


def raichi_tuichi_escape(variant: str = "brandubh", max_plies: int = 10) -> list[str]:
    """A short line (attackers first) in which the defenders call Raichi, then Tuichi, then the
    king escapes. Found by a depth-first search: the attackers' moves are any, the defenders'
    are quiet until the Raichi, then must widen to two routes, then win."""
    game = Game(variant)

    def search(line: list[str], stage: int) -> list[str] | None:
        if len(line) >= max_plies:
            return None
        moves = game.legal_moves()
        if game.turn is Side.DEFENDERS:
            moves.sort(key=lambda move: move.origin != game.king_square)
        for move in moves:
            result = game.play(move)
            line.append(move.text(game.size))
            found: list[str] | None = None
            if game.turn is Side.DEFENDERS:  # the attackers just moved
                if result.outcome is None:
                    found = search(line, stage)
            elif result.outcome is not None:
                if stage == 2 and result.outcome.winner is Side.DEFENDERS:
                    found = list(line)
            elif stage == 0 and result.raichi:
                found = search(line, 1)
            elif stage == 1 and result.tuichi:
                found = search(line, 2)
            elif stage == 0 and not result.routes and len(line) < 5:
                found = search(line, 0)
            line.pop()
            game.undo()
            if found:
                return found
        return None

    line = search([], 0)
    assert line is not None, f"no Raichi-Tuichi-escape line within {max_plies} plies"
    return line


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    names = [
        "alice",
        "bo",
        "carol",
        "dave",
        "erin",
        "frank",
        "gus",
        "hana",
        "ivo",
        "jo",
        "kim",
        "lu",
        "mei",
    ]
    async with open_world(tmp_path_factory.mktemp("bot_e2e"), names) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    """Print what the bot logged during the test (pytest shows it only when the test fails)."""
    with printed_log(world):
        yield


# -- scenarios -------------------------------------------------------------------------------------


async def test_challenge_played_to_an_escape_with_raichi_and_tuichi(
    world: World, bot_log: None
) -> None:
    alice, bo = world.user("alice"), world.user("bo")
    channel = world.channel("duel")
    line = raichi_tuichi_escape()
    board = await world.challenge(alice, bo, channel, variant="brandubh", side="attackers")
    width, height = attachment_is_png(board)
    assert width > 100 and height > 100
    assert "game #" in board.text and bo.mention in board.text  # bo is pinged? no: alice moves
    texts = []
    for move, message in zip(line, await world.play_line(alice, bo, channel, line), strict=True):
        assert f"played `{move}`" in message.text  # the move in words: no OTN suffix
        attachment_is_png(message)
        texts.append(message.text)
    assert any("**Raichi!**" in text for text in texts)
    assert any("**Tuichi!**" in text for text in texts)
    raichi = next(i for i, text in enumerate(texts) if "**Raichi!**" in text)
    tuichi = next(i for i, text in enumerate(texts) if "**Tuichi!**" in text)
    assert raichi < tuichi
    assert "wins" in texts[-1] and bo.mention in texts[-1]
    final = await world.fake.wait_for_message(channel, lambda m: "wins" in m.text, timeout=WAIT)
    assert any(cid.startswith("tafl:rm:") for cid in final.custom_ids)  # only Rematch
    assert not any(cid.startswith("tafl:g:") for cid in final.custom_ids)
    assert "The king escaped to" in texts[-1] and "The king has an open road to" in texts[raichi]
    # The record keeps OTN's suffixes, numbered as the board messages number the moves.
    exported = await world.command(alice, channel, "export")
    assert exported.original_message is not None
    record = exported.original_message.attachments[0].data.decode()
    words = record.split()
    assert words[-1].endswith("--")  # the king escaped...
    assert any(word.endswith("-") and not word.endswith("--") for word in words)  # ...by a road
    assert f"{(len(line) + 1) // 2} moves" in exported.original_message.text


async def test_move_autocomplete_lists_legal_moves_filtered_by_what_is_typed(
    world: World, bot_log: None
) -> None:
    carol, dave = world.user("carol"), world.user("dave")
    channel = world.channel("autocomplete")
    await world.challenge(carol, dave, channel, variant="brandubh", side="attackers")
    legal = {m.text(7) for m in Game("brandubh").legal_moves()}

    ask = await world.fake.send_autocomplete(
        carol, channel, "tafl", subcommand="move", focused="move", options={"move": ""}
    )
    await ask.wait_callback(timeout=WAIT)
    everything = [choice["value"] for choice in ask.choices]
    assert 0 < len(everything) <= 25 and set(everything) <= legal

    ask = await world.fake.send_autocomplete(
        carol, channel, "tafl", subcommand="move", focused="move", options={"move": "d1"}
    )
    await ask.wait_callback(timeout=WAIT)
    from_d1 = [choice["value"] for choice in ask.choices]
    assert from_d1 and set(from_d1) == {t for t in legal if t.startswith("d1-")}

    # Not your turn and illegal moves: private replies that quote the move and say why.
    reply = await world.error_reply(dave, channel, "move", move="d3-e3")
    assert "not your turn" in reply.lower() and "attackers" in reply
    reply = await world.error_reply(carol, channel, "move", move="d1-d4")
    assert "Illegal move" in reply and "d1-d4" in reply
    reply = await world.error_reply(carol, channel, "move", move="zz9")
    assert "zz9" in reply
    outsider = world.user("gus")
    reply = await world.error_reply(outsider, channel, "move", move="d1-c1")
    assert "not playing" in reply
    await world.command(carol, channel, "resign")


async def test_ai_game_the_ai_moves_first_when_the_player_defends(
    world: World, bot_log: None
) -> None:
    erin = world.user("erin")
    channel = world.channel("versus-ai")
    mark = world.fake.checkpoint()
    started = await world.command(
        erin, channel, "play", variant="brandubh", level="easy", side="defenders"
    )
    assert started.callback is not None and not started.callback.ephemeral, started.responses
    # One board: the game's start and the AI's first move together, pinging erin.
    moved = await world.fake.wait_for_message(
        channel, lambda m: "played `" in m.text and "AI" in m.text, after=mark, timeout=WAIT
    )
    assert "against the AI" in moved.text and erin.mention in moved.text
    attachment_is_png(moved)
    assert [m.id for m in world.fake.bot_messages(channel) if m.sequence > mark] == [moved.id]

    # Each of erin's moves is answered by one board naming both moves; the board before it
    # loses its buttons, and no board is left saying the AI is thinking.
    for _ in range(3):
        before = world.fake.checkpoint()
        previous = world.fake.bot_messages(channel)[-1]
        text = quiet_move(replay_channel(world, channel))
        reply = await world.command(erin, channel, "move", move=text)
        assert reply.callback is not None and not reply.callback.ephemeral
        board = await world.fake.wait_for_message(
            channel, lambda m: m.text.count("played `") == 2, after=before, timeout=WAIT
        )
        assert f"played `{text}" in board.text and erin.mention in board.text
        new = [m for m in world.fake.bot_messages(channel) if m.sequence > before]
        assert [m.id for m in new] == [board.id], [m.text for m in new]
        await stripped(world, previous)  # superseded: no buttons
        assert "thinking" not in board.text
    await world.command(erin, channel, "resign")
    final = world.fake.bot_messages(channel)[-1]
    assert "wins" in final.text
    assert all(cid.startswith("tafl:rm:") for cid in final.custom_ids)
    for message in world.fake.bot_messages(channel):
        if message.id != final.id:
            await stripped(world, message)  # no live control anywhere else


async def stripped(world: World, message: FakeMessage) -> None:
    """Wait until the bot has taken every button and menu off ``message``."""
    await world.fake.wait_until(lambda: True if not message.custom_ids else None, timeout=WAIT)


def quiet_move(game: Game) -> str:
    """A legal move that neither captures nor ends the game."""
    for move in game.legal_moves():
        result = game.play(move)
        game.undo()
        if result.outcome is None and not result.captures:
            return move.text(game.size)
    raise AssertionError("no quiet move")


def replay_channel(world: World, channel: FakeChannel) -> Game:
    """The position on the channel's latest board, rebuilt from the moves its boards name."""
    game = Game("brandubh")
    for message in world.fake.bot_messages(channel):
        for played in re.findall(r"played `([a-g]\d-[a-g]\d)", message.text):
            game.play(played)
    return game


async def test_restart_the_game_continues_and_old_buttons_still_work(
    world: World, bot_log: None
) -> None:
    carol, dave = world.user("carol"), world.user("dave")
    channel = world.channel("restart")
    board = await world.challenge(dave, carol, channel, variant="brandubh", side="attackers")
    first = await world.command(dave, channel, "move", move="d1-c1")
    old_board = first.original_message
    assert old_board is not None and "`d1-c1`" in old_board.text

    await world.bot.kill(world.fake)
    await world.bot.start(world.fake, world.guild)

    move_button = next(cid for cid in old_board.custom_ids if cid.endswith(":move"))
    click = await world.fake.click_button(carol, old_board, move_button)
    await click.wait_callback(timeout=WAIT)
    menu = click.original_message
    assert menu is not None and menu.ephemeral, click.responses
    pieces = menu.custom_ids[0]
    piece = (menu.component(pieces) or {})["options"][0]["value"]
    choice = await world.fake.choose_select(carol, menu, pieces, [piece])
    await choice.wait_callback(timeout=WAIT)
    mark = world.fake.checkpoint()
    targets = menu.custom_ids[0]
    assert targets.startswith("tafl:to:"), menu.custom_ids
    options = [o["value"] for o in (menu.component(targets) or {}).get("options", [])]
    assert options
    await world.fake.choose_select(carol, menu, targets, [options[0]])
    played = await world.board_after(channel, mark, "played `")
    attachment_is_png(played)
    assert board.id != played.id

    # And a typed move by the other player after the restart.
    legal = Game("brandubh")
    legal.play("d1-c1")
    legal.play(played.text.split("played `")[1].split("`")[0])
    move = legal.legal_moves()[0].text(7)
    interaction = await world.command(dave, channel, "move", move=move)
    assert interaction.original_message is not None
    assert f"played `{move}" in interaction.original_message.text
    await world.command(dave, channel, "resign")


async def test_a_player_who_lets_the_clock_run_out_forfeits(world: World, bot_log: None) -> None:
    frank, gus = world.user("frank"), world.user("gus")
    channel = world.channel("clock")
    board = await world.challenge(
        frank, gus, channel, variant="brandubh", side="attackers", time="10s"
    )
    assert "Time runs out" in board.text
    set_deadline(world, game_number(board), -1)  # the time is up
    lost = await world.fake.wait_for_message(
        channel, lambda m: "ran out of time" in m.text, timeout=WAIT
    )
    assert "wins" in lost.text and gus.mention in lost.text


async def test_leaderboard_lists_players_once_they_have_enough_rated_games(
    world: World, bot_log: None
) -> None:
    # The escape game in #duel was rated; two rematches (sides swapped each time, resigned after
    # a move by each side, the fewest that count) bring alice and bo to the server's gate of
    # three rated games.
    alice, bo = world.user("alice"), world.user("bo")
    channel = world.existing("duel")
    for attacker, defender in ((bo, alice), (alice, bo)):
        mark = world.fake.checkpoint()
        again = await world.command(alice, channel, "rematch")
        assert again.original_message is not None, again.responses
        assert "asks for a rematch of game" in again.original_message.text
        await world.click(bo, again.original_message, ":accept")  # a rematch needs consent
        attachment_is_png(await world.first_board(channel, mark))
        await world.command(attacker, channel, "move", move="d1-c1")
        await world.command(defender, channel, "move", move="d3-c3")
        resigned = await world.command(alice, channel, "resign")
        assert resigned.original_message is not None, resigned.responses
        text = resigned.original_message.text
        assert "wins" in text and re.search(rf"{alice.mention}: \d+\?? → \d+\?? \(-\d+\)", text)
        assert "not rated" not in text, text

    board = await world.command(alice, channel, "leaderboard", variant="brandubh", scope="server")
    assert board.original_message is not None
    text = board.original_message.text
    assert "Brandubh leaderboard (this server)" in text
    assert (
        f"**1.** {bo.username}" in text
        and f"**2.** {alice.username}" in text
        and "(3 games)" in text
    ), text
    # After three games every rating is provisional: the "?" is explained under the list, and
    # what it takes to be listed is said.
    assert "? marks a provisional rating" in text, text
    assert "A player appears after 3 rated games of Brandubh in this server." in text, text

    # An empty list is nobody else's business: a private answer, with what it takes to appear.
    everywhere = await world.command(
        alice, channel, "leaderboard", variant="brandubh", scope="global"
    )
    assert everywhere.callback is not None and everywhere.callback.ephemeral
    assert everywhere.original_message is not None
    assert everywhere.original_message.text == (
        "Nobody is on the Brandubh leaderboard yet. A player appears after 10 rated games of "
        "Brandubh."
    ), everywhere.original_message.text

    stats = await world.command(alice, channel, "stats", variant="brandubh")
    assert stats.callback is not None and stats.callback.ephemeral
    assert stats.original_message is not None
    stats_text = stats.original_message.text
    assert "As attackers: 0 wins · 2 losses · 0 draws" in stats_text, stats_text
    assert "As defenders: 0 wins · 1 loss · 0 draws" in stats_text, stats_text
    assert re.search(r"Brandubh: \d+\? after 3 rated games", stats_text), stats_text
    assert "? marks a provisional rating" in stats_text, stats_text


async def test_without_attach_permission_the_board_is_text_and_a_draw_can_be_agreed(
    world: World, bot_log: None
) -> None:
    bo, erin = world.user("bo"), world.user("erin")
    channel = world.channel("no-images")
    world.fake.set_permissions(channel, world.fake.bot_user, deny=Permission.ATTACH_FILES)
    mark = world.fake.checkpoint()
    asked = await world.command(bo, channel, "challenge", opponent=erin, variant="tablut")
    assert asked.original_message is not None
    accept = next(cid for cid in asked.original_message.custom_ids if cid.endswith(":accept"))
    await (await world.fake.click_button(erin, asked.original_message, accept)).wait_callback()
    board = await world.board_after(channel, mark, "board as text")
    assert not board.attachments and "```" in board.content

    flip = next(cid for cid in board.custom_ids if cid.endswith(":board"))
    flipped = await world.fake.click_button(erin, board, flip)
    response = await flipped.wait_callback(timeout=WAIT)
    assert response.ephemeral, flipped.responses

    offer = await world.command(bo, channel, "draw")
    assert offer.original_message is not None and erin.mention in offer.original_message.text
    no = next(cid for cid in offer.original_message.custom_ids if cid.endswith(":no"))
    own = await world.fake.click_button(bo, offer.original_message, no)
    answer = await own.wait_response(lambda r: r.ephemeral and bool(r.content), timeout=WAIT)
    assert "your opponent answers" in (answer.content or "")
    yes = next(cid for cid in offer.original_message.custom_ids if cid.endswith(":yes"))
    mark = world.fake.checkpoint()
    await (await world.fake.click_button(erin, offer.original_message, yes)).wait_callback()
    final = await world.board_after(channel, mark, "**Draw**")
    assert "**Draw** by agreement." in final.text, final.text
    # The last board of the game has its buttons disabled.
    await world.fake.wait_until(
        lambda: True if all(b.get("disabled") for b in board.buttons) else None, timeout=WAIT
    )


async def test_a_group_capture_win_is_announced_and_the_bot_restarts_with_the_channel_free(
    world: World, bot_log: None
) -> None:
    hana, ivo = world.user("hana"), world.user("ivo")
    channel = world.channel("group-capture")
    await world.challenge(hana, ivo, channel, variant="brandubh", side="attackers")
    final = (await world.play_line(hana, ivo, channel, BRANDUBH_GROUP_CAPTURE))[-1]
    assert "wins" in final.text and hana.mention in final.text, final.text
    assert "attackers" in final.text and "king's group surrounded" in final.text

    await world.bot.kill(world.fake)
    await world.bot.start(world.fake, world.guild)  # start-up replays every stored game

    await world.challenge(ivo, hana, channel, variant="brandubh")  # the channel is free
    history = await world.error_reply(hana, channel, "history", game=final_game_id(final))
    assert "g3-f3" in history


def final_game_id(message: FakeMessage) -> int:
    """The game number a board message names ("game #12")."""
    found = re.search(r"game #(\d+)", message.text)
    assert found, message
    return int(found.group(1))


async def test_absurdly_long_input_is_refused_and_long_input_is_quoted_within_limits(
    world: World, bot_log: None
) -> None:
    jo, kim = world.user("jo"), world.user("kim")
    channel = world.channel("long-input")
    # Discord's client refuses what the option's max_length forbids, before the bot sees it.
    with pytest.raises(ValueError, match="length"):
        await world.fake.send_slash_command(
            jo, channel, "tafl", subcommand="move", options={"move": "e1-e4 " * 333}
        )
    with pytest.raises(ValueError, match="length"):
        await world.fake.send_slash_command(
            jo,
            channel,
            "tafl",
            subcommand="challenge",
            options={"opponent": kim, "time": "9" * 200},
        )
    await world.challenge(jo, kim, channel, variant="brandubh", side="attackers")
    longest = "x" * 40
    reply = await world.error_reply(jo, channel, "move", move=longest)
    assert longest in reply and "not a move" in reply and len(reply) <= 2000
    await world.command(jo, channel, "resign")
    unclear = "nine fortnights, ok?"
    reply = await world.error_reply(
        jo, world.channel("long-time"), "challenge", opponent=kim, time=unclear
    )
    assert unclear in reply and "is not a time" in reply


async def test_a_board_asked_for_by_anyone_names_the_player_without_pinging(
    world: World, bot_log: None
) -> None:
    lu, mei, gus = world.user("lu"), world.user("mei"), world.user("gus")
    channel = world.channel("no-ping")
    board = await world.challenge(lu, mei, channel, variant="brandubh", side="attackers")
    assert lu.mention in board.text
    moved = await world.command(lu, channel, "move", move=quiet_move(Game("brandubh")))
    assert moved.callback is not None
    assert "users" in moved.callback.data["allowed_mentions"]["parse"]  # mei must act: a ping
    asked = await world.command(gus, channel, "board")  # a spectator
    assert asked.callback is not None and mei.mention in (asked.original_message or board).text
    mentions = asked.callback.data["allowed_mentions"]
    assert mentions["parse"] == [] and not mentions.get("users"), mentions
    await world.command(lu, channel, "resign")
