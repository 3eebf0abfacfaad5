"""Names in Discord for the features not yet composing their messages as data (a game's own
words and boards are composed in :mod:`.compose.board`)."""

from __future__ import annotations

from bot.engine import Side

from .app.games import LiveGame
from .app.wording import plain_name
from .compose import board


def stranger(live: LiveGame, side: Side) -> str:
    """How the player of ``side`` of a game across servers is named in the other player's
    server: their name and their server's, in plain text (mentions never cross servers)."""
    venue = live.venue(side)
    name = plain_name(live.participant(side))
    return name if venue is None else board.named(name, venue.guild_name)
