"""Reading rounds back: each player's points, sides, opponents, byes and floats."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import TournamentError
from .model import ByeKind, PlayedPairing, PlayedRound, PlayerId, PlayerRecord, Scoring


def pairing_points(played: PlayedPairing, player: PlayerId, scoring: Scoring) -> float:
    """The points ``player`` takes from a pairing: game points, or match points for matches."""
    return played.result(player) if scoring.matches else played.game_points(player)


def records(
    players: Iterable[PlayerId], rounds: Sequence[PlayedRound], scoring: Scoring
) -> dict[PlayerId, PlayerRecord]:
    """Every player's :class:`PlayerRecord` after ``rounds`` (in order). A player a round does
    not name gets ``-`` for it (not yet joined, or withdrawn)."""
    ids = list(players)
    points = dict.fromkeys(ids, 0.0)
    sides = dict.fromkeys(ids, "")
    floats = dict.fromkeys(ids, "")
    opponents: dict[PlayerId, set[PlayerId]] = {p: set() for p in ids}
    byes = dict.fromkeys(ids, 0)
    for number, played_round in enumerate(rounds, start=1):
        if played_round.number != number:
            raise TournamentError(
                f"round {played_round.number} given as round {number}: rounds must be in order"
            )
        before = dict(points)
        side = {p: "-" for p in ids}
        drift = {p: "-" for p in ids}
        seen: set[PlayerId] = set()
        for played in played_round.pairings:
            pairing = played.pairing
            for player in pairing.players:
                if player not in points:
                    raise TournamentError(f"round {number} names unknown player {player}")
                if player in seen:
                    raise TournamentError(f"round {number} names player {player} twice")
                seen.add(player)
                points[player] += pairing_points(played, player, scoring)
            if played.forfeit:
                continue
            side[pairing.attacker], side[pairing.defender] = "A", "D"
            opponents[pairing.attacker].add(pairing.defender)
            opponents[pairing.defender].add(pairing.attacker)
            a, d = before[pairing.attacker], before[pairing.defender]
            if a != d:
                drift[pairing.attacker] = "D" if a > d else "U"
                drift[pairing.defender] = "U" if a > d else "D"
        for bye in played_round.byes:
            if bye.player not in points:
                raise TournamentError(f"round {number} names unknown player {bye.player}")
            if bye.player in seen:
                raise TournamentError(f"round {number} names player {bye.player} twice")
            seen.add(bye.player)
            points[bye.player] += bye.points
            if bye.kind is ByeKind.PAIRING:
                byes[bye.player] += 1
                drift[bye.player] = "D"
        for player in ids:
            sides[player] += side[player]
            floats[player] += drift[player]
    return {
        p: PlayerRecord(
            id=p,
            points=points[p],
            sides=sides[p],
            opponents=frozenset(opponents[p]),
            pairing_byes=byes[p],
            floats=floats[p],
        )
        for p in ids
    }
