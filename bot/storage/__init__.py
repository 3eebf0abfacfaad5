"""Storage: the single source of truth for games, challenges, players and ratings, in an SQLite
file (the default) or a PostgreSQL database shared by several bot processes.

Open one :class:`Storage` at start-up (``await Storage.open(target)``), call
:meth:`Storage.load_active_games`, and share it. All SQL of the project lives in this package.
"""

from .analyses import AnalysisStore
from .challenges import DEFAULT_EXPIRY_SECONDS, ChallengeStore
from .database import Database, PoolStats, PostgresOptions
from .errors import (
    AttemptChanged,
    ChallengeClosed,
    ChannelBusy,
    Conflict,
    DatabaseBusy,
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
    StorageError,
    UniqueViolation,
)
from .games import GameStore
from .glicko2 import Rating
from .leaderboards import MIN_GAMES_GLOBAL, MIN_GAMES_SERVER, LeaderboardStore
from .leases import DEFAULT_LEASE_SECONDS, Holder, LeaseKeeper, LeaseStore, Lost
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
from .shards import Shards, format_ranges, parse_ranges, shard_of, split_shards
from .storage import LoadedGame, Replayer, StartupReport, Storage, UnreplayableGame
from .target import is_postgres_url, redact
from .venues import Place, Venue

__all__ = [
    "DEFAULT_EXPIRY_SECONDS",
    "DEFAULT_LEASE_SECONDS",
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
    "DatabaseBusy",
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
    "Holder",
    "LeaderboardEntry",
    "LeaderboardStore",
    "LeaseKeeper",
    "LeaseStore",
    "LoadedGame",
    "Lost",
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
    "Place",
    "PlayerPreferences",
    "PlayerRating",
    "PlayerStats",
    "PoolStats",
    "PositionChanged",
    "PostgresOptions",
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
    "Venue",
    "format_ranges",
    "is_postgres_url",
    "parse_ranges",
    "redact",
    "shard_of",
    "split_shards",
]
