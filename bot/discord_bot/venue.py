"""Threads for new games on Discord: where an interaction happened (:func:`where_of`, for the
rules in :mod:`.app.challenges` of when a game gets a thread of its own), and opening them."""

from __future__ import annotations

import logging
from typing import Literal

import discord

from .app.challenges import Where
from .app.errors import UserError
from .limits import clip

log = logging.getLogger(__name__)

THREAD_NAME = 100
"""Discord's limit on a thread's name."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A week without messages before Discord hides the thread (correspondence games are slow)."""


def can_open_threads(interaction: discord.Interaction) -> bool:
    """Whether the bot may open public threads where the interaction happened."""
    permissions = interaction.app_permissions
    return (
        isinstance(interaction.channel, discord.TextChannel)
        and permissions.create_public_threads
        and permissions.send_messages_in_threads
    )


def where_of(interaction: discord.Interaction) -> Where:
    """Where an interaction happened, as the rules of a new game's place need it."""
    channel = interaction.channel
    kind: Literal["channel", "thread", "direct"] = "channel"
    if isinstance(channel, discord.Thread):
        kind = "thread"
    elif isinstance(channel, discord.DMChannel) or interaction.guild_id is None:
        kind = "direct"
    return Where(
        interaction.channel_id or 0, interaction.guild_id, kind, can_open_threads(interaction)
    )


def thread_name(first: str, second: str, variant_title: str) -> str:
    """A thread named after the players and the variant."""
    return clip(f"{first} vs {second} · {variant_title}", THREAD_NAME)


async def open_thread(
    interaction: discord.Interaction, name: str, *, from_message: discord.Message | None = None
) -> discord.Thread:
    """Open a public thread for a game: from ``from_message`` (a challenge) or in the channel."""
    try:
        if from_message is not None:
            return await from_message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserError("Games get their own thread only in text channels.")
        return await channel.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.Forbidden:
        raise UserError(
            "I may not open a thread here (I need the Create Public Threads permission)."
        ) from None
