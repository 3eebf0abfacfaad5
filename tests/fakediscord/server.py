"""A local stand-in for Discord's REST API and gateway, for end-to-end tests of the real bot.

Everything listens on 127.0.0.1 (an ephemeral port by default). The bot under test is
unmodified: it reads ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` (see
``/work/shared/DISCORD.md``) and talks to this server exactly as it would to Discord.

Usage, in a pytest-asyncio test::

    async with FakeDiscord() as fake:
        guild = fake.create_guild("Test Guild")            # #general, the bot, an owner
        alice = fake.create_user("alice", guild=guild)
        env = fake.env(guild)   # DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL,
                                # DISCORD_TEST_GUILD_ID: start the bot process with these
        await fake.wait_until_connected()                  # READY + GUILD_CREATE processed
        await fake.wait_for_commands(guild)                # the bot's tree.sync() arrived

        ix = await fake.send_slash_command(alice, guild.channel("general"), "tafl",
                                           subcommand="new", options={"variant": "brandubh"})
        reply = await ix                                   # the callback: type, data, files
        board = ix.original_message                        # a FakeMessage, kept up to date
        png = board.attachments[0].data                    # the exact bytes uploaded
        click = await fake.click_button(alice, board, board.custom_ids[0])
        await click.wait_response(kind="followup")
        later = await fake.wait_for_message(guild.channel("general"), lambda m: "wins" in m.text)

What is reproduced (and checked, so bot bugs fail here as they would on Discord):

* Login (``GET /users/@me``; 401 for a wrong token, which discord.py turns into
  ``LoginFailure``), ``GET /oauth2/applications/@me``, command sync (``PUT`` global or guild
  commands; ids stay stable across syncs), users, guilds, members, roles, DMs, channels,
  messages (JSON or multipart with files), edits, deletes, reactions, typing and threads.
* Interaction callbacks (types 1, 4-9) answered with an interaction-callback response
  object, follow-ups, ``@original`` edits; at most one callback, within 3 s, of a type that
  fits the interaction; deferred "thinking" placeholders replaced by the first follow-up.
* Limits: content, embeds, components (5x5, select options, ``custom_id`` length and
  uniqueness), autocomplete choices (25), modals, attachment size (10 MiB by default),
  and the bot's channel permissions for channel messages.
* The gateway: HELLO, IDENTIFY -> READY -> GUILD_CREATE, heartbeats, RESUME with replay,
  op 7 RECONNECT, op 9 INVALID_SESSION, member chunk requests, intents (events are filtered
  and other people's message text is hidden without the message-content intent).
* Sharding: ``GET /gateway/bot`` recommends ``recommended_shards`` (with ``max_concurrency``);
  a session identified with ``shard: [k, n]`` is sent only the guilds and guild events of
  shard ``k`` (DMs: shard 0), and several sessions (processes) may be connected at once::

      async with FakeDiscord(recommended_shards=4) as fake:
          near = fake.create_guild("Near", shard=(1, 4))   # its id makes it shard 1's
          far = fake.create_guild("Far", shard=(3, 4))
          ...                                              # start the bot, then
          await fake.wait_until_connected(shard_count=4)   # every shard 0-3 has a session

Every REST reply is JSON with ``Content-Type: application/json`` exactly; routes that are
not implemented answer 404 JSON and are logged (logger ``fakediscord``) and recorded in
``fake.request_log.unhandled``; internal faults answer 400, never 5xx (discord.py would
retry those for seconds). ``fake.assert_healthy()`` fails a test on either.

Timing: a click sent right after the bot's message can reach discord.py before it bound
the View to that message. ``click_button``/``choose_select``/``submit_modal`` therefore
first call :meth:`FakeDiscord.sync`, a heartbeat round trip proving the bot has processed
everything sent so far. Each :class:`FakeInteraction` records ``dispatched_at`` and
``responded_at`` (``time.perf_counter()``) for latency measurements.
"""

# Test-facing waits take a timeout argument, like discord.py's own wait_for().
# ruff: noqa: ASYNC109

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Self, TypeVar

from aiohttp import web

from .commands import build_command_data
from .components import SELECT_TYPES, STRING_SELECT, modal_submit_components
from .gateway import Gateway
from .httpio import PAYLOAD_FILTERS, PayloadFilter, RequestLog, make_middleware
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DEFAULT_TIMEOUT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeInteraction,
)
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)
from .oauth import OAuth2
from .permissions import BOT_PERMISSIONS, EVERYONE_PERMISSIONS, Overwrite
from .rest import RestApi
from .state import World
from .validation import check_text_input_values
from .webhooks import InteractionWebhooks

JSON = dict[str, Any]
T = TypeVar("T")

GATEWAY_PATH = "/gateway"
API_PREFIX = r"/api/v{version:\d+}"


class FakeDiscord:
    """The stand-in server plus the API a test uses to act as Discord's users."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "TaflBot",
        host: str = "127.0.0.1",
        port: int = 0,
        interaction_deadline: float = 3.0,
        activities: bool = False,
        token_lifetime: float = 15 * 60.0,
        allow_privileged_intents: bool = True,
        heartbeat_interval_ms: int = 41_250,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        session_starts: int = 1000,
        session_reset_after_ms: int = 14 * 3600 * 1000,
    ) -> None:
        """``recommended_shards`` and ``max_concurrency`` are what ``GET /gateway/bot``
        answers (the shard count a bot should use; how many shards may identify per 5 s), with
        the day's budget of sessions: ``session_starts`` less the IDENTIFYs made so far, reset
        in ``session_reset_after_ms``."""
        self.world = World(token=token, bot_name=bot_name)
        self.gateway = Gateway(
            self.world,
            heartbeat_interval_ms=heartbeat_interval_ms,
            allow_privileged=allow_privileged_intents,
        )
        self.world.events = self.gateway
        self.world.gateway_status = self.gateway.status
        self._webhooks = InteractionWebhooks(
            self.world, deadline=interaction_deadline, token_lifetime=token_lifetime
        )
        self.world.activities = activities
        self._rest = RestApi(
            self.world,
            "",
            recommended_shards=recommended_shards,
            max_concurrency=max_concurrency,
            session_starts=session_starts,
            session_reset_after_ms=session_reset_after_ms,
            sessions_used=lambda: self.gateway.identify_count,
        )
        self.oauth = OAuth2(self.world)
        """The application's OAuth2: its client secret, and codes for an Activity's sign-in."""
        self._rest.oauth = self.oauth
        self._host = host
        self._port = port
        self._runner: web.AppRunner | None = None
        self.payload_filters: list[PayloadFilter] = []
        """Called in turn on each JSON object the bot sends (message, edit, interaction
        response, thread), before it is read: e.g. the pseudo-locale watch of the tests."""

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        if self._runner is not None:
            raise RuntimeError("FakeDiscord is already running")
        app = web.Application(
            client_max_size=64 * 1024 * 1024,
            middlewares=[
                make_middleware(self.world.request_log, self.world.notifier, GATEWAY_PATH)
            ],
        )
        app[PAYLOAD_FILTERS] = self.payload_filters
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment
        )
        self._rest.add_routes(app, API_PREFIX)
        self._webhooks.add_routes(app, API_PREFIX)
        self.oauth.add_routes(app, API_PREFIX)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self._host, self._port)
        await site.start()
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        self.world.base_url = self.base_url
        self.gateway.url = self.gateway_url
        self._rest.gateway_url = self.gateway_url

    async def stop(self) -> None:
        if self._runner is None:
            return
        await self.gateway.close()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- addresses ---------------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._runner is None:
            raise RuntimeError("FakeDiscord is not running; await start() first")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``DISCORD_API_BASE`` (``discord.http.Route.BASE``)."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The value for ``DISCORD_GATEWAY_URL`` (``DiscordWebSocket.DEFAULT_GATEWAY``)."""
        return f"ws://{self._host}:{self.port}{GATEWAY_PATH}"

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def env(self, guild: FakeGuild | None = None) -> dict[str, str]:
        """Environment variables that point the bot at this server (merge into os.environ)."""
        env = {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }
        if guild is not None:
            env["DISCORD_TEST_GUILD_ID"] = str(guild.id)
        return env

    # -- building the world ------------------------------------------------------------------

    def create_guild(
        self,
        name: str = "Test Guild",
        *,
        bot_permissions: int = BOT_PERMISSIONS,
        everyone_permissions: int = EVERYONE_PERMISSIONS,
        channels: Iterable[str] = ("general",),
        with_bot: bool = True,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild with an @everyone role, an owner, the given text channels and (unless
        ``with_bot=False``) the bot as a member with a managed role of ``bot_permissions``.
        Creating one while the bot is connected sends it ``GUILD_CREATE`` (it joined).

        ``shard=(k, n)`` picks an id that puts the guild on shard ``k`` of ``n``; otherwise
        the id's timestamp decides, as on Discord.
        """
        return self.world.create_guild(
            name,
            bot_permissions=bot_permissions,
            everyone_permissions=everyone_permissions,
            channels=channels,
            with_bot=with_bot,
            shard=shard,
        )

    def create_user(
        self,
        username: str,
        *,
        guild: FakeGuild | None = None,
        roles: Iterable[FakeRole] = (),
        bot: bool = False,
        accepts_dms: bool = True,
    ) -> FakeUser:
        """A user, made a member of ``guild`` (with ``roles``) when given."""
        user = self.world.create_user(username, bot=bot, accepts_dms=accepts_dms)
        if guild is not None:
            self.world.add_member(guild, user, roles)
        return user

    def add_member(
        self, guild: FakeGuild, user: FakeUser, roles: Iterable[FakeRole] = ()
    ) -> FakeMember:
        return self.world.add_member(guild, user, roles)

    def create_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> FakeRole:
        return self.world.create_role(guild, name, permissions)

    def give_role(self, guild: FakeGuild, user: FakeUser, role: FakeRole) -> None:
        self.world.give_role(guild, user, role)

    def create_channel(
        self, guild: FakeGuild, name: str, *, overwrites: Iterable[Overwrite] = ()
    ) -> FakeChannel:
        return self.world.create_channel(guild, name, overwrites=overwrites)

    def create_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser | None = None,
        private: bool = False,
    ) -> FakeChannel:
        return self.world.create_thread(parent, name, owner=owner, private=private)

    def set_permissions(
        self, channel: FakeChannel, target: FakeRole | FakeUser, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a channel overwrite, e.g. ``deny=Permission.ATTACH_FILES`` for the bot."""
        self.world.set_permissions(channel, target, allow=allow, deny=deny)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        return self.world.dm_channel(user)

    def remove_member(self, guild: FakeGuild, user: FakeUser) -> None:
        """The user leaves the guild."""
        self.world.remove_member(guild, user)

    def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a channel (and its threads) or a thread, as a moderator would."""
        self.world.delete_channel(channel)

    # -- what the bot did --------------------------------------------------------------------

    @property
    def request_log(self) -> RequestLog:
        return self.world.request_log

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message in creation order, deleted ones included (``message.deleted``)."""
        return list(self.world.message_order)

    def messages_in(
        self, channel: FakeChannel, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        return [
            m
            for m in self.world.message_order
            if m.channel_id == channel.id and (include_deleted or not m.deleted)
        ]

    def typing_started(self, channel: FakeChannel) -> int:
        """How many times the bot started a typing indicator in ``channel``."""
        me = (channel.id, self.world.bot_user.id)
        return sum(1 for where, who, _ in self.world.typing_log if (where, who) == me)

    def bot_is_typing(self, channel: FakeChannel) -> bool:
        """Whether the bot is shown typing in ``channel`` now (10 s from its last start, or
        until its next message there)."""
        return self.world.is_typing(channel, self.world.bot_user)

    def bot_messages(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        return [
            m
            for m in self.world.message_order
            if m.author is self.bot_user
            and not m.deleted
            and (channel is None or m.channel_id == channel.id)
        ]

    @property
    def interactions(self) -> list[FakeInteraction]:
        return list(self.world.interactions.values())

    @property
    def presence(self) -> JSON | None:
        """The last presence update (op 3) the bot sent."""
        return self.world.presence

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """The synced command tree (global when ``guild`` is None), with ids."""
        return self.world.commands.synced(None if guild is None else guild.id)

    @property
    def activities(self) -> bool:
        """Whether the application has Activities enabled (``LAUNCH_ACTIVITY`` accepted)."""
        return self.world.activities

    @activities.setter
    def activities(self, enabled: bool) -> None:
        self.world.activities = enabled

    def checkpoint(self) -> int:
        """A marker for ``wait_for_message(after=...)``: only messages created later match."""
        return self.world.message_sequence

    def problems(self) -> list[str]:
        log = self.world.request_log
        return [f"unhandled route: {r}" for r in log.unhandled] + [
            f"fake discord error: {r}" for r in log.internal_errors
        ]

    def assert_healthy(self) -> None:
        """Fail if the bot called a route the stand-in lacks, or the stand-in itself failed."""
        problems = self.problems()
        if problems:
            raise AssertionError("fake Discord saw problems:\n" + "\n".join(problems))

    # -- waiting -----------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return bool(self.gateway.live_sessions)

    async def wait_until_connected(
        self,
        *,
        identifies: int = 1,
        resumes: int = 0,
        shard_count: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        """Wait for a live session, then until the bot has processed READY and the
        ``GUILD_CREATE``s (sent only with the GUILDS intent, as on Discord).

        After a reconnect, ask for the total count of IDENTIFYs or RESUMEs to wait for. With
        ``shard_count``, wait until each of the shards 0 to ``shard_count - 1`` has a session.
        """
        wanted = set() if shard_count is None else {(k, shard_count) for k in range(shard_count)}

        def check() -> bool | None:
            gateway = self.gateway
            counts_reached = (
                gateway.identify_count >= identifies and gateway.resume_count >= resumes
            )
            shards_reached = wanted <= gateway.live_shards
            return (counts_reached and shards_reached and bool(gateway.live_sessions)) or None

        shards = "" if shard_count is None else f", all {shard_count} shards"
        what = f"the bot to connect ({identifies} IDENTIFY, {resumes} RESUME{shards})"
        await self.world.notifier.wait_for(check, timeout=timeout, what=what)
        await self.sync(timeout)

    async def wait_for_commands(
        self, guild: FakeGuild | None = None, *, timeout: float = DEFAULT_TIMEOUT
    ) -> list[JSON]:
        """Wait until the bot has synced a non-empty command tree (to ``guild`` if given)."""
        scope = None if guild is None else guild.id
        where = "globally" if guild is None else f"to {guild.name}"
        return await self.world.notifier.wait_for(
            lambda: self.world.commands.synced(scope) or None,
            timeout=timeout,
            what=f"commands synced {where}",
        )

    async def wait_until(
        self,
        check: Callable[[], T | None],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        what: str = "a condition",
    ) -> T:
        """Return ``check()``'s first non-None result, re-checked after every change the
        stand-in sees (messages, interactions, requests, gateway events)."""
        return await self.world.notifier.wait_for(check, timeout=timeout, what=what)

    async def sync(self, timeout: float = 5.0) -> None:
        """Return once the bot has processed everything sent to it and every REST reply.

        A heartbeat request (op 1) is answered by discord.py's event loop only after it
        handled earlier frames; REST replies were flushed before the test could act on them.
        """
        await self.gateway.sync(timeout)

    async def wait_for_message(
        self,
        channel: FakeChannel | None = None,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        after: int | FakeMessage | None = None,
        from_bot: bool = True,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> FakeMessage:
        """The first message (in ``channel`` if given, by the bot unless ``from_bot=False``,
        created after ``after`` — a :meth:`checkpoint` or a message) matching ``predicate``.

        Existing messages count, and the predicate is re-checked after every edit, so this
        also waits for a message to *become* e.g. ``lambda m: "wins" in m.text``.
        Ephemeral messages and interaction follow-ups are included.
        """
        after_sequence = after.sequence if isinstance(after, FakeMessage) else (after or 0)

        def check() -> FakeMessage | None:
            for message in self.world.message_order:
                if message.sequence <= after_sequence or message.deleted:
                    continue
                if channel is not None and message.channel_id != channel.id:
                    continue
                if from_bot and message.author is not self.bot_user:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        where = f" in {channel!r}" if channel is not None else ""
        return await self.world.notifier.wait_for(
            check, timeout=timeout, what=f"a message{where} matching {predicate!r}"
        )

    # -- acting as users ---------------------------------------------------------------------

    async def send_slash_command(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        *,
        group: str | None = None,
        subcommand: str | None = None,
        options: Mapping[str, object] | None = None,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Dispatch ``/command [group] [subcommand]`` with ``options`` as Discord would.

        ``command`` may also hold the whole path ("tafl move"). Option values are Python
        values: str, int, float, bool, FakeUser, FakeChannel, FakeRole or Upload; they are
        checked against the synced definition like Discord's client does (required options,
        choices, ranges), raising ``ValueError``/``LookupError`` for impossible input.
        """
        return self._dispatch_command(
            APPLICATION_COMMAND,
            user,
            channel,
            command,
            group,
            subcommand,
            options or {},
            None,
            user.locale if locale is None else locale,
        )

    async def send_autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        *,
        focused: str,
        group: str | None = None,
        subcommand: str | None = None,
        options: Mapping[str, object] | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """An autocomplete request while the user types option ``focused``.

        ``options`` holds what is typed so far (``options[focused]`` defaults to "").
        ``(await ix).data["choices"]`` or ``ix.choices`` holds the bot's answer.
        """
        typed = dict(options or {})
        typed.setdefault(focused, "")
        return self._dispatch_command(
            AUTOCOMPLETE, user, channel, command, group, subcommand, typed, focused, locale
        )

    def _dispatch_command(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        group: str | None,
        subcommand: str | None,
        options: Mapping[str, object],
        focused: str | None,
        locale: str,
    ) -> FakeInteraction:
        self._require_connection(channel)
        name, *path = command.split()
        path += [p for p in (group, subcommand) if p]
        definition = self.world.commands.find(channel.guild_id, name)
        if definition is None:
            known = self.world.commands.names(channel.guild_id)
            raise LookupError(f"/{name} was not synced for this channel's guild; synced: {known}")
        data = build_command_data(
            definition, path, options, focused=focused, resolver=self.world.resolver(user, channel)
        )
        interaction = self.world.new_interaction(
            kind=kind,
            user=user,
            channel=channel,
            data=data,
            name=" ".join([name, *path]),
            locale=locale,
        )
        self._dispatch(interaction)
        return interaction

    async def click_button(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        sync: bool = True,
        locale: str | None = None,
    ) -> FakeInteraction:
        """``user`` clicks the button ``custom_id`` on ``message`` (which must show it enabled),
        their Discord app in ``locale`` (by default the user's own)."""
        component = self._component(user, message, custom_id, (2,))
        data = {"custom_id": custom_id, "component_type": component["type"]}
        return await self._component_interaction(user, message, data, sync, locale)

    async def choose_select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel],
        *,
        sync: bool = True,
        locale: str | None = None,
    ) -> FakeInteraction:
        """``user`` picks ``values`` in select menu ``custom_id`` on ``message``, their Discord
        app in ``locale`` (by default the user's own).

        String selects take option values; user/role/channel selects take fake objects.
        """
        component = self._component(user, message, custom_id, SELECT_TYPES)
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(
                f"select {custom_id!r} takes {low} to {high} values, not {len(values)}"
            )
        data: JSON = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == STRING_SELECT:
            offered = [o["value"] for o in component.get("options", [])]
            bad = [v for v in values if v not in offered]
            if bad:
                raise ValueError(f"select {custom_id!r} offers {offered}, not {bad}")
            data["values"] = [str(v) for v in values]
        else:
            data["values"], data["resolved"] = self._resolve_select(user, message, values)
        return await self._component_interaction(user, message, data, sync, locale)

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: FakeInteraction,
        values: Mapping[str, str],
        *,
        sync: bool = True,
    ) -> FakeInteraction:
        """``user`` fills in and submits the modal the bot opened in answer to ``opened_by``."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"{opened_by.describe()} was not answered with a modal")
        if user is not opened_by.user:
            raise ValueError("only the user the modal was shown to can submit it")
        check_text_input_values(modal.get("components", []), dict(values))
        data = {
            "custom_id": modal["custom_id"],
            "components": modal_submit_components(modal.get("components", []), values),
        }
        if sync:
            await self.sync()
        interaction = self.world.new_interaction(
            kind=MODAL_SUBMIT,
            user=user,
            channel=opened_by.channel,
            data=data,
            message=opened_by.message,
            name=modal["custom_id"],
        )
        self._dispatch(interaction)
        return interaction

    async def post_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """``user`` types a plain message (the bot gets ``MESSAGE_CREATE`` if its intents allow)."""
        return self.world.post_user_message(user, channel, content)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; discord.py reconnects and RESUMEs (missed events are replayed)."""
        self.gateway.request_reconnect()

    def before_answering_callbacks(
        self, hook: Callable[[FakeInteraction], Awaitable[None]] | None
    ) -> None:
        """Run ``hook`` on each interaction callback after it is recorded and before the bot
        gets Discord's answer: what happens while the answer is on its way (``None`` stops it).
        Tests see the callback only once the hook is done."""
        self._webhooks.before_answer = hook

    async def drop_connection(self, *, invalidate_session: bool = False) -> None:
        """Cut the gateway socket: the bot RESUMEs (or IDENTIFYs, with ``invalidate_session``)."""
        await self.gateway.drop_connections(invalidate=invalidate_session)

    # -- internals ---------------------------------------------------------------------------

    def _require_connection(self, channel: FakeChannel) -> None:
        if not self.gateway.live_sessions:
            raise RuntimeError(
                "the bot is not connected to the fake gateway"
                " (await fake.wait_until_connected() first)\n" + self.world.diagnostics()
            )
        if not self.gateway.live_owner(channel.guild_id):
            raise RuntimeError(
                f"no live session of the bot receives the events of {channel!r}: its shard is"
                " not connected (await fake.wait_until_connected(shard_count=...) first)\n"
                + self.world.diagnostics()
            )

    def _dispatch(self, interaction: FakeInteraction) -> None:
        def on_sent(at: float) -> None:
            if interaction.dispatched_at is None:
                interaction.dispatched_at = at

        guild_id = None if interaction.guild is None else interaction.guild.id
        self.gateway.dispatch(
            "INTERACTION_CREATE", interaction.payload, guild_id=guild_id, on_sent=on_sent
        )

    def _component(
        self, user: FakeUser, message: FakeMessage, custom_id: str, kinds: Sequence[int]
    ) -> JSON:
        if message.deleted:
            raise ValueError(f"{message!r} was deleted")
        if message.visible_to is not None and message.visible_to != user.id:
            raise ValueError(f"{user!r} cannot see ephemeral {message!r}")
        current = self.world.messages.get(message.id, message)
        component = current.component(custom_id)
        if component is None or component.get("type") not in kinds:
            raise ValueError(
                f"{message!r} has no such component {custom_id!r}; it has {current.custom_ids}"
            )
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} on {message!r} is disabled")
        return component

    async def _component_interaction(
        self,
        user: FakeUser,
        message: FakeMessage,
        data: JSON,
        sync: bool,
        locale: str | None = None,
    ) -> FakeInteraction:
        channel = self.world.channels[message.channel_id]
        self._require_connection(channel)
        if sync:
            await self.sync()
        interaction = self.world.new_interaction(
            kind=MESSAGE_COMPONENT,
            user=user,
            channel=channel,
            data=data,
            message=message,
            name=data["custom_id"],
            locale=user.locale if locale is None else locale,
        )
        self._dispatch(interaction)
        return interaction

    def _resolve_select(
        self, user: FakeUser, message: FakeMessage, values: Sequence[object]
    ) -> tuple[list[str], JSON]:
        resolver = self.world.resolver(user, self.world.channels[message.channel_id])
        ids: list[str] = []
        resolved: dict[str, JSON] = {}
        for value in values:
            if isinstance(value, FakeUser):
                user_payload, member_payload = resolver.user(value)
                resolved.setdefault("users", {})[str(value.id)] = user_payload
                if member_payload is not None:
                    resolved.setdefault("members", {})[str(value.id)] = member_payload
            elif isinstance(value, FakeRole):
                resolved.setdefault("roles", {})[str(value.id)] = resolver.role(value)
            elif isinstance(value, FakeChannel):
                resolved.setdefault("channels", {})[str(value.id)] = resolver.channel(value)
            else:
                raise ValueError(
                    f"this select takes FakeUser/FakeRole/FakeChannel values, not {value!r}"
                )
            ids.append(str(value.id))
        return ids, resolved

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        attachment_id = request.match_info["attachment_id"]
        attachment = (
            self.world.attachments.get(int(attachment_id)) if attachment_id.isdigit() else None
        )
        if attachment is None:
            return web.Response(status=404, text="no such attachment")
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})
