"""End-to-end, first contact: /tafl help and rules, autocomplete for movers and onlookers, the
click-to-move Back choice, takebacks that name their moves (at once against the AI), per-player
board preferences, and what expired, cancelled and too-early challenges say.

One bot process (``python -m bot``, against the local Discord stand-in) serves the module, with
challenges expiring after 5 s; each scenario plays in its own channel with its own players (a
member may post one challenge every 20 s).
"""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio
from e2e_support import WAIT, World, attachment_is_png, open_world, printed_log
from fakediscord import FakeChannel, FakeInteraction, FakeMessage, FakeUser, Permission
from fakediscord.interactions import DEFERRED_CHANNEL_MESSAGE
from PIL import Image

from bot.ai import level_rating
from bot.engine import Game
from bot.i18n.language import Languages
from bot.render import THEMES

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

CHALLENGE_EXPIRY = 5
FRENCH = Languages().language("fr")
NAMES = [
    "ada", "bea", "cy", "dom", "eli", "flo", "gil", "hux", "ida", "jay", "kit", "lou", "mia",
    "nat", "ora", "pip", "qi", "rae", "sid", "tom", "uma", "vi",
]  # fmt: skip


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    extra = {"TAFL_CHALLENGE_EXPIRY": str(CHALLENGE_EXPIRY)}
    async with open_world(tmp_path_factory.mktemp("bot_e2e_contact"), NAMES, extra) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    """Print what the bot logged during the test (pytest shows it only when the test fails)."""
    with printed_log(world):
        yield


# -- helpers ---------------------------------------------------------------------------------------


async def private_reply(interaction: FakeInteraction) -> FakeMessage:
    """The first private reply to ``interaction`` (text or embed)."""
    response = await interaction.wait_response(lambda r: r.ephemeral, timeout=WAIT)
    assert response.message is not None, interaction.responses
    return response.message


async def play(world: World, user: FakeUser, channel: FakeChannel, move: str) -> FakeMessage:
    """A typed move that must succeed; returns the new board message."""
    interaction = await world.command(user, channel, "move", move=move)
    message = interaction.original_message
    assert message is not None and f"played `{move}" in message.text, interaction.responses
    return message


async def choices(world: World, user: FakeUser, channel: FakeChannel, typed: str) -> list[dict]:  # type: ignore[type-arg]
    """What /tafl move's autocomplete offers ``user`` for ``typed``."""
    ask = await world.fake.send_autocomplete(
        user, channel, "tafl", subcommand="move", focused="move", options={"move": typed}
    )
    await ask.wait_callback(timeout=WAIT)
    return ask.choices


def capture_line() -> tuple[list[str], str]:
    """Two quiet brandubh moves after which the attackers can capture, and that capture."""
    game = Game("brandubh")

    def quiet() -> list[str]:
        found = []
        for move in game.legal_moves():
            result = game.play(move)
            game.undo()
            if not result.captures and result.outcome is None:
                found.append(move.text(7))
        return found

    for first in quiet():
        game.play(first)
        for reply in quiet():
            game.play(reply)
            capture = next((m for m in game.legal_moves() if game.captures_of(m)), None)
            game.undo()
            if capture is not None:
                return [first, reply], capture.text(7)
        game.undo()
    raise AssertionError("no capture two moves in")


def margin_colour(data: bytes) -> tuple[int, int, int]:
    """The colour of a board image's bottom-right corner: the theme's margin."""
    with Image.open(io.BytesIO(data)) as image:
        rgb = image.convert("RGB")
        pixel = rgb.getpixel((rgb.width - 1, rgb.height - 1))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def theme_of(message: FakeMessage) -> str:
    """Which theme drew the board attached to ``message``."""
    attachment_is_png(message)
    colour = margin_colour(message.attachments[0].data)
    found = [name for name, theme in THEMES.items() if theme.margin == colour]
    assert len(found) == 1, colour
    return found[0]


def first_rank_shown(message: FakeMessage) -> int:
    """The rank on the top row of a text board."""
    row = re.search(r"```\n\s*(\d+) ", message.text)
    assert row, message.text
    return int(row.group(1))


# -- help and rules --------------------------------------------------------------------------------


async def test_help_starts_with_three_lines_then_lists_every_command(
    world: World, bot_log: None
) -> None:
    ada = world.user("ada")
    shown = await private_reply(await world.command(ada, world.channel("help"), "help"))
    text = shown.text
    start = text.split("**Commands**")[0]
    assert "/tafl challenge" in start and "/tafl play" in start and "/tafl move" in start, text
    assert start.count("**1.**") == start.count("**3.**") == 1
    synced = world.fake.commands(world.guild)
    [tafl] = [c for c in synced if c["name"] == "tafl"]
    for command in tafl["options"]:
        assert f"`/tafl {command['name']}` — {command['description']}" in text, command
    # The tournaments have a command of their own, beside /tafl.
    [tournament] = [c for c in synced if c["name"] == "tafl-tournament"]
    assert f"`/tafl-tournament` — {tournament['description']}" in text
    assert "`/tafl preferences`" in text and "…" not in text
    # Listed in a newcomer's order: a game first, then learning, then the wider world.
    listed = re.findall(r"^`/(tafl \w+|tafl-tournament)` — ", text, re.MULTILINE)
    expected = [f"tafl {command['name']}" for command in tafl["options"]] + ["tafl-tournament"]
    assert sorted(listed) == sorted(expected), listed
    assert listed[:3] == ["tafl challenge", "tafl play", "tafl move"], listed
    path = [
        "tafl move",
        "tafl resign",
        "tafl rules",
        "tafl analyze",
        "tafl seek",
        "tafl-tournament",
        "tafl settings",
    ]
    assert [name for name in listed if name in path] == path, listed
    assert len(shown.embeds[0]["description"]) <= 4096
    # The server's options are all named where they are offered.
    [settings] = [c for c in tafl["options"] if c["name"] == "settings"]
    for option in ("threads", "default time", "rated AI", "lobby", "tournament"):
        assert option in settings["description"], settings["description"]


async def test_every_option_has_a_real_description_and_rules_say_how_to_start(
    world: World, bot_log: None
) -> None:
    [tafl] = [c for c in world.fake.commands(world.guild) if c["name"] == "tafl"]
    for command in tafl["options"]:
        for option in command.get("options", []):
            description = option.get("description", "")
            assert description and description != "…", (command["name"], option)

    ada = world.user("ada")
    channel = world.channel("rules")
    asked = await world.command(ada, channel, "rules", variant="brandubh")
    # Deferred first (the picture is drawn off the event loop, and may take a while the first
    # time), privately; the answer then replaces "thinking".
    assert asked.callback is not None and asked.callback.type == DEFERRED_CHANNEL_MESSAGE
    assert asked.callback.ephemeral
    shown = await asked.wait_followup(timeout=WAIT)
    assert shown.ephemeral
    [embed] = shown.embeds
    assert embed["fields"][-1]["name"] == "Start a game"
    assert "/tafl challenge" in embed["fields"][-1]["value"]
    assert "/tafl play" in embed["fields"][-1]["value"]
    footer = embed["footer"]["text"]
    assert footer.startswith("Source: ") and "seed" not in footer, footer
    assert theme_of(shown) == "classic"

    # The picture follows the asker's board theme, as every board drawn for one person does.
    await world.command(ada, channel, "preferences", theme="contrast")
    try:
        again = await world.command(ada, channel, "rules", variant="brandubh")
        assert theme_of(await again.wait_followup(timeout=WAIT)) == "contrast"
    finally:
        await world.command(ada, channel, "preferences", theme="classic")


# -- autocomplete and click-to-move ----------------------------------------------------------------


async def test_autocomplete_is_for_the_mover_and_tells_the_others_whose_turn_it_is(
    world: World, bot_log: None
) -> None:
    bea, cy, dom = world.user("bea"), world.user("cy"), world.user("dom")
    channel = world.channel("whose-turn")
    nothing = await choices(world, bea, channel, "")
    assert len(nothing) == 1 and "No game in this channel" in nothing[0]["name"]
    await world.challenge(bea, cy, channel, variant="brandubh", side="attackers")

    [waiting] = await choices(world, cy, channel, "")
    assert waiting["name"].startswith("It is bea's turn (attackers)"), waiting
    [onlooker] = await choices(world, dom, channel, "d1")
    assert "not playing" in onlooker["name"] and "bea is to move" in onlooker["name"]
    assert len(await choices(world, bea, channel, "")) == 25

    # Sending the line anyway is refused, naming who is to move.
    reply = await world.error_reply(cy, channel, "move", move=waiting["value"])
    assert reply == f"It is not your turn: {bea.mention} is to move with the attackers.", reply
    await world.command(bea, channel, "resign")


async def test_captures_are_marked_in_autocomplete_and_the_menus_and_back_returns(
    world: World, bot_log: None
) -> None:
    eli, flo = world.user("eli"), world.user("flo")
    channel = world.channel("captures")
    line, capture = capture_line()
    board = await world.challenge(eli, flo, channel, variant="brandubh", side="attackers")
    await play(world, eli, channel, line[0])
    board = await play(world, flo, channel, line[1])

    offered = await choices(world, eli, channel, "")
    captured = Game("brandubh")
    for move in line:
        captured.play(move)
    taken = captured.play(capture).notation.split("x")[1]
    assert offered[0] == {"name": f"{capture} ×{taken}", "value": capture}, offered[:3]
    [blocked] = await choices(world, eli, channel, "a7")  # a corner no attacker may enter
    assert blocked["name"].startswith("a7: no piece there"), blocked

    # Click-to-move: a piece, Back to the pieces, the capturing piece, the marked capture.
    clicked = await world.click(eli, board, ":move")
    menu = clicked.original_message
    assert menu is not None and menu.ephemeral
    pieces = menu.custom_ids[0]
    other = next(
        o["value"]
        for o in menu.component(pieces)["options"]  # type: ignore[index]
        if o["label"].split()[0] != capture[:2]
    )
    await (await world.fake.choose_select(eli, menu, pieces, [other])).wait_callback(timeout=WAIT)
    targets = menu.custom_ids[0]
    assert targets.startswith("tafl:to:"), menu.custom_ids
    back = menu.component(targets)["options"][-1]  # type: ignore[index]
    assert (back["label"], back["value"]) == ("Back", "back")
    await (await world.fake.choose_select(eli, menu, targets, ["back"])).wait_callback(timeout=WAIT)
    pieces = menu.custom_ids[0]
    assert pieces.startswith("tafl:pc:") and "Which piece?" in menu.text, menu.custom_ids
    origin = next(
        o["value"]
        for o in menu.component(pieces)["options"]  # type: ignore[index]
        if o["label"].startswith(capture[:2])
    )
    await (await world.fake.choose_select(eli, menu, pieces, [origin])).wait_callback(timeout=WAIT)
    targets = menu.custom_ids[0]
    options = menu.component(targets)["options"]  # type: ignore[index]
    marked = [o for o in options if "×" in o["label"]]
    assert [o["label"] for o in marked] == [f"{capture} ×{taken}"], options
    assert marked[0]["description"] == f"captures {taken}"
    mark = world.fake.checkpoint()
    await world.fake.choose_select(eli, menu, targets, [marked[0]["value"]])
    played = await world.board_after(channel, mark, "played `")
    assert f"played `{capture}`, capturing the piece on {taken}" in played.text, played.text
    await world.command(eli, channel, "resign")


# -- takebacks -------------------------------------------------------------------------------------


async def test_against_the_ai_a_takeback_is_immediate_and_names_both_moves(
    world: World, bot_log: None
) -> None:
    gil = world.user("gil")
    channel = world.channel("ai-takeback")
    mark = world.fake.checkpoint()
    await world.command(gil, channel, "play", variant="brandubh", level="easy", side="attackers")
    started = await world.board_after(channel, mark, "against the AI")
    # The game is unrated (the server's default): the level's strength, not "rated 1430".
    easy = level_rating("brandubh", "easy")
    assert f"against the AI (easy, strength {easy}), unrated." in started.text, started.text
    assert f"rated {easy}" not in started.text
    reply = await world.error_reply(gil, channel, "takeback")
    assert "No move has been played yet" in reply, reply

    move = Game("brandubh").legal_moves()[0].text(7)
    mark = world.fake.checkpoint()
    await world.command(gil, channel, "move", move=move)
    answered = await world.fake.wait_for_message(
        channel, lambda m: m.text.count("played `") == 2, after=mark, timeout=WAIT
    )
    answer = re.findall(r"played `([^`]+)`", answered.text)[1]

    taken = await world.command(gil, channel, "takeback")
    board = taken.original_message
    assert board is not None and not board.ephemeral, taken.responses
    assert (
        f"{gil.mention}'s move `{move}` and Tafl AI (easy)'s reply `{answer}` were taken back."
        in board.text
    ), board.text
    attachment_is_png(board)
    history = await world.error_reply(gil, channel, "history")
    assert "No moves yet" in history, history
    # Against the AI there is no draw to offer; the board's own button takes back instead.
    assert [custom_id.rsplit(":", 1)[1] for custom_id in board.custom_ids] == [
        "move",
        "board",
        "takeback",
        "resign",
    ], board.custom_ids
    mark = world.fake.checkpoint()
    await world.command(gil, channel, "move", move=move)  # gil is to move again
    answered = await world.fake.wait_for_message(
        channel, lambda m: m.text.count("played `") == 2, after=mark, timeout=WAIT
    )
    clicked = await world.click(gil, answered, ":takeback")
    again = clicked.original_message
    assert again is not None and not again.ephemeral and "were taken back." in again.text, (
        clicked.responses
    )
    await world.fake.wait_until(  # the board before the takeback keeps no buttons
        lambda: answered.custom_ids == [] or None, what="the old board's buttons removed"
    )
    await world.command(gil, channel, "resign")


async def test_an_agreed_takeback_names_the_move_taken_back(world: World, bot_log: None) -> None:
    hux, ida = world.user("hux"), world.user("ida")
    channel = world.channel("people-takeback")
    await world.challenge(hux, ida, channel, variant="brandubh", side="attackers")
    line, _ = capture_line()
    await play(world, hux, channel, line[0])
    offer = (await world.command(hux, channel, "takeback")).original_message
    assert offer is not None
    assert offer.text == (
        f"{ida.mention}, {hux.mention} asks to take back their move `{line[0]}`."
    ), offer.text
    mark = world.fake.checkpoint()
    await world.click(ida, offer, ":yes")
    board = await world.board_after(channel, mark, "taken back")
    assert f"{hux.mention}'s move `{line[0]}` was taken back." in board.text, board.text
    await world.command(hux, channel, "resign")


# -- preferences -----------------------------------------------------------------------------------


async def test_preferences_pick_the_theme_of_the_boards_a_player_is_shown(
    world: World, bot_log: None
) -> None:
    jay, kit = world.user("jay"), world.user("kit")
    channel = world.channel("themes")
    shown = await private_reply(await world.command(kit, channel, "preferences", theme="contrast"))
    assert "High contrast" in shown.text and "player to move" in shown.text, shown.text
    again = await private_reply(await world.command(kit, channel, "preferences"))
    assert "High contrast" in again.text  # stored

    board = await world.challenge(jay, kit, channel, variant="brandubh", side="attackers")
    assert theme_of(board) == "classic"  # jay is to move
    line, _ = capture_line()
    board = await play(world, jay, channel, line[0])
    assert theme_of(board) == "contrast"  # kit is to move

    # The Flip board button: the clicker's own theme.
    for user, theme in ((jay, "classic"), (kit, "contrast")):
        flipped = await world.click(user, board, ":board")
        private = flipped.original_message
        assert private is not None and private.ephemeral
        assert theme_of(private) == theme
    await world.command(kit, channel, "preferences", theme="classic")
    board = await play(world, kit, channel, line[1])
    await world.command(kit, channel, "board")
    bumped = world.fake.bot_messages(channel)[-1]
    assert theme_of(bumped) == "classic"
    await world.command(jay, channel, "resign")


async def test_flip_turns_the_boards_of_a_defender_to_their_side(
    world: World, bot_log: None
) -> None:
    lou, mia = world.user("lou"), world.user("mia")
    channel = world.channel("flip")
    world.fake.set_permissions(channel, world.fake.bot_user, deny=Permission.ATTACH_FILES)
    shown = await private_reply(await world.command(mia, channel, "preferences", flip=True))
    assert "on: when you play the defenders" in shown.text, shown.text
    await world.command(lou, channel, "preferences", flip=True)  # attackers: never turned

    mark = world.fake.checkpoint()
    offer = await world.offer_challenge(lou, mia, channel, variant="brandubh", side="attackers")
    await world.click(mia, offer, ":accept")
    board = await world.board_after(channel, mark, "board as text")
    assert first_rank_shown(board) == 7  # lou (attackers) to move: as usual
    line, _ = capture_line()
    board = await play(world, lou, channel, line[0])
    assert first_rank_shown(board) == 1  # mia (defenders) to move: turned to her side
    await world.command(lou, channel, "resign")


# -- challenges ------------------------------------------------------------------------------------


async def test_expired_cancelled_and_too_early_challenges_say_whose_and_which(
    world: World, bot_log: None
) -> None:
    nat, ora, pip = world.user("nat"), world.user("ora"), world.user("pip")
    lapsing = await world.offer_challenge(nat, ora, world.channel("lapse"), variant="fidchell")

    reply = await world.error_reply(nat, world.channel("again"), "challenge", opponent=pip)
    wait = re.fullmatch(
        r"Slow down: you can challenge again in (\d+) s \(one challenge every 20 "
        r"seconds\)\.",
        reply,
    )
    assert wait and 1 <= int(wait.group(1)) <= 20, reply

    offer = await world.offer_challenge(ora, pip, world.channel("withdrawn"), variant="tablut")
    await world.click(ora, offer, ":cancel")
    assert offer.text == f"{ora.mention}'s **Tablut** challenge to {pip.mention} was cancelled."
    assert not offer.buttons

    await world.fake.wait_until(
        lambda: True if "expired" in lapsing.text else None, timeout=CHALLENGE_EXPIRY + WAIT
    )
    assert lapsing.text.startswith(
        f"{nat.mention}'s **Fidchell** challenge to {ora.mention} expired unanswered."
    ), lapsing.text
    assert not lapsing.buttons
    declined = await world.offer_challenge(pip, nat, world.channel("refused"), variant="brandubh")
    await world.click(nat, declined, ":decline")
    assert declined.text == f"{nat.mention} declined {pip.mention}'s **Brandubh** challenge."


async def test_quick_corrections_and_a_declined_challenge_do_not_count_for_the_cooldown(
    world: World, bot_log: None
) -> None:
    tom, uma, vi = world.user("tom"), world.user("uma"), world.user("vi")
    channel = world.channel("corrections")
    # Options fixed twice: each challenge cancelled at once, and posted again at once.
    for variant in ("tablut", "brandubh"):
        slip = await world.offer_challenge(tom, uma, channel, variant=variant)
        await world.click(tom, slip, ":cancel")
    offer = await world.offer_challenge(tom, uma, channel, variant="fidchell")
    # uma says no: tom may ask someone else at once.
    await world.click(uma, offer, ":decline")
    waiting = await world.offer_challenge(tom, vi, world.channel("someone-else"))
    # A challenge still waiting for its answer counts.
    reply = await world.error_reply(tom, world.channel("too-soon"), "challenge", opponent=uma)
    assert reply.startswith("Slow down: you can challenge again in "), reply
    await world.click(vi, waiting, ":decline")
    # Forgiven or not, each of the three challenges notified uma: a fourth must wait.
    reply = await world.error_reply(tom, world.channel("too-often"), "challenge", opponent=uma)
    assert reply.startswith("You have challenged uma 3 times in the last 10 minutes; "), reply
    again = await world.offer_challenge(tom, vi, world.channel("too-often"))
    await world.click(vi, again, ":decline")


# -- old boards and bumped boards ------------------------------------------------------------------


async def test_old_boards_stop_calling_on_anyone_and_a_bumped_board_repeats_the_words(
    world: World, bot_log: None
) -> None:
    qi, rae = world.user("qi"), world.user("rae")
    channel = world.channel("old-boards")
    first = await world.challenge(qi, rae, channel, variant="brandubh", side="attackers")
    number = re.search(r"game #(\d+)", first.text)
    assert number is not None and "your move" in first.content, first.content
    line, capture = capture_line()
    await play(world, qi, channel, line[0])

    async def retired(message: FakeMessage, words: str) -> None:
        await world.fake.wait_until(
            lambda: True if message.content == words else None, timeout=WAIT
        )
        assert not message.buttons and "your move" not in message.text

    await retired(first, f"Game #{number.group(1)} at the start.")
    second = world.fake.bot_messages(channel)[-1]
    await play(world, rae, channel, line[1])
    await retired(second, f"After 1. {line[0]}")
    board = await play(world, qi, channel, capture)
    words = board.embeds[0]["description"]
    assert "capturing the piece on" in words, words

    # Posted again by anyone: the same words, and the player to move named without a ping.
    bumped = await world.command(qi, channel, "board")
    again = bumped.original_message
    assert again is not None and again.embeds[0]["description"] == words
    assert again.content == f"⚪ {rae.mention}, your move with the defenders."
    await retired(board, f"After 2. {capture}")
    await world.command(qi, channel, "resign")
    # Once over, the moves list says how it ended.
    over = await choices(world, rae, channel, "")
    assert [choice["name"] for choice in over] == [
        f"Game #{number.group(1)} is over: rae won with the defenders (resignation)."
    ], over


async def test_while_the_ai_thinks_about_a_move_made_from_the_menu_the_channel_shows_typing(
    world: World, bot_log: None
) -> None:
    """A move chosen from the menus answers the menu privately; the AI's reply comes as a new
    board. Meanwhile the bot is shown typing, which the board ends: no message is left."""
    sid = world.user("sid")
    channel = world.channel("ai-typing")
    started = await world.command(sid, channel, "play", variant="brandubh", side="attackers")
    board = started.original_message
    assert board is not None
    clicked = await world.click(sid, board, ":move")
    menu = clicked.original_message
    assert menu is not None
    pieces = menu.custom_ids[0]
    origin = menu.component(pieces)["options"][0]["value"]  # type: ignore[index]
    await (await world.fake.choose_select(sid, menu, pieces, [origin])).wait_callback(timeout=WAIT)
    targets = menu.custom_ids[0]
    target = menu.component(targets)["options"][0]["value"]  # type: ignore[index]
    before = len(world.fake.bot_messages(channel))
    mark = world.fake.checkpoint()
    await world.fake.choose_select(sid, menu, targets, [target])
    reply = await world.fake.wait_for_message(
        channel, lambda m: m.text.count("played `") == 2, after=mark, timeout=WAIT
    )
    assert world.fake.typing_started(channel) >= 1
    assert not world.fake.bot_is_typing(channel)  # the board ended it
    public = [m for m in world.fake.bot_messages(channel)[before:] if not m.ephemeral]
    assert public == [reply], public  # one board: the move and the reply, nothing stale
    await world.command(sid, channel, "resign")


@pytest.mark.catalogue_words
async def test_french_players_see_french_commands_and_a_server_chooses_its_language(
    world: World, bot_log: None
) -> None:
    """What the bot synced carries every command's French name and description (the English
    names stay the commands' own, and work), and a member who manages the server sets its
    language with /tafl settings."""
    [tafl] = [c for c in world.fake.commands(world.guild) if c["name"] == "tafl"]
    by_name = {command["name"]: command for command in tafl["options"]}
    assert by_name["challenge"]["name_localizations"]["fr"] == "défier"
    assert by_name["challenge"]["name_localizations"]["sv-SE"] == "utmana"
    assert by_name["resign"]["name_localizations"]["fr"] == "abandonner"
    # Every description is shown in French, the longest too: the tournaments' commands stand
    # beside /tafl, so that each fits Discord's size limit with every translation in.
    [group] = [c for c in world.fake.commands(world.guild) if c["name"] == "tafl-tournament"]
    assert group["name_localizations"]["fr"] == "tafl-tournoi"
    tournament = {c["name"]: c for c in group["options"]}
    assert tournament["cancel"]["description_localizations"]["fr"] == "Annuler un tournoi"

    def described(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for item in items:
            yield item
            yield from described(item.get("options") or [])

    everything = list(described(world.fake.commands(world.guild)))
    assert {item["name"] for item in everything} >= {"tafl", "tafl-tournament", "create", "seek"}
    for item in everything:
        assert "fr" in item["description_localizations"], item["description"]
        for choice in item.get("choices") or []:
            french = FRENCH.pgettext("choice name", choice["name"])
            assert (choice.get("name_localizations") or {}).get("fr", choice["name"]) == french
    settings = {option["name"]: option for option in by_name["settings"]["options"]}
    assert settings["language"]["name_localizations"]["fr"] == "langue"
    assert [choice["value"] for choice in settings["language"]["choices"]] == [
        "server",
        "en",
        "de",
        "es",
        "fr",
        "sv",
    ]

    vi = world.user("vi")
    channel = world.channel("langue")
    refused = await private_reply(await world.command(vi, channel, "settings", language="fr"))
    assert "Manage Server" in refused.text, refused.text
    managers = world.fake.create_role(world.guild, "gérants", Permission.MANAGE_GUILD)
    world.fake.give_role(world.guild, vi, managers)
    shown = await private_reply(await world.command(vi, channel, "settings", language="fr"))
    [embed] = shown.embeds
    assert embed["fields"][-1] == {"name": "Language", "value": "français", "inline": False}
    back = await private_reply(await world.command(vi, channel, "settings", language="server"))
    assert back.embeds[0]["fields"][-1]["value"] == "the server's own (its Discord language)"


async def test_the_locale_a_player_last_used_is_kept_for_later(world: World, bot_log: None) -> None:
    """Each interaction reports the user's client language; the bot keeps the last one (for
    reminders and direct messages sent later, when no interaction tells it)."""
    uma = world.user("uma")
    channel = world.channel("locale")

    def kept() -> str | None:
        with sqlite3.connect(world.bot.env["TAFL_DATABASE"], timeout=10) as connection:
            row = connection.execute(
                "SELECT locale FROM players WHERE discord_user_id = ?", (uma.id,)
            ).fetchone()
        return None if row is None else str(row[0])

    for locale in ("sv-SE", "fr"):
        asked = await world.fake.send_slash_command(
            uma, channel, "tafl", subcommand="variants", locale=locale
        )
        await asked.wait_callback(timeout=WAIT)
        deadline = asyncio.get_running_loop().time() + WAIT
        # Kept beside the answer, in the database: nothing the stand-in sees says when.
        while kept() != locale and asyncio.get_running_loop().time() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        assert kept() == locale
