"""The stand-in's in-memory Discord: who exists, what was posted, and the rules for changing it.

REST handlers, the gateway and the test-facing API all change state through :class:`World`,
which keeps the indexes consistent, tells the gateway which events to dispatch and wakes
whoever waits for a change.
"""

from __future__ import annotations

import copy
import mimetypes
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from .commands import CommandRegistry
from .components import number_components
from .httpio import ReceivedFile, RequestLog, invalid_form_body
from .ids import SnowflakeFactory, iso_now
from .interactions import APPLICATION_COMMAND, FakeInteraction
from .models import (
    COMPONENTS_V2,
    DM_CHANNEL,
    EPHEMERAL,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    TEXT_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Upload,
    pinged_users,
)
from .notifier import Notifier
from .permissions import (
    BOT_PERMISSIONS,
    DM_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MEMBER_OVERWRITE,
    ROLE_OVERWRITE,
    Overwrite,
    compute_permissions,
)

JSON = dict[str, Any]

# Gateway intents that decide whether an event reaches the bot.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_TYPING = 1 << 11
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_TYPING = 1 << 14
MESSAGE_CONTENT = 1 << 15

_CREATE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2


class EventSink(Protocol):
    """Where events go: ``guild_id`` says which shard receives one (``None``: a direct
    message's, for shard 0)."""

    def dispatch(
        self, event: str, data: JSON, *, guild_id: int | None, intent: int | None = None
    ) -> None: ...


class _NoEvents:
    def dispatch(
        self, event: str, data: JSON, *, guild_id: int | None, intent: int | None = None
    ) -> None:
        return None


class World:
    """All of the stand-in's Discord data, and the operations that keep it consistent."""

    def __init__(self, *, token: str, bot_name: str) -> None:
        self.token = token
        self.ids = SnowflakeFactory()
        self.notifier = Notifier(self.diagnostics)
        self.request_log = RequestLog()
        self.bot_user = FakeUser(self.ids.next(), bot_name, bot=True)
        # Applications created since 2020 share their id with their bot user.
        self.application_id = self.bot_user.id
        self.activities = False
        """Whether the application has Activities enabled: its flags say so (EMBEDDED) and
        Discord takes the ``LAUNCH_ACTIVITY`` callback."""
        self.app_owner = FakeUser(self.ids.next(), "app-owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.app_owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.message_order: list[FakeMessage] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.commands = CommandRegistry(self.application_id, self.ids)
        self.events: EventSink = _NoEvents()
        self.base_url = ""
        self.presence: JSON | None = None
        self.gateway_status: Callable[[], str] = lambda: "gateway: unknown"
        self._message_sequence = 0
        self.typing_log: list[tuple[int, int, float]] = []
        """Every typing indicator started: (channel id, user id, monotonic time)."""
        self._typing: dict[tuple[int, int], float] = {}
        """Indicators showing now, by (channel id, user id): until when (monotonic time)."""

    @property
    def message_sequence(self) -> int:
        """How many messages were created so far (each message's ``sequence`` is its rank)."""
        return self._message_sequence

    # -- people and places -------------------------------------------------------------------

    def create_user(
        self, username: str, *, bot: bool = False, accepts_dms: bool = True
    ) -> FakeUser:
        user = FakeUser(
            self.ids.next(), username, global_name=username, bot=bot, accepts_dms=accepts_dms
        )
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str,
        *,
        bot_permissions: int = BOT_PERMISSIONS,
        everyone_permissions: int = EVERYONE_PERMISSIONS,
        channels: Iterable[str] = ("general",),
        with_bot: bool = True,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        owner = self.create_user(f"{name.lower().replace(' ', '-')}-owner")
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = FakeGuild(guild_id, name, owner.id)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", int(everyone_permissions))
        guild.members[owner.id] = FakeMember(owner, guild.id)
        self.guilds[guild.id] = guild
        for position, channel_name in enumerate(channels):
            channel = FakeChannel(
                self.ids.next(), TEXT_CHANNEL, channel_name, guild.id, position=position
            )
            guild.channels[channel.id] = channel
            self.channels[channel.id] = channel
        if with_bot:
            bot_role = FakeRole(
                self.ids.next(),
                guild.id,
                self.bot_user.username,
                int(bot_permissions),
                1,
                self.bot_user.id,
            )
            guild.roles[bot_role.id] = bot_role
            guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild.id, [bot_role.id])
            self.events.dispatch(
                "GUILD_CREATE", guild.gateway_payload(), guild_id=guild.id, intent=GUILDS
            )
        self.notifier.notify()
        return guild

    def bot_in(self, guild: FakeGuild) -> bool:
        return self.bot_user.id in guild.members

    def add_member(
        self, guild: FakeGuild, user: FakeUser, roles: Iterable[FakeRole] = ()
    ) -> FakeMember:
        member = FakeMember(user, guild.id, [r.id for r in roles])
        guild.members[user.id] = member
        self.events.dispatch(
            "GUILD_MEMBER_ADD",
            {**member.payload(), "guild_id": str(guild.id)},
            guild_id=guild.id,
            intent=GUILD_MEMBERS,
        )
        self.notifier.notify()
        return member

    def remove_member(self, guild: FakeGuild, user: FakeUser) -> None:
        """The user leaves the guild (or is kicked): GUILD_MEMBER_REMOVE, sent only with the
        privileged GUILD_MEMBERS intent, and 404 Unknown Member from then on."""
        guild.members.pop(user.id, None)
        self.events.dispatch(
            "GUILD_MEMBER_REMOVE",
            {"guild_id": str(guild.id), "user": user.payload()},
            guild_id=guild.id,
            intent=GUILD_MEMBERS,
        )
        self.notifier.notify()

    def create_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(
            self.ids.next(), guild.id, name, int(permissions), position=len(guild.roles)
        )
        guild.roles[role.id] = role
        self.events.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            guild_id=guild.id,
            intent=GUILDS,
        )
        return role

    def give_role(self, guild: FakeGuild, user: FakeUser, role: FakeRole) -> None:
        member = guild.members[user.id]
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
        self.events.dispatch(
            "GUILD_MEMBER_UPDATE",
            {**member.payload(), "guild_id": str(guild.id)},
            guild_id=guild.id,
            intent=GUILD_MEMBERS,
        )

    def create_channel(
        self, guild: FakeGuild, name: str, *, overwrites: Iterable[Overwrite] = ()
    ) -> FakeChannel:
        channel = FakeChannel(
            self.ids.next(),
            TEXT_CHANNEL,
            name,
            guild.id,
            position=len(guild.text_channels),
            overwrites=list(overwrites),
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.events.dispatch("CHANNEL_CREATE", channel.payload(), guild_id=guild.id, intent=GUILDS)
        self.notifier.notify()
        return channel

    def set_permissions(
        self, channel: FakeChannel, target: FakeRole | FakeUser, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Replace ``target``'s overwrite on ``channel`` (a role or a member)."""
        kind = ROLE_OVERWRITE if isinstance(target, FakeRole) else MEMBER_OVERWRITE
        channel.overwrites = [o for o in channel.overwrites if o.target_id != target.id]
        channel.overwrites.append(Overwrite(target.id, kind, int(allow), int(deny)))
        self.events.dispatch(
            "CHANNEL_UPDATE", channel.payload(), guild_id=channel.guild_id, intent=GUILDS
        )
        self.notifier.notify()

    def create_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser | None = None,
        private: bool = False,
        thread_id: int | None = None,
    ) -> FakeChannel:
        if parent.guild_id is None or parent.is_thread:
            raise ValueError(f"threads live in guild text channels, not in {parent!r}")
        thread = FakeChannel(
            thread_id or self.ids.next(),
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=(owner or self.bot_user).id,
        )
        self.guilds[parent.guild_id].channels[thread.id] = thread
        self.channels[thread.id] = thread
        self.events.dispatch(
            "THREAD_CREATE",
            {**thread.payload(), "newly_created": True},
            guild_id=thread.guild_id,
            intent=GUILDS,
        )
        self.notifier.notify()
        return thread

    def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a guild channel (with its threads, as Discord does) or a thread: REST calls
        on it answer 404 Unknown Channel from now on. A thread's deletion is THREAD_DELETE
        with only its id, guild_id, parent_id and type; a channel's is CHANNEL_DELETE."""
        if channel.guild_id is None:
            raise ValueError(f"only guild channels and threads can be deleted, not {channel!r}")
        guild = self.guilds[channel.guild_id]
        gone = [channel] + [c for c in guild.channels.values() if c.parent_id == channel.id]
        for each in gone:
            guild.channels.pop(each.id, None)
            self.channels.pop(each.id, None)
        if channel.is_thread:
            self.events.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
                guild_id=channel.guild_id,
                intent=GUILDS,
            )
        else:
            self.events.dispatch(
                "CHANNEL_DELETE", channel.payload(), guild_id=channel.guild_id, intent=GUILDS
            )
        self.notifier.notify()

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient is user:
                return channel
        channel = FakeChannel(self.ids.next(), DM_CHANNEL, user.username, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def permissions(self, user: FakeUser, channel: FakeChannel) -> int:
        """``user``'s permissions in ``channel`` (a thread uses its parent's overwrites)."""
        if channel.is_dm:
            return int(DM_PERMISSIONS)
        guild = self.guild_of(channel)
        assert guild is not None
        member = guild.members.get(user.id)
        if member is None:
            return 0
        source = self.channels[channel.parent_id] if channel.parent_id is not None else channel
        return compute_permissions(
            guild_id=guild.id,
            owner_id=guild.owner_id,
            user_id=user.id,
            role_permissions={r.id: r.permissions for r in guild.roles.values()},
            member_role_ids=member.role_ids,
            overwrites=source.overwrites,
        )

    # -- typing ------------------------------------------------------------------------------

    TYPING_SECONDS = 10.0
    """How long one typing indicator shows (Discord: "expires after 10 seconds")."""

    def start_typing(self, channel: FakeChannel, user: FakeUser) -> None:
        """``user`` is shown typing in ``channel`` for :data:`TYPING_SECONDS`, or until they
        send a message there, as Discord shows it."""
        now = time.monotonic()
        self._typing[channel.id, user.id] = now + self.TYPING_SECONDS
        self.typing_log.append((channel.id, user.id, now))
        self.events.dispatch(
            "TYPING_START",
            {
                "channel_id": str(channel.id),
                "user_id": str(user.id),
                "timestamp": int(time.time()),
                **({"guild_id": str(channel.guild_id)} if channel.guild_id else {}),
            },
            guild_id=channel.guild_id,
            intent=GUILD_MESSAGE_TYPING if channel.guild_id else DIRECT_MESSAGE_TYPING,
        )
        self.notifier.notify()

    def is_typing(self, channel: FakeChannel, user: FakeUser) -> bool:
        """Whether ``user`` is shown typing in ``channel`` now."""
        return self._typing.get((channel.id, user.id), 0.0) > time.monotonic()

    # -- messages ----------------------------------------------------------------------------

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: JSON,
        files: tuple[ReceivedFile, ...] = (),
        *,
        interaction: FakeInteraction | None = None,
        extra_flags: int = 0,
    ) -> FakeMessage:
        flags = (int(payload.get("flags") or 0) & _CREATE_FLAGS) | extra_flags
        self._message_sequence += 1
        message = FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            sequence=self._message_sequence,
            flags=flags,
            tts=bool(payload.get("tts")),
        )
        if interaction is not None:
            self._mark_interaction(message, interaction)
        if message.ephemeral and interaction is not None:
            message.visible_to = interaction.user.id
        self._apply(message, payload, files, creating=True)
        if not flags & (EPHEMERAL | LOADING | SUPPRESS_NOTIFICATIONS):
            message.pinged_user_ids = pinged_users(message.content, message.allowed_mentions)
        self.messages[message.id] = message
        self.message_order.append(message)
        if not message.ephemeral:
            self._typing.pop((channel.id, author.id), None)  # a message ends the indicator
            channel.last_message_id = message.id
            channel.message_count += 1
            self.events.dispatch(
                "MESSAGE_CREATE",
                self.gateway_message(message),
                guild_id=channel.guild_id,
                intent=self._intent_for(channel),
            )
        self.notifier.notify()
        return message

    def edit_message(
        self, message: FakeMessage, payload: JSON, files: tuple[ReceivedFile, ...] = ()
    ) -> FakeMessage:
        if "flags" in payload and payload["flags"] is not None:
            kept = message.flags & ~SUPPRESS_EMBEDS
            message.flags = kept | (int(payload["flags"]) & SUPPRESS_EMBEDS)
        message.flags &= ~LOADING
        self._apply(message, payload, files, creating=False)
        message.edited_at = iso_now()
        message.edits += 1
        if not message.ephemeral:
            channel = self.channels[message.channel_id]
            self.events.dispatch(
                "MESSAGE_UPDATE",
                self.gateway_message(message),
                guild_id=channel.guild_id,
                intent=self._intent_for(channel),
            )
        self.notifier.notify()
        return message

    def delete_message(self, message: FakeMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.events.dispatch(
                "MESSAGE_DELETE",
                data,
                guild_id=message.guild_id,
                intent=self._intent_for(self.channels[message.channel_id]),
            )
        self.notifier.notify()

    def post_user_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """A message typed by a person; the bot sees its text only with the content intent."""
        self._message_sequence += 1
        message = FakeMessage(
            self.ids.next(),
            channel.id,
            channel.guild_id,
            user,
            self._message_sequence,
            content=content,
            pinged_user_ids=pinged_users(content, None),
        )
        self.messages[message.id] = message
        self.message_order.append(message)
        channel.last_message_id = message.id
        self.events.dispatch(
            "MESSAGE_CREATE",
            self.gateway_message(message),
            guild_id=channel.guild_id,
            intent=self._intent_for(channel),
        )
        self.notifier.notify()
        return message

    def gateway_message(self, message: FakeMessage) -> JSON:
        data = message.payload()
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            member = self.guilds[message.guild_id].members.get(message.author.id)
            if member is not None and message.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        return data

    def _intent_for(self, channel: FakeChannel) -> int:
        return DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES

    def _mark_interaction(self, message: FakeMessage, interaction: FakeInteraction) -> None:
        message.interaction_id = interaction.id
        message.webhook_id = self.application_id
        message.application_id = self.application_id
        message.type = 20 if interaction.type == APPLICATION_COMMAND else 0
        metadata: JSON = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": interaction.user.payload(),
            "authorizing_integration_owners": interaction.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if interaction.original_message is not None and interaction.original_message is not message:
            metadata["original_response_message_id"] = str(interaction.original_message.id)
        if interaction.message is not None:
            metadata["interacted_message_id"] = str(interaction.message.id)
        if interaction.type == APPLICATION_COMMAND:
            metadata["name"] = interaction.name
            metadata["command_type"] = 1
            message.legacy_interaction = {
                "id": str(interaction.id),
                "type": interaction.type,
                "name": interaction.name,
                "user": interaction.user.payload(),
            }
        message.interaction_metadata = metadata

    def _apply(
        self,
        message: FakeMessage,
        payload: JSON,
        files: tuple[ReceivedFile, ...],
        *,
        creating: bool,
    ) -> None:
        if "content" in payload or creating:
            message.content = str(payload.get("content") or "")
        if "embeds" in payload or creating:
            message.embeds = [
                {"type": "rich", **e} for e in copy.deepcopy(payload.get("embeds") or [])
            ]
        if "components" in payload or creating:
            message.components = number_components(copy.deepcopy(payload.get("components") or []))
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        if "message_reference" in payload and creating:
            message.message_reference = payload["message_reference"]
        if creating or "attachments" in payload or files:
            message.attachments = self._attachments(message, payload.get("attachments"), files)

    def _attachments(
        self, message: FakeMessage, entries: list[JSON] | None, files: tuple[ReceivedFile, ...]
    ) -> list[FakeAttachment]:
        """Discord's v10 rule: ``attachments`` lists everything to keep (old by id) and add
        (new by upload index); without it, uploads are appended to what the message has."""
        existing = {a.id: a for a in message.attachments}
        uploads = {f.index: f for f in files}
        result: list[FakeAttachment] = []
        used: set[int] = set()
        if entries is None:
            result.extend(message.attachments)
        else:
            for position, entry in enumerate(entries):
                entry_id = int(entry["id"])
                if entry_id in existing:
                    result.append(existing[entry_id])
                    continue
                upload = uploads.get(entry_id)
                if upload is None:
                    raise invalid_form_body(
                        ("attachments", position, "id"),
                        "ATTACHMENT_NOT_FOUND",
                        f"Unknown attachment {entry_id}",
                    )
                used.add(entry_id)
                result.append(
                    self._new_attachment(
                        message, upload, entry.get("filename"), entry.get("description")
                    )
                )
        for index, upload in sorted(uploads.items()):
            if index not in used:
                result.append(self._new_attachment(message, upload, None, None))
        return result

    def _new_attachment(
        self,
        message: FakeMessage,
        upload: ReceivedFile,
        filename: str | None,
        description: str | None,
    ) -> FakeAttachment:
        name = filename or upload.filename
        attachment_id = self.ids.next()
        attachment = FakeAttachment(
            id=attachment_id,
            filename=name,
            data=upload.data,
            content_type=mimetypes.guess_type(name)[0] or upload.content_type,
            uploaded_content_type=upload.content_type,
            description=description,
            url=f"{self.base_url}/attachments/{message.channel_id}/{attachment_id}/{name}",
            ephemeral=message.ephemeral,
        )
        self.attachments[attachment.id] = attachment
        return attachment

    def upload_attachment(self, upload: Upload) -> FakeAttachment:
        """An attachment a user put in a slash command option."""
        attachment_id = self.ids.next()
        attachment = FakeAttachment(
            id=attachment_id,
            filename=upload.filename,
            data=upload.data,
            content_type=upload.content_type,
            uploaded_content_type=upload.content_type,
            url=f"{self.base_url}/attachments/0/{attachment_id}/{upload.filename}",
            ephemeral=True,
        )
        self.attachments[attachment.id] = attachment
        return attachment

    # -- interactions ------------------------------------------------------------------------

    def new_interaction(
        self,
        *,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        message: FakeMessage | None = None,
        name: str = "",
        locale: str = "en-US",
    ) -> FakeInteraction:
        guild = self.guild_of(channel)
        interaction_id = self.ids.next()
        token = f"aW50ZXJhY3Rpb246{interaction_id}:{secrets.token_urlsafe(24)}"
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": guild.attachment_size_limit if guild else 10 * 1024 * 1024,
            "channel_id": str(channel.id),
            "channel": channel.payload(permissions=self.permissions(user, channel)),
            "app_permissions": str(self.permissions(self.bot_user, channel)),
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise ValueError(
                    f"{user!r} is not a member of {guild!r}; use create_user(..., guild=...)"
                )
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "member": member.payload(permissions=self.permissions(user, channel)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {"user": user.payload(), "authorizing_integration_owners": {"0": "0"}, "context": 1}
            )
        if message is not None:
            payload["message"] = message.payload()
        interaction = FakeInteraction(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            guild=guild,
            payload=payload,
            notifier=self.notifier,
            message=message,
            name=name,
        )
        self.interactions[interaction_id] = interaction
        self.interactions_by_token[token] = interaction
        return interaction

    def resolver(self, user: FakeUser, channel: FakeChannel) -> _Resolver:
        return _Resolver(self, user, channel)

    # -- diagnostics -------------------------------------------------------------------------

    def diagnostics(self) -> str:
        log = self.request_log
        lines = [self.gateway_status()]
        lines.append(
            "last REST requests: " + ("; ".join(str(r) for r in log.requests[-8:]) or "none")
        )
        if log.unhandled:
            lines.append("UNHANDLED routes: " + "; ".join(str(r) for r in log.unhandled[-5:]))
        if log.internal_errors:
            lines.append(
                "fake discord ERRORS: " + "; ".join(str(r) for r in log.internal_errors[-5:])
            )
        recent = [repr(m) for m in self.message_order[-3:]]
        lines.append("last messages: " + (", ".join(recent) or "none"))
        return "\n".join(lines)


class _Resolver:
    """``resolved`` entries for one user invoking a command in one channel."""

    def __init__(self, world: World, user: FakeUser, channel: FakeChannel) -> None:
        self._world = world
        self._user = user
        self._channel = channel

    def user(self, user: FakeUser) -> tuple[JSON, JSON | None]:
        guild = self._world.guild_of(self._channel)
        member = None if guild is None else guild.members.get(user.id)
        if member is None:
            return user.payload(), None
        permissions = self._world.permissions(user, self._channel)
        return user.payload(), member.payload(with_user=False, permissions=permissions)

    def channel(self, channel: FakeChannel) -> JSON:
        data = channel.payload(permissions=self._world.permissions(self._user, channel))
        return {
            k: data[k]
            for k in ("id", "name", "type", "permissions", "parent_id", "thread_metadata")
            if k in data
        }

    def role(self, role: FakeRole) -> JSON:
        return role.payload()

    def attachment(self, upload: Upload) -> JSON:
        return self._world.upload_attachment(upload).payload()
