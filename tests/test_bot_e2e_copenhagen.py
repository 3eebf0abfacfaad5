"""End-to-end, Copenhagen Hnefatafl: /tafl rules and /tafl variants explain it, the Move button
offers every attacker that can move, and two challenges are played from the start to the
defenders' exit fort and to the attackers' encirclement, each ending on a board that says so in
words and keeps only its Rematch button.

One bot process (``python -m bot``, against the local Discord stand-in) serves the module; each
scenario plays in its own channel with its own players (a member may post one challenge every
20 s).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence

import pytest
import pytest_asyncio
from e2e_support import WAIT, World, attachment_is_png, open_world, printed_log
from fakediscord import FakeInteraction, FakeMessage

from bot.engine import Game, Side, Termination

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(180)]

NAMES = ["ari", "bjorn", "cnut", "dag", "eir", "frida"]

EXIT_FORT = (
    "d1-c1", "e5-e2", "c1-c10", "d6-d1", "j6-j9", "e2-b2", "k4-j4", "b2-b1", "k8-j8", "e6-e2",
    "h11-h10", "e2-b2", "d11-d10", "e7-e2", "j9-i9", "e2-d2", "j4-i4", "g5-g3", "j8-i8", "g3-b3",
    "i9-i10", "f4-f3", "h10-h9", "f6-c6", "d10-d9", "c6-c1", "i4-i2", "f3-c3",
)  # fmt: skip
"""From the start: the attackers step aside while the defenders wall in the corner of a1; the
king reaches c1 and f3-c3 closes the fort (king c1, empty c2; defenders b1, d1, b2, d2, b3,
c3), with no capture on the way."""

ENCIRCLEMENT = (
    "e1-e3", "e5-e4", "g1-g3", "g5-g4", "e11-e9", "e7-e8", "g11-g9", "g7-g8", "a7-c7", "d6-d5",
    "a5-c5", "h6-h5", "k7-i7", "e4-e5", "k5-i5", "g4-g5", "d1-d4", "e8-e7", "h1-h4", "g8-g7",
    "d11-d8", "d5-d6", "h11-h8",
)  # fmt: skip
"""From the start: the attackers close a diamond four steps from the throne (every square there
an attacker: b6, c5, c7, d4, d8, e3, e9, f2, f10, g3, g9, h4, h8, i5, i7, j6) around the king
and every defender, who step out and back inside it, with no capture on the way."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with open_world(tmp_path_factory.mktemp("bot_e2e_copenhagen"), NAMES) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    """Print what the bot logged during the test (pytest shows it only when the test fails)."""
    with printed_log(world):
        yield


def checked_line(moves: Sequence[str], ending: Termination) -> Game:
    """Play ``moves`` from Copenhagen's start with the engine, before the bot is asked to: the
    line is legal, captures nothing, and only its last move ends the game, by ``ending``."""
    game = Game("copenhagen")
    for ply, move in enumerate(moves, start=1):
        assert not game.is_over, (ply, move, game.outcome)
        assert not game.play(move).captures, (ply, move)
    assert game.outcome is not None and game.outcome.termination is ending, game.outcome
    return game


async def private_reply(interaction: FakeInteraction) -> FakeMessage:
    """The first private reply to ``interaction``."""
    response = await interaction.wait_response(lambda r: r.ephemeral, timeout=WAIT)
    assert response.message is not None, interaction.responses
    return response.message


async def stripped(world: World, message: FakeMessage) -> None:
    """Wait until the bot has taken every button and menu off ``message``."""
    await world.fake.wait_until(
        lambda: True if not message.custom_ids else None,
        timeout=WAIT,
        what=f"the controls of message {message.id} removed",
    )


async def only_rematch_left(world: World, boards: Sequence[FakeMessage]) -> None:
    """The final board keeps Rematch and nothing else; every earlier board lost its controls."""
    final = boards[-1]
    assert final.custom_ids and all(cid.startswith("tafl:rm:") for cid in final.custom_ids), (
        final.custom_ids
    )
    for board in boards[:-1]:
        await stripped(world, board)


# -- rules -----------------------------------------------------------------------------------------


async def test_rules_explain_shieldwall_exit_fort_encirclement_and_repetition(
    world: World, bot_log: None
) -> None:
    ari = world.user("ari")
    lobby = world.channel("rules")
    asked = await world.command(ari, lobby, "rules", variant="copenhagen")
    shown = await asked.wait_followup(timeout=WAIT)  # deferred: drawn off the event loop
    assert shown.ephemeral
    [embed] = shown.embeds
    assert embed["title"] == "Copenhagen Hnefatafl (11x11)"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["King escapes to"] == (
        "a corner, or wins with an exit fort on the edge (see below)"
    )
    assert "open road to a corner" in fields["Calls"]
    for name in ("Shieldwall", "Exit fort", "Encirclement", "Repetition"):
        assert name in fields, list(fields)
    assert "the attackers win" in fields["Repetition"]
    start = fields["Start a game"]
    assert "/tafl challenge opponent:@someone variant:Copenhagen Hnefatafl" in start, start
    assert embed["image"]["url"] == "attachment://start.png"
    width, height = attachment_is_png(shown)
    assert width == height == 720  # 11 squares of 60 px in a 30 px margin
    assert len(shown.attachments[0].data) < 40_000

    listed = await world.command(ari, lobby, "variants")
    assert listed.original_message is not None
    assert (
        "**Copenhagen Hnefatafl** (`copenhagen`): 11x11, the attackers move first, the king "
        "escapes to a corner or builds an exit fort" in listed.original_message.text
    )


# -- games -----------------------------------------------------------------------------------------


async def test_a_challenge_played_to_an_exit_fort(world: World, bot_log: None) -> None:
    ari, bjorn = world.user("ari"), world.user("bjorn")
    channel = world.channel("exit-fort")
    checked_line(EXIT_FORT, Termination.EXIT_FORT)
    first = await world.challenge(ari, bjorn, channel, variant="copenhagen", side="attackers")
    assert "**Copenhagen Hnefatafl** begins." in first.text, first.text
    assert attachment_is_png(first) == (720, 774)  # with the caption strip

    # The Move button offers every attacker that can move (20 of 24) in one menu.
    menu = (await world.click(ari, first, ":move")).original_message
    assert menu is not None and menu.ephemeral
    [pieces] = menu.custom_ids
    options = menu.component(pieces)["options"]  # type: ignore[index]
    assert len(options) == 20 and options[0]["label"] == "d1 (attacker)", options

    boards = await world.play_line(ari, bjorn, channel, EXIT_FORT)
    final = boards[-1]
    assert "played `f3-c3`" in final.text
    assert "The king built an exit fort on the edge: the attackers cannot break in!" in final.text
    assert f"**{bjorn.mention} wins** with the defenders (exit fort)." in final.text
    assert "Rematch" in final.text  # the footer of a finished game
    attachment_is_png(final)
    assert len(final.attachments[0].data) < 40_000
    await only_rematch_left(world, [first, *boards])


async def test_a_challenge_played_to_an_encirclement(world: World, bot_log: None) -> None:
    cnut, dag = world.user("cnut"), world.user("dag")
    channel = world.channel("encirclement")
    game = checked_line(ENCIRCLEMENT, Termination.ENCIRCLEMENT)
    assert game.outcome is not None and game.outcome.winner is Side.ATTACKERS
    # dag challenges and takes the defenders: the attackers' player, cnut, moves first.
    first = await world.challenge(dag, cnut, channel, variant="copenhagen", side="defenders")
    boards = await world.play_line(cnut, dag, channel, ENCIRCLEMENT)
    final = boards[-1]
    assert "played `h11-h8`" in final.text
    assert "The attackers have encircled the king and all his defenders!" in final.text
    assert f"**{cnut.mention} wins** with the attackers (encirclement)." in final.text
    assert "The king is captured" not in final.text
    await only_rematch_left(world, [first, *boards])
