"""End-to-end: what players see when something fails on the bot's side, and how play resumes.

The failures are real: the test adds a trigger to the bot's own SQLite file that makes the
database refuse one write, as a full disk would. The bot process must tell the players in a
sentence, log the traceback, keep every other game going, and carry on once the fault is gone.
A game whose start committed while the bot never heard back is picked up by the next command.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from e2e_support import WAIT, World, game_number, open_world, printed_log
from fakediscord import FakeChannel, Permission
from helpers import BRANDUBH_GROUP_CAPTURE

from bot.engine import Game
from bot.storage import Participant, Storage

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

DISK_FULL = "the disk is full, says a test trigger"
UNREPLAYABLE = "cannot be replayed and is set aside"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with open_world(
        tmp_path_factory.mktemp("bot_e2e_failures"),
        ["lin", "mo", "nia", "oz", "pia", "quo", "ras", "sol"],
        expected_errors=(DISK_FULL, UNREPLAYABLE),
    ) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    """Print what the bot logged during the test (pytest shows it only when the test fails)."""
    with printed_log(world):
        yield


def database(world: World) -> Path:
    return Path(world.bot.env["TAFL_DATABASE"])


def execute(world: World, sql: str) -> None:
    """Change the bot's database from outside, as an operator's shell would."""
    with sqlite3.connect(database(world), timeout=10) as connection:
        connection.execute(sql)


async def test_an_ai_move_the_database_refuses_is_explained_and_board_lets_it_retry(
    world: World, bot_log: None
) -> None:
    lin = world.user("lin")
    channel = world.channel("ai-fails")
    started = await world.command(
        lin, channel, "play", variant="brandubh", level="easy", side="attackers"
    )
    assert started.original_message is not None
    game = game_number(started.original_message)
    execute(
        world,
        f"""CREATE TRIGGER refuse_ai BEFORE INSERT ON moves
            WHEN NEW.game_id = {game} AND NEW.ply = 2
            BEGIN SELECT RAISE(ABORT, '{DISK_FULL}'); END""",
    )
    mark = world.fake.checkpoint()
    await world.command(lin, channel, "move", move="d1-c1")
    told = await world.fake.wait_for_message(
        channel, lambda m: "The AI could not move" in m.text, after=mark, timeout=WAIT
    )
    assert "the game is safe" in told.text and "/tafl board" in told.text

    execute(world, "DROP TRIGGER refuse_ai")
    mark = world.fake.checkpoint()
    await world.command(lin, channel, "board")
    moved = await world.fake.wait_for_message(
        channel, lambda m: "played `" in m.text and "AI" in m.text, after=mark, timeout=WAIT
    )
    assert lin.mention in moved.text  # lin's move again
    await world.command(lin, channel, "resign")


async def test_a_win_whose_result_cannot_be_stored_frees_the_channel(
    world: World, bot_log: None
) -> None:
    mo, nia = world.user("mo"), world.user("nia")
    channel = world.channel("result-fails")
    board = await world.challenge(mo, nia, channel, variant="brandubh", side="attackers")
    game = game_number(board)
    execute(
        world,
        f"""CREATE TRIGGER refuse_result BEFORE UPDATE OF status ON games
            WHEN OLD.id = {game} AND NEW.status = 'finished'
            BEGIN SELECT RAISE(ABORT, '{DISK_FULL}'); END""",
    )
    *opening, winning = BRANDUBH_GROUP_CAPTURE
    await world.play_line(mo, nia, channel, opening)
    answer = await world.command(mo, channel, "move", move=winning)
    assert answer.callback is not None and not answer.callback.ephemeral  # both must know
    reply = answer.original_message.text if answer.original_message else ""
    assert f"`{winning}` was recorded and ends the game" in reply  # words, no OTN suffix
    assert f"set aside with all its moves (game #{game})" in reply
    execute(world, "DROP TRIGGER refuse_result")
    # The game was set aside with its moves; the channel takes a new game at once.
    with sqlite3.connect(database(world)) as connection:
        status, count = connection.execute(
            "SELECT status, (SELECT count(*) FROM moves WHERE game_id = ?) FROM games WHERE id = ?",
            (game, game),
        ).fetchone()
    assert (status, count) == ("unreplayable", len(BRANDUBH_GROUP_CAPTURE))
    await world.challenge(nia, mo, channel, variant="tablut")


async def lost_start(world: World, channel: FakeChannel, attackers: str, defenders: str) -> int:
    """A game committed in ``channel`` whose start the bot never learned of, as when the answer
    to its commit was lost to an outage: written by a second storage on the same file."""
    storage = await Storage.open(database(world))
    try:
        record = await storage.games.create(
            guild_id=world.guild.id,
            channel_id=channel.id,
            variant="brandubh",
            attackers=participant(world, attackers),
            defenders=participant(world, defenders),
        )
    finally:
        await storage.close()
    return record.id


def participant(world: World, name: str) -> Participant:
    if name == "AI":
        return Participant.ai(1)
    return Participant.user(world.user(name).id, name)


async def test_a_game_whose_start_was_lost_is_picked_up_by_the_next_move(
    world: World, bot_log: None
) -> None:
    channel = world.channel("lost-start")
    lost = await lost_start(world, channel, "lin", "mo")
    start = Game("brandubh")
    legal = {move.text(start.size) for move in start.legal_moves()}
    # The player's list of moves already knows the game.
    ask = await world.fake.send_autocomplete(
        world.user("lin"), channel, "tafl", subcommand="move", focused="move",
        options={"move": ""},
    )  # fmt: skip
    await ask.wait_callback(timeout=WAIT)
    offered = {choice["value"] for choice in ask.choices}
    assert offered and offered <= legal, ask.choices
    first = sorted(legal)[0]
    start.play(first)
    reply = start.legal_moves()[0].text(start.size)
    boards = await world.play_line(world.user("lin"), world.user("mo"), channel, [first, reply])
    assert all(board.attachments for board in boards)
    assert f"game {lost} was in the database but not tracked" in world.bot.log_text()


async def test_a_busy_channel_names_the_lost_game_and_its_ai_plays_on(
    world: World, bot_log: None
) -> None:
    channel = world.channel("lost-ai")
    lost = await lost_start(world, channel, "AI", "nia")
    mark = world.fake.checkpoint()
    # The channel turns out to be busy only when the new game is written: it goes to a thread,
    # as it would have had the bot known.
    asked = await world.command(world.user("nia"), channel, "play", variant="brandubh")
    assert asked.callback is not None and not asked.callback.ephemeral, asked.responses
    assert asked.original_message is not None
    assert "your game against the AI (medium) is in" in asked.original_message.text
    # The AI was to move in the lost game: it moves, and then the defender can.
    await world.fake.wait_for_message(
        channel, lambda m: bool(m.attachments) and not m.ephemeral, after=mark, timeout=WAIT
    )
    storage = await Storage.open(database(world))
    try:
        moves = await storage.games.moves(lost)
    finally:
        await storage.close()
    assert len(moves) == 1, moves
    game = Game("brandubh")
    game.play(moves[0])
    answer = await world.command(
        world.user("nia"), channel, "move", move=game.legal_moves()[0].text(game.size)
    )
    assert answer.callback is not None and not answer.callback.ephemeral, answer.responses

    # Where no thread may be opened, the refusal names the game and the channel for what it is.
    closed = world.channel("lost-ai-no-threads")
    world.fake.set_permissions(closed, world.fake.bot_user, deny=Permission.CREATE_PUBLIC_THREADS)
    other = await lost_start(world, closed, "AI", "oz")
    refused = await world.error_reply(world.user("oz"), closed, "play", variant="brandubh")
    assert refused.startswith(
        f"This channel already has a game (#{other}), and I may not open a thread here"
    ), refused


async def test_a_challenge_accepted_as_its_channel_fills_goes_to_a_thread_or_says_why(
    world: World, bot_log: None
) -> None:
    """A game that takes the channel between the click and the write (another challenge
    accepted at the same moment, or another process's game): the accepted challenge goes to a
    thread of its own, or, where none may be opened, is refused in words that fit a channel."""
    pia, quo, ras, sol = (world.user(name) for name in ("pia", "quo", "ras", "sol"))
    channel = world.channel("accept-race")
    offer = await world.offer_challenge(pia, quo, channel, variant="brandubh")
    racing = await lost_start(world, channel, "nia", "oz")
    mark = world.fake.checkpoint()
    accepted = await world.click(quo, offer, ":accept")
    assert accepted.callback is not None and not accepted.callback.ephemeral
    board = await world.fake.wait_for_message(
        None, lambda m: "begins" in m.text and bool(m.attachments), after=mark, timeout=WAIT
    )
    thread = world.fake.world.channels[board.channel_id]
    assert thread.is_thread and thread.name == "pia vs quo · Brandubh", thread
    assert f"game #{racing} " not in board.text

    closed = world.channel("accept-race-closed")
    world.fake.set_permissions(closed, world.fake.bot_user, deny=Permission.CREATE_PUBLIC_THREADS)
    offer = await world.offer_challenge(ras, sol, closed, variant="brandubh")
    racing = await lost_start(world, closed, "nia", "oz")
    refused = await world.click_error(sol, offer, ":accept")
    assert refused.startswith(
        f"This channel already has a game (#{racing}), and I may not open a thread here"
    ), refused
    assert "thread already" not in refused


async def test_a_lost_game_that_no_longer_replays_is_set_aside_and_frees_the_channel(
    world: World, bot_log: None
) -> None:
    channel = world.channel("lost-broken")
    lost = await lost_start(world, channel, "lin", "mo")
    storage = await Storage.open(database(world))
    try:
        await storage.games.append_move(lost, 0, "a1-a1")  # a move the rules refuse
    finally:
        await storage.close()
    answer = await world.error_reply(world.user("lin"), channel, "move", move="d1-c1")
    assert "no game" in answer.lower(), answer
    assert f"game {lost} cannot be replayed and is set aside" in world.bot.log_text()
    # The channel takes a new game at once; the broken one keeps its moves, set aside.
    await world.challenge(world.user("lin"), world.user("mo"), channel, variant="brandubh")
    with sqlite3.connect(database(world)) as connection:
        [status] = connection.execute("SELECT status FROM games WHERE id = ?", (lost,)).fetchone()
    assert status == "unreplayable"
