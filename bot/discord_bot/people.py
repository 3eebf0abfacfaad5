"""People as Discord knows them and as storage keeps them."""

from __future__ import annotations

import discord

from bot.storage import Participant


def participant_of(user: discord.abc.User) -> Participant:
    """The storage participant for a Discord user."""
    return Participant.user(user.id, getattr(user, "display_name", None) or user.name)
