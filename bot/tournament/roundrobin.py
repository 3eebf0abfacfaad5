"""Round robin by the Berger tables of FIDE C.05 Annex 1."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import TournamentError
from .model import Bye, ByeKind, Entrant, Pairing, Round, seeded
from .pairing_library import berger_table


def round_robin(entrants: Sequence[Entrant], double: bool = False) -> list[Round]:
    """Every round of a round robin: pairing numbers by seed (rating down, then id up), boards
    as the Berger table lists them, the table's "white" taking the attackers. An odd number of
    players gives one player a bye each round, worth no points (everyone sits out once, so it
    favours no one). ``double`` plays the schedule twice with sides
    swapped (for one-game pairings; a two-game match already plays both sides)."""
    order = seeded(list(entrants))
    if len(order) < 2:
        raise TournamentError(f"a round robin needs two players or more, not {len(order)}")
    if len({e.id for e in order}) != len(order):
        raise TournamentError("an entrant is listed twice")
    rounds = []
    for number, table in enumerate(berger_table(len(order), double=double), start=1):
        pairings: list[Pairing] = []
        byes: list[Bye] = []
        for first, second in table:
            if second is None:
                byes.append(Bye(order[first - 1].id, ByeKind.PAIRING, 0.0))
            else:
                board = len(pairings) + 1
                pairings.append(Pairing(order[first - 1].id, order[second - 1].id, board))
        rounds.append(Round(number, tuple(pairings), tuple(byes)))
    return rounds
