"""Posting boards: one new message per move (old messages are never edited for days), with the
image rendered off the event loop and a text board where images may not be attached."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import discord

from bot.engine import Side
from bot.render import DEFAULT_THEME, THEMES
from bot.storage import FinishedGame, Participant, PlayerPreferences

from .app.games import LiveGame
from .limits import CONTENT, clip
from .present import (
    BoardImage,
    board_embed,
    render_board,
    retired_board,
    text_board,
    whose_turn,
)
from .views import AI_ACTIONS, PEOPLE_ACTIONS, RATED_AI_ACTIONS, finished_view, game_view

if TYPE_CHECKING:
    from .client import TaflBot

log = logging.getLogger(__name__)

Messageable = discord.abc.Messageable
EDITABLE = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.PartialMessageable)
"""Where the bot's boards live and their messages can be edited by id."""


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

TOP_SIDE = Side.DEFENDERS
"""Boards are drawn with rank 1 at the bottom, as seen from the attackers' side of the table; the
defenders sit at the top, so a player who asks for boards turned to their side
(``/tafl preferences flip``) gets them turned around when they play the defenders."""


@dataclass(frozen=True)
class BoardLook:
    """How a board is drawn: the renderer's theme and whether it is turned around."""

    theme: str
    flip: bool


PLAIN = BoardLook(DEFAULT_THEME, False)
"""The look of a board drawn for nobody in particular."""

def board_viewer(live: LiveGame) -> Participant | None:
    """Whose preferences a board posted for the whole channel follows: the player to move (the
    one who must study it), else, when that is the AI, the person playing it."""
    for player in (live.to_move, live.participant(live.game.turn.other)):
        if not player.is_ai:
            return player
    return None


async def board_look(bot: TaflBot, live: LiveGame, user_id: int | None = None) -> BoardLook:
    """The look of the board for ``user_id`` (by default :func:`board_viewer`'s)."""
    if user_id is None:
        viewer = board_viewer(live)
        if viewer is None or viewer.user_id is None:
            return PLAIN
        user_id = viewer.user_id
    return await look_for(bot, user_id, live.side_of(user_id))


async def look_for(bot: TaflBot, user_id: int, side: Side | None) -> BoardLook:
    """How ``user_id`` wants boards drawn when they play ``side`` (``None``: not playing), for
    every board drawn for one person: a game's, a puzzle's, a review they asked for."""
    preferences = await bot.storage.preferences.get(user_id)
    return BoardLook(theme_of(preferences), preferences.flip and side is TOP_SIDE)


def theme_of(preferences: PlayerPreferences) -> str:
    """The renderer's theme a player's boards are drawn in: the one they chose, while the
    renderer has it, else its default."""
    theme = preferences.theme
    return theme if theme is not None and theme in THEMES else DEFAULT_THEME


def text_message(live: LiveGame, content_lines: list[str], flip: bool = False) -> str:
    """The whole board message as text, for channels where images may not be attached."""
    lines = "\n".join(content_lines)
    board = f"{text_board(live.game, flip)}\n{TEXT_NOTE}"
    return clip(lines, CONTENT - len(board) - 1) + "\n" + board


def board_actions(live: LiveGame) -> tuple[str, ...]:
    """The buttons under a live board: against the AI there is nobody to offer a draw, and an
    unrated game lets a move be taken back at once instead."""
    if not live.against_ai:
        return PEOPLE_ACTIONS
    return RATED_AI_ACTIONS if live.record.rated else AI_ACTIONS


async def post_board(
    bot: TaflBot,
    live: LiveGame,
    lines: list[str],
    *,
    interaction: discord.Interaction | None = None,
    finished: FinishedGame | None = None,
    flip: bool = False,
    ping: bool = True,
) -> discord.Message | None:
    """Send the board with ``lines`` as a new message: the interaction's reply if given, else a
    message in the game's channel. Returns the message when Discord reported it.

    The new board is the game's only live one: the previous board of the game loses its buttons
    (one edit), and a game's first board takes the Rematch button off the channel's last final
    board. ``ping`` mentions the player to move with a notification; without it (a board asked
    for by anyone) the mention is only a name. The board is drawn in the theme and orientation
    the player to move prefers (see :func:`board_look`); ``flip`` turns it around from that.
    """
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
    look = await board_look(bot, live)
    flip = flip != look.flip
    image = await render_board(live, flip=flip, theme=look.theme) if attach else None
    view = finished_view(live.id) if over else game_view(live.id, board_actions(live))
    text = text_message(live, content_lines, flip)
    embed: discord.Embed | None = None
    if image is not None:
        embed = board_embed(live, image, content_lines[:-1] if not over else content_lines)
        # The ping goes in the content: mentions inside embeds do not notify anyone.
        content = clip(content_lines[-1], CONTENT) if not over else None
    else:
        content = text
    mentions = PING if ping and not over else NO_PING
    message: discord.Message | None
    if interaction is not None:
        message = await _reply(interaction, content, embed, image, view, mentions)
    else:
        assert channel is not None
        try:
            if image is not None and embed is not None:
                message = await channel.send(
                    content, embed=embed, file=image.file(), view=view, allowed_mentions=mentions
                )
            else:
                message = await channel.send(content, view=view, allowed_mentions=mentions)
        except discord.Forbidden:
            # The permissions changed under us: fall back to the text board.
            message = await channel.send(text, view=view, allowed_mentions=mentions)
    if message is not None:
        previous, shown = live.record.board_message_id, live.record.board_ply
        await bot.storage.games.set_board_message(live.id, message.id, live.game.ply)
        live.record = replace(live.record, board_message_id=message.id, board_ply=live.game.ply)
        if previous is not None and previous != message.id:
            # Its words no longer call on anyone to move: they say which position it shows.
            retired = retired_board(live, shown, with_board=not attach)
            await strip_controls(bot, live.record.channel_id, previous, retired)
        elif previous is None:
            await _retire_last_final_board(bot, live)
    return message


PING = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)
"""Mentions that notify: only the player who must act."""
NO_PING = discord.AllowedMentions.none()
"""Mentions shown as names, notifying nobody."""


async def _reply(
    interaction: discord.Interaction,
    content: str | None,
    embed: discord.Embed | None,
    image: BoardImage | None,
    view: discord.ui.View,
    mentions: discord.AllowedMentions,
) -> discord.Message | None:
    embeds = [] if embed is None else [embed]
    files = [] if image is None else [image.file()]
    if interaction.response.is_done():
        return await interaction.followup.send(
            content or "", embeds=embeds, files=files, view=view, allowed_mentions=mentions,
            wait=True,
        )
    callback = await interaction.response.send_message(
        content, embeds=embeds, files=files, view=view, allowed_mentions=mentions
    )
    resource = callback.resource
    return resource if isinstance(resource, discord.Message) else None


async def strip_controls(
    bot: TaflBot, channel_id: int, message_id: int, content: str | None = None
) -> None:
    """Take every button and menu off a message (one edit), optionally replacing its text.

    A message that is gone or cannot be edited is only logged: it is not worth failing a move.
    """
    await replace_controls(bot, channel_id, message_id, None, content)


async def replace_controls(
    bot: TaflBot,
    channel_id: int,
    message_id: int,
    view: discord.ui.View | None,
    content: str | None = None,
) -> None:
    """Put ``view`` (``None``: nothing) in place of a message's buttons and menus, optionally
    replacing its text, in one edit; a message that is gone or cannot be edited is only logged."""
    channel = await resolve_channel(bot, channel_id)
    if not isinstance(channel, EDITABLE):
        return
    message = channel.get_partial_message(message_id)
    try:
        if content is None:
            await message.edit(view=view)
        else:
            await message.edit(content=clip(content, CONTENT), view=view)
    except discord.HTTPException as error:
        log.info("could not change the controls of message %d: %s", message_id, error)


async def _retire_last_final_board(bot: TaflBot, live: LiveGame) -> None:
    """A new game in a channel makes the Rematch button of the one before it pointless."""
    games = bot.storage.games
    last = await games.last_finished_in_channel(live.record.channel_id)
    if last is None or last == live.id:
        return
    record = await games.get(last)
    if record.board_message_id is not None:
        await strip_controls(bot, record.channel_id, record.board_message_id)


