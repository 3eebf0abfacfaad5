"""Names and replays in Discord for the features not yet composing their messages as data (a
game's own words and boards are composed in :mod:`.compose.board`)."""

from __future__ import annotations

import asyncio

from bot.engine import Game, Side, get_variant
from bot.render import DEFAULT_WIDTH, render_gif, replay_views
from bot.storage import Challenge, GameOutcome, Participant

from .app.games import LiveGame
from .app.wording import plain_name
from .compose import board
from .limits import ATTACHMENT


def mention(participant: Participant) -> str:
    """A ping for a person, the plain name for the AI."""
    return board.mention(participant, plain_name(participant))


def stranger(live: LiveGame, side: Side) -> str:
    """How the player of ``side`` of a game across servers is named in the other player's
    server: their name and their server's, in plain text (mentions never cross servers)."""
    venue = live.venue(side)
    name = plain_name(live.participant(side))
    return name if venue is None else board.named(name, venue.guild_name)


def whose_challenge(challenge: Challenge, *, to: bool = True) -> str:
    """``@ann's Brandubh challenge to @bo``: whose challenge it was and which variant (for edits
    of the challenge message, where mentions show names without notifying anyone again)."""
    title = get_variant(challenge.variant).title
    text = f"{mention(challenge.challenger)}'s **{title}** challenge"
    if to and challenge.challenged is not None:
        text += f" to {mention(challenge.challenged)}"
    return text


REPLAY_WIDTHS = (DEFAULT_WIDTH, 480, 360)
"""Widths a replay is drawn at, largest first, until it fits in one upload."""


async def render_replay(
    game: Game,
    attackers: str,
    defenders: str,
    limit: int = ATTACHMENT,
    *,
    outcome: GameOutcome | None = None,
) -> tuple[bytes, int] | None:
    """An animated GIF of the whole game and its width, rendered in a worker thread: drawn
    smaller when a long game would not fit in ``limit`` bytes, ``None`` if it never does. The
    last frame shows ``outcome``, the stored result of a game ended off the board."""
    views = replay_views(
        game,
        caption=True,
        attackers=attackers,
        defenders=defenders,
        ended=board.caption_ending(outcome),
        words=board.CAPTION_WORDS,
    )
    for width in REPLAY_WIDTHS:
        data = await asyncio.to_thread(render_gif, views, width=width)
        if len(data) <= limit:
            return data, width
    return None
