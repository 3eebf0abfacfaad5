"""What the clocks make due: forfeits on time, reminders before a deadline, challenges that
expire, the lobby's housekeeping. All measured from the database, so they survive restarts
(deadlines that passed while the bot was offline are settled at once).

Nothing here talks to Discord or keeps time by itself: the timers cog ticks, asks what is due,
and posts it.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime

from bot.storage import Challenge, GameStore
from bot.storage.lobby import LobbyStore, Pairing

from .challenges import ChallengeService
from .games import Ended, GameHub, LiveGame

REMINDER_HORIZON = 3600
"""The longest a reminder comes before a deadline (seconds)."""
LOBBY_EVERY = 10.0
"""Seconds between the lobby's housekeeping rounds (each process; they take turns)."""


def reminder_due(move_seconds: int, remaining: float) -> bool:
    """Remind when a quarter of the move time (at most an hour) is left."""
    return remaining <= max(5, min(move_seconds // 4, REMINDER_HORIZON))


@dataclass(frozen=True)
class Reminder:
    """The player to move is running out of time."""

    live: LiveGame
    channel_id: int
    """Where they play (a game across servers: their own venue)."""
    guild_id: int | None
    """The venue's server, for a game across servers (another process may serve it)."""
    deadline: datetime


class Clocks:
    """Tells the timers what is due."""

    def __init__(
        self,
        games: GameStore,
        lobby: LobbyStore,
        hub: GameHub,
        challenges: ChallengeService,
        *,
        now: Callable[[], float] = time.time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``now`` is the wall clock deadlines are compared with (seconds since the epoch, as
        the database keeps them); ``clock`` paces the lobby's rounds."""
        self._games = games
        self._lobby = lobby
        self._hub = hub
        self._challenges = challenges
        self._now = now
        self._clock = clock
        self._lobby_due = 0.0

    async def forfeits(self) -> AsyncIterator[Ended]:
        """Games whose player to move ran out of time, each lost on time as it is yielded (a
        consumer that stops leaves the rest for the next tick)."""
        for record in await self._games.past_deadline():
            live = self._hub.by_id(record.id)
            if live is None:
                continue
            ended = await self._hub.forfeit_on_time(live, record.ply)
            if ended is not None:
                yield ended

    async def reminders(self) -> AsyncIterator[Reminder]:
        """Players to remind, once per move, when a quarter of their move time (at most an
        hour) is left; each is marked reminded as it is yielded."""
        for record in await self._games.due_for_reminder(REMINDER_HORIZON):
            if record.move_deadline is None or record.move_seconds is None:
                continue
            remaining = record.move_deadline.timestamp() - self._now()
            if not reminder_due(record.move_seconds, remaining):
                continue
            live = self._hub.by_id(record.id)
            if live is None:
                continue
            await self._hub.catch_up(live)
            if live.to_move.is_ai or live.game.ply != record.ply:
                continue
            if not await self._games.mark_reminder_sent(record.id, record.ply):
                continue
            venue = live.venue(live.game.turn)
            if venue is None:
                yield Reminder(live, record.channel_id, None, record.move_deadline)
            else:
                yield Reminder(live, venue.channel_id, venue.guild_id, record.move_deadline)

    async def expired_challenges(self) -> list[Challenge]:
        """Challenges past their expiry, now closed, whose messages must lose their buttons."""
        return await self._challenges.expire_due()

    async def lobby_pairs(self) -> list[Pairing]:
        """Every :data:`LOBBY_EVERY` seconds (else nothing): the lobby's housekeeping (expired
        seeks, pairs made as reaches widen, pairs whose game never came); its new pairs, whose
        games are to begin."""
        now = self._clock()
        if now < self._lobby_due:
            return []
        self._lobby_due = now + LOBBY_EVERY
        pairs, _ = await self._lobby.sweep()
        return pairs
