"""``/tafl analyze`` of a real Copenhagen game lost to an exit fort, end to end on the Discord
stand-in: the review names the attackers' move that allowed the fort.

Game 1145 of the recorded games (``tests/data/copenhagen-games.csv``): the attackers, well
ahead (about 80% by the review's chances), played 31. g1-g7, after which the defenders build an
exit fort by force (a full-width search proves it, seven plies); 32. b9-b8, which they played
next, lost too, as did every move then. The review of method 2 named no decisive move at all
and gave the attackers 83% accuracy: its search did not read exit forts at its horizon, the
losing move was its own choice a move later, and it searched again only where a forced result
was longer than its depth.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from copenhagen_records import load_games
from e2e_support import WAIT, World, open_world, printed_log

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(600)]

NAMES = ["ann", "ben"]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with open_world(tmp_path_factory.mktemp("bot_e2e_review_fort"), NAMES) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    with printed_log(world):
        yield


async def test_a_review_names_the_move_that_allowed_an_exit_fort(
    world: World, bot_log: None, tmp_path: Path
) -> None:
    [recorded] = [game for game in load_games() if game.index == 1145]
    moves = [move for move, _ in recorded.moves]
    ann, ben = world.user("ann"), world.user("ben")
    channel = world.channel("fort")
    await world.challenge(ann, ben, channel, variant="copenhagen", side="attackers")
    boards = await world.play_line(ann, ben, channel, moves)
    assert "exit fort" in boards[-1].text.lower(), boards[-1].text

    asked = await world.fake.send_slash_command(
        ann, channel, "tafl", subcommand="analyze", options={}
    )
    review = await asked.wait_response(
        lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 10
    )
    [embed] = review.data["embeds"]
    assert embed["description"].startswith("ben won with the defenders (exit fort).\n"), embed
    moments = embed["fields"][0]
    assert "**31. g1-g7** ann (attackers), blunder: allows" in moments["value"], embed
    accuracy = embed["description"].split("ann (attackers): ")[1].split("%")[0]
    assert float(accuracy) < 70, embed["description"]
    message = asked.original_message
    assert message is not None
    for attachment in message.attachments:
        (tmp_path / attachment.filename).write_bytes(attachment.data)
