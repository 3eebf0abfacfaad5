"""Starting games: /tafl challenge (with Accept/Decline/Cancel), /tafl play against the AI, and
rematches. The rules are in :mod:`..app.challenges`, the words in :mod:`..compose.challenges`;
this cog reads the interactions, asks the service and hands what is composed to the table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import GameRecord, Venue

from ...i18n.language import Language
from ..app.challenges import (
    ChallengeService,
    NewThread,
    OpenThread,
    RematchAcross,
    RematchStarted,
)
from ..app.durations import TIME_MAX_LENGTH
from ..app.games import LiveGame
from ..compose import challenges as compose
from ..compose.board import Rematch
from ..compose.challenges import ChallengeAnswer
from ..compose.help import VARIANTS
from ..compose.inputs import input_words
from ..table import Table, choices, open_thread, participant_of, where_of

Show = Callable[[LiveGame, Sequence[str]], Awaitable[None]]
"""Post a new game's first board with its words (the playing cog's ``show``)."""
OpenGame = Callable[[LiveGame, Sequence[str], discord.Interaction | None], Awaitable[None]]
"""Post a new game's first board, as the answer to the interaction when given, with the AI's
first move when it moves first (the playing cog's ``open_game``)."""
AskRematch = Callable[[discord.Interaction, GameRecord, tuple[Venue, ...]], Awaitable[None]]
"""Ask for the rematch of a game played across two servers (the lobby's)."""

VARIANT_CHOICES = choices(VARIANTS)
SIDE_CHOICES = choices(compose.SIDES)
LEVEL_CHOICES = choices(compose.LEVELS)


def thread_opener(
    interaction: discord.Interaction, lang: Language, *, from_message: bool = False
) -> OpenThread:
    """Opens the thread a new game asks for, named after its players and rules (in ``lang``,
    the channel's): from the message clicked (``from_message``: a challenge), else in the
    interaction's channel."""

    async def opener(new: NewThread) -> int:
        name = compose.thread_name(new, lang=lang)
        return await open_thread(interaction, name, from_message=from_message)

    return opener


class Challenges(commands.Cog):
    """Challenges between members, games against the AI, rematches."""

    def __init__(
        self,
        challenges: ChallengeService,
        table: Table,
        *,
        show: Show,
        open_game: OpenGame,
        ask_rematch: AskRematch,
    ) -> None:
        self.challenges = challenges
        self.table = table
        self._show = show
        self._open_game = open_game
        self._ask_rematch = ask_rematch
        table.on(ChallengeAnswer, self.on_challenge_button)
        table.on(Rematch, self.on_rematch_button)

    @app_commands.command(name="challenge", description="Challenge a member to a game of tafl")
    @app_commands.describe(
        opponent="Who you want to play",
        variant="Which rules (Tablut by default)",
        side="Which side you take",
        time=compose.TIME_OPTION,
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
            words=input_words(self.table.reader(interaction)),
        )
        # Posted in the channel, for the person challenged: in the channel's language.
        lang = await self.table.interaction_language(interaction)
        sent = await self.table.deliver(interaction, compose.challenge_posted(posted, lang=lang))
        if sent:
            await self.challenges.shown(posted.challenge.id, sent[0])

    async def on_challenge_button(
        self, interaction: discord.Interaction, button: ChallengeAnswer
    ) -> None:
        """Accept (only the person challenged), decline, or cancel (only the challenger)."""
        challenge_id, user = button.challenge_id, interaction.user
        # The challenge's message is the channel's: its edits are in the channel's language.
        lang = await self.table.interaction_language(interaction)
        if button.action == "decline":
            challenge = await self.challenges.decline(challenge_id, user.id)
            await self.table.deliver(interaction, compose.declined(challenge, user.id, lang=lang))
            return
        if button.action == "cancel":
            challenge = await self.challenges.cancel(challenge_id, user.id)
            await self.table.deliver(interaction, compose.cancelled(challenge, lang=lang))
            return
        accepted = await self.challenges.accept(
            challenge_id,
            participant_of(user),
            where_of(interaction),
            thread_opener(interaction, lang, from_message=True),
        )
        live = accepted.live
        # The game exists now: post its board even if the challenge cannot be edited.
        try:
            await self.table.deliver(
                interaction, compose.accepted(user.id, live.id, accepted.thread_id, lang=lang)
            )
        finally:
            await self._show(live, compose.game_begins(accepted.challenge.variant, lang=lang))

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
        lang = await self.table.interaction_language(interaction)
        started = await self.challenges.play_ai(
            where_of(interaction),
            participant_of(interaction.user),
            thread_opener(interaction, lang),
            variant=variant,
            side=side,
            level=level,
        )
        lines = compose.ai_game_begins(started, lang=lang)
        if started.thread_id is None:
            await self._open_game(started.live, lines, interaction)
            return
        await self.table.deliver(
            interaction, compose.ai_game_elsewhere(started, interaction.user.id, lang=lang)
        )
        await self._open_game(started.live, lines, None)

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
            await self._ask_rematch(interaction, rematch.old, rematch.venues)
            return
        lang = await self.table.interaction_language(interaction)
        if isinstance(rematch, RematchStarted):
            lines = compose.rematch_begins(rematch, lang=lang)
            await self._open_game(rematch.live, lines, interaction)
            return
        offer = compose.rematch_offered(rematch, interaction.user.id, lang=lang)
        sent = await self.table.deliver(interaction, offer)
        if sent:
            await self.challenges.shown(rematch.challenge.id, sent[0])


__all__ = ["Challenges"]
