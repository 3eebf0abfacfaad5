"""What /tafl move's autocomplete and the click-to-move menus offer, from real positions."""

from __future__ import annotations

from typing import cast

import discord
from helpers import game as built

from bot.ai.puzzles import load_starter_set
from bot.discord_bot.compose.board import (
    BACK,
    MAX_OPTIONS,
    PieceChoice,
    TargetChoice,
    move_choices,
    piece_controls,
    rank_bands,
    target_controls,
)
from bot.discord_bot.compose.post import Button, Menu
from bot.discord_bot.compose.puzzles import (
    NextPuzzle,
    PuzzlePiece,
    PuzzleTarget,
    next_button,
    target_prompt,
)
from bot.discord_bot.compose.puzzles import piece_controls as puzzle_controls
from bot.discord_bot.table import item_of, read
from bot.engine import VARIANTS, Game, Side, parse_square, square_name

# Brandubh, attackers to move: a4-c4 captures c3 against c2; the king stands on e6.
CAPTURE = "/7/2t4/2T4/t6/7/4K2/7/"


def listed(game: Game, typed: str) -> list[tuple[str, str]]:
    return [(choice.name, choice.value) for choice in move_choices(game, typed)]


def test_captures_are_marked_and_listed_first_while_the_value_stays_the_plain_move() -> None:
    game = Game("brandubh", CAPTURE, Side.ATTACKERS)
    choices = listed(game, "")
    assert choices[0] == ("a4-c4 ×c3", "a4-c4")
    assert all(name == value for name, value in choices[1:])  # nothing else captures
    assert listed(game, "a4c") == [("a4-c4 ×c3", "a4-c4")]


def test_king_moves_are_marked_and_may_be_typed_as_written() -> None:
    game = Game("brandubh", CAPTURE, Side.DEFENDERS)
    choices = listed(game, "e6")
    assert choices and all(name == "K" + value for name, value in choices)
    assert listed(game, "Ke6") == choices


def test_a_typed_square_lists_its_moves_then_the_moves_ending_there() -> None:
    game = Game("brandubh")
    values = [value for _, value in listed(game, "c1")]
    assert values == [m.text(7) for m in game.legal_moves() if m.text(7).endswith("-c1")]
    values = [value for _, value in listed(game, "d1")]
    assert values == [m.text(7) for m in game.legal_moves(parse_square("d1", 7))]


def test_a_square_with_no_legal_move_says_why_in_one_line() -> None:
    # b1 is shut in by the corner a1 (no attacker may stop there or pass) and c1, b2.
    game = Game("brandubh", "/1tt4/1t5/7/3K3/7/3T3/7/", Side.ATTACKERS)
    [(name, value)] = listed(game, "b1")
    assert name == "b1: this attacker has no legal move now (it is blocked)" and value == "b1"
    [(name, value)] = listed(game, "d6")
    assert "a piece of the defenders; you play the attackers" in name and value == "d6"
    [(name, value)] = listed(game, "a7")
    assert name.startswith("a7: no piece there") and value == "a7"
    [(name, _)] = listed(game, "zz")
    assert "No legal move of the attackers matches 'zz'" in name


def test_every_choice_fits_discord_on_the_biggest_board() -> None:
    biggest = max(VARIANTS.values(), key=lambda variant: variant.size)
    assert biggest.size == 11
    game = Game(biggest)
    choices = move_choices(game, "")
    assert len(choices) == 25 and len(game.legal_moves()) > 25
    assert all(1 <= len(choice.name) <= 100 and len(choice.value) <= 100 for choice in choices)


async def test_the_destination_menu_marks_captures_and_ends_with_back() -> None:
    game = Game("brandubh", CAPTURE, Side.ATTACKERS)
    [control] = target_controls(1, game, parse_square("a4", 7))
    assert isinstance(control, Menu)
    assert read(TargetChoice, control.custom_id) == TargetChoice(1, 0, parse_square("a4", 7))
    menu = item_of(control)
    assert isinstance(menu, discord.ui.Select)
    assert menu.placeholder == "Move a4 to…"  # which piece, once its menu has gone
    options = menu.options
    labels = {option.label: option.value for option in options}
    assert labels["a4-c4 ×c3"] == str(parse_square("c4", 7))
    assert options[-1].value == BACK and options[-1].label == "Back"
    assert [o.description for o in options if "×" in o.label] == ["captures c3"]


def piece_menus(game_id: int, game: Game) -> list[discord.ui.Select[discord.ui.View]]:
    """The menus of click-to-move's first step, as the table sends them."""
    menus = [item_of(control) for control in piece_controls(game_id, game)]
    assert all(isinstance(menu, discord.ui.Select) for menu in menus)
    return cast(list[discord.ui.Select[discord.ui.View]], menus)


def listed_squares(menus: list[discord.ui.Select[discord.ui.View]], size: int) -> list[str]:
    return [square_name(int(o.value), size) for menu in menus for o in menu.options]


async def test_every_copenhagen_attacker_that_can_move_is_in_one_menu() -> None:
    game = Game("copenhagen")  # 24 attackers, 20 of which can move at the start
    menus = piece_menus(3, game)
    [menu] = menus
    origins = sorted({move.origin for move in game.legal_moves()})
    assert [int(o.value) for o in menu.options] == origins and len(origins) == 20
    assert menu.custom_id == "tafl:pc:3:0"
    assert menu.placeholder == "Choose a piece to move"
    assert menu.options[0].label == "d1 (attacker)"
    assert menu.options[0].description == "6 moves"  # b1, c1 and up to d5


async def test_more_pieces_than_a_menu_holds_are_split_by_ranks_and_none_is_lost() -> None:
    # 33 attackers that can all move (ranks 2, 4 and 9 full): more than one menu's 25 options.
    crowded = built(
        "copenhagen",
        " ".join(f"t:{','.join(f + str(rank) for f in 'abcdefghijk')}" for rank in (2, 4, 9))
        + " K:f6",
    )
    origins = sorted({move.origin for move in crowded.legal_moves()})
    assert len(origins) == 33 > MAX_OPTIONS
    menus = piece_menus(3, crowded)
    assert len(menus) == 2
    assert listed_squares(menus, 11) == [square_name(sq, 11) for sq in origins]
    assert all(len(menu.options) <= MAX_OPTIONS for menu in menus)
    assert [menu.placeholder for menu in menus] == [
        "Choose a piece on ranks 2–4",
        "Choose a piece on rank 9",
    ]
    ids = [menu.custom_id for menu in menus]
    assert ids == ["tafl:pc:3:0", "tafl:pc:3:0:1"]
    # Each menu's custom id is read back (after a restart too) as this game and move.
    for custom_id, part in zip(ids, (0, 1), strict=True):
        choice = read(PieceChoice, custom_id, ["17"])
        assert choice is not None
        assert (choice.game_id, choice.ply, choice.part, choice.values) == (3, 0, part, ("17",))


def test_rank_bands_keep_whole_ranks_and_fill_each_band() -> None:
    size = 11
    ranks = [list(range(rank * size, rank * size + 11)) for rank in range(4)]
    every = [sq for rank in ranks for sq in rank]
    assert rank_bands(every, size) == [ranks[0] + ranks[1], ranks[2] + ranks[3]]
    assert rank_bands(every[:25], size) == [every[:25]]
    assert rank_bands([], size) == []


def test_every_shipped_puzzle_has_menus_whose_ids_read_back_within_discords_limits() -> None:
    for puzzle in load_starter_set():
        game = puzzle.game()
        controls = puzzle_controls(puzzle.id, 2, game)
        assert len(controls) <= 5 and isinstance(controls[-1], Button)
        assert read(NextPuzzle, controls[-1].custom_id) == NextPuzzle(game.variant.name)
        menus = controls[:-1]
        for part, menu in enumerate(menus):
            assert isinstance(menu, Menu)
            assert len(menu.custom_id) <= 100
            back = read(PuzzlePiece, menu.custom_id, ["17"])
            assert back == PuzzlePiece(puzzle.id, 2, part, ("17",)), menu.custom_id
        origins = {move.origin for move in game.legal_moves()}
        listed = {int(o.value) for menu in menus if isinstance(menu, Menu) for o in menu.options}
        assert listed == origins, puzzle.id
        # Step two for the solution's first move lists its destination, then Back.
        first = game.parse_move(puzzle.main_line()[0])
        [menu] = target_prompt(PuzzlePiece(puzzle.id, 2), game, first.origin).post.controls
        assert isinstance(menu, Menu)
        assert menu.placeholder == f"Move {square_name(first.origin, game.size)} to…"
        values = [o.value for o in menu.options]
        assert str(first.target) in values and values[-1] == BACK
        target = read(PuzzleTarget, menu.custom_id)
        assert target == PuzzleTarget(puzzle.id, 2, first.origin)
    button = next_button("tablut-corner")
    assert button.custom_id == "tafl:zn:tablut-corner" and button.label == "Next puzzle"
    assert read(NextPuzzle, button.custom_id) == NextPuzzle("tablut-corner")
    # The same strings as ever: boards shown before an upgrade keep working.
    assert PuzzlePiece("tablut-2cae849b", 4, 1).custom_id == "tafl:zp:tablut-2cae849b:4:1"
    assert PuzzlePiece("tablut-2cae849b", 4).custom_id == "tafl:zp:tablut-2cae849b:4"
    assert PuzzleTarget("tablut-2cae849b", 4, 30).custom_id == "tafl:zt:tablut-2cae849b:4:30"
