"""Game records: which game a request for one means (by number, in its server only; by default
the channel's game), and a game as a file in OpenTafl Notation, with its tags and, for a
reviewed game, the review's verdicts as remarks on its moves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.ai import LEVELS
from bot.ai.analysis import GameAnalysis, budget_name
from bot.engine import Game
from bot.storage import AnalysisStore, GameRecord, GameStore, NotFound, Participant, Storage
from bot.storage.replay import replay_game

from .errors import Refusal, Refused
from .games import GameHub


@dataclass(frozen=True)
class NoSuchGame(Refusal):
    """No game ``game_id`` was played in the server asking."""

    game_id: int


@dataclass(frozen=True)
class NoGameHere(Refusal):
    """No game has been played in the channel asking yet."""


class GameRecords:
    """Finds the games people ask about, and writes them out as records."""

    def __init__(self, games: GameStore, analyses: AnalysisStore, hub: GameHub) -> None:
        self._games = games
        self._analyses = analyses
        self._hub = hub

    async def in_server(self, guild_id: int | None, game_id: int) -> GameRecord:
        """A game by number, which must have been played in the server asking (ids are
        guessable: another server's games are not shown)."""
        try:
            record = await self._games.get(game_id)
        except NotFound:
            record = None
        if record is None or record.guild_id != guild_id:
            raise Refused(NoSuchGame(game_id))
        return record

    async def replayed(self, record: GameRecord) -> Game:
        """A stored game replayed to where it stands."""
        return replay_game(record, await self._games.moves(record.id))

    async def game(
        self, guild_id: int | None, channel_id: int, game_id: int | None
    ) -> tuple[GameRecord, Game]:
        """The game asked for (by number) or else the channel's: the one being played, or the
        last one that finished there."""
        if game_id is None:
            live = self._hub.get(channel_id)
            if live is not None:
                return live.record, live.game
            game_id = await self._games.last_finished_in_channel(channel_id)
            if game_id is None:
                raise Refused(NoGameHere())
        record = await self.in_server(guild_id, game_id)
        return record, await self.replayed(record)

    async def otn(
        self, record: GameRecord, *, tags: Mapping[str, str] | None = None
    ) -> tuple[str, Game]:
        """The OTN text of a stored game, and the game replayed; ``tags`` add to (or replace)
        the game's own (a result its tournament's organiser set, say)."""
        return await _otn(self._games, self._analyses, record, tags)


async def otn_record(
    storage: Storage, record: GameRecord, *, tags: Mapping[str, str] | None = None
) -> tuple[str, Game]:
    """:meth:`GameRecords.otn` for a caller holding the storage."""
    return await _otn(storage.games, storage.analyses, record, tags)


async def _otn(
    games: GameStore,
    analyses: AnalysisStore,
    record: GameRecord,
    tags: Mapping[str, str] | None,
) -> tuple[str, Game]:
    played = replay_game(record, await games.moves(record.id))
    stored = await analyses.get(record.id, budget_name(record.variant))
    return otn_text(record, played, stored, tags), played


def otn_text(
    record: GameRecord, played: Game, review: str | None, tags: Mapping[str, str] | None = None
) -> str:
    """A game's OTN text: its tags (``tags`` add to or replace the game's own), its moves and,
    with its stored ``review``, the review's verdicts as remarks."""
    own = {
        "attackers": record_name(record.attackers),
        "defenders": record_name(record.defenders),
        "date": record.created_at.strftime("%Y.%m.%d"),
        "site": "Discord",
    }
    if record.reason is not None:
        own["termination"] = record.reason.value
    if record.result is not None:  # also for games ended off the board (resignation, time)
        own["result"] = RESULT_TAGS[record.result.value]
    own.update(tags or {})
    comments = None if review is None else GameAnalysis.from_json(review).comments()
    return played.to_record(own, comments)


def record_name(participant: Participant) -> str:
    """A player's name in a game record's tags (a file's data, not translated): the AI by its
    level, a person by the name they had."""
    if participant.is_ai:
        level = participant.ai_level or 0
        return f"Tafl AI ({LEVELS[level - 1] if 1 <= level <= len(LEVELS) else f'level {level}'})"
    return participant.display_name or f"player {participant.user_id}"


RESULT_TAGS = {"attackers": "1", "defenders": "-1", "draw": "0"}
"""OTN's ``result`` tag of each result: the attackers win, the defenders win, a draw."""
