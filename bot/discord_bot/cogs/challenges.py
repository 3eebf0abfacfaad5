"""Starting games: /tafl challenge (with Accept/Decline/Cancel), /tafl play against the AI, and
rematches."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import LEVELS
from bot.engine import get_variant
from bot.storage import (
    Challenge,
    ChallengeClosed,
    ChannelBusy,
    GameRecord,
    NotAllowed,
    Participant,
    SideChoice,
)

from ..app.durations import NO_LIMIT_HINT, TIME_MAX_LENGTH, describe_duration, parse_move_time
from ..app.errors import UserError
from ..app.games import pick_sides, rematch_sides
from ..app.wording import ai_strength, plain_name, seconds_left
from ..choices import LEVEL_CHOICES, SIDE_CHOICES, VARIANT_CHOICES
from ..compose.board import Rematch
from ..limits import CONTENT, clip
from ..people import participant_of
from ..present import mention, whose_challenge
from ..venue import busy_message, can_open_threads, open_thread, thread_name, wants_thread
from ..views import ChallengeButton, challenge_view

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)

CHALLENGE_COOLDOWN_SECONDS = 20
"""Seconds between two challenges of one player (see ``seconds_since_last`` for which count)."""
SAME_OPPONENT_LIMIT = 3
"""Challenges to one member that one player may make in :data:`SAME_OPPONENT_WINDOW` seconds,
however they ended unless accepted."""
SAME_OPPONENT_WINDOW = 600


def side_choice(text: str) -> SideChoice:
    """The side option's value as storage's type (Discord only sends the listed choices)."""
    for choice in ("attackers", "defenders", "random"):
        if text == choice:
            return choice
    raise UserError(f"{text!r} is not a side: choose attackers, defenders or random.")


CLOSED = {
    "accepted": "This challenge was already accepted.",
    "declined": "This challenge was declined.",
    "cancelled": "This challenge was cancelled.",
    "expired": "This challenge expired. Ask for a new one with `/tafl challenge`.",
}


def answer_refused(error: ChallengeClosed | NotAllowed) -> UserError:
    """A private reply for an answer to a challenge that cannot be given."""
    if isinstance(error, ChallengeClosed):
        return UserError(CLOSED.get(error.status, "This challenge is no longer open."))
    text = str(error)
    return UserError(f"{text[:1].upper()}{text[1:]}.")


class Challenges(commands.Cog):
    """Challenges between members, games against the AI, rematches."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.expiry_seconds = bot.settings.challenge_expiry
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
        if opponent.id == interaction.user.id:
            raise UserError("You cannot challenge yourself. Try `/tafl play` against the AI.")
        if opponent.bot:
            raise UserError("Bots cannot accept challenges. Use `/tafl play` to play the AI.")
        channel_id = interaction.channel_id or 0
        settings = await self.bot.storage.settings.get(interaction.guild_id or 0)
        in_thread = wants_thread(self.bot, interaction, channel_id, settings)
        move_seconds = settings.default_move_seconds if time is None else parse_move_time(time)
        # The cooldown against challenge spam counts challenges actually posted, so a mistake
        # (yourself, a bot, a busy channel, a bad time) can be corrected at once; nor does it
        # count those declined or cancelled at once (see seconds_since_last).
        store = self.bot.storage.challenges
        since = await store.seconds_since_last(interaction.user.id)
        if since is not None and since < CHALLENGE_COOLDOWN_SECONDS:
            raise UserError(
                "Slow down: you can challenge again in "
                f"{seconds_left(CHALLENGE_COOLDOWN_SECONDS - since)} "
                f"(one challenge every {CHALLENGE_COOLDOWN_SECONDS} seconds)."
            )
        # Corrections and refusals are forgiven above, but each challenge notifies the person
        # challenged: one member is asked at most a few times in a row.
        asked = await store.made_to(interaction.user.id, opponent.id, SAME_OPPONENT_WINDOW)
        if len(asked) >= SAME_OPPONENT_LIMIT:
            wait = SAME_OPPONENT_WINDOW - asked[SAME_OPPONENT_LIMIT - 1]
            raise UserError(
                f"You have challenged {opponent.display_name} {SAME_OPPONENT_LIMIT} times in the "
                f"last {SAME_OPPONENT_WINDOW // 60} minutes; you can challenge them again in "
                f"{seconds_left(max(1, wait))}."
            )
        challenge = await store.create(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            challenger=participant_of(interaction.user),
            challenged=participant_of(opponent),
            variant=get_variant(variant).name,
            challenger_side=side_choice(side),
            move_seconds=move_seconds,
            expires_in=self.expiry_seconds,
        )
        title = get_variant(variant).title
        clock = f", {describe_duration(move_seconds)} per move" if move_seconds else ""
        if not move_seconds and settings.default_move_seconds:
            clock = ", no time limit"  # unlike the server's other challenges: say so
        side_text = "a random side" if side == "random" else f"the {side}"
        expires = int(challenge.expires_at.timestamp())
        where = " The game will have its own thread." if in_thread else ""
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
            await self.bot.storage.challenges.set_message(challenge.id, message.id)

    async def on_challenge_button(
        self, interaction: discord.Interaction, button: ChallengeButton
    ) -> None:
        """Accept (only the person challenged), decline, or cancel (only the challenger)."""
        try:
            await self._answer_challenge(interaction, button.challenge_id, button.action)
        except (ChallengeClosed, NotAllowed) as error:
            raise answer_refused(error) from None

    async def _answer_challenge(
        self, interaction: discord.Interaction, challenge_id: int, action: str
    ) -> None:
        store = self.bot.storage.challenges
        me = participant_of(interaction.user)
        if action == "decline":
            challenge = await store.decline(challenge_id, interaction.user.id)
            await interaction.response.edit_message(
                content=clip(
                    f"{interaction.user.mention} declined {whose_challenge(challenge, to=False)}.",
                    CONTENT,
                ),
                view=None,
            )
            return
        if action == "cancel":
            challenge = await store.cancel(challenge_id, interaction.user.id)
            await interaction.response.edit_message(
                content=clip(f"{whose_challenge(challenge)} was cancelled.", CONTENT), view=None
            )
            return
        challenge = await store.get(challenge_id)
        store.check_acceptable(challenge, me)  # before a thread is opened for its game
        settings = await self.bot.storage.settings.get(challenge.guild_id or 0)
        venue = challenge.channel_id
        thread = None
        if wants_thread(self.bot, interaction, challenge.channel_id, settings):
            thread = await self._game_thread(interaction, challenge, me)
            venue = thread.id
        choice = challenge.challenger_side
        if choice == "random":
            attackers, _ = pick_sides(challenge.challenger, me, "random")
            choice = "attackers" if attackers == challenge.challenger else "defenders"
        try:
            _, record = await store.accept(
                challenge_id, me, challenger_side=choice, channel_id=venue
            )
        except ChannelBusy as error:
            # Another game took the channel meanwhile (two challenges accepted at once): this
            # one goes to a thread of its own, as it would have a moment later.
            if thread is not None or not can_open_threads(interaction):
                raise UserError(busy_message(await self._busy_with(error), interaction)) from None
            thread = await self._game_thread(interaction, challenge, me)
            venue = thread.id
            _, record = await store.accept(
                challenge_id, me, challenger_side=choice, channel_id=venue
            )
        live = self.bot.hub.adopt(record)
        where = f" in {thread.mention}" if thread is not None else ""
        # The game exists now: post its board even if the challenge cannot be edited.
        try:
            await interaction.response.edit_message(
                content=f"{interaction.user.mention} accepted! Game #{record.id} begins{where}.",
                view=None,
            )
        finally:
            await self.bot.play.show(live, [f"**{live.game.variant.title}** begins."])

    @staticmethod
    async def _game_thread(
        interaction: discord.Interaction, challenge: Challenge, accepter: Participant
    ) -> discord.Thread:
        """A thread for an accepted challenge's game, opened from the challenge message."""
        title = get_variant(challenge.variant).title
        name = thread_name(plain_name(challenge.challenger), plain_name(accepter), title)
        return await open_thread(interaction, name, from_message=interaction.message)

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
        channel_id = interaction.channel_id or 0
        rules = get_variant(variant)
        me = participant_of(interaction.user)
        name = thread_name(plain_name(me), f"Tafl AI ({level})", rules.title)
        thread = None
        if interaction.guild_id is not None:
            settings = await self.bot.storage.settings.get(interaction.guild_id)
            if wants_thread(self.bot, interaction, channel_id, settings):
                thread = await open_thread(interaction, name)
                channel_id = thread.id
        elif (busy := self.bot.hub.get(channel_id)) is not None:
            raise UserError(busy_message(busy.id, interaction))
        ai = Participant.ai(LEVELS.index(level) + 1)
        attackers, defenders = pick_sides(me, ai, side)

        async def create(venue: int) -> GameRecord:
            return await self.bot.storage.games.create(
                guild_id=interaction.guild_id,
                channel_id=venue,
                variant=rules.name,
                attackers=attackers,
                defenders=defenders,
                rated=True,
            )

        try:
            record = await create(channel_id)
        except ChannelBusy as error:
            # A game this process had not seen took the channel: as for a game it knew of,
            # this one goes to a thread of its own where one can be opened.
            if thread is not None or not can_open_threads(interaction):
                raise UserError(busy_message(await self._busy_with(error), interaction)) from None
            await self._busy_with(error)  # and the unseen game is tracked from now on
            thread = await open_thread(interaction, name)
            record = await create(thread.id)
        live = self.bot.hub.adopt(record)
        strength = ai_strength(rules.name, level, rated=record.rated)
        unrated = "" if record.rated else ", unrated"
        lines = [f"**{rules.title}** against the AI ({strength}){unrated}."]
        if thread is None:
            await self.bot.play.open_game(live, lines, interaction)
            return
        await interaction.response.send_message(
            f"{interaction.user.mention}, your game against the AI ({level}) is in "
            f"{thread.mention}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.bot.play.open_game(live, lines, None)

    @app_commands.command(name="rematch", description="Play the last game of this channel again")
    async def rematch(self, interaction: discord.Interaction) -> None:
        """Rematch the channel's most recent finished game."""
        game_id = await self.bot.storage.games.last_finished_in_channel(interaction.channel_id or 0)
        if game_id is None:
            raise UserError("No finished game in this channel to rematch.")
        await self._rematch(interaction, game_id)

    async def on_rematch_button(self, interaction: discord.Interaction, button: Rematch) -> None:
        """The Rematch button under a finished game."""
        await self._rematch(interaction, button.game_id)

    async def _rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Offer the opponent a new game with the sides swapped (or, where the variant says so,
        the winner defending). Against the AI it starts at once; a person must accept."""
        old = await self.bot.storage.games.get(game_id)
        me = interaction.user.id
        if me not in (old.attackers.user_id, old.defenders.user_id):
            raise UserError("Only the players of that game can ask for a rematch.")
        if await self.bot.storage.tournaments.of_game(old.id) is not None:
            raise UserError(
                "Tournament games have no rematch: the event pairs your next game "
                "(`/tafl tournament pairings`)."
            )
        venues = await self.bot.storage.games.venues(old.id)
        if venues:  # played across two servers: asked, and played, in both
            await self.bot.lobby_desk.ask_rematch(interaction, old, venues)
            return
        if (busy := self.bot.hub.get(old.channel_id)) is not None:
            raise UserError(busy_message(busy.id, interaction))
        attackers, defenders = rematch_sides(old)
        sides = f"{mention(attackers)} attacks, {mention(defenders)} defends"
        if (attackers, defenders) == (old.attackers, old.defenders):
            # The players expect a swap: say why there is none.
            title = get_variant(old.variant).title
            sides += f" again: in {title} the winner takes the defenders (Linnaeus's law 12)"
        if not (attackers.is_ai or defenders.is_ai):
            await self._offer_rematch(interaction, old, attackers, defenders, sides)
            return
        try:
            record = await self.bot.storage.games.create(
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                variant=old.variant,
                attackers=attackers,
                defenders=defenders,
                move_seconds=old.move_seconds,
                # Not old.rated: that says whether the old game counted (one that ended before
                # both sides moved did not), and a rematch asks like any game; storage decides.
                rated=True,
            )
        except ChannelBusy as error:
            raise UserError(busy_message(await self._busy_with(error), interaction)) from None
        live = self.bot.hub.adopt(record)
        note = f"Rematch of game #{old.id}: {sides}."
        await self.bot.play.open_game(live, [note], interaction)

    async def _busy_with(self, busy: ChannelBusy) -> int:
        """The id of the game that makes a channel busy. It may be one this process lost track
        of (its start's answer was lost): it is tracked from now on, so its players can go on."""
        live = await self.bot.play.live_game(busy.channel_id)
        return busy.game_id or (live.id if live is not None else 0)

    async def _offer_rematch(
        self,
        interaction: discord.Interaction,
        old: GameRecord,
        attackers: Participant,
        defenders: Participant,
        sides: str,
    ) -> None:
        """Post the rematch as a challenge to the other player, with the sides fixed."""
        me = participant_of(interaction.user)
        opponent = defenders if attackers.user_id == me.user_id else attackers
        store = self.bot.storage.challenges
        # Not under the challenge cooldown (the players have just played each other), but one
        # open offer at a time, so the button cannot be used to spam the opponent.
        pending = await store.pending(old.channel_id)
        if any(c.challenger == me for c in pending):
            raise UserError("You have already offered a game here; wait for the answer.")
        if any(c.challenger == opponent and c.challenged == me for c in pending):
            # Both asked at once: one offer is enough, and theirs is waiting for this player.
            raise UserError(
                f"{mention(opponent)} has already asked you for a game here: accept it with "
                "the button on their offer."
            )
        challenge = await store.create(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            challenger=me,
            challenged=opponent,
            variant=old.variant,
            challenger_side="attackers" if attackers.user_id == me.user_id else "defenders",
            move_seconds=old.move_seconds,
            rated=True,  # as in _rematch: the old game's flag says whether it counted
            expires_in=self.expiry_seconds,
        )
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
            await store.set_message(challenge.id, message.id)


__all__ = ["Challenges"]
