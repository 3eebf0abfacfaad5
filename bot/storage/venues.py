"""Where a game across two servers is played: a venue per side.

A game from the lobby is played by two people in two servers, each in a thread (or channel) of
their own server, each with the same board. A game in one channel has no venue rows: its channel
and board are the game's own columns. The one-game-per-channel rule holds across both: a channel
that is a venue of an active game takes no other game, and a channel with an active game becomes
no venue.
"""

from __future__ import annotations

from dataclasses import dataclass

from .database import Connection, Row
from .errors import ChannelBusy
from .models import SideName


@dataclass(frozen=True)
class Place:
    """Where a side of a new game across servers will play."""

    guild_id: int
    guild_name: str
    channel_id: int
    note: str | None = None
    """Why in the channel rather than a thread of its own, when it is."""


@dataclass(frozen=True)
class Venue:
    """One side's place of play in a game across servers."""

    game_id: int
    side: SideName
    """Whose venue it is: the player of this side sought from here."""
    guild_id: int
    guild_name: str
    """The server's name when the game began (the opponent's venue is named by it)."""
    channel_id: int
    note: str | None
    """Why the game is played in the channel rather than a thread, when it is."""
    board_message_id: int | None
    board_ply: int | None
    """The ply of the position the venue's board shows (``None`` before its first board)."""
    end_shown: bool
    """Whether the venue has shown the game's final board."""
    active: bool
    gone_at: int | None = None
    """When the venue's channel was found deleted (the game is adjourned meanwhile)."""


def venue_from_row(row: Row) -> Venue:
    """A :class:`Venue` from a ``game_venues`` row."""
    return Venue(
        game_id=int(row["game_id"]),
        side=row["side"],
        guild_id=int(row["guild_id"]),
        guild_name=str(row["guild_name"]),
        channel_id=int(row["channel_id"]),
        note=row["note"],
        board_message_id=row["board_message_id"],
        board_ply=row["board_ply"],
        end_shown=bool(row["end_shown"]),
        active=bool(row["active"]),
        gone_at=row["gone_at"],
    )


async def fetch_venues(connection: Connection, game_id: int) -> tuple[Venue, ...]:
    """A game's venues, the attackers' first (none for a game in one channel)."""
    rows = await connection.fetch(
        "SELECT * FROM game_venues WHERE game_id = ? ORDER BY side", (game_id,)
    )
    return tuple(venue_from_row(row) for row in rows)


async def busy_channel(connection: Connection, channel_id: int) -> int | None:
    """The active game played in ``channel_id`` as one of its venues, if any."""
    value = await connection.fetch_value(
        "SELECT game_id FROM game_venues WHERE channel_id = ? AND active = 1", (channel_id,)
    )
    return None if value is None else int(value)


async def check_free(connection: Connection, game_id: int, channel_id: int) -> None:
    """:class:`ChannelBusy` if ``channel_id`` has an active game other than ``game_id``, in a
    venue or on its own."""
    local = await connection.fetch_value(
        "SELECT id FROM games WHERE channel_id = ? AND status = 'active' AND id <> ?",
        (channel_id, game_id),
    )
    other = await busy_channel(connection, channel_id)
    if local is not None or other is not None:
        raise ChannelBusy(channel_id, int(local if local is not None else other or 0))


async def insert_venue(connection: Connection, game_id: int, side: SideName, place: Place) -> None:
    """Add a venue to a new game (the caller's transaction); :class:`ChannelBusy` if the channel
    already has an active game, in a venue or on its own."""
    channel_id = place.channel_id
    await check_free(connection, game_id, channel_id)
    await connection.execute(
        "INSERT INTO game_venues (game_id, side, guild_id, guild_name, channel_id, note)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, side, place.guild_id, place.guild_name, channel_id, place.note),
    )


async def close_venues(connection: Connection, game_id: int) -> None:
    """The game has ended (or was set aside): its venues take other games again."""
    await connection.execute("UPDATE game_venues SET active = 0 WHERE game_id = ?", (game_id,))
