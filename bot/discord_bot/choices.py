"""The fixed choices of the slash commands' options (Discord shows them as menus)."""

from __future__ import annotations

from discord import app_commands

from bot.ai import describe_levels
from bot.engine import VARIANTS

from .app.durations import LOBBY_MOVE_SECONDS, describe_duration

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

LOBBY_TIMES = {f"{describe_duration(seconds)} per move": seconds for seconds in LOBBY_MOVE_SECONDS}
"""The times per move the lobby offers, by name: "2 minutes per move" to "3 days per move"."""
DEFAULT_LOBBY_TIME = 86400
"""Games across servers are often slow: a day per move unless the seeker says otherwise."""
LOBBY_TIME_CHOICES = [
    app_commands.Choice(name=name, value=value) for name, value in LOBBY_TIMES.items()
]
