"""The shared vocabulary of what players read: names without a ping, counts with their plural,
records, ratings, waits and how a game ended, for every feature's composition.

Compose modules and adapters take these words from here. Their definitions still live in
``app/wording.py`` while some services word refusals themselves; they move here, and
``app/wording.py`` goes, once no service builds a sentence.
"""

from __future__ import annotations

from ..app.wording import (
    ai_strength,
    game_over,
    level_name,
    plain_name,
    plural,
    rating_with_games,
    seconds_left,
    side_record,
)

__all__ = [
    "ai_strength",
    "game_over",
    "level_name",
    "plain_name",
    "plural",
    "rating_with_games",
    "seconds_left",
    "side_record",
]
