"""Game records as files: a finished or running game in OpenTafl Notation, with its tags and, for
a reviewed game, the review's verdicts as remarks on its moves."""

from __future__ import annotations

from collections.abc import Mapping

from bot.ai.analysis import GameAnalysis, budget_name
from bot.engine import Game
from bot.storage import GameRecord, Storage
from bot.storage.replay import replay_game

from .wording import plain_name


async def otn_record(
    storage: Storage, record: GameRecord, *, tags: Mapping[str, str] | None = None
) -> tuple[str, Game]:
    """The OTN text of a stored game, and the game replayed; ``tags`` add to (or replace) the
    game's own (a result its tournament's organiser set, say)."""
    played = replay_game(record, await storage.games.moves(record.id))
    own = {
        "attackers": plain_name(record.attackers),
        "defenders": plain_name(record.defenders),
        "date": record.created_at.strftime("%Y.%m.%d"),
        "site": "Discord",
    }
    if record.reason is not None:
        own["termination"] = record.reason.value
    if record.result is not None:  # also for games ended off the board (resignation, time)
        own["result"] = RESULT_TAGS[record.result.value]
    own.update(tags or {})
    stored = await storage.analyses.get(record.id, budget_name(record.variant))
    comments = None if stored is None else GameAnalysis.from_json(stored).comments()
    return played.to_record(own, comments), played


RESULT_TAGS = {"attackers": "1", "defenders": "-1", "draw": "0"}
"""OTN's ``result`` tag of each result: the attackers win, the defenders win, a draw."""
