"""How the services refuse what a person asked: a typed :class:`Refusal`, raised as
:class:`Refused`, and worded by the composition (``compose.errors.refusal_words``), never here.

Each service defines its own kinds of refusal, frozen dataclasses deriving from
:class:`Refusal` that carry the data their sentence needs (``NotYourTurn(mover, side, ...)``),
so that the words, and later their translation, live in one place: the composition.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    """Why a service will not do what a person asked, as data: the base of every kind of
    refusal (each a frozen dataclass of its own, worded in the composition)."""


class Refused(Exception):
    """A service refusing what a person asked (something they can fix, or that cannot be done
    now): the error funnel answers them privately with the words of :attr:`refusal`."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal)
        self.refusal = refusal
