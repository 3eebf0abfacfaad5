"""Iterative-deepening principal variation search for tafl.

Negamax alpha-beta with a transposition table keyed by the board's incremental Zobrist hash,
move ordering (hash move, captures, killers, history), late-move reductions (never of a capture
or a king's move; none at all in a full-width search), and a tafl quiescence search that follows
the forcing lines: the king's escape threats (Raichi and Tuichi), the attackers' blocks,
captures of the king, and in Copenhagen the defenders' threats to build an exit fort and the
attackers' answers to them, and the attackers' threats to encircle the defenders, answered by
every defenders' move (as a threat on the king is, and as every move of defenders with hardly
a move left is read). A repetition is scored by the variant's own rule
(:attr:`bot.engine.rules.Rules.repetition_winner`): a draw, or a win for the side the rule names.
"""

from __future__ import annotations

import math
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.engine.board import ATTACKERS, DEFENDERS, Board
from bot.engine.rules import rules_for
from bot.engine.tables import ATTACKER, DEFENDER, KING, MOVE_SHIFT, TARGET_MASK
from bot.engine.types import Side
from bot.engine.variants import Variant

from . import fast as fast_core
from .evaluation import Evaluator, Weights
from .tactics import Fort, KingTactics

if TYPE_CHECKING:
    from . import _core

MATE = 100_000
"""The score of a won position (minus the plies it takes)."""
MATE_BOUND = MATE - 1_000
"""Scores beyond this are forced wins or losses."""
INFINITY = MATE + 1
MAX_PLY = 128
MAX_QUIESCENCE = 6
"""How many plies of escape threats and blocks the quiescence search follows."""
FEW_MOVES = 3
"""The defenders with this many moves or fewer are never assumed to have a safe one: the
quiescence reads them all (a side left without a move loses, and one nearly shut in may have
only losing moves)."""

LATE_REDUCTION = 2
"""How many plies shallower a late quiet move is searched first by a search with even
reductions (:attr:`Searcher.even_reductions`, the reviews'; one where that would leave no ply
before the horizon): an even number, so that the reduced reading ends on the same side's move as
the full one. An odd reduction moves the horizon onto the other side, and a horizon one side
reaches with many moves costs the most: in Copenhagen an attackers' node a ply before it reads
each of its hundred moves into the quiescence (the depth-6 review of a 60-move game read 4.4
times as many positions, in 3.5 times as long, with the levels' reductions of one ply and of two
for the last moves only).
"""

REDUCTION_DEPTHS = 64
REDUCTION_MOVES = 256
"""The size of :data:`LATE_REDUCTIONS`: deeper nodes and later moves read its last row and
column."""


def _late_reductions() -> bytes:
    """The levels' reductions by depth and move index (row-major, ``REDUCTION_MOVES`` a row):
    ``0.5 + ln(depth) ln(index) / 2.25`` plies rounded down, at least one, and never so many
    that no ply is left before the horizon. A tafl node has 60 to 200 moves, most of them
    quiet moves far from the king that history ranks late; reading them ever shallower the
    later they come (as chess engines do) reads half a ply (Copenhagen) to nearly two (tablut)
    deeper in the same time; against the earlier reductions it won about as many games (see
    :mod:`bot.ai.levels`)."""
    table = bytearray(REDUCTION_DEPTHS * REDUCTION_MOVES)
    for depth in range(3, REDUCTION_DEPTHS):
        for index in range(1, REDUCTION_MOVES):
            plies = int(0.5 + math.log(depth) * math.log(index) / 2.25)
            table[depth * REDUCTION_MOVES + index] = max(1, min(plies, depth - 2))
    return bytes(table)


LATE_REDUCTIONS = _late_reductions()
"""How many plies shallower the levels read a late quiet move first (:func:`late_reduction`).
One table for both searches: the fast core is given these bytes, so the two cannot differ."""


def late_reduction(depth: int, index: int, even: bool) -> int:
    """How many plies shallower the late quiet move ``index`` (in the order searched) of a node
    ``depth`` plies from the horizon (three or more) is searched first. ``even``:
    :data:`LATE_REDUCTION`, or one where that would leave no ply before the horizon (the
    reviews'); otherwise :data:`LATE_REDUCTIONS` (the levels')."""
    if even:
        return LATE_REDUCTION if depth > LATE_REDUCTION + 1 else 1
    row = min(depth, REDUCTION_DEPTHS - 1)
    return LATE_REDUCTIONS[row * REDUCTION_MOVES + min(index, REDUCTION_MOVES - 1)]


@dataclass(frozen=True)
class Pruning:
    """How ``master`` cuts short the shallow nodes off its principal variation (a null window)
    where no king threat is to be answered: the side to move's static evaluation, less
    ``static_margin`` a ply, already at beta ends the node (reverse futility); at ``futility_depth``
    plies from the horizon or fewer, its evaluation plus ``futility_margin`` a ply still at or below
    alpha skips the node's quiet moves after the first; within ``depth`` plies, a quiet move ranked
    after ``late_moves + late_moves_step * depth ** 2`` is skipped. A quiet move neither takes
    a piece, nor moves the king, nor is a killer, nor starts or ends within ``king_zone`` of
    him, nor opens a route for him or lets him be taken. And a node of ``unguided_depth`` plies
    or more that has no move from the table is read a ply shallower (it was not read before, so
    its move order is a guess). The fast core is given these numbers (:attr:`core_settings`),
    so the two searches cannot differ."""

    static_margin: int = 200
    futility_margin: int = 150
    late_moves: int = 8
    late_moves_step: int = 4
    depth: int = 3
    """The deepest node (plies from the horizon) cut short so."""
    futility_depth: int = 2
    """The deepest node whose quiet moves the futility margin skips."""
    king_zone: int = 2
    """How far (in rows and in files) from the king a move's origin or target makes it no
    quiet move."""
    unguided_depth: int = 4
    """The shallowest node read a ply shallower when the table has no move for it."""

    def late_move_limit(self, depth: int) -> int:
        """How many moves of a node ``depth`` plies from the horizon are read before quiet
        ones are skipped."""
        return self.late_moves + self.late_moves_step * depth * depth

    def near_king(self, move: int, king: int, size: int) -> bool:
        """Whether ``move`` starts or ends within :attr:`king_zone` of the king's square."""
        if king < 0:
            return False
        row, col = divmod(king, size)
        return any(
            abs(square // size - row) <= self.king_zone
            and abs(square % size - col) <= self.king_zone
            for square in (move >> MOVE_SHIFT, move & TARGET_MASK)
        )

    @property
    def core_settings(self) -> tuple[int, int, int, int, int, int, int, int]:
        """The numbers the fast core reads (``Search``'s ``pruning_settings``), in this order."""
        return (
            self.static_margin,
            self.futility_margin,
            self.late_moves,
            self.late_moves_step,
            self.depth,
            self.futility_depth,
            self.unguided_depth,
            self.king_zone,
        )


PRUNING = Pruning()
"""``master``'s pruning (:attr:`Searcher.pruning`)."""


MOVER_LOSES = -2
""":attr:`Searcher.repetition_winner` where the side that moves into a repetition loses
(:attr:`bot.engine.variants.Variant.repetition_mover_loses`)."""
CONTEMPT_MARGIN = 100
"""The advantage (hundredths of an attacker) below which a side is not clearly better."""
CONTEMPT_LIMIT = 800
"""The most a repetition can be worth below the draw value to the side searching."""

_EXACT, _LOWER, _UPPER = 0, 1, 2
Entry = tuple[int, int, int, int]
"""A transposition table entry: depth, bound flag, score, best move."""
_HASH_BONUS = 1 << 30
_CAPTURE_BONUS = 1 << 26
_KILLER_BONUS = 1 << 24
_KING_BONUS = 1 << 22


def _by_previous_scores(moves: list[int], previous: dict[int, int]) -> list[int]:
    """The root moves for the next iteration: by their scores in ``previous`` (the last
    iteration's, in the order it searched them), best first.

    Only the best move's score is exact; the others are bounds, and a move that failed low
    against the best is often given exactly the best's score. Equal scores therefore keep the
    order of the last search, in which the best came before every move that tied it, so the
    best is searched first again: an unfinished iteration may replace it only by a move that
    beat it at the new depth. Moves the last iteration did not search come last, in the
    order given.
    """
    rank = {move: index for index, move in enumerate(previous)}
    unsearched = len(rank)
    return sorted(moves, key=lambda m: (-previous.get(m, -INFINITY), rank.get(m, unsearched)))


def plies_to_result(score: int) -> int | None:
    """Plies to the forced result a mate score stands for (positive: a win for the side the
    score is counted for), or ``None`` for an ordinary score."""
    if score > MATE_BOUND:
        return MATE - score
    if score < -MATE_BOUND:
        return -(MATE + score)
    return None


class SearchTimeout(Exception):
    """Raised inside the search when the time budget or a stop request ends it."""


@dataclass
class SearchResult:
    """What a search found: the best move (an engine int), its score and statistics."""

    move: int | None
    score: int
    depth: int
    nodes: int
    elapsed: float
    pv: list[int] = field(default_factory=list)
    root_scores: dict[int, int] = field(default_factory=dict)
    """Scores of root moves from the last complete iteration (bounds except for the best), in
    the order that iteration searched them."""

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced result (positive: the mover wins), or ``None``."""
        return plies_to_result(self.score)


class _CoreTable(MutableMapping[int, Entry]):
    """The fast search's transposition table, seen as the dict the Python search keeps
    (read and cleared; only the search writes it)."""

    def __init__(self, search: _core.Search) -> None:
        self._search = search

    def __getitem__(self, key: int) -> Entry:
        entry = self._search.tt_get(key)
        if entry is None:
            raise KeyError(key)
        return entry

    def __setitem__(self, key: int, value: Entry) -> None:
        raise TypeError("the fast search's table is written by the search only")

    def __delitem__(self, key: int) -> None:
        raise TypeError("the fast search's table is written by the search only")

    def __iter__(self) -> Iterator[int]:
        return iter(self._search.tt_keys())

    def __len__(self) -> int:
        return self._search.tt_len()

    def clear(self) -> None:
        """Empty the table."""
        self._search.tt_clear()


class Searcher:
    """A reusable search for one variant (keeps its transposition table between searches).

    Where the fast core is built (:mod:`bot.ai.fast`) each iteration runs in C, visiting the
    same nodes as the Python methods below, which stay the reference; ``fast=False`` keeps
    the search in Python, ``fast=True`` insists on the core.
    """

    def __init__(
        self,
        variant: Variant,
        weights: Weights | None = None,
        *,
        noise: int = 0,
        seed: int = 0,
        quiescence: bool = True,
        reads_threats: bool = True,
        reductions: bool = True,
        even_reductions: bool = False,
        pruning: bool = False,
        contempt: int = 0,
        advantage_contempt: float = 0.0,
        tt_limit: int = 500_000,
        fast: bool | None = None,
    ) -> None:
        self.variant = variant
        self.evaluator = Evaluator(variant, weights)
        self.draw_value = self.evaluator.weights.draw
        self.contempt = contempt
        """How much worse than the draw value a repetition is for the side searching: above 0
        it plays on in a balanced position rather than repeat (against a weaker opponent)."""
        self.advantage_contempt = advantage_contempt
        """The share of its advantage by which a repetition is worth less still to the side
        searching: its last search's score for the same side in this game, beyond
        :data:`CONTEMPT_MARGIN` (at most :data:`CONTEMPT_LIMIT` in all). A clearly better side
        does not walk into a draw; against an equal one it stays near ``contempt``."""
        self.last_scores: dict[int, int] = {}
        """The last search's score by the side it searched for, in the game being played."""
        self._history_length = -1
        self._draw_setting: tuple[int, int] | None = None
        self.draw_scores = (self.draw_value, -self.draw_value)
        """A drawn repetition's score for the side to move, by side (set per search)."""
        winner = rules_for(variant).repetition_winner
        self.repetition_winner = (
            -1 if winner is None else (ATTACKERS if winner is Side.ATTACKERS else DEFENDERS)
        )
        if variant.repetition_mover_loses:
            self.repetition_winner = MOVER_LOSES
        """The side (board index) that a repetition makes the winner, by the rules; -1 where
        it is a draw. Any return to a position is scored so, not only the third occurrence that
        ends the game: a cycle one side could enter, the other could repeat until the third
        (so in Copenhagen the defenders never gain by a cycle, and the attackers seek one)."""
        self.root_turn = -1
        self.tactics = KingTactics(variant)
        self.forts = self.tactics.forts
        """Whether the quiescence reads exit forts (the defenders' threats to build one)."""
        self.noise = noise
        # Noise comes from the position's hash and the seed: reproducible, and the same
        # position is always misjudged the same way within one search (as a person would).
        self.noise_key = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & (2**64 - 1)
        self.quiescence = quiescence
        # Without it the king's routes are read only as far as the depth goes: a fork at the
        # horizon is judged by the evaluation, and blocking a route costs a ply like any move.
        self.reads_threats = reads_threats
        self.reductions = reductions
        self.even_reductions = even_reductions
        """Whether late moves are read :data:`LATE_REDUCTION` plies shallower where a ply is left
        (see :func:`late_reduction`): a fixed-depth reading (a review's) then costs a fraction;
        the levels read them shallower the later they come (:data:`LATE_REDUCTIONS`)."""
        """Whether late quiet moves are searched shallower first. Without, the search is full
        width: it finds every forced result within its depth (slower; to prove a position)."""
        self.pruning = PRUNING if pruning else None
        """How shallow nodes off the principal variation are cut short (``master``'s; see
        :class:`Pruning`), or ``None``: every node reads all its moves."""
        self.tt_limit = tt_limit
        self._table: dict[int, Entry] = {}
        area = variant.size * variant.size
        self.history_table = [[0] * (area << MOVE_SHIFT) for _ in range(2)]
        self.killers = [[0, 0] for _ in range(MAX_PLY + 16)]
        self.nodes = 0
        self.deadline = 0.0
        self.stop: Callable[[], bool] | None = None
        self.path: set[int] = set()
        self.seen: frozenset[int] = frozenset()
        self.board: Board = Board(variant)
        self.partial: tuple[int, int] | None = None
        """Best root move and score of the running iteration, once its first move is searched."""
        use_core = fast_core.supports(variant) if fast is None else fast
        self.core: _core.Search | None = None
        """The fast core's search doing the iterations (``None``: the Python methods do)."""
        if use_core:
            self.core = fast_core.new_search(
                self.evaluator,
                noise=noise,
                noise_key=self.noise_key,
                quiescence=quiescence,
                reads_threats=reads_threats,
                reductions=reductions,
                even_reductions=even_reductions,
                late_reductions=LATE_REDUCTIONS,
                repetition_winner=self.repetition_winner,
                pruning=pruning,
                pruning_settings=PRUNING.core_settings,
            )

    @property
    def tt(self) -> MutableMapping[int, Entry]:
        """The transposition table: hash -> (depth, flag, score, best move)."""
        return self._table if self.core is None else _CoreTable(self.core)

    # ------------------------------------------------------------------ entry point

    def search(
        self,
        board: Board,
        *,
        max_depth: int = 64,
        time_limit: float | None = None,
        history: Iterable[int] = (),
        stop: Callable[[], bool] | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
        exclude: Iterable[int] = (),
    ) -> SearchResult:
        """Search ``board`` (left as it was found) and return the best move found.

        ``history`` holds the hashes of the game's earlier positions: reaching one of them
        again counts as a repetition, scored by the variant's rule (a draw, or in Copenhagen a
        win for the attackers). The search stops after ``max_depth`` plies or when
        ``time_limit`` seconds have passed, or when ``stop()`` returns true; it then returns
        the best move of the deepest complete iteration, or a move of the unfinished one that
        proved better. Moves in ``exclude`` are not considered (what is the best of the
        others?); with none left the result has no move.
        """
        started = time.perf_counter()
        self.board = board
        self.nodes = 0
        self.stop = stop
        self.deadline = started + time_limit if time_limit is not None else float("inf")
        self.seen = frozenset(history)
        self.path = set()
        # The draw value is the attackers'; contempt lowers it for the side searching. Scores
        # stored while searching for the other side, or with another contempt, counted
        # repetitions otherwise.
        contempt = self._contempt(board.turn, len(self.seen))
        setting = (board.turn, contempt)
        if contempt and self._draw_setting != setting:
            self.tt.clear()
        self._draw_setting = setting
        self.root_turn = board.turn
        for_attackers = self.draw_value + (-contempt if board.turn == ATTACKERS else contempt)
        self.draw_scores = (for_attackers, -for_attackers)
        if self.core is None:  # the fast core keeps and decays its own
            for table in self.history_table:
                for index, value in enumerate(table):
                    if value:
                        table[index] = value >> 2
        self.killers = [[0, 0] for _ in range(MAX_PLY + 16)]
        if len(self.tt) > self.tt_limit:
            self.tt.clear()
        reused = len(self.tt) > 0

        excluded = frozenset(exclude)
        moves = [move for move in board.moves() if move not in excluded]
        if not moves:
            return SearchResult(None, -MATE, 0, 0, time.perf_counter() - started)
        if self.core is not None:
            self.core.start(
                bytes(board.cells), board.turn, list(self.seen), self.draw_scores, _weak_check(self)
            )
        root_length = len(board.stack)
        result = SearchResult(moves[0], 0, 0, 0, 0.0)
        root_scores: dict[int, int] = {}
        for depth in range(1, max(1, max_depth) + 1):
            try:
                score, move, scores = self._root(depth, moves, root_scores)
            except SearchTimeout:
                while len(board.stack) > root_length:
                    board.unmake()
                # The unfinished iteration searched the previous best move first: a move
                # that beat it at the new depth is better than the last complete answer,
                # unless it loses too (the two then lost only within an unfinished reading).
                if (
                    self.partial is not None
                    and depth > 1
                    and self.partial[0] != result.move
                    and self.partial[1] > -MATE_BOUND
                ):
                    move, score = self.partial
                    result = SearchResult(
                        move,
                        score,
                        result.depth,
                        self.nodes,
                        time.perf_counter() - started,
                        [move],
                        dict(root_scores),
                    )
                break
            root_scores = scores
            result = SearchResult(
                move,
                score,
                depth,
                self.nodes,
                time.perf_counter() - started,
                self._principal_variation(move, depth),
                dict(scores),
            )
            if on_iteration is not None:
                on_iteration(result)
            if abs(score) > MATE_BOUND and MATE - abs(score) <= depth:
                break  # a forced result within the horizon: deeper search changes nothing
            if len(moves) == 1:
                break
            # The next iteration may not finish in time; it is started anyway, because the
            # previous best move is searched first and any move that beats it is kept.
        result.nodes = self.nodes
        result.elapsed = time.perf_counter() - started
        self.last_scores[board.turn] = result.score
        if result.score < -MATE_BOUND and reused and self.deadline - time.perf_counter() > 0.05:
            # A forced loss read partly from earlier searches' table is checked once afresh:
            # entries stored under another game history (other repetitions, other paths)
            # can call a position lost that is not.
            self.tt.clear()
            remaining = self.deadline - time.perf_counter() if time_limit is not None else None
            nodes = result.nodes
            fresh = self.search(
                board,
                max_depth=max_depth,
                time_limit=remaining,
                history=self.seen,
                stop=stop,
                on_iteration=on_iteration,
                exclude=excluded,
            )
            # Only a reading at least as deep may overrule the loss (a shallow one may simply
            # not reach it yet).
            deep_enough = fresh.depth >= result.depth
            if fresh.move is not None and deep_enough and fresh.score > result.score:
                result = fresh
            result.nodes = nodes + fresh.nodes
            result.elapsed = time.perf_counter() - started
        return result

    def _contempt(self, turn: int, history: int) -> int:
        """The contempt of a search for ``turn`` after ``history`` earlier positions: the
        level's, plus the share of the side's advantage (see :attr:`advantage_contempt`)."""
        if history < self._history_length:
            self.last_scores.clear()  # a new game (or one taken back): no advantage known
        self._history_length = history
        last = self.last_scores.get(turn)
        if not self.advantage_contempt or last is None or abs(last) > MATE_BOUND:
            return self.contempt
        extra = int(self.advantage_contempt * (last - CONTEMPT_MARGIN))
        return min(CONTEMPT_LIMIT, self.contempt + max(0, extra))

    def _expired(self) -> bool:
        """Whether the time budget is spent or a stop was asked for (read every 1,024 nodes)."""
        return time.perf_counter() > self.deadline or (self.stop is not None and self.stop())

    def _check(self) -> None:
        if self._expired():
            raise SearchTimeout

    # ------------------------------------------------------------------ root

    def _root(
        self, depth: int, moves: list[int], previous: dict[int, int]
    ) -> tuple[int, int, dict[int, int]]:
        if self.core is not None:
            return self._core_root(self.core, depth, moves, previous)
        self.partial = None
        board = self.board
        tactics = self.tactics
        # The root's moves may leave some out (``exclude``): its shortcuts keep to them.
        if board.turn == DEFENDERS:
            wins = [board.king << MOVE_SHIFT | ray[3][-1] for ray in tactics.open_rays(board)]
        else:
            wins = tactics.capturing_moves(board)
        wins = [move for move in wins if move in moves]
        if wins:
            return MATE - 1, wins[0], {wins[0]: MATE - 1}
        extension = 0
        if board.turn == ATTACKERS:
            rays = tactics.open_rays(board)
            if rays:
                blocks = tactics.blocking_moves(board, rays) if len(rays) == 1 else []
                blocks = [move for move in blocks if move in moves]
                # No block (or two routes): every move loses; keep them all to pick one.
                if blocks:
                    moves = blocks
                    extension = 1
        entry = self._table.get(board.hash)
        hash_move = entry[3] if entry else 0
        if previous:
            ordered = _by_previous_scores(moves, previous)
        else:
            ordered = self._order(moves, hash_move, 0)
        alpha = -INFINITY
        beta = INFINITY
        best_move = ordered[0]
        scores: dict[int, int] = {}
        self.path.add(board.hash)
        try:
            for index, move in enumerate(ordered):
                status = board.make(move)
                if status:
                    score = MATE - 1
                elif index == 0:
                    score = -self._search(depth - 1 + extension, -beta, -alpha, 1)
                else:
                    score = -self._search(depth - 1 + extension, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self._search(depth - 1 + extension, -beta, -alpha, 1)
                board.unmake()
                scores[move] = score
                if score > alpha:
                    alpha = score
                    best_move = move
                    self.partial = (move, score)
        finally:
            self.path.discard(board.hash)
        self._store(board.hash, depth, _EXACT, alpha, best_move, 0)
        return alpha, best_move, scores

    def _core_root(
        self, core: _core.Search, depth: int, moves: list[int], previous: dict[int, int]
    ) -> tuple[int, int, dict[int, int]]:
        """:meth:`_root` on the fast core (the same nodes, moves and scores)."""
        try:
            found = core.root(depth, moves, previous)
        finally:
            self.nodes = core.nodes
            self.partial = core.partial
        if found is None:
            raise SearchTimeout
        return found

    # ------------------------------------------------------------------ main search

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023:
            self._check()
        board = self.board
        key = board.hash
        tactics = self.tactics
        turn = board.turn
        if key in self.path or key in self.seen:
            winner = self.repetition_winner
            if winner == MOVER_LOSES:
                return MATE - ply  # the side that moved into it loses: the side to move wins
            if winner < 0:
                return self.draw_scores[turn]
            return MATE - ply if turn == winner else -(MATE - ply)
        forced = None
        if turn == DEFENDERS:
            if tactics.has_route(board):
                return MATE - ply - 1
        elif not self.reads_threats:
            if depth <= 0:
                return self._evaluate()
        else:
            if tactics.capturing_moves(board):
                return MATE - ply - 1
            rays = tactics.open_rays(board)
            if rays:
                if len(rays) >= 2:
                    return -(MATE - ply - 2)
                forced = rays
        if depth <= 0 and forced is None:
            if not self.reads_threats:
                return self._evaluate()
            return self._quiesce(alpha, beta, ply, 0)
        if ply >= MAX_PLY:
            return self._evaluate()

        entry = self._table.get(key)
        hash_move = 0
        if entry is not None:
            entry_depth, flag, score, hash_move = entry
            if entry_depth >= depth:
                if score > MATE_BOUND:
                    score -= ply
                elif score < -MATE_BOUND:
                    score += ply
                if flag == _EXACT:
                    return score
                if flag == _LOWER:
                    if score >= beta:
                        return score
                elif score <= alpha:
                    return score

        pruning = self.pruning
        size = self.variant.size
        shallow = (
            pruning is not None
            and beta - alpha == 1
            and forced is None
            and alpha > -MATE_BOUND
            and beta < MATE_BOUND
            and depth <= pruning.depth
        )
        stand = 0
        has_stand = False
        if shallow:
            assert pruning is not None
            # Not on a threat the evaluation does not read: for the defenders, the king taken
            # next move or an encirclement (the quiescence refuses to stand pat there); for the
            # attackers, a fork the king makes next move or an exit fort the defenders build.
            if turn == DEFENDERS:
                threatened = bool(tactics.capturing_moves(board)) or self._cornered()
            else:
                threatened = self._fork_stoppers() is not None or self._fort_wins()
            if not threatened:
                stand = self._evaluate()
                has_stand = True
                if stand - pruning.static_margin * depth >= beta:
                    return stand
        if (
            pruning is not None
            and depth >= pruning.unguided_depth
            and not hash_move
            and forced is None
        ):
            depth -= 1  # no move from the table: its order is a guess, read it a ply shallower

        if forced is not None:
            moves = tactics.blocking_moves(board, forced)
            if not moves:
                return -(MATE - ply - 2)
            child_depth = depth  # a forced block does not use up the depth
        else:
            moves = board.moves()
            if not moves:
                return -(MATE - ply)
            child_depth = depth - 1
        ordered = self._order(moves, hash_move, ply)

        original_alpha = alpha
        best = -INFINITY
        best_move = 0
        path = self.path
        path.add(key)
        make = board.make
        unmake = board.unmake
        search = self._search
        killers = self.killers[ply]
        reducible = self.reductions and depth >= 3 and forced is None
        try:
            for index, move in enumerate(ordered):
                status = make(move)
                if shallow and index >= 1 and not status and best > -MATE_BOUND:
                    assert pruning is not None
                    frame = board.stack[-1]
                    if (
                        not frame[2]
                        and frame[1] != KING
                        and move not in killers
                        and (
                            index >= pruning.late_move_limit(depth)
                            or (
                                has_stand
                                and depth <= pruning.futility_depth
                                and stand + pruning.futility_margin * depth <= alpha
                            )
                        )
                        # A move near the king (to or from his zone: forts, encirclements and
                        # captures are built there), one that opens a route for him, or lets him
                        # be taken, is no quiet move.
                        and not pruning.near_king(move, board.king, size)
                        and not (
                            tactics.has_route(board)
                            if turn == DEFENDERS
                            else tactics.capturing_moves(board)
                        )
                    ):
                        unmake()
                        continue
                if status:
                    score = MATE - ply - 1
                elif index == 0:
                    score = -search(child_depth, -beta, -alpha, ply + 1)
                else:
                    reduction = 0
                    # Late quiet moves are searched shallower first; captures and the king's
                    # moves (his plans: a fork, a fort) never are.
                    frame = board.stack[-1]
                    if (
                        reducible
                        and index >= 4
                        and move not in killers
                        and not frame[2]
                        and frame[1] != KING
                    ):
                        reduction = late_reduction(depth, index, self.even_reductions)
                    score = -search(child_depth - reduction, -alpha - 1, -alpha, ply + 1)
                    if score > alpha and (reduction or score < beta):
                        score = -search(child_depth, -beta, -alpha, ply + 1)
                unmake()
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not board.would_capture(move):
                                if killers[0] != move:
                                    killers[1] = killers[0]
                                    killers[0] = move
                                self.history_table[turn][move] += depth * depth
                            break
        finally:
            path.discard(key)

        if best <= original_alpha:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self._store(key, depth, flag, best, best_move, ply)
        return best

    def _store(self, key: int, depth: int, flag: int, score: int, move: int, ply: int) -> None:
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        entry = self._table.get(key)
        if entry is None or entry[0] <= depth:
            self._table[key] = (depth, flag, score, move)

    # ------------------------------------------------------------------ quiescence

    def _quiesce(self, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023:
            self._check()
        board = self.board
        tactics = self.tactics
        if board.turn == DEFENDERS:
            if tactics.has_route(board):
                return MATE - ply - 1
            stand = self._evaluate()
            if not self.quiescence or qdepth >= MAX_QUIESCENCE:
                return MATE - ply - 1 if self._fort_wins() else stand
            if qdepth == 0 and (tactics.capturing_moves(board) or self._cornered()):
                # The king can be taken next move, the defenders encircled, or they have
                # too few moves to be sure of a safe one: standing pat would be a fantasy.
                if self._fort_wins():
                    return MATE - ply - 1
                return self._evasions(alpha, beta, ply, qdepth)
            if stand >= beta:
                # An exit fort would win, which fails high as standing pat does: the costly
                # search for one (at most horizon nodes) is left for the nodes it can change.
                return stand
            if self._fort_wins():
                return MATE - ply - 1
            best = stand
            if stand > alpha:
                alpha = stand
            king = board.king
            if king < 0:
                return best
            evaluator = self.evaluator
            threats = evaluator.threats(board, evaluator.king_targets(board))
            threats.sort(key=lambda item: item[1], reverse=True)
            origin = king << MOVE_SHIFT
            for square, routes in threats:
                if routes < 2 and qdepth >= 2:
                    # Chains of single threats and blocks explode; beyond the first pair
                    # only forks (which one block cannot answer) are worth following.
                    break
                status = board.make(origin | square)
                if status:
                    score = MATE - ply - 1
                else:
                    score = -self._quiesce(-beta, -alpha, ply + 1, qdepth + 1)
                board.unmake()
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
            return best
        if tactics.capturing_moves(board):
            return MATE - ply - 1
        if self.forts and tactics.encircling_moves(board, first=True):
            return MATE - ply - 1
        rays = tactics.open_rays(board)
        if not rays:
            if qdepth < MAX_QUIESCENCE:
                stoppers = self._fork_stoppers()
                if stoppers is not None:
                    return self._stop_fork(stoppers, alpha, beta, ply, qdepth)
                if self.forts:
                    forts = tactics.fort_wins(board)
                    if forts:
                        return self._stop_fort(forts, alpha, beta, ply, qdepth)
            return self._evaluate()
        if len(rays) >= 2:
            return -(MATE - ply - 2)
        blocks = tactics.blocking_moves(board, rays)
        if not blocks:
            return -(MATE - ply - 2)
        if qdepth >= MAX_QUIESCENCE:
            return self._evaluate()
        best = -INFINITY
        for move in blocks:
            board.make(move)
            score = -self._quiesce(-beta, -alpha, ply + 1, qdepth + 1)
            board.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _fort_wins(self) -> bool:
        """Whether the defenders (to move) win now by building an exit fort."""
        return self.forts and bool(self.tactics.fort_wins(self.board, first=True))

    def _cornered(self) -> bool:
        """Whether the defenders (to move) have at most :data:`FEW_MOVES` moves, or the
        attackers threaten to encircle them: every move must then be read."""
        board = self.board
        if board.count_moves() <= FEW_MOVES:
            return True
        return self.forts and bool(self.tactics.encircling_moves(board, first=True))

    def _fork_stoppers(self) -> set[int] | None:
        """Where the attackers (to move) must land to stop the king's forks next move.

        ``None`` when the king has no fork to make. A fork counts only when the king, arrived
        on its square, cannot be captured at once: then one block cannot save the attackers.
        """
        board = self.board
        forks = self.tactics.fork_squares(board)
        if not forks:
            return None
        origin = board.king << MOVE_SHIFT
        stoppers: set[int] | None = None
        for square, squares in forks:
            # The king's move is played out of turn: make() does not look at whose turn it is.
            status = board.make(origin | square)
            safe = not status and not board.king_capturing_moves()
            board.unmake()
            if safe or status:
                if stoppers is None:
                    stoppers = set()
                stoppers.update(squares)
        return stoppers

    def _stop_fork(self, stoppers: set[int], alpha: int, beta: int, ply: int, qdepth: int) -> int:
        """The attackers' moves onto ``stoppers``, each answered by the defenders' quiescence."""
        moves = [move for move in self.board.moves() if move & TARGET_MASK in stoppers]
        if not moves:
            return -(MATE - ply - 4)
        return self._answer_each(moves, alpha, beta, ply, qdepth)

    def _stop_fort(self, forts: list[Fort], alpha: int, beta: int, ply: int, qdepth: int) -> int:
        """The attackers' answers to the defenders' threat of an exit fort: the moves onto
        the squares that stop one (see :meth:`KingTactics.fort_wins`) and the captures, each
        answered by the defenders' quiescence (which sees a fort still to be built)."""
        board = self.board
        stoppers = set().union(*(squares for _, squares in forts))
        moves = [
            move
            for move in board.moves()
            if move & TARGET_MASK in stoppers or board.would_capture(move)
        ]
        if not moves:
            return -(MATE - ply - 2)
        return self._answer_each(moves, alpha, beta, ply, qdepth)

    def _evasions(self, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        """Every defenders' move, each answered by the attackers' quiescence."""
        moves = self.board.moves()
        if not moves:
            return -(MATE - ply)
        return self._answer_each(moves, alpha, beta, ply, qdepth)

    def _answer_each(self, moves: list[int], alpha: int, beta: int, ply: int, qdepth: int) -> int:
        """The best of ``moves`` for the side to move, each answered by the quiescence."""
        board = self.board
        best = -INFINITY
        for move in self._order(moves, 0, ply):
            status = board.make(move)
            won = MATE - ply - 1
            score = won if status else -self._quiesce(-beta, -alpha, ply + 1, qdepth + 1)
            board.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _evaluate(self) -> int:
        board = self.board
        score = self.evaluator.evaluate(board)
        if self.noise:
            mixed = (board.hash ^ self.noise_key) * 0xFF51AFD7ED558CCD & (2**64 - 1)
            score += (mixed >> 33) % (2 * self.noise + 1) - self.noise
        return score

    # ------------------------------------------------------------------ ordering

    def _order(self, moves: list[int], hash_move: int, ply: int) -> list[int]:
        board = self.board
        tables = board.tables
        cells = board.cells
        pairs = tables.capture_pairs
        turn = board.turn
        history = self.history_table[turn]
        killer0, killer1 = self.killers[ply]
        king = board.king
        if turn == ATTACKERS:
            enemy = DEFENDER
            friend = ATTACKER
            other_friend = ATTACKER
            hostile = tables.hostile_to_defenders
            near_king = tables.neighbours[king] if king >= 0 else ()
        else:
            enemy = ATTACKER
            friend = DEFENDER
            other_friend = KING if tables.king_armed else DEFENDER
            hostile = tables.hostile_to_attackers
            near_king = ()
        king_origin = king
        scored = []
        for move in moves:
            target = move & TARGET_MASK
            value = history[move]
            if move == hash_move:
                value += _HASH_BONUS
            elif move in (killer0, killer1):
                value += _KILLER_BONUS
            for victim, anvil in pairs[target]:
                if cells[victim] == enemy:
                    beyond = cells[anvil]
                    if beyond in (friend, other_friend) or hostile[anvil]:
                        value += _CAPTURE_BONUS
                        break
            if target in near_king or move >> MOVE_SHIFT == king_origin:
                value += _KING_BONUS
            scored.append((value, move))
        scored.sort(reverse=True)
        return [move for _, move in scored]

    # ------------------------------------------------------------------ reporting

    def _principal_variation(self, first: int, depth: int) -> list[int]:
        if self.core is not None:
            return self.core.pv(first, depth)
        board = self.board
        pv = [first]
        board.make(first)
        made = 1
        seen = {board.hash}
        while len(pv) < depth and not board.status:
            entry = self._table.get(board.hash)
            if entry is None or not entry[3] or entry[3] not in board.moves():
                break
            board.make(entry[3])
            made += 1
            if board.hash in seen:
                break
            seen.add(board.hash)
            pv.append(entry[3])
        for _ in range(made):
            board.unmake()
        return pv


def search_position(
    board: Board,
    *,
    max_depth: int = 64,
    time_limit: float | None = None,
    history: Iterable[int] = (),
    weights: Weights | None = None,
) -> SearchResult:
    """One-off search with a fresh :class:`Searcher` (convenience for tools and tests)."""
    searcher = Searcher(board.variant, weights)
    return searcher.search(board, max_depth=max_depth, time_limit=time_limit, history=history)


def _weak_check(searcher: Searcher) -> Callable[[], bool]:
    """``searcher._expired`` for the C search to call, through a weak reference: the C search
    object keeps its check, and it does not take part in Python's garbage collection, so a
    bound method would make a cycle (searcher, its C search, the check) never freed, leaking a
    searcher and its tables for every one made (a self-play game makes one a move)."""
    expired = weakref.WeakMethod(searcher._expired)

    def check() -> bool:
        method = expired()
        return method is None or method()

    return check
