"""Post-game analysis: every position scored by a fixed-depth search, the decisive moments found
and explained, and an accuracy figure per side.

Two steps, so that the bot can show progress between positions:

1. :func:`evaluate_position` searches one position of a game (in a worker process, through
   :meth:`bot.ai.service.AIService.evaluate`) and returns a :class:`PositionEval`.
2. :func:`review` takes a game's moves and the evaluations of all its positions and finds the
   moments that decided it, without searching again: a **blunder** (the mover's winning chances
   fall by :data:`BLUNDER_DROP` or more, a won position becomes lost, or the move allows a forced
   win that was not there), a **missed win** (a move that ended the game at once, or a forced
   win in two, was on the board and not played) and a **missed defence** (the opponent
   threatened to win at once, the threat could be met, and was not). :mod:`bot.ai.explain`
   proves each one on the board and words it.

Scores are in hundredths of an attacker from the **attackers'** point of view; forced results
are mate scores (see :data:`bot.ai.search.MATE`). :func:`win_chance` maps a score to the
attackers' winning chances with a logistic curve fitted per variant on finished games (see
:data:`CALIBRATIONS`); accuracy follows lichess's formula on those chances (:func:`accuracy_of`).
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple, TypedDict

from bot.engine.board import ATTACKERS, Board
from bot.engine.game import Game
from bot.engine.tables import MOVE_SHIFT
from bot.engine.types import MoveNumber, Side
from bot.engine.variants import Variant, get_variant

from . import explain
from . import fast as fast_core
from .player import move_text, replay
from .search import MATE, MATE_BOUND, Searcher, SearchResult, plies_to_result

FORMAT_VERSION = 2
"""The version of :meth:`GameAnalysis.to_json`'s format (stored analyses say which they are):
2 stores each moment's reason as data; 1 stored it as an English sentence (such a review is
read by finding its moments again from its stored evaluations)."""
METHOD = 5
"""The version of how a review is made (its thresholds, the search again for where a forced
result or a collapse began, the answers its sentences name, its searches' reductions, its
evaluation): stored reviews name it with their budget, so that a review made the old way is made
again rather than shown. 4: late moves read two plies shallower
(:attr:`~bot.ai.search.Searcher.even_reductions`), except in the searches again that leave a
move out. 5: the king's distance from a throne he may not return to mended (fidchell and
tablut-ashton reviews had read his first step off it as a win for the defenders)."""

# ---------------------------------------------------------------------------------- the budget

DEFAULT_DEPTHS: dict[int, int] = {7: 7, 9: 6, 11: 6}
"""The default search depth by board size with the fast core (plies before the tactical
quiescence; see :mod:`bot.ai.fast`).

A fixed depth, not a time, so the same game always gets the same analysis whatever the load of
the machine. Chosen so that a game of 60 moves takes 20 s of processor time or less on one core
(``benchmarks/analysis.py``, the searches again included): its 60-move tablut game at depth 6
in 4 s, the first 60 moves of a real Copenhagen game (``--copenhagen 120 --plies 120``) at depth
6 in 17 s on the shared two-core machine under a load of two, 19 s under four; 7x7 games at depth 7
cost less (brandubh and fidchell self-play: 0.05 to 0.09 s a position). At depth 3, 11x11
missed a king fork five plies ahead that depth 5 sees. 11x11 reviews went from depth 5 (7.5 to
8 s) to 6 once the fast core found the same nodes faster (21 to 23 s before, under a load of
two to four; 106 s before late quiet moves were read two plies shallower instead of one, see
:data:`~bot.ai.search.LATE_REDUCTION`, and before the quiescence looked for the defenders'
exit forts only where standing pat does not already decide).
"""
PURE_PYTHON_DEPTHS: dict[int, int] = {7: 5, 9: 4, 11: 3}
"""The default depths without the fast core, two plies shallower (three on 11x11; each ply
costs about four times as much): the 60-move tablut game takes 90 s at depth 4 in pure
Python."""
SAFETY_SECONDS = 30.0
"""The time limit of a default-budget search, a safety net only: a normal position finishes its
depth in a second or two; a pathological one must not hold a worker for minutes."""


def default_depth(variant: str | Variant, fast: bool | None = None) -> int:
    """The default analysis depth for a variant (by its board size), for the fast core when it
    plays the variant (``fast``: for it, or for the pure Python, whatever is built)."""
    chosen = get_variant(variant) if isinstance(variant, str) else variant
    use_fast = fast_core.supports(chosen) if fast is None else fast
    depths = DEFAULT_DEPTHS if use_fast else PURE_PYTHON_DEPTHS
    if chosen.size in depths:
        return depths[chosen.size]
    return depths[11] if chosen.size > 11 else depths[7]


def budget_name(variant: str | Variant) -> str:
    """The name of the budget and method a review of a ``variant`` game is made with, under
    which it is stored: the same name, the same review."""
    return f"depth {default_depth(variant)}, method {METHOD}"


# ---------------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Calibration:
    """How a variant's scores map to winning chances:
    ``1 / (1 + exp(-slope * (score - centre)))`` for the attackers."""

    slope: float
    """Per hundredth of an attacker."""
    centre: int = 0
    """The score at which both sides win as often (the evaluation's bias in this variant)."""


CALIBRATIONS: dict[str, Calibration] = {
    "copenhagen": Calibration(0.0013, 475),
    "tablut": Calibration(0.0022, 625),
}
"""Fitted by maximum likelihood on finished games, by ``benchmarks/analysis.py --fit``:

- ``copenhagen``: 1,853 positions (every 8th ply) of 300 real games, the odd-numbered lines of
  ``tests/data/copenhagen-games.csv`` (``--fit --games 300 --selfplay 0``). Copenhagen's
  evaluation leans towards the attackers (their ring closing in scores before it holds), so
  the sides win as often at 475, and the slope is shallow: 2,000 is still only 87%.
- ``tablut``: 794 positions (every 6th ply) of 120 self-play games, ``medium`` and ``hard``
  each against itself, odd seeds (``--fit --games 0 --selfplay 120``), for want of recorded
  human games. Between equal levels the defenders won nearly three games in four, so the even
  point is 625: the start is about 20% for the attackers. Smaller samples disagree (40 games:
  slopes 0.0034 to 0.0038, even points 275 to 675): refit on the bot's own finished games once
  there are a few hundred.

The judge (``benchmarks/analysis.py --judge``) measures the verdicts on the other half of the
games, which the fits never saw. Copenhagen, 1,651 positions of 300 real games: of the
positions called won with 80% or more, 91.7% were won by that side (96.0% from 90%; the side
that won more often won 54.8%); of those with a forced result, 54 of 55. At depth 6, the
default on 11x11 since, with the same calibration (``--judge --selfplay 0``): 92.3% (97.4% from
90%), forced results 80 of 81. Tablut, 746 positions
of 120 self-play games: 96.1% (99.5% from 90%; the usual winner 66.9%); forced, 132 of 132."""
DEFAULT_CALIBRATION = Calibration(0.0022)
"""The other variants', for want of games: tablut's slope, even at the start (0)."""


def calibration_for(variant: str | Variant) -> Calibration:
    """The calibration of a variant's scores (:data:`CALIBRATIONS`, else the default)."""
    name = variant if isinstance(variant, str) else variant.name
    return CALIBRATIONS.get(get_variant(name).name, DEFAULT_CALIBRATION)


INACCURACY_DROP = 0.1
MISTAKE_DROP = 0.2
BLUNDER_DROP = 0.3
"""How far the mover's winning chances must fall (0..1) for a move to be an inaccuracy, a
mistake or a blunder: lichess's thresholds (10, 20 and 30 points of winning chances).

The smallest is above the evaluation's own noise: after the engine's own choice the chances
measured before and after the move still differ by the search's horizon effects (over the 55
such moves of ``benchmarks/analysis.py``'s game, 1.3% on average and 5.7% at most)."""
WON = 0.8
"""Winning chances from which a position counts as won (a blunder that turns a won position
into a lost one is reported whatever the margin)."""
HOPELESS = 0.05
"""Winning chances below which a move that allows a forced loss is no longer a blunder: the
game was lost already, the forced line only came into the search's sight."""
CRITICAL = 3
"""How many of the moments are flagged as the critical ones, to show with a board."""


def win_chance(score: int, calibration: Calibration = DEFAULT_CALIBRATION) -> float:
    """The attackers' winning chances (0..1) at ``score`` (attackers' point of view); forced
    results are certain."""
    if score > MATE_BOUND:
        return 1.0
    if score < -MATE_BOUND:
        return 0.0
    exponent = -calibration.slope * (score - calibration.centre)
    return 1.0 / (1.0 + math.exp(min(exponent, 700.0)))


def chance_for(
    side: Side, evaluation: PositionEval, calibration: Calibration = DEFAULT_CALIBRATION
) -> float:
    """``side``'s winning chances in an evaluated position (see :meth:`PositionEval.chance`)."""
    chance = evaluation.chance(calibration)
    return chance if side is Side.ATTACKERS else 1.0 - chance


def accuracy_of(loss: float) -> float:
    """The accuracy (0..100) of a move that cost the mover ``loss`` of their winning chances
    (0..1), by lichess's formula: ``103.1668 * exp(-0.04354 * loss%) - 3.1669``, clamped.

    No loss is 100; losing 5 points of winning chances is 80, 10 points 64, 20 points 40, 50
    points 8.5.
    """
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss) * 100.0) - 3.1669
    return min(100.0, max(0.0, value))


def side_accuracy(accuracies: Sequence[float], weights: Sequence[float]) -> float | None:
    """One side's accuracy over a game, as lichess computes it: the mean of its moves'
    accuracies weighted by how volatile the game was around each, averaged with their
    harmonic mean (each at least 1), so that one move that threw the game away weighs as it
    should and is not lost among many easy ones (``None`` for no move)."""
    if not accuracies:
        return None
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = len(accuracies) / sum(1.0 / max(1.0, a) for a in accuracies)
    return round((weighted + harmonic) / 2, 1)


def volatility_weights(chances: Sequence[float]) -> list[float]:
    """Lichess's weight of each move: the standard deviation of the winning chances (in
    percent) over a window of positions around it (the window grows with the game, from 2 to 8
    positions), kept between 0.5 and 12. ``chances`` holds one value per position, so there is
    one weight per move."""
    values = [100.0 * chance for chance in chances]
    moves = len(values) - 1
    if moves < 1:
        return []
    size = min(max(moves // 10, 2), 8)
    windows = [values[:size]] * (min(size, len(values)) - 2)
    windows += [values[i : i + size] for i in range(len(values) - size + 1)]
    return [min(12.0, max(0.5, statistics.pstdev(window))) for window in windows[:moves]]


# ---------------------------------------------------------------------------------- one position


class PositionRecord(TypedDict):
    """A :class:`PositionEval` as stored analyses write it in JSON."""

    score: int
    best: str | None
    pv: list[str]
    depth: int
    nodes: int


@dataclass(frozen=True)
class PositionEval:
    """The search's verdict on one position."""

    score: int
    """Hundredths of an attacker from the attackers' point of view; beyond ``±MATE_BOUND`` a
    forced result (``MATE - n``: the attackers win in ``n`` plies; ``-(MATE - n)``: the
    defenders do). A finished game scores ``±MATE`` (or 0 for a draw)."""
    best_move: str | None
    """The search's move for the side to move (``None`` when the game is over)."""
    pv: tuple[str, ...] = ()
    """The principal variation, starting with :attr:`best_move`."""
    depth: int = 0
    """The deepest complete iteration (0 for a finished game)."""
    nodes: int = 0

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced result (positive: the attackers win), or ``None``."""
        return plies_to_result(self.score)

    @property
    def finished(self) -> bool:
        """Whether the game was over in this position (it has no move)."""
        return self.best_move is None

    def chance(self, calibration: Calibration = DEFAULT_CALIBRATION) -> float:
        """The attackers' winning chances (0..1): :func:`win_chance` of the score, but a drawn
        game is an even share whatever the calibration says of a score of 0."""
        if self.finished and abs(self.score) <= MATE_BOUND:
            return 0.5
        return win_chance(self.score, calibration)

    def for_side(self, side: Side) -> int:
        """The score from ``side``'s point of view."""
        return self.score if side is Side.ATTACKERS else -self.score

    def to_dict(self) -> PositionRecord:
        """A JSON-ready dict (see :meth:`from_dict`)."""
        return {
            "score": self.score,
            "best": self.best_move,
            "pv": list(self.pv),
            "depth": self.depth,
            "nodes": self.nodes,
        }

    @classmethod
    def from_dict(cls, data: PositionRecord) -> PositionEval:
        """The inverse of :meth:`to_dict`."""
        return cls(
            score=int(data["score"]),
            best_move=data["best"],
            pv=tuple(data["pv"]),
            depth=int(data["depth"]),
            nodes=int(data["nodes"]),
        )


def evaluate_position(
    variant: str,
    start_position: str | None,
    first_turn: Side | None,
    moves: Sequence[str],
    *,
    time_limit: float | None = None,
    max_depth: int | None = None,
    fast: bool | None = None,
    exclude: str | None = None,
) -> PositionEval:
    """Search the position after ``moves`` at a fixed budget; a finished game is scored exactly.

    ``fast`` chooses the build (see :class:`~bot.ai.search.Searcher`; by default the fast core
    where it is built), and with it the default depth.

    With neither limit given the budget is :func:`default_depth` with :data:`SAFETY_SECONDS` as
    a safety net. ``max_depth`` alone searches to that depth with no time limit, so the result
    depends on nothing but the position and its history: the same every time. ``time_limit``
    alone deepens until the time is up.

    The score is the mean of the last two iterations' (unless either is a forced result): a
    fixed-depth search flatters the side that makes the last move of its horizon, by as much as
    an attacker in some positions, and the mean of an odd and an even depth cancels that swing,
    so that the positions before and after a move are judged alike.

    ``exclude`` leaves one move out (``e1-e4``): the verdict is then the best of the others
    (:class:`Deepening` asks so). With no other move it has no best move and counts as lost.
    """
    game, hashes = replay(variant, start_position, first_turn, list(moves))
    if game.outcome is not None:
        winner = game.outcome.winner
        score = 0 if winner is None else MATE if winner is Side.ATTACKERS else -MATE
        return PositionEval(score, None)
    limit: float | None = time_limit
    if max_depth is None and time_limit is None:
        depth, limit = default_depth(game.variant, fast), SAFETY_SECONDS
    else:
        depth = max_depth if max_depth is not None else 64
    board = Board(game.variant, list(game.board.cells), game.board.turn)
    # The search scores any return to a position of its history as a repetition (a draw, or
    # in Copenhagen the attackers' win). The game ends so only at the third occurrence, so only
    # positions seen twice already are its history here: with every earlier position, a game
    # that once repeated would read as decided when it is not.
    counts = Counter(hashes)
    repeated = [key for key, count in counts.items() if count >= 2]
    iterations: list[SearchResult] = []
    # A fresh searcher: a table left by other positions would make the result depend on what
    # the process searched before.
    excluded = [move for move in board.moves() if move_text(move, game.size) == exclude]
    # Late moves read whole moves shallower: at a fixed depth the reading is several times
    # cheaper (see LATE_REDUCTION). Not when a move is left out: that search asks whether
    # another move holds, and the even reductions hid a real game's exit fort from it.
    even = exclude is None
    result = Searcher(game.variant, even_reductions=even, fast=fast).search(
        board,
        max_depth=depth,
        time_limit=limit,
        history=repeated,
        on_iteration=iterations.append,
        exclude=excluded,
    )
    sign = 1 if board.turn == ATTACKERS else -1
    if result.move is None:
        return PositionEval(sign * -MATE, None)
    score = _steady_score(result, iterations)
    pv = tuple(move_text(move, game.size) for move in result.pv)
    best = move_text(result.move, game.size) if result.move is not None else None
    if best is not None and (not pv or pv[0] != best):
        pv = (best,)  # a move of an unfinished iteration that beat the last complete one
    return PositionEval(sign * score, best, pv, result.depth, result.nodes)


def _steady_score(result: SearchResult, iterations: list[SearchResult]) -> int:
    """The search's score with the odd/even swing of the last two iterations averaged out."""
    if not iterations or iterations[-1].move != result.move:
        return result.score
    last = iterations[-1].score
    if abs(last) > MATE_BOUND or len(iterations) < 2:
        return last
    previous = iterations[-2].score
    if abs(previous) > MATE_BOUND:
        return last
    return round((last + previous) / 2)


# ---------------------------------------------------------------------------------- blame

DEEPER = 0
"""How many plies deeper than the review's depth a position is searched again, to find the move
that allowed a forced result or a collapse: none, so that its verdict is judged as its
neighbours are (a deeper one shifts the chances of the position, and with them the cost of the
opponent's move before it: a brandubh review found a 20% inaccuracy that was only that)."""
RESEARCHES = 16
"""The most positions one review searches again."""


def forced_winner(evaluation: PositionEval) -> Side | None:
    """Who wins by force in an evaluated position (a finished game's winner too), if anyone."""
    if evaluation.score > MATE_BOUND:
        return Side.ATTACKERS
    if evaluation.score < -MATE_BOUND:
        return Side.DEFENDERS
    return None


class Ask(NamedTuple):
    """A position a review should search again: after ``moves[:position]``, to ``depth``
    plies, leaving out the move played there (``exclude``, when given: how good were the
    others?)."""

    position: int
    depth: int
    exclude: str | None = None


class Deepening:
    """Pins a forced result, or a collapse of a side's chances, on the move that allowed it.

    A fixed-depth search is blind beyond its horizon, and its reductions (late quiet moves read
    shallower) leave it blind to some results even within it: a review would blame a later,
    innocent move, or nobody. So wherever a position is won by force and the one before it is
    not, the positions before it are searched again, deeper, walking back over the loser's
    moves: each is searched without the move the loser played there. If another move holds,
    that move is the one that allowed the loss; if every other move loses too, the position was
    already lost, and the walk goes on to the loser's move before (the winner's move in between
    keeps the win it reached: no search needed). Where the mover's chances collapsed right after
    the engine's own choice (:data:`BLUNDER_DROP` or more, no forced result), the position is
    searched again without that move: an alternative that keeps clearly better chances makes the
    move a mistake the review can name. Every search again reads :data:`DEEPER` plies deeper
    than the review (none: it asks another question, not the same one deeper).

    The review drives it, since it owns the searches (worker processes)::

        deepening = Deepening(evals, depth, moves, first_turn, variant)
        while (ask := deepening.next()) is not None:
            deepening.accept(ask.position, evaluate(ask.position, ask.depth, ask.exclude))
        evals = deepening.evals

    The same game and depth always ask for the same searches, so a review stays reproducible.
    """

    def __init__(
        self,
        evals: Sequence[PositionEval],
        depth: int,
        moves: Sequence[str],
        first_turn: Side,
        variant: str | Variant,
        *,
        deeper: int = DEEPER,
        budget: int = RESEARCHES,
    ) -> None:
        if len(evals) != len(moves) + 1:
            raise ValueError(f"{len(evals)} evaluations for {len(moves)} moves")
        self.evals = list(evals)
        """The verdicts, the deeper ones in place of those they correct."""
        self.depth = depth + deeper
        """The depth of the searches again."""
        self.moves = list(moves)
        self.first_turn = first_turn
        self.calibration = calibration_for(variant)
        self.budget = budget
        self.searched = 0
        """How many positions were searched again."""
        self._cursor = 0
        self._pending: tuple[Ask, Side | None] | None = None
        """The search asked for, and the winner whose forced result is being traced back (None:
        a collapse of chances)."""

    def mover(self, index: int) -> Side:
        """Who plays the move from position ``index``."""
        return self.first_turn if index % 2 == 0 else self.first_turn.other

    def next(self) -> Ask | None:
        """The next position to search again, or ``None`` when done."""
        while self._pending is None and self.searched < self.budget:
            if self._cursor >= len(self.moves):
                return None
            index = self._cursor
            self._cursor += 1
            winner = forced_winner(self.evals[index + 1])
            if winner is not None and forced_winner(self.evals[index]) is not winner:
                self._walk_back(index, winner)
            elif winner is None and self._collapsed(index):
                ask = Ask(index, self.depth, self.moves[index])
                self._pending = (ask, None)
        if self._pending is None or self.searched >= self.budget:
            return None
        return self._pending[0]

    def accept(self, index: int, evaluation: PositionEval) -> None:
        """The deeper verdict on the position :meth:`next` asked for."""
        assert self._pending is not None and self._pending[0].position == index
        _, winner = self._pending
        self._pending = None
        self.searched += 1
        side = self.mover(index)
        if winner is None:  # a collapse: is another move clearly better than the one played?
            after = chance_for(side, self.evals[index + 1], self.calibration)
            better = chance_for(side, evaluation, self.calibration)
            if evaluation.best_move is not None and better - after >= INACCURACY_DROP:
                self.evals[index] = evaluation
            return
        if evaluation.best_move is not None and forced_winner(evaluation) is not winner:
            self.evals[index] = evaluation  # another move holds: the one played allowed it
            return
        # Every move loses: the position was lost already; the longest loss is its value.
        played = self._won_by_move(index, winner)
        if evaluation.best_move is None or evaluation.for_side(side) < played.for_side(side):
            evaluation = played
        self.evals[index] = evaluation
        if index > 0:
            self._walk_back(index - 1, winner)

    def _walk_back(self, index: int, winner: Side) -> None:
        """Trace a forced win for ``winner`` from the position after move ``index`` back: the
        winner's own moves keep it (the position before is won by the same move), the loser's
        are asked about."""
        while index >= 0 and forced_winner(self.evals[index]) is not winner:
            if self.mover(index) is winner:
                self.evals[index] = self._won_by_move(index, winner)
                index -= 1
                continue
            self._pending = (Ask(index, self.depth, self.moves[index]), winner)
            return

    def _won_by_move(self, index: int, winner: Side) -> PositionEval:
        """Position ``index``'s verdict through the move played there, which reaches the
        forced win for ``winner`` of the position after it (one ply more)."""
        after = self.evals[index + 1]
        plies = abs(after.mate_in or 0) + 1
        score = MATE - plies if winner is Side.ATTACKERS else -(MATE - plies)
        move = self.moves[index]
        return PositionEval(score, move, (move, *after.pv), after.depth, 0)

    def _collapsed(self, index: int) -> bool:
        """Whether the mover's chances fell by :data:`BLUNDER_DROP` or more right after the
        engine's own choice (which the review cannot blame as it stands)."""
        before, after = self.evals[index], self.evals[index + 1]
        if before.best_move != self.moves[index] or forced_winner(before) is not None:
            return False
        side = self.mover(index)
        drop = chance_for(side, before, self.calibration) - chance_for(
            side, after, self.calibration
        )
        return drop >= BLUNDER_DROP


def deepen(
    evals: Sequence[PositionEval],
    depth: int,
    moves: Sequence[str],
    first_turn: Side,
    variant: str | Variant,
    evaluate: Callable[[int, int, str | None], PositionEval],
) -> list[PositionEval]:
    """Run a :class:`Deepening` with ``evaluate(position index, depth, excluded move)`` (in this
    process)."""
    deepening = Deepening(evals, depth, moves, first_turn, variant)
    while (ask := deepening.next()) is not None:
        deepening.accept(ask.position, evaluate(*ask))
    return deepening.evals


# ---------------------------------------------------------------------------------- moments


class MomentKind(StrEnum):
    """What kind of decisive moment a move was (the values are stored: never change them)."""

    BLUNDER = "blunder"
    MISSED_WIN = "missed win"
    MISSED_DEFENCE = "missed defence"
    MISTAKE = "mistake"
    INACCURACY = "inaccuracy"

    @property
    def decisive(self) -> bool:
        """A blunder or a missed win or defence: a move that decided the game (a mistake or an
        inaccuracy is a smaller cost, of the kind slow losses are made of)."""
        return self not in (MomentKind.MISTAKE, MomentKind.INACCURACY)


class MomentRecord(TypedDict):
    """A :class:`Moment` as stored analyses write it in JSON (its enums by value)."""

    ply: int
    side: str
    kind: str
    move: str
    better: str
    before: int
    after: int
    reason: dict[str, object]
    loss: float
    critical: bool


@dataclass(frozen=True)
class Moment:
    """A move that decided the game, with the better move and why."""

    ply: int
    """Which move of the game (1 is the first move played)."""
    side: Side
    """Who played it."""
    kind: MomentKind
    move: str
    """The move played, ``e1-e4``."""
    better: str
    """The move that should have been played."""
    before: int
    """The score before the move (attackers' point of view)."""
    after: int
    """The score after it (attackers' point of view)."""
    reason: explain.Reason
    """Why, as data (the review words it: ``d4-d8 lets the king reach c9``)."""
    loss: float
    """How much of the mover's winning chances the move threw away (0..1)."""
    critical: bool = False
    """Among the :data:`CRITICAL` moments that cost the most: shown with a board."""

    def to_dict(self) -> MomentRecord:
        """A JSON-ready dict (see :meth:`from_dict`)."""
        return {
            "ply": self.ply,
            "side": self.side.value,
            "kind": self.kind.value,
            "move": self.move,
            "better": self.better,
            "before": self.before,
            "after": self.after,
            "reason": explain.to_data(self.reason),
            "loss": self.loss,
            "critical": self.critical,
        }

    @classmethod
    def from_dict(cls, data: MomentRecord) -> Moment:
        """The inverse of :meth:`to_dict`."""
        return cls(
            ply=int(data["ply"]),
            side=Side(data["side"]),
            kind=MomentKind(data["kind"]),
            move=data["move"],
            better=data["better"],
            before=int(data["before"]),
            after=int(data["after"]),
            reason=explain.from_data(data["reason"]),
            loss=float(data["loss"]),
            critical=bool(data["critical"]),
        )


@dataclass(frozen=True)
class GameAnalysis:
    """A whole game reviewed: its evaluations, decisive moments and accuracy per side."""

    variant: str
    start_position: str
    """The start position (OTN)."""
    first_turn: Side
    moves: tuple[str, ...]
    """The moves, ``e1-e4``."""
    evals: tuple[PositionEval, ...]
    """One per position: before the first move, ..., after the last (``len(moves) + 1``)."""
    moments: tuple[Moment, ...]
    """The decisive moments in game order."""
    move_accuracy: tuple[float, ...]
    """Each move's accuracy (0..100, see :func:`accuracy_of`), in game order."""
    attackers_accuracy: float | None
    """The mean accuracy of the attackers' moves (``None`` when they made none)."""
    defenders_accuracy: float | None

    def accuracy(self, side: Side) -> float | None:
        """``side``'s accuracy (0..100), or ``None`` when it made no move."""
        return self.attackers_accuracy if side is Side.ATTACKERS else self.defenders_accuracy

    @property
    def critical(self) -> tuple[Moment, ...]:
        """The moments to show with a board, in game order."""
        return tuple(moment for moment in self.moments if moment.critical)

    def win_chances(self) -> list[float]:
        """The attackers' winning chances (0..1) at every position (see :func:`win_chance`)."""
        calibration = calibration_for(self.variant)
        return [evaluation.chance(calibration) for evaluation in self.evals]

    def mover(self, ply: int) -> Side:
        """Who played the ``ply``-th move."""
        first = self.first_turn
        return first if ply % 2 == 1 else first.other

    def move_label(self, ply: int) -> str:
        """The ``ply``-th move's number as game records write it: ``12.`` or ``12…``."""
        return str(MoveNumber.of(ply, self.first_turn, get_variant(self.variant).first))

    def comments(self) -> dict[int, str]:
        """A comment for each moment's move, by ply, for a game record's export (a file's
        data, in English): ``"Blunder (better d4-d6): d4-d8 lets the king reach c9"``."""
        return {
            moment.ply: f"{moment.kind.value.capitalize()} (better {moment.better}): "
            f"{explain.describe(moment.reason)}"
            for moment in self.moments
        }

    def to_json(self) -> str:
        """The analysis as compact JSON, to store (see :meth:`from_json`)."""
        data = {
            "version": FORMAT_VERSION,
            "variant": self.variant,
            "start_position": self.start_position,
            "first_turn": self.first_turn.value,
            "moves": list(self.moves),
            "evals": [evaluation.to_dict() for evaluation in self.evals],
            "moments": [moment.to_dict() for moment in self.moments],
            "move_accuracy": list(self.move_accuracy),
            "attackers_accuracy": self.attackers_accuracy,
            "defenders_accuracy": self.defenders_accuracy,
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameAnalysis:
        """Read what :meth:`to_json` wrote; raises ``ValueError`` for another format."""
        data = json.loads(text)
        if isinstance(data, dict) and data.get("version") == 1:
            # Its moments' reasons were sentences: found again, as data, from its evaluations
            # (no search: the same evaluations give the same moments).
            return review(
                data["variant"],
                data["start_position"],
                Side(data["first_turn"]),
                data["moves"],
                [PositionEval.from_dict(item) for item in data["evals"]],
            )
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            found = data.get("version") if isinstance(data, dict) else None
            raise ValueError(f"not a game analysis of format {FORMAT_VERSION} (found {found!r})")
        return cls(
            variant=data["variant"],
            start_position=data["start_position"],
            first_turn=Side(data["first_turn"]),
            moves=tuple(data["moves"]),
            evals=tuple(PositionEval.from_dict(item) for item in data["evals"]),
            moments=tuple(Moment.from_dict(item) for item in data["moments"]),
            move_accuracy=tuple(float(value) for value in data["move_accuracy"]),
            attackers_accuracy=_optional_float(data["attackers_accuracy"]),
            defenders_accuracy=_optional_float(data["defenders_accuracy"]),
        )


def _optional_float(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- the review


def review(
    variant: str,
    start_position: str | None,
    first_turn: Side | None,
    moves: Sequence[str],
    evals: Sequence[PositionEval],
) -> GameAnalysis:
    """Find the decisive moments of a game from the evaluations of its positions.

    ``evals`` holds one :class:`PositionEval` per position, the start included
    (``len(moves) + 1``), all searched at the same budget. No search is run here: the moments
    come from comparing consecutive scores, and their explanations from playing moves on the
    board (see :mod:`bot.ai.explain`).
    """
    game = Game(variant, start_position, first_turn)
    if len(evals) != len(moves) + 1:
        raise ValueError(
            f"{len(evals)} evaluations for {len(moves)} moves: one per position is needed "
            f"({len(moves) + 1})"
        )
    boards = [explain.copy_board(game.board)]
    played: list[str] = []
    for text in moves:
        result = game.play(text)
        played.append(result.move.text(game.size))
        boards.append(explain.copy_board(game.board))
    calibration = calibration_for(game.variant)
    finder = _Finder(boards, evals, game, calibration)
    moments: list[Moment] = []
    accuracy: list[float] = []
    for index, move in enumerate(played):
        side = explain.mover_of(boards[index])
        before, after = evals[index], evals[index + 1]
        engine_choice = move == before.best_move
        loss = (
            0.0
            if engine_choice
            else max(
                0.0,
                chance_for(side, before, calibration) - chance_for(side, after, calibration),
            )
        )
        accuracy.append(round(accuracy_of(loss), 1))
        if not engine_choice:
            moment = finder.moment(index, move)
            if moment is not None:
                moments.append(moment)
    moments = _flag_critical(moments)
    weights = volatility_weights([evaluation.chance(calibration) for evaluation in evals])
    first = 0 if game.start_turn is Side.ATTACKERS else 1
    return GameAnalysis(
        variant=game.variant.name,
        start_position=game.start_position,
        first_turn=game.start_turn,
        moves=tuple(played),
        evals=tuple(evals),
        moments=tuple(moments),
        move_accuracy=tuple(accuracy),
        attackers_accuracy=side_accuracy(accuracy[first::2], weights[first::2]),
        defenders_accuracy=side_accuracy(accuracy[1 - first :: 2], weights[1 - first :: 2]),
    )


def _flag_critical(moments: list[Moment]) -> list[Moment]:
    """Flag the :data:`CRITICAL` moments that cost the most (the earlier one on a tie; a
    decisive moment before a smaller one), in game order."""
    ranked = sorted(moments, key=lambda m: (not m.kind.decisive, -m.loss, m.ply))
    chosen = {moment.ply for moment in ranked[:CRITICAL]}
    ordered = sorted(moments, key=lambda moment: moment.ply)
    return [replace(moment, critical=moment.ply in chosen) for moment in ordered]


class _Finder:
    """Judges the moves of one game; caches each position's game-ending moves."""

    def __init__(
        self,
        boards: list[Board],
        evals: Sequence[PositionEval],
        game: Game,
        calibration: Calibration,
    ) -> None:
        self.boards = boards
        self.evals = evals
        self.game = game
        self.calibration = calibration
        self.size = game.size
        self._finishes: dict[int, list[explain.Finish]] = {}

    def finishes(self, index: int) -> list[explain.Finish]:
        """The side to move's game-ending moves in position ``index``, the one the game went on
        with first when it is one of them (the move the players saw)."""
        if index not in self._finishes:
            found = explain.finishes(self.boards[index])
            played = self._next_move(index)
            found.sort(key=lambda finish: move_text(finish.move, self.size) != played)
            self._finishes[index] = found
        return self._finishes[index]

    def _next_move(self, index: int) -> str | None:
        """The move the game went on with from position ``index`` (``None`` after the last)."""
        history = self.game.history
        return history[index].move.text(self.size) if index < len(history) else None

    def answer(self, index: int, *, forced: bool = False) -> str | None:
        """The opponent's answer to the move from position ``index`` that a review names: the
        game's own next move when it refutes that move, else the search's choice.

        The game's move refutes it when it wins at once, or keeps what the move gave away: it
        is the search's choice or costs its side less than an inaccuracy (with ``forced``, it
        keeps the forced win). The player saw that move played: naming another one, as good
        but never played, reads as if the review had watched another game.
        """
        after = self.evals[index + 1]
        played = self._next_move(index + 1)
        if played is None or played == after.best_move:
            return after.best_move
        opponent = explain.mover_of(self.boards[index + 1])
        outcome = self.game.history[index + 1].outcome
        if outcome is not None:
            return played if outcome.winner is opponent else after.best_move
        then = self.evals[index + 2]
        if forced:
            refutes = then.for_side(opponent) > MATE_BOUND
        else:
            cost = chance_for(opponent, after, self.calibration) - chance_for(
                opponent, then, self.calibration
            )
            refutes = cost < INACCURACY_DROP
        return played if refutes else after.best_move

    def _answer_line(self, index: int, answer: str) -> tuple[int, ...]:
        """The answer to the move from position ``index`` and the mover's best move after it,
        as engine moves (see :func:`_engine_line`)."""
        after = self.evals[index + 1]
        if answer == after.best_move:
            line: Sequence[str] = after.pv
        else:  # the game's own answer: the search of the position it led to goes on from it
            then = self.evals[index + 2].best_move
            line = (answer,) if then is None else (answer, then)
        return _engine_line(explain.copy_board(self.boards[index + 1]), line)

    def moment(self, index: int, move: str) -> Moment | None:
        """The moment the move from position ``index`` was, if it was one (the engine's own
        choice never is: the caller skips it)."""
        board = self.boards[index]
        side = explain.mover_of(board)
        before, after = self.evals[index], self.evals[index + 1]
        outcome = self.game.history[index].outcome
        if outcome is not None and outcome.winner is side:
            return None  # the move won the game
        if before.for_side(side) < -MATE_BOUND:
            return None  # already lost by force: the mistake was earlier
        still_winning = after.for_side(side) > MATE_BOUND
        chance_before = chance_for(side, before, self.calibration)
        chance_after = chance_for(side, after, self.calibration)
        loss = round(max(0.0, chance_before - chance_after), 3)
        dropped = chance_before - chance_after >= BLUNDER_DROP
        turned = chance_before >= WON and chance_after <= 1.0 - WON
        # A forced loss where there was none is a blunder however small the drop, unless the
        # game was already hopeless (as lichess counts a move that lets the opponent mate).
        doomed = after.for_side(side) < -MATE_BOUND and chance_before >= HOPELESS
        dropped = dropped or doomed

        def make(kind: MomentKind, better: str, reason: explain.Reason) -> Moment:
            return Moment(
                index + 1, side, kind, move, better, before.score, after.score, reason, loss
            )

        if not still_winning:
            found = self._missed_win(index)
            if found is not None:
                return make(MomentKind.MISSED_WIN, *found)
        if (dropped or turned) and before.best_move is not None and outcome is not None:
            # Only a repetition ends the game against its mover: no answer to read.
            return make(MomentKind.BLUNDER, before.best_move, explain.repeats(move, outcome))
        if outcome is not None:
            return None
        opponent_finishes = self.finishes(index + 1)
        if opponent_finishes:
            found = self._missed_defence(index, move, opponent_finishes)
            if found is not None:
                return make(MomentKind.MISSED_DEFENCE, *found)
        if before.best_move is None:
            return None
        kind = None
        if dropped or turned:
            kind = MomentKind.BLUNDER
        elif loss >= MISTAKE_DROP:
            kind = MomentKind.MISTAKE
        elif loss >= INACCURACY_DROP:
            kind = MomentKind.INACCURACY
        if kind is None:
            return None
        reason = self._blunder(index, move, opponent_finishes, chance_before, chance_after)
        return make(kind, before.best_move, reason)

    def _missed_win(self, index: int) -> tuple[str, explain.Reason] | None:
        """The better move and why, when a win in one or two was not played."""
        board = self.boards[index]
        before = self.evals[index]
        wins = self.finishes(index)
        if wins:
            chosen = next(
                (w for w in wins if move_text(w.move, self.size) == before.best_move), wins[0]
            )
            return move_text(chosen.move, self.size), explain.would_have(board, chosen)
        side = explain.mover_of(board)
        mate = before.mate_in
        if mate is None or before.best_move is None:
            return None
        plies = mate if side is Side.ATTACKERS else -mate
        if not 0 < plies <= 3:
            return None
        best = _engine_move(board, before.best_move)
        if best is None or not explain.wins_in_two(board, best):
            return None
        return before.best_move, explain.forced_two(board, best, before.pv[1:])

    def _missed_defence(
        self, index: int, move: str, opponent_finishes: list[explain.Finish]
    ) -> tuple[str, explain.Reason] | None:
        """The better move and why, when a threat to win at once was left standing although
        a move could have met it."""
        board = self.boards[index]
        threatened = {finish.move for finish in explain.threats(board)}
        standing = [finish for finish in opponent_finishes if finish.move in threatened]
        if not standing:
            return None  # the move made the threat itself: a blunder, judged later
        defence = self._defence(index)
        if defence is None:
            return None  # nothing could stop it: the game was already lost
        board_after = self.boards[index + 1]
        finish = standing[0]
        threat = explain.lets(board_after, move, finish, standing=True)
        return defence, explain.MissedDefence(threat, defence)

    def _defence(self, index: int) -> str | None:
        """A move after which the opponent cannot win at once: the search's choice if it is
        one, else the first such move."""
        board = explain.copy_board(self.boards[index])
        before = self.evals[index]
        best = _engine_move(board, before.best_move) if before.best_move else None
        candidates = board.moves()
        if best is not None:
            candidates.remove(best)
            candidates.insert(0, best)
        for candidate in candidates:
            status = board.make(candidate)
            safe = status is None and not explain.finishes(board)
            board.unmake()
            if safe:
                return move_text(candidate, self.size)
        return None

    def _blunder(
        self,
        index: int,
        move: str,
        opponent_finishes: list[explain.Finish],
        chance_before: float,
        chance_after: float,
    ) -> explain.Reason:
        """Why the move was a blunder, from the opponent's best answer on the board."""
        board_after = explain.copy_board(self.boards[index + 1])
        if opponent_finishes:
            return explain.lets(board_after, move, opponent_finishes[0])
        before, after = self.evals[index], self.evals[index + 1]
        opponent = explain.mover_of(board_after)
        mover = opponent.other
        if before.for_side(mover) > MATE_BOUND and before.best_move is not None:
            moves = (MATE - before.for_side(mover) + 1) // 2
            return explain.SlippedWin(move, before.best_move, moves)
        forced = after.for_side(opponent) > MATE_BOUND
        answer = self.answer(index, forced=forced)
        reply = _engine_move(board_after, answer)
        effect = explain.answer_effect(board_after, reply) if reply is not None else None
        if forced:
            # The same winning line the opponent already had before its last move (and let
            # slip): the move did not make it, it failed to stop it.
            earlier = self.evals[index - 1] if index > 0 else None
            standing = (
                earlier is not None
                and earlier.best_move == answer
                and earlier.for_side(opponent) > MATE_BOUND
            )
            return explain.LostByForce(move, opponent, answer, effect, standing)

        def fell(
            cause: explain.ForNothing | explain.Effect | explain.KingGoes | None,
        ) -> explain.ChancesFell:
            return explain.ChancesFell(move, mover, chance_before, chance_after, cause)

        if answer is not None:
            lost = explain.loses_for_nothing(board_after, move, self._answer_line(index, answer))
            if lost is not None:
                return fell(lost)
        if effect is not None:
            return fell(effect)
        if answer is not None:
            if reply is not None and reply >> MOVE_SHIFT == board_after.king:
                # Named as the piece players watch, not as a side's move.
                return fell(explain.KingGoes(answer.split("-")[-1]))
            return explain.ChancesFell(
                move, mover, chance_before, chance_after, explain.Plays(opponent, answer)
            )
        return fell(None)


def _engine_line(board: Board, line: Sequence[str]) -> tuple[int, ...]:
    """The engine's move ints of the first two moves of ``line`` from ``board``, as far as
    they are legal and the game goes on (the board is left as it was)."""
    found: list[int] = []
    for text in line[:2]:
        move = _engine_move(board, text)
        if move is None:
            break
        found.append(move)
        if board.make(move) is not None:
            break
    for _ in found:
        board.unmake()
    return tuple(found)


def _engine_move(board: Board, text: str | None) -> int | None:
    """The legal move of ``board`` written ``text`` (``None`` when there is none)."""
    if text is None:
        return None
    size = board.variant.size
    for move in board.moves():
        if move_text(move, size) == text:
            return move
    return None
