"""Errors raised by the storage layer.

Three families: :class:`DatabaseUnusable` stops the bot at start-up (the database is left
untouched); :class:`DatabaseUnavailable` says the database cannot be reached right now (nothing
was written; try again later); the others are ordinary domain answers ("position changed", "this
channel already has a game") that the Discord layer turns into short replies.
"""

from __future__ import annotations

from pathlib import Path


class StorageError(Exception):
    """Base class of every error the storage layer raises on purpose."""


class DatabaseUnusable(StorageError):
    """The database cannot be used; the bot must stop and the database must not be touched."""

    def __init__(self, path: Path | str, problem: str) -> None:
        what = "the file" if isinstance(path, Path) else "it"
        super().__init__(
            f"cannot use the database {str(path)!r}: {problem}; {what} was left as it is"
        )
        self.path = path


class DatabaseUnavailable(StorageError):
    """The database cannot be reached (a server down, a connection lost, a disk full or locked).

    Whatever the statement was, its transaction did not commit: nothing was half-written. The
    same request can be tried again once the database is back.
    """

    def __init__(self, target: str, problem: str) -> None:
        super().__init__(f"the database {target} is unavailable: {problem}")
        self.target = target
        self.problem = problem


class DatabaseBusy(DatabaseUnavailable):
    """Every connection of the pool stayed busy for longer than a request may wait: the
    database answers, but this process asks it too much at once. Nothing was written."""

    def __init__(self, target: str, problem: str) -> None:
        StorageError.__init__(self, f"the database {target} is busy: {problem}")
        self.target = target
        self.problem = problem


class Conflict(StorageError):
    """The database undid a transaction that collided with another at the same moment (a
    deadlock or a serialisation failure): nothing was written, and trying again will work."""

    def __init__(self, target: str, problem: str) -> None:
        super().__init__(f"the database {target} undid a clashing transaction: {problem}")
        self.target = target


class UniqueViolation(StorageError):
    """A write would break a unique rule (an index or key); ``constraint`` names it when the
    backend says (PostgreSQL does, SQLite does not)."""

    def __init__(self, constraint: str | None, detail: str) -> None:
        super().__init__(detail)
        self.constraint = constraint


class NotADatabaseError(DatabaseUnusable):
    """The file exists but is not an SQLite database (or its header is damaged)."""


class DatabaseCorruptError(DatabaseUnusable):
    """The file is SQLite but fails its integrity check."""


class SchemaTooNewError(DatabaseUnusable):
    """The database was written by a newer version of the bot than this one."""


class MigrationMismatchError(DatabaseUnusable):
    """The migrations recorded in the database are not the ones this code knows by those numbers."""


class NotFound(StorageError):
    """A game or challenge id that does not exist."""


class ChannelBusy(StorageError):
    """The channel (or thread) already has an active game."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an active game")
        self.channel_id = channel_id
        self.game_id = game_id


class GameNotActive(StorageError):
    """The game has already ended (or was set aside as unreplayable)."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is not active (it is {status})")
        self.game_id = game_id
        self.status = status


class PositionChanged(StorageError):
    """Another submission changed the game first; the caller's view of the position is stale."""

    def __init__(self, game_id: int, expected_ply: int, actual_ply: int) -> None:
        super().__init__(
            f"the position changed: game {game_id} is at ply {actual_ply}, not {expected_ply}"
        )
        self.game_id = game_id
        self.expected_ply = expected_ply
        self.actual_ply = actual_ply


class OfferClosed(StorageError):
    """The draw offer or takeback request being accepted is no longer open (answered already,
    or made at another position)."""


class AttemptChanged(StorageError):
    """A puzzle go moved on (or ended) before this move arrived: another click came first."""


class NothingToTakeBack(StorageError):
    """A takeback asked for more moves than the game has."""


class ChallengeClosed(StorageError):
    """The challenge was already accepted, declined, cancelled or has expired."""

    def __init__(self, challenge_id: int, status: str) -> None:
        super().__init__(f"challenge {challenge_id} is no longer open (it was {status})")
        self.challenge_id = challenge_id
        self.status = status


class NotAllowed(StorageError):
    """Someone tried to answer a challenge that is not theirs to answer."""
