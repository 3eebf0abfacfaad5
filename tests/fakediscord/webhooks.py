"""Interaction callbacks and the interaction webhook (follow-ups, ``@original`` edits).

Discord's rules that a bot can get wrong are enforced: one callback per interaction, within
the deadline (3 s), of a type that fits the interaction; follow-ups only after the callback
and within the token's lifetime (15 min). With ``?with_response=1`` (which discord.py always
sends) the callback is answered with an interaction-callback response object: discord.py
binds a View's buttons to ``interaction.response_message_id``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .httpio import DiscordHTTPError, json_response, no_content, read_object
from .interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    LAUNCH_ACTIVITY,
    MESSAGE_COMPONENT,
    MODAL,
    UPDATE_MESSAGE,
    FakeInteraction,
    InteractionResponse,
)
from .models import EPHEMERAL, LOADING, FakeMessage
from .state import World
from .validation import check_choices, check_message, check_modal

log = logging.getLogger("fakediscord")

JSON = dict[str, Any]


class InteractionWebhooks:
    """Routes for interaction callbacks and the interaction token's webhook."""

    def __init__(
        self, world: World, *, deadline: float = 3.0, token_lifetime: float = 15 * 60.0
    ) -> None:
        self.world = world
        self.deadline = deadline
        self.token_lifetime = token_lifetime
        self.before_answer: Callable[[FakeInteraction], Awaitable[None]] | None = None
        """Run once a callback is recorded, before its answer goes back to the bot."""

    def add_routes(self, app: web.Application, prefix: str) -> None:
        app.router.add_post(
            prefix + "/interactions/{interaction_id}/{token}/callback", self.callback
        )
        app.router.add_post(prefix + "/webhooks/{application_id}/{token}", self.followup)
        message_path = prefix + "/webhooks/{application_id}/{token}/messages/{message_id}"
        app.router.add_get(message_path, self.get_message)
        app.router.add_patch(message_path, self.edit_message)
        app.router.add_delete(message_path, self.delete_message)

    # -- callback ----------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        received_at = time.perf_counter()
        interaction = self.world.interactions.get(_int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        payload, files = await read_object(request)
        if interaction.callback is not None:
            interaction.reject("second callback")
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if (
            interaction.dispatched_at is not None
            and received_at - interaction.dispatched_at > self.deadline
        ):
            late = received_at - interaction.dispatched_at
            interaction.reject(f"callback after {late:.2f} s")
            log.warning(
                "bot answered %s after %.2f s (limit %g s)",
                interaction.describe(),
                late,
                self.deadline,
            )
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        kind = payload.get("type")
        data: JSON = payload.get("data") or {}
        if kind == LAUNCH_ACTIVITY and interaction.type in (APPLICATION_COMMAND, MESSAGE_COMPONENT):
            if not self.world.activities:
                # What Discord answers an application without Activities.
                raise DiscordHTTPError(
                    400, 50035, "Invalid Form Body: this application has no Activity"
                )
        elif kind not in ALLOWED_CALLBACKS.get(interaction.type, frozenset()):
            interaction.reject(f"callback type {kind}")
            raise DiscordHTTPError(
                400, 50035, f"Invalid Form Body: callback type {kind} does not fit this interaction"
            )

        message: FakeMessage | None = None
        if kind == CHANNEL_MESSAGE:
            check_message(data, files, size_limit=self._size_limit(interaction), creating=True)
            message = self.world.create_message(
                interaction.channel, self.world.bot_user, data, files, interaction=interaction
            )
            interaction.original_message = message
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            placeholder = {"flags": int(data.get("flags") or 0) & EPHEMERAL}
            message = self.world.create_message(
                interaction.channel,
                self.world.bot_user,
                placeholder,
                interaction=interaction,
                extra_flags=LOADING,
            )
            interaction.original_message = message
        elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            if interaction.message is None:
                raise DiscordHTTPError(
                    400, 50035, "Invalid Form Body: there is no message to update"
                )
            message = interaction.message
            interaction.original_message = message
            if kind == UPDATE_MESSAGE:
                check_message(data, files, size_limit=self._size_limit(interaction), creating=False)
                self.world.edit_message(message, data, files)
        elif kind == AUTOCOMPLETE_RESULT:
            check_choices(data)
        elif kind == MODAL:
            check_modal(data)

        interaction.record(
            InteractionResponse("callback", received_at, data, files, type=kind, message=message)
        )
        if self.before_answer is not None:
            await self.before_answer(interaction)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(self._callback_response(interaction, kind, message))

    def _callback_response(
        self, interaction: FakeInteraction, kind: int, message: FakeMessage | None
    ) -> JSON:
        info: JSON = {"id": str(interaction.id), "type": interaction.type}
        body: JSON = {"interaction": info}
        if message is not None:
            info["response_message_id"] = str(message.id)
            info["response_message_loading"] = message.loading
            info["response_message_ephemeral"] = message.ephemeral
        if message is not None and kind in (
            CHANNEL_MESSAGE,
            DEFERRED_CHANNEL_MESSAGE,
            UPDATE_MESSAGE,
        ):
            body["resource"] = {"type": kind, "message": message.payload()}
        return body

    def _size_limit(self, interaction: FakeInteraction) -> int:
        return int(interaction.payload["attachment_size_limit"])

    # -- webhook -----------------------------------------------------------------------------

    def _interaction(self, request: web.Request) -> FakeInteraction:
        interaction = self.world.interactions_by_token.get(request.match_info["token"])
        if (
            interaction is None
            or _int(request.match_info["application_id"]) != self.world.application_id
        ):
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        if interaction.callback is None:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        if (
            interaction.dispatched_at is not None
            and time.perf_counter() - interaction.dispatched_at > (self.token_lifetime)
        ):
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        return interaction

    def _message(self, interaction: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            message = interaction.original_message
        else:
            message = self.world.messages.get(_int(message_id))
            if message is not None and message.interaction_id != interaction.id:
                message = None
        if message is None or message.deleted:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return message

    async def followup(self, request: web.Request) -> web.Response:
        received_at = time.perf_counter()
        interaction = self._interaction(request)
        payload, files = await read_object(request)
        check_message(payload, files, size_limit=self._size_limit(interaction), creating=True)
        original = interaction.original_message
        if (
            original is not None
            and original.loading
            and interaction.callback is not None
            and interaction.callback.type == DEFERRED_CHANNEL_MESSAGE
        ):
            # After a "thinking" defer, the first follow-up replaces the placeholder, which
            # keeps the ephemerality chosen when deferring.
            message = self.world.edit_message(
                original, {k: v for k, v in payload.items() if k != "flags"}, files
            )
        else:
            message = self.world.create_message(
                interaction.channel, self.world.bot_user, payload, files, interaction=interaction
            )
        interaction.record(
            InteractionResponse("followup", received_at, payload, files, message=message)
        )
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(message.payload())
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        return json_response(self._message(interaction, request.match_info["message_id"]).payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        received_at = time.perf_counter()
        interaction = self._interaction(request)
        message = self._message(interaction, request.match_info["message_id"])
        payload, files = await read_object(request)
        check_message(payload, files, size_limit=self._size_limit(interaction), creating=False)
        self.world.edit_message(message, payload, files)
        interaction.record(
            InteractionResponse("edit", received_at, payload, files, message=message)
        )
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        received_at = time.perf_counter()
        interaction = self._interaction(request)
        message = self._message(interaction, request.match_info["message_id"])
        self.world.delete_message(message)
        interaction.record(InteractionResponse("delete", received_at, {}, message=message))
        return no_content()


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise DiscordHTTPError(404, 10014, f"Unknown id {text!r}") from None
