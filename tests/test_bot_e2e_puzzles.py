"""``/tafl puzzle`` end to end: a private puzzle solved with ``/tafl move`` (a wrong move gets a
hint, a right one the reply), lichess-style rating of the first go, and a server's daily puzzle
with who solved it."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pseudo_locale
import pytest
import pytest_asyncio
from e2e_support import WAIT, World, attachment_is_png, open_world, printed_log, private_text
from fakediscord import FakeMessage

from bot.ai.puzzles import Puzzle, load_starter_set
from bot.discord_bot.compose.board import BoardLook
from bot.discord_bot.compose.puzzles import board_png, prompt
from bot.engine import Side, parse_square
from bot.i18n.language import Languages

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(180)]

NAMES = ["ann", "ben", "cat", "dee", "eli"]
SHOWN = re.compile(r"\*\*Puzzle ([\w-]+)\*\*")
FRENCH = Languages().language("fr")


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
    assert match and "(Brandubh, difficulty " in shown and "to play and win in" in shown, shown
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
    assert "\nThis puzzle counts as missed: your puzzle rating 1500 → 1" in answer, answer
    assert "(−" in answer and ", provisional)." in answer, answer
    for index in range(0, len(line), 2):
        answer = await private(world, "ann", "puzzles", "move", move=line[index])
        if index + 1 < len(line):
            assert answer == (
                f"**{line[index]}** is right. The {puzzle.to_move.other.value} reply "
                f"**{line[index + 1]}**: your move."
                f"\n-# Puzzle {puzzle.id}: {prompt(puzzle)}"
            ), answer
    assert answer.startswith(f"**{line[-1]}** wins: solved!"), answer
    assert "\nYour puzzle rating had already counted this puzzle as missed." in answer


async def test_the_daily_puzzle_is_the_same_for_everyone_and_lists_who_solved_it(
    world: World, bot_log: None
) -> None:
    world.channel("daily")
    first = await private(world, "ben", "daily", "puzzle", daily=True)
    assert "Nobody has solved it yet today." in first, first
    match = SHOWN.search(first)
    assert match
    puzzle = shipped(match.group(1))
    # Asked again, the daily puzzle shows the go in progress rather than starting it over.
    again = await private(world, "ben", "daily", "puzzle", daily=True)
    assert f"**Puzzle {puzzle.id}**" in again and "\n-# In progress." in again, again
    line = puzzle.main_line()
    for index in range(0, len(line), 2):
        answer = await private(world, "ben", "daily", "move", move=line[index])
    assert "wins: solved!\nYour puzzle rating 1500 → " in answer, answer
    second = await private(world, "cat", "daily", "puzzle", daily=True)
    assert f"**Puzzle {puzzle.id}**" in second
    assert f"Solved today by 1 player: <@{world.user('ben').id}>" in second, second

    # The puzzle rating is part of the record /tafl stats shows.
    stats = await world.command(world.user("cat"), world.existing("daily"), "stats",
                                player=world.user("ben"))  # fmt: skip
    assert stats.original_message is not None
    shown = stats.original_message.text
    assert re.search(r"Puzzles \d+\? after 1 rated puzzle, 1 solved at the first try", shown), shown
    mine = await world.command(world.user("cat"), world.existing("daily"), "stats")
    assert mine.original_message is not None
    assert "Puzzles None rated yet: `/tafl puzzle` gives you one." in mine.original_message.text


def menu_id(message: FakeMessage, prefix: str) -> str:
    """The custom id of the one component on ``message`` starting with ``prefix``."""
    found = [cid for cid in message.custom_ids if cid.startswith(prefix)]
    assert len(found) == 1, (prefix, message.custom_ids)
    return found[0]


async def pick(
    world: World, user: str, message: FakeMessage, prefix: str, value: str, locale: str = "en-US"
) -> str:
    """``user`` picks ``value`` in the menu starting with ``prefix`` (their Discord app in
    ``locale``); the click's answer (the message updated in place, or a private error)."""
    menus = [cid for cid in message.custom_ids if cid.startswith(prefix)]
    custom_id = next(
        cid
        for cid in menus
        if any(o["value"] == value for o in (message.component(cid) or {}).get("options", []))
    )
    clicked = await world.fake.choose_select(
        world.user(user), message, custom_id, [value], locale=locale
    )
    response = await clicked.wait_callback(timeout=WAIT)
    return response.content or ""


def square(text: str, size: int) -> str:
    """The menu value of a square name (its index on the board)."""
    return str(parse_square(text, size))


async def test_a_puzzle_is_solved_by_clicking_on_its_own_board(world: World, bot_log: None) -> None:
    world.channel("clicks")
    interaction = await world.command(
        world.user("cat"), world.existing("clicks"), "puzzle", variant="tablut"
    )
    await interaction.wait_response(lambda r: bool(r.content), timeout=WAIT)
    board = interaction.original_message
    assert board is not None and board.ephemeral
    match = SHOWN.search(board.content)
    assert match and "Choose your move below" in board.content, board.content
    puzzle = shipped(match.group(1))
    # A puzzle of two moves or more, to click through a reply: the one nearest cat's rating
    # depends on the ratings earlier scenarios gave (the daily puzzle differs from run to run).
    for _ in range(10):
        if len(puzzle.main_line()) > 1:
            break
        skipped = await world.click(world.user("cat"), board, "tafl:zn:tablut")
        await skipped.wait_response(lambda r: bool(r.content), timeout=WAIT)
        board = skipped.original_message
        assert board is not None
        found = SHOWN.search(board.content)
        assert found, board.content
        puzzle = shipped(found.group(1))
    size = puzzle.game().size
    line = puzzle.main_line()
    first_image = board.attachments[0].data
    assert len(line) > 1, "no tablut puzzle of two moves near cat's rating"
    # Asking again shows the same go, not a new puzzle.
    asked = await world.command(world.user("cat"), world.existing("clicks"), "puzzle")
    await asked.wait_response(lambda r: bool(r.content), timeout=WAIT)
    again = asked.original_message
    assert again is not None and again.ephemeral
    assert f"**Puzzle {puzzle.id}**" in again.content and "\n-# In progress." in again.content

    # A piece, then Back, then the solution's first move by clicking.
    wrong = next(
        m for m in puzzle.game().legal_moves() if not puzzle.answer((), m.text(size)).correct
    )
    origin, target = wrong.text(size).split("-")
    await pick(world, "cat", board, "tafl:zp:", square(origin, size))
    assert menu_id(board, "tafl:zt:").endswith(f":0:{square(origin, size)}")
    assert board.attachments[0].data == first_image, "choosing a piece keeps the board"
    await pick(world, "cat", board, "tafl:zt:", "back")
    assert menu_id(board, "tafl:zp:")
    await pick(world, "cat", board, "tafl:zp:", square(origin, size))
    await pick(world, "cat", board, "tafl:zt:", square(target, size))
    assert board.content.startswith(f"**{wrong.text(size)}** is not it"), board.content
    assert "Hint: " in board.content and f"-# Puzzle {puzzle.id}: " in board.content
    # The same position, with the refused move drawn as an arrow.
    assert board.attachments[0].data != first_image
    for index in range(0, len(line), 2):
        before = board.attachments[0].data
        origin, target = line[index].split("-")
        await pick(world, "cat", board, "tafl:zp:", square(origin, size))
        await pick(world, "cat", board, "tafl:zt:", square(target, size))
        assert attachment_is_png(board)[0] > 0 and board.attachments[0].data != before
        if index + 1 < len(line):
            # "is right." or, when the move captures, "is right, capturing the … on f5."
            pattern = rf"\*\*{line[index]}\*\* is right(, capturing [^.]+)?\. "
            assert re.match(pattern, board.content), board.content
        if index == 0:
            # The menu on the board shown again is now a move behind: it says so.
            clicked = await world.fake.choose_select(
                world.user("cat"), again, menu_id(again, "tafl:zp:"), [square(origin, size)]
            )
            stale = await private_text(clicked)
            assert stale.startswith("That board is out of date"), stale
    assert board.content.startswith(f"**{line[-1]}** wins: solved!"), board.content
    assert [b["label"] for b in board.buttons] == ["Next puzzle"], board.buttons
    assert not [cid for cid in board.custom_ids if cid.startswith(("tafl:zp", "tafl:zt"))]

    # The next one is another tablut puzzle, shown privately with its own menus.
    nxt = await world.click(world.user("cat"), board, "tafl:zn:tablut")
    await nxt.wait_response(lambda r: bool(r.content), timeout=WAIT)
    second = nxt.original_message
    assert second is not None and second.ephemeral
    found = SHOWN.search(second.content)
    assert found and found.group(1) != puzzle.id and "(Tablut, difficulty" in second.content
    assert menu_id(second, "tafl:zp:").endswith(":0")

    other = shipped(found.group(1))
    # And a menu of a puzzle left behind says that it is no longer open.
    skipped = await world.click(world.user("cat"), second, "tafl:zn:tablut")
    await skipped.wait_response(lambda r: bool(r.content), timeout=WAIT)
    third = skipped.original_message
    assert third is not None and f"**Puzzle {other.id}**" not in third.content
    assert f"\n-# You left puzzle {other.id} unsolved." in third.content, third.content
    clicked = await world.fake.choose_select(
        world.user("cat"),
        second,
        menu_id(second, "tafl:zp:"),
        [second.component(menu_id(second, "tafl:zp:"))["options"][0]["value"]],  # type: ignore[index]
    )
    gone = await private_text(clicked)
    assert gone.startswith(f"Puzzle {other.id} is no longer open."), gone


async def test_a_player_of_the_channels_game_is_told_that_typed_moves_go_to_the_game(
    world: World, bot_log: None
) -> None:
    channel = world.channel("playing")
    await world.challenge(world.user("ann"), world.user("ben"), channel, variant="brandubh")
    shown = await private(world, "ann", "playing", "puzzle", variant="tablut")
    assert "Choose your move below, `/tafl move` here plays in your game" in shown, shown
    # Someone who is not playing there types as usual.
    other = await private(world, "cat", "playing", "puzzle", variant="tablut")
    assert "or type it with `/tafl move`." in other, other


async def test_a_puzzle_is_drawn_in_the_solvers_theme_and_turned_to_their_side(
    world: World, bot_log: None
) -> None:
    channel = world.channel("my-puzzle-boards")
    dee = world.user("dee")
    await world.command(dee, channel, "preferences", theme="contrast", flip=True)
    interaction = await world.command(dee, channel, "puzzle", variant="brandubh")
    await interaction.wait_response(lambda r: bool(r.content), timeout=WAIT)
    board = interaction.original_message
    assert board is not None
    match = SHOWN.search(board.content)
    assert match, board.content
    puzzle = shipped(match.group(1))
    # Brandubh's puzzles are nearly all the defenders' to solve: the board is turned to them.
    look = BoardLook("contrast", puzzle.to_move is Side.DEFENDERS)
    # The images drawn here have the English words (a pseudo-locale run's have others).
    english = not pseudo_locale.enabled()
    assert not english or board.attachments[0].data == board_png(puzzle.game(), None, look)
    wrong = next(
        m.text(7) for m in puzzle.game().legal_moves() if not puzzle.answer((), m.text(7)).correct
    )
    refused = await world.command(dee, channel, "move", move=wrong)
    await refused.wait_response(lambda r: bool(r.content), timeout=WAIT)
    assert refused.original_message is not None
    shown = refused.original_message.attachments[0].data
    assert not english or shown == board_png(puzzle.game(), wrong, look)


@pytest.mark.catalogue_words
async def test_a_french_player_solves_a_puzzle_in_french_after_a_wrong_try(
    world: World, bot_log: None, tmp_path: Path
) -> None:
    """eli's Discord is in French: his puzzle, its hint after a wrong move clicked on the board,
    the replies and the win are all in French, in a server whose language is English."""
    eli, channel = world.user("eli"), world.channel("problemes")

    async def french(subcommand: str, **options: object) -> FakeMessage:
        asked = await world.fake.send_slash_command(
            eli, channel, "tafl", subcommand=subcommand, options=options, locale="fr"
        )
        await asked.wait_response(lambda r: bool(r.content), timeout=WAIT)
        assert asked.original_message is not None and asked.original_message.ephemeral
        return asked.original_message

    board = await french("puzzle", variant="brandubh")
    found = re.search(r"\*\*Problème ([\w-]+)\*\* \(Brandubh, difficulté \d+\) : ", board.content)
    assert found, board.content
    puzzle = shipped(found.group(1))
    side = "attaquants" if puzzle.to_move is Side.ATTACKERS else "défenseurs"
    assert f"Les {side} jouent et gagnent en " in board.content, board.content
    assert "Choisissez votre coup ci-dessous, ou tapez-le avec `/tafl coup`." in board.content
    assert [b["label"] for b in board.buttons] == ["Un autre problème"], board.buttons
    (tmp_path / "puzzle-fr.png").write_bytes(board.attachments[0].data)

    size = puzzle.game().size
    wrong = next(
        m.text(size)
        for m in puzzle.game().legal_moves()
        if not puzzle.answer((), m.text(size)).correct
    )
    origin, target = wrong.split("-")
    await pick(world, "eli", board, "tafl:zp:", square(origin, size), locale="fr")
    await pick(world, "eli", board, "tafl:zt:", square(target, size), locale="fr")
    assert board.content.startswith(f"**{wrong}** n'est pas le bon coup"), board.content
    assert "Indice : " in board.content and " Essayez encore." in board.content, board.content
    assert "\nCe problème compte comme manqué : votre classement aux problèmes 1500 → " in (
        board.content
    ), board.content
    assert board.content.endswith(f"\n-# Problème {puzzle.id} : {prompt(puzzle, lang=FRENCH)}")
    (tmp_path / "puzzle-fr-wrong.png").write_bytes(board.attachments[0].data)

    line = puzzle.main_line()
    for index in range(0, len(line), 2):
        answer = (await french("move", move=line[index])).content
        if index + 1 < len(line):
            assert answer.startswith(f"**{line[index]}** est le bon coup"), answer
            assert f"répondent **{line[index + 1]}** : à vous de jouer." in answer, answer
    assert answer.startswith(f"**{line[-1]}** gagne : résolu !"), answer
    assert "\nVotre classement aux problèmes avait déjà compté ce problème comme manqué." in answer
    if os.environ.get("TAFL_KEEP_PUZZLE_IMAGES"):
        print("puzzle images kept in", tmp_path)
