"""What a puzzle's words, boards and menus give away, and what they must not."""

from __future__ import annotations

from dataclasses import replace

from bot.ai.puzzles import load_starter_set
from bot.discord_bot.compose.board import move_choices, target_options
from bot.discord_bot.compose.puzzles import board_png, capturing
from bot.engine import Piece, Side, square_name
from bot.render import ATTACKER, board_view_from_game, render_png

PUZZLE = next(p for p in load_starter_set() if p.id == "tablut-dd8cea04")
"""The defenders' first move, d4-g4, captures (an attacker on the way to the king's road)."""


def test_a_right_move_that_captures_says_so_and_its_capture_stays_on_the_next_board() -> None:
    first, reply = PUZZLE.main_line()[:2]
    verdict = PUZZLE.answer((), first)
    assert PUZZLE.to_move is Side.DEFENDERS and len(verdict.captures) == 1
    assert capturing(verdict, PUZZLE) == f", capturing the attacker on {verdict.captures[0]}"
    assert capturing(replace(verdict, captures=()), PUZZLE) == ""
    game = PUZZLE.game()
    game.play(first)
    game.play(reply)  # the board after a right move shows the reply as its last move
    square = next(
        sq for sq in range(game.size**2) if square_name(sq, game.size) == verdict.captures[0]
    )
    assert game.piece_at(square) is Piece.EMPTY
    view = board_view_from_game(game, caption=True, hints=False)
    assert (square, ATTACKER) not in view.captured
    marked = replace(view, captured=(*view.captured, (square, ATTACKER)))
    assert board_png(game, answered=True) == render_png(marked)
    assert board_png(game) == render_png(view)


def test_a_puzzles_menus_and_moves_list_do_not_mark_captures() -> None:
    game = PUZZLE.game()
    first = game.parse_move(PUZZLE.main_line()[0])
    assert game.captures_of(first)
    # In a game the capture is marked; in a puzzle nothing tells it apart.
    marked = target_options(game, first.origin)
    plain = target_options(game, first.origin, mark_captures=False)
    assert any("×" in option.label for option in marked)
    assert not any("×" in option.label or option.description for option in plain[:-1])
    listed = move_choices(game, "", mark_captures=False)
    assert not any("×" in choice.name for choice in listed)
    assert [choice.value for choice in listed] == [
        move.text(game.size) for move in game.legal_moves()
    ][: len(listed)]  # in the engine's order, captures not first
    assert any("×" in choice.name for choice in move_choices(game, ""))
