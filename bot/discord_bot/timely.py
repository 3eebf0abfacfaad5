"""Every command and click acknowledged within Discord's 3 seconds, whatever the database does.

Discord fails an interaction ("This interaction failed") whose first response has not arrived
within 3 s, and refuses every answer to it after that: a move committed while the database was
slow would be announced to nobody. So each command and click is watched (:func:`watch`): if it
has not been answered :data:`ACKNOWLEDGE_SECONDS` after it arrived, it is acknowledged at once
(deferred), and its answer comes when its work is done (the interaction's token lasts 15
minutes).

The handlers need not know. Each watched interaction's response is a :class:`TimelyResponse`,
which turns an answer given after the watchdog's acknowledgement into what Discord accepts then:

- a click, acknowledged without a sign (its message will be updated): an edit of the message
  clicked on edits it still, and a new message becomes a follow-up message;
- a command, acknowledged with a public "thinking…" placeholder: its answer becomes a follow-up
  message of its own, public or private as the handler chose and notifying whom it mentions,
  and the placeholder goes. (Discord would make the first follow-up an edit of the placeholder,
  which notifies nobody and cannot be made private: the placeholder is edited first.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, cast

import discord
from discord.interactions import InteractionCallbackResponse, InteractionMessage
from discord.utils import MISSING

log = logging.getLogger(__name__)

ACKNOWLEDGE_SECONDS = 1.5
"""How long a command or click may go unanswered before the watchdog acknowledges it: well
inside Discord's 3 s, which also count the gateway's delivery and the acknowledgement's trip."""
PLACEHOLDER = "…"
"""What a command's "thinking" placeholder says for the moment before it is removed."""
EXPIRED = frozenset({10062, 10015, 50027})
"""Discord's codes for an interaction that can no longer be answered: Unknown Interaction (its
3 s passed unanswered), Unknown Webhook and Invalid Webhook Token (its 15 minutes passed)."""

WATCHED = frozenset(
    {
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    }
)
"""The interactions that can be deferred (an autocomplete must answer with its choices)."""


def expired(error: BaseException) -> bool:
    """Whether ``error`` says the interaction can no longer be answered (see :data:`EXPIRED`)."""
    return isinstance(error, discord.HTTPException) and error.code in EXPIRED


class TimelyResponse(discord.InteractionResponse[Any]):
    """The response of a watched interaction: discord.py's, plus :meth:`acknowledge` for the
    watchdog, and answers given after it acknowledged turned into ones Discord still accepts.

    Only one first response is ever sent: the handler's and the watchdog's take turns."""

    __slots__ = ("_first", "_placeholder", "late")

    def __init__(self, parent: discord.Interaction[Any]) -> None:
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
    ) -> InteractionCallbackResponse[Any] | None:
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
    ) -> InteractionCallbackResponse[Any]:
        """discord.py's, or after the watchdog's acknowledgement the same message as a
        follow-up (see the module's notes)."""
        async with self._first:
            if not self.late:
                return await super().send_message(content, **options)
            return await self._follow_up(content, **options)

    async def edit_message(self, **options: Any) -> InteractionCallbackResponse[Any] | None:
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
    ) -> InteractionCallbackResponse[Any]:
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
        data: Any = {
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
    interaction: discord.Interaction[Any],
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
    response = getattr(interaction, "_cs_response", None)  # discord.py's cache of .response
    if isinstance(response, TimelyResponse):
        return _nothing
    if response is not None and response.is_done():
        return _nothing
    response = TimelyResponse(interaction)
    setattr(interaction, "_cs_response", response)  # noqa: B010 (a slot of discord.py's)
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


async def answer(
    interaction: discord.Interaction[Any], content: str | None = None, **options: Any
) -> discord.Message | None:
    """Send ``content`` as the interaction's answer, whatever has been done with it so far:
    its response, or after a deferral of the handler's own a follow-up (the first one fills
    the "thinking" placeholder). Returns the message when Discord reported it."""
    response = interaction.response
    if not response.is_done() or (isinstance(response, TimelyResponse) and response.late):
        callback = await response.send_message(content, **options)
        resource = callback.resource
        return resource if isinstance(resource, discord.Message) else None
    return await interaction.followup.send(
        content if content is not None else MISSING, wait=True, **options
    )
