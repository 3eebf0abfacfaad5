"""``/tafl analyze``: the computer's review of a finished game, as players read it.

The review is made (or found stored) by :mod:`..app.reviews`; a progress line is edited while it
works, and the review is shown with its chart and boards (:mod:`..compose.review`).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Side

from ..app.players import Players
from ..app.reviews import ReviewNews, ReviewService
from ..compose import review as compose
from ..compose.board import look_of
from ..table import GameNumber, Table


class Review(commands.Cog):
    """Post-game analysis."""

    def __init__(self, reviews: ReviewService, players: Players, table: Table) -> None:
        self.reviews = reviews
        self.players = players
        self.table = table

    @app_commands.command(name="analyze", description="A computer review of a finished game")
    @app_commands.describe(game="Game number (this channel's last finished game by default)")
    async def analyze(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """Review a finished game: accuracy, the decisive moments, a chart and boards."""
        record, played = await self.reviews.finished(
            interaction.guild_id, interaction.channel_id or 0, game
        )
        # Found and finished: from here every answer is public, with a "thinking" pulse, in
        # the language of the channel it is posted in.
        await self.table.thinking(interaction)
        lang = await self.table.interaction_language(interaction)

        async def watch(news: ReviewNews) -> None:
            await self.table.deliver(interaction, compose.progress(news, lang=lang))

        reviewed = await self.reviews.review(record, played, interaction.user.id, watch)
        # Drawn for the one who asked, as their own boards are: public, but theirs.
        side = record.side_of(interaction.user.id)
        preferences = await self.players.preferences(interaction.user.id)
        look = look_of(preferences, None if side is None else Side(side))
        await self.table.deliver(interaction, compose.review(reviewed, look, lang=lang))
