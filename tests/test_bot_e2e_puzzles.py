"""``/tafl puzzle`` end to end: a private puzzle solved with ``/tafl move`` (a wrong move gets a
hint, a right one the reply), lichess-style rating of the first go, and a server's daily puzzle
with who solved it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from e2e_support import WAIT, World, attachment_is_png, open_world, printed_log

from bot.ai.puzzles import Puzzle, load_starter_set

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(180)]

NAMES = ["ann", "ben", "cat"]
SHOWN = re.compile(r"\*\*Puzzle ([\w-]+)\*\*")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with open_world(tmp_path_factory.mktemp("bot_e2e_puzzles"), NAMES) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    with printed_log(world):
        yield


def shipped(puzzle_id: str) -> Puzzle:
    return next(p for p in load_starter_set() if p.id == puzzle_id)


async def private(
    world: World, user: str, channel_name: str, subcommand: str, **options: object
) -> str:
    interaction = await world.command(
        world.user(user), world.existing(channel_name), subcommand, **options
    )
    response = await interaction.wait_response(lambda r: bool(r.content), timeout=WAIT)
    assert response.ephemeral, response
    message = interaction.original_message
    assert message is not None and message.attachments, interaction.responses
    assert attachment_is_png(message)[0] > 0
    return response.content or ""


async def test_a_puzzle_is_solved_by_moving_with_a_hint_after_a_wrong_move(
    world: World, bot_log: None, tmp_path: Path
) -> None:
    world.channel("puzzles")
    shown = await private(world, "ann", "puzzles", "puzzle", variant="brandubh")
    match = SHOWN.search(shown)
    assert match and "(Brandubh, rated " in shown and "to play and win in" in shown, shown
    puzzle = shipped(match.group(1))
    line = puzzle.main_line()
    # The moves list offers the puzzle's legal moves, not "no game in this channel".
    ask = await world.fake.send_autocomplete(
        world.user("ann"), world.existing("puzzles"), "tafl", subcommand="move",
        focused="move", options={"move": ""},
    )  # fmt: skip
    await ask.wait_callback(timeout=WAIT)
    legal = {m.text(puzzle.game().size) for m in puzzle.game().legal_moves()}
    offered = {choice["value"] for choice in ask.choices}
    assert offered and offered <= legal

    wrong = next(move for move in sorted(legal) if puzzle.answer((), move).correct is False)
    answer = await private(world, "ann", "puzzles", "move", move=wrong)
    assert answer.startswith(f"**{wrong}** is not it") and "Hint: " in answer, answer
    assert "counts as missed: puzzle rating 1500?" in answer, answer
    for index in range(0, len(line), 2):
        answer = await private(world, "ann", "puzzles", "move", move=line[index])
        if index + 1 < len(line):
            assert answer == (
                f"**{line[index]}** is right. The answer is **{line[index + 1]}**: your move."
            ), answer
    assert answer.startswith(f"**{line[-1]}** wins: solved!"), answer
    assert "Not rated: a move was wrong on the way." in answer


async def test_the_daily_puzzle_is_the_same_for_everyone_and_lists_who_solved_it(
    world: World, bot_log: None
) -> None:
    world.channel("daily")
    first = await private(world, "ben", "daily", "puzzle", daily=True)
    assert "Nobody has solved it yet today." in first, first
    match = SHOWN.search(first)
    assert match
    puzzle = shipped(match.group(1))
    line = puzzle.main_line()
    for index in range(0, len(line), 2):
        answer = await private(world, "ben", "daily", "move", move=line[index])
    assert "wins: solved! Your puzzle rating 1500? → " in answer, answer
    second = await private(world, "cat", "daily", "puzzle", daily=True)
    assert f"**Puzzle {puzzle.id}**" in second
    assert f"Solved today by 1 player: <@{world.user('ben').id}>" in second, second
