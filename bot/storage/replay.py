"""All the storage layer asks of the rules engine: a variant's start, and replaying a game."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Game, Side, get_variant

from .models import GameRecord, SideName


def variant_start(variant: str) -> tuple[str, SideName]:
    """The start position (OTN) and the side that moves first in ``variant``.

    Raises ``bot.engine.UnknownVariantError`` for a name the engine does not know.
    """
    description = get_variant(variant)
    first: SideName = "attackers" if description.first is Side.ATTACKERS else "defenders"
    return description.start, first


def replay_game(record: GameRecord, moves: Sequence[str]) -> Game:
    """Rebuild the engine's game from its stored start and the moves in effect.

    Raises ``bot.engine.TaflError`` when a move no longer replays. The moves are replayed on
    the engine's fast core where it is built (:meth:`Game.play_all`).
    """
    game = Game(record.variant, record.start_position, Side(record.first_turn))
    game.play_all(moves)
    return game
