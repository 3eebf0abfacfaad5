"""An interaction the stand-in dispatched, and everything the bot answered to it."""

# Test-facing waits take a timeout argument, like discord.py's own wait_for().
# ruff: noqa: ASYNC109

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Literal

from .httpio import ReceivedFile
from .models import FakeChannel, FakeGuild, FakeMessage, FakeUser
from .notifier import Notifier

JSON = dict[str, Any]

PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12
"""Open the app's Activity for the person (only for apps with Activities enabled)."""

#: Callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    PING: frozenset({PONG}),
    APPLICATION_COMMAND: frozenset({CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL}),
    MESSAGE_COMPONENT: frozenset(
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL}
    ),
    AUTOCOMPLETE: frozenset({AUTOCOMPLETE_RESULT}),
    MODAL_SUBMIT: frozenset(
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE}
    ),
}

ResponseKind = Literal["callback", "followup", "edit", "delete"]

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class InteractionResponse:
    """One thing the bot did with an interaction token.

    ``kind`` is ``"callback"`` (then ``type`` is the callback type), ``"followup"``,
    ``"edit"`` (of ``@original`` or a follow-up) or ``"delete"``. ``message`` is the live
    message it created or changed, if any; ``data`` and ``files`` are what the bot sent.
    """

    kind: ResponseKind
    at: float
    data: JSON
    files: tuple[ReceivedFile, ...] = ()
    type: int | None = None
    message: FakeMessage | None = None

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def ephemeral(self) -> bool:
        return bool((self.data.get("flags") or 0) & 64) or bool(
            self.message and self.message.ephemeral
        )


@dataclass(eq=False)
class FakeInteraction:
    """Handle on a dispatched interaction: ``await`` it for the bot's first response.

    ``dispatched_at`` and ``responded_at`` are ``time.perf_counter()`` values: when the
    ``INTERACTION_CREATE`` frame was written to the bot's websocket and when the bot's
    callback request reached the stand-in.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    payload: JSON
    notifier: Notifier
    message: FakeMessage | None = None
    name: str = ""
    dispatched_at: float | None = None
    responded_at: float | None = None
    callback: InteractionResponse | None = None
    original_message: FakeMessage | None = None
    responses: list[InteractionResponse] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    _cursor: int = 0

    def __await__(self) -> Generator[Any, None, InteractionResponse]:
        return self.wait_callback().__await__()

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the bot's first response, once both happened."""
        if self.dispatched_at is None or self.responded_at is None:
            return None
        return self.responded_at - self.dispatched_at

    @property
    def followups(self) -> list[FakeMessage]:
        return [r.message for r in self.responses if r.kind == "followup" and r.message is not None]

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages this interaction created: the original response, then follow-ups."""
        found: list[FakeMessage] = []
        for response in self.responses:
            message = response.message
            if message is not None and message.interaction_id == self.id and message not in found:
                found.append(message)
        return found

    @property
    def choices(self) -> list[JSON]:
        """The autocomplete choices the bot returned (empty until it answered)."""
        if self.callback is None or self.callback.type != AUTOCOMPLETE_RESULT:
            return []
        return list(self.callback.data.get("choices", []))

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened in its callback, if it did."""
        if self.callback is None or self.callback.type != MODAL:
            return None
        return self.callback.data

    def reject(self, reason: str) -> None:
        """Note a request Discord would have refused (late, repeated or ill-typed callback)."""
        self.rejected.append(reason)
        self.notifier.notify()

    def record(self, response: InteractionResponse) -> None:
        if response.kind == "callback":
            self.callback = response
            self.responded_at = response.at
        self.responses.append(response)
        self.notifier.notify()

    async def wait_callback(self, timeout: float = DEFAULT_TIMEOUT) -> InteractionResponse:
        return await self.notifier.wait_for(
            lambda: self.callback, timeout=timeout, what=f"the bot's callback to {self.describe()}"
        )

    async def next_response(self, timeout: float = DEFAULT_TIMEOUT) -> InteractionResponse:
        """The response after the one the previous ``next_response`` returned (callback first)."""

        def check() -> InteractionResponse | None:
            if self._cursor < len(self.responses):
                self._cursor += 1
                return self.responses[self._cursor - 1]
            return None

        return await self.notifier.wait_for(
            check, timeout=timeout, what=f"response #{self._cursor + 1} to {self.describe()}"
        )

    async def wait_response(
        self,
        predicate: Callable[[InteractionResponse], bool] | None = None,
        *,
        kind: ResponseKind | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> InteractionResponse:
        """The first response (already received or future) of ``kind`` matching ``predicate``."""

        def check() -> InteractionResponse | None:
            for response in self.responses:
                if (kind is None or response.kind == kind) and (
                    predicate is None or predicate(response)
                ):
                    return response
            return None

        what = f"a {kind or 'response'} matching {predicate!r} to {self.describe()}"
        return await self.notifier.wait_for(check, timeout=timeout, what=what)

    async def wait_followup(self, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> FakeMessage:
        """The ``count``-th follow-up message (1 = first), waiting until it exists."""

        def check() -> FakeMessage | None:
            followups = self.followups
            return followups[count - 1] if len(followups) >= count else None

        return await self.notifier.wait_for(
            check, timeout=timeout, what=f"follow-up #{count} to {self.describe()}"
        )

    def describe(self) -> str:
        kinds = {2: "slash command", 3: "component", 4: "autocomplete", 5: "modal submit"}
        label = f" {self.name}" if self.name else ""
        return (
            f"{kinds.get(self.type, 'interaction')}{label} (id {self.id}) by {self.user.username}"
        )

    def __repr__(self) -> str:
        return f"<FakeInteraction {self.describe()} responses={len(self.responses)}>"
