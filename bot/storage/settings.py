"""Per-server settings. A server that never changed anything has no row and gets the defaults."""

from __future__ import annotations

from dataclasses import replace

from .database import Connection, Database
from .models import ServerSettings


async def fetch_settings(connection: Connection, guild_id: int | None) -> ServerSettings:
    """The settings of ``guild_id`` inside the caller's transaction (defaults for DMs, ``None``)."""
    if guild_id is None:
        return ServerSettings(guild_id=0)
    rows = list(
        await connection.fetch(
            "SELECT rated_ai_games, game_threads, default_move_seconds, lobby, lobby_channels,"
            " lobby_variants, lobby_times, tournament_role, language FROM guild_settings"
            " WHERE guild_id = ?",
            (guild_id,),
        )
    )
    if not rows:
        return ServerSettings(guild_id=guild_id)
    row = rows[0]
    return ServerSettings(
        guild_id=guild_id,
        rated_ai_games=bool(row["rated_ai_games"]),
        game_threads=bool(row["game_threads"]),
        default_move_seconds=row["default_move_seconds"],
        lobby=bool(row["lobby"]),
        lobby_channels=frozenset(int(part) for part in _parts(row["lobby_channels"])),
        lobby_variants=frozenset(_parts(row["lobby_variants"])),
        lobby_times=frozenset(int(part) for part in _parts(row["lobby_times"])),
        tournament_role=row["tournament_role"],
        language=row["language"],
    )


def _parts(text: str | None) -> list[str]:
    """A comma-separated list column (empty or ``NULL``: nothing)."""
    return [part for part in (text or "").split(",") if part]


def _joined(values: frozenset[int] | frozenset[str]) -> str | None:
    return ",".join(str(value) for value in sorted(values)) or None


class SettingsStore:
    """Reads and changes per-server settings."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int) -> ServerSettings:
        """The settings of a server."""
        async with self._db.read() as connection:
            return await fetch_settings(connection, guild_id)

    async def save(self, settings: ServerSettings) -> ServerSettings:
        """Store every setting of ``settings.guild_id``; they apply to games created from now."""
        if settings.default_move_seconds is not None and settings.default_move_seconds <= 0:
            raise ValueError("default_move_seconds must be positive or None")
        async with self._db.transaction() as connection:
            await connection.execute(
                """
                INSERT INTO guild_settings
                    (guild_id, rated_ai_games, game_threads, default_move_seconds, lobby,
                     lobby_channels, lobby_variants, lobby_times, tournament_role, language,
                     updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (guild_id) DO UPDATE SET
                    rated_ai_games = excluded.rated_ai_games,
                    game_threads = excluded.game_threads,
                    default_move_seconds = excluded.default_move_seconds,
                    lobby = excluded.lobby,
                    lobby_channels = excluded.lobby_channels,
                    lobby_variants = excluded.lobby_variants,
                    lobby_times = excluded.lobby_times,
                    tournament_role = excluded.tournament_role,
                    language = excluded.language,
                    updated_at = excluded.updated_at
                """,
                (
                    settings.guild_id,
                    int(settings.rated_ai_games),
                    int(settings.game_threads),
                    settings.default_move_seconds,
                    int(settings.lobby),
                    _joined(settings.lobby_channels),
                    _joined(settings.lobby_variants),
                    _joined(settings.lobby_times),
                    settings.tournament_role,
                    settings.language,
                    self._db.now(),
                ),
            )
            return await fetch_settings(connection, settings.guild_id)

    async def set_language(self, guild_id: int, language: str | None) -> ServerSettings:
        """Set the locale a server's channels read the bot in (``None``: the server's own)."""
        return await self.save(replace(await self.get(guild_id), language=language))

    async def set_rated_ai_games(self, guild_id: int, enabled: bool) -> ServerSettings:
        """Turn rating of games against the AI on or off for games *created* from now on."""
        return await self.save(replace(await self.get(guild_id), rated_ai_games=enabled))
