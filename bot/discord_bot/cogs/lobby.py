"""The lobby shared by every server the bot is in: /tafl seek ("find me a game"), /tafl lobby
(who is seeking), /tafl block and unblock, and rematches of games across servers."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import Participant

from ..app.lobby import DEFAULT_LOBBY_TIME, DEFAULT_REACH, LobbyService, Pairing, Waiting
from ..choices import LOBBY_TIME_CHOICES as TIME_CHOICES
from ..choices import VARIANT_CHOICES
from ..compose import lobby as words
from ..compose.board import Block
from ..compose.lobby import AcrossRematch, SeekAction
from ..lobby_desk import LobbyDesk
from ..table import GameNumber, Table, choices, participant_of

log = logging.getLogger(__name__)


class Lobby(commands.Cog):
    """Seeking opponents in every server the bot is in."""

    def __init__(self, lobby: LobbyService, table: Table, desk: LobbyDesk) -> None:
        self.lobby = lobby
        self.table = table
        self.desk = desk
        table.on(SeekAction, self.on_seek_button)
        table.on(AcrossRematch, self.on_rematch_answer)
        table.on(Block, self.on_block_button)

    # ------------------------------------------------------------------ seeking

    @app_commands.command(name="seek", description="Find a human opponent from any server")
    @app_commands.describe(
        variant="Which rules",
        time="Time per move (games across servers are often slow: a day is the default)",
        rated="Count the game for ratings (default yes)",
        range=f"Rating points either way (default ±{DEFAULT_REACH}, widening as you wait)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.choices(time=TIME_CHOICES)
    @app_commands.guild_only()
    async def seek(
        self,
        interaction: discord.Interaction,
        variant: str = "copenhagen",
        time: int = DEFAULT_LOBBY_TIME,
        rated: bool = True,
        range: app_commands.Range[int, 50, 2000] | None = None,
    ) -> None:
        """Wait in the lobby for a compatible seek from any server, or be paired at once."""
        assert interaction.guild_id is not None
        outcome = await self.lobby.seek(
            participant_of(interaction.user),
            interaction.guild_id,
            interaction.channel_id or 0,
            getattr(interaction.channel, "parent_id", None),
            variant,
            time,
            rated,
            range,
        )
        await self._sought(interaction, outcome)

    async def _sought(self, interaction: discord.Interaction, outcome: Waiting | Pairing) -> None:
        """The seek waits (its player is told, with a Cancel button), or its game begins."""
        if isinstance(outcome, Waiting):
            await self.table.deliver(
                interaction, words.waiting(outcome, lang=self.table.reader(interaction))
            )
            return
        await self.table.thinking(interaction, private=True)
        live = await self.desk.start(outcome)
        # Private also when the watchdog had answered first (then this is a message of its own).
        reader = self.table.reader(interaction)
        await self.table.deliver(interaction, words.paired(live, interaction.user.id, lang=reader))

    async def on_seek_button(self, interaction: discord.Interaction, button: SeekAction) -> None:
        """Cancel one's seek, or play a seek listed by /tafl lobby."""
        if button.action == "cancel":
            state = await self.lobby.cancel(interaction.user.id, button.seek_id)
            reader = self.table.reader(interaction)
            await self.table.deliver(interaction, words.seek_cancelled(state, lang=reader))
            return
        outcome = await self.lobby.answer(
            participant_of(interaction.user),
            interaction.guild_id,
            interaction.channel_id or 0,
            getattr(interaction.channel, "parent_id", None),
            button.seek_id,
        )
        await self._sought(interaction, outcome)

    @app_commands.command(name="lobby", description="Who is seeking a game, in every server")
    @app_commands.describe(variant="Only this variant")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def lobby_list(
        self, interaction: discord.Interaction, variant: str | None = None
    ) -> None:
        """The open seeks (variant, time, rating; no names until paired), with a button to play
        each."""
        found = await self.lobby.listing(
            interaction.user.id,
            interaction.guild_id,
            interaction.channel_id or 0,
            getattr(interaction.channel, "parent_id", None),
            variant,
        )
        listing = words.lobby_list(
            found,
            in_server=interaction.guild_id is not None,
            lang=self.table.reader(interaction),
        )
        await self.table.deliver(interaction, listing)

    # ------------------------------------------------------------------ venues deleted

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel deleted (with its threads): adjourn the games played there."""
        await self.desk.check_guild(channel.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread deleted: adjourn the game played there."""
        await self.desk.check_guild(payload.guild_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server (or was removed): adjourn the games played there."""
        await self.desk.check_guild(guild.id)

    # ------------------------------------------------------------------ blocks

    @app_commands.command(name="block", description="Never be paired with this player again")
    @app_commands.describe(
        player="Who (or give a game instead)",
        game="A game's number: block your opponent in it (for players of other servers)",
    )
    async def block(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: GameNumber | None = None,
    ) -> None:
        """Block a player from the lobby's pairings (both ways): picked, or as the opponent of
        one of the player's games (a member of another server may not be in the picker)."""
        other = await self.lobby.block_target(
            interaction.user.id,
            None if player is None else Participant.user(player.id, player.display_name),
            player_is_bot=player is not None and player.bot,
            game_id=game,
        )
        added = await self.lobby.block(interaction.user.id, other)
        await self.table.deliver(
            interaction, words.blocked(other, added, lang=self.table.reader(interaction))
        )

    async def on_block_button(self, interaction: discord.Interaction, button: Block) -> None:
        """Block opponent, under a lobby game's final board: asked privately, then done."""
        other = await self.lobby.opponent(interaction.user.id, button.game_id)
        if not button.confirmed:
            confirm = Block(button.game_id, "yes").custom_id
            reader = self.table.reader(interaction)
            await self.table.deliver(interaction, words.block_question(other, confirm, lang=reader))
            return
        added = await self.lobby.block(interaction.user.id, other)
        reader = self.table.reader(interaction)
        await self.table.deliver(
            interaction, words.blocked(other, added, clicked=True, lang=reader)
        )

    @app_commands.command(name="unblock", description="Lift a block")
    @app_commands.describe(player="Who (start typing: your blocks are listed)")
    async def unblock(self, interaction: discord.Interaction, player: str) -> None:
        """Lift a block set with /tafl block, chosen from the player's own blocks (a member of
        another server cannot be picked from this one's member list)."""
        chosen = await self.lobby.unblock(interaction.user.id, player)
        await self.table.deliver(
            interaction, words.unblocked(chosen, lang=self.table.reader(interaction))
        )

    @unblock.autocomplete("player")
    async def unblock_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The player's blocks, most recent first, those whose name holds what is typed."""
        blocked = await self.lobby.blocked(interaction.user.id)
        return choices(words.block_choices(blocked, typed))

    # ------------------------------------------------------------------ rematches across servers

    async def on_rematch_answer(
        self, interaction: discord.Interaction, button: AcrossRematch
    ) -> None:
        """The other player accepts (the rematch begins in the same two venues) or declines."""
        answer = await self.lobby.answer_rematch(button.game_id, interaction.user.id, button.accept)
        lang = await self.table.interaction_language(interaction)
        asker_lang = await self.table.channel_language(answer.asker_venue.guild_id)
        await self.table.deliver(
            interaction,
            words.rematch_answered(
                answer, interaction.user.mention, lang=lang, asker_lang=asker_lang
            ),
        )
        if answer.accept:
            await self.desk.rematch(answer.old, answer.venues)
