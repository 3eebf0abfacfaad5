"""Tournaments inside a server: the event, its entrants, each round's pairings and its history.

The store keeps what an event is and what happened in it; who plays whom is decided above it
(``bot.tournament``), from what the store returns. Every change that moves an event forward is a
compare-and-set on the event's row (its ``status`` and ``round``), so when several bot processes
see a round end at the same moment, exactly one of them pairs the next round: the others' writes
change nothing and they learn that they lost the race.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .database import Connection, Database, Row, whole
from .errors import NotFound, StorageError
from .models import Participant
from .players import participant_columns, participant_from_row, player_id

Format = Literal["swiss", "round_robin", "arena"]
Status = Literal["signup", "running", "paused", "finished", "cancelled"]
Decided = Literal["played", "bye", "forfeit", "adjudicated"]


EntryBar = Literal[
    "over", "no late entry", "last round", "below floor", "above ceiling", "already in", "left"
]
"""Which rule keeps a player out of an event."""


class EntryRefused(StorageError):
    """A player may not join an event: ``why`` says which rule (``left_reason``: why a player
    who left did); the message says it for the logs."""

    def __init__(self, message: str, why: EntryBar, left_reason: str | None = None) -> None:
        super().__init__(message)
        self.why: EntryBar = why
        self.left_reason = left_reason


@dataclass(frozen=True)
class TournamentSpec:
    """What an organiser chose when creating an event."""

    guild_id: int
    channel_id: int
    name: str
    variant: str
    format: Format
    rounds: int | None
    """Swiss: how many rounds (round robin: set by the entrants; arena: none)."""
    arena_seconds: int | None
    """Arena: how long the event lasts."""
    matches: bool
    """Each pairing is a two-game match with sides swapped (else one game)."""
    move_seconds: int | None
    round_seconds: int | None
    """How long a round may last before its unfinished games are settled by their clocks."""
    rated: bool
    rating_floor: int | None
    rating_ceiling: int | None
    min_entrants: int
    starts_at: int


@dataclass(frozen=True)
class Tournament:
    """An event as stored."""

    id: int
    spec: TournamentSpec
    announcement_id: int | None
    status: Status
    round: int
    round_deadline: int | None
    ends_at: int | None
    organiser: Participant
    created_at: int
    ended_at: int | None

    @property
    def name(self) -> str:
        """The event's name."""
        return self.spec.name


@dataclass(frozen=True)
class Entrant:
    """A player of an event."""

    player: Participant
    seed_rating: float
    joined_round: int
    """The round being played when they joined (0: before the start)."""
    left_reason: str | None
    """Why they are no longer paired (withdrew, removed, left the server), if so."""

    @property
    def active(self) -> bool:
        """Whether they are still paired in new rounds."""
        return self.left_reason is None


@dataclass(frozen=True)
class NewPairing:
    """A pairing to store for a round: ``second`` ``None`` for a bye worth ``bye_points``."""

    board: int
    first: int
    """The Discord user id of the player who attacks in the (first) game."""
    second: int | None
    bye_points: float = 0.0


@dataclass(frozen=True)
class StoredPairing:
    """A round's pairing as stored, with its games and, once decided, the points."""

    round: int
    board: int
    first: Participant
    second: Participant | None
    game1_id: int | None
    game2_id: int | None
    first_points: float | None
    second_points: float | None
    decided: Decided | None
    reason: str | None

    @property
    def is_bye(self) -> bool:
        """A player without an opponent this round."""
        return self.second is None

    @property
    def games(self) -> tuple[int, ...]:
        """The ids of its games so far."""
        return tuple(g for g in (self.game1_id, self.game2_id) if g is not None)


Fact = int | str | bool
"""One fact of a history line: a number, a word, a yes or no."""


@dataclass(frozen=True)
class LogEntry:
    """One line of an event's history: what happened (``joined``, ``round``...) and its
    details, the facts the bot logged (a mapping, written as JSON: worded in each reader's
    language when shown) or words a person gave (an organiser's reason, an event's name)."""

    at: int
    actor: Participant | None
    action: str
    detail: str

    @property
    def facts(self) -> dict[str, Fact]:
        """The details the bot logged as facts (empty for words a person gave, and for the
        sentences of older versions)."""
        if not self.detail.startswith("{"):
            return {}
        try:
            found = json.loads(self.detail)
        except ValueError:
            return {}
        if not isinstance(found, dict):
            return {}
        return {
            str(key): value
            for key, value in found.items()
            if isinstance(value, int | str)  # a bool is an int
        }


Detail = str | Mapping[str, "Fact"]
"""A history line's details: facts (a mapping) or a person's words."""


_EVENT_SELECT = f"""
SELECT t.*, {participant_columns("o", "o_")}
FROM tournaments AS t JOIN players AS o ON o.id = t.created_by
"""
_PAIRING_SELECT = f"""
SELECT x.*, {participant_columns("a", "a_")}, {participant_columns("b", "b_")}
FROM tournament_pairings AS x
JOIN players AS a ON a.id = x.first_id
LEFT JOIN players AS b ON b.id = x.second_id
"""


def _event(row: Row) -> Tournament:
    spec = TournamentSpec(
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        name=str(row["name"]),
        variant=str(row["variant"]),
        format=row["format"],
        rounds=row["rounds"],
        arena_seconds=row["arena_seconds"],
        matches=bool(row["matches"]),
        move_seconds=row["move_seconds"],
        round_seconds=row["round_seconds"],
        rated=bool(row["rated"]),
        rating_floor=row["rating_floor"],
        rating_ceiling=row["rating_ceiling"],
        min_entrants=int(row["min_entrants"]),
        starts_at=int(row["starts_at"]),
    )
    return Tournament(
        id=int(row["id"]),
        spec=spec,
        announcement_id=row["announcement_id"],
        status=row["status"],
        round=int(row["round"]),
        round_deadline=row["round_deadline"],
        ends_at=row["ends_at"],
        organiser=participant_from_row(row, "o_"),
        created_at=int(row["created_at"]),
        ended_at=row["ended_at"],
    )


def _pairing(row: Row) -> StoredPairing:
    second = participant_from_row(row, "b_") if row["second_id"] is not None else None
    return StoredPairing(
        round=int(row["round"]),
        board=int(row["board"]),
        first=participant_from_row(row, "a_"),
        second=second,
        game1_id=row["game1_id"],
        game2_id=row["game2_id"],
        first_points=row["first_points"],
        second_points=row["second_points"],
        decided=row["decided"],
        reason=row["reason"],
    )


class TournamentStore:
    """Events, entrants, pairings and history (see the module's text for the guarantees)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ events

    async def create(self, spec: TournamentSpec, organiser: Participant) -> Tournament:
        """Store a new event, open for sign-up."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            creator = await player_id(connection, organiser, now)
            event_id = await connection.fetch_value(
                "INSERT INTO tournaments (guild_id, channel_id, name, variant, format, rounds,"
                " arena_seconds, matches, move_seconds, round_seconds, rated, rating_floor,"
                " rating_ceiling, min_entrants, starts_at, created_by, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    spec.guild_id,
                    spec.channel_id,
                    spec.name,
                    spec.variant,
                    spec.format,
                    spec.rounds,
                    spec.arena_seconds,
                    int(spec.matches),
                    spec.move_seconds,
                    spec.round_seconds,
                    int(spec.rated),
                    spec.rating_floor,
                    spec.rating_ceiling,
                    spec.min_entrants,
                    spec.starts_at,
                    creator,
                    now,
                    now,
                ),
            )
            await _log(connection, whole(event_id), creator, now, "created", spec.name)
            return await _fetch_event(connection, whole(event_id))

    async def get(self, event_id: int) -> Tournament:
        """An event by id (:class:`NotFound` if there is none)."""
        async with self._db.read() as connection:
            return await _fetch_event(connection, event_id)

    async def in_guild(self, guild_id: int, *, include_ended: bool = False) -> list[Tournament]:
        """A server's events, newest first (ended ones only if asked)."""
        where = "" if include_ended else " AND t.status NOT IN ('finished', 'cancelled')"
        async with self._db.read() as connection:
            rows = await connection.fetch(
                _EVENT_SELECT + f"WHERE t.guild_id = ?{where} ORDER BY t.id DESC",
                (guild_id,),
            )
        return [_event(row) for row in rows]

    async def due(self, guild_ids: Sequence[int] | None = None) -> list[Tournament]:
        """Events with something to do: sign-ups past their start, and running and paused
        events (their rounds may have ended or passed their deadline; a paused event's games
        go on), of ``guild_ids`` (all with ``None``)."""
        now = self._db.now()
        async with self._db.read() as connection:
            rows = await connection.fetch(
                _EVENT_SELECT + "WHERE (t.status = 'signup' AND t.starts_at <= ?)"
                " OR t.status IN ('running', 'paused') ORDER BY t.id",
                (now,),
            )
        events = [_event(row) for row in rows]
        if guild_ids is None:
            return events
        wanted = set(guild_ids)
        return [event for event in events if event.spec.guild_id in wanted]

    async def set_announcement(self, event_id: int, message_id: int) -> None:
        """Remember the message that announces the event (its Join button)."""
        async with self._db.transaction() as connection:
            await connection.execute(
                "UPDATE tournaments SET announcement_id = ? WHERE id = ?", (message_id, event_id)
            )

    async def change_status(
        self,
        event_id: int,
        expected: Sequence[Status],
        status: Status,
        *,
        actor: Participant | None = None,
        action: str,
        detail: Detail = "",
    ) -> bool:
        """Move an event from one of ``expected`` to ``status`` and log it; ``False`` (nothing
        written) if it was in another state (another process, or another click, came first)."""
        now = self._db.now()
        marks = ", ".join("?" for _ in expected)
        ended = status in ("finished", "cancelled")
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                f"UPDATE tournaments SET status = ?, updated_at = ?,"
                f" ended_at = CASE WHEN ? = 1 THEN ? ELSE ended_at END"
                f" WHERE id = ? AND status IN ({marks})",
                (status, now, int(ended), now, event_id, *expected),
            )
            if changed != 1:
                return False
            who = None if actor is None else await player_id(connection, actor, now)
            await _log(connection, event_id, who, now, action, detail)
        return True

    # ------------------------------------------------------------------ entrants

    async def join(
        self, event_id: int, player: Participant, rating: float, *, late_round: int = 0
    ) -> Entrant:
        """Enter ``player`` (rated ``rating`` in the event's variant). :class:`EntryRefused`
        when the event is closed, the rating is outside its bounds or they are in already."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            event = await _fetch_event(connection, event_id, lock=True)
            if event.status not in ("signup", "running", "paused"):
                raise EntryRefused(f"**{event.name}** is over.", "over")
            if event.status != "signup" and event.spec.format == "round_robin":
                raise EntryRefused(
                    f"**{event.name}** has begun: a round robin takes no late entry.",
                    "no late entry",
                )
            if (
                event.status != "signup"
                and event.spec.format == "swiss"
                and event.round >= (event.spec.rounds or 1)
            ):
                raise EntryRefused(
                    f"**{event.name}** is playing its last round: there is no round left to join.",
                    "last round",
                )
            floor, ceiling = event.spec.rating_floor, event.spec.rating_ceiling
            if floor is not None and rating < floor:
                raise EntryRefused(
                    f"**{event.name}** is for players rated {floor} or more; you are {rating:.0f}.",
                    "below floor",
                )
            if ceiling is not None and rating > ceiling:
                raise EntryRefused(
                    f"**{event.name}** is for players rated up to {ceiling}; you are {rating:.0f}.",
                    "above ceiling",
                )
            who = await player_id(connection, player, now)
            existing = await connection.fetch_one(
                "SELECT left_reason FROM tournament_entrants WHERE tournament_id = ?"
                " AND player_id = ?",
                (event_id, who),
            )
            if existing is not None:
                if existing["left_reason"] is None:
                    raise EntryRefused(f"You are already in **{event.name}**.", "already in")
                raise EntryRefused(
                    f"You left **{event.name}** ({existing['left_reason']}) and cannot join again.",
                    "left",
                    existing["left_reason"],
                )
            joined_round = event.round if event.status != "signup" else 0
            await connection.execute(
                "INSERT INTO tournament_entrants (tournament_id, player_id, seed_rating,"
                " joined_at, joined_round) VALUES (?, ?, ?, ?, ?)",
                (event_id, who, rating, now, max(joined_round, late_round)),
            )
            await _log(connection, event_id, who, now, "joined", {"rating": round(rating)})
        return Entrant(player, rating, max(joined_round, late_round), None)

    async def leave(
        self,
        event_id: int,
        user_id: int,
        reason: str,
        *,
        actor: Participant | None = None,
        detail: str = "",
    ) -> bool:
        """Take a player out of the event's future pairings (``reason``: withdrew, removed,
        left the server); their played games stand. Before the start they are simply no longer
        entered (and may join again). ``False`` if they were not in it."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            event = await _fetch_event(connection, event_id, lock=True)
            if event.status == "signup":
                # Before the start, leaving is changing one's mind: no trace, free to rejoin.
                changed = await connection.execute(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND player_id ="
                    " (SELECT id FROM players WHERE discord_user_id = ?)",
                    (event_id, user_id),
                )
                if changed == 1:
                    who = None if actor is None else await player_id(connection, actor, now)
                    name = await _name(connection, user_id)
                    facts = {"player": name, "left": reason}
                    await _log(connection, event_id, who, now, "left", facts)
                return changed == 1
            changed = await connection.execute(
                "UPDATE tournament_entrants SET left_at = ?, left_reason = ?"
                " WHERE tournament_id = ? AND left_reason IS NULL AND player_id ="
                " (SELECT id FROM players WHERE discord_user_id = ?)",
                (now, reason, event_id, user_id),
            )
            if changed != 1:
                return False
            who = None if actor is None else await player_id(connection, actor, now)
            facts = {"player": await _name(connection, user_id), "left": reason}
            if detail:
                facts["why"] = detail
            await _log(connection, event_id, who, now, "left", facts)
        return True

    async def entrants(self, event_id: int) -> list[Entrant]:
        """Every entrant, in the order they joined."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"SELECT e.*, {participant_columns('p', 'p_')} FROM tournament_entrants AS e"
                " JOIN players AS p ON p.id = e.player_id WHERE e.tournament_id = ?"
                " ORDER BY e.joined_at, e.player_id",
                (event_id,),
            )
        return [
            Entrant(
                participant_from_row(row, "p_"),
                float(row["seed_rating"]),
                int(row["joined_round"]),
                row["left_reason"],
            )
            for row in rows
        ]

    async def events_of(self, user_id: int) -> list[Tournament]:
        """The events a player is in and still paired in (running or signing up)."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                _EVENT_SELECT + "JOIN tournament_entrants AS e ON e.tournament_id = t.id"
                " JOIN players AS p ON p.id = e.player_id WHERE p.discord_user_id = ?"
                " AND e.left_reason IS NULL AND t.status IN ('signup', 'running', 'paused')"
                " ORDER BY t.id",
                (user_id,),
            )
        return [_event(row) for row in rows]

    # ------------------------------------------------------------------ rounds

    async def begin_round(
        self,
        event_id: int,
        round_number: int,
        pairings: Sequence[NewPairing],
        *,
        deadline: int | None,
        ends_at: int | None = None,
    ) -> bool:
        """Store round ``round_number``'s pairings and make it the event's round, if the event
        is running round ``round_number - 1`` (or signing up, for round 1). ``False`` (nothing
        written) if another process began it first. Byes are decided at once."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE tournaments SET round = ?, round_deadline = ?, updated_at = ?,"
                " status = 'running', ends_at = coalesce(?, ends_at)"
                " WHERE id = ? AND round = ? AND status IN ('signup', 'running')",
                (round_number, deadline, now, ends_at, event_id, round_number - 1),
            )
            if changed != 1:
                return False
            await self._insert_pairings(connection, event_id, round_number, pairings)
            await _log(connection, event_id, None, now, "round", {"round": round_number})
        return True

    async def add_pairings(
        self, event_id: int, round_number: int, pairings: Sequence[NewPairing]
    ) -> None:
        """Add pairings to the round being played (an arena pairs players as they come free)."""
        async with self._db.transaction() as connection:
            await self._insert_pairings(connection, event_id, round_number, pairings)

    async def _insert_pairings(
        self,
        connection: Connection,
        event_id: int,
        round_number: int,
        pairings: Sequence[NewPairing],
    ) -> None:
        now = self._db.now()
        base = await connection.fetch_value(
            "SELECT coalesce(max(board), 0) FROM tournament_pairings"
            " WHERE tournament_id = ? AND round = ?",
            (event_id, round_number),
        )
        for offset, pairing in enumerate(pairings, start=1):
            first = await _player_by_user(connection, pairing.first, now)
            second = (
                None
                if pairing.second is None
                else await _player_by_user(connection, pairing.second, now)
            )
            bye = pairing.second is None
            await connection.execute(
                "INSERT INTO tournament_pairings (tournament_id, round, board, first_id,"
                " second_id, first_points, second_points, decided)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event_id,
                    round_number,
                    whole(base) + offset if pairing.board <= 0 else pairing.board,
                    first,
                    second,
                    pairing.bye_points if bye else None,
                    None,
                    "bye" if bye else None,
                ),
            )

    async def pairings(self, event_id: int, round_number: int | None = None) -> list[StoredPairing]:
        """An event's pairings (of one round), by round and board."""
        where = "WHERE x.tournament_id = ?"
        parameters: tuple[int, ...] = (event_id,)
        if round_number is not None:
            where += " AND x.round = ?"
            parameters = (event_id, round_number)
        async with self._db.read() as connection:
            rows = await connection.fetch(
                _PAIRING_SELECT + where + " ORDER BY x.round, x.board", parameters
            )
        return [_pairing(row) for row in rows]

    async def attach_game(self, event_id: int, round_number: int, board: int, game_id: int) -> None:
        """Record a pairing's game (its first, then its second)."""
        async with self._db.transaction() as connection:
            await connection.execute(
                "UPDATE tournament_pairings SET"
                " game2_id = CASE WHEN game1_id IS NOT NULL AND game1_id <> ? THEN ?"
                " ELSE game2_id END,"
                " game1_id = coalesce(game1_id, ?)"
                " WHERE tournament_id = ? AND round = ? AND board = ?",
                (game_id, game_id, game_id, event_id, round_number, board),
            )

    async def of_game(self, game_id: int) -> tuple[Tournament, StoredPairing] | None:
        """The event and pairing a game belongs to, if it is a tournament game."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                _PAIRING_SELECT + "WHERE x.game1_id = ? OR x.game2_id = ?", (game_id, game_id)
            )
            if row is None:
                return None
            pairing = _pairing(row)
            return await _fetch_event(connection, int(row["tournament_id"])), pairing

    async def decide(
        self,
        event_id: int,
        round_number: int,
        board: int,
        first_points: float,
        second_points: float,
        how: Decided,
        *,
        reason: str | None = None,
        actor: Participant | None = None,
        only_undecided: bool = True,
    ) -> bool:
        """Set a pairing's points: by its games (``played``), or by the organiser (a forfeit or
        an adjudication, with ``reason``, logged). With ``only_undecided`` nothing changes if it
        was decided already (``False``), so a result is counted once whoever settles it."""
        now = self._db.now()
        undecided = " AND decided IS NULL" if only_undecided else ""
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE tournament_pairings SET first_points = ?, second_points = ?, decided = ?,"
                f" reason = ? WHERE tournament_id = ? AND round = ? AND board = ?{undecided}",
                (first_points, second_points, how, reason, event_id, round_number, board),
            )
            if changed != 1:
                return False
            if how in ("forfeit", "adjudicated"):
                who = None if actor is None else await player_id(connection, actor, now)
                await _log(
                    connection,
                    event_id,
                    who,
                    now,
                    "result",
                    {
                        "round": round_number,
                        "board": board,
                        "score": f"{_points(first_points)}-{_points(second_points)}",
                        "how": how,
                        "why": reason or "",
                    },
                )
        return True

    async def claim_standings(self, event_id: int, round_number: int) -> bool:
        """Whether the standings after ``round_number`` are this caller's to post: ``True``
        once per round, to the first caller."""
        async with self._db.transaction() as connection:
            changed = await connection.execute(
                "UPDATE tournaments SET standings_round = ? WHERE id = ?"
                " AND (standings_round IS NULL OR standings_round < ?)",
                (round_number, event_id, round_number),
            )
        return changed == 1

    async def round_open(self, event_id: int, round_number: int) -> int:
        """How many pairings of a round are still undecided."""
        async with self._db.read() as connection:
            value = await connection.fetch_value(
                "SELECT count(*) FROM tournament_pairings WHERE tournament_id = ? AND round = ?"
                " AND decided IS NULL",
                (event_id, round_number),
            )
        return int(value or 0)

    # ------------------------------------------------------------------ history

    async def log(
        self, event_id: int, actor: Participant | None, action: str, detail: Detail = ""
    ) -> None:
        """Add a line to the event's history."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            who = None if actor is None else await player_id(connection, actor, now)
            await _log(connection, event_id, who, now, action, detail)

    async def history(self, event_id: int) -> list[LogEntry]:
        """The event's history, oldest first."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"SELECT l.*, {participant_columns('p', 'p_')} FROM tournament_log AS l"
                " LEFT JOIN players AS p ON p.id = l.actor_id WHERE l.tournament_id = ?"
                " ORDER BY l.id",
                (event_id,),
            )
        return [
            LogEntry(
                int(row["at"]),
                None if row["actor_id"] is None else participant_from_row(row, "p_"),
                str(row["action"]),
                str(row["detail"]),
            )
            for row in rows
        ]


def _points(value: float) -> str:
    whole = int(value)
    return (str(whole) if whole else "") + "½" if value - whole else str(whole)


async def _name(connection: Connection, user_id: int) -> str:
    """A player's display name as last seen (their id if none was ever seen)."""
    name = await connection.fetch_value(
        "SELECT display_name FROM players WHERE discord_user_id = ?", (user_id,)
    )
    return str(name or user_id)


async def _player_by_user(connection: Connection, user_id: int, now: int) -> int:
    return await player_id(connection, Participant.user(user_id), now)


async def _fetch_event(connection: Connection, event_id: int, *, lock: bool = False) -> Tournament:
    row = await connection.fetch_one(
        _EVENT_SELECT + "WHERE t.id = ?" + (connection.for_update if lock else ""), (event_id,)
    )
    if row is None:
        raise NotFound(f"there is no tournament {event_id}")
    return _event(row)


async def _log(
    connection: Connection,
    event_id: int,
    actor_id: int | None,
    now: int,
    action: str,
    detail: Detail,
) -> None:
    if not isinstance(detail, str):
        detail = json.dumps(dict(detail), ensure_ascii=False, sort_keys=True)
    await connection.execute(
        "INSERT INTO tournament_log (tournament_id, at, actor_id, action, detail)"
        " VALUES (?, ?, ?, ?, ?)",
        (event_id, now, actor_id, action, detail),
    )
