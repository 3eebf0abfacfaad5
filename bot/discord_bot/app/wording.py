"""Names and numbers in the players' words: players, counts with the right plural, records,
ratings, time left and how a game ended.

Every reply that shows a name, a count, a rating or a wait goes through these, so "Tafl AI
(hard)", "1 loss", "1500? after 1 rated game" and "45 s" read the same everywhere. It imports
nothing else of the Discord layer, so the hub and the presenters can both use it.
"""

from __future__ import annotations

import math

from bot.ai import LEVELS, level_rating
from bot.storage import (
    GameRecord,
    GameStatus,
    Participant,
    PlayerRating,
    SideRecord,
    TableEnding,
)

# English plurals the bot uses that are not just word + "s".
_PLURALS = {"loss": "losses"}


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, in the plural unless the count is one: "1 win", "2 losses"."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {_PLURALS.get(word, word + 's')}"


def side_record(record: SideRecord) -> str:
    """ "2 wins · 1 loss · 0 draws"."""
    return " · ".join(
        (plural(record.wins, "win"), plural(record.losses, "loss"), plural(record.draws, "draw"))
    )


def rating_with_games(rated: PlayerRating) -> str:
    """ "1662? after 1 rated game"."""
    return f"{rated.rating.display} after {plural(rated.games, 'rated game')}"


def seconds_left(seconds: float) -> str:
    """A wait in whole seconds, rounded up so it never says "0 s" while time is left."""
    return f"{max(1, math.ceil(seconds))} s"


def level_name(level: int) -> str:
    """The AI level stored as ``level`` (1-based) by name."""
    return LEVELS[level - 1] if 1 <= level <= len(LEVELS) else f"level {level}"


def ai_strength(variant: str, level: str, *, rated: bool) -> str:
    """The AI's level and its fixed rating, as a new game against it says them: ``medium,
    rated 1500`` in a rated game; in an unrated one the same number as its strength, since
    "rated" would read as if the game counted: ``medium, strength 1500``."""
    rating = level_rating(variant, level)
    return f"{level}, rated {rating}" if rated else f"{level}, strength {rating}"


def plain_name(participant: Participant) -> str:
    """A name without a ping (for images, embeds and records)."""
    if participant.is_ai:
        assert participant.ai_level is not None
        return f"Tafl AI ({level_name(participant.ai_level)})"
    return participant.display_name or f"player {participant.user_id}"


def game_over(record: GameRecord) -> str:
    """How a game that is no longer played ended: ``Game #4 is over: bo won with the defenders
    (king escaped).``"""
    if record.status is GameStatus.ABORTED:
        return f"Game #{record.id} was called off."
    if record.status is GameStatus.UNREPLAYABLE:
        return f"Game #{record.id} was set aside because of a problem on our side."
    reason = record.reason.value if record.reason else "game over"
    if record.result is None or record.result.value == "draw":
        agreed = record.reason is TableEnding.AGREED_DRAW
        return f"Game #{record.id} is over: drawn {'by agreement' if agreed else f'({reason})'}."
    winner = record.attackers if record.result.value == "attackers" else record.defenders
    return (
        f"Game #{record.id} is over: {plain_name(winner)} won with the {record.result.value} "
        f"({reason})."
    )
