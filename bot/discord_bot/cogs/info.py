"""Information: rules, variants, game records (OTN), replays (GIF), leaderboards and stats."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Game, get_variant
from bot.storage import GameRecord

from ..app.players import Players
from ..app.records import GameRecords
from ..compose import help as guide
from ..compose import players, records
from ..table import GameNumber, Table, choices

VARIANT_CHOICES = choices(guide.VARIANTS)
SCOPE_CHOICES = choices(players.SCOPES)

CommandList = Callable[[], Sequence[tuple[str, str]]]
"""The commands under /tafl as (name, description), in the order they were added."""


class Info(commands.Cog):
    """Commands that explain and look back; none of them changes a game."""

    def __init__(
        self, players: Players, records: GameRecords, table: Table, *, commands: CommandList
    ) -> None:
        self.players = players
        self.records = records
        self.table = table
        self._commands = commands

    @app_commands.command(name="help", description="How to start a game, and every command")
    async def help(self, interaction: discord.Interaction) -> None:
        """Four lines to get going, then each command with its description (read from the
        commands themselves, so the list cannot fall behind)."""
        await self.table.deliver(
            interaction, guide.help_answer(self._commands(), lang=self.table.reader(interaction))
        )

    @app_commands.command(name="rules", description="How a variant is played, with its start")
    @app_commands.describe(variant="Which rules to explain (Tablut by default)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str = "tablut") -> None:
        """The variant explained, with a picture of its start position in the asker's theme
        (the bot thinking first: the first picture of a board size or theme takes a moment)."""
        await self.table.thinking(interaction, private=True)
        preferences = await self.players.preferences(interaction.user.id)
        answer = guide.rules_answer(variant, preferences, lang=self.table.reader(interaction))
        await self.table.deliver(interaction, answer)

    @app_commands.command(name="variants", description="The rules this bot plays")
    async def variants(self, interaction: discord.Interaction) -> None:
        """One line per variant."""
        await self.table.deliver(
            interaction, guide.variants_answer(lang=self.table.reader(interaction))
        )

    async def _game(
        self, interaction: discord.Interaction, game_id: int | None
    ) -> tuple[GameRecord, Game]:
        """The requested game (by id) or the channel's current or most recent one."""
        return await self.records.game(interaction.guild_id, interaction.channel_id or 0, game_id)

    @app_commands.command(name="export", description="The game record as an OTN file")
    @app_commands.describe(game="Game number (this channel's game by default)")
    async def export(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """Attach the OpenTafl Notation record of a game."""
        record, _ = await self._game(interaction, game)
        text, played = await self.records.otn(record)
        # Posted in the channel: the channel's language.
        lang = await self.table.interaction_language(interaction)
        answer = records.export_answer(record, played, text, lang=lang)
        await self.table.deliver(interaction, answer)

    @app_commands.command(name="history", description="The moves of a game so far")
    @app_commands.describe(game="Game number (this channel's game by default)")
    async def history(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """The numbered move list as text."""
        record, played = await self._game(interaction, game)
        answer = records.history_answer(record, played, lang=self.table.reader(interaction))
        await self.table.deliver(interaction, answer)

    @app_commands.command(name="replay", description="An animated replay of a game")
    @app_commands.describe(game="Game number (this channel's game by default)")
    async def replay(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """Render the whole game as a GIF (the bot thinking first: a long game takes a
        moment)."""
        # Find the game first: a wrong number must get a private answer, and after a public
        # "thinking" every answer would be public.
        record, played = await self._game(interaction, game)
        await self.table.thinking(interaction)
        # A public post in the channel: the channel's language.
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(interaction, records.replay_answer(record, played, lang=lang))

    @app_commands.command(name="leaderboard", description="The best-rated players")
    @app_commands.describe(
        variant="Which rules (Tablut by default)", scope="This server only, or everywhere"
    )
    @app_commands.choices(variant=VARIANT_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction, variant: str = "tablut", scope: str = "server"
    ) -> None:
        """Top players of a variant in this server or everywhere; an empty list is answered
        privately, with what it takes to appear on it."""
        board = await self.players.leaderboard(
            get_variant(variant).name, interaction.guild_id if scope == "server" else None
        )
        # Shown to the channel when it has entries (the channel's language), privately when
        # empty (the reader's).
        if board.entries:
            lang = await self.table.interaction_language(interaction)
        else:
            lang = self.table.reader(interaction)
        await self.table.deliver(interaction, players.leaderboard_answer(board, lang=lang))

    @app_commands.command(name="stats", description="A player's record")
    @app_commands.describe(
        player="Whose record (yours by default)",
        variant="Add the rating in these rules (all rules are counted by default)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        variant: str | None = None,
    ) -> None:
        """Results against people (rated) apart from those against the AI, by side; the current
        streak; and the rating in every variant played (or the one asked for)."""
        user = player or interaction.user
        only = None if variant is None else get_variant(variant).name
        record = await self.players.record(user.id, only)
        answer = players.stats_answer(
            record,
            user.display_name,
            only,
            yours=user == interaction.user,
            lang=self.table.reader(interaction),
        )
        await self.table.deliver(interaction, answer)
