"""Games and their move logs: creating, moving, taking back, finishing, deadlines.

Concurrency: every change names the ply the caller believes the game is at (``expected_ply``).
The game row's ``ply`` is updated with a conditional ``UPDATE ... WHERE ply = expected`` in the
same transaction that appends the log row, so of two submissions for the same turn exactly one
matches and the other gets :class:`PositionChanged`. The log's primary key ``(game_id, seq)``
backs this up.

A method returns only after its transaction has committed: the bot may announce a move once
:meth:`GameStore.append_move` has returned, and never before.
"""

from __future__ import annotations

from datetime import datetime

from .database import Connection, Database, Row, Value, whole
from .errors import (
    ChannelBusy,
    GameNotActive,
    NotFound,
    NothingToTakeBack,
    OfferClosed,
    PositionChanged,
    UniqueViolation,
)
from .lobby import LIVE_GAME_SECONDS, Pairing, record_start, withdraw_seeks
from .models import (
    AppendedMove,
    FinishedGame,
    GameEnding,
    GameRecord,
    GameResult,
    GameStatus,
    MoveRecord,
    OfferKind,
    Participant,
    RatingChange,
    SideName,
    game_ending,
    to_datetime,
)
from .movelog import moves_in_effect
from .players import participant_columns, participant_from_row, player_ids
from .ratings import FixedRatings, rate_finished_game
from .replay import variant_start
from .settings import fetch_settings
from .shards import Shards
from .venues import (
    Place,
    Venue,
    busy_channel,
    check_free,
    close_venues,
    fetch_venues,
    insert_venue,
    venue_from_row,
)

GAME_SELECT = f"""
SELECT g.*, {participant_columns("a", "a_")}, {participant_columns("d", "d_")}
FROM games AS g
JOIN players AS a ON a.id = g.attackers_id
JOIN players AS d ON d.id = g.defenders_id
"""


def game_from_row(row: Row) -> GameRecord:
    """Build a :class:`GameRecord` from a row selected with :data:`GAME_SELECT`."""
    created_at = to_datetime(row["created_at"])
    updated_at = to_datetime(row["updated_at"])
    assert created_at is not None and updated_at is not None  # NOT NULL columns
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        variant=row["variant"],
        start_position=row["start_position"],
        first_turn=row["first_turn"],
        attackers=participant_from_row(row, "a_"),
        defenders=participant_from_row(row, "d_"),
        rated=bool(row["rated"]),
        status=GameStatus(row["status"]),
        result=None if row["result"] is None else GameResult(row["result"]),
        reason=None if row["reason"] is None else game_ending(row["reason"]),
        ply=row["ply"],
        move_seconds=row["move_seconds"],
        move_deadline=to_datetime(row["move_deadline"]),
        reminder_sent=bool(row["reminder_sent"]),
        board_message_id=row["board_message_id"],
        problem=row["problem"],
        created_at=created_at,
        updated_at=updated_at,
        ended_at=to_datetime(row["ended_at"]),
        board_ply=row["board_ply"],
    )


async def fetch_game(connection: Connection, game_id: int) -> GameRecord:
    """One game by id; :class:`NotFound` if there is none."""
    row = await connection.fetch_one(GAME_SELECT + "WHERE g.id = ?", (game_id,))
    if row is None:
        raise NotFound(f"there is no game {game_id}")
    return game_from_row(row)


def may_be_rated(attackers: Participant, defenders: Participant, rated_ai_games: bool) -> bool:
    """Whether a game between these two can count for ratings at all."""
    if attackers == defenders or (attackers.is_ai and defenders.is_ai):
        return False
    if attackers.is_ai or defenders.is_ai:
        return rated_ai_games
    return True


async def insert_game(
    connection: Connection,
    now: int,
    *,
    guild_id: int | None,
    channel_id: int,
    variant: str,
    attackers: Participant,
    defenders: Participant,
    start_position: str | None,
    first_turn: SideName | None,
    move_seconds: int | None,
    rated: bool,
) -> GameRecord:
    """Create a game in the caller's transaction; :class:`ChannelBusy` if the channel has one."""
    if start_position is None or first_turn is None:
        default_start, default_first = variant_start(variant)
        start_position = start_position if start_position is not None else default_start
        first_turn = first_turn if first_turn is not None else default_first
    if move_seconds is not None and move_seconds <= 0:
        raise ValueError(f"move_seconds must be positive, not {move_seconds}")
    settings = await fetch_settings(connection, guild_id)
    rated = rated and may_be_rated(attackers, defenders, settings.rated_ai_games)
    attackers_id, defenders_id = await player_ids(connection, (attackers, defenders), now)
    venue_game = await busy_channel(connection, channel_id)
    if venue_game is not None:  # a game across servers is played here
        raise ChannelBusy(channel_id, venue_game)
    # The one-game-per-channel index settles a race here: a second insert for the channel does
    # nothing (on PostgreSQL, after waiting for the first to commit) and returns no id.
    game_id = await connection.fetch_value(
        """
        INSERT INTO games (guild_id, channel_id, variant, start_position, first_turn,
                           attackers_id, defenders_id, rated, move_seconds, move_deadline,
                           created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (channel_id) WHERE status = 'active' DO NOTHING
        RETURNING id
        """,
        (
            guild_id, channel_id, variant, start_position, first_turn,
            attackers_id, defenders_id, int(rated), move_seconds,
            None if move_seconds is None else now + move_seconds, now, now,
        ),
    )  # fmt: skip
    if game_id is None:
        busy = await connection.fetch_value(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        )
        raise ChannelBusy(channel_id, None if busy is None else whole(busy))
    if move_seconds is not None and move_seconds < LIVE_GAME_SECONDS:
        # A game at the board takes its players out of the lobby.
        await withdraw_seeks(connection, {attackers_id, defenders_id}, now)
    return await fetch_game(connection, int(game_id))


async def explain_mismatch(connection: Connection, game_id: int, expected_ply: int) -> Exception:
    """Why a conditional update matched no row: no game, game over, or someone moved first."""
    row = await connection.fetch_one("SELECT status, ply FROM games WHERE id = ?", (game_id,))
    if row is None:
        return NotFound(f"there is no game {game_id}")
    status, ply = row[0], row[1]
    if status != GameStatus.ACTIVE:
        return GameNotActive(game_id, status)
    if ply != expected_ply:
        return PositionChanged(game_id, expected_ply, ply)
    return NothingToTakeBack(f"game {game_id} has only {ply} moves to take back")


async def _claim_offer(connection: Connection, game_id: int, kind: OfferKind, ply: int) -> None:
    """Remove the open offer being accepted; :class:`OfferClosed` (rolling back) if it is gone."""
    taken = await connection.fetch_value(
        "DELETE FROM offers WHERE game_id = ? AND kind = ? AND ply = ? RETURNING ply",
        (game_id, kind, ply),
    )
    if taken is None:
        raise OfferClosed(f"the {kind} offer of game {game_id} at ply {ply} is no longer open")


async def _withdraw_offers(connection: Connection, game_id: int) -> None:
    """Offers are valid only at their ply: a takeback or an ending withdraws them (a move too,
    but for a draw offer its mover made with it: see :meth:`GameStore.append_move`)."""
    await connection.execute("DELETE FROM offers WHERE game_id = ?", (game_id,))


async def _clear_rated(connection: Connection, game_id: int) -> GameRecord:
    """Mark an ended game unrated, so its ``rated`` flag says what happened, not what was asked."""
    await connection.execute("UPDATE games SET rated = 0 WHERE id = ?", (game_id,))
    return await fetch_game(connection, game_id)


class GameStore:
    """Games, their move logs and deadlines.

    The scans for work to do (:meth:`active`, :meth:`past_deadline`, :meth:`due_for_reminder`)
    see only the games of this process's servers (``shards``), so with several processes each
    game is timed and settled by the one that answers for it.
    """

    def __init__(
        self, db: Database, shards: Shards | None = None, fixed: FixedRatings | None = None
    ) -> None:
        self._db = db
        self._shards = shards or Shards.every()
        self._fixed = fixed

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        variant: str,
        attackers: Participant,
        defenders: Participant,
        start_position: str | None = None,
        first_turn: SideName | None = None,
        move_seconds: int | None = None,
        rated: bool = True,
    ) -> GameRecord:
        """Start a game in a channel or thread; :class:`ChannelBusy` if one is active there.

        ``start_position``/``first_turn`` default to the variant's (asked of the engine).
        ``rated`` asks for a rated game; it is rated only between two different people, or against
        the AI when the server has turned that on. ``move_seconds`` sets a per-move time limit.
        """
        async with self._db.transaction() as connection:
            return await insert_game(
                connection,
                self._db.now(),
                guild_id=guild_id,
                channel_id=channel_id,
                variant=variant,
                attackers=attackers,
                defenders=defenders,
                start_position=start_position,
                first_turn=first_turn,
                move_seconds=move_seconds,
                rated=rated,
            )

    async def get(self, game_id: int) -> GameRecord:
        """A game by id; :class:`NotFound` if there is none."""
        async with self._db.read() as connection:
            return await fetch_game(connection, game_id)

    async def active_in_channel(self, channel_id: int) -> GameRecord | None:
        """The active game of a channel or thread, if any."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                GAME_SELECT + "WHERE g.status = 'active' AND (g.channel_id = ? OR g.id IN"
                " (SELECT game_id FROM game_venues WHERE channel_id = ? AND active = 1))",
                (channel_id, channel_id),
            )
        return None if row is None else game_from_row(row)

    async def last_finished_in_channel(self, channel_id: int) -> int | None:
        """The id of the channel's most recently ended game with a result (for rematch/replay)."""
        async with self._db.read() as connection:
            game_id = await connection.fetch_value(
                "SELECT id FROM games WHERE status = 'finished' AND (channel_id = ? OR id IN"
                " (SELECT game_id FROM game_venues WHERE channel_id = ?))"
                " ORDER BY ended_at DESC, id DESC LIMIT 1",
                (channel_id, channel_id),
            )
        return None if game_id is None else int(game_id)

    async def last_ended_in_channel(self, channel_id: int) -> int | None:
        """The id of the channel's most recently ended game, with a result or called off."""
        async with self._db.read() as connection:
            game_id = await connection.fetch_value(
                "SELECT id FROM games WHERE status IN ('finished', 'aborted') AND (channel_id = ?"
                " OR id IN (SELECT game_id FROM game_venues WHERE channel_id = ?))"
                " ORDER BY ended_at DESC, id DESC LIMIT 1",
                (channel_id, channel_id),
            )
        return None if game_id is None else int(game_id)

    async def active(self) -> list[GameRecord]:
        """Every active game of this process's servers (a game across servers, when one of its
        venues is), oldest first."""
        return await self._select(f"WHERE g.status = 'active' AND {self.served()} ORDER BY g.id")

    def served(self) -> str:
        """An SQL condition on ``games AS g``: the game is played in one of this process's
        servers (as a whole, or in one of its venues)."""
        return (
            f"({self._shards.where('g.guild_id')} OR EXISTS (SELECT 1 FROM game_venues AS v"
            f" WHERE v.game_id = g.id AND {self._shards.where('v.guild_id')}))"
        )

    async def venues(self, game_id: int) -> tuple[Venue, ...]:
        """Where each side plays a game across servers (nothing for a game in one channel)."""
        async with self._db.read() as connection:
            return await fetch_venues(connection, game_id)

    async def create_across(
        self,
        *,
        attackers: Participant,
        defenders: Participant,
        variant: str,
        move_seconds: int | None,
        rated: bool,
        places: dict[SideName, Place],
        pairing: Pairing | None = None,
    ) -> tuple[GameRecord, tuple[Venue, ...]]:
        """Start a game whose sides play in two servers, each at its place (the pair of
        seeks that asked for it, or a rematch of such a game). :class:`ChannelBusy` if a
        venue's channel has an active game (nothing is written then)."""
        home = places["attackers"]
        now = self._db.now()
        async with self._db.transaction() as connection:
            record = await insert_game(
                connection,
                now,
                guild_id=home.guild_id,
                channel_id=home.channel_id,
                variant=variant,
                attackers=attackers,
                defenders=defenders,
                start_position=None,
                first_turn=None,
                move_seconds=move_seconds,
                rated=rated,
            )
            sides: tuple[SideName, ...] = ("attackers", "defenders")
            for side in sides:
                await insert_venue(connection, record.id, side, places[side])
            if pairing is not None:
                await record_start(connection, pairing, record.id)
            return record, await fetch_venues(connection, record.id)

    async def lagging_venues(self, grace: int = 10) -> list[tuple[GameRecord, Venue]]:
        """The venues of this process's servers whose board shows an older position than
        their game, or has not shown how it ended, for longer than ``grace`` seconds (the
        process that changed the game stopped before it could post there)."""
        now = self._db.now()
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT v.* FROM game_venues AS v JOIN games AS g ON g.id = v.game_id WHERE"
                f" {self._shards.where('v.guild_id')} AND g.updated_at <= ?"
                " AND v.gone_at IS NULL AND ("
                " (g.status = 'active' AND (v.board_ply IS NULL OR v.board_ply <> g.ply))"
                " OR (g.status = 'finished' AND v.end_shown = 0))"
                " ORDER BY v.game_id, v.side",
                (now - grace,),
            )
            found = []
            for row in rows:
                venue = venue_from_row(row)
                found.append((await fetch_game(connection, venue.game_id), venue))
        return found

    async def set_venue_board(
        self, game_id: int, side: SideName, message_id: int, ply: int, *, end: bool = False
    ) -> None:
        """Remember the board message a venue shows now, at ``ply`` (and whether it is the
        game's final board)."""
        async with self._db.transaction() as connection:
            await connection.execute(
                "UPDATE game_venues SET board_message_id = ?, board_ply = ?,"
                " end_shown = CASE WHEN ? = 1 THEN 1 ELSE end_shown END"
                " WHERE game_id = ? AND side = ?",
                (message_id, ply, int(end), game_id, side),
            )

    async def adjourn(self, game_id: int, side: SideName, until: int) -> bool:
        """Mark a venue gone (its channel was deleted) and adjourn the game: its deadline
        becomes ``until``, when the player of that venue forfeits unless they continue it
        elsewhere first. ``False`` if the venue was already gone or the game is over (another
        process saw it first)."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE game_venues SET gone_at = ? WHERE game_id = ? AND side = ?"
                " AND gone_at IS NULL AND active = 1",
                (now, game_id, side),
            )
            if changed != 1:
                return False
            await connection.execute(
                "UPDATE games SET move_deadline = ?, reminder_sent = 1, updated_at = ?"
                " WHERE id = ? AND status = 'active'",
                (until, now, game_id),
            )
        return True

    async def venues_in_guild(self, guild_id: int) -> list[Venue]:
        """The venues of active games in a server, gone ones left out (to check after a channel
        of that server was deleted)."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT v.* FROM game_venues AS v JOIN games AS g ON g.id = v.game_id"
                " WHERE v.guild_id = ? AND v.active = 1 AND v.gone_at IS NULL"
                " AND g.status = 'active' ORDER BY v.game_id",
                (guild_id,),
            )
        return [venue_from_row(row) for row in rows]

    async def adjourned_for(self, user_id: int) -> tuple[GameRecord, Venue] | None:
        """The active game whose venue of this player's side is gone, if any."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                "SELECT v.* FROM game_venues AS v JOIN games AS g ON g.id = v.game_id"
                " JOIN players AS p ON p.id = CASE WHEN v.side = 'attackers'"
                " THEN g.attackers_id ELSE g.defenders_id END"
                " WHERE p.discord_user_id = ? AND v.gone_at IS NOT NULL"
                " AND g.status = 'active' ORDER BY v.gone_at LIMIT 1",
                (user_id,),
            )
            if row is None:
                return None
            venue = venue_from_row(row)
            return await fetch_game(connection, venue.game_id), venue

    async def resume_at(self, game_id: int, side: SideName, place: Place) -> tuple[Venue, ...]:
        """Move the gone venue of ``side`` to ``place`` and resume the game: the side to move
        gets a whole move's time again. :class:`ChannelBusy` if ``place`` has an active game;
        :class:`GameNotFound` if the game is over or that venue is not gone."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            gone = await connection.fetch_value(
                "SELECT v.gone_at FROM game_venues AS v JOIN games AS g ON g.id = v.game_id"
                " WHERE v.game_id = ? AND v.side = ? AND g.status = 'active'",
                (game_id, side),
            )
            if gone is None:
                raise NotFound(f"game {game_id} has no gone venue of the {side} to resume")
            await connection.execute(
                "UPDATE game_venues SET active = 0 WHERE game_id = ? AND side = ?",
                (game_id, side),
            )
            await check_free(connection, game_id, place.channel_id)
            await connection.execute(
                "UPDATE game_venues SET guild_id = ?, guild_name = ?, channel_id = ?, note = ?,"
                " board_message_id = NULL, board_ply = NULL, gone_at = NULL, active = 1"
                " WHERE game_id = ? AND side = ?",
                (place.guild_id, place.guild_name, place.channel_id, place.note, game_id, side),
            )
            await connection.execute(
                "UPDATE games SET move_deadline = CASE WHEN move_seconds IS NULL THEN NULL"
                " ELSE ? + move_seconds END, reminder_sent = 0, updated_at = ? WHERE id = ?",
                (now, now, game_id),
            )
            if side == "attackers":  # the game's own place is its attackers' venue
                await connection.execute(
                    "UPDATE games SET guild_id = ?, channel_id = ? WHERE id = ?",
                    (place.guild_id, place.channel_id, game_id),
                )
            return await fetch_venues(connection, game_id)

    async def claim_notice(self, game_id: int, ply: int) -> bool:
        """Whether the player to move at ``ply`` may be sent a direct message about it now:
        ``True`` once per ply (the first caller), ``False`` after."""
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE games SET notified_ply = ? WHERE id = ? AND status = 'active'"
                " AND ply = ? AND (notified_ply IS NULL OR notified_ply <> ?)",
                (ply, game_id, ply, ply),
            )
        return changed == 1

    async def finished(
        self, variant: str | None = None, *, after_id: int = 0, limit: int = 500
    ) -> list[GameRecord]:
        """Up to ``limit`` finished games with ids above ``after_id`` (of ``variant``, or every
        variant), in id order: pass the last id back to read them all a page at a time."""
        return await self._select(
            "WHERE g.status = 'finished' AND g.id > ?"
            " AND (CAST(? AS TEXT) IS NULL OR g.variant = ?) ORDER BY g.id LIMIT ?",
            (after_id, variant, variant, limit),
        )

    async def unreplayable(self) -> list[GameRecord]:
        """Games set aside because their moves no longer replay."""
        return await self._select("WHERE g.status = 'unreplayable' ORDER BY g.id")

    async def log(self, game_id: int) -> list[MoveRecord]:
        """The whole move log of a game, takebacks included, in the order written."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT seq, kind, ply, move, played_at FROM moves WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        records: list[MoveRecord] = []
        for row in rows:
            played_at = to_datetime(row["played_at"])
            assert played_at is not None  # NOT NULL column
            records.append(MoveRecord(row["seq"], row["kind"], row["ply"], row["move"], played_at))
        return records

    async def moves(self, game_id: int) -> list[str]:
        """The moves in effect (takebacks applied), first move first."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT kind, ply, move FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        return moves_in_effect((row[0], row[1], row[2]) for row in rows)

    async def append_move(
        self, game_id: int, expected_ply: int, move: str, *, mover: int | None = None
    ) -> AppendedMove:
        """Commit ``move`` as ply ``expected_ply + 1``; announce it only after this returns.

        Store the engine's canonical text (``Move.text(size)``, e.g. ``"e1-e4"``): it is what replay
        feeds back to ``Game.play``. :class:`PositionChanged` if the game is no longer at
        ``expected_ply`` (another submission won), :class:`GameNotActive` if it has ended. If the
        awaiting task is cancelled the move may or may not be committed: re-read the game.

        The move withdraws the open offers, except a draw offer that ``mover`` (a Discord user
        id) made on their own turn: as on lichess, it goes along with their move and stands, at
        the new ply, until the opponent answers it or moves.
        """
        now = self._db.now()
        async with self._db.transaction() as connection:
            row = await connection.fetch_one(
                """
                UPDATE games SET
                    ply = ply + 1, log_length = log_length + 1, updated_at = :now,
                    move_deadline = :now + move_seconds, reminder_sent = 0
                WHERE id = :id AND status = 'active' AND ply = :expected
                RETURNING log_length, ply, move_deadline
                """,
                {"now": now, "id": game_id, "expected": expected_ply},
            )
            if row is None:
                raise await explain_mismatch(connection, game_id, expected_ply)
            seq, ply, deadline = row[0], row[1], row[2]
            await connection.execute(
                "INSERT INTO moves (game_id, seq, kind, ply, move, played_at)"
                " VALUES (?, ?, 'move', ?, ?, ?)",
                (game_id, seq, ply, move, now),
            )
            if mover is not None:
                await connection.execute(
                    "UPDATE offers SET ply = ? WHERE game_id = ? AND kind = 'draw' AND ply = ?"
                    " AND user_id = ?",
                    (ply, game_id, expected_ply, mover),
                )
            await connection.execute(
                "DELETE FROM offers WHERE game_id = ? AND ply <> ?", (game_id, ply)
            )
        return AppendedMove(game_id, ply, to_datetime(deadline))

    async def take_back(
        self, game_id: int, expected_ply: int, plies: int = 1, *, accepting: bool = False
    ) -> AppendedMove:
        """Take back the last ``plies`` moves (2 undoes a move and its reply).

        Appends a takeback entry to the log; the moves taken back stay in the log as history and
        replay skips them. The move deadline restarts for the side now to move. ``accepting``
        settles the open takeback request made at ``expected_ply`` in the same transaction
        (:class:`OfferClosed` if there is none), so a request is never used up without its
        takeback, nor the other way round.
        """
        if plies < 1:
            raise ValueError(f"plies must be at least 1, not {plies}")
        now = self._db.now()
        async with self._db.transaction() as connection:
            if accepting:
                await _claim_offer(connection, game_id, "takeback", expected_ply)
            row = await connection.fetch_one(
                """
                UPDATE games SET
                    ply = ply - :plies, log_length = log_length + 1, updated_at = :now,
                    move_deadline = :now + move_seconds, reminder_sent = 0
                WHERE id = :id AND status = 'active' AND ply = :expected AND ply >= :plies
                RETURNING log_length, ply, move_deadline
                """,
                {"plies": plies, "now": now, "id": game_id, "expected": expected_ply},
            )
            if row is None:
                raise await explain_mismatch(connection, game_id, expected_ply)
            seq, ply, deadline = row[0], row[1], row[2]
            await connection.execute(
                "INSERT INTO moves (game_id, seq, kind, ply, move, played_at)"
                " VALUES (?, ?, 'takeback', ?, NULL, ?)",
                (game_id, seq, ply, now),
            )
            await _withdraw_offers(connection, game_id)
        return AppendedMove(game_id, ply, to_datetime(deadline))

    async def finish(
        self,
        game_id: int,
        result: GameResult | str,
        reason: GameEnding | str,
        *,
        expected_ply: int | None = None,
        accepting: OfferKind | None = None,
    ) -> FinishedGame:
        """End a game with a result; a rated game's ratings change in the same transaction.

        ``result`` is ``"attackers"``, ``"defenders"`` or ``"draw"`` (``Outcome.result_text``);
        ``reason`` the board's or the table's ending (:data:`~.models.GameEnding`, or its
        value). With
        ``expected_ply`` it fails with :class:`PositionChanged` if a move landed meanwhile (use it
        for resignations and timeouts so they cannot overtake a move).

        Every ending passes here, so this is where the rule lives that a game which ends before
        each side has moved once is not rated (:data:`~.models.PLIES_TO_COUNT`): its result is
        kept, its ``rated`` flag is cleared and :attr:`FinishedGame.ended_before_both_moved` says
        why.

        ``accepting="draw"`` settles the open draw offer made at ``expected_ply`` in the same
        transaction (:class:`OfferClosed` if there is none).
        """
        result = GameResult(result)
        reason = game_ending(reason)
        if (result is GameResult.DRAW) != reason.is_draw:
            raise ValueError(f"a game cannot end as {result.value!r} by {reason.value!r}")
        now = self._db.now()
        async with self._db.transaction() as connection:
            if accepting is not None:
                if expected_ply is None:
                    raise ValueError("accepting an offer needs the ply it was made at")
                await _claim_offer(connection, game_id, accepting, expected_ply)
            record = await self._end(
                connection,
                game_id,
                expected_ply,
                now,
                {
                    "status": GameStatus.FINISHED.value,
                    "result": result.value,
                    "reason": reason.value,
                },
            )
            too_short = record.rated and not record.both_sides_moved
            if too_short:
                record = await _clear_rated(connection, game_id)
            changes: tuple[RatingChange, ...] = ()
            if record.rated:
                ids = await connection.fetch_one(
                    "SELECT attackers_id, defenders_id FROM games WHERE id = ?", (game_id,)
                )
                assert ids is not None  # the game was just updated in this transaction
                changes = await rate_finished_game(
                    connection,
                    now,
                    game_id,
                    record.variant,
                    (ids[0], record.attackers),
                    (ids[1], record.defenders),
                    result,
                    self._fixed,
                )
        return FinishedGame(record, changes, ended_before_both_moved=too_short)

    async def abort(self, game_id: int, *, expected_ply: int | None = None) -> GameRecord:
        """End a game without a result (never rated, left out of statistics)."""
        async with self._db.transaction() as connection:
            record = await self._end(
                connection,
                game_id,
                expected_ply,
                self._db.now(),
                {"status": GameStatus.ABORTED.value, "result": None, "reason": None},
            )
            return await _clear_rated(connection, game_id) if record.rated else record

    async def set_board_message(
        self, game_id: int, message_id: int | None, ply: int | None = None
    ) -> None:
        """Remember the latest board message and the ply of the position it shows, so that it
        can be retired later: its buttons taken off, its words no longer addressed to anyone."""
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE games SET board_message_id = ?, board_ply = ? WHERE id = ?",
                (message_id, ply, game_id),
            )
            if changed == 0:
                raise NotFound(f"there is no game {game_id}")

    async def past_deadline(self, now: datetime | None = None) -> list[GameRecord]:
        """Active games whose side to move has run out of time (also those that ran out while the
        bot was offline), most overdue first."""
        moment = self._db.now() if now is None else int(now.timestamp())
        return await self._select(
            f"""
            WHERE g.status = 'active' AND g.move_deadline <= ?
              AND {self._shards.where("g.guild_id")}
            ORDER BY g.move_deadline
            """,
            (moment,),
        )

    async def due_for_reminder(self, within_seconds: int) -> list[GameRecord]:
        """Active games whose deadline is at most ``within_seconds`` away and not yet reminded."""
        return await self._select(
            f"""
            WHERE g.status = 'active' AND g.reminder_sent = 0 AND g.move_deadline <= ?
              AND {self._shards.where("g.guild_id")}
            ORDER BY g.move_deadline
            """,
            (self._db.now() + within_seconds,),
        )

    async def mark_reminder_sent(self, game_id: int, expected_ply: int) -> bool:
        """Record that the player to move at ``expected_ply`` was reminded.

        False if the game moved on meanwhile (the reminder is then moot; the flag resets per move).
        """
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE games SET reminder_sent = 1 WHERE id = ? AND ply = ? AND status = 'active'",
                (game_id, expected_ply),
            )
            return changed == 1

    async def mark_unreplayable(self, game_id: int, problem: str) -> None:
        """Set an active game aside because it no longer replays; it is kept, never deleted.

        The channel becomes free for a new game; :meth:`restore` undoes this once it replays again.
        """
        async with self._db.transaction() as connection:
            await connection.execute(
                """
                UPDATE games SET status = 'unreplayable', problem = ?, updated_at = ?,
                                 move_deadline = NULL
                WHERE id = ? AND status = 'active'
                """,
                (problem, self._db.now(), game_id),
            )
            await _withdraw_offers(connection, game_id)
            await close_venues(connection, game_id)

    async def restore(self, game_id: int) -> GameRecord:
        """Make an unreplayable game active again (an operator's tool, e.g. after an engine fix).

        :class:`ChannelBusy` if its channel has a new game meanwhile.
        """
        now = self._db.now()
        async with self._db.transaction() as connection:
            record = await fetch_game(connection, game_id)
            if record.status is not GameStatus.UNREPLAYABLE:
                raise GameNotActive(game_id, record.status.value)
            try:
                await connection.execute(
                    """
                    UPDATE games SET status = 'active', problem = NULL, updated_at = ?,
                                     move_deadline = ? + move_seconds, reminder_sent = 0
                    WHERE id = ?
                    """,
                    (now, now, game_id),
                )
                await connection.execute(
                    "UPDATE game_venues SET active = 1 WHERE game_id = ?", (game_id,)
                )
            except UniqueViolation as error:
                raise ChannelBusy(record.channel_id, None) from error
            return await fetch_game(connection, game_id)

    async def _select(self, where: str, parameters: tuple[Value, ...] = ()) -> list[GameRecord]:
        async with self._db.read() as connection:
            rows = await connection.fetch(GAME_SELECT + where, parameters)
        return [game_from_row(row) for row in rows]

    async def _end(
        self,
        connection: Connection,
        game_id: int,
        expected_ply: int | None,
        now: int,
        ending: dict[str, str | None],
    ) -> GameRecord:
        """Move an active game to a final status (inside the caller's transaction)."""
        changed = await connection.execute(
            """
            UPDATE games SET status = :status, result = :result, reason = :reason,
                             ended_at = :now, updated_at = :now, move_deadline = NULL
            WHERE id = :id AND status = 'active'
              AND (CAST(:expected AS BIGINT) IS NULL OR ply = :expected)
            """,
            {**ending, "now": now, "id": game_id, "expected": expected_ply},
        )
        if changed == 0:
            # With no expected ply, only "not found" or "not active" can explain it.
            raise await explain_mismatch(
                connection, game_id, -1 if expected_ply is None else expected_ply
            )
        await _withdraw_offers(connection, game_id)
        await close_venues(connection, game_id)
        return await fetch_game(connection, game_id)
