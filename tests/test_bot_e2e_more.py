"""End-to-end, continued: takebacks, records and replays, the life of a challenge, clocks,
mistakes people make, draws by button, rematches and a shutdown with clicks in flight.

One bot process (``python -m bot``, against the local Discord stand-in) serves the module, with
challenges expiring after 5 s and the clock ticking every 0.5 s; each scenario plays in its own
channel with its own players (a member may post one challenge every 20 s).
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from e2e_support import (
    WAIT,
    World,
    attachment_is_png,
    button_id,
    game_number,
    open_world,
    printed_log,
    set_deadline,
)
from fakediscord import FakeChannel, FakeInteraction, FakeMessage, FakeUser, Permission
from PIL import Image

from bot.ai import level_rating
from bot.engine import Game

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

CHALLENGE_EXPIRY = 5
NAMES = [
    "amy", "ben", "cat", "dan", "eve", "fay", "guy", "hal", "ivy", "jon", "kim", "lea", "max",
    "ned", "oli", "pam", "quin", "ray", "sam", "tia", "uma", "rob", "sue", "vic", "wes", "xan",
    "yul", "val", "zed", "wyn", "xia",
]  # fmt: skip


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    extra = {"TAFL_CHALLENGE_EXPIRY": str(CHALLENGE_EXPIRY)}
    async with open_world(tmp_path_factory.mktemp("bot_e2e_more"), NAMES, extra) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    """Print what the bot logged during the test (pytest shows it only when the test fails)."""
    with printed_log(world):
        yield


def quiet_moves(game: Game, count: int) -> list[str]:
    """``count`` legal moves from ``game`` that capture nothing and do not end it (played)."""
    texts = []
    for _ in range(count):
        for move in game.legal_moves():
            result = game.play(move)
            if not result.captures and result.outcome is None:
                texts.append(move.text(game.size))
                break
            game.undo()
        else:
            raise AssertionError("no quiet move")
    return texts


async def play(world: World, user: FakeUser, channel: object, move: str) -> FakeMessage:
    """A typed move that must succeed; returns the new board message."""
    interaction = await world.command(user, channel, "move", move=move)  # type: ignore[arg-type]
    message = interaction.original_message
    assert message is not None and f"played `{move}" in message.text, interaction.responses
    return message


def public_messages(world: World, channel: FakeChannel) -> list[FakeMessage]:
    """What the bot posted in ``channel`` for everyone to see."""
    return [m for m in world.fake.bot_messages(channel) if not m.ephemeral]


# -- takebacks, records, rules ---------------------------------------------------------------------


async def test_takeback_by_consent_restores_the_previous_position(
    world: World, bot_log: None
) -> None:
    amy, ben = world.user("amy"), world.user("ben")
    channel = world.channel("takeback")
    await world.challenge(amy, ben, channel, variant="brandubh", side="attackers")
    line = quiet_moves(Game("brandubh"), 4)
    await play(world, amy, channel, line[0])

    # ben has not moved yet: nothing of his to take back (the opponent's move is not his).
    reply = await world.error_reply(ben, channel, "takeback")
    assert "not moved yet" in reply, reply

    await play(world, ben, channel, line[1])
    await play(world, amy, channel, line[2])

    # A refusal: the game goes on unchanged.
    asked = await world.command(amy, channel, "takeback")
    offer = asked.original_message
    assert offer is not None and ben.mention in offer.text and not offer.ephemeral
    own = await world.click_error(amy, offer, ":yes")  # the asker cannot answer
    assert "your opponent answers" in own, own
    await world.click(ben, offer, ":no")
    await world.fake.wait_until(
        lambda: True if "refused" in offer.text and not offer.buttons else None, timeout=WAIT
    )

    # Not asked again at once: after ben's next move it is a new question, and accepted, it
    # takes back amy's last move and ben's reply, so it is her turn again.
    reply = await world.error_reply(amy, channel, "takeback")
    assert "again in" in reply and "after the next move" in reply, reply
    await play(world, ben, channel, line[3])
    asked = await world.command(amy, channel, "takeback")
    offer = asked.original_message
    assert offer is not None
    mark = world.fake.checkpoint()
    await world.click(ben, offer, ":yes")
    board = await world.board_after(channel, mark, "taken back")
    attachment_is_png(board)
    # Numbered as the record numbers it: the defenders' reply is the second half of move 1.
    assert f"1… {line[1]}" in board.text and amy.mention in board.content, board.text
    assert "Takeback agreed" in offer.text and not offer.buttons

    # The stored game agrees: two moves, attackers to move, and amy may play another move.
    history = await world.command(amy, channel, "history")
    assert history.original_message is not None and history.original_message.ephemeral
    text = history.original_message.text
    assert f"1. {line[0]} {line[1]}" in text and line[2] not in text, text
    assert "1 move:" in text, text
    expected = Game("brandubh")
    for move in line[:2]:
        expected.play(move)
    other = next(m.text(7) for m in expected.legal_moves() if m.text(7) != line[2])
    await play(world, amy, channel, other)


async def test_export_replay_and_rules_attach_files_that_read_back(
    world: World, bot_log: None
) -> None:
    amy = world.user("amy")
    channel = world.existing("takeback")  # the game above: three moves after the takeback
    exported = await world.command(amy, channel, "export")
    message = exported.original_message
    assert message is not None and message.attachments, exported.responses
    record = message.attachments[0]
    assert record.filename.endswith(".otn")
    game = Game.from_record(record.data.decode())
    # Three moves by both sides are two full moves, numbered in the record as everywhere.
    assert game.ply == 3 and "2 moves" in message.text, message.text
    assert "\n1. " in record.data.decode() and "\n2. " in record.data.decode()

    for command in ("replay", "export", "history"):  # a wrong number is answered privately
        reply = await world.error_reply(amy, channel, command, game=999)
        assert "no game #999" in reply, (command, reply)
        with pytest.raises(ValueError, match="outside"):  # Discord's app refuses 0 itself
            await world.command(amy, channel, command, game=0)

    replay = await world.command(amy, channel, "replay")
    gif = await replay.wait_followup(timeout=WAIT)
    assert gif.attachments and gif.attachments[0].filename.endswith(".gif"), replay.responses
    with Image.open(io.BytesIO(gif.attachments[0].data)) as image:
        assert image.format == "GIF"
        assert image.n_frames == game.ply + 1  # the start, then one frame per move

    # The same game by number, after it ended, gives the same position.
    await world.command(amy, channel, "resign")
    game_id = int(message.text.split("#")[1].split(":")[0])
    lobby = world.channel("records")
    again = await world.command(amy, lobby, "export", game=game_id)
    assert again.original_message is not None
    finished = Game.from_record(again.original_message.attachments[0].data.decode())
    assert finished.cells == game.cells and finished.turn is game.turn

    rules = await world.command(amy, lobby, "rules", variant="fidchell")
    shown = await rules.wait_followup(timeout=WAIT)  # deferred: drawn off the event loop
    assert shown.ephemeral
    assert shown.embeds and "Fidchell (7x7)" in shown.embeds[0]["title"], shown.embeds
    assert shown.embeds[0]["image"]["url"].endswith("start.png")
    assert "Tuichi wins" in shown.text
    attachment_is_png(shown)

    listed = await world.command(amy, lobby, "variants")
    assert listed.original_message is not None and listed.original_message.ephemeral
    names = ["tablut", "tablut-ashton", "tablut-corner", "tablut-unarmed", "brandubh", "fidchell"]
    assert all(f"(`{name}`)" in listed.original_message.text for name in names)


# -- challenges -----------------------------------------------------------------------------------


async def test_challenges_declined_cancelled_and_expired(world: World, bot_log: None) -> None:
    cat, dan, eve, fay, guy = (world.user(n) for n in ("cat", "dan", "eve", "fay", "guy"))
    hal, ivy = world.user("hal"), world.user("ivy")
    # Posted first: it expires while the other challenges are answered.
    lapsing = world.channel("lapsing")
    expiring = await world.offer_challenge(hal, ivy, lapsing, variant="brandubh")

    declined = world.channel("declined")
    offer = await world.offer_challenge(cat, dan, declined, variant="brandubh")
    await world.click(dan, offer, ":decline")
    assert "declined" in offer.text and not offer.buttons, offer.text

    cancelled = world.channel("cancelled")
    offer = await world.offer_challenge(eve, fay, cancelled, variant="brandubh")
    reply = await world.click_error(fay, offer, ":cancel")
    assert reply.startswith("Only the challenger can cancel"), reply
    reply = await world.click_error(guy, offer, ":decline")
    assert reply.startswith("Only the person challenged can decline"), reply
    reply = await world.click_error(guy, offer, ":accept")
    assert "someone else" in reply, reply
    reply = await world.click_error(eve, offer, ":accept")
    assert "your own challenge" in reply, reply
    await world.click(eve, offer, ":cancel")
    assert "cancelled" in offer.text and not offer.buttons
    assert public_messages(world, cancelled) == [offer]  # no game began

    await world.fake.wait_until(
        lambda: True if "expired" in expiring.text else None, timeout=CHALLENGE_EXPIRY + WAIT
    )
    assert not expiring.buttons  # as for a cancelled one: one rule for every closed challenge
    assert public_messages(world, lapsing) == [expiring]


# -- clocks ---------------------------------------------------------------------------------------


async def test_a_reminder_pings_the_player_before_the_clock_runs_out(
    world: World, bot_log: None
) -> None:
    jon, kim = world.user("jon"), world.user("kim")
    channel = world.channel("reminder")
    board = await world.challenge(
        jon, kim, channel, variant="brandubh", side="attackers", time="10s"
    )
    set_deadline(world, game_number(board), 4)  # under a quarter of the time is left
    reminder = await world.fake.wait_for_message(
        channel, lambda m: "⏰" in m.text, after=board, timeout=WAIT
    )
    assert jon.mention in reminder.text and "your move" in reminder.text
    assert jon.id in reminder.pinged_user_ids and kim.id not in reminder.pinged_user_ids
    set_deadline(world, game_number(board), -1)  # and then none
    lost = await world.fake.wait_for_message(
        channel, lambda m: "ran out of time" in m.text, after=board, timeout=WAIT
    )
    assert reminder.sequence < lost.sequence
    assert kim.mention in lost.text and "wins" in lost.text
    reminders = [m for m in world.fake.bot_messages(channel) if "⏰" in m.text]
    assert reminders == [reminder]  # one reminder per move


# -- mistakes, busy channels and threads ----------------------------------------------------------


async def test_mistaken_challenges_and_busy_channels_get_private_errors_and_threads_work(
    world: World, bot_log: None
) -> None:
    lea, max_, ned, oli = (world.user(n) for n in ("lea", "max", "ned", "oli"))
    channel = world.channel("busy")
    reply = await world.error_reply(lea, channel, "challenge", opponent=lea)
    assert "cannot challenge yourself" in reply, reply
    reply = await world.error_reply(lea, channel, "challenge", opponent=world.fake.bot_user)
    assert "Bots cannot accept" in reply, reply
    reply = await world.error_reply(lea, channel, "challenge", opponent=max_, time="1s")
    assert "between 10 seconds" in reply, reply
    # Mistakes do not count against the challenge cooldown: the corrected challenge goes out.
    await world.challenge(lea, max_, channel, variant="brandubh", side="attackers")

    # A busy channel is no obstacle: the new game gets a thread named after it.
    mark = world.fake.checkpoint()
    vic, wes = world.user("vic"), world.user("wes")
    offer = await world.offer_challenge(vic, wes, channel, variant="brandubh")
    assert "its own thread" in offer.text, offer.text
    await world.click(wes, offer, ":accept")
    first = await world.fake.wait_for_message(
        None, lambda m: "begins" in m.text and bool(m.attachments), after=mark, timeout=WAIT
    )
    side_thread = world.fake.world.channels[first.channel_id]
    assert side_thread.is_thread and side_thread.name == "vic vs wes · Brandubh"
    assert f"<#{side_thread.id}>" in offer.text  # the challenge points to the thread
    await world.command(vic, side_thread, "resign")
    mark = world.fake.checkpoint()
    started = await world.command(max_, channel, "play", variant="brandubh", side="attackers")
    assert started.original_message is not None and "is in <#" in started.original_message.text
    ai_board = await world.fake.wait_for_message(
        None,
        lambda m: "against the AI" in m.text and bool(m.attachments),
        after=mark,
        timeout=WAIT,
    )
    assert world.fake.world.channels[ai_board.channel_id].is_thread
    await world.command(max_, world.fake.world.channels[ai_board.channel_id], "resign")
    elsewhere = world.channel("elsewhere")
    reply = await world.error_reply(lea, elsewhere, "challenge", opponent=oli)
    # A real challenge was posted seconds ago: the refusal says how long is left.
    assert re.fullmatch(
        r"Slow down: you can challenge again in \d+ s \(one challenge every 20 seconds\)\.", reply
    ), reply

    thread = world.fake.create_thread(channel, "side game", owner=ned)
    board = await world.challenge(ned, oli, thread, variant="brandubh", side="attackers")
    assert board.channel_id == thread.id
    line = quiet_moves(Game("brandubh"), 2)
    moved = await play(world, ned, thread, line[0])
    assert moved.channel_id == thread.id
    await play(world, lea, channel, line[0])  # the channel's own game is a different one
    await play(world, oli, thread, line[1])
    reply = await world.error_reply(lea, thread, "move", move=line[1])
    assert "not playing" in reply, reply
    mark = world.fake.checkpoint()
    await world.command(ned, thread, "resign")
    await world.board_after(thread, mark, "wins")
    assert not [m for m in world.fake.bot_messages(channel) if m.sequence > mark]
    await world.command(lea, channel, "resign")


# -- draws ----------------------------------------------------------------------------------------


async def test_draw_offer_by_button_declined_then_draw_by_command_accepted(
    world: World, bot_log: None
) -> None:
    pam, quin = world.user("pam"), world.user("quin")
    channel = world.channel("draws")
    board = await world.challenge(pam, quin, channel, variant="brandubh", side="attackers")
    offered = await world.click(pam, board, ":draw")
    offer = offered.original_message
    assert offer is not None and not offer.ephemeral and quin.mention in offer.text
    await world.click(quin, offer, ":no")
    assert "declined the draw" in offer.text and not offer.buttons
    line = quiet_moves(Game("brandubh"), 2)
    board = await play(world, pam, channel, line[0])  # the game goes on

    # Offered on his own turn, the draw goes along with his move and stands (as on lichess).
    asked = await world.command(quin, channel, "draw")
    offer = asked.original_message
    assert offer is not None and pam.mention in offer.text
    board = await play(world, quin, channel, line[1])
    assert offer.text == (
        f"{pam.mention}, {quin.mention} offers a draw with their move `{line[1]}`."
    ), offer.text
    mark = world.fake.checkpoint()
    await world.click(pam, offer, ":yes")
    final = await world.board_after(channel, mark, "**Draw**")
    assert [cid.split(":")[1] for cid in final.custom_ids] == ["rm"]  # Rematch only
    assert final.embeds[0]["title"].endswith("· Draw by agreement"), final.embeds
    assert "**Draw** by agreement." in final.text and "agreed a draw" not in final.text
    await world.fake.wait_until(
        lambda: True if all(b.get("disabled") for b in board.buttons) else None, timeout=WAIT
    )
    reply = await world.error_reply(pam, channel, "move", move="d1-c1")
    assert re.fullmatch(
        r"Game #\d+ is over: drawn by agreement\. Start a new one with `/tafl challenge` "
        r"or `/tafl play`\.",
        reply,
    ), reply


async def test_an_offer_overtaken_by_a_move_says_who_moved_instead_of_answering(
    world: World, bot_log: None
) -> None:
    wyn, xia = world.user("wyn"), world.user("xia")
    channel = world.channel("overtaken")
    await world.challenge(wyn, xia, channel, variant="brandubh", side="attackers")
    line = quiet_moves(Game("brandubh"), 3)
    await play(world, wyn, channel, line[0])
    # Offered while xia is to move: xia's move answers nothing, and the offer says so.
    draw = (await world.command(wyn, channel, "draw")).original_message
    assert draw is not None and draw.buttons
    await play(world, xia, channel, line[1])
    await world.fake.wait_until(lambda: True if not draw.buttons else None, timeout=WAIT)
    assert draw.text == (
        f"Draw offer closed: {xia.mention} played `{line[1]}` instead of answering."
    ), draw.text
    # Asked on his own turn, a takeback is withdrawn by his own next move.
    takeback = (await world.command(wyn, channel, "takeback")).original_message
    assert takeback is not None and takeback.buttons
    await play(world, wyn, channel, line[2])
    await world.fake.wait_until(lambda: True if not takeback.buttons else None, timeout=WAIT)
    assert takeback.text == (
        f"Takeback request withdrawn: {wyn.mention} played `{line[2]}` instead."
    ), takeback.text
    await world.command(xia, channel, "resign")


async def test_the_resign_button_asks_for_confirmation(world: World, bot_log: None) -> None:
    rob, sue = world.user("rob"), world.user("sue")
    channel = world.channel("resign-button")
    board = await world.challenge(rob, sue, channel, variant="brandubh", side="attackers")
    reply = await world.click_error(world.user("amy"), board, ":resign")
    assert "not playing" in reply, reply
    asked = await world.click(sue, board, ":resign")
    confirm = asked.original_message
    assert confirm is not None and confirm.ephemeral and "Resign game" in confirm.text
    mark = world.fake.checkpoint()
    await world.click(sue, confirm, "")  # "Yes, resign"
    final = await world.board_after(channel, mark, "resigned")
    assert f"{rob.mention} wins" in final.text, final.text


# -- rematches ------------------------------------------------------------------------------------


async def test_rematch_swaps_sides_but_in_tablut_the_winner_defends(
    world: World, bot_log: None
) -> None:
    ray, sam = world.user("ray"), world.user("sam")
    channel = world.channel("rematch")
    await world.challenge(ray, sam, channel, variant="brandubh", side="attackers")
    await world.command(ray, channel, "resign")
    mark = world.fake.checkpoint()
    again = await world.command(sam, channel, "rematch")
    assert again.original_message is not None, again.responses
    assert again.original_message.text.endswith(
        f"{sam.mention} attacks, {ray.mention} defends. The offer expires "
        + again.original_message.text.split("The offer expires ")[1]
    ), again.original_message.text  # swapped, as usual: nothing to explain
    reply = await world.click_error(sam, again.original_message, ":accept")
    assert "your own challenge" in reply, reply  # only the other player can accept a rematch
    # Both asking at once makes one offer, not two: the second asker is sent to the first's.
    reply = await world.error_reply(ray, channel, "rematch")
    assert reply == (
        f"{sam.mention} has already asked you for a game here: accept it with the button on "
        "their offer."
    ), reply
    await world.click(ray, again.original_message, ":accept")
    await world.first_board(channel, mark)
    await world.command(ray, channel, "resign")

    tia, uma = world.user("tia"), world.user("uma")
    tablut = world.channel("tablut-rematch")
    await world.challenge(tia, uma, tablut, variant="tablut", side="attackers")
    await world.command(tia, tablut, "resign")  # uma wins with the defenders
    mark = world.fake.checkpoint()
    again = await world.command(tia, tablut, "rematch")
    assert again.original_message is not None, again.responses
    text = again.original_message.text
    # The winner defends, and since the sides stay as they were, the offer says why.
    assert (
        f"{tia.mention} attacks, {uma.mention} defends again: in Tablut the winner takes the "
        "defenders (Linnaeus's law 12)."
    ) in text, text
    await world.click(uma, again.original_message, ":accept")
    await world.first_board(tablut, mark)
    await world.command(uma, tablut, "resign")  # now tia wins, with the attackers
    final = await world.fake.wait_for_message(
        tablut,
        lambda m: "wins" in m.text and bool(m.custom_ids),
        after=again.original_message,
        timeout=WAIT,
    )
    mark = world.fake.checkpoint()
    clicked = await world.click(uma, final, "")  # the Rematch button under the final board
    offer = clicked.original_message
    assert offer is not None, clicked.responses
    assert f"{uma.mention} attacks, {tia.mention} defends" in offer.text, offer.text
    await world.click(tia, offer, ":accept")
    board = await world.first_board(tablut, mark)
    assert "Tablut" in board.text, board.text


# -- ratings and statistics ---------------------------------------------------------------------


async def test_a_game_resigned_before_both_sides_moved_is_not_rated(
    world: World, bot_log: None
) -> None:
    val, zed = world.user("val"), world.user("zed")
    channel = world.channel("too-short")
    await world.challenge(val, zed, channel, variant="brandubh", side="attackers")
    await play(world, val, channel, quiet_moves(Game("brandubh"), 1)[0])  # zed never moves
    resigned = await world.command(zed, channel, "resign")
    final = resigned.original_message
    assert final is not None and not final.ephemeral, resigned.responses
    assert f"{val.mention} wins" in final.text, final.text
    assert "This game was not rated: it ended before both sides had moved." in final.text
    assert "→" not in final.text  # no rating line


async def test_stats_show_people_apart_from_the_ai_and_every_rating(
    world: World, bot_log: None
) -> None:
    """Continues the game above: its rematch is rated, a game against the AI is not."""
    val, zed = world.user("val"), world.user("zed")
    channel = world.existing("too-short")
    mark = world.fake.checkpoint()
    again = await world.command(zed, channel, "rematch")
    assert again.original_message is not None, again.responses
    assert f"{zed.mention} attacks, {val.mention} defends" in again.original_message.text
    await world.click(val, again.original_message, ":accept")
    await world.first_board(channel, mark)
    line = quiet_moves(Game("brandubh"), 2)
    await play(world, zed, channel, line[0])

    # A declined draw cannot be offered again at once; the refusal says for how long.
    offer = (await world.command(val, channel, "draw")).original_message
    assert offer is not None
    await world.click(zed, offer, ":no")
    reply = await world.error_reply(val, channel, "draw")
    assert re.search(r"You can offer a draw again in \d+ s, or after the next move\.", reply)

    await play(world, val, channel, line[1])
    resigned = await world.command(val, channel, "resign")
    final = resigned.original_message
    assert final is not None
    assert f"{zed.mention}: 1500? → " in final.text and "?" in final.text, final.text

    # Against the AI: a move each, then zed resigns.
    ai_channel = world.channel("stats-ai")
    mark = world.fake.checkpoint()
    await world.command(zed, ai_channel, "play", variant="brandubh", level="easy", side="attackers")
    await world.command(zed, ai_channel, "move", move="d1-c1")
    await world.fake.wait_for_message(  # zed's move and the AI's reply, on one board
        ai_channel, lambda m: m.text.count("played `") == 2, after=mark, timeout=WAIT
    )
    await world.command(zed, ai_channel, "resign")

    asked = await world.command(val, channel, "stats", player=zed)
    shown = asked.original_message
    assert shown is not None and shown.ephemeral and shown.embeds, asked.responses
    embed = shown.embeds[0]
    assert embed["title"] == "zed's record" and embed["description"] == "Current streak: 1 loss"
    fields = [(f["name"], f["value"], f.get("inline")) for f in embed["fields"]]
    assert fields == [
        (
            "Against people (rated)",
            "As attackers: 1 win · 0 losses · 0 draws\nAs defenders: 0 wins · 0 losses · 0 draws",
            False,
        ),
        (
            "Against the AI",
            "As attackers: 0 wins · 1 loss · 0 draws\nAs defenders: 0 wins · 0 losses · 0 draws",
            False,
        ),
        ("Ratings", fields[2][1], False),
        ("Puzzles", "None rated yet.", False),  # val asked about zed: no hint to zed's command
    ], fields
    assert re.fullmatch(r"Brandubh: 1\d{3}\? after 1 rated game", fields[2][1]), fields[2][1]


# -- shutdown -------------------------------------------------------------------------------------


async def test_server_settings_give_games_threads_and_a_default_time(
    world: World, bot_log: None
) -> None:
    xan, yul = world.user("xan"), world.user("yul")
    channel = world.channel("settings")
    reply = await world.error_reply(xan, channel, "settings", threads=True)
    assert "Manage Server" in reply and "with no options shows them" in reply, reply
    managers = world.fake.create_role(world.guild, "managers", Permission.MANAGE_GUILD)
    world.fake.give_role(world.guild, xan, managers)
    try:
        shown = await world.command(xan, channel, "settings", threads=True, time="1d")
        text = await private_embed(shown)
        assert "a thread per game" in text and "1 day" in text, text
        # Anyone may read them (a bare command), privately, and is told who changes them.
        seen = await private_embed(await world.command(yul, channel, "settings"))
        assert "a thread per game" in seen and "1 day" in seen, seen
        assert "Members with the Manage Server permission can change these." in seen, seen
        mine = await private_embed(await world.command(xan, channel, "settings"))
        assert "Give /tafl settings an option to change it" in mine, mine

        # A challenge opts out of the server's default time with the settings' own word.
        offer = await world.offer_challenge(xan, yul, channel, variant="brandubh", time="none")
        assert "to **Brandubh**, no time limit, taking" in offer.text, offer.text
        await world.click(xan, offer, ":cancel")

        mark = world.fake.checkpoint()
        offer = await world.offer_challenge(xan, yul, channel, variant="brandubh")
        assert "1 day per move" in offer.text and "its own thread" in offer.text, offer.text
        await world.click(yul, offer, ":accept")
        board = await world.fake.wait_for_message(
            None, lambda m: "begins" in m.text and bool(m.attachments), after=mark, timeout=WAIT
        )
        thread = world.fake.world.channels[board.channel_id]
        assert thread.is_thread and thread.name == "xan vs yul · Brandubh"
        assert "Time runs out" in board.text
        await world.command(xan, thread, "resign")

        # Rated games against the AI: the AI plays at its level's fixed rating, published at
        # the start, and only the person's rating moves.
        await world.command(xan, channel, "settings", threads=False, rated_ai=True)
        ai_channel = world.channel("rated-ai")
        easy = level_rating("brandubh", "easy")
        started = await world.command(
            yul, ai_channel, "play", variant="brandubh", level="easy", side="attackers"
        )
        assert started.original_message is not None
        assert f"against the AI (easy, rated {easy})." in started.original_message.text
        await world.command(yul, ai_channel, "move", move="d1-c1")
        await world.fake.wait_for_message(
            ai_channel, lambda m: m.text.count("played `") == 2, timeout=WAIT
        )
        resigned = await world.command(yul, ai_channel, "resign")
        final = resigned.original_message
        assert final is not None
        assert re.search(
            rf"{yul.mention}: 1500\? → \d+\? \(-\d+\) against Tafl AI \(easy\), rated {easy}\n",
            final.text + "\n",
        ), final.text
        assert "Tafl AI (easy): " not in final.text, final.text
    finally:  # the other scenarios of the module expect the defaults
        shown = await world.command(
            xan, channel, "settings", threads=False, time="none", rated_ai=False
        )
    text = await private_embed(shown)
    assert "no limit" in text and "in the channel" in text, text


async def private_embed(interaction: FakeInteraction) -> str:
    """The text of the first private reply to ``interaction``, embeds included."""
    response = await interaction.wait_response(lambda r: r.ephemeral, timeout=WAIT)
    assert response.message is not None, interaction.responses
    return response.message.text


async def test_interactions_in_flight_at_shutdown_still_get_their_answers(
    world: World, bot_log: None
) -> None:
    """Last in the module: it stops the bot. Ctrl+C while replays are being rendered and a
    board is flipped: each still gets its answer, and the bot exits cleanly without errors
    (the module fixture checks the exit status and the log)."""
    lea, max_ = world.user("lea"), world.user("max")
    channel = world.channel("shutdown")
    board = await world.challenge(max_, lea, channel, variant="brandubh", side="attackers")
    for ply, move in enumerate(quiet_moves(Game("brandubh"), 6)):
        board = await play(world, (max_, lea)[ply % 2], channel, move)
    asks = [
        await world.fake.send_slash_command(lea, channel, "tafl", subcommand="replay", options={})
        for _ in range(3)
    ]
    flip = await world.fake.click_button(lea, board, button_id(board, ":board"))
    await world.fake.sync(timeout=WAIT)  # the bot has received all of them
    world.bot.interrupt()
    for ask in asks:
        gif = await ask.wait_followup(timeout=WAIT)
        assert gif.attachments and gif.attachments[0].filename.endswith(".gif")
    flipped = await flip.wait_callback(timeout=WAIT)
    assert flipped.ephemeral
    assert await world.bot.stop() == 0
