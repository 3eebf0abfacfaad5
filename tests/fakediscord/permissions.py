"""Discord permission bits and the channel permission computation Discord performs."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class Permission(enum.IntFlag):
    """The permission bits a tafl bot and its tests can meet (Discord developer docs)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 53) - 1

#: What DISCORD.md says the bot needs, plus threads and reactions.
BOT_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.ADD_REACTIONS
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
)

#: Roughly the @everyone permissions of a freshly created server.
EVERYONE_PERMISSIONS = (
    Permission.CREATE_INSTANT_INVITE
    | Permission.CHANGE_NICKNAME
    | Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.CREATE_PUBLIC_THREADS
)

#: Permissions in a DM channel.
DM_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.USE_EXTERNAL_EMOJIS
)

ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (type 0) or a member (type 1)."""

    target_id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, object]:
        return {
            "id": str(self.target_id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def compute_permissions(
    *,
    guild_id: int,
    owner_id: int,
    user_id: int,
    role_permissions: dict[int, int],
    member_role_ids: Iterable[int],
    overwrites: Iterable[Overwrite],
) -> int:
    """Discord's algorithm: base role permissions, then @everyone, role and member overwrites.

    ``role_permissions`` maps every role id of the guild (including @everyone, whose id is
    the guild id) to its permissions.
    """
    if user_id == owner_id:
        return ALL_PERMISSIONS
    role_ids = set(member_role_ids)
    base = role_permissions.get(guild_id, 0)
    for role_id in role_ids:
        base |= role_permissions.get(role_id, 0)
    if base & Permission.ADMINISTRATOR:
        return ALL_PERMISSIONS
    overwrites = list(overwrites)
    for ow in overwrites:
        if ow.type == ROLE_OVERWRITE and ow.target_id == guild_id:
            base = (base & ~ow.deny) | ow.allow
    allow = deny = 0
    for ow in overwrites:
        if ow.type == ROLE_OVERWRITE and ow.target_id in role_ids:
            allow |= ow.allow
            deny |= ow.deny
    base = (base & ~deny) | allow
    for ow in overwrites:
        if ow.type == MEMBER_OVERWRITE and ow.target_id == user_id:
            base = (base & ~ow.deny) | ow.allow
    if not base & Permission.VIEW_CHANNEL:
        return 0
    return base
