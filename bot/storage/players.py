"""The players table: turning a :class:`Participant` into a row id and back."""

from __future__ import annotations

from collections.abc import Sequence

from .database import Connection, Row, whole
from .models import Participant


def _lock_order(participant: Participant) -> tuple[bool, int]:
    return (participant.user_id is None, participant.user_id or participant.ai_level or 0)


async def player_ids(
    connection: Connection, participants: Sequence[Participant], now: int
) -> list[int]:
    """The row ids of ``participants``, in their order, created on first sight.

    The rows are written (so locked, on PostgreSQL) in one fixed order whatever the order asked,
    so two transactions creating games between the same people cannot deadlock.
    """
    ids: dict[tuple[bool, int], int] = {}
    for participant in sorted(participants, key=_lock_order):
        key = _lock_order(participant)
        if key not in ids:
            ids[key] = await player_id(connection, participant, now)
    return [ids[_lock_order(participant)] for participant in participants]


async def player_id(connection: Connection, participant: Participant, now: int) -> int:
    """The row id of ``participant``, created on first sight (inside the caller's transaction).

    A known display name is refreshed so leaderboards can name people the bot no longer sees.
    """
    if participant.user_id is not None:
        value = await connection.fetch_value(
            """
            INSERT INTO players (discord_user_id, display_name, created_at) VALUES (?, ?, ?)
            ON CONFLICT (discord_user_id) DO UPDATE
                SET display_name = coalesce(excluded.display_name, players.display_name)
            RETURNING id
            """,
            (participant.user_id, participant.display_name, now),
        )
    else:
        # Nothing to refresh for the AI: DO NOTHING leaves its row unlocked, so games against it
        # never wait for each other here.
        value = await connection.fetch_value(
            """
            INSERT INTO players (ai_level, created_at) VALUES (?, ?)
            ON CONFLICT (ai_level) DO NOTHING
            RETURNING id
            """,
            (participant.ai_level, now),
        )
        if value is None:
            value = await connection.fetch_value(
                "SELECT id FROM players WHERE ai_level = ?", (participant.ai_level,)
            )
    return whole(value)


def participant_from_row(row: Row, prefix: str) -> Participant:
    """Read a participant from columns ``<prefix>user``, ``<prefix>ai`` and ``<prefix>name``."""
    return Participant(
        user_id=row[prefix + "user"], ai_level=row[prefix + "ai"], display_name=row[prefix + "name"]
    )


def participant_columns(table_alias: str, prefix: str) -> str:
    """The SELECT list that :func:`participant_from_row` reads, for a joined players table."""
    return (
        f"{table_alias}.discord_user_id AS {prefix}user, {table_alias}.ai_level AS {prefix}ai, "
        f"{table_alias}.display_name AS {prefix}name"
    )
