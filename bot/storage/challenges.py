"""Challenges: pending invitations that become games, or are declined, cancelled or expire.

Only a pending challenge can change, and every change checks that in the same statement, so a
challenge accepted twice (two clicks, two people on an open challenge) makes exactly one game.
"""

from __future__ import annotations

import random

from .database import Connection, Database, Row, Value, whole
from .errors import ChallengeClosed, NotAllowed, NotFound
from .games import insert_game
from .models import (
    Challenge,
    ChallengeStatus,
    GameRecord,
    Participant,
    SideChoice,
    SideName,
    to_datetime,
)
from .players import participant_columns, participant_from_row, player_ids
from .shards import Shards

DEFAULT_EXPIRY_SECONDS = 15 * 60
"""How long a challenge stays open unless the caller says otherwise."""
QUICK_CANCEL_SECONDS = 60
"""A challenge cancelled this soon after it was made was a slip being corrected."""

_COUNTS_FOR_COOLDOWN = """
c.status <> 'declined'
AND NOT (c.status = 'cancelled' AND c.resolved_at - c.created_at <= ?)
"""
"""The challenges a cooldown counts (its parameter: :data:`QUICK_CANCEL_SECONDS`): not one the
person challenged declined (they answered; the challenger may ask someone else at once), nor
one its challenger cancelled that soon (a wrong option being corrected, however many times)."""

_SELECT = f"""
SELECT c.*, {participant_columns("a", "a_")}, {participant_columns("b", "b_")}
FROM challenges AS c
JOIN players AS a ON a.id = c.challenger_id
LEFT JOIN players AS b ON b.id = c.challenged_id
"""


def _challenge_from_row(row: Row) -> Challenge:
    created_at = to_datetime(row["created_at"])
    expires_at = to_datetime(row["expires_at"])
    assert created_at is not None and expires_at is not None  # NOT NULL columns
    challenged = None if row["challenged_id"] is None else participant_from_row(row, "b_")
    return Challenge(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger=participant_from_row(row, "a_"),
        challenged=challenged,
        variant=row["variant"],
        challenger_side=row["challenger_side"],
        move_seconds=row["move_seconds"],
        rated=bool(row["rated"]),
        status=ChallengeStatus(row["status"]),
        message_id=row["message_id"],
        game_id=row["game_id"],
        created_at=created_at,
        expires_at=expires_at,
        resolved_at=to_datetime(row["resolved_at"]),
    )


async def _fetch(connection: Connection, challenge_id: int) -> Challenge:
    row = await connection.fetch_one(_SELECT + "WHERE c.id = ?", (challenge_id,))
    if row is None:
        raise NotFound(f"there is no challenge {challenge_id}")
    return _challenge_from_row(row)


class ChallengeStore:
    """Creates challenges and settles them."""

    def __init__(self, db: Database, shards: Shards | None = None) -> None:
        self._db = db
        self._shards = shards or Shards.every()

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger: Participant,
        challenged: Participant | None,
        variant: str,
        challenger_side: SideChoice = "random",
        move_seconds: int | None = None,
        rated: bool = True,
        expires_in: int = DEFAULT_EXPIRY_SECONDS,
    ) -> Challenge:
        """Invite ``challenged`` (or, with ``None``, anyone in the channel) to a game."""
        if challenger.is_ai or (challenged is not None and challenged.is_ai):
            raise ValueError("challenges are between people; create a game against the AI directly")
        if challenged == challenger:
            raise NotAllowed("you cannot challenge yourself")
        if challenger_side not in ("attackers", "defenders", "random"):
            raise ValueError(
                f"challenger_side must be attackers, defenders or random, not {challenger_side!r}"
            )
        if move_seconds is not None and move_seconds <= 0:
            raise ValueError(f"move_seconds must be positive, not {move_seconds}")
        now = self._db.now()
        async with self._db.transaction() as connection:
            # Both rows in one fixed order: two people challenging each other at once must not
            # deadlock.
            people = (challenger,) if challenged is None else (challenger, challenged)
            ids = await player_ids(connection, people, now)
            challenger_id, challenged_id = ids[0], (ids[1] if len(ids) > 1 else None)
            new_id = await connection.fetch_value(
                """
                INSERT INTO challenges (guild_id, channel_id, challenger_id, challenged_id,
                                        variant, challenger_side, move_seconds, rated,
                                        created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
                (
                    guild_id,
                    channel_id,
                    challenger_id,
                    challenged_id,
                    variant,
                    challenger_side,
                    move_seconds,
                    int(rated),
                    now,
                    now + expires_in,
                ),
            )
            return await _fetch(connection, whole(new_id))

    async def get(self, challenge_id: int) -> Challenge:
        """A challenge by id; :class:`NotFound` if there is none."""
        async with self._db.read() as connection:
            return await _fetch(connection, challenge_id)

    async def pending(self, channel_id: int | None = None) -> list[Challenge]:
        """Pending challenges of one channel, or all of this process's servers (e.g. to
        re-attach buttons at start-up)."""
        where = f"WHERE c.status = 'pending' AND {self._shards.where('c.guild_id')}"
        parameters: tuple[Value, ...] = ()
        if channel_id is not None:
            where += " AND c.channel_id = ?"
            parameters = (channel_id,)
        async with self._db.read() as connection:
            rows = await connection.fetch(_SELECT + where + " ORDER BY c.id", parameters)
        return [_challenge_from_row(row) for row in rows]

    async def seconds_since_last(self, user_id: int) -> int | None:
        """Whole seconds since ``user_id`` last made a challenge that counts for a cooldown
        (``None`` if none), so that it can say how long is left.

        A challenge that was declined does not count, nor one its challenger cancelled within
        :data:`QUICK_CANCEL_SECONDS`: it was taken back to correct it (a wrong option), not sent
        to pester anyone.
        """
        async with self._db.read() as connection:
            created = await connection.fetch_value(
                f"""
                SELECT c.created_at FROM challenges AS c
                JOIN players AS p ON p.id = c.challenger_id
                WHERE p.discord_user_id = ? AND {_COUNTS_FOR_COOLDOWN}
                ORDER BY c.created_at DESC, c.id DESC LIMIT 1
                """,
                (user_id, QUICK_CANCEL_SECONDS),
            )
        return None if created is None else self._db.now() - int(created)

    async def made_to(self, user_id: int, challenged_id: int, window: int) -> list[int]:
        """How many seconds ago ``user_id`` challenged ``challenged_id``, newest first, over the
        last ``window`` seconds: every challenge but those accepted (a rematch too), however it
        ended, since each one notified the person challenged."""
        now = self._db.now()
        async with self._db.read() as connection:
            rows = await connection.fetch(
                """
                SELECT c.created_at FROM challenges AS c
                JOIN players AS a ON a.id = c.challenger_id
                JOIN players AS b ON b.id = c.challenged_id
                WHERE a.discord_user_id = ? AND b.discord_user_id = ? AND c.created_at > ?
                AND c.status <> 'accepted'
                ORDER BY c.created_at DESC, c.id DESC
                """,
                (user_id, challenged_id, now - window),
            )
        return [now - int(row["created_at"]) for row in rows]

    async def accept(
        self,
        challenge_id: int,
        accepter: Participant,
        *,
        challenger_side: SideName | None = None,
        start_position: str | None = None,
        first_turn: SideName | None = None,
        channel_id: int | None = None,
    ) -> tuple[Challenge, GameRecord]:
        """Accept a pending challenge, creating its game in the same transaction.

        ``challenger_side`` settles a ``"random"`` side choice (drawn here when not given).
        ``channel_id`` places the game elsewhere than the challenge (a thread opened for it).
        Raises :class:`ChallengeClosed` (already settled or expired), :class:`NotAllowed` (not
        the person challenged, or one's own challenge) or :class:`ChannelBusy` (the channel has a
        game now; the challenge stays pending).
        """
        now = self._db.now()
        async with self._db.transaction() as connection:
            challenge = await _fetch(connection, challenge_id)
            self._check_acceptable(challenge, accepter, now)
            # The players' rows first, in the one fixed order every transaction uses.
            accepter_id, _ = await player_ids(connection, (accepter, challenge.challenger), now)
            # Claim it first, with the condition in the statement: of two accepts racing (two
            # clicks, two people, two processes) the second waits for the first's row lock, then
            # finds it no longer pending and makes no game.
            claimed = await connection.execute(
                """
                UPDATE challenges SET status = 'accepted', resolved_at = ?, challenged_id = ?
                WHERE id = ? AND status = 'pending' AND expires_at > ?
                """,
                (now, accepter_id, challenge_id, now),
            )
            if claimed == 0:
                self._check_open(await _fetch(connection, challenge_id), now)
                raise ChallengeClosed(challenge_id, ChallengeStatus.EXPIRED.value)
            side: SideName
            if challenge.challenger_side != "random":
                side = challenge.challenger_side
            elif challenger_side is not None:
                side = challenger_side
            else:
                side = random.choice(("attackers", "defenders"))
            challenger = challenge.challenger
            attackers, defenders = (
                (challenger, accepter) if side == "attackers" else (accepter, challenger)
            )
            # A busy channel raises here and rolls the claim back: the challenge stays pending.
            game = await insert_game(
                connection,
                now,
                guild_id=challenge.guild_id,
                channel_id=challenge.channel_id if channel_id is None else channel_id,
                variant=challenge.variant,
                attackers=attackers,
                defenders=defenders,
                start_position=start_position,
                first_turn=first_turn,
                move_seconds=challenge.move_seconds,
                rated=challenge.rated,
            )
            await connection.execute(
                "UPDATE challenges SET game_id = ? WHERE id = ?", (game.id, challenge_id)
            )
            return await _fetch(connection, challenge_id), game

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The person challenged says no (an open challenge cannot be declined, only ignored)."""
        return await self._settle(challenge_id, user_id, ChallengeStatus.DECLINED)

    async def cancel(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge."""
        return await self._settle(challenge_id, user_id, ChallengeStatus.CANCELLED)

    async def expire_due(self) -> list[Challenge]:
        """Mark every pending challenge whose time is up as expired and return them (so their
        messages can be edited); includes those that expired while the bot was offline.

        Only the challenges of this process's servers (its shards): each is settled by the
        process that answers for its server, and once (the update is atomic).
        """
        now = self._db.now()
        owned = self._shards.where("guild_id")
        async with self._db.transaction() as connection:
            rows = await connection.fetch(
                f"""
                UPDATE challenges SET status = 'expired', resolved_at = ?
                WHERE status = 'pending' AND expires_at <= ? AND {owned}
                RETURNING id
                """,
                (now, now),
            )
            return [await _fetch(connection, row[0]) for row in rows]

    async def set_message(self, challenge_id: int, message_id: int | None) -> None:
        """Remember the message that shows the challenge (to disable its buttons later)."""
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )
            if changed == 0:
                raise NotFound(f"there is no challenge {challenge_id}")

    def check_acceptable(self, challenge: Challenge, accepter: Participant) -> None:
        """Raise what :meth:`accept` would (:class:`ChallengeClosed`, :class:`NotAllowed`) if
        ``accepter`` could not accept ``challenge`` now: a check before preparing its game."""
        self._check_acceptable(challenge, accepter, self._db.now())

    @classmethod
    def _check_acceptable(cls, challenge: Challenge, accepter: Participant, now: int) -> None:
        cls._check_open(challenge, now)
        if accepter.is_ai:
            raise ValueError("the AI does not accept challenges")
        if accepter == challenge.challenger:
            raise NotAllowed("you cannot accept your own challenge")
        if challenge.challenged is not None and accepter != challenge.challenged:
            raise NotAllowed("this challenge is for someone else")

    @staticmethod
    def _check_open(challenge: Challenge, now: int) -> None:
        if challenge.status is not ChallengeStatus.PENDING:
            raise ChallengeClosed(challenge.id, challenge.status.value)
        if challenge.expires_at.timestamp() <= now:
            raise ChallengeClosed(challenge.id, ChallengeStatus.EXPIRED.value)

    async def _settle(self, challenge_id: int, user_id: int, status: ChallengeStatus) -> Challenge:
        now = self._db.now()
        async with self._db.transaction() as connection:
            challenge = await _fetch(connection, challenge_id)
            self._check_open(challenge, now)
            if status is ChallengeStatus.CANCELLED:
                if challenge.challenger.user_id != user_id:
                    raise NotAllowed("only the challenger can cancel a challenge")
            elif challenge.challenged is None or challenge.challenged.user_id != user_id:
                raise NotAllowed("only the person challenged can decline a challenge")
            settled = await connection.execute(
                "UPDATE challenges SET status = ?, resolved_at = ?"
                " WHERE id = ? AND status = 'pending'",
                (status.value, now, challenge_id),
            )
            if settled == 0:  # settled meanwhile by another process
                self._check_open(await _fetch(connection, challenge_id), now)
            return await _fetch(connection, challenge_id)
