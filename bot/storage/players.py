"""The players table: turning a :class:`Participant` into a row id and back."""

from __future__ import annotations

import sqlite3

import aiosqlite

from .models import Participant


async def player_id(connection: aiosqlite.Connection, participant: Participant, now: int) -> int:
    """The row id of ``participant``, created on first sight (inside the caller's transaction).

    A known display name is refreshed so leaderboards can name people the bot no longer sees.
    """
    if participant.user_id is not None:
        rows = await connection.execute_fetchall(
            """
            INSERT INTO players (discord_user_id, display_name, created_at) VALUES (?, ?, ?)
            ON CONFLICT (discord_user_id) DO UPDATE
                SET display_name = coalesce(excluded.display_name, display_name)
            RETURNING id
            """,
            (participant.user_id, participant.display_name, now),
        )
    else:
        rows = await connection.execute_fetchall(
            """
            INSERT INTO players (ai_level, created_at) VALUES (?, ?)
            ON CONFLICT (ai_level) DO UPDATE SET ai_level = excluded.ai_level
            RETURNING id
            """,
            (participant.ai_level, now),
        )
    return int(next(iter(rows))[0])


def participant_from_row(row: sqlite3.Row, prefix: str) -> Participant:
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
