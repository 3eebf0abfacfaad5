"""What a puzzle says to the player, in a player's words: the task, hints that point the way
without giving the move, and why a wrong move fails.

Pure functions of plain values (sides, endings, squares already named), so the wording is
tested and changed in one place.
"""

from __future__ import annotations

from bot.engine.types import Escape, Piece, Side, Termination

PIECE_NAMES = {Piece.ATTACKER: "attacker", Piece.DEFENDER: "defender", Piece.KING: "king"}
"""Pieces as a player names them."""


def moves_text(count: int) -> str:
    """``1 move``, ``2 moves``."""
    return f"{count} move" if count == 1 else f"{count} moves"


def prompt(side: Side, length: int) -> str:
    """The task: ``Defenders to play and win in 2 moves.``"""
    return f"{side.value.capitalize()} to play and win in {moves_text(length)}."


def goal_hint(goal: Termination, side: Side, length: int, escape: Escape) -> str:
    """The first hint: how the game will be won and how soon, whatever the other side does."""
    other = side.other.value
    within = "this move" if length == 1 else f"in {moves_text(length)}, whatever the {other} do"
    if goal is Termination.KING_ESCAPED:
        where = "a corner" if escape is Escape.CORNER else "the edge"
        return f"The king can reach {where} {within}."
    if goal in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return f"The king can be captured {within}."
    if goal is Termination.TUICHI:
        # Any defender's move can open the roads, not only the king's.
        return f"The king can be given two open roads at once (Tuichi wins here) {within}."
    if goal is Termination.EXIT_FORT:
        return f"The defenders can close an exit fort round the king on the edge {within}."
    if goal is Termination.ENCIRCLEMENT:
        return f"The defenders can be encircled {within}."
    if goal is Termination.NO_LEGAL_MOVE:
        return f"The {other} can be left without a legal move {within}."
    return f"The {side.value} win {within}."


def theme_hint(threats: int, captures: bool, king_moves: bool, side: Side) -> str:
    """The second hint: what kind of move starts the win (not which one).

    ``threats`` is how many ways to win at once the right move leaves the solver; ``captures``
    whether it captures; ``king_moves`` whether it is the king's move.
    """
    other = side.other.value
    if threats >= 2:
        return f"Look for a move that makes two threats at once: the {other} can answer only one."
    if captures:
        return "A capture clears the way."
    if threats == 1:
        if king_moves:
            return f"The king himself makes a threat the {other} must answer, and the answer fails."
        return f"Make a threat the {other} must answer; every answer leaves another way."
    return f"A quiet move: it threatens nothing yet, but the {other} have no good reply."


def piece_hint(piece: Piece, square: str) -> str:
    """The last hint: the piece that moves (``Look at the attacker on d4.``)."""
    return f"Look at the {PIECE_NAMES[piece]} on {square}."


def refutation_text(
    reply: str,
    *,
    side: Side,
    reply_ending: Termination | None,
    king_reply: bool,
    blocks: str | None,
    captured: str | None,
    threatened: bool,
) -> str:
    """Why a wrong move fails, told by the other side's ``reply`` that holds, to follow
    "**d4-c4** is not it: " (``the king escapes with e1-b1``).

    ``blocks`` names the square the solver's threat needed that the reply took (an escape
    square, or the square next to the king), ``captured`` a square the reply captured on, and
    ``threatened`` whether the wrong move threatened anything at all.
    """
    other = side.other.value
    if reply_ending is Termination.KING_ESCAPED:
        return f"the king escapes with {reply}"
    if reply_ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return f"{reply} captures the king"
    if reply_ending is Termination.TUICHI:
        return f"{reply} opens two roads for the king at once (Tuichi), and the defenders win"
    if reply_ending is Termination.EXIT_FORT:
        return f"{reply} closes an exit fort round the king, and the defenders win"
    if reply_ending is Termination.ENCIRCLEMENT:
        return f"{reply} completes the encirclement, and the attackers win"
    if reply_ending is Termination.NO_LEGAL_MOVE:
        return f"{reply} leaves the {side.value} without a legal move"
    if reply_ending is not None:
        return f"{reply} wins for the {other}"
    if king_reply and side is Side.ATTACKERS and threatened:
        return f"the king steps away with {reply}"
    if blocks is not None:
        if side is Side.DEFENDERS:
            return f"{reply} closes the road to {blocks}"
        return f"{reply} covers {blocks}"
    if captured is not None:
        return f"{reply} captures the piece on {captured}"
    if not threatened:
        # Not the reply itself: any quiet move would do, and naming one reads like a clue.
        return f"it threatens nothing, so the {other} have a free move to stop the win"
    return f"{reply} holds"
