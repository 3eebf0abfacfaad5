"""Per-player preferences. A person who never changed anything has no row and gets the defaults.

A theme is stored as the plain name the player chose; which names exist is the renderer's
business, checked where the player picks one (and a name it no longer knows is drawn in its
default theme).
"""

from __future__ import annotations

from .database import Database
from .models import Participant, PlayerPreferences
from .players import player_id


class PreferencesStore:
    """Reads and changes one person's preferences."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user_id: int) -> PlayerPreferences:
        """The preferences of the Discord user ``user_id``."""
        async with self._db.read() as connection:
            rows = list(
                await connection.fetch(
                    """
                    SELECT pp.theme, pp.flip, pp.notify FROM player_preferences AS pp
                    JOIN players AS p ON p.id = pp.player_id
                    WHERE p.discord_user_id = ?
                    """,
                    (user_id,),
                )
            )
        if not rows:
            return PlayerPreferences(user_id)
        row = rows[0]
        return PlayerPreferences(
            user_id, theme=row["theme"], flip=bool(row["flip"]), notify=bool(row["notify"])
        )

    async def save(
        self, preferences: PlayerPreferences, display_name: str | None = None
    ) -> PlayerPreferences:
        """Store every preference of ``preferences.user_id`` (a theme must be named)."""
        if preferences.theme is None:
            raise ValueError("preferences are stored with the name of a theme")
        now = self._db.now()
        async with self._db.transaction() as connection:
            player = await player_id(
                connection, Participant.user(preferences.user_id, display_name), now
            )
            await connection.execute(
                """
                INSERT INTO player_preferences (player_id, theme, flip, notify, updated_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (player_id) DO UPDATE SET
                    theme = excluded.theme, flip = excluded.flip, notify = excluded.notify,
                    updated_at = excluded.updated_at
                """,
                (player, preferences.theme, int(preferences.flip), int(preferences.notify), now),
            )
        return await self.get(preferences.user_id)

    async def locale(self, user_id: int) -> str | None:
        """The Discord locale ``user_id``'s client last reported (``None``: never seen)."""
        async with self._db.read() as connection:
            value = await connection.fetch_value(
                "SELECT locale FROM players WHERE discord_user_id = ?", (user_id,)
            )
        return None if value is None else str(value)

    async def note_locale(self, user_id: int, locale: str, display_name: str | None = None) -> bool:
        """Keep ``locale`` as the one ``user_id`` last used; ``True`` if it changed (the row is
        written only then)."""
        if not 2 <= len(locale) <= 16:
            raise ValueError(f"not a locale: {locale!r}")
        async with self._db.transaction() as connection:
            # One statement: a new player's row is made with it; a known player's is written
            # only when the locale changed (no write, no new row version, otherwise).
            changed = await connection.fetch_value(
                """
                INSERT INTO players (discord_user_id, display_name, locale, created_at)
                VALUES (?, ?, ?, ?)
                ON CONFLICT (discord_user_id) DO UPDATE SET locale = excluded.locale
                WHERE players.locale IS NULL OR players.locale <> excluded.locale
                RETURNING id
                """,
                (user_id, display_name, locale, self._db.now()),
            )
        return changed is not None
