"""Tournament logic, pure: Swiss, round robin and arena pairing, scoring and standings.

No Discord, no database: storage-backed services and the Discord layer build these values from
stored events and games. Sides map to the FIDE rules' colours once (:mod:`.model`): attackers =
white, defenders = black. Everything is deterministic for the same inputs.
"""

from .arena import ArenaGame, ArenaPairing, ArenaScore, arena_scores, pair_arena
from .errors import PairingImpossibleError, TournamentError
from .model import (
    MATCHES,
    ONE_GAME,
    Bye,
    ByeKind,
    Entrant,
    Game,
    Pairing,
    PlayedPairing,
    PlayedRound,
    PlayerId,
    PlayerRecord,
    Round,
    Scoring,
)
from .roundrobin import round_robin
from .standings import MATCH_ORDER, ONE_GAME_ORDER, Standing, Tiebreak, standings
from .swiss import pair_swiss

__all__ = [
    "MATCHES",
    "MATCH_ORDER",
    "ONE_GAME",
    "ONE_GAME_ORDER",
    "ArenaGame",
    "ArenaPairing",
    "ArenaScore",
    "Bye",
    "ByeKind",
    "Entrant",
    "Game",
    "Pairing",
    "PairingImpossibleError",
    "PlayedPairing",
    "PlayedRound",
    "PlayerId",
    "PlayerRecord",
    "Round",
    "Scoring",
    "Standing",
    "Tiebreak",
    "TournamentError",
    "arena_scores",
    "pair_arena",
    "pair_swiss",
    "round_robin",
    "standings",
]
