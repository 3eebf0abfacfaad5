"""Draw offers and takeback requests, kept until the opponent answers.

An offer is made at a ply and is valid only there: the game's moves, takebacks and endings delete
its offers in their own transactions (see :mod:`.games`), except that a draw offer made by the
player to move goes along with their move to the next ply. Taking an answer deletes the offer in
the statement that reads it, so of two answers (two clicks, two processes) exactly one gets it.
"""

from __future__ import annotations

from .database import Database, Row
from .games import explain_mismatch
from .models import OfferKind, StoredOffer
from .shards import Shards

_COLUMNS = "game_id, kind, user_id, ply, message_id"


def _offer(row: Row) -> StoredOffer:
    return StoredOffer(row[0], row[1], row[2], row[3], row[4])


class OfferStore:
    """Makes, finds and settles offers."""

    def __init__(self, db: Database, shards: Shards | None = None) -> None:
        self._db = db
        self._shards = shards or Shards.every()

    async def make(self, game_id: int, kind: OfferKind, user_id: int, ply: int) -> StoredOffer:
        """Record an offer by ``user_id`` at ``ply``, replacing an older one of that kind.

        :class:`~.errors.PositionChanged` if the game has moved on from ``ply``,
        :class:`~.errors.GameNotActive` if it has ended.
        """
        async with self._db.transaction() as connection:
            row = await connection.fetch_one(
                f"""
                INSERT INTO offers (game_id, kind, user_id, ply, created_at)
                SELECT id, ?, ?, ply, ? FROM games WHERE id = ? AND status = 'active' AND ply = ?
                ON CONFLICT (game_id, kind) DO UPDATE SET
                    user_id = excluded.user_id, ply = excluded.ply, message_id = NULL,
                    created_at = excluded.created_at
                RETURNING {_COLUMNS}
                """,
                (kind, user_id, self._db.now(), game_id, ply),
            )
            if row is None:
                raise await explain_mismatch(connection, game_id, ply)
        return _offer(row)

    async def set_message(self, game_id: int, kind: OfferKind, ply: int, message_id: int) -> None:
        """Remember the message with the offer's buttons (a no-op if the offer is gone)."""
        async with self._db.transaction() as connection:
            await connection.execute(
                "UPDATE offers SET message_id = ? WHERE game_id = ? AND kind = ? AND ply = ?",
                (message_id, game_id, kind, ply),
            )

    async def take(self, game_id: int, kind: OfferKind, ply: int) -> StoredOffer | None:
        """Remove and return the offer of ``kind`` made at ``ply``, or ``None`` if it is not
        open any more (answered, withdrawn by a move, or made at another ply)."""
        async with self._db.transaction() as connection:
            row = await connection.fetch_one(
                "DELETE FROM offers WHERE game_id = ? AND kind = ? AND ply = ?"
                f" RETURNING {_COLUMNS}",
                (game_id, kind, ply),
            )
        return None if row is None else _offer(row)

    async def of_game(self, game_id: int) -> list[StoredOffer]:
        """The open offers of one game (at its current ply)."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                """
                SELECT o.game_id, o.kind, o.user_id, o.ply, o.message_id
                FROM offers AS o JOIN games AS g ON g.id = o.game_id
                WHERE g.id = ? AND g.status = 'active' AND o.ply = g.ply ORDER BY o.kind
                """,
                (game_id,),
            )
        return [_offer(row) for row in rows]

    async def open_offers(self) -> list[StoredOffer]:
        """The offers of the active games of this process's servers (to restore at start-up)."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"""
                SELECT o.game_id, o.kind, o.user_id, o.ply, o.message_id
                FROM offers AS o JOIN games AS g ON g.id = o.game_id
                WHERE g.status = 'active' AND o.ply = g.ply AND ({self._shards.where("g.guild_id")}
                  OR g.id IN (SELECT game_id FROM game_venues AS v
                              WHERE v.active = 1 AND {self._shards.where("v.guild_id")}))
                ORDER BY o.game_id, o.kind
                """
            )
        return [_offer(row) for row in rows]
