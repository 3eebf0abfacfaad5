"""``/tafl puzzle``: positions with one forced win, solved by moving, rated as lichess rates them.

A go is private (the board and the answers are ephemeral) and is played with the menus under its
board or with ``/tafl move``, which comes here (:meth:`Puzzles.move`) when the person is not
playing the channel's game. The sessions are :mod:`..app.puzzles`; the words and boards
:mod:`..compose.puzzles`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Side, get_variant
from bot.storage import PuzzleAttempt

from ..app.games import LiveGame
from ..app.players import Players
from ..app.puzzles import Judged, PuzzleSessions
from ..choices import VARIANT_CHOICES
from ..compose import puzzles as compose
from ..compose.board import BACK, BoardLook, chosen_square, look_of
from ..compose.puzzles import NextPuzzle, PuzzlePiece, PuzzleTarget
from ..table import Table, participant_of

log = logging.getLogger(__name__)

LiveGameOf = Callable[[int], Awaitable[LiveGame | None]]
"""The channel's game being played, if any (the playing feature's)."""
Spawn = Callable[[Coroutine[object, object, None], str], object]
"""Run a coroutine in the background, under a name (the bot's)."""


class Puzzles(commands.Cog):
    """Puzzles: a personal one near your puzzle rating, or the server's puzzle of the day."""

    def __init__(
        self,
        sessions: PuzzleSessions,
        players: Players,
        table: Table,
        *,
        live_game: LiveGameOf,
        spawn: Spawn,
    ) -> None:
        self.sessions = sessions
        self.players = players
        self.table = table
        self._live_game = live_game
        self._spawn = spawn
        table.on(PuzzlePiece, self.on_piece_chosen)
        table.on(PuzzleTarget, self.on_target_chosen)
        table.on(NextPuzzle, self.on_next)

    async def cog_load(self) -> None:
        """Add the shipped set to the database (puzzles stored before keep their ratings), in
        the background: the games are served meanwhile."""
        self._spawn(self.sessions.stock(), "puzzles-stock")

    @app_commands.command(name="puzzle", description="Solve a puzzle: one forced win to find")
    @app_commands.describe(
        variant="Which rules (any by default)",
        daily="Today's puzzle of this server, the same for everyone",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def puzzle(
        self, interaction: discord.Interaction, variant: str | None = None, daily: bool = False
    ) -> None:
        """Show the puzzle in progress (of ``variant``, if given), or start the next one, or
        the server's puzzle of the day; privately, with menus to move by clicking."""
        await self._show(interaction, variant and get_variant(variant).name, daily=daily)

    async def on_next(self, interaction: discord.Interaction, button: NextPuzzle) -> None:
        """Next puzzle / Another puzzle: a new puzzle of the same variant."""
        await self._show(interaction, button.variant, daily=False, fresh=True)

    async def _show(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        *,
        daily: bool,
        fresh: bool = False,
    ) -> None:
        session = await self.sessions.choose(
            participant_of(interaction.user), interaction.guild_id, variant,
            daily=daily, fresh=fresh,
        )  # fmt: skip
        look = await self._look(interaction, session.puzzle.to_move)
        live = await self._live_game(interaction.channel_id or 0)
        playing_here = live is not None and live.side_of(interaction.user.id) is not None
        # Private: in the language of the one who solves it (the daily puzzle too, which each
        # member is shown alone).
        shown = compose.shown(
            session, look, playing_here=playing_here, lang=self.table.reader(interaction)
        )
        await self.table.deliver(interaction, shown)

    async def move(
        self,
        interaction: discord.Interaction,
        attempt: PuzzleAttempt,
        text: str,
        *,
        in_place: bool = False,
    ) -> None:
        """Judge a move of a go (typed with ``/tafl move``, or clicked: ``in_place``, which
        updates the board clicked): the reply, the win, or a hint and another try."""
        judged = await self.sessions.judge(interaction.user.id, attempt, text)
        await self._judged(interaction, judged, in_place=in_place)

    async def _judged(
        self, interaction: discord.Interaction, judged: Judged, *, in_place: bool
    ) -> None:
        look = await self._look(interaction, judged.puzzle.to_move)
        words = compose.judged(judged, look, in_place=in_place, lang=self.table.reader(interaction))
        await self.table.deliver(interaction, words)

    async def _look(self, interaction: discord.Interaction, side: Side) -> BoardLook:
        """The board look the person likes, for the side they play in the puzzle."""
        return look_of(await self.players.preferences(interaction.user.id), side)

    # ------------------------------------------------------------------ click-to-move

    async def on_piece_chosen(self, interaction: discord.Interaction, menu: PuzzlePiece) -> None:
        """Click-to-move, step one: show where the chosen piece can go (the board and its
        words stay)."""
        origin = chosen_square(menu.values)
        game = await self.sessions.piece(interaction.user.id, menu.puzzle_id, menu.step, origin)
        assert origin is not None  # the sessions refuse a click without a piece
        prompt = compose.target_prompt(menu, game, origin, lang=self.table.reader(interaction))
        await self.table.deliver(interaction, [prompt])

    async def on_target_chosen(self, interaction: discord.Interaction, menu: PuzzleTarget) -> None:
        """Click-to-move, step two: judge the move, or with Back choose another piece."""
        target = chosen_square(menu.values)
        user_id = interaction.user.id
        if menu.values == (BACK,) or target is None:
            _, game = await self.sessions.board(user_id, menu.puzzle_id, menu.step)
            prompt = compose.piece_prompt(menu, game, lang=self.table.reader(interaction))
            await self.table.deliver(interaction, [prompt])
            return
        judged = await self.sessions.judge_squares(
            user_id, menu.puzzle_id, menu.step, menu.origin, target
        )
        await self._judged(interaction, judged, in_place=True)
