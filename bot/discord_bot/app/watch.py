"""The games watched on the web board: each game as a page shows it, whichever process serves
its channel, and the news that it changed, as soon as it changes.

A change made here (a move, an ending, an offer, a takeback: :class:`~.games.GameHub` tells
of each) wakes this process's watchers of that game at once and is signalled to the other
processes sharing the database (PostgreSQL's notifications; SQLite has no other process),
which catch up with the game if they track it and wake their own watchers. A watcher is woken,
never handed the news: it reads the game as it stands then, so that news arriving faster than
it reads are read once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, replace

from bot.storage import (
    DatabaseUnavailable,
    GameStatus,
    NotFound,
    PlayerPreferences,
    Storage,
    StorageError,
)

from .errors import Refusal, Refused
from .games import GameHub, GameState, Offer

log = logging.getLogger(__name__)

WAKE_DELAY = 0.025
"""Seconds between a change made here and its pages' waking (see :meth:`GameWatch.changed`)."""
WEB = "web"
"""The topic of the signals that say a game changed (its id as the payload)."""


@dataclass(frozen=True)
class UnknownGame(Refusal):
    """A link to a game that does not exist (any more)."""


@dataclass(frozen=True)
class Shown:
    """A game as a page shows it: the game, its open offers, and the viewer's board options
    (``None``: a spectator's link for anyone)."""

    game: GameState
    draw_offer: Offer | None
    takeback_offer: Offer | None
    preferences: PlayerPreferences | None


class Watcher:
    """One page watching one game: :meth:`wait` returns at once, then after every change
    (several changes between two reads count once)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self._dirty = asyncio.Event()
        self._dirty.set()

    def wake(self) -> None:
        """The game changed: the next read shows it."""
        self._dirty.set()

    async def wait(self, seconds: float) -> bool:
        """Whether the game is to be read (again) within ``seconds``: at once the first time,
        then after each change."""
        try:
            async with asyncio.timeout(seconds):
                await self._dirty.wait()
        except TimeoutError:
            return False
        self._dirty.clear()
        return True


class GameWatch:
    """The web board's service: games read for their pages, watchers woken on changes."""

    def __init__(
        self,
        hub: GameHub,
        storage: Storage,
        *,
        spawn: Callable[[Coroutine[object, None, None], str], object] | None = None,
    ) -> None:
        """``spawn`` runs a background task (the bot's, which logs its failures); by default
        one kept here."""
        self.hub = hub
        self.storage = storage
        self._watchers: dict[int, set[Watcher]] = {}
        self._spawn = spawn
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed = False
        """Set when the process stops: every page's stream ends (its page reconnects)."""
        self._versions: dict[int, int] = {}
        """How many times each watched game changed (what a page has read is keyed by it)."""
        self._loaded: dict[int, tuple[int, Shown]] = {}
        """Games read from the database (not played here), as read at their version: however
        many pages watch one, it is read once per change."""

    def close(self) -> None:
        """End every watch: the process is stopping."""
        self.closed = True
        for watchers in self._watchers.values():
            for watcher in watchers:
                watcher.wake()

    # ------------------------------------------------------------------ watching

    @contextlib.contextmanager
    def watching(self, game_id: int) -> Iterator[Watcher]:
        """A watcher of ``game_id`` for the time of the block."""
        watcher = Watcher(game_id)
        if self.closed:
            watcher.wake()
        self._watchers.setdefault(game_id, set()).add(watcher)
        try:
            yield watcher
        finally:
            watchers = self._watchers.get(game_id)
            if watchers is not None:
                watchers.discard(watcher)
                if not watchers:
                    del self._watchers[game_id]
                    self._loaded.pop(game_id, None)

    def watchers(self) -> int:
        """How many pages watch a game in this process (each stream counted)."""
        return sum(len(watchers) for watchers in self._watchers.values())

    def changed(self, game_id: int) -> None:
        """This process changed a game (the hub's ``on_change``): wake its watchers here and
        tell the other processes.

        The watchers here are woken a moment later (:data:`WAKE_DELAY`): the change is being
        announced in Discord right now (the move's board, its answer due within Discord's
        3 seconds), and hundreds of pages served first would keep it waiting."""
        if game_id in self._watchers:
            asyncio.get_running_loop().call_later(WAKE_DELAY, self._wake, game_id)
        else:
            self._versions[game_id] = self.version(game_id) + 1
        self._run(self._signal(game_id), f"web-signal-{game_id}")

    async def _signal(self, game_id: int) -> None:
        # A courtesy: a page that missed it reads the game again when it reconnects.
        with contextlib.suppress(DatabaseUnavailable):
            await self.storage.db.signal(WEB, str(game_id))

    def heard(self, payload: str | None) -> None:
        """Another process changed a game (``None``: perhaps several, signals were missed):
        catch up with it if this process tracks it, then wake its watchers here."""
        if payload is None:
            games = list(self._watchers)
        elif payload.isdigit():
            games = [int(payload)]
        else:
            return
        for game_id in games:
            self._run(self._catch_up(game_id), f"web-catch-up-{game_id}")

    async def _catch_up(self, game_id: int) -> None:
        if self.hub.by_id(game_id) is not None:
            try:
                await self.hub.refresh(game_id)
            except StorageError as error:
                log.info("could not catch up with game %d: %s", game_id, error)
        self._wake(game_id)

    def version(self, game_id: int) -> int:
        """A number that changes with every change of the game heard of here."""
        return self._versions.get(game_id, 0)

    def _wake(self, game_id: int) -> None:
        self._versions[game_id] = self.version(game_id) + 1
        for watcher in self._watchers.get(game_id, ()):
            watcher.wake()

    def _run(self, coroutine: Coroutine[object, None, None], name: str) -> None:
        if self._spawn is not None:
            self._spawn(coroutine, name)
            return
        task = asyncio.create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ reading

    async def show(self, game_id: int, viewer: int) -> Shown:
        """The game as ``viewer``'s page shows it (``0``: anyone's): as this process plays it,
        or as the database has it (a game another process serves, or one that has ended)."""
        live = self.hub.by_id(game_id)
        preferences = None
        if viewer:
            with contextlib.suppress(StorageError):  # the default look will do
                preferences = await self.storage.preferences.get(viewer)
        if live is not None:
            state = await self._with_event(self.hub.peek(live))
            return Shown(state, live.draw_offer, live.takeback_offer, preferences)
        version = self.version(game_id)
        known = self._loaded.get(game_id)
        if known is not None and known[0] == version:
            return replace(known[1], preferences=preferences)
        try:
            loaded = await self.storage.load_game(game_id)
        except NotFound:
            raise Refused(UnknownGame()) from None
        venues = await self.storage.games.venues(game_id)
        draw = takeback = None
        for stored in await self.storage.offers.of_game(game_id):
            offer = Offer(stored.kind, stored.user_id, stored.ply, stored.message_id)
            if stored.kind == "draw":
                draw = offer
            else:
                takeback = offer
        state = GameState(game_id, loaded.record, loaded.game, venues, web=self.hub.web)
        state = await self._with_event(state)
        shown = Shown(state, draw, takeback, None)
        if game_id in self._watchers:
            self._loaded[game_id] = (version, shown)
        return replace(shown, preferences=preferences)

    async def _with_event(self, state: GameState) -> GameState:
        """``state`` saying whether it was a tournament's game, once it is over (its page then
        offers no rematch: the event pairs the next game)."""
        if state.record.status is GameStatus.ACTIVE:
            return state
        try:
            found = await self.storage.tournaments.of_game(state.id)
        except StorageError:
            return state
        return replace(state, in_event=found is not None)

    async def game_in(self, channel_id: int) -> GameState | None:
        """The active game of a channel (the Activity's sign-in), whichever process plays it
        (``None``: none)."""
        live = self.hub.get(channel_id)
        if live is not None:
            return self.hub.peek(live)
        record = await self.storage.games.active_in_channel(channel_id)
        if record is None:
            return None
        return (await self.show(record.id, 0)).game
