"""/tafl settings: the server's options, shown to everyone and changed by members who may
manage the server."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import VARIANTS, get_variant
from bot.storage import ServerSettings

from ..app.durations import NO_LIMIT_HINT, TIME_MAX_LENGTH, describe_duration, parse_move_time
from ..app.errors import UserError
from ..choices import LOBBY_TIMES

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
        self.bot = bot

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
        store = self.bot.storage.settings
        current = await store.get(interaction.guild_id)
        may_change = interaction.permissions.manage_guild
        options = (
            threads, time, rated_ai, lobby, lobby_channel, lobby_anywhere, lobby_variants,
            lobby_times, organisers,
        )  # fmt: skip
        if all(option is None for option in options):
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
        if lobby is not None:
            updated = replace(updated, lobby=lobby)
        if lobby_channel is not None:
            # Naming a listed channel again takes it off the list.
            updated = replace(updated, lobby_channels=updated.lobby_channels ^ {lobby_channel.id})
        if lobby_anywhere:
            updated = replace(updated, lobby_channels=frozenset())
        if lobby_variants is not None:
            updated = replace(updated, lobby_variants=parse_variants(lobby_variants))
        if lobby_times is not None:
            updated = replace(updated, lobby_times=parse_times(lobby_times))
        if organisers is not None:
            # Naming the same role again takes it off.
            same = updated.tournament_role == organisers.id
            updated = replace(updated, tournament_role=None if same else organisers.id)
        if updated != current:
            updated = await store.save(updated)
        await interaction.response.send_message(
            embed=describe_settings(updated, may_change=True, changed=updated != current),
            ephemeral=True,
        )


def parse_variants(text: str) -> frozenset[str]:
    """Variant names separated by spaces or commas (``all``: every variant); a
    :class:`UserError` names one it does not know."""
    words = text.replace(",", " ").lower().split()
    if words == ["all"]:
        return frozenset()
    unknown = [word for word in words if word not in VARIANTS]
    if unknown or not words:
        raise UserError(
            f"{unknown[0] if unknown else text!r} is not a variant: write names from "
            f"{', '.join(VARIANTS)}, or 'all'."
        )
    return frozenset(words)


def parse_times(text: str) -> frozenset[int]:
    """Times per move separated by spaces or commas (``all``: every one the lobby offers)."""
    words = text.replace(",", " ").lower().split()
    if words == ["all"]:
        return frozenset()
    offered = set(LOBBY_TIMES.values())
    times = set()
    for word in words:
        seconds = parse_move_time(word)
        if seconds not in offered:
            choices = ", ".join(describe_duration(value) for value in sorted(offered))
            raise UserError(f"The lobby offers {choices} per move; {word!r} is not one of them.")
        times.add(seconds)
    return frozenset(times)
