"""/tafl settings: the server's options, for members who may manage the server."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import ServerSettings

from ..errors import UserError
from .challenges import TIME_MAX_LENGTH, describe_duration, parse_duration

if TYPE_CHECKING:
    from ..client import TaflBot

NO_LIMIT = ("none", "off", "no", "0")


def describe_settings(settings: ServerSettings) -> discord.Embed:
    """The server's settings as a player would read them."""
    time = settings.default_move_seconds
    embed = discord.Embed(title="Tafl settings for this server")
    embed.add_field(
        name="Where games are played",
        value="a thread per game" if settings.game_threads else
        "in the channel (a thread only when the channel already has a game)",
        inline=False,
    )
    embed.add_field(
        name="Default time per move",
        value=f"{describe_duration(time)} (when a challenge sets none)" if time else "no limit",
        inline=False,
    )
    embed.add_field(
        name="Games against the AI",
        value="rated" if settings.rated_ai_games else "unrated",
        inline=False,
    )
    embed.set_footer(text="Changes apply to games started from now on.")
    return embed


class ServerOptions(commands.Cog):
    """Per-server options."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Server options: threads, default time")
    @app_commands.describe(
        threads="Give every new game its own thread (otherwise only when the channel is busy)",
        time="Default time per move for challenges, like 24h or 3d; 'none' for no limit",
        rated_ai="Count games against the AI for ratings",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        threads: bool | None = None,
        time: app_commands.Range[str, 1, TIME_MAX_LENGTH] | None = None,
        rated_ai: bool | None = None,
    ) -> None:
        """Show the server's settings, changing those given."""
        if not interaction.permissions.manage_guild:
            # Server admins can widen who sees the command; the rule stays Manage Server.
            raise UserError("Only members with the Manage Server permission can change these.")
        assert interaction.guild_id is not None  # guild_only
        store = self.bot.storage.settings
        current = await store.get(interaction.guild_id)
        changed = current
        if threads is not None:
            changed = replace(changed, game_threads=threads)
        if time is not None:
            seconds = None if time.strip().lower() in NO_LIMIT else parse_duration(time)
            changed = replace(changed, default_move_seconds=seconds)
        if rated_ai is not None:
            changed = replace(changed, rated_ai_games=rated_ai)
        if changed != current:
            changed = await store.save(changed)
        await interaction.response.send_message(embed=describe_settings(changed), ephemeral=True)
