"""The one place that turns any error into a reply: what people can fix (a service's
:class:`~bot.discord_bot.app.errors.UserError`, a storage error) in a sentence, a bug as a
generic answer and a logged traceback."""

from __future__ import annotations

import logging
import traceback

import discord
from discord import app_commands

from bot.storage import (
    ChannelBusy,
    Conflict,
    DatabaseBusy,
    DatabaseUnavailable,
    GameNotActive,
    NotFound,
    PositionChanged,
    StorageError,
)

from .app.errors import UserError
from .app.wording import seconds_left
from .limits import CONTENT, clip
from .timely import answer, expired

log = logging.getLogger(__name__)

GENERIC = "Something went wrong on our side; the game is safe. Please try again."
UNAVAILABLE = (
    "The bot cannot reach its game database right now. Please try again in a minute; if you had "
    "just moved, the board will then show whether your move counted."
)
BUSY = (
    "The bot is very busy right now and could not get to that in time. Please try again in a"
    " moment; if you had just moved, the board will then show whether your move counted."
)
CONFLICT = "That clashed with another action at the same moment and was undone; please try again."


def friendly_message(error: BaseException) -> str | None:
    """The reply for an expected error, or ``None`` for a bug (which must be logged)."""
    original = getattr(error, "original", error)
    if isinstance(original, UserError):
        return str(original)
    if isinstance(original, StorageError):
        return _storage_message(original)
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: you can do that again in {seconds_left(error.retry_after)}."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Tafl games are played in server channels and threads, not in direct messages."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use this here."
    return None


def _storage_message(error: StorageError) -> str:
    """Storage's errors in the players' words (their own text names internal ids)."""
    if isinstance(error, PositionChanged):
        return "The position changed before your action arrived (someone moved first); look again."
    if isinstance(error, GameNotActive):
        return "That game is over."
    if isinstance(error, NotFound):
        return "There is no such game or challenge."
    if isinstance(error, ChannelBusy):
        return "This channel already has a game; start a thread to play another."
    if isinstance(error, DatabaseBusy):
        return BUSY
    if isinstance(error, DatabaseUnavailable):
        return UNAVAILABLE
    if isinstance(error, Conflict):
        return CONFLICT
    return str(error)


async def report(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """Reply privately: the reason for expected errors, a generic line (and a log) for bugs."""
    message = friendly_message(error)
    original = getattr(error, "original", error)
    if expired(original):
        # The answer missed Discord's window (the event loop stalled past the watchdog): the
        # player has already seen "This interaction failed", and a second answer to the same
        # token would fail too.
        log.warning("%s answered too late for Discord (the interaction had expired)", where)
        return
    if message is None:
        log.error("%s failed:\n%s", where, "".join(traceback.format_exception(original)))
        message = GENERIC
    elif isinstance(original, DatabaseBusy):
        log.warning("%s refused: %s", where, original)
    elif isinstance(original, DatabaseUnavailable):
        # An outage, not a bug: the storage logs it once, when it starts and when it ends.
        log.debug("%s refused: %s", where, original)
    await reply_private(interaction, message)


async def reply_private(interaction: discord.Interaction, message: str) -> None:
    """Answer only the person who acted, whether or not the interaction was answered yet."""
    message = clip(message, CONTENT)
    # A reply may name a player with a mention (shown as their name); it must notify nobody.
    quiet = discord.AllowedMentions.none()
    try:
        await answer(interaction, message, ephemeral=True, allowed_mentions=quiet)
    except discord.HTTPException:
        log.warning("could not deliver a reply: %s", message)
