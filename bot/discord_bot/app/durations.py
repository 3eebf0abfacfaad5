"""Time per move as people write it: ``10m``, ``24h``, ``3d``, or a word for no limit, in
English or in the writer's language.

One vocabulary for every option that takes a time (``/tafl challenge``, ``/tafl settings``,
``/tafl-tournament create``), so what one command's help promises the other accepts. English's
words are defined here and always accepted; a language's own (``1t`` and ``ingen`` in
Swedish, ``3j`` and ``aucune`` in French) come from its catalogue, given by the composition as
:class:`InputWords` (``compose/inputs.py``), so that this layer builds no sentence and reads
no catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import Refusal, Refused

TIME_MAX_LENGTH = 20
"""Room for "14 days" written out with spaces; Discord refuses anything longer."""
MIN_MOVE_SECONDS = 10
MAX_MOVE_SECONDS = 14 * 24 * 3600
NO_LIMIT_WORDS = frozenset(
    {"none", "no", "off", "0", "unlimited", "no limit", "nolimit", "infinite", "never", "∞"}
)
"""What people write for "no time limit" in English (compared in lower case, spaces squeezed)."""
EVERY_WORDS = frozenset({"all"})
"""What people write in English for "every one" in a list of variants or times."""
UNIT_WORDS: Mapping[str, str] = MappingProxyType(
    {
        **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "s"),
        **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), "m"),
        **dict.fromkeys(("h", "hour", "hours"), "h"),
        **dict.fromkeys(("d", "day", "days"), "d"),
    }
)
"""Each English spelling of a unit of time, with its unit (``s``, ``m``, ``h``, ``d``)."""
UNIT_SECONDS: Mapping[str, int] = MappingProxyType({"s": 1, "m": 60, "h": 3600, "d": 86400})
LOBBY_MOVE_SECONDS = (120, 600, 3600, 86400, 3 * 86400)
"""The times per move the lobby offers (2 minutes to 3 days): few, so that seeks meet."""


@dataclass(frozen=True)
class InputWords:
    """A language's words for what players type, besides English's (always accepted), in
    lower case: for no time limit, for "every one", and each unit's spellings with the unit
    they mean (``{"t": "h", "timmar": "h"}``). The composition makes them from the reader's
    catalogue; the default, none, accepts English alone."""

    no_limit: frozenset[str] = frozenset()
    every: frozenset[str] = frozenset()
    units: Mapping[str, str] = field(default_factory=dict)

    def means_no_limit(self, text: str) -> bool:
        """Whether ``text`` asks for no time limit (``none``, ``off``, ``0``, ``ingen``...)."""
        word = squeezed(text)
        return word in NO_LIMIT_WORDS or word in self.no_limit

    def means_every(self, text: str) -> bool:
        """Whether ``text`` asks for every one (``all``, ``alla``, ``tous``...)."""
        word = squeezed(text)
        return word in EVERY_WORDS or word in self.every

    def unit(self, spelling: str) -> str | None:
        """The unit (``s``, ``m``, ``h``, ``d``) a spelling means, ``None`` for none; English's
        first, so that a translation can never change what an English word means."""
        return UNIT_WORDS.get(spelling) or self.units.get(spelling)


ENGLISH_WORDS = InputWords()
"""English's words alone."""


def squeezed(text: str) -> str:
    """``text`` in lower case with its spaces squeezed, as typed words are compared."""
    return " ".join(text.lower().split())


@dataclass(frozen=True)
class NotATime(Refusal):
    """``text`` is not a time per move (nor a word for no limit)."""

    text: str


@dataclass(frozen=True)
class TimeOutOfRange(Refusal):
    """A time per move shorter than ``shortest`` or longer than ``longest`` seconds."""

    shortest: int
    longest: int


_DURATION = re.compile(r"(\d+)\s*([^\W\d_]*)")
"""A number and the unit after it, in any script's letters (``3d``, ``24 t``, ``2 jours``)."""


def parse_move_time(text: str, words: InputWords = ENGLISH_WORDS) -> int | None:
    """Seconds per move from ``30s``, ``5m``, ``2h``, ``3d`` (or the writer's language's units,
    ``words``) or a bare number of minutes; ``None`` for a word that means no limit; anything
    else is refused (:class:`NotATime`, :class:`TimeOutOfRange`)."""
    if words.means_no_limit(text):
        return None
    match = _DURATION.fullmatch(squeezed(text))
    unit = None if match is None else words.unit(match.group(2) or "m")
    if match is None or unit is None:
        raise Refused(NotATime(text))
    seconds = int(match.group(1)) * UNIT_SECONDS[unit]
    if not MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS:
        raise Refused(TimeOutOfRange(MIN_MOVE_SECONDS, MAX_MOVE_SECONDS))
    return seconds
