"""Errors raised by the rules engine.

Every error is a ``ValueError`` whose message quotes the offending input and says what is wrong,
so callers can show it to people as it is.
"""

from __future__ import annotations

from typing import TypeVar


class TaflError(ValueError):
    """Base class of every error the engine raises about bad input or an impossible request.

    ``kind`` names what is wrong (``no piece``, ``blocked``...; empty where the message is the
    only account) and ``values`` the parts its message quotes (``move``, ``square``...), for
    callers that say it in their own words (in another language)."""

    kind: str = ""
    values: tuple[tuple[str, str], ...] = ()


Error = TypeVar("Error", bound=TaflError)


def because(error: Error, kind: str, **values: object) -> Error:
    """``error``, saying what is wrong as ``kind`` with the ``values`` its message quotes."""
    error.kind = kind
    error.values = tuple((name, str(value)) for name, value in values.items())
    return error


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
