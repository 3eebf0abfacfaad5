"""Tournaments: the events of a server run from sign-up to prize-giving.

Between stored tournaments and the tournament logic (:mod:`bot.tournament`): a stored event's
entrants and pairings become the values the logic pairs and ranks, and its pairings become rows
to store. :class:`TournamentService` runs the events on them: their organisers' commands, their
players joining and leaving, and their clock (starts, rounds paired and settled, deadlines,
arena re-pairing, the final standings). Discord-free: opening a game's thread and asking whether
a member left are asked of a :class:`TournamentStage` the Discord layer provides, which is also
told what happens (:data:`News`). The adapters take the events' stored types from here too,
never from storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal, Protocol

from bot import tournament as logic
from bot.engine import Side, get_variant
from bot.storage import (
    ChannelBusy,
    GameRecord,
    GameStatus,
    NotFound,
    Participant,
    Storage,
)
from bot.storage.tournaments import (
    Details,
    Entrant,
    EntryBar,
    EntryRefused,
    Format,
    LogEntry,
    NewPairing,
    TournamentSpec,
)
from bot.storage.tournaments import Status as Status
from bot.storage.tournaments import StoredPairing as StoredPairing
from bot.storage.tournaments import Tournament as Tournament

from .durations import ENGLISH_WORDS, InputWords, parse_move_time
from .errors import Refusal, Refused
from .games import Ended, GameHub, LiveGame
from .records import RESULT_TAGS, otn_record

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Line:
    """One line of an event's standings, for people."""

    rank: int
    player: Participant
    points: float
    tiebreaks: tuple[tuple[str, float | None], ...]
    withdrawn: bool
    left: str | None = None
    """Why they no longer play (withdrew, removed, left the server)."""


@dataclass(frozen=True)
class Sheet:
    """What an event's rounds so far amount to, in the logic's values."""

    entrants: list[logic.Entrant]
    rounds: list[logic.PlayedRound]
    arena_games: list[logic.ArenaGame]
    people: dict[int, Participant]
    left: dict[int, str]
    """Who no longer plays, and why (withdrew, removed, left the server)."""
    roster: list[int]
    """The players round 1 named (a round robin's schedule is theirs to the end)."""


def scoring_of(event: Tournament) -> logic.Scoring:
    """How the event scores: one game or a match per pairing; a Swiss bye is worth a win, a
    round robin's nothing (everyone sits out once)."""
    bye = 0.0 if event.spec.format == "round_robin" else 1.0
    return logic.Scoring(games_per_pairing=2 if event.spec.matches else 1, bye_points=bye)


def _games_of(
    pairing: StoredPairing, records: dict[int, GameRecord], matches: bool
) -> tuple[logic.Game, ...] | None:
    """A decided pairing's games, as the logic counts them (``None``: nothing to count)."""
    assert pairing.second is not None
    first, second = pairing.first.user_id or 0, pairing.second.user_id or 0
    if pairing.decided == "played":
        games = []
        for game_id in pairing.games:
            record = records[game_id]
            attacker = record.attackers.user_id or 0
            defender = record.defenders.user_id or 0
            result = record.result
            if result is None:
                return None
            value = {"attackers": 1.0, "defenders": 0.0, "draw": 0.5}[result.value]
            games.append(logic.Game(attacker, defender, value))
        if matches and len(games) == 1:
            # A match whose player left after its first game: the second, never played, was
            # lost by forfeit by whoever left, as the pairing's points say (the second player
            # would have attacked in it).
            to_second = (pairing.second_points or 0.0) - games[0].points(second)
            to_first = (pairing.first_points or 0.0) - games[0].points(first)
            if to_first + to_second == 1.0:
                games.append(logic.Game(second, first, to_second, forfeit=True))
        return tuple(games)
    # Decided by the organiser: forfeits, worth the points they were given.
    total = pairing.first_points or 0.0
    other = pairing.second_points or 0.0
    if total + other == 0:
        return None  # both lost: as if unpaired
    if not matches:
        return (logic.Game(first, second, total, forfeit=True),)
    one = min(1.0, total)
    return (
        logic.Game(first, second, one, forfeit=True),
        logic.Game(second, first, 1.0 - (total - one), forfeit=True),
    )


async def sheet_of(storage: Storage, event: Tournament, *, upto: int | None = None) -> Sheet:
    """The event's entrants and decided rounds (up to round ``upto``)."""
    stored = await storage.tournaments.entrants(event.id)
    pairings = await storage.tournaments.pairings(event.id)
    records = {game_id: await storage.games.get(game_id) for p in pairings for game_id in p.games}
    people = {e.player.user_id or 0: e.player for e in stored}
    entrants = [
        logic.Entrant(e.player.user_id or 0, e.seed_rating, withdrawn=not e.active) for e in stored
    ]
    by_round: dict[int, list[StoredPairing]] = defaultdict(list)
    for pairing in pairings:
        by_round[pairing.round].append(pairing)
    rounds = []
    last = max(by_round, default=0) if upto is None else upto
    for number in range(1, last + 1):
        played: list[logic.PlayedPairing] = []
        byes: list[logic.Bye] = []
        named: set[int] = set()
        for pairing in by_round.get(number, []):
            first = pairing.first.user_id or 0
            named.add(first)
            if pairing.second is None:
                byes.append(logic.Bye(first, logic.ByeKind.PAIRING, pairing.first_points or 0.0))
                continue
            named.add(pairing.second.user_id or 0)
            if pairing.decided is None:
                continue
            games = _games_of(pairing, records, event.spec.matches)
            if games is None:
                continue
            played.append(
                logic.PlayedPairing(
                    logic.Pairing(first, pairing.second.user_id or 0, pairing.board), games
                )
            )
        # Late entrants: the rounds before they joined are zero-point byes.
        for entrant in stored:
            user = entrant.player.user_id or 0
            if user not in named and number <= entrant.joined_round:
                byes.append(logic.Bye(user, logic.ByeKind.MISSED, 0.0))
        rounds.append(logic.PlayedRound(number, tuple(played), tuple(byes)))
    arena_games = [
        logic.ArenaGame(game, records[game_id].ply)
        for round_ in rounds
        for pairing_played in round_.pairings
        for game, game_id in zip(
            pairing_played.games,
            next(
                p.games
                for p in pairings
                if p.round == round_.number and p.board == pairing_played.pairing.board
            ),
            strict=False,
        )
    ]
    left = {e.player.user_id or 0: e.left_reason for e in stored if e.left_reason is not None}
    roster = sorted(
        {p.first.user_id or 0 for p in by_round.get(1, [])}
        | {p.second.user_id or 0 for p in by_round.get(1, []) if p.second is not None}
    )
    return Sheet(entrants, rounds, arena_games, people, left, roster)


def pair_round(event: Tournament, sheet: Sheet, round_number: int) -> list[NewPairing]:
    """Round ``round_number``'s pairings of a Swiss or round robin event, to store."""
    if event.spec.format == "round_robin":
        # Round 1 is paired among the active entrants; later rounds follow that schedule.
        named = set(sheet.roster)
        players = [
            e for e in sheet.entrants if (not e.withdrawn if round_number == 1 else e.id in named)
        ]
        schedule = logic.round_robin([logic.Entrant(e.id, e.rating) for e in players])
        planned = schedule[round_number - 1]
        active = {e.id for e in sheet.entrants if not e.withdrawn}
        rows = []
        for pairing in planned.pairings:
            if pairing.attacker in active and pairing.defender in active:
                rows.append(NewPairing(pairing.board, pairing.attacker, pairing.defender))
            else:  # a withdrawn player's opponent has a bye worth a win that round
                stays = pairing.attacker if pairing.attacker in active else pairing.defender
                if stays in active:
                    rows.append(NewPairing(0, stays, None, bye_points=1.0))
        for bye in planned.byes:
            if bye.player in active:
                rows.append(NewPairing(0, bye.player, None, bye_points=bye.points))
        return _numbered(rows)
    planned = logic.pair_swiss(
        sheet.entrants, sheet.rounds[: round_number - 1], round_number, scoring_of(event)
    )
    rows = [NewPairing(p.board, p.attacker, p.defender) for p in planned.pairings]
    rows += [NewPairing(0, bye.player, None, bye_points=bye.points) for bye in planned.byes]
    return _numbered(rows)


def _numbered(rows: list[NewPairing]) -> list[NewPairing]:
    """Boards numbered 1, 2, ... in order, byes last."""
    games = [row for row in rows if row.second is not None]
    byes = [row for row in rows if row.second is None]
    return [
        NewPairing(board, row.first, row.second, row.bye_points)
        for board, row in enumerate(games + byes, start=1)
    ]


def rounds_of(event: Tournament, entrants: int) -> int:
    """How many rounds the event plays (an arena: one, open until it ends)."""
    if event.spec.format == "swiss":
        return event.spec.rounds or 1
    if event.spec.format == "round_robin":
        return entrants - 1 + entrants % 2
    return 1


def pair_arena(
    sheet: Sheet, busy: set[int], pairings: list[StoredPairing], records: dict[int, GameRecord]
) -> list[NewPairing]:
    """The arena players free now, paired (see :func:`bot.tournament.pair_arena`)."""
    free = [e for e in sheet.entrants if not e.withdrawn and e.id not in busy]
    scores = {p: s.points for p, s in logic.arena_scores(sheet.arena_games).items()}
    last_opponents: dict[int, int] = {}
    last_sides: dict[int, Side] = {}
    for pairing in pairings:
        if pairing.second is None:
            continue
        a, b = pairing.first.user_id or 0, pairing.second.user_id or 0
        last_opponents[a], last_opponents[b] = b, a
        last_sides[a], last_sides[b] = Side.ATTACKERS, Side.DEFENDERS
    found = logic.pair_arena(free, scores, last_opponents, last_sides)
    return [NewPairing(0, p.attacker, p.defender) for p in found.pairings]


def standings_of(event: Tournament, sheet: Sheet) -> list[Line]:
    """The standings, best first: points and the event's tiebreaks (an arena: its score).
    A player who no longer plays keeps the place their score gives them, as under FIDE's and
    lichess's rules (they are marked ``withdrawn``: only the pairing leaves them out)."""
    if event.spec.format == "arena":
        scores = logic.arena_scores(sheet.arena_games)
        ordered = sorted(
            sheet.entrants,
            key=lambda e: (-(scores[e.id].points if e.id in scores else 0), -e.rating, e.id),
        )
        return [
            Line(
                rank,
                sheet.people[e.id],
                float(scores[e.id].points) if e.id in scores else 0.0,
                (("games", float(len(scores[e.id].sheet)) if e.id in scores else 0.0),),
                e.withdrawn,
                sheet.left.get(e.id),
            )
            for rank, e in enumerate(ordered, start=1)
        ]
    scoring = scoring_of(event)
    order = logic.MATCH_ORDER if scoring.matches else logic.ONE_GAME_ORDER
    table = logic.standings(sheet.entrants, sheet.rounds, scoring, order)
    short = {
        logic.Tiebreak.BUCHHOLZ: "BH",
        logic.Tiebreak.SONNEBORN_BERGER: "SB",
        logic.Tiebreak.GAME_POINTS: "GP",
        logic.Tiebreak.WINS: "W",
        logic.Tiebreak.PERFORMANCE: "Perf",
    }
    lines = [
        Line(
            line.rank,
            sheet.people[line.player],
            line.points,
            tuple(
                (
                    short[which],
                    line.performance
                    if which is logic.Tiebreak.PERFORMANCE
                    else line.tiebreak(which),
                )
                for which in order
            ),
            line.player in sheet.left,
            sheet.left.get(line.player),
        )
        for line in table
    ]
    return lines


# ====================================================================== the events, run


MIN_ENTRANTS = {"swiss": 4, "round_robin": 3, "arena": 2}
"""Fewest players an event starts with, unless the organiser says otherwise."""
ANY_STATUS: frozenset[Status] = frozenset(("signup", "running", "paused", "finished", "cancelled"))
UNDER_WAY: frozenset[Status] = frozenset(("signup", "running", "paused"))
SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "½-½": (0.5, 0.5), "0-0": (0.0, 0.0)}
"""The results an organiser may set, first-named player's score first (one game's worth)."""


def score_of(record: GameRecord, player: Participant) -> float:
    """What ``player`` scored in a finished game: 1, ½ or 0."""
    if record.result is None or record.result.value == "draw":
        return 0.5 if record.result is not None else 0.0
    winner = record.attackers if record.result.value == "attackers" else record.defenders
    return 1.0 if winner == player else 0.0


def called_off_tags(pairing: StoredPairing, record: GameRecord) -> dict[str, str]:
    """The OTN tags of a game called off for its organiser's result: ``termination`` says how
    the organiser decided (forfeit, adjudicated) and ``result`` who the pairing's result makes
    the winner of this game (none when both players lost)."""
    assert pairing.decided is not None and pairing.second is not None
    tags: dict[str, str] = {"termination": pairing.decided}
    first, second = pairing.first_points or 0.0, pairing.second_points or 0.0
    if first == second:
        if first > 0:
            tags["result"] = RESULT_TAGS["draw"]
        return tags
    winner = pairing.first if first > second else pairing.second
    attacked = record.attackers.user_id == winner.user_id
    tags["result"] = RESULT_TAGS["attackers" if attacked else "defenders"]
    return tags


def decided_by_organiser(pairing: StoredPairing) -> bool:
    """Whether the organiser set a pairing's result (a forfeit or an adjudication)."""
    return pairing.decided in ("forfeit", "adjudicated") and pairing.second is not None


def _duration(text: str | None, default: int | None, words: InputWords) -> int | None:
    return default if text is None else parse_move_time(text, words)


# ---------------------------------------------------------------------- refusals
# What the tournaments refuse, as data: worded in compose/tournaments.py.


@dataclass(frozen=True)
class ServerOnly(Refusal):
    """Tournaments are run inside a server, not in direct messages."""


@dataclass(frozen=True)
class NotOrganiser(Refusal):
    """Only members who may manage the server (or have its organisers' role) run its events
    (``creating``: create one)."""

    creating: bool = False


@dataclass(frozen=True)
class NoEventAmong(Refusal):
    """This server has no event among these statuses."""

    among: frozenset[Status]


@dataclass(frozen=True)
class NoSuchEvent(Refusal):
    """There is no event ``event_id`` in this server."""

    event_id: int


@dataclass(frozen=True)
class NotBegun(Refusal):
    """The event has not begun: no pairings yet (``standings``: no standings yet)."""

    event: Tournament
    standings: bool = False


@dataclass(frozen=True)
class NoSuchRound(Refusal):
    """The event has no round ``number``."""

    event: Tournament
    number: int


@dataclass(frozen=True)
class FloorAboveCeiling(Refusal):
    """A rating floor above the ceiling."""

    floor: int
    ceiling: int


@dataclass(frozen=True)
class NotATextChannel(Refusal):
    """An event is announced in a text channel: its games are played in threads of it."""


@dataclass(frozen=True)
class RoundsForSwiss(Refusal):
    """``rounds`` is an option of Swiss events only."""


@dataclass(frozen=True)
class MinutesForArenas(Refusal):
    """``minutes`` is an option of arenas only."""


@dataclass(frozen=True)
class RoundShorterThanMove(Refusal):
    """A round's longest time shorter than one move's."""

    round_seconds: int
    move_seconds: int


@dataclass(frozen=True)
class EventIs(Refusal):
    """The event's status forbids what was asked (it is paused, finished...)."""

    event: Tournament


@dataclass(frozen=True)
class TooFewToStart(Refusal):
    """Too few have joined (``joined``) to start early: the sign-up goes on."""

    event: Tournament
    joined: int


@dataclass(frozen=True)
class NoSuchBoard(Refusal):
    """Round ``round`` of the event has no board ``board`` with two players."""

    event: Tournament
    round: int
    board: int


@dataclass(frozen=True)
class NotEntered(Refusal):
    """``player`` (``None``: the person asking) is not playing in the event."""

    event: Tournament
    player: Participant | None = None


@dataclass(frozen=True)
class EventOver(Refusal):
    """The event is over: nobody leaves it any more."""

    event: Tournament


@dataclass(frozen=True)
class EntryBarred(Refusal):
    """The event takes no entry from this player (``rating``, in the event's variant), by the
    rule ``why``; ``left_reason``: why a player who left the event did."""

    event: Tournament
    why: EntryBar
    rating: float
    left_reason: str | None = None


# ---------------------------------------------------------------------- what happens


@dataclass(frozen=True)
class ResultSet:
    """The organiser set a pairing's result (``detail``: how, and why)."""

    pairing: StoredPairing
    first: float
    second: float
    detail: str
    how: str = ""
    """``forfeit`` or ``adjudicated`` (with ``why``, the organiser's reason: what ``detail``
    says in English, for each server to word in its language)."""
    why: str = ""


@dataclass(frozen=True)
class PlayerRemoved:
    """The organiser removed a player (``reason``): their pairing is lost by forfeit."""

    pairing: StoredPairing
    removed: Participant
    reason: str
    first: float
    second: float


@dataclass(frozen=True)
class EventCancelled:
    """The organiser cancelled the event (``reason``)."""

    reason: str


CallOffReason = ResultSet | PlayerRemoved | EventCancelled


@dataclass(frozen=True)
class AnnouncementChanged:
    """The event's status or players changed: its announcement shows them (no buttons once it
    is over)."""

    event: Tournament
    players: int


@dataclass(frozen=True)
class CancelledForTooFew:
    """The event's start found too few players: it is cancelled."""

    event: Tournament
    joined: int = 0
    """How many had joined (the words are composed from it in each server's language)."""


@dataclass(frozen=True)
class GameBegun:
    """A pairing's game began in its thread (``number``: 1, or 2 of a match)."""

    event: Tournament
    pairing: StoredPairing
    live: LiveGame
    number: int


@dataclass(frozen=True)
class PausedForThreads:
    """The bot may not open threads in the event's channel: it is paused until resumed."""

    event: Tournament


@dataclass(frozen=True)
class PairingShown:
    """A pairing of a round just paired, and the channel its game is played in (if begun)."""

    pairing: StoredPairing
    channel_id: int | None


@dataclass(frozen=True)
class RoundPaired:
    """A round's pairings: told when the round is paired and its games have begun."""

    event: Tournament
    round: int
    pairings: tuple[PairingShown, ...]


@dataclass(frozen=True)
class RoundOverWhilePaused:
    """The round's last game ended during a pause: the next is paired on resume."""

    event: Tournament


@dataclass(frozen=True)
class Standings:
    """The standings of an event after round ``after`` (the last whose results are all in):
    its sheet so far and the ranked lines."""

    event: Tournament
    after: int
    sheet: Sheet
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class StandingsDue:
    """The standings are to be posted in the event's channel (a round ended, or the event)."""

    standings: Standings


@dataclass(frozen=True)
class Finished:
    """The event is over (early when round ``unpaired`` could not be paired): its podium, by
    score."""

    event: Tournament
    podium: tuple[Line, ...]
    unpaired: int | None = None
    """Over early: the round that could not be paired."""
    too_few_left: bool = False
    """Over early because fewer than two players are left (else: no new pairing remains)."""


@dataclass(frozen=True)
class GameLostOnTime:
    """The round's deadline passed: a game still played is lost by the player to move."""

    ended: Ended


@dataclass(frozen=True)
class CalledOff:
    """A game of the event under way was stopped (without a result of its own) by the
    organiser's decision ``reason``; its final board says so."""

    event: Tournament
    ended: Ended
    reason: CallOffReason


News = (
    AnnouncementChanged
    | CancelledForTooFew
    | GameBegun
    | PausedForThreads
    | RoundPaired
    | RoundOverWhilePaused
    | StandingsDue
    | Finished
    | GameLostOnTime
    | CalledOff
)
"""What the tournaments tell their server, as it happens."""


@dataclass(frozen=True)
class Start:
    """An event's start: ``begun`` (round 1 paired), ``already begun``, or ``cancelled`` for
    too few players."""

    event: Tournament
    outcome: Literal["begun", "already begun", "cancelled"]
    joined: int = 0
    """Cancelled: how many had joined."""


@dataclass(frozen=True)
class Verdict:
    """A result an organiser is about to set for a pairing (points as the event counts them)."""

    event: Tournament
    pairing: StoredPairing
    first: float
    second: float
    how: Literal["forfeit", "adjudicated"]
    reason: str

    @property
    def detail(self) -> str:
        """How and why: the reason, prefixed by how unless it says so itself."""
        return self.reason if self.how in self.reason.lower() else f"{self.how}: {self.reason}"


@dataclass(frozen=True)
class Joined:
    """A player joined: before the start, or late (``from_round``: the first round they are
    paired in; the rounds they missed are zero-point byes)."""

    event: Tournament
    from_round: int | None


@dataclass(frozen=True)
class LeaveAsked:
    """A player leaving in the middle of a game of the event is asked first: leaving resigns
    it."""

    event: Tournament
    live: LiveGame
    pairing: StoredPairing
    opponent: Participant


@dataclass(frozen=True)
class Left:
    """A player left the event (before its start: simply no longer entered); ``resigned``:
    their game under way, resigned."""

    event: Tournament
    resigned: Ended | None


@dataclass(frozen=True)
class EventInfo:
    """An event's players (in the order they joined) and its history."""

    event: Tournament
    entrants: tuple[Entrant, ...]
    history: tuple[LogEntry, ...]

    @property
    def began(self) -> int | None:
        """When it started."""
        return next((h.at for h in self.history if h.action == "started"), None)


@dataclass(frozen=True)
class ExportedGame:
    """One game of an event's record: its pairing, its number among the pairing's games, and
    its OTN text (a called-off game carries the organiser's result)."""

    pairing: StoredPairing
    number: int
    otn: str


@dataclass(frozen=True)
class Export:
    """An event's record: its standings and every game."""

    standings: Standings
    games: tuple[ExportedGame, ...]


class TournamentStage(Protocol):
    """What the tournaments ask of Discord, and how they show what happens: the Discord
    layer's side of them."""

    async def open_thread(
        self, event: Tournament, pairing: StoredPairing, attackers: Participant,
        defenders: Participant,
    ) -> int | None:  # fmt: skip
        """A thread for a pairing's game in the event's channel; ``None`` when the bot may not
        open threads there."""

    async def member_left(self, guild_id: int, user_id: int) -> bool:
        """Whether a player has surely left the event's server (unsure: ``False``)."""

    async def show(self, news: News) -> None:
        """Tell the server what happened."""


class TournamentService:
    """Runs the events of the servers (``storage.tournaments``), their games on the ``hub``;
    what happens goes to the ``stage`` as it happens.

    Everything an event is lives in the database; this service only acts on it. The process
    that serves the event's server runs its clock (:meth:`advance` from the timers); each
    round is begun by a compare-and-set in storage, so two processes that see a round end at
    the same moment pair the next one once. A restart loses nothing: the next tick finds each
    pairing's games and carries on where the event stands.
    """

    def __init__(self, storage: Storage, hub: GameHub, stage: TournamentStage) -> None:
        self.storage = storage
        self.hub = hub
        self.stage = stage
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, event_id: int) -> asyncio.Lock:
        """One thing at a time per event in this process (the clock, the organiser's start,
        resume and results): a pairing's game is started once. Across processes, only the one
        serving the event's server acts on it."""
        return self._locks.setdefault(event_id, asyncio.Lock())

    # ------------------------------------------------------------------ finding events

    async def may_organise(self, guild_id: int, manager: bool, roles: Collection[int]) -> bool:
        """Members who may manage the server (``manager``) run its events, and members with
        the role the server named (``/tafl settings organisers``)."""
        if manager:
            return True
        role = (await self.storage.settings.get(guild_id)).tournament_role
        return role is not None and role in roles

    async def check_organiser(
        self, guild_id: int, manager: bool, roles: Collection[int], *, creating: bool = False
    ) -> None:
        """Refuse a member who may not run the server's events."""
        if not await self.may_organise(guild_id, manager, roles):
            raise Refused(NotOrganiser(creating))

    async def find(
        self,
        guild_id: int,
        event_id: int | None,
        among: Collection[Status] = ANY_STATUS,
        *,
        channel_id: int | None = None,
        parent_id: int | None = None,
    ) -> Tournament:
        """The event asked for, in this server: by number, or else this server's newest of
        those ``among`` these statuses (this channel's first, or in a game's thread its
        parent's)."""
        if event_id is None:
            events = [
                e
                for e in await self.storage.tournaments.in_guild(guild_id, include_ended=True)
                if e.status in among
            ]
            events.sort(key=lambda e: e.spec.channel_id not in (channel_id, parent_id))
            if not events:
                raise Refused(NoEventAmong(frozenset(among)))
            return events[0]
        try:
            event = await self.storage.tournaments.get(event_id)
        except NotFound:
            event = None
        if event is None or event.spec.guild_id != guild_id:
            raise Refused(NoSuchEvent(event_id))
        return event

    async def in_guild(self, guild_id: int) -> list[Tournament]:
        """A server's events: under way, then the latest ended ones."""
        events = await self.storage.tournaments.in_guild(guild_id, include_ended=True)
        if not events:
            raise Refused(NoEventAmong(ANY_STATUS))
        return events

    async def info(self, event: Tournament) -> EventInfo:
        """An event's players and history."""
        return EventInfo(
            event,
            tuple(await self.storage.tournaments.entrants(event.id)),
            tuple(await self.storage.tournaments.history(event.id)),
        )

    async def players(self, event_id: int) -> int:
        """How many players an event has (not counting those who left)."""
        return sum(1 for e in await self.storage.tournaments.entrants(event_id) if e.active)

    async def event_of(self, game_id: int) -> Tournament | None:
        """The event a game was played in, if any (its games have no rematch: the event pairs
        the next one)."""
        found = await self.storage.tournaments.of_game(game_id)
        return None if found is None else found[0]

    async def announcement(self, event_id: int) -> AnnouncementChanged:
        """What an event's announcement shows now."""
        event = await self.storage.tournaments.get(event_id)
        return AnnouncementChanged(event, await self.players(event.id))

    async def pairings(self, event: Tournament, round_number: int | None) -> RoundPaired:
        """A round's pairings (the current one by default), each with its game's channel."""
        number = round_number or event.round
        if number == 0:
            raise Refused(NotBegun(event))
        pairings = await self.storage.tournaments.pairings(event.id, number)
        if not pairings:
            raise Refused(NoSuchRound(event, number))
        return RoundPaired(event, number, tuple([await self._shown(p) for p in pairings]))

    async def _shown(self, pairing: StoredPairing) -> PairingShown:
        if not pairing.games or pairing.second is None:
            return PairingShown(pairing, None)
        record = await self.storage.games.get(pairing.games[-1])
        return PairingShown(pairing, record.channel_id)

    # ------------------------------------------------------------------ the organiser

    async def create(
        self,
        organiser: Participant,
        guild_id: int,
        channel_id: int,
        *,
        text_channel: bool,
        name: str,
        variant: str,
        format: str,
        rounds: int | None = None,
        minutes: int | None = None,
        time: str | None = None,
        round_time: str | None = None,
        starts_in: str | None = None,
        matches: bool = False,
        rated: bool = True,
        floor: int | None = None,
        ceiling: int | None = None,
        min_players: int | None = None,
        words: InputWords = ENGLISH_WORDS,
    ) -> Tournament:
        """Store a new event announced in ``channel_id`` (a text channel: its games are played
        in threads of it), its options checked (times in English or in the organiser's
        language, ``words``)."""
        if floor is not None and ceiling is not None and floor > ceiling:
            raise Refused(FloorAboveCeiling(floor, ceiling))
        if not text_channel:
            raise Refused(NotATextChannel())
        move_seconds = _duration(time, 86400, words)
        round_seconds = _duration(round_time, None, words)
        if rounds is not None and format != "swiss":
            raise Refused(RoundsForSwiss())
        if minutes is not None and format != "arena":
            raise Refused(MinutesForArenas())
        if round_seconds is not None and move_seconds is not None and round_seconds < move_seconds:
            raise Refused(RoundShorterThanMove(round_seconds, move_seconds))
        delay = _duration(starts_in, 3600, words) or 0
        kind: Format = (
            "round_robin" if format == "round_robin" else "arena" if format == "arena" else "swiss"
        )
        spec = TournamentSpec(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name.strip(),
            variant=variant,
            format=kind,
            rounds=(rounds or 5) if kind == "swiss" else None,
            arena_seconds=(minutes or 60) * 60 if kind == "arena" else None,
            matches=matches,
            move_seconds=move_seconds,
            round_seconds=round_seconds,
            rated=rated,
            rating_floor=floor,
            rating_ceiling=ceiling,
            min_entrants=min_players or MIN_ENTRANTS[kind],
            starts_at=self.storage.db.now() + delay,
        )
        return await self.storage.tournaments.create(spec, organiser)

    async def announced(self, event_id: int, message_id: int) -> None:
        """The event's announcement was posted as ``message_id`` (kept up to date from then)."""
        await self.storage.tournaments.set_announcement(event_id, message_id)

    async def check_start(self, event: Tournament) -> None:
        """Refuse to start an event early unless it is open for sign-up with enough players
        (the sign-up goes on; at its time, too few players cancel it)."""
        if event.status != "signup":
            raise Refused(EventIs(event))
        joined = await self.players(event.id)
        if joined < event.spec.min_entrants:
            raise Refused(TooFewToStart(event, joined))

    async def start(self, event: Tournament, *, by: Participant | None = None) -> Start:
        """Start the event now (its time has come, or the organiser started it early): too
        few entrants cancel it; else round 1 is paired and its games begin."""
        async with self.lock(event.id):
            return await self._start(await self.storage.tournaments.get(event.id), by=by)

    async def pause(self, event: Tournament, by: Participant) -> None:
        """Pause a running event: games under way go on; no round is paired until resumed."""
        if not await self.storage.tournaments.change_status(
            event.id, ["running"], "paused", actor=by, action="paused"
        ):
            raise Refused(EventIs(event))

    async def resume(self, event: Tournament, by: Participant) -> None:
        """Resume a paused event (then :meth:`advance` carries it on where it stands)."""
        if not await self.storage.tournaments.change_status(
            event.id, ["paused"], "running", actor=by, action="resumed"
        ):
            raise Refused(EventIs(event))

    async def cancel(self, event: Tournament, by: Participant, reason: str) -> None:
        """Cancel an event under way (then :meth:`stop_games` stops its games)."""
        if not await self.storage.tournaments.change_status(
            event.id,
            ["signup", "running", "paused"],
            "cancelled",
            actor=by,
            action="cancelled",
            data={"reason": reason},
        ):
            raise Refused(EventIs(event))

    async def stop_games(self, event: Tournament, reason: str) -> None:
        """A cancelled event's games of the round under way are called off."""
        for pairing in await self.storage.tournaments.pairings(event.id, event.round or 1):
            for game_id in pairing.games:
                await self.call_off(event, game_id, EventCancelled(reason))
        await self.stage.show(await self.announcement(event.id))

    async def verdict(
        self, event: Tournament, round_number: int, board: int, result: str, reason: str
    ) -> Verdict:
        """The result ``result`` (``1-0``, ``0-1``, ``½-½``, ``0-0``: see :data:`SCORES`) an
        organiser sets for a pairing: a forfeit (both lose, or the reason says so) or an
        adjudication; a match's points doubled."""
        first, second = SCORES[result]
        if event.spec.matches:
            first, second = first * 2, second * 2
        pairings = await self.storage.tournaments.pairings(event.id, round_number)
        pairing = next((p for p in pairings if p.board == board), None)
        if pairing is None or pairing.second is None:
            raise Refused(NoSuchBoard(event, round_number, board))
        how: Literal["forfeit", "adjudicated"] = (
            "forfeit" if result == "0-0" or "forfeit" in reason.lower() else "adjudicated"
        )
        return Verdict(event, pairing, first, second, how, reason)

    async def set_result(self, verdict: Verdict, by: Participant) -> None:
        """Replace a pairing's result by the organiser's: a game of it still being played
        stops (its final board says the result)."""
        event, pairing = verdict.event, verdict.pairing
        # The event's clock waits meanwhile: it must not settle (or, in a match, follow up)
        # the pairing by its games between the call and the decision.
        async with self.lock(event.id):
            reason = ResultSet(
                pairing,
                verdict.first,
                verdict.second,
                verdict.detail,
                verdict.how,
                verdict.reason,
            )
            for game_id in pairing.games:
                await self.call_off(event, game_id, reason)
            await self.storage.tournaments.decide(
                event.id, pairing.round, pairing.board, verdict.first, verdict.second,
                verdict.how, reason=verdict.reason, actor=by, only_undecided=False,
            )  # fmt: skip

    async def remove(
        self, event: Tournament, player: Participant, reason: str, by: Participant
    ) -> bool:
        """Remove a player: no longer paired; the games they finished stand, and their
        pairing of the round under way is lost by forfeit. Whether there was one."""
        if not await self.storage.tournaments.leave(
            event.id, player.user_id or 0, "removed", actor=by, note=reason
        ):
            raise Refused(NotEntered(event, player))
        return await self._forfeit_current(event, player.user_id or 0, reason)

    async def _forfeit_current(self, event: Tournament, user_id: int, reason: str) -> bool:
        for pairing in await self.storage.tournaments.pairings(event.id, event.round):
            players = {pairing.first.user_id, getattr(pairing.second, "user_id", None)}
            if pairing.decided is not None or pairing.second is None or user_id not in players:
                continue
            full = 2.0 if event.spec.matches else 1.0
            first_lost = pairing.first.user_id == user_id
            first, second = (0.0, full) if first_lost else (full, 0.0)
            removed = pairing.first if first_lost else pairing.second
            why = PlayerRemoved(pairing, removed, reason, first, second)
            for game_id in pairing.games:
                await self.call_off(event, game_id, why)
            # The organiser's words alone: the history and the standings say the player was
            # removed, each in its reader's language.
            await self.storage.tournaments.decide(
                event.id, pairing.round, pairing.board, first, second, "forfeit", reason=reason
            )
            return True
        return False

    async def call_off(self, event: Tournament, game_id: int, reason: CallOffReason) -> bool:
        """Stop a game of the event under way (the organiser decided its pairing, removed a
        player or cancelled the event): it ends without a result of its own. ``False`` if it
        had already ended."""
        live = self.hub.by_id(game_id)
        if live is None:
            return False
        ended = await self.hub.call_off(live)
        if ended is None:
            return False
        await self.stage.show(CalledOff(event, ended, reason))
        return True

    # ------------------------------------------------------------------ players

    async def join(self, event: Tournament, player: Participant) -> Joined:
        """Sign a player up (or in late, where the format allows), at their rating in the
        event's variant."""
        rating = await self.storage.ratings.get(player, event.spec.variant)
        try:
            await self.storage.tournaments.join(event.id, player, rating.rating.rating)
        except EntryRefused as refused:
            raise Refused(
                EntryBarred(event, refused.why, rating.rating.rating, refused.left_reason)
            ) from None
        return Joined(event, None if event.status == "signup" else event.round + 1)

    async def leave(
        self, event: Tournament, user_id: int, confirmed: int | None = None
    ) -> LeaveAsked | Left:
        """Withdraw a player; in the middle of a game of the event, only once they have
        confirmed (``confirmed``: the game they were told of), and that game is resigned, as
        with /tafl resign, so that their opponent is not left waiting for the clock."""
        if event.status in ("finished", "cancelled"):
            raise Refused(EventOver(event))
        playing = await self.game_under_way(event, user_id)
        if playing is not None and playing[0].id != confirmed:
            live, pairing = playing
            side = live.side_of(user_id)
            assert side is not None
            return LeaveAsked(event, live, pairing, live.participant(side.other))
        if not await self.storage.tournaments.leave(event.id, user_id, "withdrew"):
            raise Refused(NotEntered(event))
        ended = None
        if playing is not None:
            with contextlib.suppress(Refused):
                # It may have ended meanwhile (its last move, the clock): nothing to resign.
                ended = await self.hub.resign(playing[0].record.channel_id, user_id)
        return Left(event, ended)

    async def game_under_way(
        self, event: Tournament, user_id: int
    ) -> tuple[LiveGame, StoredPairing] | None:
        """The game ``user_id`` is playing in the event's round under way, with its pairing."""
        if event.status not in ("running", "paused"):
            return None
        for pairing in await self.storage.tournaments.pairings(event.id, event.round):
            if pairing.decided is not None or pairing.second is None:
                continue
            if user_id not in (pairing.first.user_id, pairing.second.user_id):
                continue
            for game_id in pairing.games:
                live = self.hub.by_id(game_id) or await self.hub.refresh(game_id)
                if live is not None:
                    return live, pairing
        return None

    # ------------------------------------------------------------------ standings and record

    def check_begun(self, event: Tournament) -> None:
        """Refuse the standings of an event that has not begun."""
        if event.round == 0:
            raise Refused(NotBegun(event, standings=True))

    async def standings(self, event_id: int) -> Standings:
        """The standings after the last round whose results are all in (the round under way,
        if any, is not counted)."""
        event = await self.storage.tournaments.get(event_id)
        return await self._standings(event)

    async def _standings(self, event: Tournament) -> Standings:
        after = await self._settled_round(event)
        sheet = await sheet_of(self.storage, event, upto=after)
        return Standings(event, after, sheet, tuple(standings_of(event, sheet)))

    async def _settled_round(self, event: Tournament) -> int:
        """The last round whose results are all in (an arena: its one round, as it stands)."""
        if event.spec.format == "arena" or event.round == 0:
            return event.round
        if await self.storage.tournaments.round_open(event.id, event.round):
            return event.round - 1
        return event.round

    async def export(self, event: Tournament) -> Export:
        """The event's record: its standings, and every game in OTN (one the organiser called
        off carries their result)."""
        standings = await self._standings(event)
        games = []
        for pairing in await self.storage.tournaments.pairings(event.id):
            for number, game_id in enumerate(pairing.games, start=1):
                record = await self.storage.games.get(game_id)
                tags: dict[str, str] | None = None
                if decided_by_organiser(pairing) and record.status is GameStatus.ABORTED:
                    tags = called_off_tags(pairing, record)
                text, _ = await otn_record(self.storage, record, tags=tags)
                games.append(ExportedGame(pairing, number, text))
        return Export(standings, tuple(games))

    # ------------------------------------------------------------------ the clock

    async def due(self) -> list[Tournament]:
        """The events of this process's servers that need something done now."""
        return [
            event
            for event in await self.storage.tournaments.due()
            if self.storage.shards.owns(event.spec.guild_id)
        ]

    async def advance(self, event_id: int) -> None:
        """Whatever the event needs now: starting, its games' results, its next round."""
        async with self.lock(event_id):
            await self._advance(await self.storage.tournaments.get(event_id))

    async def _advance(self, event: Tournament) -> None:
        if event.status == "signup":
            await self._start(event)
            return
        if event.status not in ("running", "paused"):
            return
        # Paused: the games under way go on and their results count, but no game starts.
        running = event.status == "running"
        storage = self.storage.tournaments
        for pairing in await storage.pairings(event.id, event.round):
            if pairing.decided is not None:
                continue
            if not pairing.games:
                # Paired but not started: the process stopped in between, or threads were
                # refused until the organiser resumed the event.
                if running:
                    await self._start_game(event, pairing, pairing.first, pairing.second, 1)
                continue
            await self._follow(event, pairing)
        if event.spec.format == "arena":
            if not running:
                return
            await self._arena(event)
        if await storage.round_open(event.id, event.round):
            if (
                running
                and event.round_deadline is not None
                and self.storage.db.now() >= event.round_deadline
            ):
                await self._deadline(event)
            return
        if running:
            await self._next_round(event)
        else:
            await self._round_over_while_paused(event)

    async def _round_over_while_paused(self, event: Tournament) -> None:
        """The round's last game ended during a pause: its standings now, the next round on
        resume (the last round's end finishes the event: nothing is left to pair)."""
        sheet = await sheet_of(self.storage, event)
        if event.round >= rounds_of(event, len(sheet.roster)):
            await self._finish(event)
            return
        if not await self.storage.tournaments.claim_standings(event.id, event.round):
            return  # said already (by this process or another)
        await self.stage.show(RoundOverWhilePaused(event))
        await self.stage.show(StandingsDue(await self.standings(event.id)))

    async def _start(self, event: Tournament, *, by: Participant | None = None) -> Start:
        if event.status != "signup":
            return Start(event, "already begun")
        storage = self.storage.tournaments
        entrants = [e for e in await storage.entrants(event.id) if e.active]
        if len(entrants) < event.spec.min_entrants:
            joined = len(entrants)
            short: Details = {"needed": event.spec.min_entrants, "joined": joined}
            if await storage.change_status(
                event.id, ["signup"], "cancelled", actor=by, action="cancelled", data=short
            ):
                await self.stage.show(CancelledForTooFew(event, joined))
                await self.stage.show(await self.announcement(event.id))
            return Start(event, "cancelled", joined)
        sheet = await sheet_of(self.storage, event)
        deadline = self._round_deadline(event)
        ends_at = None
        if event.spec.format == "arena":
            ends_at = self.storage.db.now() + (event.spec.arena_seconds or 3600)
            deadline = None  # games under way when it ends are played out, and count
            pairings = pair_arena(sheet, set(), [], {})
        else:
            pairings = pair_round(event, sheet, 1)
        if not await storage.begin_round(event.id, 1, pairings, deadline=deadline, ends_at=ends_at):
            return Start(event, "already begun")
        count = len(entrants)
        await storage.log(event.id, by, "started", {"players": count})
        await self.stage.show(await self.announcement(event.id))
        fresh = await storage.get(event.id)
        await self._start_games(fresh)
        await self._announce_round(fresh)
        return Start(fresh, "begun")

    async def _departures(self, event: Tournament, entrants: list[logic.Entrant]) -> bool:
        """Players who have left the server are withdrawn before a round is paired (the bot
        does not follow members coming and going: it asks Discord). Whether any were."""
        gone = False
        for entrant in entrants:
            if entrant.withdrawn:
                continue
            if await self.stage.member_left(event.spec.guild_id, entrant.id):
                gone = (
                    await self.storage.tournaments.leave(event.id, entrant.id, "left the server")
                    or gone
                )
        return gone

    def _round_deadline(self, event: Tournament) -> int | None:
        seconds = event.spec.round_seconds
        return None if seconds is None else self.storage.db.now() + seconds

    # ------------------------------------------------------------------ pairing

    async def _next_round(self, event: Tournament) -> None:
        storage = self.storage.tournaments
        sheet = await sheet_of(self.storage, event)
        if event.spec.format == "arena" or event.round >= rounds_of(event, len(sheet.roster)):
            await self._finish(event)
            return
        if await storage.claim_standings(event.id, event.round):  # once, by one process
            await self.stage.show(StandingsDue(await self.standings(event.id)))
        if await self._departures(event, sheet.entrants):
            sheet = await sheet_of(self.storage, event)
        following = event.round + 1
        active = sum(1 for entrant in sheet.entrants if not entrant.withdrawn)
        try:
            pairings = pair_round(event, sheet, following) if active >= 2 else None
        except logic.PairingImpossibleError:
            pairings = None  # everyone left has met everyone else
        if not pairings or all(row.second is None for row in pairings):
            await self._finish(event, unpaired=following, too_few_left=active < 2)
            return
        if not await storage.begin_round(
            event.id, following, pairings, deadline=self._round_deadline(event)
        ):
            return  # another process paired it
        fresh = await storage.get(event.id)
        await self._start_games(fresh)
        await self._announce_round(fresh)

    async def _arena(self, event: Tournament) -> None:
        """An arena pairs its free players again at once, until it ends."""
        if event.ends_at is None or self.storage.db.now() >= event.ends_at:
            return
        storage = self.storage.tournaments
        pairings = await storage.pairings(event.id, 1)
        busy = {
            p.user_id or 0
            for pairing in pairings
            if pairing.decided is None
            for p in (pairing.first, pairing.second)
            if p is not None
        }
        sheet = await sheet_of(self.storage, event)
        fresh = pair_arena(sheet, busy, pairings, {})
        if not fresh:
            return
        await storage.add_pairings(event.id, 1, fresh)
        await self._start_games(await storage.get(event.id))

    async def _announce_round(self, event: Tournament) -> None:
        pairings = await self.storage.tournaments.pairings(event.id, event.round)
        shown = tuple([await self._shown(pairing) for pairing in pairings])
        await self.stage.show(RoundPaired(event, event.round, shown))

    async def _finish(
        self,
        event: Tournament,
        *,
        unpaired: int | None = None,
        too_few_left: bool = False,
    ) -> None:
        """The last round is over (or round ``unpaired`` cannot be paired: too few players
        left, or no new pairing): the final standings, the podium."""
        early: Details = (
            {} if unpaired is None else {"unpaired": unpaired, "too_few_left": too_few_left}
        )
        if not await self.storage.tournaments.change_status(
            event.id, ["running", "paused"], "finished", action="finished", data=early
        ):
            return
        await self.stage.show(await self.announcement(event.id))
        # By score, as FIDE and lichess rank: a player who left keeps their place, marked.
        table = standings_of(event, await sheet_of(self.storage, event))
        await self.stage.show(Finished(event, tuple(table[:3]), unpaired, too_few_left))
        await self.stage.show(StandingsDue(await self.standings(event.id)))

    # ------------------------------------------------------------------ games

    async def _start_games(self, event: Tournament) -> None:
        for pairing in await self.storage.tournaments.pairings(event.id, event.round):
            if pairing.is_bye or pairing.game1_id is not None:
                continue
            await self._start_game(event, pairing, pairing.first, pairing.second, 1)

    async def _start_game(
        self,
        event: Tournament,
        pairing: StoredPairing,
        attackers: Participant,
        defenders: Participant | None,
        number: int,
        thread_id: int | None = None,
    ) -> None:
        """Open a thread for a pairing (or use its thread for a match's second game) and start
        the game in it."""
        assert defenders is not None
        if thread_id is None:
            thread_id = await self.stage.open_thread(event, pairing, attackers, defenders)
            if thread_id is None:
                await self._pause_for_threads(event)
                return
        try:
            record = await self.storage.games.create(
                guild_id=event.spec.guild_id,
                channel_id=thread_id,
                variant=get_variant(event.spec.variant).name,
                attackers=attackers,
                defenders=defenders,
                move_seconds=event.spec.move_seconds,
                rated=event.spec.rated,
            )
        except ChannelBusy:
            # Someone started another game in the thread between a match's two games: the
            # second gets a thread of its own.
            log.warning("tournament %d: thread %d is busy; opening another", event.id, thread_id)
            await self._start_game(event, pairing, attackers, defenders, number)
            return
        await self.storage.tournaments.attach_game(
            event.id, pairing.round, pairing.board, record.id
        )
        await self.stage.show(GameBegun(event, pairing, self.hub.adopt(record), number))

    async def _pause_for_threads(self, event: Tournament) -> None:
        if await self.storage.tournaments.change_status(
            event.id, ["running"], "paused", action="paused", data={"cause": "threads"}
        ):
            await self.stage.show(PausedForThreads(event))

    async def _follow(self, event: Tournament, pairing: StoredPairing) -> None:
        """A pairing's games: a finished first game of a match starts the second (sides
        swapped, same thread); once all are finished, the pairing's points are set."""
        records = [await self.storage.games.get(game_id) for game_id in pairing.games]
        if not records or any(r.status is GameStatus.ACTIVE for r in records):
            return
        gone: set[int] = set()
        if event.spec.matches and len(records) == 1:
            gone = await self._gone(event, pairing)
            if not gone:
                if event.status != "running":
                    return  # a match's second game starts when the event resumes
                await self._start_game(
                    event, pairing, pairing.second or pairing.first, pairing.first, 2,
                    thread_id=records[0].channel_id,
                )  # fmt: skip
                return
        first = second = 0.0
        for record in records:
            got = score_of(record, pairing.first)
            first += got
            second += (1.0 - got) if record.result is not None else 0.0
        # A player who left after a match's first game never plays the second: it is theirs
        # lost by forfeit (as the sheet counts it, see _games_of).
        if pairing.second is not None and len(gone) == 1:
            if pairing.first.user_id in gone:
                second += 1.0
            else:
                first += 1.0
        await self.storage.tournaments.decide(
            event.id, pairing.round, pairing.board, first, second, "played"
        )

    async def _gone(self, event: Tournament, pairing: StoredPairing) -> set[int]:
        """The players of ``pairing`` no longer in the event (withdrew, removed, left)."""
        players = {pairing.first.user_id, getattr(pairing.second, "user_id", None)}
        return {
            e.player.user_id
            for e in await self.storage.tournaments.entrants(event.id)
            if not e.active and e.player.user_id is not None and e.player.user_id in players
        }

    async def _deadline(self, event: Tournament) -> None:
        """The round's time is up: each game still being played is lost on time by the player
        to move (as their clock would have it), so the round can end."""
        for pairing in await self.storage.tournaments.pairings(event.id, event.round):
            for game_id in pairing.games:
                live = self.hub.by_id(game_id)
                if live is None:
                    continue
                ended = await self.hub.forfeit_on_time(live, live.game.ply)
                if ended is not None:
                    await self.stage.show(GameLostOnTime(ended))
