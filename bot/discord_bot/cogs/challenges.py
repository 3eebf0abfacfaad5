"""Starting games: /tafl challenge (with Accept/Decline/Cancel), /tafl play against the AI, and
rematches. The rules are in :mod:`..app.challenges`; this cog shows what they decide."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import get_variant

from ..app.challenges import (
    ChallengeService,
    NewThread,
    OpenThread,
    RematchAcross,
    RematchOffered,
    RematchStarted,
)
from ..app.durations import NO_LIMIT_HINT, TIME_MAX_LENGTH, describe_duration
from ..app.wording import ai_strength, plain_name
from ..choices import LEVEL_CHOICES, SIDE_CHOICES, VARIANT_CHOICES
from ..compose.board import Rematch
from ..limits import CONTENT, clip
from ..people import participant_of
from ..present import mention, whose_challenge
from ..venue import open_thread, thread_name, where_of
from ..views import ChallengeButton, challenge_view

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)


def thread_opener(
    interaction: discord.Interaction, *, from_message: discord.Message | None = None
) -> OpenThread:
    """Opens the thread a new game asks for, named after its players and rules: from
    ``from_message`` (a challenge), else in the interaction's channel."""

    async def opener(new: NewThread) -> int:
        name = thread_name(
            plain_name(new.first), plain_name(new.second), get_variant(new.variant).title
        )
        thread = await open_thread(interaction, name, from_message=from_message)
        return thread.id

    return opener


class Challenges(commands.Cog):
    """Challenges between members, games against the AI, rematches."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.challenges: ChallengeService = bot.challenges
        bot.clicks.register(ChallengeButton, self.on_challenge_button)
        bot.table.on(Rematch, self.on_rematch_button)

    @app_commands.command(name="challenge", description="Challenge a member to a game of tafl")
    @app_commands.describe(
        opponent="Who you want to play",
        variant="Which rules (Tablut by default)",
        side="Which side you take",
        time=f"Time per move, like 10m, 24h or 3d; {NO_LIMIT_HINT} (else the server's default)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, side=SIDE_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        variant: str = "tablut",
        side: str = "random",
        time: app_commands.Range[str, 1, TIME_MAX_LENGTH] | None = None,
    ) -> None:
        """Post a challenge that only the opponent can accept."""
        posted = await self.challenges.challenge(
            where_of(interaction),
            participant_of(interaction.user),
            participant_of(opponent),
            opponent_is_bot=opponent.bot,
            variant=variant,
            side=side,
            time=time,
        )
        challenge = posted.challenge
        title = get_variant(challenge.variant).title
        move_seconds = challenge.move_seconds
        clock = f", {describe_duration(move_seconds)} per move" if move_seconds else ""
        if not move_seconds and posted.server_default_seconds:
            clock = ", no time limit"  # unlike the server's other challenges: say so
        chosen = challenge.challenger_side
        side_text = "a random side" if chosen == "random" else f"the {chosen}"
        expires = int(challenge.expires_at.timestamp())
        where = " The game will have its own thread." if posted.in_thread else ""
        callback = await interaction.response.send_message(
            clip(
                f"{opponent.mention}, {interaction.user.mention} challenges you to **{title}**"
                f"{clock}, taking {side_text}.{where} The challenge expires <t:{expires}:R>.",
                CONTENT,
            ),
            view=challenge_view(challenge.id),
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )
        message = getattr(callback, "resource", None)
        if isinstance(message, discord.Message):
            await self.challenges.shown(challenge.id, message.id)

    async def on_challenge_button(
        self, interaction: discord.Interaction, button: ChallengeButton
    ) -> None:
        """Accept (only the person challenged), decline, or cancel (only the challenger)."""
        challenge_id, user = button.challenge_id, interaction.user
        if button.action == "decline":
            challenge = await self.challenges.decline(challenge_id, user.id)
            await interaction.response.edit_message(
                content=clip(
                    f"{user.mention} declined {whose_challenge(challenge, to=False)}.", CONTENT
                ),
                view=None,
            )
            return
        if button.action == "cancel":
            challenge = await self.challenges.cancel(challenge_id, user.id)
            await interaction.response.edit_message(
                content=clip(f"{whose_challenge(challenge)} was cancelled.", CONTENT), view=None
            )
            return
        accepted = await self.challenges.accept(
            challenge_id,
            participant_of(user),
            where_of(interaction),
            thread_opener(interaction, from_message=interaction.message),
        )
        live = accepted.live
        where = "" if accepted.thread_id is None else f" in <#{accepted.thread_id}>"
        # The game exists now: post its board even if the challenge cannot be edited.
        try:
            await interaction.response.edit_message(
                content=f"{user.mention} accepted! Game #{live.id} begins{where}.", view=None
            )
        finally:
            await self.bot.play.show(live, [f"**{live.game.variant.title}** begins."])

    @app_commands.command(name="play", description="Play against the bot's AI")
    @app_commands.describe(variant="Which rules", side="Which side you take", level="How strong")
    @app_commands.choices(variant=VARIANT_CHOICES, side=SIDE_CHOICES, level=LEVEL_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction,
        variant: str = "tablut",
        side: str = "random",
        level: str = "medium",
    ) -> None:
        """Start a game against the AI in this channel."""
        started = await self.challenges.play_ai(
            where_of(interaction),
            participant_of(interaction.user),
            thread_opener(interaction),
            variant=variant,
            side=side,
            level=level,
        )
        live = started.live
        rules = live.game.variant
        strength = ai_strength(rules.name, level, rated=live.record.rated)
        unrated = "" if live.record.rated else ", unrated"
        lines = [f"**{rules.title}** against the AI ({strength}){unrated}."]
        if started.thread_id is None:
            await self.bot.play.open_game(live, lines, interaction)
            return
        await interaction.response.send_message(
            f"{interaction.user.mention}, your game against the AI ({level}) is in "
            f"<#{started.thread_id}>.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.bot.play.open_game(live, lines, None)

    @app_commands.command(name="rematch", description="Play the last game of this channel again")
    async def rematch(self, interaction: discord.Interaction) -> None:
        """Rematch the channel's most recent finished game."""
        await self._rematch(interaction, None)

    async def on_rematch_button(self, interaction: discord.Interaction, button: Rematch) -> None:
        """The Rematch button under a finished game."""
        await self._rematch(interaction, button.game_id)

    async def _rematch(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """Offer the opponent a new game with the sides swapped (or, where the variant says so,
        the winner defending). Against the AI it starts at once; a person must accept."""
        rematch = await self.challenges.rematch(
            where_of(interaction), participant_of(interaction.user), game_id
        )
        if isinstance(rematch, RematchAcross):
            await self.bot.lobby_desk.ask_rematch(interaction, rematch.old, rematch.venues)
            return
        old = rematch.old
        sides = f"{mention(rematch.attackers)} attacks, {mention(rematch.defenders)} defends"
        if rematch.winner_defends_again:
            # The players expect a swap: say why there is none.
            title = get_variant(old.variant).title
            sides += f" again: in {title} the winner takes the defenders (Linnaeus's law 12)"
        if isinstance(rematch, RematchStarted):
            note = f"Rematch of game #{old.id}: {sides}."
            await self.bot.play.open_game(rematch.live, [note], interaction)
            return
        await self._offer_rematch(interaction, rematch, sides)

    async def _offer_rematch(
        self, interaction: discord.Interaction, offered: RematchOffered, sides: str
    ) -> None:
        """Post the rematch as a challenge to the other player, with the sides fixed."""
        old, challenge, opponent = offered.old, offered.challenge, offered.opponent
        expires = int(challenge.expires_at.timestamp())
        callback = await interaction.response.send_message(
            f"{mention(opponent)}, {interaction.user.mention} asks for a rematch of game "
            f"#{old.id} ({get_variant(old.variant).title}): {sides}. "
            f"The offer expires <t:{expires}:R>.",
            view=challenge_view(challenge.id),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent.user_id or 0)]),
        )
        message = getattr(callback, "resource", None)
        if isinstance(message, discord.Message):
            await self.challenges.shown(challenge.id, message.id)


__all__ = ["Challenges"]
