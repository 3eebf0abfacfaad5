"""Arena events, lichess-style: players are paired again as soon as their game ends, and scored
with streaks.

Scoring follows lichess's documented arena rules: a win is worth 2 points, a draw 1, a loss 0;
after two wins in a row every game is worth double (a win 4, a draw 2) until a game that is not
a win; and a draw that follows a draw (with only losses between: a draw streak ends with a win
alone) scores nothing unless it lasted at least 30 moves (60 plies). Berserk (half the clock for
an extra point) is not part of the bot's events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.engine import Side

from .model import Entrant, Game, Pairing, PlayerId

LONG_DRAW_PLIES = 60
"""A draw of at least this many plies (30 moves) scores even inside a draw streak."""


@dataclass(frozen=True)
class ArenaGame:
    """A finished arena game and its length in plies (half-moves)."""

    game: Game
    plies: int


@dataclass(frozen=True)
class ArenaScore:
    """One player's arena sheet: the points of each game in order, and the total."""

    player: PlayerId
    sheet: tuple[int, ...]
    on_fire: bool
    """Two wins in a row: the next game counts double."""

    @property
    def points(self) -> int:
        """The player's arena score."""
        return sum(self.sheet)


def arena_scores(games: Sequence[ArenaGame]) -> dict[PlayerId, ArenaScore]:
    """Every player's :class:`ArenaScore` from the event's games in the order they ended."""
    sheets: dict[PlayerId, list[int]] = {}
    results: dict[PlayerId, list[float]] = {}
    draw_streak: dict[PlayerId, bool] = {}
    for arena_game in games:
        game = arena_game.game
        for player in (game.attacker, game.defender):
            sheet = sheets.setdefault(player, [])
            past = results.setdefault(player, [])
            result = game.points(player)
            fire = 2 if past[-2:] == [1.0, 1.0] else 1
            if result == 1.0:
                points = 2 * fire
                draw_streak[player] = False
            elif result == 0.5:
                short = arena_game.plies < LONG_DRAW_PLIES
                points = 0 if draw_streak.get(player) and short else fire
                draw_streak[player] = True
            else:
                points = 0
            sheet.append(points)
            past.append(result)
    return {
        player: ArenaScore(player, tuple(sheet), results[player][-2:] == [1.0, 1.0])
        for player, sheet in sorted(sheets.items())
    }


@dataclass(frozen=True)
class ArenaPairing:
    """The games to start now, and the players left waiting for the next call."""

    pairings: tuple[Pairing, ...]
    waiting: tuple[PlayerId, ...]


def pair_arena(
    waiting: Sequence[Entrant],
    scores: Mapping[PlayerId, int],
    last_opponents: Mapping[PlayerId, PlayerId],
    last_sides: Mapping[PlayerId, Side] | None = None,
) -> ArenaPairing:
    """Pair the players free now. They are ranked by arena score, then rating, then id, and each
    in turn meets the nearest-ranked free player below who was not their last opponent (no
    immediate rematch); one who finds none waits. Sides: a player who last had the attackers
    takes the defenders when that settles it, else the higher-ranked player attacks."""
    sides = last_sides or {}
    ranked = sorted(waiting, key=lambda e: (-scores.get(e.id, 0), -e.rating, e.id))
    free = [e.id for e in ranked]
    pairings: list[Pairing] = []
    left: list[PlayerId] = []
    while free:
        first = free.pop(0)
        partner = next((p for p in free if last_opponents.get(first) != p
                        and last_opponents.get(p) != first), None)  # fmt: skip
        if partner is None:
            left.append(first)
            continue
        free.remove(partner)
        attacker, defender = first, partner
        if sides.get(first) is Side.ATTACKERS or sides.get(partner) is Side.DEFENDERS:
            attacker, defender = partner, first
        pairings.append(Pairing(attacker, defender, len(pairings) + 1))
    return ArenaPairing(tuple(pairings), tuple(left))
