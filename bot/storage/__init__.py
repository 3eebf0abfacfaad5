"""Storage: the single source of truth for games, challenges, players and ratings, in an SQLite
file (the default) or a PostgreSQL database shared by several bot processes.

Open one :class:`Storage` at start-up (``await Storage.open(target)``), call
:meth:`Storage.load_active_games`, and share it. All SQL of the project lives in this package.
"""

from .analyses import AnalysisStore
from .challenges import DEFAULT_EXPIRY_SECONDS, ChallengeStore
from .database import Database
from .errors import (
    AttemptChanged,
    ChallengeClosed,
    ChannelBusy,
    Conflict,
    DatabaseCorruptError,
    DatabaseUnavailable,
    DatabaseUnusable,
    GameNotActive,
    MigrationMismatchError,
    NotADatabaseError,
    NotAllowed,
    NotFound,
    NothingToTakeBack,
    OfferClosed,
    PositionChanged,
    SchemaTooNewError,
    ShardTaken,
    StorageError,
    UniqueViolation,
)
from .games import GameStore
from .glicko2 import Rating
from .leaderboards import MIN_GAMES_GLOBAL, MIN_GAMES_SERVER, LeaderboardStore
from .migrations import LATEST_VERSION
from .models import (
    PLIES_TO_COUNT,
    AppendedMove,
    Challenge,
    ChallengeStatus,
    FinishedGame,
    GameRecord,
    GameResult,
    GameStatus,
    LeaderboardEntry,
    MoveRecord,
    OfferKind,
    Participant,
    PlayerPreferences,
    PlayerRating,
    PlayerStats,
    RatingChange,
    Results,
    ServerSettings,
    SideChoice,
    SideName,
    SideRecord,
    StoredOffer,
    Streak,
)
from .offers import OfferStore
from .preferences import PreferencesStore
from .puzzles import (
    DailySolver,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleStore,
    RatedGo,
    StoredPuzzle,
)
from .ratings import FixedRatings, RatingStore
from .settings import SettingsStore
from .shards import Shards, format_ranges, parse_ranges, shard_of
from .storage import LoadedGame, Replayer, StartupReport, Storage, UnreplayableGame
from .target import is_postgres_url, redact

__all__ = [
    "DEFAULT_EXPIRY_SECONDS",
    "LATEST_VERSION",
    "MIN_GAMES_GLOBAL",
    "MIN_GAMES_SERVER",
    "PLIES_TO_COUNT",
    "AnalysisStore",
    "AppendedMove",
    "AttemptChanged",
    "Challenge",
    "ChallengeClosed",
    "ChallengeStatus",
    "ChallengeStore",
    "ChannelBusy",
    "Conflict",
    "DailySolver",
    "Database",
    "DatabaseCorruptError",
    "DatabaseUnavailable",
    "DatabaseUnusable",
    "FinishedGame",
    "FixedRatings",
    "GameNotActive",
    "GameRecord",
    "GameResult",
    "GameStatus",
    "GameStore",
    "LeaderboardEntry",
    "LeaderboardStore",
    "LoadedGame",
    "MigrationMismatchError",
    "MoveRecord",
    "NotADatabaseError",
    "NotAllowed",
    "NotFound",
    "NothingToTakeBack",
    "OfferClosed",
    "OfferKind",
    "OfferStore",
    "Participant",
    "PlayerPreferences",
    "PlayerRating",
    "PlayerStats",
    "PositionChanged",
    "PreferencesStore",
    "PuzzleAttempt",
    "PuzzleRating",
    "PuzzleStore",
    "RatedGo",
    "Rating",
    "RatingChange",
    "RatingStore",
    "Replayer",
    "Results",
    "SchemaTooNewError",
    "ServerSettings",
    "SettingsStore",
    "ShardTaken",
    "Shards",
    "SideChoice",
    "SideName",
    "SideRecord",
    "StartupReport",
    "Storage",
    "StorageError",
    "StoredOffer",
    "StoredPuzzle",
    "Streak",
    "UniqueViolation",
    "UnreplayableGame",
    "format_ranges",
    "is_postgres_url",
    "parse_ranges",
    "redact",
    "shard_of",
]
