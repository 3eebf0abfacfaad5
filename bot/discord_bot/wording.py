"""Numbers in the players' words: counts with the right plural, records, ratings and time left.

Every reply that shows a count, a rating or a wait goes through these, so "1 loss", "1500? after
1 rated game" and "45 s" read the same everywhere. It imports nothing else of the Discord layer,
so the hub and the presenters can both use it.
"""

from __future__ import annotations

import math

from bot.storage import PlayerRating, SideRecord

# English plurals the bot uses that are not just word + "s".
_PLURALS = {"loss": "losses"}


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, in the plural unless the count is one: "1 win", "2 losses"."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {_PLURALS.get(word, word + 's')}"


def side_record(record: SideRecord) -> str:
    """"2 wins · 1 loss · 0 draws"."""
    return " · ".join(
        (plural(record.wins, "win"), plural(record.losses, "loss"), plural(record.draws, "draw"))
    )


def rating_with_games(rated: PlayerRating) -> str:
    """"1662? after 1 rated game"."""
    return f"{rated.rating.display} after {plural(rated.games, 'rated game')}"


def seconds_left(seconds: float) -> str:
    """A wait in whole seconds, rounded up so it never says "0 s" while time is left."""
    return f"{max(1, math.ceil(seconds))} s"
