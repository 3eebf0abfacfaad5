"""``/tafl puzzle``: positions with one forced win, solved by moving, rated as lichess rates them.

A go is private (the board and the answers are ephemeral) and is played with the menus under its
board or with ``/tafl move``, which comes to the puzzle desk when the person is not playing the
channel's game (see :mod:`..puzzle_desk` and :mod:`..app.puzzles`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import get_variant, square_name

from ..app.errors import UserError
from ..choices import VARIANT_CHOICES
from ..people import participant_of
from ..views import (
    NextPuzzleButton,
    PuzzlePieceSelect,
    PuzzleTargetSelect,
    puzzle_piece_view,
    puzzle_target_view,
)

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)


class Puzzles(commands.Cog):
    """Puzzles: a personal one near your puzzle rating, or the server's puzzle of the day."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        bot.clicks.register(PuzzlePieceSelect, self.on_piece_chosen)
        bot.clicks.register(PuzzleTargetSelect, self.on_target_chosen)
        bot.clicks.register(NextPuzzleButton, self.on_next)

    async def cog_load(self) -> None:
        """Add the shipped set to the database (puzzles stored before keep their ratings), in
        the background: the games are served meanwhile."""
        self.bot.spawn(self.bot.puzzles.stock(), "puzzles-stock")

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

    async def on_next(self, interaction: discord.Interaction, button: NextPuzzleButton) -> None:
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
        session = await self.bot.puzzles.choose(
            participant_of(interaction.user), interaction.guild_id, variant,
            daily=daily, fresh=fresh,
        )  # fmt: skip
        await self.bot.puzzle_desk.show(interaction, session)

    # ------------------------------------------------------------------ click-to-move

    async def on_piece_chosen(
        self, interaction: discord.Interaction, menu: PuzzlePieceSelect
    ) -> None:
        """Click-to-move, step one: show where the chosen piece can go (the board and its
        words stay)."""
        sessions = self.bot.puzzles
        attempt = await sessions.current(interaction.user.id, menu.puzzle_id, menu.step)
        game = await sessions.position(attempt)
        origin = menu.choice
        view = (
            None
            if origin is None
            else puzzle_target_view(attempt.puzzle_id, menu.step, game, origin)
        )
        if view is None:
            raise UserError("That piece cannot move now; choose another.")
        await interaction.response.edit_message(view=view)

    async def on_target_chosen(
        self, interaction: discord.Interaction, menu: PuzzleTargetSelect
    ) -> None:
        """Click-to-move, step two: judge the move, or with Back choose another piece."""
        sessions = self.bot.puzzles
        attempt = await sessions.current(interaction.user.id, menu.puzzle_id, menu.step)
        game = await sessions.position(attempt)
        if menu.back or menu.choice is None:
            await interaction.response.edit_message(
                view=puzzle_piece_view(attempt.puzzle_id, menu.step, game)
            )
            return
        size = game.size
        text = f"{square_name(menu.origin, size)}-{square_name(menu.choice, size)}"
        await self.bot.puzzle_desk.move(interaction, attempt, text, in_place=True)
