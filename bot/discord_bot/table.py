"""Posting boards: one new message per move (old messages are never edited for days), with the
image rendered off the event loop and a text board where images may not be attached."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.storage import FinishedGame

from .hub import LiveGame
from .limits import CONTENT, clip
from .present import BoardImage, board_embed, render_board, text_board, whose_turn
from .views import finished_view, game_view

if TYPE_CHECKING:
    from .client import TaflBot

log = logging.getLogger(__name__)

Messageable = discord.abc.Messageable


async def resolve_channel(bot: TaflBot, channel_id: int) -> Messageable | None:
    """A channel or thread by id, from the cache or the API."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %d is gone", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


def can_attach(interaction: discord.Interaction | None, channel: object = None) -> bool:
    """Whether the bot may attach files and embed links where the board goes: the interaction's
    permissions, else the bot's permissions in ``channel`` (assume so when unknown)."""
    if interaction is not None:
        return interaction.app_permissions.attach_files and interaction.app_permissions.embed_links
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return True
    permissions: discord.Permissions = channel.permissions_for(me)
    return permissions.attach_files and permissions.embed_links


TEXT_NOTE = "*(I may not attach images here, so here is the board as text.)*"


def text_message(live: LiveGame, content_lines: list[str], flip: bool = False) -> str:
    """The whole board message as text, for channels where images may not be attached."""
    lines = "\n".join(content_lines)
    board = f"{text_board(live.game, flip)}\n{TEXT_NOTE}"
    return clip(lines, CONTENT - len(board) - 1) + "\n" + board


async def post_board(
    bot: TaflBot,
    live: LiveGame,
    lines: list[str],
    *,
    interaction: discord.Interaction | None = None,
    finished: FinishedGame | None = None,
    flip: bool = False,
    ephemeral: bool = False,
) -> discord.Message | None:
    """Send the board with ``lines`` as a new message: the interaction's reply if given, else a
    message in the game's channel. Returns the message when Discord reported it."""
    over = finished is not None
    content_lines = list(lines)
    if not over:
        content_lines.append(whose_turn(live))
    channel = None
    if interaction is None:
        channel = await resolve_channel(bot, live.record.channel_id)
        if channel is None:
            return None
    attach = can_attach(interaction, channel)
    image = await render_board(live, flip=flip) if attach else None
    view = finished_view(live.id) if over else game_view(live.id)
    text = text_message(live, content_lines, flip)
    embed: discord.Embed | None = None
    if image is not None:
        embed = board_embed(live, image, content_lines[:-1] if not over else content_lines)
        # The ping goes in the content: mentions inside embeds do not notify anyone.
        content = clip(content_lines[-1], CONTENT) if not over else None
    else:
        content = text
    message: discord.Message | None
    if interaction is not None:
        message = await _reply(interaction, content, embed, image, view, ephemeral)
    else:
        assert channel is not None
        try:
            if image is not None and embed is not None:
                message = await channel.send(content, embed=embed, file=image.file(), view=view)
            else:
                message = await channel.send(content, view=view)
        except discord.Forbidden:
            # The permissions changed under us: fall back to the text board.
            message = await channel.send(text, view=view)
    if message is not None and not ephemeral:
        previous = live.record.board_message_id
        await bot.storage.games.set_board_message(live.id, message.id)
        if over and previous:
            await _disable_old_buttons(bot, live, previous)
    return message


async def _reply(
    interaction: discord.Interaction,
    content: str | None,
    embed: discord.Embed | None,
    image: BoardImage | None,
    view: discord.ui.View,
    ephemeral: bool,
) -> discord.Message | None:
    embeds = [] if embed is None else [embed]
    files = [] if image is None else [image.file()]
    if interaction.response.is_done():
        return await interaction.followup.send(
            content or "", embeds=embeds, files=files, view=view, ephemeral=ephemeral, wait=True
        )
    callback = await interaction.response.send_message(
        content, embeds=embeds, files=files, view=view, ephemeral=ephemeral
    )
    resource = callback.resource
    return resource if isinstance(resource, discord.Message) else None


async def _disable_old_buttons(bot: TaflBot, live: LiveGame, message_id: int) -> None:
    channel = await resolve_channel(bot, live.record.channel_id)
    if channel is None or not hasattr(channel, "get_partial_message"):
        return
    try:
        await channel.get_partial_message(message_id).edit(view=game_view(live.id, disabled=True))
    except discord.HTTPException as error:
        log.info("could not disable the buttons of message %d: %s", message_id, error)
