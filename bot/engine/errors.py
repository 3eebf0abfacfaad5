"""Errors raised by the rules engine.

Every error is a ``ValueError`` whose message quotes the offending input and says what is wrong,
so callers can show it to people as it is.
"""

from __future__ import annotations


class TaflError(ValueError):
    """Base class of every error the engine raises about bad input or an impossible request."""


class UnknownVariantError(TaflError):
    """A variant name that is not in the registry."""


class PositionError(TaflError):
    """An OTN position (or game record) that cannot be read or does not fit the variant."""


class MoveParseError(TaflError):
    """Move text that does not name a move at all."""


class AmbiguousMoveError(MoveParseError):
    """A bare destination that more than one legal move reaches."""


class IllegalMoveError(TaflError):
    """A well-formed move that the rules do not allow in this position."""


class GameOverError(IllegalMoveError):
    """A move attempted after the game has ended."""
