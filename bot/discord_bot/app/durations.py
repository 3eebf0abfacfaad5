"""Time per move as people write it: ``10m``, ``24h``, ``3d``, or a word for no limit.

One vocabulary for every option that takes a time (``/tafl challenge``, ``/tafl settings``), so
what one command's help promises the other accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import Refusal, Refused

TIME_MAX_LENGTH = 20
"""Room for "14 days" written out with spaces; Discord refuses anything longer."""
MIN_MOVE_SECONDS = 10
MAX_MOVE_SECONDS = 14 * 24 * 3600
NO_LIMIT_WORDS = frozenset(
    {"none", "no", "off", "0", "unlimited", "no limit", "nolimit", "infinite", "never", "∞"}
)
"""What people write for "no time limit" (compared in lower case, spaces squeezed)."""
LOBBY_MOVE_SECONDS = (120, 600, 3600, 86400, 3 * 86400)
"""The times per move the lobby offers (2 minutes to 3 days): few, so that seeks meet."""
NO_LIMIT_HINT = "'none' for no limit"
"""How an option's description tells people the word for no limit."""


@dataclass(frozen=True)
class NotATime(Refusal):
    """``text`` is not a time per move (nor a word for no limit)."""

    text: str


@dataclass(frozen=True)
class TimeOutOfRange(Refusal):
    """A time per move shorter than ``shortest`` or longer than ``longest`` seconds."""

    shortest: int
    longest: int


_DURATION = re.compile(r"\s*(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)?\s*")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def means_no_limit(text: str) -> bool:
    """Whether ``text`` asks for no time limit (``none``, ``off``, ``unlimited``, ``0``...)."""
    return " ".join(text.lower().split()) in NO_LIMIT_WORDS


def parse_move_time(text: str) -> int | None:
    """Seconds per move from ``30s``, ``5m``, ``2h``, ``3d`` or a bare number of minutes;
    ``None`` for a word that means no limit; anything else is refused (:class:`NotATime`,
    :class:`TimeOutOfRange`)."""
    if means_no_limit(text):
        return None
    match = _DURATION.fullmatch(text.lower())
    if not match:
        raise Refused(NotATime(text))
    amount = int(match.group(1))
    unit = (match.group(2) or "m")[0]
    seconds = amount * _UNIT[unit]
    if not MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS:
        raise Refused(TimeOutOfRange(MIN_MOVE_SECONDS, MAX_MOVE_SECONDS))
    return seconds


def describe_duration(seconds: int) -> str:
    """``90`` → "90 seconds", ``3600`` → "1 hour", ``172800`` → "2 days" (the largest whole
    unit)."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"
