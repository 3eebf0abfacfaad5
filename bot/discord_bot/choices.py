"""The fixed choices of the slash commands' options (Discord shows them as menus), for the
features not yet taking them from their composition."""

from __future__ import annotations

from discord import app_commands

from .compose.help import VARIANTS
from .compose.lobby import LOBBY_TIMES as LOBBY_TIMES  # the lobby's times, by name
from .table import choices

VARIANT_CHOICES = choices(VARIANTS)

LOBBY_TIME_CHOICES = [
    app_commands.Choice(name=name, value=value) for name, value in LOBBY_TIMES.items()
]
