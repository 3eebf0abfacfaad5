"""The lobby shared by every server the bot is in: /tafl seek ("find me a game"), /tafl lobby
(who is seeking), /tafl block and unblock, and rematches of games across servers."""

from __future__ import annotations

import logging
from collections import Counter
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Side, get_variant
from bot.storage import NotFound, Participant, ServerSettings
from bot.storage.lobby import (
    DEFAULT_REACH,
    LISTED,
    WIDEST_REACH,
    Blocked,
    InAGame,
    OutOfReach,
    OwnSeek,
    Seek,
    SeekClosed,
    SeekRequest,
    Waiting,
)

from ..app.durations import describe_duration
from ..app.errors import UserError
from ..app.games import LiveGame
from ..app.wording import plain_name, plural
from ..choices import DEFAULT_LOBBY_TIME as DEFAULT_TIME
from ..choices import LOBBY_TIME_CHOICES as TIME_CHOICES
from ..choices import LOBBY_TIMES, VARIANT_CHOICES
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

SEEK_STATES = {
    "matched": "already paired: your game has begun",
    "expired": "over: it expired",
    "withdrawn": "over: you started another game",
    "cancelled": "already cancelled",
}


def time_words(seconds: int | None) -> str:
    """``1 day per move``."""
    return "no time limit" if seconds is None else f"{describe_duration(seconds)} per move"


def check_server(settings: ServerSettings, channel_id: int, parent_id: int | None) -> None:
    """Refuse a seek this server does not take here, saying why."""
    if not settings.lobby:
        raise UserError(
            "This server has turned the lobby off, so games with other servers cannot be sought "
            "here (a moderator can turn it on with `/tafl settings lobby:True`)."
        )
    allowed = settings.lobby_channels
    if allowed and channel_id not in allowed and parent_id not in allowed:
        where = ", ".join(f"<#{channel}>" for channel in sorted(allowed))
        raise UserError(f"On this server the lobby is in {where}: seek from there.")


def words_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def check_offer(settings: ServerSettings, variant: str, seconds: int) -> None:
    """Refuse a variant or a time this server has left out of the lobby."""
    if settings.lobby_variants and variant not in settings.lobby_variants:
        names = words_list([get_variant(name).title for name in sorted(settings.lobby_variants)])
        raise UserError(f"This server offers only {names} in the lobby.")
    if settings.lobby_times and seconds not in settings.lobby_times:
        times = words_list([time_words(value) for value in sorted(settings.lobby_times)])
        raise UserError(f"This server offers only {times} in the lobby.")


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


def out_of_reach_words(refused: OutOfReach) -> str:
    """Why a player may not play a seek listed earlier: their rating is outside its reach."""
    seek = refused.seek
    low, high = seek.rating - refused.reach, seek.rating + refused.reach
    widening = (
        f" Its range widens as it waits (up to ±{WIDEST_REACH}): try again later, or seek"
        if seek.reach_set is None and refused.reach < WIDEST_REACH
        else " Seek"
    )
    return (
        f"That seek is for players rated {max(0, low):.0f} to {high:.0f}, and your "
        f"{get_variant(seek.variant).title} rating is {refused.rating:.0f}, so you cannot play "
        f"it.{widening} a game yourself with `/tafl seek`."
    )


class Lobby(commands.Cog):
    """Seeking opponents in every server the bot is in."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
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
        time: int = DEFAULT_TIME,
        rated: bool = True,
        range: app_commands.Range[int, 50, 2000] | None = None,
    ) -> None:
        """Wait in the lobby for a compatible seek from any server, or be paired at once."""
        await self._seek(interaction, variant, time, rated, range, answering=None)

    async def _seek(
        self,
        interaction: discord.Interaction,
        variant: str,
        seconds: int,
        rated: bool,
        reach: int | None,
        *,
        answering: int | None,
    ) -> None:
        assert interaction.guild_id is not None
        if seconds not in LOBBY_TIMES.values():
            raise UserError("Choose one of the lobby's times per move from the list.")
        settings = await self.bot.storage.settings.get(interaction.guild_id)
        channel = interaction.channel
        parent = getattr(channel, "parent_id", None)
        check_server(settings, interaction.channel_id or 0, parent)
        check_offer(settings, variant, seconds)
        request = SeekRequest(
            participant_of(interaction.user),
            interaction.guild_id,
            interaction.channel_id or 0,
            variant,
            seconds,
            rated,
            reach,
        )
        try:
            outcome = await self.bot.storage.lobby.seek(request, answering=answering)
        except InAGame as playing:
            raise UserError(
                f"You are playing game #{playing.game_id} (<#{playing.channel_id}>): finish it "
                "before seeking another. Games of a day or more per move are no bar."
            ) from None
        except OwnSeek:
            raise UserError("That is your own seek.") from None
        except Blocked:
            raise UserError(
                "You cannot play this player (one of you has blocked the other)."
            ) from None
        except OutOfReach as refused:
            raise UserError(out_of_reach_words(refused)) from None
        except SeekClosed:
            raise UserError(
                "That seek is no longer open (paired, cancelled or expired): look at "
                "`/tafl lobby` again."
            ) from None
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
            cancelled = await self.bot.storage.lobby.cancel(interaction.user.id, button.seek_id)
            if cancelled is None:
                seek = await self.bot.storage.lobby.get(button.seek_id)
                state = SEEK_STATES.get(seek.status if seek else "", "no longer open")
                newer = await self.bot.storage.lobby.open_seek_of(interaction.user.id)
                if seek is not None and seek.status == "cancelled" and newer is not None:
                    state = "replaced by your newer seek (its own message has a Cancel button)"
                await interaction.response.edit_message(content=f"That seek is {state}.", view=None)
                return
            await interaction.response.edit_message(
                content="Seek cancelled: you are out of the lobby.", view=None
            )
            return
        if interaction.guild_id is None:
            raise UserError("Play a seek from a server channel.")
        seek = await self.bot.storage.lobby.get(button.seek_id)
        if seek is None or seek.status != "open":
            raise UserError("That seek is no longer open: look at `/tafl lobby` again.")
        await self._seek(
            interaction,
            seek.variant,
            seek.move_seconds or DEFAULT_TIME,
            seek.rated,
            None,
            answering=seek.id,
        )

    @app_commands.command(name="lobby", description="Who is seeking a game, in every server")
    @app_commands.describe(variant="Only this variant")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def lobby(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        """The open seeks (variant, time, rating; no names until paired), with a button to play
        each."""
        lobby = self.bot.storage.lobby
        # Only seeks this member could play from here: the lobby's rule (no own seek, nobody
        # blocked either way, their rating within each seek's reach) and this server's offer.
        refusal = None
        settings = None
        if interaction.guild_id is not None:
            settings = await self.bot.storage.settings.get(interaction.guild_id)
            parent = getattr(interaction.channel, "parent_id", None)
            try:
                check_server(settings, interaction.channel_id or 0, parent)
            except UserError as error:
                refusal = str(error)
        seeks = await lobby.playable(interaction.user.id, variant)
        if settings is not None:
            seeks = [
                seek
                for seek in seeks
                if (not settings.lobby_variants or seek.variant in settings.lobby_variants)
                and (not settings.lobby_times or seek.move_seconds in settings.lobby_times)
            ]
        counts = Counter(seek.variant for seek in seeks)
        seeks = [] if refusal else seeks[:LISTED]
        own = await lobby.open_seek_of(interaction.user.id)
        embed = discord.Embed(title="The lobby: players seeking a game in any server")
        summary = []
        if counts:
            summary.append(
                "Seeking now, that you can play: "
                + " · ".join(
                    f"{get_variant(name).title} {count}" for name, count in sorted(counts.items())
                )
            )
        if own is not None:
            summary.append(
                f"Your own {get_variant(own.variant).title} seek waits too; it is not listed."
            )
        embed.description = "\n".join(summary) or None
        listed = seeks
        if refusal is not None:
            embed.add_field(name="Not from here", value=refusal, inline=False)
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
        if (player is None) == (game is None):
            raise UserError(
                "Name the player to block, or the number of a game you played against them "
                "(`/tafl block game:12`)."
            )
        if game is not None:
            other = await self._opponent(interaction.user.id, game)
        else:
            assert player is not None
            if player.id == interaction.user.id:
                raise UserError("You cannot block yourself.")
            if player.bot:
                raise UserError("Bots never play in the lobby.")
            other = Participant.user(player.id, player.display_name)
        await interaction.response.send_message(
            await self._block(interaction.user.id, other), ephemeral=True
        )

    async def _opponent(self, user_id: int, game_id: int) -> Participant:
        """The person ``user_id`` played in game ``game_id``, or why there is none to block."""
        try:
            record = await self.bot.storage.games.get(game_id)
        except NotFound:
            raise UserError(f"There is no game #{game_id}.") from None
        side = record.side_of(user_id)
        if side is None:
            raise UserError(f"You did not play game #{game_id}.")
        other = record.player("defenders" if side == "attackers" else "attackers")
        if other.is_ai or other.user_id is None:
            raise UserError("The AI never plays in the lobby: there is nobody to block.")
        if other.user_id == user_id:
            raise UserError("You played yourself in that game: there is nobody to block.")
        return other

    async def _block(self, user_id: int, other: Participant) -> str:
        """Block ``other`` for ``user_id``; what to tell them."""
        added = await self.bot.storage.lobby.block(user_id, other)
        words = "is now blocked" if added else "was already blocked"
        return (
            f"{plain_name(other)} {words}: the lobby will never pair you together. "
            "`/tafl unblock` lifts it."
        )

    async def on_block_button(self, interaction: discord.Interaction, button: Block) -> None:
        """Block opponent, under a lobby game's final board: asked privately, then done."""
        other = await self._opponent(interaction.user.id, button.game_id)
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
        blocked = await self.bot.storage.lobby.blocked(interaction.user.id)
        if not blocked:
            raise UserError("You have not blocked anyone.")
        typed = player.strip().removeprefix("<@").removesuffix(">").lstrip("!")
        chosen = next(
            (
                other
                for other in blocked
                if str(other.user_id) == typed or plain_name(other).casefold() == typed.casefold()
            ),
            None,
        )
        if chosen is None or chosen.user_id is None:
            raise UserError(
                f"You have not blocked {player!r}: choose from the list as you type "
                f"(you have blocked {plural(len(blocked), 'player')})."
            )
        await self.bot.storage.lobby.unblock(interaction.user.id, chosen.user_id)
        await interaction.response.send_message(
            f"{plain_name(chosen)} is no longer blocked.", ephemeral=True
        )

    @unblock.autocomplete("player")
    async def unblock_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The player's blocks, most recent first, those whose name holds what is typed."""
        blocked = await self.bot.storage.lobby.blocked(interaction.user.id)
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
        record = await self.bot.storage.games.get(button.game_id)
        venues = await self.bot.storage.games.venues(button.game_id)
        mine = next(
            (v for v in venues if record.player(v.side).user_id == interaction.user.id), None
        )
        if mine is None:
            raise UserError("Only the players of that game can answer.")
        theirs = next(v for v in venues if v.side != mine.side)
        if not button.accept:
            await interaction.response.edit_message(
                content=f"{interaction.user.mention} declined the rematch.", view=None
            )
            await self.bot.table.tell(
                theirs.channel_id,
                f"{plain_name(record.player(mine.side))} ({mine.guild_name}) declined the rematch.",
            )
            return
        await self.bot.lobby_desk.check_lobbies(venues)
        await interaction.response.edit_message(content="Rematch accepted.", view=None)
        await self.bot.lobby_desk.rematch(record, venues)
