"""/tafl settings: the server's options, shown to everyone and changed by members who may
manage the server."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import ServerSettings

from ..app.durations import NO_LIMIT_HINT, TIME_MAX_LENGTH, describe_duration, parse_move_time
from ..app.errors import UserError

if TYPE_CHECKING:
    from ..client import TaflBot


def describe_settings(
    settings: ServerSettings, *, may_change: bool, changed: bool = False
) -> discord.Embed:
    """The server's settings as a player would read them; the footer says who may change
    them (``may_change``: the reader may) and, once ``changed``, from when it applies."""
    time = settings.default_move_seconds
    embed = discord.Embed(title="Tafl settings for this server")
    embed.add_field(
        name="Where games are played",
        value="a thread per game"
        if settings.game_threads
        else "in the channel (a thread only when the channel already has a game)",
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
    if changed:
        footer = "Changes apply to games started from now on."
    elif may_change:
        footer = "Give /tafl settings an option to change it (for games started afterwards)."
    else:
        footer = "Members with the Manage Server permission can change these."
    embed.set_footer(text=footer)
    return embed


class ServerOptions(commands.Cog):
    """Per-server options."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings", description="The server's options: threads, default time, rated AI games"
    )
    @app_commands.describe(
        threads="Give every new game its own thread (otherwise only when the channel is busy)",
        time=f"Default time per move for challenges, like 24h or 3d; {NO_LIMIT_HINT}",
        rated_ai="Count games against the AI for ratings",
    )
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        threads: bool | None = None,
        time: app_commands.Range[str, 1, TIME_MAX_LENGTH] | None = None,
        rated_ai: bool | None = None,
    ) -> None:
        """Show the server's settings to anyone; change those given, for members who may manage
        the server."""
        assert interaction.guild_id is not None  # guild_only
        store = self.bot.storage.settings
        current = await store.get(interaction.guild_id)
        may_change = interaction.permissions.manage_guild
        if (threads, time, rated_ai) == (None, None, None):
            await interaction.response.send_message(
                embed=describe_settings(current, may_change=may_change), ephemeral=True
            )
            return
        if not may_change:
            # Discord cannot hide one subcommand from members, so the rule is kept here.
            raise UserError(
                "Only members with the Manage Server permission can change these; "
                "`/tafl settings` with no options shows them."
            )
        updated = current
        if threads is not None:
            updated = replace(updated, game_threads=threads)
        if time is not None:
            updated = replace(updated, default_move_seconds=parse_move_time(time))
        if rated_ai is not None:
            updated = replace(updated, rated_ai_games=rated_ai)
        if updated != current:
            updated = await store.save(updated)
        await interaction.response.send_message(
            embed=describe_settings(updated, may_change=True, changed=updated != current),
            ephemeral=True,
        )
