"""/tafl settings: the server's options, shown to everyone and changed by members who may
manage the server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..app.durations import TIME_MAX_LENGTH
from ..app.players import Players, SettingsChange
from ..compose import players as compose
from ..compose.inputs import input_words
from ..table import Table, choices


class ServerOptions(commands.Cog):
    """Per-server options."""

    def __init__(self, players: Players, table: Table) -> None:
        self.players = players
        self.table = table

    @app_commands.command(
        name="settings",
        description=(
            "The server's options: game threads, default time, rated AI games, the lobby, "
            "tournament organisers"
        ),
    )
    @app_commands.describe(
        threads="Give every new game its own thread (otherwise only when the channel is busy)",
        time=compose.SETTINGS_TIME_OPTION,
        rated_ai="Count games against the AI for ratings",
        lobby="Let members seek games with other servers (/tafl seek)",
        lobby_channel="Take seeks only in this channel (again to remove it; 'lobby_anywhere')",
        lobby_anywhere="Take seeks in any channel again",
        lobby_variants="Variants members may seek, by name, like 'copenhagen tablut' ('all')",
        lobby_times="Times per move members may seek, like '1d 3d' ('all')",
        organisers="A role whose members may run tournaments (again to remove it)",
        language=compose.SETTINGS_LANGUAGE_OPTION,
    )
    @app_commands.choices(language=choices(compose.LANGUAGES_OFFERED))
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
        language: str | None = None,
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
            language=language,
        )
        shown = await self.players.change_settings(
            interaction.guild_id,
            change,
            may_manage=interaction.permissions.manage_guild,
            words=input_words(self.table.reader(interaction)),
        )
        await self.table.deliver(
            interaction, compose.settings_answer(shown, lang=self.table.reader(interaction))
        )
