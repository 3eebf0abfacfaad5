"""Swiss pairing in the manner of FIDE's Dutch system (C.04.3), written for this bot.

Players are ranked by points, then seed. The hard rules hold throughout: no two players meet
twice (forfeits aside), two players who must both have the same side never meet, nobody gets
a second pairing-allocated bye. The round is first checked to be pairable (a maximum
matching), and the lowest score on which a player without a bye can take it with everyone else
still paired is found: the bye goes to that score, never a higher one.

Score brackets are then paired from the top: players floated down from the bracket above
(MDPs) meet the bracket's highest players first; the rest is split into a top half S1 and a
bottom half S2, and S1's first player meets S2's first, the second the second, and so on,
trying S2 in the Dutch order of transpositions (a depth-first search in which the highest
unpaired player takes the first legal opponent) when a pairing is not allowed, and S1-S1 pairs
(exchanges) last. A bracket asks, in order: that everyone below can still be paired with the
bye on that lowest score (checked with a maximum matching, so a bracket never leaves an
unpairable remainder, and floats down what the bye's place needs); the fewest players floated
down (C.04.3 C5), the lowest scores among them (C6); the most pairs these floaters allow in
the next bracket (C7); in the last bracket, whose floater takes the bye, the fewest unplayed
rounds for that player (C9); the fewest pairs with a side preference denied (C12), then the
fewest with a strong or absolute one denied (C13), found by branch and bound from a lower
bound; the fewest players floated down twice running (C14); then the lowest ranked floating
first. A moved-down player meets the residents who floated up last round after the others
(C15, within the pairings equal on the side criteria). Of two players due the same side with
equal strength, the sides alternate from the last time they differed, their played games
compared from the last one back.

Tested against the worked example of FIDE TEC's *Mastering the Dutch*
(``tests/test_tournament_swiss_fide.py``): all nine rounds come out as published. What it does
not do of the Dutch rules: the score differences of the next bracket's pairs (C8) and any look
further ahead than the next bracket and the bye's score (the brackets are paired one by one,
not in one weighted matching over the round, so a long chain of floaters can differ from
FIDE's); the top-scorer rules of the last round (the exception that lets two top scorers
due the same side absolutely meet, and C10 and C11 on their side differences); and the float
criteria of two rounds back and of float scores (C16 to C21). A bounded search keeps every
round fast (round 5 of 500 players pairs in hundredths of a second,
``benchmarks/tournament.py``): a bracket tries at most
:data:`FLOATER_CHOICES` sets of floaters per number of floaters and :data:`SEARCH_NODES` nodes
per search; when the bound is reached, the best pairing found so far is taken, or any legal
pairing of the bracket from the maximum matching.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import PairingImpossibleError, TournamentError
from .history import records
from .matching import maximum_matching
from .model import (
    ONE_GAME,
    Bye,
    ByeKind,
    Entrant,
    Pairing,
    PlayedRound,
    PlayerId,
    PlayerRecord,
    Round,
    Scoring,
    seeded,
)
from .sides import ATTACKERS, DEFENDERS, Preference, allocate, conflict, preference

SEARCH_NODES = 4_000
"""Nodes the search may visit in one bracket for one allowance of side conflicts."""
FLOATER_CHOICES = 40
"""Sets of floaters tried in one bracket for one number of floaters."""


@dataclass(frozen=True)
class _Player:
    record: PlayerRecord
    seed: int
    preference: Preference
    absolute: str = ""
    """The side the player must have (an absolute preference), else empty."""

    @property
    def id(self) -> PlayerId:
        return self.record.id

    @property
    def points(self) -> float:
        return self.record.points


_BracketKey = tuple[float, int, int, int, int, int]
"""How good a bracket's choice of floaters is, lower better: their points, the pairs the next
bracket falls short of (C.04.3 C7), their unplayed rounds (in the last bracket, whose floater
takes the bye), side conflicts (C12), strong preferences denied (C13), repeated downfloats."""

_Cost = tuple[int, int]
"""Side conflicts of a pairing, lower better: pairs with a preference denied (C.04.3 C12),
then pairs in which a strong (or absolute) preference is denied (C13)."""


class _OutOfBudget(Exception):
    pass


def _bye_first(count: int, adjacent: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """The bye (vertex ``count``) to the last of ``0..count-1`` who may have it, as the start of
    a matching: else the greedy start seldom leaves it a partner, and finding one is a search
    through most of the graph."""
    last = next((u for u in reversed(range(count)) if adjacent(u, count)), None)
    return [] if last is None else [(last, count)]


class _Pairer:
    def __init__(self, players: list[_Player], matches: bool) -> None:
        self.players = players
        self.matches = matches
        self.bye_score: float | None = None
        """No player above this score may take the bye (set by :meth:`pair`), None: any. As
        it is the lowest score the bye can go to, the bye goes to a player on it."""

    def legal(self, a: _Player, b: _Player) -> bool:
        # the hot spot of the matchings: plain attribute reads only
        if b.record.id in a.record.opponents:
            return False
        return self.matches or not a.absolute or a.absolute != b.absolute

    def cost(self, a: _Player, b: _Player) -> _Cost:
        if self.matches:
            return (0, 0)
        # the stronger preference is granted: the weaker of two for the same side is denied
        denied = conflict(a.preference, b.preference)
        return (int(denied > 0), int(denied >= 2))

    def may_have_bye(self, p: _Player) -> bool:
        return p.record.pairing_byes == 0 and (self.bye_score is None or p.points <= self.bye_score)

    def completes(self, group: Sequence[_Player]) -> bool:
        """Whether ``group`` can all be paired (one of them taking the bye if odd)."""
        return self.perfect(group) is not None

    def perfect(self, group: Sequence[_Player]) -> list[tuple[_Player, _Player]] | None:
        """A pairing of all of ``group`` (but the bye) from a maximum matching, or None."""
        count = len(group)
        odd = count % 2 == 1

        def adjacent(u: int, v: int) -> bool:
            if u == count or v == count:
                return self.may_have_bye(group[v if u == count else u])
            return self.legal(group[u], group[v])

        # the bye to the lowest-ranked player who may have it, to start from: the greedy start
        # then seldom leaves the bye unmatched, which costs a search through most of the graph
        mate = maximum_matching(count + odd, adjacent, _bye_first(count, adjacent) if odd else [])
        if any(m == -1 for m in mate):
            return None
        return [(group[u], group[v]) for u, v in enumerate(mate) if u < v < count]

    def conflicts_floor(self, group: Sequence[_Player]) -> _Cost:
        """At most the :data:`_Cost` of any pairing of ``group`` (even), each part alone."""
        if self.matches:
            return (0, 0)
        # players due each side: [mild, strong or absolute]
        due = {ATTACKERS: [0, 0], DEFENDERS: [0, 0]}
        for p in group:
            if p.preference.side:
                due[p.preference.side][p.preference.strength >= 2] += 1
        wants_a, wants_d = sum(due[ATTACKERS]), sum(due[DEFENDERS])
        free = len(group) - wants_a - wants_d
        # the side wanted by more than the others can take: its surplus meets itself
        surplus = max(0, (abs(wants_a - wants_d) - free + 1) // 2)
        more = due[ATTACKERS] if wants_a > wants_d else due[DEFENDERS]
        # two strong preferences for one side meet when there are too few mild ones for the
        # surplus pairs, or when they are more than half the group
        strong = max(
            surplus - more[0],
            due[ATTACKERS][1] - len(group) // 2,
            due[DEFENDERS][1] - len(group) // 2,
            0,
        )
        return (surplus, strong)

    def pairable(self, group: Sequence[_Player]) -> int:
        """The most pairs ``group`` can make (a maximum matching, no bye)."""
        mate = maximum_matching(len(group), lambda u, v: self.legal(group[u], group[v]))
        return sum(1 for m in mate if m != -1) // 2

    def pair_group(
        self, group: list[_Player], mdps: frozenset[PlayerId]
    ) -> list[tuple[_Player, _Player]] | None:
        """Every player of ``group`` (even, in rank order) paired: the fewest side conflicts,
        then the fewest strong preferences denied, then the Dutch order."""
        floor = self.conflicts_floor(group)[0]
        for allowance in sorted({floor, floor + 1, floor + 2, floor + 4, len(group)}):
            try:
                found = self._search(group, mdps, allowance)
            except _OutOfBudget:
                continue
            if found is not None or allowance == len(group):
                return found
        return self.perfect(group)

    def _search(
        self, group: list[_Player], mdps: frozenset[PlayerId], allowance: int
    ) -> list[tuple[_Player, _Player]] | None:
        """The pairing of ``group`` with at most ``allowance`` side conflicts and the least
        :data:`_Cost`, the first in the Dutch order among equals (branch and bound). When the
        node budget runs out, the best found so far, or :class:`_OutOfBudget` if none."""
        nodes = 0
        pairs: list[tuple[_Player, _Player]] = []
        best: tuple[_Cost, list[tuple[_Player, _Player]]] | None = None
        target = self.conflicts_floor(group)

        def visit(unpaired: list[_Player], s1: frozenset[PlayerId] | None, spent: _Cost) -> bool:
            """Whether the search is over (the least possible cost reached)."""
            nonlocal nodes, best
            nodes += 1
            if nodes > SEARCH_NODES:
                raise _OutOfBudget
            if not unpaired:
                best = (spent, list(pairs))
                return spent <= target
            floor = self.conflicts_floor(unpaired)
            least = (spent[0] + floor[0], spent[1] + floor[1])
            if least[0] > allowance or (best is not None and least >= best[0]):
                return False
            movers = [p for p in unpaired if p.id in mdps]
            if movers and len(movers) < len(unpaired):
                chooser = movers[0]
                residents = [p for p in unpaired if p.id not in mdps]
                # a resident who floated up last round meets a moved-down player last (C.04.3
                # minimises repeated upfloats)
                residents.sort(key=lambda p: p.record.floats.endswith("U"))
                candidates = residents + movers[1:]
            else:
                if s1 is None:
                    s1 = frozenset(p.id for p in unpaired[: len(unpaired) // 2])
                chooser = unpaired[0]
                rest = unpaired[1:]
                if chooser.id in s1:
                    candidates = [p for p in rest if p.id not in s1]
                    candidates += [p for p in rest if p.id in s1]
                else:
                    candidates = rest
            for other in candidates:
                if not self.legal(chooser, other):
                    continue
                cost = self.cost(chooser, other)
                after = (spent[0] + cost[0], spent[1] + cost[1])
                if after[0] > allowance:
                    continue
                pairs.append((chooser, other))
                left = [p for p in unpaired if p is not chooser and p is not other]
                if visit(left, s1, after):
                    return True
                pairs.pop()
            return False

        try:
            visit(group, None, (0, 0))
        except _OutOfBudget:
            if best is None:
                raise
        return best[1] if best is not None else None

    def floater_sets(self, bracket: list[_Player], count: int) -> list[tuple[_Player, ...]]:
        """Sets of ``count`` players to float down, the lowest ranked first, those who floated
        down last round after the others."""
        order = sorted(reversed(bracket), key=lambda p: p.record.floats.endswith("D"))
        return list(itertools.islice(itertools.combinations(order, count), FLOATER_CHOICES))

    def pair_bracket(
        self, bracket: list[_Player], mdps: frozenset[PlayerId], below: list[_Player]
    ) -> tuple[list[tuple[_Player, _Player]], list[_Player]]:
        """The bracket's pairs and the players it floats down, choosing, in order: the fewest
        floaters such that everyone below can still be paired (with the bye to a player on
        :attr:`bye_score`); the lowest scores among them; the most pairs they allow in the next
        bracket (C.04.3 C7); in the last bracket, whose floater takes the bye, the fewest
        unplayed rounds for that player (C9); the fewest side conflicts in the bracket (C12),
        then the fewest strong preferences denied (C13) (the colour criteria come before the
        float criteria); the fewest players floated down twice running; then the order of
        :meth:`floater_sets`."""
        following = [p for p in below if p.points == below[0].points] if below else []
        for count in range(len(bracket) % 2, len(bracket) + 1, 2):
            best: tuple[_BracketKey, list[tuple[_Player, _Player]], set[PlayerId]] | None = None
            min_score = sum(sorted(p.points for p in bracket)[:count])
            for floaters in self.floater_sets(bracket, count):
                chosen = {p.id for p in floaters}
                group = [p for p in bracket if p.id not in chosen]
                # the last bracket's floater takes the bye: the fewest unplayed rounds first
                unplayed = 0 if below else sum(p.record.sides.count("-") for p in floaters)
                repeats = sum(p.record.floats.endswith("D") for p in floaters)
                score = sum(p.points for p in floaters)
                floor, floor_strong = self.conflicts_floor(group)
                bound = (score, 0, unplayed, floor, floor_strong, repeats)
                if best is not None and bound >= best[0]:
                    continue
                short = 0
                if floaters and following:
                    # the pairs the next bracket (these floaters and its residents) falls short of
                    nxt = [*floaters, *following]
                    short = len(nxt) // 2 - self.pairable(nxt)
                    bound = (score, short, unplayed, floor, floor_strong, repeats)
                    if best is not None and bound >= best[0]:
                        continue
                if not self.completes([*floaters, *below]):
                    continue
                pairs = self.pair_group(group, mdps)
                if pairs is None:
                    continue
                denied = sum(self.cost(a, b)[0] for a, b in pairs)
                strong = sum(self.cost(a, b)[1] for a, b in pairs)
                key = (score, short, unplayed, denied, strong, repeats)
                if best is None or key < best[0]:
                    best = (key, pairs, chosen)
                if key[1:] == (0, 0, 0, 0, 0) and score == min_score:
                    break
            if best is not None:
                _, pairs, chosen = best
                return pairs, [p for p in bracket if p.id in chosen]
        raise AssertionError("floating the whole bracket is always possible")

    def lowest_bye_score(self, ranked: list[_Player]) -> float:
        """The lowest score on which a player may take the bye and the others all be paired
        (C.04.3: the round is completed, then the bye goes as low as it can). Every bracket
        then floats what it must for the bye to land there, not on a higher score."""
        scores = sorted({p.points for p in ranked if p.record.pairing_byes == 0})
        for score in scores:
            # the bye open to every score up to this one: a lower one failed, so the player
            # it goes to is on this score (and so in every part of the round paired later)
            self.bye_score = score
            if self.completes(ranked):
                return score
        raise AssertionError("the round was found pairable with the bye open to every score")

    def pair(self) -> tuple[list[tuple[_Player, _Player]], _Player | None]:
        ranked = sorted(self.players, key=lambda p: (-p.points, p.seed))
        if not self.completes(ranked):
            raise PairingImpossibleError(
                f"the {len(ranked)} players cannot all be paired without meeting someone "
                "again (or without a second bye)"
            )
        if len(ranked) % 2 == 1:
            self.bye_score = self.lowest_bye_score(ranked)
        pairs: list[tuple[_Player, _Player]] = []
        floaters: list[_Player] = []
        rest = ranked
        while rest:
            top = rest[0].points
            residents = [p for p in rest if p.points == top]
            rest = rest[len(residents) :]
            bracket = [*floaters, *residents]
            mdps = frozenset(p.id for p in floaters)
            made, floaters = self.pair_bracket(bracket, mdps, rest)
            pairs += made
        if len(floaters) > 1:
            raise AssertionError(f"{len(floaters)} players left unpaired")
        return pairs, floaters[0] if floaters else None


def pair_swiss(
    entrants: Sequence[Entrant],
    history: Sequence[PlayedRound],
    round_number: int,
    scoring: Scoring = ONE_GAME,
) -> Round:
    """Pair round ``round_number`` of a Swiss event after the rounds of ``history``.

    ``entrants`` are all the event's players (withdrawn ones are not paired); a player who joined
    late has zero-point :class:`~bot.tournament.model.ByeKind.MISSED` byes for the rounds before
    (the caller records them). An odd number of players gives the lowest-ranked player without
    a pairing-allocated bye one, worth ``scoring.bye_points``. Boards are ordered by the higher
    score on them, then the sum of scores, then the better seed. In matches, sides alternate by
    the first game's side and never block a pairing. Raises
    :class:`~bot.tournament.errors.PairingImpossibleError` when no pairing without a repeat
    exists.
    """
    if round_number != len(history) + 1:
        raise TournamentError(
            f"round {round_number} cannot follow {len(history)} rounds: pair round "
            f"{len(history) + 1}"
        )
    order = seeded(list(entrants))
    if len({e.id for e in order}) != len(order):
        raise TournamentError("an entrant is listed twice")
    seeds = {e.id: number for number, e in enumerate(order, start=1)}
    known = records(seeds, history, scoring)
    players = []
    for e in order:
        if not e.withdrawn:
            wants = preference(known[e.id].sides)
            players.append(
                _Player(known[e.id], seeds[e.id], wants, wants.side if wants.absolute else "")
            )
    pairs, left = _Pairer(players, scoring.matches).pair()

    def rank(p: _Player) -> tuple[float, int]:
        return (-p.points, p.seed)

    boards = []
    for a, b in pairs:
        higher, lower = (a, b) if rank(a) <= rank(b) else (b, a)
        attacker, defender = allocate(higher.record, lower.record, higher.seed)
        key = (-higher.points, -(a.points + b.points), higher.seed)
        boards.append((key, attacker.id, defender.id))
    boards.sort()
    pairings = tuple(
        Pairing(attacker, defender, board)
        for board, (_, attacker, defender) in enumerate(boards, start=1)
    )
    byes = (Bye(left.id, ByeKind.PAIRING, scoring.bye_points),) if left else ()
    return Round(round_number, pairings, byes)
