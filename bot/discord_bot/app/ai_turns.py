"""The AI's turns in games: one search at a time per game, in the AI's worker processes (the
event loop stays free), retried when it fails, and played only while the game waits for it.

What comes of a turn is an :class:`AIReply` of plain data, handed to the caller's ``show``
(which words and posts it) inside the same background task: a shutdown cancels both, and an
interaction that stops waiting does not cut the turn short.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from bot.ai import AIError, AIService, AIStopped, level_named
from bot.engine import Side
from bot.storage import StorageError

from .errors import Refusal, Refused
from .games import GameHub, GameState, LiveGame, Played, ResultNotRecorded, ResultUnsaved

log = logging.getLogger(__name__)

AI_RETRY_SECONDS = 2.0
"""The wait before the first retry of a failed search (it grows with each attempt)."""


def ai_attempts(level: str) -> tuple[str, ...]:
    """The levels tried in turn when the AI fails to answer: twice as asked, then easy."""
    return (level, level, "easy")


@dataclass(frozen=True)
class AIReply:
    """What came of the AI's turn: its move (``played``), or why there is none while the game
    is still on (``failed``: a problem on our side, logged; ``refused``: its move ended the
    game but the result could not be stored), with the game as it stands
    (``game``, ``None`` once it is no longer played here). Nothing at all: the game ended or
    moved on while the AI thought."""

    played: Played | None = None
    failed: bool = False
    refused: ResultUnsaved | None = None
    game: GameState | None = None


@dataclass(frozen=True)
class AIThinking(Refusal):
    """A board (or, with ``takeback``, a takeback) asked for while the AI thinks: it must
    wait for the AI's move."""

    takeback: bool = False


Show = Callable[[AIReply], Awaitable[None]]
Spawn = Callable[[Coroutine[object, object, None], str], "asyncio.Task[None]"]
Typing = Callable[[], AbstractAsyncContextManager[None]]


class AITurns:
    """The AI's turns: which levels to try, when to give up, what happens when the game moved
    on meanwhile. ``spawn`` runs a turn as the process's background task (so a shutdown
    cancels it); ``until_serving`` waits while this process may not answer for its servers
    (``False``: it stops, or lost them, meanwhile)."""

    def __init__(
        self,
        games: GameHub,
        ai: AIService,
        *,
        spawn: Spawn,
        until_serving: Callable[[], Awaitable[bool]],
        retry_seconds: float = AI_RETRY_SECONDS,
    ) -> None:
        self._games = games
        self._ai = ai
        self._spawn = spawn
        self._until_serving = until_serving
        self._retry_seconds = retry_seconds
        self._thinking: dict[int, asyncio.Task[None]] = {}
        """The AI's turn being thought about, by game id (at most one per game)."""

    def thinking(self, game_id: int) -> bool:
        """Whether the AI is working on a move in this game right now."""
        running = self._thinking.get(game_id)
        return running is not None and not running.done()

    def check_idle(self, game_id: int, *, takeback: bool = False) -> None:
        """Refused while the AI thinks in the game: the board it is asked for (or, with
        ``takeback``, the takeback) must wait for its move."""
        if self.thinking(game_id):
            raise Refused(AIThinking(takeback))

    def cancel(self, game_id: int) -> None:
        """Stop any search for the game (it has ended)."""
        self._ai.cancel(str(game_id))

    def schedule(self, game_id: int, show: Show, typing: Typing | None = None) -> None:
        """Let the AI move in the background (after a restart, or when a game starts with the
        AI to move and nobody is waiting on an interaction)."""
        self._spawn(self.reply(game_id, show, typing), f"ai-game-{game_id}")

    async def reply(self, game_id: int, show: Show, typing: Typing | None = None) -> None:
        """Let the AI move, then ``show`` what came of it; ``typing`` is shown in the game's
        channel while it thinks. Only one search runs per game: a second caller just waits
        for it (and shows nothing)."""
        running = self._thinking.get(game_id)
        if running is not None and not running.done():
            await asyncio.shield(running)
            return
        # Shielded so that cancelling the caller alone (an interaction) does not cut it.
        task = self._spawn(self._turn(game_id, show, typing), f"ai-game-{game_id}")
        self._thinking[game_id] = task
        task.add_done_callback(lambda _: self._forget(game_id, task))
        await asyncio.shield(task)

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._thinking.get(game_id) is task:
            del self._thinking[game_id]

    async def _turn(self, game_id: int, show: Show, typing: Typing | None) -> None:
        """Whatever goes wrong, the players are told (with the board as it is) and the log
        gets the traceback; the game stays as it was."""
        live = self._games.by_id(game_id)
        if live is None:  # it ended meanwhile: nothing to play, nothing to show but the words
            await show(AIReply())
            return
        try:
            async with typing() if typing is not None else contextlib.nullcontext():
                reply = await self._move(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the AI's turn in game %d failed", game_id)
            reply = AIReply(failed=True)
        finally:
            # Thinking is over once the move is played (or given up): from here on another
            # request may start a new search, while this one shows its move.
            task = asyncio.current_task()
            if task is not None:
                self._forget(game_id, task)
        if reply.failed or reply.refused is not None:
            still = self._games.by_id(game_id) is live
            reply = AIReply(
                failed=reply.failed,
                refused=reply.refused,
                game=await self._games.state(live) if still else None,
            )
        await show(reply)

    async def _move(self, live: LiveGame) -> AIReply:
        """The AI's move, played; or why there is none."""
        player = live.to_move
        assert player.ai_level is not None
        game = live.game
        ply = game.ply
        text = None
        # A failed search (a worker that died twice, no answer in time) is retried, last at the
        # easiest level, so a game against the AI never waits for a restart.
        for attempt, level in enumerate(ai_attempts(level_named(player.ai_level))):
            try:
                chosen = await self._ai.choose_move(
                    variant=live.record.variant,
                    start_position=live.record.start_position,
                    start_turn=Side(live.record.first_turn),
                    moves=[result.move.text(game.size) for result in game.history],
                    level=level,
                    game_key=str(live.id),
                )
                text = chosen.move
                break
            except AIStopped:
                # The bot is stopping: the move it answers shows without the AI's reply at
                # once, and the AI moves when the bot is back (its games resume at start-up).
                return AIReply()
            except asyncio.CancelledError:
                if self._games.by_id(live.id) is live:
                    raise  # the bot is shutting down, not the game ending
                return AIReply()
            except AIError as error:
                log.warning("AI failed in game %d, attempt %d: %s", live.id, attempt + 1, error)
                await asyncio.sleep(self._retry_seconds * (attempt + 1))
        if self._games.by_id(live.id) is not live or live.game.ply != ply:
            return AIReply()
        if text is None:
            log.error("the AI gave up in game %d", live.id)
            return AIReply(failed=True)
        # Played only by a process that still serves the game (with the database back, if it
        # was away); one that lost it leaves the move to the process serving it now.
        if not await self._until_serving():
            return AIReply()
        if self._games.by_id(live.id) is not live or live.game.ply != ply:
            return AIReply()
        try:
            played = await self._games.play(live.record.channel_id, player, text, expected_ply=ply)
        except ResultNotRecorded as error:
            return AIReply(refused=error.unsaved)
        except (Refused, StorageError) as error:
            if self._games.by_id(live.id) is not live or live.game.ply != ply:
                return AIReply()  # the game ended or moved on meanwhile: nothing went wrong
            log.error("the AI's move %s in game %d was refused: %s", text, live.id, error)
            return AIReply(failed=True)
        return AIReply(played=played)
