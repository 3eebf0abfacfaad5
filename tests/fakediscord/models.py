"""The objects the stand-in keeps (users, guilds, channels, messages) and their JSON payloads.

Payloads carry every key discord.py reads with ``data['key']``; optional keys are filled
with Discord's usual defaults so the client never sees a shape real Discord would not send.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .components import walk_components
from .ids import iso_now, shard_of
from .permissions import Overwrite

JSON = dict[str, Any]

TEXT_CHANNEL = 0
DM_CHANNEL = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15

DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024

_USER_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(eq=False)
class FakeUser:
    """A Discord user; ``accepts_dms=False`` makes DMs to them fail like a closed DM would."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    accepts_dms: bool = True
    locale: str = "en-US"
    """The language of their Discord client: what their clicks' interactions report (their
    commands' too, unless a command is sent with another)."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "system": False,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<FakeUser {self.username} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    """A role; the @everyone role's id is its guild's id, the bot's role is ``managed``."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.bot_id is not None,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data

    def __repr__(self) -> str:
        return f"<FakeRole {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild (role ids exclude @everyone, as on Discord)."""

    user: FakeUser
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread (``parent_id`` set) or a DM (``recipient`` set)."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: FakeUser | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    archived: bool = False
    locked: bool = False
    created_at: str = field(default_factory=iso_now)
    last_message_id: int | None = None
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, *, permissions: int | None = None) -> JSON:
        last = None if self.last_message_id is None else str(self.last_message_id)
        data: JSON
        if self.is_dm:
            assert self.recipient is not None
            data = {
                "id": str(self.id),
                "type": DM_CHANNEL,
                "last_message_id": last,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        elif self.is_thread:
            data = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": last,
                "rate_limit_per_user": 0,
                "message_count": self.message_count,
                "member_count": 1,
                "total_message_sent": self.message_count,
                "flags": 0,
                "applied_tags": [],
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": self.created_at,
                },
            }
        else:
            data = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [ow.payload() for ow in self.overwrites],
                "parent_id": None if self.parent_id is None else str(self.parent_id),
                "topic": None,
                "nsfw": False,
                "rate_limit_per_user": 0,
                "last_message_id": last,
                "default_auto_archive_duration": 1440,
                "flags": 0,
            }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} id={self.id} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    """A guild: roles, members, and channels (threads included) by id."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    locale: str = "en-US"
    attachment_size_limit: int = DEFAULT_ATTACHMENT_LIMIT
    joined_at: str = field(default_factory=iso_now)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def shard(self, shard_count: int) -> int:
        """The shard that receives this guild's events when the bot runs ``shard_count``."""
        return shard_of(self.id, shard_count)

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == TEXT_CHANNEL]

    @property
    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread]

    def channel(self, name: str) -> FakeChannel:
        """The channel or thread called ``name`` (raises ``KeyError`` listing the names)."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        names = [c.name for c in self.channels.values()]
        raise KeyError(f"{self.name} has no channel {name!r}; it has {names}")

    def payload(self) -> JSON:
        """The guild object of ``GET /guilds/{id}``."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def gateway_payload(self) -> JSON:
        """The guild object of ``GUILD_CREATE``: everything, including members and channels."""
        data = self.payload()
        data.update(
            {
                "unavailable": False,
                "large": False,
                "joined_at": self.joined_at,
                "member_count": len(self.members),
                "members": [m.payload() for m in self.members.values()],
                "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
                "threads": [c.payload() for c in self.threads if not c.archived],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    """A file on a message: the exact bytes the bot uploaded, and what Discord reports."""

    id: int
    filename: str
    data: bytes
    content_type: str
    uploaded_content_type: str = "application/octet-stream"
    description: str | None = None
    url: str = ""
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.ephemeral:
            payload["ephemeral"] = True
        dimensions = image_size(self.data)
        if dimensions is not None:
            payload["width"], payload["height"] = dimensions
        return payload

    def __repr__(self) -> str:
        return f"<FakeAttachment {self.filename} {self.size} bytes {self.content_type}>"


@dataclass(eq=False)
class FakeMessage:
    """A message as the stand-in stores it; it is updated in place by edits.

    ``pinged_user_ids`` is fixed when the message is created, because only a new message
    notifies: mentions added by an edit (including the first follow-up that fills a
    deferred "thinking" placeholder) ping nobody, and neither do ephemeral messages.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    sequence: int
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    legacy_interaction: JSON | None = None
    message_reference: JSON | None = None
    allowed_mentions: JSON | None = None
    visible_to: int | None = None
    reactions: list[str] = field(default_factory=list)
    pinged_user_ids: list[int] = field(default_factory=list)
    deleted: bool = False
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True for the "thinking..." placeholder a deferred interaction shows."""
        return bool(self.flags & LOADING)

    @property
    def from_bot(self) -> bool:
        return self.author.bot

    def walk_components(self) -> Iterator[JSON]:
        """Every component, nested ones included (action rows, containers, sections)."""
        return walk_components(self.components)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def component(self, custom_id: str) -> JSON | None:
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def attachment(self, filename: str) -> FakeAttachment:
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise KeyError(f"message {self.id} has no attachment {filename!r}; it has {names}")

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions, fields and footers: handy for asserts."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append(str(embed.get("title", "")))
            parts.append(str(embed.get("description", "")))
            for embed_field in embed.get("fields", []):
                parts.append(f"{embed_field.get('name', '')} {embed_field.get('value', '')}")
            parts.append(str(embed.get("footer", {}).get("text", "")))
        return "\n".join(p for p in parts if p)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.legacy_interaction is not None:
            data["interaction"] = self.legacy_interaction
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.reactions:
            data["reactions"] = [
                {"count": 1, "me": True, "emoji": {"id": None, "name": name}, "burst_colors": []}
                for name in self.reactions
            ]
        return data

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        content = self.content[:40]
        return f"<FakeMessage id={self.id} channel={self.channel_id}{extra} content={content!r}>"


def pinged_users(content: str, allowed_mentions: JSON | None) -> list[int]:
    """Users a new message notifies: its ``<@id>`` mentions that ``allowed_mentions`` permits."""
    mentioned = [int(m) for m in _USER_MENTION.findall(content)]
    if allowed_mentions is None or "users" in allowed_mentions.get("parse", []):
        return mentioned
    explicit = {int(u) for u in allowed_mentions.get("users", [])}
    return [u for u in mentioned if u in explicit]


@dataclass(frozen=True)
class Upload:
    """A file a fake user attaches to a slash command option of type attachment."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF, as Discord reports for image attachments."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None
