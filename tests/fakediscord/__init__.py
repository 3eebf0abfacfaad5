"""A local stand-in for Discord's REST API and gateway; see :mod:`fakediscord.server`."""

from .httpio import ReceivedFile, RequestLog, RequestRecord
from .interactions import FakeInteraction, InteractionResponse
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Upload,
)
from .permissions import BOT_PERMISSIONS, EVERYONE_PERMISSIONS, Overwrite, Permission
from .server import FakeDiscord

__all__ = [
    "BOT_PERMISSIONS",
    "EVERYONE_PERMISSIONS",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionResponse",
    "Overwrite",
    "Permission",
    "ReceivedFile",
    "RequestLog",
    "RequestRecord",
    "Upload",
]
