"""The pseudo-locale end to end: the bot writes every translated string marked and
lengthened, and the stand-in finds no word a player would read, in a message or drawn on an
image, that escaped translation (tests/pseudo_locale.py). A small part of what
``pytest --pseudo-locale`` checks across every end-to-end test: a game with its captions, an
illegal move, help and the rules, a review with its chart, and a tournament to its
crosstable and its card's history."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from e2e_support import WAIT, World, attachment_is_png, open_world, printed_log
from fakediscord import FakeChannel, FakeMessage, FakeUser, Permission
from pseudo_locale import PseudoWatch, escaped_words

from bot.i18n.language import pseudo

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(180)]

NAMES = ["ann", "ben", "cy", "dee", "olga"]
KING_RUNS = ["b4-b7", "c4-c6", "a4-a6", "d4-a4", "d2-c2", "a4-a1"]
"""A brandubh game the defenders win at once: the king runs to the corner a1."""
PAIRED = re.compile(r"<@(\d+)> attacks, <@(\d+)> defends")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    folder = tmp_path_factory.mktemp("bot_e2e_pseudo")
    async with open_world(folder, NAMES, pseudo=True) as world:
        yield world


@pytest.fixture
def watch(world: World) -> Iterator[PseudoWatch]:
    """The stand-in's watch; the test must leave no new escape in it."""
    found = PseudoWatch.on(world.fake)
    before, checked, drawn = len(found.escapes), found.record.checked, found.record.drawn
    with printed_log(world):
        yield found
    found.finish()
    assert found.record.checked > checked and found.record.drawn > drawn, "nothing was checked"
    escapes = found.escapes[before:]
    assert not escapes, "text that escaped translation:\n" + "\n".join(
        f"[{e.where}] {', '.join(e.words)}: {e.text!r}" for e in escapes
    )


async def test_the_check_finds_an_english_word_but_not_names_moves_or_marked_text() -> None:
    marked = pseudo("{player} played {move}, the king escaped.").format(player="ann", move="d4-a4")
    assert escaped_words(marked, frozenset({"ann"})) == ()
    assert escaped_words(f"{marked} Defenders win", frozenset({"ann"})) == ("Defenders", "win")
    assert escaped_words(pseudo("{side} win").format(side="Defenders")) == ("Defenders",)
    assert escaped_words("Raichi! `/tafl move` <@12> https://example.org e5 x d1-d3") == ()


async def test_a_game_to_its_end_an_illegal_move_help_rules_and_a_review(
    world: World, watch: PseudoWatch
) -> None:
    ann, ben = world.user("ann"), world.user("ben")
    channel = world.channel("duel")
    board = await world.challenge(ann, ben, channel, variant="brandubh", side="attackers")
    attachment_is_png(board)
    refused = await world.error_reply(ben, channel, "move", move="d4-d7")
    assert refused
    boards = await world.play_line(ann, ben, channel, KING_RUNS)
    assert "wins" in boards[-1].text
    helped = await world.command(ann, channel, "help")
    assert helped.callback is not None and helped.callback.ephemeral
    rules = await world.command(ann, channel, "rules", variant="brandubh")
    assert rules.responses
    asked = await world.fake.send_slash_command(
        ben, channel, "tafl", subcommand="analyze", options={}
    )
    review = await asked.wait_response(
        lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
    )
    assert review.data["embeds"][0]["title"].startswith("Review of game #1")
    assert asked.original_message is not None
    attachment_is_png(asked.original_message)
    keep_shots("pseudo-board", boards[-1])
    keep_shots("pseudo-review", asked.original_message)


async def test_a_round_robin_to_its_crosstable(world: World, watch: PseudoWatch) -> None:
    fake, guild = world.fake, world.guild
    olga = world.user("olga")
    fake.give_role(guild, olga, fake.create_role(guild, "managers", Permission.MANAGE_GUILD))
    players = [world.user(name) for name in ("ann", "ben", "cy")]
    channel = world.channel("club")
    await tournament(world, olga, channel, "create", name="Club", variant="brandubh",
                     format="round_robin")  # fmt: skip
    for player in players:
        await tournament(world, player, channel, "join", event=1)
    await tournament(world, olga, channel, "start", event=1)
    people = {player.id: player for player in players}
    for number in range(1, 4):
        thread, defender = await round_game(world, channel, number)
        resigned = await fake.send_slash_command(
            people[defender], thread, "tafl", subcommand="resign", options={}
        )
        await resigned.wait_callback(timeout=WAIT)
    standings = await fake.wait_for_message(
        channel, lambda m: "final" in m.text and bool(m.attachments), timeout=WAIT
    )
    attachment_is_png(standings)
    keep_shots("pseudo-crosstable", standings)
    # The event's card: its players and its history.
    await tournament(world, olga, channel, "info", event=1)


def keep_shots(name: str, message: FakeMessage) -> None:
    """With ``TAFL_TEST_SHOTS`` (a folder): keep the message's images there, to look at how
    the lengthened words fit."""
    shots = os.environ.get("TAFL_TEST_SHOTS")
    if shots:
        for index, attachment in enumerate(message.attachments):
            (Path(shots) / f"{name}-{index}.png").write_bytes(attachment.data)


async def tournament(
    world: World, user: FakeUser, channel: FakeChannel, subcommand: str, **options: object
) -> None:
    interaction = await world.fake.send_slash_command(
        user, channel, "tafl-tournament", subcommand=subcommand, options=options
    )
    await interaction.wait_callback(timeout=WAIT)


async def round_game(world: World, channel: FakeChannel, number: int) -> tuple[FakeChannel, int]:
    """The round's one game (three players: one has a bye): its thread and its defender."""

    def paired() -> tuple[FakeChannel, int] | None:
        for thread in world.fake.world.channels.values():
            if thread.parent_id == channel.id and f"· R{number} ·" in thread.name:
                for message in world.fake.bot_messages(thread):
                    found = PAIRED.search(message.text)
                    if found:
                        return thread, int(found[2])
        return None

    return await world.fake.wait_until(paired, timeout=WAIT)
