"""End-to-end: every command and click is acknowledged within Discord's 3 s whatever the database
does, and a move that is stored always brings its board and the opponent's ping (issue 33, item
1).

The database is made slow for real: the test holds its write lock from another connection, as a
long write of another process or a backup would, for longer than Discord waits for an answer
(and shorter than the bot's own 5 s busy timeout, so the writes go through once it is freed).
On PostgreSQL, the issue's own case: a table lock held 6 s, one connection in the pool, three
players moving at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from e2e_support import (
    WAIT,
    BotProcess,
    World,
    bot_env,
    button_id,
    open_world,
    printed_log,
    private_text,
    split_log,
)
from fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeMessage

from bot.engine import parse_square

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(180)]

HOLD = 4.0
"""Seconds the database stays locked: past Discord's 3 s, within the bot's 5 s busy timeout."""
THINKING = 5  # DEFERRED_CHANNEL_MESSAGE: a command acknowledged, the bot "thinking"
CLICK_ACKNOWLEDGED = 6  # DEFERRED_UPDATE_MESSAGE: a click acknowledged, its message to update


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with open_world(
        tmp_path_factory.mktemp("bot_e2e_slow_database"),
        ["ann", "bo", "cy", "di", "ed", "flo", "gil", "hal", "ivy"],
    ) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    with printed_log(world):
        yield


@contextlib.asynccontextmanager
async def database_held(world: World, seconds: float | None = HOLD) -> AsyncIterator[None]:
    """Hold the bot's database's write lock for ``seconds`` from now (the block runs
    meanwhile), or with ``None`` until the block is done; on leaving, wait until it is free
    again."""
    connection = sqlite3.connect(
        world.bot.env["TAFL_DATABASE"], timeout=10, isolation_level=None, check_same_thread=False
    )
    await asyncio.to_thread(connection.execute, "BEGIN IMMEDIATE")

    async def release() -> None:
        if seconds is not None:
            await asyncio.sleep(seconds)
        await asyncio.to_thread(connection.execute, "ROLLBACK")
        connection.close()

    freed = asyncio.ensure_future(release()) if seconds is not None else None
    try:
        yield
    finally:
        await (freed if freed is not None else release())


def acknowledged_in_time(interaction: FakeInteraction, kind: int) -> None:
    """The interaction got its first response within the stand-in's deadline: ``kind``, the
    watchdog's acknowledgement while the database was held."""
    assert interaction.rejected == [], interaction.rejected
    assert interaction.callback is not None and interaction.callback.type == kind, (
        interaction.responses
    )


async def placeholder_gone(world: World, interaction: FakeInteraction) -> None:
    """Wait until the command's "thinking" placeholder has been deleted."""

    def gone() -> bool | None:
        placeholder = interaction.original_message
        return True if placeholder is not None and placeholder.deleted else None

    await world.fake.wait_until(gone, timeout=WAIT)


async def start_game(world: World, first: str, second: str, name: str) -> FakeChannel:
    channel = world.channel(name)
    await world.challenge(
        world.user(first), world.user(second), channel, variant="brandubh", side="attackers"
    )
    return channel


def public_bot_messages(world: World, channel: FakeChannel, after: int) -> list[FakeMessage]:
    return [
        m
        for m in world.fake.world.message_order[after:]
        if m.channel_id == channel.id and m.from_bot and not m.ephemeral and not m.deleted
    ]


async def test_a_move_while_the_database_is_held_brings_its_board_and_ping(
    world: World, bot_log: None
) -> None:
    ann, bo = world.user("ann"), world.user("bo")
    channel = await start_game(world, "ann", "bo", "slow-move")
    mark = world.fake.checkpoint()
    async with database_held(world):
        moved = await world.command(ann, channel, "move", move="d1-c1")
        acknowledged_in_time(moved, THINKING)
        board = await world.board_after(channel, mark, "played `d1-c1`")
    assert board.attachments and board.interaction_id == moved.id
    assert bo.mention in board.text and board.pinged_user_ids == [bo.id]
    # The "thinking" placeholder goes: the channel shows the board alone.
    await placeholder_gone(world, moved)
    assert public_bot_messages(world, channel, mark) == [board]

    # ann, who saw her answer come slowly, sends the move again: it counted.
    reply = await world.error_reply(ann, channel, "move", move="d1-c1")
    assert reply == (
        f"It is not your turn: your move `d1-c1` was played, and {bo.mention} is to move with "
        "the defenders."
    )
    await world.command(bo, channel, "resign")


async def test_a_move_chosen_in_the_menus_while_the_database_is_held(
    world: World, bot_log: None
) -> None:
    cy, di = world.user("cy"), world.user("di")
    channel = await start_game(world, "cy", "di", "slow-menus")
    board = await world.fake.wait_for_message(
        channel, lambda m: "begins" in m.text and bool(m.custom_ids), timeout=WAIT
    )
    click = await world.click(cy, board, ":move")
    menu = click.original_message
    assert menu is not None and menu.ephemeral
    pieces = menu.custom_ids[0]
    d1, c1 = (str(parse_square(name, 7)) for name in ("d1", "c1"))
    await (await world.fake.choose_select(cy, menu, pieces, [d1])).wait_callback(timeout=WAIT)
    targets = menu.custom_ids[0]
    mark = world.fake.checkpoint()
    async with database_held(world):
        chosen = await world.fake.choose_select(cy, menu, targets, [c1])
        await chosen.wait_callback(timeout=WAIT)
        acknowledged_in_time(chosen, CLICK_ACKNOWLEDGED)
        played = await world.board_after(channel, mark, "played `d1-c1`")
    assert played.pinged_user_ids == [di.id]
    # The private menu says what was played, as when the database answers at once.
    await world.fake.wait_until(
        lambda: True if "You played `d1-c1`" in menu.text else None, timeout=WAIT
    )
    assert not menu.custom_ids
    await world.command(di, channel, "resign")


async def test_buttons_while_the_database_is_held_accept_a_challenge_and_a_draw(
    world: World, bot_log: None
) -> None:
    ed, flo = world.user("ed"), world.user("flo")
    channel = world.channel("slow-buttons")
    offer = await world.offer_challenge(ed, flo, channel, variant="brandubh", side="attackers")
    mark = world.fake.checkpoint()
    async with database_held(world):
        accepted = await world.click(flo, offer, ":accept")
        acknowledged_in_time(accepted, CLICK_ACKNOWLEDGED)
        board = await world.first_board(channel, mark)
    assert board.pinged_user_ids == [ed.id]
    await world.fake.wait_until(
        lambda: True if "accepted!" in offer.text and not offer.custom_ids else None,
        timeout=WAIT,
    )

    asked = await world.command(ed, channel, "draw")
    question = asked.original_message
    assert question is not None
    mark = world.fake.checkpoint()
    async with database_held(world):
        agreed = await world.click(flo, question, ":yes")
        acknowledged_in_time(agreed, CLICK_ACKNOWLEDGED)
        await world.board_after(channel, mark, "Draw** by agreement")
    await world.fake.wait_until(
        lambda: True if question.text == "Draw agreed." else None, timeout=WAIT
    )


async def test_a_private_answer_late_because_of_the_database_stays_private(
    world: World, bot_log: None
) -> None:
    gil = world.user("gil")
    channel = world.channel("slow-private")
    mark = world.fake.checkpoint()
    async with database_held(world):
        asked = await world.command(gil, channel, "preferences", notify=True)
        acknowledged_in_time(asked, THINKING)
        answer = await asked.wait_response(
            lambda r: r.kind == "followup" and r.ephemeral, timeout=WAIT
        )
    assert answer.message is not None and answer.message.embeds
    assert "direct message" in str(answer.message.embeds[0]).lower()
    # The public "thinking" placeholder went once the private answer was out.
    await placeholder_gone(world, asked)
    assert public_bot_messages(world, channel, mark) == []


async def test_an_error_found_late_because_of_the_database_is_told_privately(
    world: World, bot_log: None
) -> None:
    hal, ivy = world.user("hal"), world.user("ivy")
    channel = await start_game(world, "hal", "ivy", "slow-refusal")
    mark = world.fake.checkpoint()
    # Held until hal is told: past the bot's busy timeout however slowly the machine runs, so
    # the move cannot be stored.
    async with database_held(world, None):
        moved = await world.command(hal, channel, "move", move="d1-c1")
        acknowledged_in_time(moved, THINKING)
        told = await private_text(moved)
    assert told.startswith("The bot cannot reach its game database right now.")
    await placeholder_gone(world, moved)
    assert public_bot_messages(world, channel, mark) == []
    # Nothing was stored: the same move now goes through.
    [board] = await world.play_line(hal, ivy, channel, ["d1-c1"])
    assert "played `d1-c1`" in board.text
    await world.command(ivy, channel, "resign")


async def test_a_stored_move_whose_answer_discord_refused_is_announced_in_the_channel(
    tmp_path: Path,
) -> None:
    # A stand-in that gives up after 1.2 s, before even the watchdog answers (as when the
    # bot's event loop stalls): the move is stored, so its board and ping go to the channel.
    async with open_world(tmp_path, ["jo", "kai"], interaction_deadline=1.2) as world:
        jo, kai = world.user("jo"), world.user("kai")
        channel = world.channel("refused")
        offer = await world.offer_challenge(jo, kai, channel, variant="brandubh", side="attackers")
        mark = world.fake.checkpoint()
        await world.fake.click_button(kai, offer, button_id(offer, ":accept"))
        await world.first_board(channel, mark)
        mark = world.fake.checkpoint()
        async with database_held(world, 2.0):
            moved = await world.fake.send_slash_command(
                jo, channel, "tafl", subcommand="move", options={"move": "d1-c1"}
            )
            board = await world.board_after(channel, mark, "played `d1-c1`")
        assert moved.rejected and moved.callback is None  # Discord had given up on it
        assert board.pinged_user_ids == [kai.id] and board.attachments
        assert board.interaction_id is None  # a message of the channel's own
        log = world.bot.log_text()
    assert "the board's answer came too late; posted in the channel" in log


# ------------------------------------------------------------------ PostgreSQL, the case


async def test_three_moves_at_once_while_a_table_is_locked_all_bring_their_boards(
    tmp_path: Path, schema_url: str
) -> None:
    import asyncpg

    async with FakeDiscord() as fake:
        guild = fake.create_guild("Club")
        users = [fake.create_user(name, guild=guild) for name in ("pam", "quin", "rae", "sid")]
        env = bot_env(
            fake,
            guild,
            tmp_path,
            {"TAFL_DATABASE": schema_url, "TAFL_DB_POOL_SIZE": "1", "TAFL_TIMER_TICK": "0.5"},
        )
        bot = BotProcess(env, tmp_path / "bot.log")
        await bot.start(fake, guild)
        try:
            world = World(fake, guild, bot, {u.username: u for u in users})
            movers, opponents = users[:3], [users[3]] * 3
            channels = [world.channel(f"locked-{n}") for n in range(3)]
            for mover, opponent, channel in zip(movers, opponents, channels, strict=True):
                await world.challenge(
                    mover, opponent, channel, variant="brandubh", side="attackers"
                )
            mark = fake.checkpoint()
            locker = await asyncpg.connect(schema_url)
            try:
                transaction = locker.transaction()
                await transaction.start()
                await locker.execute("LOCK TABLE moves IN EXCLUSIVE MODE")
                locked_at = asyncio.get_running_loop().time()
                moved = await asyncio.gather(
                    *(
                        world.command(mover, channel, "move", move="d1-c1")
                        for mover, channel in zip(movers, channels, strict=True)
                    )
                )
                # Held 6 s in all, as in the issue: far past Discord's 3 s.
                await asyncio.sleep(6.0 - (asyncio.get_running_loop().time() - locked_at))
                await transaction.rollback()
            finally:
                await locker.close()
            for interaction in moved:
                acknowledged_in_time(interaction, THINKING)
            for channel in channels:
                board = await world.board_after(channel, mark, "played `d1-c1`")
                assert board.pinged_user_ids == [users[3].id]
        finally:
            code = await bot.stop()
        log = bot.log_text()
        print(log)
        fake.assert_healthy()
    assert code == 0
    problems = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
    assert not problems, problems
