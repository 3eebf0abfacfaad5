"""The lobby shared by every server the bot is in: /tafl seek ("find me a game"), /tafl lobby
(who is seeking), /tafl block and unblock, and rematches of games across servers."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Side, get_variant
from bot.storage import Participant

from ..app.games import LiveGame
from ..app.lobby import (
    DEFAULT_LOBBY_TIME,
    DEFAULT_REACH,
    WIDEST_REACH,
    Pairing,
    Seek,
    SeekState,
    Waiting,
    time_words,
)
from ..app.wording import plain_name, plural
from ..choices import LOBBY_TIME_CHOICES as TIME_CHOICES
from ..choices import VARIANT_CHOICES
from ..compose.board import Block
from ..limits import CHOICE_NAME, MAX_CHOICES, GameNumber, clip, fit_embed
from ..people import participant_of
from ..present import stranger
from ..views import (
    AcrossRematchButton,
    SeekButton,
    confirm_block_view,
    lobby_view,
    seek_view,
)

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)

SEEK_STATES: dict[SeekState, str] = {
    "matched": "already paired: your game has begun",
    "expired": "over: it expired",
    "withdrawn": "over: you started another game",
    "already cancelled": "already cancelled",
    "replaced": "replaced by your newer seek (its own message has a Cancel button)",
    "closed": "no longer open",
}


def describe_seek(seek: Seek, others: int | None = None, replaced: Seek | None = None) -> str:
    """A player's own open seek, in their words (and the earlier seek it replaced)."""
    reach = (
        f"within ±{seek.reach_set} of your rating ({seek.rating:.0f})"
        if seek.reach_set is not None
        else f"within ±{DEFAULT_REACH} of your rating ({seek.rating:.0f}), widening as you wait"
        f" (up to ±{WIDEST_REACH})"
    )
    rated = "rated" if seek.rated else "unrated"
    lines = [
        f"Seeking a **{get_variant(seek.variant).title}** game from any server: "
        f"{time_words(seek.move_seconds)}, {rated}, against players {reach}.",
    ]
    if replaced is not None:
        lines.append(
            f"It replaces your earlier {get_variant(replaced.variant).title} seek: one seek at a "
            "time."
        )
    if others is not None:
        # Only the players this one may play (see LobbyStore.playable): /tafl lobby lists them.
        lines.append(
            "Nobody you can play is seeking this variant right now."
            if others == 0
            else f"{plural(others, 'other player')} you can play "
            f"{'is' if others == 1 else 'are'} seeking it now: `/tafl lobby` lists them."
        )
    lines.append(
        f"Your seek waits until <t:{seek.expires_at}:t> (<t:{seek.expires_at}:R>), and ends if "
        "you start another game. When someone is found, your game opens in a thread here and "
        "you are pinged."
    )
    return "\n".join(lines)


class Lobby(commands.Cog):
    """Seeking opponents in every server the bot is in."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.lobby = bot.lobby
        bot.clicks.register(SeekButton, self.on_seek_button)
        bot.clicks.register(AcrossRematchButton, self.on_rematch_answer)
        bot.table.on(Block, self.on_block_button)

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
            await interaction.response.send_message(
                describe_seek(outcome.seek, outcome.others, outcome.replaced),
                view=seek_view(outcome.seek.id),
                ephemeral=True,
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        live = await self.bot.lobby_desk.start(outcome)
        # Private also when the watchdog had answered first (then this is a message of its own).
        await interaction.followup.send(
            self._paired_words(live, interaction.user.id), ephemeral=True
        )

    @staticmethod
    def _paired_words(live: LiveGame | None, user_id: int) -> str:
        if live is None:
            return (
                "An opponent was found, but the game could not be opened in both servers; "
                "seek again with `/tafl seek`."
            )
        mine = next(v for v in live.venues if live.participant(Side(v.side)).user_id == user_id)
        return (
            f"Found: {stranger(live, Side(mine.side).other)}. You play the {mine.side}; your "
            f"game is in <#{mine.channel_id}>."
        )

    async def on_seek_button(self, interaction: discord.Interaction, button: SeekButton) -> None:
        """Cancel one's seek, or play a seek listed by /tafl lobby."""
        if button.action == "cancel":
            state = await self.lobby.cancel(interaction.user.id, button.seek_id)
            content = (
                "Seek cancelled: you are out of the lobby."
                if state == "cancelled"
                else f"That seek is {SEEK_STATES[state]}."
            )
            await interaction.response.edit_message(content=content, view=None)
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
        own = found.own
        embed = discord.Embed(title="The lobby: players seeking a game in any server")
        summary = []
        if found.counts:
            summary.append(
                "Seeking now, that you can play: "
                + " · ".join(f"{get_variant(name).title} {count}" for name, count in found.counts)
            )
        if own is not None:
            summary.append(
                f"Your own {get_variant(own.variant).title} seek waits too; it is not listed."
            )
        embed.description = "\n".join(summary) or None
        listed = found.seeks
        if found.refusal is not None:
            embed.add_field(name="Not from here", value=found.refusal, inline=False)
        elif not listed and own is not None:
            embed.add_field(
                name="Nobody else to play right now",
                value="Your seek waits: you will be paired as soon as someone compatible seeks.",
                inline=False,
            )
        elif not listed:
            embed.add_field(
                name="Nobody to play right now",
                value="Seek a game yourself with `/tafl seek`: you will be paired as soon as "
                "someone compatible seeks too.",
                inline=False,
            )
        for number, seek in enumerate(listed, start=1):
            rated = "rated" if seek.rated else "unrated"
            embed.add_field(
                name=f"#{number} · {get_variant(seek.variant).title}",
                value=f"{time_words(seek.move_seconds)} · {rated} · rating {seek.rating:.0f}",
                inline=False,
            )
        embed.set_footer(text="Names stay hidden until a game is paired. Only moves cross servers.")
        view = lobby_view([seek.id for seek in listed]) if interaction.guild_id else None
        if view is None:
            await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)
        else:
            await interaction.response.send_message(
                embed=fit_embed(embed), view=view, ephemeral=True
            )

    # ------------------------------------------------------------------ venues deleted

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel deleted (with its threads): adjourn the games played there."""
        await self.bot.lobby_desk.check_guild(channel.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread deleted: adjourn the game played there."""
        await self.bot.lobby_desk.check_guild(payload.guild_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server (or was removed): adjourn the games played there."""
        await self.bot.lobby_desk.check_guild(guild.id)

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
        await interaction.response.send_message(
            await self._block(interaction.user.id, other), ephemeral=True
        )

    async def _block(self, user_id: int, other: Participant) -> str:
        """Block ``other`` for ``user_id``; what to tell them."""
        added = await self.lobby.block(user_id, other)
        words = "is now blocked" if added else "was already blocked"
        return (
            f"{plain_name(other)} {words}: the lobby will never pair you together. "
            "`/tafl unblock` lifts it."
        )

    async def on_block_button(self, interaction: discord.Interaction, button: Block) -> None:
        """Block opponent, under a lobby game's final board: asked privately, then done."""
        other = await self.lobby.opponent(interaction.user.id, button.game_id)
        if not button.confirmed:
            await interaction.response.send_message(
                f"Block {plain_name(other)}? The lobby will never pair you together again "
                "(`/tafl unblock` lifts it).",
                view=confirm_block_view(button.game_id),
                ephemeral=True,
            )
            return
        await interaction.response.edit_message(
            content=await self._block(interaction.user.id, other), view=None
        )

    @app_commands.command(name="unblock", description="Lift a block")
    @app_commands.describe(player="Who (start typing: your blocks are listed)")
    async def unblock(self, interaction: discord.Interaction, player: str) -> None:
        """Lift a block set with /tafl block, chosen from the player's own blocks (a member of
        another server cannot be picked from this one's member list)."""
        chosen = await self.lobby.unblock(interaction.user.id, player)
        await interaction.response.send_message(
            f"{plain_name(chosen)} is no longer blocked.", ephemeral=True
        )

    @unblock.autocomplete("player")
    async def unblock_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The player's blocks, most recent first, those whose name holds what is typed."""
        blocked = await self.lobby.blocked(interaction.user.id)
        wanted = typed.strip().casefold()
        return [
            app_commands.Choice(name=clip(plain_name(other), CHOICE_NAME), value=str(other.user_id))
            for other in blocked
            if other.user_id is not None and wanted in plain_name(other).casefold()
        ][:MAX_CHOICES]

    # ------------------------------------------------------------------ rematches across servers

    async def on_rematch_answer(
        self, interaction: discord.Interaction, button: AcrossRematchButton
    ) -> None:
        """The other player accepts (the rematch begins in the same two venues) or declines."""
        answer = await self.lobby.answer_rematch(button.game_id, interaction.user.id, button.accept)
        if not answer.accept:
            await interaction.response.edit_message(
                content=f"{interaction.user.mention} declined the rematch.", view=None
            )
            await self.bot.table.tell(
                answer.asker_venue.channel_id,
                f"{plain_name(answer.answerer)} ({answer.answerer_venue.guild_name}) declined "
                "the rematch.",
            )
            return
        await interaction.response.edit_message(content="Rematch accepted.", view=None)
        await self.bot.lobby_desk.rematch(answer.old, answer.venues)
