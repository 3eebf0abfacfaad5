"""/tafl settings: the server's options, shown to everyone and changed by members who may
manage the server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import get_variant
from bot.storage import ServerSettings

from ..app.durations import NO_LIMIT_HINT, TIME_MAX_LENGTH, describe_duration
from ..app.players import Players, SettingsChange

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
    embed.add_field(
        name="The lobby (games with other servers)", value=lobby_words(settings), inline=False
    )
    role = settings.tournament_role
    embed.add_field(
        name="Who runs tournaments",
        value="members who may manage the server"
        + ("" if role is None else f", and members with <@&{role}>"),
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


def lobby_words(settings: ServerSettings) -> str:
    """The server's part in the lobby, in a sentence or two."""
    if not settings.lobby:
        return "off: members cannot seek games with other servers (games already begun go on)"
    where = (
        "in " + ", ".join(f"<#{channel}>" for channel in sorted(settings.lobby_channels))
        if settings.lobby_channels
        else "in any channel"
    )
    variants = (
        ", ".join(get_variant(name).title for name in sorted(settings.lobby_variants))
        if settings.lobby_variants
        else "every variant"
    )
    times = (
        ", ".join(describe_duration(value) for value in sorted(settings.lobby_times))
        if settings.lobby_times
        else "every time the lobby offers"
    )
    return f"on: `/tafl seek` {where}; {variants}; {times} per move"


class ServerOptions(commands.Cog):
    """Per-server options."""

    def __init__(self, bot: TaflBot) -> None:
        self.players: Players = bot.players

    @app_commands.command(
        name="settings",
        description=(
            "The server's options: game threads, default time, rated AI games, the lobby, "
            "tournament organisers"
        ),
    )
    @app_commands.describe(
        threads="Give every new game its own thread (otherwise only when the channel is busy)",
        time=f"Default time per move for challenges, like 24h or 3d; {NO_LIMIT_HINT}",
        rated_ai="Count games against the AI for ratings",
        lobby="Let members seek games with other servers (/tafl seek)",
        lobby_channel="Take seeks only in this channel (again to remove it; 'lobby_anywhere')",
        lobby_anywhere="Take seeks in any channel again",
        lobby_variants="Variants members may seek, by name, like 'copenhagen tablut' ('all')",
        lobby_times="Times per move members may seek, like '1d 3d' ('all')",
        organisers="A role whose members may run tournaments (again to remove it)",
    )
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        threads: bool | None = None,
        time: app_commands.Range[str, 1, TIME_MAX_LENGTH] | None = None,
        rated_ai: bool | None = None,
        lobby: bool | None = None,
        lobby_channel: discord.TextChannel | None = None,
        lobby_anywhere: bool | None = None,
        lobby_variants: app_commands.Range[str, 1, 100] | None = None,
        lobby_times: app_commands.Range[str, 1, 100] | None = None,
        organisers: discord.Role | None = None,
    ) -> None:
        """Show the server's settings to anyone; change those given, for members who may manage
        the server."""
        assert interaction.guild_id is not None  # guild_only
        change = SettingsChange(
            threads=threads,
            time=time,
            rated_ai=rated_ai,
            lobby=lobby,
            lobby_channel=None if lobby_channel is None else lobby_channel.id,
            lobby_anywhere=lobby_anywhere,
            lobby_variants=lobby_variants,
            lobby_times=lobby_times,
            organisers=None if organisers is None else organisers.id,
        )
        shown = await self.players.change_settings(
            interaction.guild_id, change, may_manage=interaction.permissions.manage_guild
        )
        await interaction.response.send_message(
            embed=describe_settings(
                shown.settings, may_change=shown.may_change, changed=shown.changed
            ),
            ephemeral=True,
        )
