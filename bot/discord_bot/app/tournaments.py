"""Between stored tournaments and the tournament logic: a stored event's entrants and pairings
become the values :mod:`bot.tournament` pairs and ranks, and its pairings become rows to store."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from bot import tournament as logic
from bot.engine import Side
from bot.render.crosstable import Cell, CrosstableView, PlayerRow, SidePlayed, Tiebreak
from bot.storage import GameRecord, Participant, Storage
from bot.storage.tournaments import NewPairing, StoredPairing, Tournament

from .wording import plain_name


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


TIEBREAK_TITLES = {
    "BH": "Buchholz",
    "SB": "Sonneborn-Berger",
    "GP": "game points (the first tiebreak)",
    "W": "wins",
    "Perf": "performance rating",
    "games": "games played",
}


def crosstable_view(
    event: Tournament, sheet: Sheet, lines: list[Line], subtitle: str
) -> CrosstableView:
    """The crosstable of the standings ``lines``: per round (Swiss), per opponent (round robin)
    or per game (arena), each cell from the player's side of the sheet."""
    row_of = {line.player.user_id or 0: number for number, line in enumerate(lines, start=1)}
    arena = logic.arena_scores(sheet.arena_games) if event.spec.format == "arena" else {}
    rows = []
    for line in lines:
        me = line.player.user_id or 0
        if event.spec.format == "arena":
            cells: tuple[Cell | None, ...] = tuple(
                Cell.game(float(points), streak=points >= 3)
                for points in (arena[me].sheet if me in arena else ())
            )
        elif event.spec.format == "round_robin":
            against = {
                p.pairing.opponent(me): p
                for r in sheet.rounds
                for p in r.pairings
                if me in p.pairing.players
            }
            cells = tuple(
                None
                if other.player.user_id == line.player.user_id
                else _cell(against.get(other.player.user_id or 0), me, None)
                for other in lines
            )
        else:
            cells = tuple(_round_cell(r, me, row_of) for r in sheet.rounds)
        rows.append(
            PlayerRow(
                rank=line.rank,
                name=plain_name(line.player),
                points=line.points,
                cells=cells,
                withdrawn=line.withdrawn,
                note=line.left or ("withdrawn" if line.withdrawn else ""),
            )
        )
    names = [name for name, _ in lines[0].tiebreaks] if lines else []
    tiebreaks = tuple(
        Tiebreak(
            name,
            tuple(
                None if value is None else round(value) if name == "Perf" else value
                for _, value in (line.tiebreaks[index] for line in lines)
            ),
            TIEBREAK_TITLES.get(name, name),
        )
        for index, name in enumerate(names)
    )
    return CrosstableView(
        title=event.name,
        subtitle=subtitle,
        format=event.spec.format,
        rows=tuple(rows),
        tiebreaks=tiebreaks,
        games_per_pairing=2 if event.spec.matches else 1,
        points_label="Score" if event.spec.format == "arena" else "Pts",
    )


def _round_cell(played: logic.PlayedRound, me: int, row_of: dict[int, int]) -> Cell:
    for bye in played.byes:
        if bye.player == me:
            return Cell.bye(bye.points) if bye.kind is logic.ByeKind.PAIRING else Cell.absent()
    for pairing in played.pairings:
        if me in pairing.pairing.players:
            return _cell(pairing, me, row_of.get(pairing.pairing.opponent(me)))
    return Cell.absent()


def _cell(pairing: logic.PlayedPairing | None, me: int, opponent: int | None) -> Cell:
    if pairing is None:
        return Cell.absent()
    points = pairing.game_points(me)
    if pairing.forfeit:
        return Cell.forfeit(points, opponent)
    side: SidePlayed | None = None
    if len(pairing.games) == 1:
        side = "attackers" if pairing.pairing.attacker == me else "defenders"
    return Cell.game(points, opponent, side)
