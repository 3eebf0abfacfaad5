"""Standings with tiebreaks, computed from the played rounds.

Points are game points for one-game pairings and match points for matches (:class:`Scoring`).
Tiebreaks, in the order an event lists them (:data:`ONE_GAME_ORDER`, :data:`MATCH_ORDER` by
default); a tie they leave goes to the better seed (higher entry rating, then lower id), so
ranks are always 1, 2, 3, ...:

- **Buchholz**: the sum of the opponents' scores, with unplayed rounds treated as FIDE's
  tie-break regulations (C.07, from 2023; article 16, "Unplayed Rounds Management") do. An
  opponent's score counts what each round gave them (16.3.1: byes and forfeits at their
  points), except the rounds without any pairing after the last round they took part in (a
  game, a forfeit won or a pairing-allocated bye): those rounds of a player who withdrew, or was
  away to the end, count as draws (16.2.5, 16.3.2). Each of the player's own unplayed rounds
  (a bye, a forfeit either way, a round before joining or after withdrawing) counts as a game
  against a dummy opponent who ended the event on the player's own score (16.4).
- **Sonneborn-Berger**: the sum over opponents of their score (adjusted the same way) times the
  player's result against them (1, ½, 0; a match by its result); an own unplayed round adds the
  dummy's score, the player's own, times the points that round gave (16.4).
- **Game points** (matches): the games' points, a pairing bye giving its share of the games.
- **Wins**: pairings won over the board (forfeits do not count).
- **Performance**: linear, the mean rating of the opponents met over the board plus 400 times
  (wins - losses) / games, per game; none without a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from .errors import TournamentError
from .history import pairing_points
from .model import ONE_GAME, ByeKind, Entrant, PlayedRound, PlayerId, Scoring, seeded


class Tiebreak(Enum):
    """The tiebreaks an event can order."""

    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn-berger"
    GAME_POINTS = "game points"
    WINS = "wins"
    PERFORMANCE = "performance"


ONE_GAME_ORDER = (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS, Tiebreak.PERFORMANCE)
"""The tiebreaks of one-game events, in order."""
MATCH_ORDER = (Tiebreak.GAME_POINTS, *ONE_GAME_ORDER)
"""The tiebreaks of match events, in order: game points first."""


@dataclass(frozen=True)
class Standing:
    """One player's line of the standings."""

    rank: int
    player: PlayerId
    points: float
    game_points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    performance: float | None
    games: int
    """Games played over the board."""

    def tiebreak(self, which: Tiebreak) -> float:
        """The value of one tiebreak (higher is better; no performance is lowest)."""
        if which is Tiebreak.BUCHHOLZ:
            return self.buchholz
        if which is Tiebreak.SONNEBORN_BERGER:
            return self.sonneborn_berger
        if which is Tiebreak.GAME_POINTS:
            return self.game_points
        if which is Tiebreak.WINS:
            return float(self.wins)
        return float("-inf") if self.performance is None else self.performance


@dataclass
class _Tally:
    points: float = 0.0
    game_points: float = 0.0
    unplayed: int = 0
    rounds: list[tuple[float, bool, bool]] = field(default_factory=list)
    """Each round: the points it gave, whether the player took part (a game, a forfeit won or
    a pairing-allocated bye) and whether they were paired at all (16.2)."""
    wins: int = 0
    games: int = 0
    game_score: float = 0.0
    rating_sum: float = 0.0


def standings(
    entrants: Sequence[Entrant],
    rounds: Sequence[PlayedRound],
    scoring: Scoring = ONE_GAME,
    order: Sequence[Tiebreak] | None = None,
) -> tuple[Standing, ...]:
    """The standings after ``rounds``, best first (see the module for each tiebreak)."""
    order = tuple(
        order if order is not None else MATCH_ORDER if scoring.matches else ONE_GAME_ORDER
    )
    seeds = {e.id: number for number, e in enumerate(seeded(list(entrants)))}
    rating = {e.id: e.rating for e in entrants}
    tally = {p: _Tally() for p in seeds}
    met: dict[PlayerId, list[tuple[PlayerId, float]]] = {p: [] for p in seeds}
    own_unplayed: dict[PlayerId, list[float]] = {p: [] for p in seeds}

    def known(player: PlayerId, number: int) -> _Tally:
        if player not in tally:
            raise TournamentError(f"round {number} names unknown player {player}")
        return tally[player]

    for played_round in rounds:
        named: set[PlayerId] = set()
        for played in played_round.pairings:
            for player in played.pairing.players:
                known(played.pairing.opponent(player), played_round.number)
                t = known(player, played_round.number)
                named.add(player)
                points = pairing_points(played, player, scoring)
                t.points += points
                t.game_points += played.game_points(player)
                if played.forfeit:
                    t.unplayed += 1
                    own_unplayed[player].append(points)
                    t.rounds.append((points, played.result(player) == 1.0, True))
                    continue
                t.rounds.append((points, True, True))
                opponent = played.pairing.opponent(player)
                met[player].append((opponent, played.result(player)))
                t.wins += played.result(player) == 1.0
                for game in played.games:
                    if not game.forfeit:
                        t.games += 1
                        t.game_score += game.points(player)
                        t.rating_sum += rating[opponent]
        for bye in played_round.byes:
            t = known(bye.player, played_round.number)
            named.add(bye.player)
            t.points += bye.points
            t.game_points += bye.points * scoring.games_per_pairing
            t.unplayed += 1
            own_unplayed[bye.player].append(bye.points)
            t.rounds.append((bye.points, bye.kind is ByeKind.PAIRING, False))
        for player in tally.keys() - named:
            tally[player].unplayed += 1
            own_unplayed[player].append(0.0)
            tally[player].rounds.append((0.0, False, False))

    adjusted = {p: _adjusted_score(t.rounds) for p, t in tally.items()}
    lines = []
    for player, t in tally.items():
        buchholz = sum(adjusted[o] for o, _ in met[player]) + t.points * t.unplayed
        sonneborn = sum(adjusted[o] * result for o, result in met[player])
        sonneborn += sum(t.points * points for points in own_unplayed[player])
        performance = None
        if t.games:
            performance = t.rating_sum / t.games + 400 * (2 * t.game_score - t.games) / t.games
        lines.append(
            Standing(0, player, t.points, t.game_points, buchholz, sonneborn, t.wins,
                     performance, t.games)
        )  # fmt: skip

    def key(line: Standing) -> tuple[float, ...]:
        return (-line.points, *(-line.tiebreak(which) for which in order), seeds[line.player])

    lines.sort(key=key)
    return tuple(
        Standing(rank, *(getattr(line, name) for name in _FIELDS))
        for rank, line in enumerate(lines, start=1)
    )


def _adjusted_score(rounds: Sequence[tuple[float, bool, bool]]) -> float:
    """A player's score as their opponents' tiebreaks count it (C.07 article 16.3): each
    round's points, but a draw for every round without a pairing after the last round the player
    took part in (16.2.5: withdrawn, or away to the end)."""
    last = max((n for n, (_, took_part, _) in enumerate(rounds) if took_part), default=-1)
    return sum(
        _DRAW if n > last and not paired else points for n, (points, _, paired) in enumerate(rounds)
    )


_DRAW = 0.5
"""A drawn game's points, and a drawn match's (16.3.2 counts such rounds as draws)."""

_FIELDS = ("player", "points", "game_points", "buchholz", "sonneborn_berger", "wins",
           "performance", "games")  # fmt: skip
