"""/tafl preferences: each player's own options for the boards the bot draws for them."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import THEMES
from bot.storage import PlayerPreferences

from ..app.errors import UserError
from ..app.players import Players
from ..compose.board import TOP_SIDE, theme_of
from ..limits import fit_embed

if TYPE_CHECKING:
    from ..client import TaflBot

THEME_CHOICES = [
    app_commands.Choice(name=theme.title, value=name) for name, theme in THEMES.items()
]


def describe_preferences(preferences: PlayerPreferences) -> discord.Embed:
    """A player's preferences, and which boards follow them, as the player would read them."""
    theme = THEMES[theme_of(preferences)]
    embed = discord.Embed(title="Your preferences")
    embed.add_field(name="Theme", value=f"{theme.title} (`{theme.name}`)", inline=False)
    embed.add_field(
        name="Turned to your side",
        value=(
            f"on: when you play the {TOP_SIDE.value}, your boards are turned around "
            "(rank 1 at the top)"
            if preferences.flip
            else "off: boards show rank 1 at the bottom, as seen from the attackers' side"
        ),
        inline=False,
    )
    embed.add_field(
        name="Direct messages",
        value=(
            "on: a direct message when it is your move in a game against a person, and when "
            "your time runs low (once per move)"
            if preferences.notify
            else "off: the pings in the game's channel or thread only"
        ),
        inline=False,
    )
    embed.add_field(
        name="Which boards",
        value=(
            "A board posted in a game's channel is one picture for everyone, so it follows the "
            "preferences of the player to move (against the AI: yours). The Flip board button "
            "shows you privately the channel's board turned around, in your theme."
        ),
        inline=False,
    )
    return fit_embed(embed)


class PlayerOptions(commands.Cog):
    """Per-player options (per-server ones are /tafl settings)."""

    def __init__(self, bot: TaflBot) -> None:
        self.players: Players = bot.players

    @app_commands.command(
        name="preferences", description="Your board theme and orientation, and direct messages"
    )
    @app_commands.describe(
        theme="Board colours: warm wood, or high contrast for small screens and low vision",
        flip=f"Turn boards to your side of the table when you play the {TOP_SIDE.value}",
        notify="A direct message when it is your move, or your time runs low (once per move)",
    )
    @app_commands.choices(theme=THEME_CHOICES)
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
                raise UserError(f"{theme!r} is not a theme: choose {' or '.join(THEMES)}.")
            changed = replace(changed, theme=theme)
        if flip is not None:
            changed = replace(changed, flip=flip)
        if notify is not None:
            changed = replace(changed, notify=notify)
        name = getattr(interaction.user, "display_name", None) or interaction.user.name
        changed = await self.players.save_preferences(current, changed, name)
        await interaction.response.send_message(embed=describe_preferences(changed), ephemeral=True)
