"""The fixed choices of the slash commands' options (Discord shows them as menus)."""

from __future__ import annotations

from discord import app_commands

from bot.ai import describe_levels
from bot.engine import VARIANTS

from .compose.lobby import LOBBY_TIMES as LOBBY_TIMES  # the lobby's times, by name

VARIANT_CHOICES = [app_commands.Choice(name=v.title, value=v.name) for v in VARIANTS.values()]
SIDE_CHOICES = [
    app_commands.Choice(name="Random", value="random"),
    # Names that hold in every variant (Tablut's Muscovites and Swedes are not Copenhagen's).
    app_commands.Choice(name="Attackers (dark)", value="attackers"),
    app_commands.Choice(name="Defenders and the king (light)", value="defenders"),
]
LEVEL_CHOICES = [
    app_commands.Choice(name=f"{level.title()} ({description})"[:100], value=level)
    for level, description in describe_levels().items()
]

LOBBY_TIME_CHOICES = [
    app_commands.Choice(name=name, value=value) for name, value in LOBBY_TIMES.items()
]
