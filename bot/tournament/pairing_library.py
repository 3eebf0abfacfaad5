"""The one door to the ``pairing-core`` library: the rest of the bot never imports it.

Used for Berger round-robin schedules (FIDE C.05 Annex 1), which the library reproduces exactly.
Its Swiss kernels are not used: their exact searches raise on ordinary events (a 64-player
event at round 3; the 2026 Dutch at round 2 of 40 players) and take seconds for round 1 of 500
players, so :mod:`bot.tournament.swiss` pairs Swiss rounds instead.

The library's "white" is our attackers and its "black" our defenders (:mod:`.model`).
"""

from __future__ import annotations

from typing import cast

import pairing_core

Table = tuple[tuple[tuple[int, int | None], ...], ...]
"""Rounds of boards ``(attackers, defenders)`` by pairing number from 1, ``(n, None)`` a bye."""


def berger_table(players: int, *, double: bool = False) -> Table:
    """The Berger schedule for ``players`` pairing numbers (an odd count adds a bye, given to
    whoever meets the missing highest number); ``double`` repeats it with sides swapped."""
    return cast(Table, pairing_core.round_robin(players, double=double))
