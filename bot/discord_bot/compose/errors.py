"""The words of the error funnel: what a person is told privately when what they asked for
cannot be done (the table decides which error is which).

A service refuses with a typed :class:`~..app.errors.Refusal` (raised as ``Refused``);
:func:`refusal_words` words it. Each feature's compose module registers the words of its
service's kinds of refusal, one function per kind::

    @refusal_words.register
    def _(refusal: NotYourTurn, lang: Language = ENGLISH_LANGUAGE) -> str:
        return f"It is not your turn: ..."
"""

from __future__ import annotations

import functools
import math

from bot.storage import (
    ChannelBusy,
    Conflict,
    DatabaseBusy,
    DatabaseUnavailable,
    GameNotActive,
    NotFound,
    PositionChanged,
    StorageError,
)

from ...i18n.language import ENGLISH_LANGUAGE, N_, Language
from ..app.errors import Refusal


def seconds_left(seconds: float, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A wait in whole seconds, rounded up so it never says "0 s" while time is left."""
    return lang.gettext("{seconds} s", seconds=lang.number(max(1, math.ceil(seconds))))


GENERIC = N_("Something went wrong on our side; the game is safe. Please try again.")
UNAVAILABLE = N_(
    "The bot cannot reach its game database right now. Please try again in a minute; if you had "
    "just moved, the board will then show whether your move counted."
)
BUSY = N_(
    "The bot is very busy right now and could not get to that in time. Please try again in a"
    " moment; if you had just moved, the board will then show whether your move counted."
)
CONFLICT = N_(
    "That clashed with another action at the same moment and was undone; please try again."
)
NO_DIRECT_MESSAGES = N_(
    "Tafl games are played in server channels and threads, not in direct messages."
)
NOT_HERE = N_("You cannot use this here.")
"""The funnel's own sentences, in English: each is translated where it is said
(``lang.gettext(GENERIC)``)."""


def storage_words(error: StorageError, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Storage's errors in the players' words (their own text names internal ids)."""
    if isinstance(error, PositionChanged):
        return lang.gettext(
            "The position changed before your action arrived (someone moved first); look again."
        )
    if isinstance(error, GameNotActive):
        return lang.gettext("That game is over.")
    if isinstance(error, NotFound):
        return lang.gettext("There is no such game or challenge.")
    if isinstance(error, ChannelBusy):
        return lang.gettext("This channel already has a game; start a thread to play another.")
    if isinstance(error, DatabaseBusy):
        return lang.gettext(BUSY)
    if isinstance(error, DatabaseUnavailable):
        return lang.gettext(UNAVAILABLE)
    if isinstance(error, Conflict):
        return lang.gettext(CONFLICT)
    return str(error)


def slow_down(seconds: float, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A command used again too soon."""
    return lang.gettext(
        "Slow down: you can do that again in {wait}.", wait=seconds_left(seconds, lang)
    )


@functools.singledispatch
def refusal_words(refusal: Refusal, lang: Language = ENGLISH_LANGUAGE) -> str:
    """What a person is told when a service refuses what they asked, in ``lang``: the words
    registered for the kind of ``refusal`` by its feature's compose module, each a function
    ``(refusal, lang) -> str`` (a kind without words is a bug, which
    tests/test_compose_refusals.py catches)."""
    raise TypeError(f"no words for the refusal {refusal!r}")
