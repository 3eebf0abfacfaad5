"""/tafl preferences: each player's own options for the boards the bot draws for them."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import THEMES

from ..app.errors import Refused
from ..app.players import NotATheme, Players
from ..compose import players as compose
from ..compose.board import theme_of
from ..table import Table, choices


class PlayerOptions(commands.Cog):
    """Per-player options (per-server ones are /tafl settings)."""

    def __init__(self, players: Players, table: Table) -> None:
        self.players = players
        self.table = table

    @app_commands.command(
        name="preferences", description="Your board theme and orientation, and direct messages"
    )
    @app_commands.describe(
        theme="Board colours: warm wood, or high contrast for small screens and low vision",
        flip=compose.FLIP_OPTION,
        notify="A direct message when it is your move, or your time runs low (once per move)",
    )
    @app_commands.choices(theme=choices(compose.THEMES_OFFERED))
    async def preferences(
        self,
        interaction: discord.Interaction,
        theme: str | None = None,
        flip: bool | None = None,
        notify: bool | None = None,
    ) -> None:
        """Show the player's preferences, changing those given."""
        current = await self.players.preferences(interaction.user.id)
        changed = replace(current, theme=theme_of(current))
        if theme is not None:
            if theme not in THEMES:  # Discord sends only the listed choices; an old client...
                raise Refused(NotATheme(theme, tuple(THEMES)))
            changed = replace(changed, theme=theme)
        if flip is not None:
            changed = replace(changed, flip=flip)
        if notify is not None:
            changed = replace(changed, notify=notify)
        name = getattr(interaction.user, "display_name", None) or interaction.user.name
        changed = await self.players.save_preferences(current, changed, name)
        await self.table.deliver(
            interaction, compose.preferences_answer(changed, lang=self.table.reader(interaction))
        )
