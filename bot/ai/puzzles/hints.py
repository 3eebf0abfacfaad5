"""What a puzzle tells the player, as data: the task, hints that point the way without giving
the move, and why a wrong move fails. The bot words them where it shows them (its
composition); here they are plain values (sides, endings, pieces, squares already named).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.types import Escape, Piece, Side, Termination


@dataclass(frozen=True)
class Task:
    """The task: ``side`` to play and win in ``length`` moves."""

    side: Side
    length: int


@dataclass(frozen=True)
class GoalHint:
    """The first hint: how the game will be won (``goal``; an escape to a corner or the edge,
    as ``escape`` says) and how soon (``length`` moves), whatever the other side does."""

    goal: Termination
    side: Side
    length: int
    escape: Escape


@dataclass(frozen=True)
class ThemeHint:
    """The second hint: what kind of move starts the win (not which one). ``threats``: how
    many ways to win at once the right move leaves the solver; ``captures``: whether it
    captures; ``king_moves``: whether it is the king's move."""

    threats: int
    captures: bool
    king_moves: bool
    side: Side


@dataclass(frozen=True)
class PieceHint:
    """The last hint: the piece that moves, and its square."""

    piece: Piece
    square: str


Hint = GoalHint | ThemeHint | PieceHint
"""One hint, vaguest first: the goal, the kind of move, the piece."""


@dataclass(frozen=True)
class Refutation:
    """Why a wrong move fails, told by the other side's ``reply`` that holds. ``side``: the
    solver's; ``reply_ending``: how the reply ends the game, if it does; ``king_reply``: the
    reply is the king's; ``blocks``: the square the solver's threat needed that the reply took
    (an escape square, or the square next to the king); ``captured``: a square the reply
    captured on; ``threatened``: whether the wrong move threatened anything at all."""

    reply: str
    side: Side
    reply_ending: Termination | None
    king_reply: bool
    blocks: str | None
    captured: str | None
    threatened: bool
