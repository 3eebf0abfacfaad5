"""The fixed choices of the slash commands' options (Discord shows them as menus), for the
features not yet taking them from their composition."""

from __future__ import annotations

from discord import app_commands

from .app.lobby import LOBBY_TIMES as LOBBY_TIMES  # the lobby's rule, offered as choices
from .compose.help import VARIANTS
from .table import choices

VARIANT_CHOICES = choices(VARIANTS)

LOBBY_TIME_CHOICES = [
    app_commands.Choice(name=name, value=value) for name, value in LOBBY_TIMES.items()
]
