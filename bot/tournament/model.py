"""The values tournaments are made of: entrants, pairings, byes, games and rounds.

Sides map to the colours of the FIDE rules once, here: **attackers = white, defenders = black**.
A side history is written with ``A`` (attackers), ``D`` (defenders) and ``-`` (no game that round).
Every value is frozen; a round's results are a :class:`PlayedRound` built by the caller from stored
games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from bot.engine import Side

from .errors import TournamentError

PlayerId = int
"""A player's id (the Discord user id, or any int that is unique in the event)."""

SCORES = (0.0, 0.5, 1.0)
"""The points a game can give one player: a loss, a draw, a win."""


@dataclass(frozen=True)
class Entrant:
    """One player in an event: ``rating`` at entry seeds them (higher first, then lower id)."""

    id: PlayerId
    rating: float
    withdrawn: bool = False
    """Withdrawn players keep their results but are never paired again."""


def seeded(entrants: tuple[Entrant, ...] | list[Entrant]) -> list[Entrant]:
    """Entrants in seed order (the FIDE pairing-number order): rating down, then id up."""
    return sorted(entrants, key=lambda e: (-e.rating, e.id))


@dataclass(frozen=True)
class Pairing:
    """Two players meeting in a round. ``attacker`` takes the attackers in the pairing's first
    game; in a two-game match the sides swap for the second game."""

    attacker: PlayerId
    defender: PlayerId
    board: int = 1

    def __post_init__(self) -> None:
        if self.attacker == self.defender:
            raise TournamentError(f"player {self.attacker} cannot be paired with themselves")

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        """Both players, attacker first."""
        return (self.attacker, self.defender)

    def opponent(self, player: PlayerId) -> PlayerId:
        """The other player of the pairing."""
        return self.defender if player == self.attacker else self.attacker

    def side(self, player: PlayerId, game: int = 0) -> Side:
        """The side ``player`` takes in game ``game`` (0 or 1) of the pairing."""
        first = Side.ATTACKERS if player == self.attacker else Side.DEFENDERS
        return first if game % 2 == 0 else first.other


class ByeKind(Enum):
    """Why a player has no opponent in a round."""

    PAIRING = "pairing"
    """Allocated by the pairing (odd number of players); scored as the event says, once each."""
    MISSED = "missed"
    """A round missed before joining late, or while absent: zero points."""


@dataclass(frozen=True)
class Bye:
    """A round without an opponent, with the points it gives (match points for matches)."""

    player: PlayerId
    kind: ByeKind
    points: float


@dataclass(frozen=True)
class Round:
    """A round's pairings (boards in order) and byes, before any game is played."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[Bye, ...] = ()

    @property
    def players(self) -> frozenset[PlayerId]:
        """Every player the round names, paired or with a bye."""
        named = {p for pairing in self.pairings for p in pairing.players}
        return frozenset(named | {bye.player for bye in self.byes})


@dataclass(frozen=True)
class Game:
    """One finished game: ``result`` is the attacker's points (1 win, 0.5 draw, 0 loss).
    A ``forfeit`` was decided without play (no-show, removal, adjudicated absence): it counts
    for points but not as a game played (the two may be paired again; no side is recorded)."""

    attacker: PlayerId
    defender: PlayerId
    result: float
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.result not in SCORES:
            raise TournamentError(f"game result {self.result!r}: must be 1, 0.5 or 0")

    def points(self, player: PlayerId) -> float:
        """The points ``player`` scored in this game."""
        return self.result if player == self.attacker else 1.0 - self.result


@dataclass(frozen=True)
class PlayedPairing:
    """A pairing with its games: one game, or two with sides swapped (a match)."""

    pairing: Pairing
    games: tuple[Game, ...]

    def __post_init__(self) -> None:
        if not self.games:
            raise TournamentError(f"pairing {self.pairing.players} has no game")
        for game in self.games:
            if {game.attacker, game.defender} != set(self.pairing.players):
                raise TournamentError(
                    f"game {game.attacker} v {game.defender} is not of pairing "
                    f"{self.pairing.attacker} v {self.pairing.defender}"
                )

    @property
    def forfeit(self) -> bool:
        """Whether no game of the pairing was played over the board."""
        return all(game.forfeit for game in self.games)

    def game_points(self, player: PlayerId) -> float:
        """The points ``player`` scored over the pairing's games."""
        return sum(game.points(player) for game in self.games)

    def result(self, player: PlayerId) -> float:
        """``player``'s result of the pairing as one unit: 1 won, 0.5 drawn, 0 lost (for a
        match, by game points)."""
        mine = self.game_points(player)
        theirs = len(self.games) - mine
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@dataclass(frozen=True)
class PlayedRound:
    """A round with every pairing's games: the history pairing and standings work from."""

    number: int
    pairings: tuple[PlayedPairing, ...]
    byes: tuple[Bye, ...] = ()


@dataclass(frozen=True)
class Scoring:
    """How an event scores.

    ``games_per_pairing`` is 1 (one game; sides balanced over the event) or 2 (a two-game match
    with sides swapped). Points are game points for one-game pairings and match points (won 1,
    drawn ½, lost 0) for matches, where game points become a tiebreak. A pairing-allocated bye
    gives ``bye_points`` (a win by default) and, in matches, that share of the games' points.
    """

    games_per_pairing: int = 1
    bye_points: float = 1.0

    def __post_init__(self) -> None:
        if self.games_per_pairing not in (1, 2):
            raise TournamentError(f"games per pairing {self.games_per_pairing!r}: must be 1 or 2")

    @property
    def matches(self) -> bool:
        """Whether a pairing is a two-game match."""
        return self.games_per_pairing == 2


ONE_GAME = Scoring()
"""One game a pairing, a bye worth a win."""
MATCHES = Scoring(games_per_pairing=2)
"""Two-game matches with sides swapped, a bye worth a won match."""


@dataclass(frozen=True)
class PlayerRecord:
    """What the rounds so far say about one player, as pairing needs it."""

    id: PlayerId
    points: float = 0.0
    sides: str = ""
    """One letter a round: ``A``/``D`` for the side of the pairing's first game, ``-`` none."""
    opponents: frozenset[PlayerId] = field(default_factory=frozenset)
    """Opponents met over the board (forfeits excluded, as FIDE's C.04.1 rules)."""
    pairing_byes: int = 0
    floats: str = ""
    """One letter a round: ``D`` floated down (or a pairing bye), ``U`` up, ``-`` neither."""
