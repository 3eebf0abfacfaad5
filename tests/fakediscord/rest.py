"""The bot-authenticated REST routes: login, commands, users, guilds, channels and messages.

Channel routes check the bot's permissions the way Discord does (50001 Missing Access,
50013 Missing Permissions; embeds silently dropped without Embed Links), so tests can
cover a bot that lacks a permission.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from aiohttp import web

from .gateway import EMBEDDED
from .httpio import DiscordHTTPError, json_response, no_content, read_body, read_object
from .models import FakeChannel, FakeGuild, FakeMessage, FakeUser
from .oauth import OAuth2
from .permissions import Permission
from .state import World
from .validation import check_message

JSON = dict[str, Any]


class RestApi:
    """Routes a bot token authorizes (``Authorization: Bot <token>``, else 401)."""

    def __init__(
        self,
        world: World,
        gateway_url: str,
        *,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        session_starts: int = 1000,
        session_reset_after_ms: int = 14 * 3600 * 1000,
        sessions_used: Callable[[], int] = lambda: 0,
    ) -> None:
        self.world = world
        self.gateway_url = gateway_url
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        self.session_starts = session_starts
        self.session_reset_after_ms = session_reset_after_ms
        self.sessions_used = sessions_used
        self.oauth: OAuth2 | None = None
        """Who ``Bearer`` tokens stand for (``GET /users/@me`` of an OAuth2 sign-in)."""

    def add_routes(self, app: web.Application, prefix: str) -> None:
        r = app.router
        r.add_get(prefix + "/users/@me", self.get_me)
        r.add_get(prefix + "/users/@me/guilds", self.get_my_guilds)
        r.add_post(prefix + "/users/@me/channels", self.open_dm)
        r.add_get(prefix + "/users/{user_id}", self.get_user)
        r.add_get(prefix + "/oauth2/applications/@me", self.get_application)
        r.add_get(prefix + "/applications/@me", self.get_application)
        r.add_get(prefix + "/gateway", self.get_gateway)
        r.add_get(prefix + "/gateway/bot", self.get_gateway_bot)
        for path in (
            "/applications/{application_id}/commands",
            "/applications/{application_id}/guilds/{guild_id}/commands",
        ):
            r.add_get(prefix + path, self.get_commands)
            r.add_put(prefix + path, self.put_commands)
        r.add_get(prefix + "/guilds/{guild_id}", self.get_guild)
        r.add_get(prefix + "/guilds/{guild_id}/channels", self.get_guild_channels)
        r.add_get(prefix + "/guilds/{guild_id}/roles", self.get_roles)
        r.add_get(prefix + "/guilds/{guild_id}/members", self.get_members)
        r.add_get(prefix + "/guilds/{guild_id}/members/{user_id}", self.get_member)
        r.add_get(prefix + "/channels/{channel_id}", self.get_channel)
        r.add_get(prefix + "/channels/{channel_id}/messages", self.get_messages)
        r.add_post(prefix + "/channels/{channel_id}/messages", self.create_message)
        message = prefix + "/channels/{channel_id}/messages/{message_id}"
        r.add_get(message, self.get_message)
        r.add_patch(message, self.edit_message)
        r.add_delete(message, self.delete_message)
        r.add_put(message + "/reactions/{emoji}/@me", self.add_reaction)
        r.add_delete(message + "/reactions/{emoji}/@me", self.remove_reaction)
        r.add_post(message + "/threads", self.start_thread_from_message)
        r.add_post(prefix + "/channels/{channel_id}/threads", self.start_thread)
        r.add_post(prefix + "/channels/{channel_id}/typing", self.typing)

    # -- helpers -----------------------------------------------------------------------------

    def _authorize(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.world.token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")

    def _guild(self, request: web.Request) -> FakeGuild:
        self._authorize(request)
        guild = self.world.guilds.get(_snowflake(request, "guild_id"))
        if guild is None or not self.world.bot_in(guild):
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        return guild

    def _channel(self, request: web.Request, *, need: int = Permission.VIEW_CHANNEL) -> FakeChannel:
        self._authorize(request)
        channel = self.world.channels.get(_snowflake(request, "channel_id"))
        if channel is None:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        permissions = self.world.permissions(self.world.bot_user, channel)
        if not permissions & Permission.VIEW_CHANNEL:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if permissions & need != need:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        return channel

    def _message(self, request: web.Request, channel: FakeChannel) -> FakeMessage:
        message = self.world.messages.get(_snowflake(request, "message_id"))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != channel.id
        ):
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return message

    def _send_permission(self, channel: FakeChannel) -> int:
        return (
            Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
        )

    # -- login and application -----------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer ") and self.oauth is not None:
            person = self.oauth.user_for(authorization)
            if person is None:
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            return json_response(person.payload())
        self._authorize(request)
        user = self.world.bot_user
        return json_response(
            {**user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}
        )

    async def get_application(self, request: web.Request) -> web.Response:
        self._authorize(request)
        world = self.world
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot_user.username,
                "icon": None,
                "description": "A bot under test",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": EMBEDDED if world.activities else 0,
                "owner": world.app_owner.payload(),
                "team": None,
                "bot": world.bot_user.payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(world.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        self._authorize(request)
        limit = {
            "total": self.session_starts,
            "remaining": max(0, self.session_starts - self.sessions_used()),
            "reset_after": self.session_reset_after_ms,
            "max_concurrency": self.max_concurrency,
        }
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": limit,
            }
        )

    async def get_commands(self, request: web.Request) -> web.Response:
        self._authorize(request)
        return json_response(self.world.commands.synced(self._command_scope(request)))

    async def put_commands(self, request: web.Request) -> web.Response:
        self._authorize(request)
        scope = self._command_scope(request)
        body = await read_body(request)
        if not isinstance(body.json, list):
            raise DiscordHTTPError(400, 50035, "Invalid Form Body: expected a list of commands")
        stored = self.world.commands.overwrite(scope, body.json)
        self.world.notifier.notify()
        return json_response(stored)

    def _command_scope(self, request: web.Request) -> int | None:
        if _snowflake(request, "application_id") != self.world.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return None
        guild = self.world.guilds.get(_snowflake(request, "guild_id"))
        if guild is None or not self.world.bot_in(guild):
            raise DiscordHTTPError(403, 50001, "Missing Access")
        return guild.id

    # -- users and guilds -----------------------------------------------------------------------

    async def get_user(self, request: web.Request) -> web.Response:
        self._authorize(request)
        user = self.world.users.get(_snowflake(request, "user_id"))
        if user is None:
            raise DiscordHTTPError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def get_my_guilds(self, request: web.Request) -> web.Response:
        self._authorize(request)
        guilds = [g for g in self.world.guilds.values() if self.world.bot_in(g)]
        bot = self.world.bot_user
        return json_response(
            [
                {
                    "id": str(g.id),
                    "name": g.name,
                    "icon": None,
                    "banner": None,
                    "owner": False,
                    "permissions": str(self._guild_permissions(g, bot)),
                    "features": [],
                }
                for g in guilds
            ]
        )

    def _guild_permissions(self, guild: FakeGuild, user: FakeUser) -> int:
        member = guild.members[user.id]
        permissions = guild.everyone.permissions
        for role_id in member.role_ids:
            permissions |= guild.roles[role_id].permissions
        return permissions

    async def open_dm(self, request: web.Request) -> web.Response:
        self._authorize(request)
        payload, _ = await read_object(request)
        user = self.world.users.get(int(payload.get("recipient_id", 0)))
        if user is None:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body: unknown recipient_id")
        return json_response(self.world.dm_channel(user).payload())

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        data = guild.payload()
        if request.query.get("with_counts", "").lower() in ("1", "true"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def get_roles(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([r.payload() for r in guild.roles.values()])

    async def get_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        limit = int(request.query.get("limit", "1"))
        after = int(request.query.get("after", "0"))
        members = sorted(
            (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
        )
        return json_response([m.payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.members.get(_snowflake(request, "user_id"))
        if member is None:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # -- channels and messages ----------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).payload())

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(
            request, need=Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY
        )
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        visible = [
            m
            for m in self.world.message_order
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        if "before" in request.query:
            visible = [m for m in visible if m.id < int(request.query["before"])]
        if "after" in request.query:
            after = [m for m in visible if m.id > int(request.query["after"])]
            return json_response([m.payload() for m in reversed(after[:limit])])
        return json_response([m.payload() for m in reversed(visible[-limit:])])

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(
            request, need=Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY
        )
        return json_response(self._message(request, channel).payload())

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, files = await read_object(request)
        self._check_can_send(channel, payload, bool(files))
        guild = self.world.guild_of(channel)
        limit = guild.attachment_size_limit if guild else 10 * 1024 * 1024
        permissions = self.world.permissions(self.world.bot_user, channel)
        if payload.get("embeds") and not permissions & Permission.EMBED_LINKS:
            payload = {**payload, "embeds": []}
        check_message(payload, files, size_limit=limit, creating=True)
        reference = payload.get("message_reference")
        if reference and reference.get("fail_if_not_exists", True):
            referenced = self.world.messages.get(int(reference.get("message_id", 0)))
            if referenced is None or referenced.deleted:
                raise DiscordHTTPError(400, 50035, "Invalid Form Body: Unknown message")
        if channel.archived and not channel.locked:
            channel.archived = False
        message = self.world.create_message(channel, self.world.bot_user, payload, files)
        return json_response(message.payload())

    def _check_can_send(self, channel: FakeChannel, payload: JSON, has_files: bool) -> None:
        if channel.is_dm:
            assert channel.recipient is not None
            if channel.recipient.bot or not channel.recipient.accepts_dms:
                raise DiscordHTTPError(403, 50007, "Cannot send messages to this user")
            return
        permissions = self.world.permissions(self.world.bot_user, channel)
        if not permissions & self._send_permission(channel):
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        if has_files and not permissions & Permission.ATTACH_FILES:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        if channel.locked and not permissions & Permission.MANAGE_THREADS:
            raise DiscordHTTPError(400, 50083, "Thread is archived")

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author is not self.world.bot_user:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await read_object(request)
        guild = self.world.guild_of(channel)
        limit = guild.attachment_size_limit if guild else 10 * 1024 * 1024
        check_message(payload, files, size_limit=limit, creating=False)
        self.world.edit_message(message, payload, files)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author is not self.world.bot_user and not channel.is_dm:
            permissions = self.world.permissions(self.world.bot_user, channel)
            if not permissions & Permission.MANAGE_MESSAGES:
                raise DiscordHTTPError(403, 50013, "Missing Permissions")
        self.world.delete_message(message)
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(
            request, need=Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY
        )
        message = self._message(request, channel)
        emoji = unquote(request.match_info["emoji"])
        if emoji not in message.reactions:
            if not self.world.permissions(self.world.bot_user, channel) & Permission.ADD_REACTIONS:
                raise DiscordHTTPError(403, 50013, "Missing Permissions")
            message.reactions.append(emoji)
            self.world.notifier.notify()
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(request, channel)
        emoji = unquote(request.match_info["emoji"])
        if emoji in message.reactions:
            message.reactions.remove(emoji)
            self.world.notifier.notify()
        return no_content()

    async def start_thread_from_message(self, request: web.Request) -> web.Response:
        channel = self._channel(
            request, need=Permission.VIEW_CHANNEL | Permission.CREATE_PUBLIC_THREADS
        )
        message = self._message(request, channel)
        if channel.is_thread or channel.is_dm:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        if any(c.id == message.id for c in self.world.channels.values()):
            raise DiscordHTTPError(
                400, 160004, "A thread has already been created for this message"
            )
        payload, _ = await read_object(request)
        thread = self.world.create_thread(channel, _thread_name(payload), thread_id=message.id)
        return json_response(thread.payload())

    async def start_thread(self, request: web.Request) -> web.Response:
        payload, _ = await read_object(request)
        private = payload.get("type") == 12
        need = Permission.CREATE_PRIVATE_THREADS if private else Permission.CREATE_PUBLIC_THREADS
        channel = self._channel(request, need=Permission.VIEW_CHANNEL | need)
        if channel.is_thread or channel.is_dm:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        thread = self.world.create_thread(channel, _thread_name(payload), private=private)
        return json_response(thread.payload())

    async def typing(self, request: web.Request) -> web.Response:
        """Trigger Typing Indicator: 204, shown for 10 s or until the bot's next message in
        the channel (it needs Send Messages there, as a message would)."""
        channel = self._channel(request)
        if not self.world.permissions(self.world.bot_user, channel) & self._send_permission(
            channel
        ):
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        self.world.start_typing(channel, self.world.bot_user)
        return no_content()


def _thread_name(payload: JSON) -> str:
    name = payload.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise DiscordHTTPError(
            400, 50035, "Invalid Form Body: thread name must be 1 to 100 characters"
        )
    return name


def _snowflake(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise DiscordHTTPError(404, 10014, f"Unknown {key} {request.match_info[key]!r}") from None
