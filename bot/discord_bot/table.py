"""The Discord edge: what the composition built (:mod:`.compose`), sent; every click and command
answered in time, its errors told privately.

- **Sending.** A :class:`~.compose.post.Post` becomes discord.py's objects (an embed from its
  card, components from its controls, a rendered picture (drawn in a worker thread, never on
  the event loop), allowed mentions from its pings), and each delivery is carried out: the
  interaction's answer or follow-up, an edit of the message clicked, a channel message (the text
  board where images may not be attached), an edit of an older message, a direct message. A
  game's board is recorded through the games service once sent (never storage directly) and
  the board it replaces retired.
- **Controls.** Clicks are read back from their custom ids alone (after a restart too) by
  discord.py's dynamic items, one class per kind of control (:meth:`Table.on`), and handed to
  the handler an adapter registered for that kind. Components are sent as plain data: the views
  are stopped before sending, so discord.py keeps no state for them.
- **Answering in time.** Each command and click is noted while it runs (a shutdown lets it
  finish) and watched: one not answered :data:`ACKNOWLEDGE_SECONDS` after it arrived is
  acknowledged at once, and answers given later become what Discord accepts then
  (:class:`TimelyResponse`).
- **Errors and limits.** Every error becomes a private reply (:meth:`Table.report`): what the
  person can fix in words, a bug as a generic sentence and a logged traceback; every text is
  fitted to Discord's limits (:func:`clip`, :func:`fit_embed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import re
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, TypedDict, TypeVar, Unpack, cast

import discord
from discord import app_commands
from discord.interactions import InteractionCallbackResponse, InteractionMessage
from discord.utils import MISSING

from bot.render import BoardView, CrosstableView, render_crosstable, render_gif, render_png
from bot.render.chart import render_eval_chart
from bot.storage import DatabaseBusy, DatabaseUnavailable, Participant, StorageError, Venue

from ..i18n.language import ENGLISH_LANGUAGE, Language, Languages
from .app.challenges import MayNotOpenThreads, NoThreadHere, Where
from .app.errors import Refused
from .app.games import GameHub
from .compose import errors as words
from .compose.board import retired_board
from .compose.post import (
    Animation,
    Answer,
    BoardPost,
    Button,
    Card,
    Changed,
    Chart,
    Choice,
    Control,
    Delivery,
    Direct,
    Edit,
    Image,
    LinkButton,
    Message,
    Notice,
    OfferPost,
    Option,
    Place,
    Post,
    Replay,
    Revise,
    Style,
    Tone,
    Update,
)

if TYPE_CHECKING:
    from discord.types.interactions import InteractionCallback

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------- Discord's limits
# Discord rejects a whole message (the player sees "This interaction failed") when one field is a
# character too long, so every text that can hold a person's input or a long list goes through
# clip (or fit_embed) before it is sent.

CONTENT = 2000
ATTACHMENT = 10 * 1024 * 1024
"""Bytes in one uploaded file (Discord's default limit)."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
SELECT_LABEL = 100
BUTTON_LABEL = 80
SELECT_DESCRIPTION = 100
CHOICE_NAME = 100
MAX_CHOICES = 25
"""Discord's limit of autocomplete choices."""
THREAD_NAME = 100
"""Discord's limit on a thread's name."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A week without messages before Discord hides a game's thread (correspondence games are
slow)."""

ELLIPSIS = "…"

GameNumber = app_commands.Range[int, 1, 2**53]
"""A game number option: Discord's app refuses 0, negative numbers and integers beyond what
its own integer options can carry, before the command is sent."""


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending with "…" when something was cut.

    An unclosed code block (a board or a move list cut short) is closed again so the rest of the
    message does not turn into code.
    """
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS) + 4:
        return text[:limit]
    fence = "\n```"
    cut = text[: limit - len(ELLIPSIS)] + ELLIPSIS
    if cut.count("```") % 2 == 1:
        cut = text[: limit - len(ELLIPSIS) - len(fence)] + ELLIPSIS + fence
    return cut


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every text of ``embed`` to its own limit, then the description to the total limit."""
    if embed.title:
        embed.title = clip(embed.title, EMBED_TITLE)
    for index, field in enumerate(embed.fields):
        embed.set_field_at(
            index,
            name=clip(field.name or "\u200b", EMBED_FIELD_NAME),
            value=clip(field.value or "\u200b", EMBED_FIELD_VALUE),
            inline=bool(field.inline),
        )
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, EMBED_FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(
            name=clip(embed.author.name, EMBED_AUTHOR),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    if embed.description:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
        room = EMBED_TOTAL - (len(embed) - len(embed.description))
        embed.description = clip(embed.description, max(room, 0))
    return embed


# ---------------------------------------------------------------------------- posts as Discord's

COLOURS: dict[Tone, discord.Colour | None] = {
    Tone.ATTACKERS: discord.Colour.dark_grey(),
    Tone.DEFENDERS: discord.Colour.light_grey(),
    Tone.NEUTRAL: discord.Colour.blurple(),
    Tone.CALLED_OFF: discord.Colour.light_grey(),
    Tone.EVENT: discord.Colour.gold(),
    Tone.PLAIN: None,
}
STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
PING = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)
"""Mentions that notify: whoever the content mentions (the player who must act)."""
NO_PING = discord.AllowedMentions.none()
"""Mentions shown as names, notifying nobody."""


def embed_of(card: Card, picture: str | None = None) -> discord.Embed:
    """A card as an embed, fitted to Discord's limits; ``picture``: the attached image's file
    name, shown in it when the card asks for it."""
    embed = discord.Embed(title=card.title, description=card.description, colour=COLOURS[card.tone])
    for field in card.fields:
        embed.add_field(name=field.name, value=field.value, inline=field.inline)
    if card.picture and picture is not None:
        embed.set_image(url=f"attachment://{picture}")
    if card.footer is not None:
        embed.set_footer(text=card.footer)
    return fit_embed(embed)


def select_option(option: Option) -> discord.SelectOption:
    """One choice of a menu, fitted to Discord's limits."""
    return discord.SelectOption(
        label=clip(option.label, SELECT_LABEL),
        value=option.value,
        description=None
        if option.description is None
        else clip(option.description, SELECT_DESCRIPTION),
        emoji=option.emoji,
    )


def item_of(control: Control) -> discord.ui.Item[discord.ui.View]:
    """A control as discord.py's button or menu."""
    if isinstance(control, LinkButton):
        return discord.ui.Button(
            label=clip(control.label, BUTTON_LABEL), url=control.url, emoji=control.emoji
        )
    if isinstance(control, Button):
        return discord.ui.Button(
            label=control.label,
            style=STYLES[control.style],
            emoji=control.emoji,
            custom_id=control.custom_id,
            row=control.row,
        )
    return discord.ui.Select(
        custom_id=control.custom_id,
        placeholder=control.placeholder,
        options=[select_option(option) for option in control.options],
        row=control.row,
    )


def view_of(controls: Iterable[Control]) -> discord.ui.View:
    """The controls as components to send. The view is stopped at once: discord.py then keeps
    nothing for it (no timeout, no listener per message), and every click is read back from its
    custom id by the dynamic items (:meth:`Table.on`), after a restart as before it."""
    view = discord.ui.View(timeout=None)
    for control in controls:
        view.add_item(item_of(control))
    view.stop()
    return view


def mentions_of(post: Post) -> discord.AllowedMentions:
    """Who a post notifies: whoever its content mentions, the people it lists, or nobody."""
    if post.ping_mentioned:
        return PING
    if post.pings:
        return discord.AllowedMentions(users=[discord.Object(user) for user in post.pings])
    return NO_PING


def choices(suggestions: Iterable[Choice]) -> list[app_commands.Choice[str]]:
    """Autocomplete suggestions as Discord takes them (at most 25, each name clipped)."""
    return [
        app_commands.Choice(name=clip(choice.name, CHOICE_NAME), value=choice.value)
        for choice in list(suggestions)[:MAX_CHOICES]
    ]


def participant_of(user: discord.abc.User) -> Participant:
    """The storage participant for a Discord user."""
    return Participant.user(user.id, getattr(user, "display_name", None) or user.name)


def text_of(post: Post) -> str:
    """A post with a board as text, for a channel where images may not be attached: its card's
    words and its content, then the board (what does not fit is cut from the words)."""
    lines = "\n".join(
        part for part in (post.card.description if post.card else None, post.content) if part
    )
    board = post.text_board or ""
    return clip(lines, CONTENT - len(board) - 1) + "\n" + board


async def render(picture: Image) -> discord.File:
    """The picture drawn, in a worker thread (never on the event loop), as a file to attach."""
    if isinstance(picture, Chart):
        data = await asyncio.to_thread(
            render_eval_chart, picture.analysis, theme=picture.theme, words=picture.words
        )
        return discord.File(io.BytesIO(data), filename=picture.filename)
    view = picture.view
    if isinstance(view, CrosstableView):
        data = await asyncio.to_thread(render_crosstable, view)
    else:
        data = await asyncio.to_thread(render_png, view, flip=picture.flip, theme=picture.theme)
    return discord.File(
        io.BytesIO(data), filename=picture.filename, description=picture.description
    )


async def animate(animation: Animation, limit: int = ATTACHMENT) -> tuple[bytes, int] | None:
    """The animation drawn as a GIF in a worker thread, at the first of its widths whose file
    fits in ``limit`` bytes, with the index of that width; ``None`` if it never does."""
    for index, width in enumerate(animation.widths):
        data = await asyncio.to_thread(render_gif, list(animation.views), width=width)
        if len(data) <= limit:
            return data, index
    return None


def images_of(post: Post, attach: bool = True) -> list[Image]:
    """A post's images to attach: its picture, then its other images; an optional picture only
    where images may be attached (``attach``)."""
    picture = post.picture
    if picture is not None and not attach and picture.optional:
        picture = None
    return [image for image in (picture, *post.pictures) if image is not None]


async def files_of(post: Post, attach: bool = True) -> list[discord.File]:
    """A post's attachments: its files as they are, then its images rendered."""
    files = [discord.File(io.BytesIO(f.data), filename=f.filename) for f in post.files]
    for image in images_of(post, attach):
        files.append(await render(image))
    return files


def shown_image(post: Post, attach: bool = True) -> str | None:
    """The file name of the image a post's card shows: its picture, else its first image."""
    images = images_of(post, attach)
    return images[0].filename if images else None


# ---------------------------------------------------------------------------- channels

Messageable = discord.abc.Messageable
EDITABLE = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.PartialMessageable)
"""Where the bot's messages live and can be edited by id."""
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001


async def resolve_channel(
    client: discord.Client, channel_id: int, guild_id: int | None = None
) -> Messageable | None:
    """A channel or thread by id, from the cache or the API. In a server another process serves
    (``guild_id``, the venue of a game across servers), a handle that only sends and edits:
    this process must not take the server into its cache."""
    if guild_id is not None and client.get_guild(guild_id) is None:
        return client.get_partial_messageable(channel_id, guild_id=guild_id)
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %d is gone", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


def can_attach(interaction: discord.Interaction | None, channel: object = None) -> bool:
    """Whether the bot may attach files and embed links where a message goes: the interaction's
    permissions, else the bot's permissions in ``channel`` (assume so when unknown)."""
    if interaction is not None:
        return interaction.app_permissions.attach_files and interaction.app_permissions.embed_links
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return True
    permissions: discord.Permissions = channel.permissions_for(me)
    return permissions.attach_files and permissions.embed_links


PUBLIC_THREAD: Literal[11] = 11
"""Discord's channel type of a public thread."""


async def start_thread(client: discord.Client, channel_id: int, name: str, reason: str) -> int:
    """Open a public thread for a game in ``channel_id`` (from any process: Discord's API takes
    any channel); its id. Discord's refusal is raised as it comes."""
    data = await client.http.start_thread_without_message(
        channel_id,
        name=clip(name, THREAD_NAME),
        auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        type=PUBLIC_THREAD,
        reason=reason,
    )
    return int(data["id"])


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


async def open_thread(
    interaction: discord.Interaction, name: str, *, from_message: bool = False
) -> int:
    """Open a public thread for a new game, named ``name`` (fitted to Discord's limit): from
    the message clicked (``from_message``: a challenge) or in the interaction's channel.
    Returns its id; refused where no thread can be opened."""
    name = clip(name, THREAD_NAME)
    try:
        if from_message and interaction.message is not None:
            thread = await interaction.message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            return thread.id
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise Refused(NoThreadHere())
        thread = await channel.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
        return thread.id
    except discord.Forbidden:
        raise Refused(MayNotOpenThreads()) from None


def venue_lost(error: discord.HTTPException) -> bool:
    """Whether an error posting in a venue means it is gone for good: the channel deleted
    (Unknown Channel) or out of the bot's reach (Missing Access: the bot was removed or may no
    longer see it)."""
    return error.code in (UNKNOWN_CHANNEL, MISSING_ACCESS)


# ---------------------------------------------------------------------------- answering in time
# Discord fails an interaction ("This interaction failed") whose first response has not arrived
# within 3 s, and refuses every answer to it after that: a move committed while the database was
# slow would be announced to nobody. So each command and click is watched (watch): if it has not
# been answered ACKNOWLEDGE_SECONDS after it arrived, it is acknowledged at once (deferred), and
# its answer comes when its work is done (the interaction's token lasts 15 minutes).
#
# The handlers need not know. Each watched interaction's response is a TimelyResponse, which
# turns an answer given after the watchdog's acknowledgement into what Discord accepts then:
# - a click, acknowledged without a sign (its message will be updated): an edit of the message
#   clicked on edits it still, and a new message becomes a follow-up message;
# - a command, acknowledged with a public "thinking…" placeholder: its answer becomes a
#   follow-up message of its own, public or private as the handler chose and notifying whom it
#   mentions, and the placeholder goes. (Discord would make the first follow-up an edit of the
#   placeholder, which notifies nobody and cannot be made private: it is edited first.)
#
# Features not yet answering through the table answer through ``interaction.response``, so the
# watched interaction's response is replaced in discord.py's cache of it (the ``_cs_response``
# slot of discord.Interaction): the dependency is pinned to the releases tested with it (see
# pyproject.toml and tests/test_table.py).

ACKNOWLEDGE_SECONDS = 1.5
"""How long a command or click may go unanswered before the watchdog acknowledges it: well
inside Discord's 3 s, which also count the gateway's delivery and the acknowledgement's trip."""
PLACEHOLDER = "…"
"""What a command's "thinking" placeholder says for the moment before it is removed."""
EXPIRED = frozenset({10062, 10015, 50027})
"""Discord's codes for an interaction that can no longer be answered: Unknown Interaction (its
3 s passed unanswered), Unknown Webhook and Invalid Webhook Token (its 15 minutes passed)."""
RESPONSE_SLOT = "_cs_response"
"""Where discord.Interaction keeps its response once made (see above)."""
WATCHED = frozenset(
    {
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    }
)
"""The interactions that can be deferred (an autocomplete must answer with its choices)."""
ARRIVALS_KEPT = 1024
"""Arrival times kept of interactions not yet handled (see :meth:`Table.note_arrival`)."""


def expired(error: BaseException) -> bool:
    """Whether ``error`` says the interaction can no longer be answered (see :data:`EXPIRED`)."""
    return isinstance(error, discord.HTTPException) and error.code in EXPIRED


class TimelyResponse(discord.InteractionResponse):
    """The response of a watched interaction: discord.py's, plus :meth:`acknowledge` for the
    watchdog, and answers given after it acknowledged turned into ones Discord still accepts.

    Only one first response is ever sent: the handler's and the watchdog's take turns. Its
    overrides pass discord.py's keywords on as they come (``Any``: discord.py's methods are
    overloaded on them); the class goes once every feature answers through
    :meth:`Table.deliver`, which can then keep its own "acknowledged" flag."""

    __slots__ = ("_first", "_placeholder", "late")

    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self._first = asyncio.Lock()
        self.late = False
        """Whether the watchdog acknowledged the interaction before the handler answered."""
        self._placeholder = False
        """Whether a command's "thinking" placeholder still waits for its answer."""

    async def acknowledge(self) -> None:
        """Defer the interaction unless it has been answered: a command shows the bot
        thinking, a click shows nothing. A failure (too late already) is only logged: the
        handler's own answer then fails alike, and is dealt with where it is given."""
        async with self._first:
            if self.is_done():
                return
            command = self._parent.type is discord.InteractionType.application_command
            try:
                await super().defer(thinking=command)
            except discord.HTTPException as error:
                log.warning("could not acknowledge a slow interaction in time: %s", error)
                return
            self.late = True
            self._placeholder = command

    async def defer(
        self, *, ephemeral: bool = False, thinking: bool = False
    ) -> InteractionCallbackResponse | None:
        """discord.py's, or after the watchdog's acknowledgement the handler's answers made to
        come as it meant: a public placeholder is handed to the handler, and one that a private
        answer could only make public is removed (its follow-ups are then messages of their
        own: pass ``ephemeral=True`` to them)."""
        async with self._first:
            if not self.late:
                return await super().defer(ephemeral=ephemeral, thinking=thinking)
            if ephemeral:
                await self._remove_placeholder()
            self._placeholder = False  # the handler answers through it, as after its own defer
            return None

    async def send_message(
        self, content: Any | None = None, **options: Any
    ) -> InteractionCallbackResponse:
        """discord.py's, or after the watchdog's acknowledgement the same message as a
        follow-up (see the notes above)."""
        async with self._first:
            if not self.late:
                return await super().send_message(content, **options)
            return await self._follow_up(content, **options)

    async def edit_message(self, **options: Any) -> InteractionCallbackResponse | None:
        """discord.py's, or after the watchdog's acknowledgement of a click the same edit of
        the message clicked on."""
        async with self._first:
            if not self.late:
                return await super().edit_message(**options)
            options.pop("delete_after", None)
            options.pop("suppress_embeds", None)
            await self._parent.edit_original_response(**options)
            return None

    async def _follow_up(
        self, content: Any | None, *, ephemeral: bool = False, **options: Any
    ) -> InteractionCallbackResponse:
        parent = self._parent
        placeholder = self._placeholder
        if placeholder:
            # Discord makes the first follow-up an edit of the placeholder: end it first.
            await parent.edit_original_response(content=PLACEHOLDER)
        options.pop("delete_after", None)
        message = await parent.followup.send(
            content if content is not None else MISSING, ephemeral=ephemeral, wait=True, **options
        )
        if placeholder:
            await self._remove_placeholder(edited=True)
        # The follow-up stands for the message the callback would have made; callers read
        # its id (and ``message_id``) as they would the callback's.
        data: InteractionCallback = {
            "interaction": {
                "id": str(parent.id),
                "type": parent.type.value,
                "response_message_id": str(message.id),
                "response_message_ephemeral": ephemeral,
            }
        }
        callback = InteractionCallbackResponse(
            data=data,
            parent=parent,
            state=parent._state,
            type=discord.InteractionResponseType.channel_message,
        )
        callback.resource = cast(InteractionMessage, message)
        return callback

    async def _remove_placeholder(self, *, edited: bool = False) -> None:
        """Delete the "thinking" placeholder, if it is still there (after ending it: a
        follow-up then makes a message of its own). A failure only leaves it behind."""
        if not self._placeholder:
            return
        self._placeholder = False
        parent = self._parent
        try:
            if not edited:
                await parent.edit_original_response(content=PLACEHOLDER)
            await parent.delete_original_response()
        except discord.HTTPException as error:
            log.info("could not remove a thinking placeholder: %s", error)


def watch(
    interaction: discord.Interaction,
    after: float = ACKNOWLEDGE_SECONDS,
    *,
    since: float | None = None,
) -> Callable[[], None]:
    """Give ``interaction`` a :class:`TimelyResponse` and have it acknowledged if it is still
    unanswered ``after`` seconds from ``since`` (when it arrived, on the event loop's clock;
    by default now). Returns what stops the watch (call it once the handler is done: an
    interaction it left unanswered is not acknowledged for nothing)."""
    if interaction.type not in WATCHED:
        return _nothing
    response = getattr(interaction, RESPONSE_SLOT, None)  # discord.py's cache of .response
    if isinstance(response, TimelyResponse):
        return _nothing
    if response is not None and response.is_done():
        return _nothing
    response = TimelyResponse(interaction)
    setattr(interaction, RESPONSE_SLOT, response)
    loop = asyncio.get_running_loop()
    start = loop.time() if since is None else since
    handle = loop.call_at(start + after, _acknowledge, response)
    return handle.cancel


_acknowledging: set[asyncio.Task[None]] = set()


def _acknowledge(response: TimelyResponse) -> None:
    task = asyncio.create_task(response.acknowledge(), name="acknowledge-interaction")
    _acknowledging.add(task)
    task.add_done_callback(_acknowledging.discard)


def _nothing() -> None:
    return None


class Parts(TypedDict, total=False):
    """A message's parts besides its words and whom it is shown to, as discord.py's ways of
    sending take them."""

    embed: discord.Embed
    embeds: list[discord.Embed]
    files: list[discord.File]
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions


class Outgoing(TypedDict, total=False):
    """A whole message with one card at most, as a channel's ``send`` (or :func:`answer`)
    takes it."""

    content: str | None
    embed: discord.Embed
    files: list[discord.File]
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions


async def answer(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = False,
    **options: Unpack[Parts],
) -> discord.Message | None:
    """Send ``content`` as the interaction's answer, whatever has been done with it so far:
    its response, or after a deferral of the handler's own a follow-up (the first one fills
    the "thinking" placeholder). Returns the message when Discord reported it."""
    response = interaction.response
    if not response.is_done() or (isinstance(response, TimelyResponse) and response.late):
        callback = await response.send_message(content, ephemeral=ephemeral, **options)
        resource = callback.resource
        return resource if isinstance(resource, discord.Message) else None
    return await interaction.followup.send(
        content if content is not None else MISSING, wait=True, ephemeral=ephemeral, **options
    )


# ---------------------------------------------------------------------------- errors


def friendly_message(error: BaseException, lang: Language = ENGLISH_LANGUAGE) -> str | None:
    """The reply for an expected error, in ``lang``, or ``None`` for a bug (which must be
    logged)."""
    original = getattr(error, "original", error)
    if isinstance(original, Refused):
        return words.refusal_words(original.refusal, lang)
    if isinstance(original, StorageError):
        return words.storage_words(original, lang)
    if isinstance(error, app_commands.CommandOnCooldown):
        return words.slow_down(error.retry_after, lang)
    if isinstance(error, app_commands.NoPrivateMessage):
        return lang.gettext(words.NO_DIRECT_MESSAGES)
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or lang.gettext(words.NOT_HERE)
    return None


async def reply_private(interaction: discord.Interaction, message: str) -> None:
    """Answer only the person who acted, whether or not the interaction was answered yet."""
    message = clip(message, CONTENT)
    # A reply may name a player with a mention (shown as their name); it must notify nobody.
    try:
        await answer(interaction, message, ephemeral=True, allowed_mentions=NO_PING)
    except discord.HTTPException:
        log.warning("could not deliver a reply: %s", message)


async def report(
    interaction: discord.Interaction,
    error: BaseException,
    where: str,
    lang: Language = ENGLISH_LANGUAGE,
) -> None:
    """Reply privately, in ``lang`` (the reader's): the reason for expected errors, a generic
    line (and a log) for bugs."""
    message = friendly_message(error, lang)
    original = getattr(error, "original", error)
    if expired(original):
        # The answer missed Discord's window (the event loop stalled past the watchdog): the
        # player has already seen "This interaction failed", and a second answer to the same
        # token would fail too.
        log.warning("%s answered too late for Discord (the interaction had expired)", where)
        return
    if message is None:
        log.error("%s failed:\n%s", where, "".join(traceback.format_exception(original)))
        message = lang.gettext(words.GENERIC)
    elif isinstance(original, DatabaseBusy):
        log.warning("%s refused: %s", where, original)
    elif isinstance(original, DatabaseUnavailable):
        # An outage, not a bug: the storage logs it once, when it starts and when it ends.
        log.debug("%s refused: %s", where, original)
    await reply_private(interaction, message)


# ---------------------------------------------------------------------------- the table


class Readable(Protocol):
    """A kind of control of the composition: a dataclass whose custom ids match ``TEMPLATE``."""

    TEMPLATE: ClassVar[str]


Kind = TypeVar("Kind", bound=Readable)
Clicked = TypeVar("Clicked")
Handler = Callable[[discord.Interaction, Clicked], Awaitable[None]]
"""A cog's handler of clicks on one kind of control."""
Component = discord.ui.Item[discord.ui.View]
Clickable = discord.ui.DynamicItem[Component]
"""A control read back from its custom id (see :meth:`Table.on`)."""
TYPING_REFRESH = 8.0
"""Seconds between typing indicators while the AI thinks (Discord shows one for 10 s)."""


def read_match(kind: type[Kind], match: re.Match[str], values: Sequence[str] = ()) -> Kind:
    """The control of ``kind`` whose custom id gave ``match`` (its ``TEMPLATE``'s): the named
    groups are its fields (numbers read as such; an optional part left out keeps the field's
    default), and a menu's chosen ``values`` go in its ``values`` field."""
    types: dict[str, object] = inspect.get_annotations(kind)
    found: dict[str, object] = {
        name: int(text) if types.get(name) in (int, "int") else text
        for name, text in match.groupdict().items()
        if text is not None
    }
    if "values" in types:
        found["values"] = tuple(values)
    return kind(**found)


def read(kind: type[Kind], custom_id: str, values: Sequence[str] = ()) -> Kind | None:
    """The control of ``kind`` a custom id stands for (``None``: not one of that kind)."""
    match = re.fullmatch(kind.TEMPLATE, custom_id)
    return None if match is None else read_match(kind, match, values)


class Venues(Protocol):
    """What the table asks of the keeper of games across servers (the lobby)."""

    async def venue_gone(self, game_id: int, venue: Venue) -> None:
        """A venue's channel was found deleted (or out of reach) posting its board."""

    async def check_venue(self, game_id: int, venue: Venue) -> None:
        """A venue's channel could not be found: adjourn the game if it is really gone."""

    async def changed(self, game_id: int) -> None:
        """Tell the other processes that the game changed."""


class Table:
    """Sends what the composition built, records boards through the games service, and
    answers every command and click in time; see the module's notes."""

    def __init__(
        self,
        client: discord.Client,
        games: GameHub,
        venues: Venues,
        *,
        languages: Languages | None = None,
        server_language: Callable[[int], Awaitable[str | None]] | None = None,
        last_locale: Callable[[int], Awaitable[str | None]] | None = None,
    ) -> None:
        """``languages``: the shipped catalogues; ``server_language``: the language a server
        chose for its channels (the players service's); ``last_locale``: the locale a player
        last used (for what is sent to them later)."""
        self.client = client
        self.games = games
        self.venues = venues
        self.languages = languages or Languages()
        self._server_language = server_language
        self._last_locale = last_locale
        self.in_flight: set[asyncio.Task[object]] = set()
        """Tasks handling an interaction right now (see :meth:`track`)."""
        self._arrived: dict[int, float] = {}
        """When each interaction not yet handled arrived from the gateway (the loop's clock):
        the watchdog counts Discord's seconds from there, not from when its handler starts."""
        self._handlers: dict[type, Callable[..., Awaitable[None]]] = {}
        self._items: list[type[Clickable]] = []

    # ------------------------------------------------------------------ interactions

    def note_arrival(self, data: Mapping[str, object]) -> None:
        """Note when an interaction arrived from the gateway (before its handler runs)."""
        if len(self._arrived) >= ARRIVALS_KEPT:
            # Interactions never handled (none of the bot's) would pile up: drop the oldest.
            for stale in list(self._arrived)[: ARRIVALS_KEPT // 2]:
                del self._arrived[stale]
        with contextlib.suppress(KeyError, TypeError, ValueError):
            self._arrived[int(str(data["id"]))] = asyncio.get_running_loop().time()

    def track(self, interaction: discord.Interaction) -> None:
        """Note that the current task is handling ``interaction`` (a command or a click), so
        that a shutdown lets it finish, and have it acknowledged if the task has not answered
        it in time (:func:`watch`)."""
        task = asyncio.current_task()
        if task is not None and task not in self.in_flight:
            self.in_flight.add(task)
            task.add_done_callback(self.in_flight.discard)
            stop_watching = watch(interaction, since=self._arrived.pop(interaction.id, None))
            task.add_done_callback(lambda _: stop_watching())

    async def report(
        self, interaction: discord.Interaction, error: BaseException, where: str
    ) -> None:
        """The error funnel, in the reader's language: see :func:`report`."""
        await report(interaction, error, where, self.reader(interaction))

    # ------------------------------------------------------------------ languages

    def reader(self, interaction: discord.Interaction) -> Language:
        """The language of what only the person who acted reads (a private answer, their
        puzzle): their Discord client's."""
        return self.languages.for_reader(interaction.locale.value)

    async def channel_language(
        self, guild_id: int | None, guild_locale: str | None = None
    ) -> Language:
        """The language of what a server's channels read (boards, announcements, tournament
        posts): the one the server chose (``/tafl settings language``), else the server's
        own Discord language (``guild_locale``, or the cached server's); English in a direct
        message."""
        if guild_id is None:
            return self.languages.for_channel(None, None)
        chosen = None
        if self._server_language is not None:
            try:
                chosen = await self._server_language(guild_id)
            except StorageError as error:  # the words matter less than the answer
                # An outage is logged once, as a warning, where it starts (the storage);
                # each answer it touches meanwhile is a detail.
                log.debug("could not read the language of server %d: %s", guild_id, error)
        if guild_locale is None:
            guild = self.client.get_guild(guild_id)
            guild_locale = None if guild is None else guild.preferred_locale.value
        return self.languages.for_channel(chosen, guild_locale)

    async def interaction_language(self, interaction: discord.Interaction) -> Language:
        """The language of what the channel of an interaction reads (see
        :meth:`channel_language`)."""
        locale = interaction.guild_locale
        return await self.channel_language(
            interaction.guild_id, None if locale is None else locale.value
        )

    async def player_language(self, user_id: int) -> Language:
        """The language of what is sent to a player later, on no interaction of theirs (a
        reminder, a direct message): the one their client last reported."""
        locale = None
        if self._last_locale is not None:
            try:
                locale = await self._last_locale(user_id)
            except StorageError as error:  # an outage is logged once, where it starts
                log.debug("could not read the locale of user %d: %s", user_id, error)
        return self.languages.for_reader(locale)

    # ------------------------------------------------------------------ controls

    def on(self, kind: type[Kind], handler: Handler[Kind]) -> None:
        """Let ``handler`` answer clicks on controls of ``kind`` (a dataclass of the
        composition with a ``TEMPLATE`` its custom ids match; its fields are read back from
        them, and a menu's chosen values go in its ``values`` field)."""
        pattern = re.compile(kind.TEMPLATE)
        table = self

        class Persistent(Clickable, template=pattern):
            """A click on a control of ``kind``, read back from its custom id."""

            def __init__(self, item: Component, match: re.Match[str]) -> None:
                super().__init__(item)
                self.match = match
                self.ident = read_match(kind, match)

            @classmethod
            async def from_custom_id(
                cls,
                interaction: discord.Interaction,
                item: Component,
                match: re.Match[str],
                /,
            ) -> Persistent:
                return cls(item, match)

            async def callback(self, interaction: discord.Interaction) -> None:
                # A menu's click also says what was chosen.
                chosen = getattr(self.item, "values", None)
                ident = self.ident if chosen is None else read_match(kind, self.match, chosen)
                await table._route(interaction, kind, ident)

        Persistent.__name__ = Persistent.__qualname__ = kind.__name__
        self._handlers[kind] = handler
        self._items.append(Persistent)

    def controls(self) -> tuple[type[Clickable], ...]:
        """The dynamic items that read back the clicks of the kinds registered with :meth:`on`
        (for ``client.add_dynamic_items``)."""
        return tuple(self._items)

    async def _route(self, interaction: discord.Interaction, kind: type, ident: object) -> None:
        """Run the handler of ``kind``; any error becomes a private reply (and a logged
        traceback for bugs), exactly as for slash commands."""
        self.track(interaction)  # a shutdown lets this click finish first
        try:
            handler = self._handlers.get(kind)
            if handler is None:
                raise RuntimeError(f"no handler is registered for {kind.__name__}")
            await handler(interaction, ident)
        except Exception as error:
            await report(
                interaction, error, f"a click on {kind.__name__}", self.reader(interaction)
            )

    # ------------------------------------------------------------------ sending

    async def deliver(
        self, interaction: discord.Interaction | None, deliveries: Iterable[Delivery]
    ) -> list[int]:
        """Carry out ``deliveries`` in order (see :mod:`.compose.post`). An edit of the message
        clicked on that fails does not stop what follows (the click's work is done): its error
        is raised once the rest is delivered. Returns the ids of the answers and channel
        messages sent (as far as Discord reported them), in order, for a service to record
        where it showed something (a challenge's buttons)."""
        failed: Exception | None = None
        sent: list[discord.Message | None] = []
        for delivery in deliveries:
            if isinstance(delivery, Update):
                try:
                    await self._update(_needs(interaction), delivery.post)
                except Exception as error:
                    failed = failed or error
                continue
            if isinstance(delivery, BoardPost):
                await self._board(interaction, delivery)
            elif isinstance(delivery, Answer):
                post = delivery.post
                asked = _needs(interaction)
                sent.append(
                    await answer(
                        asked,
                        ephemeral=post.private,
                        **await self._message(post, can_attach(asked)),
                    )
                )
            elif isinstance(delivery, Revise):
                await self._revise(_needs(interaction), delivery)
            elif isinstance(delivery, Message):
                sent.append(await self._message_in(delivery))
            elif isinstance(delivery, Replay):
                sent.append(await self._replay(_needs(interaction), delivery))
            elif isinstance(delivery, Edit):
                await self._edit(delivery.place, delivery.message_id, delivery.post)
            elif isinstance(delivery, Direct):
                await self._direct(delivery.user_id, delivery.post.content or "")
            elif isinstance(delivery, Notice):
                if await self.games.turn_notice(delivery.game_id, delivery.ply):
                    await self._direct(delivery.user_id, delivery.post.content or "")
            elif isinstance(delivery, OfferPost):
                await self._offer(interaction, delivery)
            elif isinstance(delivery, Changed):
                await self.venues.changed(delivery.game_id)
        if failed is not None:
            raise failed
        return [message.id for message in sent if message is not None]

    async def _replay(
        self, interaction: discord.Interaction, replay: Replay
    ) -> discord.Message | None:
        drawn = await animate(replay.animation)
        if drawn is None:
            too_long = replay.too_long
            return await answer(
                interaction, ephemeral=too_long.private, **await self._message(too_long)
            )
        data, index = drawn
        post = replay.fitted[index]
        options = await self._message(post)
        options["files"] = [
            *options.get("files", ()),
            discord.File(io.BytesIO(data), filename=replay.animation.filename),
        ]
        return await answer(interaction, ephemeral=post.private, **options)

    async def answered(self, interaction: discord.Interaction, post: Post) -> int | None:
        """The post as the interaction's answer; the id of its message, when Discord reported
        it (for a message the feature keeps up to date, as a tournament's announcement)."""
        sent = await answer(
            interaction,
            ephemeral=post.private,
            **await self._message(post, can_attach(interaction)),
        )
        return None if sent is None else sent.id

    async def _message(self, post: Post, attach: bool = True) -> Outgoing:
        """The arguments of a message for ``post``, its picture rendered and attached (an
        optional one only where images may be attached: ``attach``; whom it is shown to,
        ``post.private``, is the answer's to say)."""
        options: Outgoing = {
            "content": None if post.content is None else clip(post.content, CONTENT),
            "allowed_mentions": mentions_of(post),
        }
        files = await files_of(post, attach)
        if post.card is not None:
            options["embed"] = embed_of(post.card, shown_image(post, attach))
        if post.controls:
            options["view"] = view_of(post.controls)
        if files:
            options["files"] = files
        return options

    async def _update(self, interaction: discord.Interaction, post: Post) -> None:
        view = view_of(post.controls) if post.controls else None
        files = await files_of(post) if post.picture or post.pictures or post.files else None
        content = MISSING if post.content is None else clip(post.content, CONTENT)
        if files is None:
            await interaction.response.edit_message(content=content, view=view)
        else:
            await interaction.response.edit_message(content=content, view=view, attachments=files)

    async def _revise(self, interaction: discord.Interaction, revise: Revise) -> None:
        """The interaction's answer rewritten: its words, and its card and images if any (what
        the post leaves out is left as it is)."""
        post = revise.post
        images = post.picture is not None or bool(post.pictures or post.files)
        try:
            await interaction.edit_original_response(
                content=None if post.content is None else clip(post.content, CONTENT),
                embed=MISSING if post.card is None else embed_of(post.card, shown_image(post)),
                attachments=await files_of(post) if images else MISSING,
                view=view_of(post.controls) if post.controls else MISSING,
            )
        except discord.HTTPException as error:
            if not revise.quiet:
                raise
            log.info("could not update an answer: %s", error)

    async def _message_in(self, delivery: Message) -> discord.Message | None:
        place = delivery.place
        channel = await resolve_channel(self.client, place.channel_id, place.guild_id)
        if channel is None:
            if delivery.missing is not None:
                raise Refused(delivery.missing)
            return None
        try:
            return await channel.send(
                **await self._message(delivery.post, can_attach(None, channel))
            )
        except discord.HTTPException as error:
            if not delivery.quiet:
                raise
            log.warning("could not post to channel %d: %s", place.channel_id, error)
            return None

    async def _edit(self, place: Place, message_id: int, post: Post) -> None:
        """Put the post's controls (none: nothing) in place of a message's, and its content and
        card (if any) in place of its words and embed, in one edit; a message gone or not
        editable is only logged."""
        channel = await resolve_channel(self.client, place.channel_id, place.guild_id)
        if not isinstance(channel, EDITABLE):
            return
        message = channel.get_partial_message(message_id)
        try:
            await message.edit(
                view=view_of(post.controls) if post.controls else None,
                content=MISSING if post.content is None else clip(post.content, CONTENT),
                embed=MISSING if post.card is None else embed_of(post.card),
            )
        except discord.HTTPException as error:
            log.info("could not change the controls of message %d: %s", message_id, error)

    async def _direct(self, user_id: int, content: str) -> None:
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(clip(content, CONTENT))
        except discord.HTTPException as error:
            log.info("could not send a direct message to %d: %s", user_id, error)

    async def _offer(self, interaction: discord.Interaction | None, offer: OfferPost) -> None:
        if offer.place is None:
            post = offer.post
            sent = await answer(
                _needs(interaction), ephemeral=post.private, **await self._message(post)
            )
        else:
            place = offer.place
            channel = await resolve_channel(self.client, place.channel_id, place.guild_id)
            if channel is None:
                # An offer across servers always says why its other venue may be missing.
                raise Refused(offer.missing) if offer.missing else LookupError(place)
            sent = await channel.send(**await self._message(offer.post))
        if sent is not None:
            await self.games.offer_posted(offer.game_id, offer.kind, offer.ply, sent.id)

    async def _board(self, interaction: discord.Interaction | None, board: BoardPost) -> None:
        """A game's board: see :class:`~.compose.post.BoardPost`. Across servers, a venue
        whose channel turns out to be gone is handed to the venues' keeper."""
        try:
            await self._post_board(interaction if board.reply else None, board)
        except (discord.NotFound, discord.Forbidden) as error:
            if board.venue is None or board.reply or not venue_lost(error):
                raise
            # The other server's thread was deleted (or the bot lost it): the game waits for
            # its player, who is told how to continue it.
            await self.venues.venue_gone(board.game.id, board.venue)

    async def _post_board(self, interaction: discord.Interaction | None, board: BoardPost) -> None:
        post, place = board.post, board.place
        channel = None
        if interaction is None:
            channel = await resolve_channel(self.client, place.channel_id, place.guild_id)
            if channel is None:
                if board.venue is not None:  # perhaps deleted: the game waits for its player if so
                    await self.venues.check_venue(board.game.id, board.venue)
                return
        attach = can_attach(interaction, channel)
        image = None
        if attach and post.picture is not None and isinstance(post.picture.view, BoardView):
            image = await asyncio.to_thread(
                render_png, post.picture.view, flip=post.picture.flip, theme=post.picture.theme
            )  # the board is the same file whichever way it is sent: drawn once
        view = view_of(post.controls)
        text = text_of(post)
        mentions = mentions_of(post)
        embed = None
        if image is not None and post.card is not None and post.picture is not None:
            embed = embed_of(post.card, post.picture.filename)
            content = None if post.content is None else clip(post.content, CONTENT)
        else:
            content = text

        def attachment() -> discord.File:
            assert image is not None and post.picture is not None
            return discord.File(io.BytesIO(image), filename=post.picture.filename)

        message: discord.Message | None = None
        if interaction is not None:
            try:
                message = await answer(
                    interaction,
                    content,
                    embeds=[] if embed is None else [embed],
                    files=[] if embed is None else [attachment()],
                    view=view,
                    allowed_mentions=mentions,
                )
            except discord.HTTPException as error:
                if not expired(error):
                    raise
                # Discord gave up on the answer (the player saw "This interaction failed"), but
                # what it announces has happened: the board goes to the channel all the same.
                log.warning(
                    "game %d: the board's answer came too late; posted in the channel",
                    board.game.id,
                )
                channel = await resolve_channel(self.client, place.channel_id, place.guild_id)
                if channel is None:
                    return
                interaction = None
        if interaction is None:
            assert channel is not None
            try:
                if embed is not None:
                    message = await channel.send(
                        content,
                        embed=embed,
                        file=attachment(),
                        view=view,
                        allowed_mentions=mentions,
                    )
                else:
                    message = await channel.send(content, view=view, allowed_mentions=mentions)
            except discord.Forbidden:
                # The permissions changed under us: fall back to the text board.
                message = await channel.send(text, view=view, allowed_mentions=mentions)
        if message is None:
            return
        game = board.game
        side = None if board.venue is None else board.venue.side
        replaced = await self.games.board_posted(
            game.id, place.channel_id, message.id, board.ply, side=side, end=board.end
        )
        retire = board.retire
        if replaced.message_id is not None and replaced.message_id != message.id:
            # Its words no longer call on anyone to move: they say which position it shows.
            if retire is not None and retire.message_id == replaced.message_id:
                said = retire.words if attach else retire.words_with_board
            else:  # a board recorded after these words were composed
                server = game.record.guild_id if board.venue is None else board.venue.guild_id
                lang = await self.channel_language(server)
                said = retired_board(game, replaced.ply, with_board=not attach, lang=lang)
            await self._edit(Place(place.channel_id), replaced.message_id, Post(content=said))
        elif replaced.last_final is not None:
            # A new game in a channel makes the Rematch button of the one before it pointless.
            await self._edit(Place(place.channel_id), replaced.last_final, Post())

    def has_activity(self) -> bool:
        """Whether the application has an Activity (Activities enabled in the developer
        portal), as Discord said when the bot connected."""
        flags = self.client.application_flags
        return bool(flags.embedded)

    async def launch_activity(self, interaction: discord.Interaction) -> bool:
        """Answer by opening the app's Activity for the person (Discord's LAUNCH_ACTIVITY);
        ``False`` when Discord refuses (the app has no Activity, or the place allows none),
        the interaction still unanswered."""
        if interaction.response.is_done():
            return False
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            log.info("could not launch the Activity: %s", error)
            return False
        return True

    async def thinking(self, interaction: discord.Interaction, *, private: bool = False) -> None:
        """Show the bot thinking while a slow answer is prepared (the AI's move, a picture);
        ``private``: only the person who asked sees it, and the answer."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=private, thinking=True)

    @contextlib.asynccontextmanager
    async def typing(self, channel_id: int) -> AsyncIterator[None]:
        """Show the bot typing in a channel while the block runs (it leaves nothing behind: the
        next message ends it)."""
        task = asyncio.create_task(self._keep_typing(channel_id))
        try:
            yield
        finally:
            task.cancel()

    async def _keep_typing(self, channel_id: int) -> None:
        channel = await resolve_channel(self.client, channel_id)
        if channel is None:
            return
        while True:
            try:
                await channel.typing()  # shown for up to 10 s, or until the bot's next message
            except discord.HTTPException as error:  # a courtesy: never worth failing a move
                log.info("could not show typing in channel %d: %s", channel_id, error)
                return
            await asyncio.sleep(TYPING_REFRESH)

    # ------------------------------------------------------------ for features not yet converted

    async def tell(
        self,
        channel_id: int,
        sentence: str,
        guild_id: int | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> None:
        """A plain message to a channel (``guild_id``: the venue of a game across servers,
        which another process may serve); a failure to deliver it is only logged. Nobody is
        notified unless ``mentions`` says so."""
        channel = await resolve_channel(self.client, channel_id, guild_id)
        if channel is None:
            return
        try:
            await channel.send(clip(sentence, CONTENT), allowed_mentions=mentions or NO_PING)
        except discord.HTTPException as error:
            log.warning("could not post to channel %d: %s", channel_id, error)

    async def direct(self, user_id: int, sentence: str) -> None:
        """A direct message to a person; closed direct messages are only logged."""
        await self._direct(user_id, sentence)


def _needs(interaction: discord.Interaction | None) -> discord.Interaction:
    """The interaction a delivery answers (composing one without it is a bug)."""
    if interaction is None:
        raise RuntimeError("an answer was composed where there is no interaction to answer")
    return interaction
