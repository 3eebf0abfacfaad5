"""The lobby shared by every server the bot is in: seeks, the pairs they make, and blocks.

A seek is one player's "find me a game": a variant, a time per move, rated or not, and how far
from their own rating an opponent may be. Who may play whom has one rule,
:meth:`Seek.refusal`: a seek is open to another player when they are not its own player, neither
has blocked the other, and their rating lies within the seek's reach now. Two seeks pair when
they ask for the same game and each is open to the other's player (:func:`pairable`); the list
``/tafl lobby`` shows, the count a waiting seek is told and the Play button all ask the same rule
(:meth:`LobbyStore.playable`). A seek's reach is what its player set, or else
:data:`DEFAULT_REACH` points widening by :data:`WIDENING_PER_MINUTE` as it waits, up to
:data:`WIDEST_REACH` (so a lone player far from everyone else is paired in the end).

Pairing is atomic: every change to the open seeks happens in a transaction that takes the
lobby's turn (:data:`LOBBY_TURN`; on SQLite the write lock), so of several processes pairing at
the same instant one at a time sees the open seeks, and a seek is paired at most once. A pair is
made before its game exists (the game needs a thread opened in each server first): both seeks
become ``matched``, each naming the other and the side its player takes. The game, once
created, is written on both (:meth:`LobbyStore.started`); a pair whose game was never created (its
process died in between) is opened again by :meth:`LobbyStore.sweep`.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import groupby

from .database import Connection, Database, Row, Value
from .errors import StorageError
from .models import Participant, SideName
from .players import participant_columns, participant_from_row, player_id
from .shards import Shards

SEEK_LIFETIME = 30 * 60
"""Seconds an open seek waits before it expires."""
DEFAULT_REACH = 300
"""Rating points either way a seek accepts, when its player set none..."""
WIDENING_PER_MINUTE = 50
"""...widening by this much for each minute it has waited..."""
WIDEST_REACH = 1000
"""...up to this."""
LIVE_GAME_SECONDS = 24 * 3600
"""Games with less time per move than this are played at the board: a player in one cannot seek
another, and starting one withdraws their seek. Slower games (correspondence) do neither."""
UNSTARTED_GRACE = 120
"""Seconds a pair may wait for its game before :meth:`LobbyStore.sweep` opens its seeks again."""
LOBBY_TURN = 0x7AF1_0003
"""The turn (PostgreSQL advisory lock key) every change to the open seeks takes."""
DEFAULT_RATING = 1500.0
"""The rating of a player with no rated game in a variant yet (Glicko-2's start)."""

LISTED = 10
"""How many open seeks /tafl lobby shows (the oldest first)."""

SEEK_SELECT = f"""
SELECT s.*, {participant_columns("p", "p_")}
FROM seeks AS s JOIN players AS p ON p.id = s.player_id
"""


class InAGame(StorageError):
    """The player is playing a game at the board (``game_id``) and cannot seek another."""

    def __init__(self, game_id: int, channel_id: int) -> None:
        super().__init__(f"the player is in game {game_id}")
        self.game_id = game_id
        self.channel_id = channel_id


class SeekClosed(StorageError):
    """The seek asked for is no longer open (paired, cancelled, withdrawn or expired)."""


class Blocked(StorageError):
    """One of the two players has blocked the other."""


class OwnSeek(StorageError):
    """A player tried to accept their own seek."""


class OutOfReach(StorageError):
    """A player tried to accept a seek whose reach their rating lies outside."""

    def __init__(self, seek: Seek, rating: float, now: int) -> None:
        super().__init__(f"a rating of {rating:.0f} is outside the reach of seek {seek.id}")
        self.seek = seek
        self.rating = rating
        self.reach = seek.reach(now)
        """The seek's reach when it refused (rating points either way of its player's)."""


class Refusal(Enum):
    """Why a seek is not open to a player (see :meth:`Seek.refusal`)."""

    OWN = "their own seek"
    BLOCKED = "one of them blocked the other"
    OUT_OF_REACH = "their rating is outside the seek's reach"


Blocks = set[tuple[int, int]]
"""Blocks as (blocker, blocked) Discord user ids."""


@dataclass(frozen=True)
class SeekRequest:
    """What a player asks of the lobby."""

    player: Participant
    guild_id: int
    channel_id: int
    variant: str
    move_seconds: int | None
    rated: bool
    reach: int | None = None
    """Rating points either way; ``None``: the default, widening as the seek waits."""

    def __post_init__(self) -> None:
        if self.player.user_id is None:
            raise ValueError("only people seek")
        if self.move_seconds is not None and self.move_seconds <= 0:
            raise ValueError("the time per move must be positive")
        if self.reach is not None and self.reach <= 0:
            raise ValueError("the rating reach must be positive")


@dataclass(frozen=True)
class Seek:
    """A seek as stored."""

    id: int
    player: Participant
    guild_id: int
    channel_id: int
    variant: str
    move_seconds: int | None
    rated: bool
    rating: float
    reach_set: int | None
    status: str
    created_at: int
    expires_at: int
    opponent_id: int | None = None
    side: SideName | None = None
    game_id: int | None = None

    def reach(self, now: int) -> float:
        """How far (in rating points) from its player's rating an opponent may be, ``now``."""
        if self.reach_set is not None:
            return float(self.reach_set)
        waited = max(0, now - self.created_at) / 60
        return float(min(WIDEST_REACH, DEFAULT_REACH + WIDENING_PER_MINUTE * waited))

    def same_game(self, other: Seek) -> bool:
        """Whether ``other`` asks for the same game (variant, time per move, rated or not)."""
        return (self.variant, self.move_seconds, self.rated) == (
            other.variant,
            other.move_seconds,
            other.rated,
        )

    def refusal(self, user_id: int, rating: float, now: int, blocks: Blocks) -> Refusal | None:
        """Why this seek is not open to the player ``user_id`` (a Discord id), rated ``rating``
        in its variant, ``now``; ``None`` when it is. The lobby's one rule of who may play whom:
        pairing, the list, the count a waiting seek is told and the Play button all use it.
        ``blocks`` must hold every block between the two players (either way round)."""
        mine = self.player.user_id or 0
        if user_id == mine:
            return Refusal.OWN
        if (mine, user_id) in blocks or (user_id, mine) in blocks:
            return Refusal.BLOCKED
        if abs(self.rating - rating) > self.reach(now):
            return Refusal.OUT_OF_REACH
        return None

    def open_to(self, other: Seek, now: int, blocks: Blocks) -> bool:
        """Whether this seek is open to ``other``'s player (:meth:`refusal`)."""
        return self.refusal(other.player.user_id or 0, other.rating, now, blocks) is None


def pairable(first: Seek, second: Seek, now: int, blocks: Blocks) -> bool:
    """Whether two open seeks make a game: the same game, each open to the other's player."""
    return (
        first.same_game(second)
        and first.open_to(second, now, blocks)
        and second.open_to(first, now, blocks)
    )


@dataclass(frozen=True)
class Pairing:
    """Two seeks paired: their players, the side each takes, and (once made) the game."""

    attackers: Seek
    defenders: Seek

    @property
    def seeks(self) -> tuple[Seek, Seek]:
        """Both seeks, the attackers' first."""
        return (self.attackers, self.defenders)

    def seek_of(self, side: SideName) -> Seek:
        """The seek of the player who plays ``side``."""
        return self.attackers if side == "attackers" else self.defenders


@dataclass(frozen=True)
class Waiting:
    """A seek left open in the lobby, how many other open seeks of its variant its player may
    play (:meth:`Seek.refusal`: those ``/tafl lobby`` lists for them), and the player's earlier
    open seek it replaced (if any)."""

    seek: Seek
    others: int
    replaced: Seek | None = None


def seek_from_row(row: Row) -> Seek:
    """A :class:`Seek` from a row selected with :data:`SEEK_SELECT`."""
    return Seek(
        id=int(row["id"]),
        player=participant_from_row(row, "p_"),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        variant=str(row["variant"]),
        move_seconds=row["move_seconds"],
        rated=bool(row["rated"]),
        rating=float(row["rating"]),
        reach_set=row["rating_range"],
        status=str(row["status"]),
        created_at=int(row["created_at"]),
        expires_at=int(row["expires_at"]),
        opponent_id=row["opponent_id"],
        side=row["side"],
        game_id=row["game_id"],
    )


class LobbyStore:
    """Seeks, pairs and blocks (see the module's text for the guarantees)."""

    def __init__(self, db: Database, shards: Shards, rng: random.Random | None = None) -> None:
        self._db = db
        self._shards = shards
        self._rng = rng or random.Random()

    # ------------------------------------------------------------------ seeking

    async def seek(
        self, request: SeekRequest, *, answering: int | None = None
    ) -> Pairing | Waiting:
        """Put ``request`` in the lobby: paired at once with the oldest open seek it makes a
        game with, or else left open (replacing the player's earlier open seek). With
        ``answering``, pair with that seek only (a player accepting a seek from the lobby's
        list: the seek must be open to them, and they accept it as it is), or raise
        :class:`SeekClosed`, :class:`OwnSeek`, :class:`Blocked` or :class:`OutOfReach`.

        :class:`InAGame` when the player is playing a game at the board.
        """
        now = self._db.now()
        async with self._db.transaction() as connection:
            await connection.take_turn(LOBBY_TURN)
            player = await player_id(connection, request.player, now)
            await _refuse_if_playing(connection, player)
            target = None
            if answering is not None:
                target = await _open_seek(connection, answering, now)
                if target.player == request.player:
                    raise OwnSeek("that is your own seek")
            earlier = await connection.fetch_one(
                SEEK_SELECT + "WHERE s.player_id = ? AND s.status = 'open' AND s.expires_at > ?",
                (player, now),
            )
            await connection.execute(
                "UPDATE seeks SET status = 'cancelled', ended_at = ?"
                " WHERE player_id = ? AND status = 'open'",
                (now, player),
            )
            rating = await _rating(connection, player, request.variant)
            mine = await _insert_seek(connection, request, player, rating, now)
            blocked = await _blocks(connection, [player])
            if target is not None:
                if not target.same_game(mine):
                    raise SeekClosed("that seek asks for another game")
                refusal = target.refusal(request.player.user_id or 0, rating, now, blocked)
                if refusal is Refusal.BLOCKED:
                    raise Blocked("one of you has blocked the other")
                if refusal is Refusal.OUT_OF_REACH:
                    raise OutOfReach(target, rating, now)
                return await self._pair(connection, mine, target, now)
            others = [
                seek
                for seek in await _open_seeks(connection, now, request.variant)
                if seek.id != mine.id and seek.open_to(mine, now, blocked)
            ]
            for candidate in others:
                if pairable(mine, candidate, now, blocked):
                    return await self._pair(connection, mine, candidate, now)
        return Waiting(mine, len(others), None if earlier is None else seek_from_row(earlier))

    async def _pair(self, connection: Connection, first: Seek, second: Seek, now: int) -> Pairing:
        """Mark two open seeks paired (the caller holds the lobby's turn), sides drawn by lot."""
        attackers, defenders = (first, second) if self._rng.random() < 0.5 else (second, first)
        sides: tuple[tuple[Seek, Seek, SideName], ...] = (
            (attackers, defenders, "attackers"),
            (defenders, attackers, "defenders"),
        )
        for seek, other, side in sides:
            changed = await connection.execute(
                "UPDATE seeks SET status = 'matched', opponent_id = ?, side = ?, ended_at = ?"
                " WHERE id = ? AND status = 'open'",
                (other.id, side, now, seek.id),
            )
            if changed != 1:  # cannot happen under the lobby's turn; a loud failure if it does
                raise SeekClosed(f"seek {seek.id} was paired meanwhile")
        return Pairing(
            _as_matched(attackers, defenders.id, "attackers"),
            _as_matched(defenders, attackers.id, "defenders"),
        )

    async def unpair(self, pairing: Pairing, *, withdraw: int, reopen: int) -> None:
        """Undo a pair whose game cannot be played: the seek ``withdraw`` is withdrawn (its
        channel takes no game), the seek ``reopen`` waits in the lobby again."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            await connection.take_turn(LOBBY_TURN)
            await connection.execute(
                "UPDATE seeks SET status = 'withdrawn', opponent_id = NULL, side = NULL,"
                " ended_at = ? WHERE id = ? AND status = 'matched' AND game_id IS NULL",
                (now, withdraw),
            )
            await connection.execute(
                "UPDATE seeks SET status = 'open', opponent_id = NULL, side = NULL,"
                " ended_at = NULL WHERE id = ? AND status = 'matched' AND game_id IS NULL"
                " AND expires_at > ?",
                (reopen, now),
            )

    async def cancel(self, user_id: int, seek_id: int | None = None) -> Seek | None:
        """Withdraw a player's open seek (only ``seek_id``, if given: an old Cancel button
        never withdraws a newer seek); the seek, or ``None`` if none such was open."""
        now = self._db.now()
        query = SEEK_SELECT + "WHERE p.discord_user_id = ? AND s.status = 'open'"
        parameters: tuple[int, ...] = (user_id,)
        if seek_id is not None:
            query += " AND s.id = ?"
            parameters = (user_id, seek_id)
        async with self._db.transaction() as connection:
            await connection.take_turn(LOBBY_TURN)
            row = await connection.fetch_one(query, parameters)
            if row is None:
                return None
            await connection.execute(
                "UPDATE seeks SET status = 'cancelled', ended_at = ? WHERE id = ?",
                (now, row["id"]),
            )
        return seek_from_row(row)

    async def get(self, seek_id: int) -> Seek | None:
        """A seek by id."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(SEEK_SELECT + "WHERE s.id = ?", (seek_id,))
        return None if row is None else seek_from_row(row)

    async def open_seek_of(self, user_id: int) -> Seek | None:
        """A player's open seek, if any (an expired one is not open)."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                SEEK_SELECT + "WHERE p.discord_user_id = ? AND s.status = 'open'"
                " AND s.expires_at > ?",
                (user_id, self._db.now()),
            )
        return None if row is None else seek_from_row(row)

    async def open_seeks(self, variant: str | None = None) -> list[Seek]:
        """Every open seek (of ``variant``), oldest first."""
        async with self._db.read() as connection:
            return await _open_seeks(connection, self._db.now(), variant)

    async def playable(
        self, user_id: int, variant: str | None = None, *, limit: int | None = None
    ) -> list[Seek]:
        """The open seeks (of ``variant``) the player ``user_id`` (a Discord id) may play now,
        oldest first, at most ``limit``: those :meth:`Seek.refusal` finds open to them, at their
        rating in each seek's variant."""
        now = self._db.now()
        async with self._db.read() as connection:
            seeks = await _open_seeks(connection, now, variant)
            row_id = await connection.fetch_value(
                "SELECT id FROM players WHERE discord_user_id = ?", (user_id,)
            )
            ratings: dict[str, float] = {}
            blocks: Blocks = set()
            if row_id is not None:
                rows = await connection.fetch(
                    "SELECT variant, rating FROM ratings WHERE player_id = ?", (row_id,)
                )
                ratings = {str(row[0]): float(row[1]) for row in rows}
                blocks = await _blocks(connection, [int(row_id)])
        found = [
            seek
            for seek in seeks
            if not seek.refusal(user_id, ratings.get(seek.variant, DEFAULT_RATING), now, blocks)
        ]
        return found if limit is None else found[:limit]

    async def counts(self) -> dict[str, int]:
        """Open seeks per variant."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT variant, count(*) FROM seeks WHERE status = 'open' AND expires_at > ?"
                " GROUP BY variant",
                (self._db.now(),),
            )
        return {str(row[0]): int(row[1]) for row in rows}

    # ------------------------------------------------------------------ the pair's game

    async def started(self, pairing: Pairing, game_id: int) -> None:
        """Record the game a pair started (in the game's own transaction, see
        :meth:`~.games.GameStore.create_across`)."""
        async with self._db.transaction() as connection:
            await record_start(connection, pairing, game_id)

    async def sweep(self) -> tuple[list[Pairing], list[Seek]]:
        """The lobby's housekeeping, for a timer: expire the seeks that waited too long, open
        again the pairs whose game never came, and pair the seeks that have grown into each
        other's reach. Returns the new pairs and the expired seeks."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            await connection.take_turn(LOBBY_TURN)
            expired = [
                seek_from_row(row)
                for row in await connection.fetch(
                    SEEK_SELECT + "WHERE s.status = 'open' AND s.expires_at <= ?", (now,)
                )
            ]
            await connection.execute(
                "UPDATE seeks SET status = 'expired', ended_at = ?"
                " WHERE status = 'open' AND expires_at <= ?",
                (now, now),
            )
            # Their game was never made (its process stopped in between): waiting again.
            await connection.execute(
                "UPDATE seeks SET status = 'open', opponent_id = NULL, side = NULL,"
                " ended_at = NULL WHERE status = 'matched' AND game_id IS NULL AND ended_at <= ?",
                (now - UNSTARTED_GRACE,),
            )
            waiting = await _open_seeks(connection, now, None)
            blocked = await _blocks(connection, None)
            pairs = []
            for candidates in _by_kind(waiting):
                for first, second in _pairs(candidates, now, blocked):
                    pairs.append(await self._pair(connection, first, second, now))
        return pairs, expired

    # ------------------------------------------------------------------ blocks

    async def block(self, user_id: int, other: Participant) -> bool:
        """``user_id`` will never be paired with ``other``; ``False`` if it was so already."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            mine = await player_id(connection, Participant.user(user_id), now)
            theirs = await player_id(connection, other, now)
            added = await connection.execute(
                "INSERT INTO blocks (player_id, blocked_id, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (player_id, blocked_id) DO NOTHING",
                (mine, theirs, now),
            )
        return added == 1

    async def unblock(self, user_id: int, other_user_id: int) -> bool:
        """Lift a block; ``False`` if there was none."""
        async with self._db.transaction() as connection:
            removed = await connection.execute(
                "DELETE FROM blocks WHERE player_id ="
                " (SELECT id FROM players WHERE discord_user_id = ?)"
                " AND blocked_id = (SELECT id FROM players WHERE discord_user_id = ?)",
                (user_id, other_user_id),
            )
        return removed == 1

    async def blocked(self, user_id: int) -> list[Participant]:
        """Whom a player has blocked, most recent first."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"SELECT {participant_columns('b', 'b_')} FROM blocks AS k"
                " JOIN players AS p ON p.id = k.player_id JOIN players AS b ON b.id = k.blocked_id"
                " WHERE p.discord_user_id = ? ORDER BY k.created_at DESC",
                (user_id,),
            )
        return [participant_from_row(row, "b_") for row in rows]

    async def either_blocked(self, first: int, second: int) -> bool:
        """Whether one of two people (by Discord id) has blocked the other."""
        async with self._db.read() as connection:
            value = await connection.fetch_value(
                "SELECT 1 FROM blocks AS k JOIN players AS a ON a.id = k.player_id"
                " JOIN players AS b ON b.id = k.blocked_id WHERE"
                " (a.discord_user_id = ? AND b.discord_user_id = ?)"
                " OR (a.discord_user_id = ? AND b.discord_user_id = ?)",
                (first, second, second, first),
            )
        return value is not None


async def record_start(connection: Connection, pairing: Pairing, game_id: int) -> None:
    """Write the pair's game on both seeks (in the caller's transaction)."""
    await connection.execute(
        "UPDATE seeks SET game_id = ? WHERE id IN (?, ?) AND status = 'matched'",
        (game_id, pairing.attackers.id, pairing.defenders.id),
    )


async def withdraw_seeks(connection: Connection, players: Iterable[int], now: int) -> None:
    """Withdraw the open seeks of players who have just started a game at the board."""
    for player in players:
        await connection.execute(
            "UPDATE seeks SET status = 'withdrawn', ended_at = ?"
            " WHERE player_id = ? AND status = 'open'",
            (now, player),
        )


def _as_matched(seek: Seek, opponent: int, side: SideName) -> Seek:
    return replace(seek, status="matched", opponent_id=opponent, side=side)


async def _refuse_if_playing(connection: Connection, player: int) -> None:
    # Where the player plays it: their own venue of a game across servers, else its channel.
    row = await connection.fetch_one(
        "SELECT g.id, coalesce(v.channel_id, g.channel_id) FROM games AS g"
        " LEFT JOIN game_venues AS v ON v.game_id = g.id AND v.active = 1 AND v.side ="
        " CASE WHEN g.attackers_id = ? THEN 'attackers' ELSE 'defenders' END"
        " WHERE g.status = 'active' AND (g.attackers_id = ? OR g.defenders_id = ?)"
        " AND g.move_seconds < ? ORDER BY g.id",
        (player, player, player, LIVE_GAME_SECONDS),
    )
    if row is not None:
        raise InAGame(int(row[0]), int(row[1]))


async def _rating(connection: Connection, player: int, variant: str) -> float:
    value = await connection.fetch_value(
        "SELECT rating FROM ratings WHERE player_id = ? AND variant = ?", (player, variant)
    )
    return DEFAULT_RATING if value is None else float(value)


async def _insert_seek(
    connection: Connection, request: SeekRequest, player: int, rating: float, now: int
) -> Seek:
    seek_id = await connection.fetch_value(
        """
        INSERT INTO seeks (player_id, guild_id, channel_id, variant, move_seconds, rated, rating,
                           rating_range, created_at, expires_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        RETURNING id
        """,
        (
            player, request.guild_id, request.channel_id, request.variant, request.move_seconds,
            int(request.rated), rating, request.reach, now, now + SEEK_LIFETIME,
        ),
    )  # fmt: skip
    row = await connection.fetch_one(SEEK_SELECT + "WHERE s.id = ?", (seek_id,))
    assert row is not None
    return seek_from_row(row)


async def _open_seek(connection: Connection, seek_id: int, now: int) -> Seek:
    row = await connection.fetch_one(
        SEEK_SELECT + "WHERE s.id = ? AND s.status = 'open' AND s.expires_at > ?", (seek_id, now)
    )
    if row is None:
        raise SeekClosed(f"seek {seek_id} is no longer open")
    return seek_from_row(row)


async def _open_seeks(connection: Connection, now: int, variant: str | None) -> list[Seek]:
    """Open seeks, oldest first: of ``variant`` (all with ``None``). The query is written per
    case so that each uses its index rather than a catch-all condition."""
    where = "WHERE s.status = 'open' AND s.expires_at > ?"
    parameters: list[Value] = [now]
    if variant is not None:
        where += " AND s.variant = ?"
        parameters.append(variant)
    rows = await connection.fetch(
        SEEK_SELECT + where + " ORDER BY s.created_at, s.id", tuple(parameters)
    )
    return [seek_from_row(row) for row in rows]


async def _blocks(connection: Connection, players: Sequence[int] | None) -> Blocks:
    """The blocks that involve any of ``players`` (row ids), either way round; every block
    with ``None``."""
    where = ""
    parameters: tuple[int, ...] = ()
    if players is not None:
        marks = ", ".join("?" for _ in players)
        where = f" WHERE k.player_id IN ({marks}) OR k.blocked_id IN ({marks})"
        parameters = (*players, *players)
    rows = await connection.fetch(
        "SELECT a.discord_user_id, b.discord_user_id FROM blocks AS k"
        " JOIN players AS a ON a.id = k.player_id JOIN players AS b ON b.id = k.blocked_id" + where,
        parameters,
    )
    return {(int(row[0]), int(row[1])) for row in rows}


def _kind(seek: Seek) -> tuple[str, int, bool]:
    return (seek.variant, seek.move_seconds or 0, seek.rated)


def _by_kind(seeks: Sequence[Seek]) -> list[list[Seek]]:
    """Open seeks grouped by the game they ask for, each group oldest first."""
    ordered = sorted(seeks, key=lambda seek: (_kind(seek), seek.created_at, seek.id))
    return [list(group) for _, group in groupby(ordered, key=_kind)]


def _pairs(seeks: Sequence[Seek], now: int, blocks: Blocks) -> list[tuple[Seek, Seek]]:
    """Pairs among seeks of one kind, the oldest seeks served first, each with the oldest seek
    it pairs with. Candidates are looked up by rating, so a large lobby stays cheap."""
    by_rating = sorted(seeks, key=lambda seek: seek.rating)
    ratings = [seek.rating for seek in by_rating]
    taken: set[int] = set()
    pairs = []
    for seek in seeks:  # oldest first
        if seek.id in taken:
            continue
        reach = seek.reach(now)
        low = bisect.bisect_left(ratings, seek.rating - reach)
        high = bisect.bisect_right(ratings, seek.rating + reach)
        candidates = [
            other
            for other in by_rating[low:high]
            if other.id != seek.id and other.id not in taken and pairable(seek, other, now, blocks)
        ]
        if candidates:
            partner = min(candidates, key=lambda other: (other.created_at, other.id))
            taken.update((seek.id, partner.id))
            pairs.append((seek, partner))
    return pairs
