"""Where a new game is played: the channel it was asked for, or a thread of its own.

A game gets its own thread when the server asks for a thread per game (``/tafl settings``), or
when its channel already has a game; inside a thread it is played in that thread.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.storage import ServerSettings

from .app.errors import UserError
from .limits import clip

if TYPE_CHECKING:
    from .client import TaflBot

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


def wants_thread(
    bot: TaflBot, interaction: discord.Interaction, channel_id: int, settings: ServerSettings
) -> bool:
    """Whether a game asked for in ``channel_id`` goes to a new thread; a :class:`UserError`
    when it can go nowhere (the channel is busy and no thread can be opened)."""
    busy = bot.hub.get(channel_id)
    in_thread = isinstance(interaction.channel, discord.Thread)
    if in_thread or not (settings.game_threads or busy):
        if busy is not None:
            raise UserError(busy_message(busy.id, interaction))
        return False
    if can_open_threads(interaction):
        return True
    if busy is not None:
        raise UserError(busy_message(busy.id, interaction))
    return False  # the server asks for threads, but this channel allows none: play here


def busy_message(game_id: int, interaction: discord.Interaction) -> str:
    """Why a game cannot start where ``interaction`` happened, and what to do instead: the
    words depend on the kind of channel it is (a thread, a text channel the bot may or may not
    open threads in, a direct message)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return (
            f"This thread already has a game (#{game_id}). Finish it, or start yours in the "
            "channel: the bot opens a thread for it."
        )
    if isinstance(channel, discord.DMChannel) or interaction.guild_id is None:
        return f"This conversation already has a game (#{game_id}): finish it first."
    if can_open_threads(interaction):
        return (
            f"This channel already has a game (#{game_id}). Finish it, or start yours with "
            "`/tafl challenge` or `/tafl play`: the bot opens a thread for it."
        )
    return (
        f"This channel already has a game (#{game_id}), and I may not open a thread here for "
        "yours (I need the Create Public Threads permission). Play in another channel, or ask "
        "a moderator to let me open threads."
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
