"""A puzzle: a position with a single forced win, its proven solution tree, and the checker
that walks a player through it.

:func:`examine` (and :func:`prove`, which keeps only the puzzles) turns a position into a
:class:`Puzzle` when the side to move has exactly one first move that wins by force within
``max_length`` of its moves, proven by :class:`~bot.ai.puzzles.proof.Prover` against every reply.
:meth:`Puzzle.answer` checks a player's move, gives the other side's most resisting reply, and
after a wrong move a hint and, when cheaply found, the reply that refutes it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.engine.board import Board
from bot.engine.errors import TaflError
from bot.engine.game import Game
from bot.engine.tables import MOVE_SHIFT, TARGET_MASK
from bot.engine.types import Move, Piece, Side, Termination, square_name
from bot.engine.variants import Variant, get_variant

from .hints import GoalHint, Hint, PieceHint, Refutation, Task, ThemeHint
from .proof import ProofBoard, ProofBudgetExceeded, Prover

MAX_LENGTH = 3
"""The longest win a puzzle may take (solver's moves)."""

LENGTH_RATINGS = {1: 1100, 2: 1450, 3: 1800}
"""A new puzzle's rating by length, on the players' Glicko-2 scale: a win in one is seen by
most club players, a win in three by few."""
PLAUSIBLE_RATING = 15
"""Rating added per tempting first move that fails (a new threat or a capture), up to
:data:`PLAUSIBLE_CAP` of them: the more there are, the more a solver must read."""
PLAUSIBLE_CAP = 20

CHECK_BUDGET = 50_000
"""Positions the checker may visit to judge a move off the stored tree or explain a wrong
one (about a second at most on 11x11, usually milliseconds); past it the move counts as
not the solution and no refutation is given."""


class PuzzleError(ValueError):
    """A puzzle record or a line of moves that does not fit the puzzle."""


@dataclass(frozen=True)
class Solution:
    """The solver's move at one point of a puzzle and, unless it wins at once, the way on
    after the other side's replies.

    Every legal reply is answered: the replies after which the solver has no win at once are
    listed with their continuation (:attr:`replies`); after any other reply the solver wins
    with its next move (:meth:`Puzzle.answer` accepts every such move, and
    :meth:`Puzzle.continuation` names one). Listing only the replies that resist keeps a
    three-move tree to tens of nodes instead of thousands.
    """

    move: str
    """The solver's move, ``e1-e4``."""
    ending: Termination | None = None
    """How the move ends the game (the solver wins), or ``None`` when the game goes on."""
    resisting: str | None = None
    """The reply to show after :attr:`move` (``None`` when it wins at once): one that puts
    off the win longest (see :meth:`_TreeBuilder.node` for the order among equals)."""
    replies: tuple[tuple[str, Solution], ...] = ()
    """The replies (``e1-e4``, in the engine's move order) that leave the solver no win at
    once, each with the solver's winning answer."""

    @property
    def length(self) -> int:
        """The solver's moves to the win from here against the most resisting replies."""
        if self.ending is not None:
            return 1
        return 1 + max((child.length for _, child in self.replies), default=1)

    def after(self, reply: str) -> Solution | None:
        """The solver's answer to ``reply`` (``e1-e4`` form) when it is listed; ``None`` for
        every other reply, after which the solver wins at once."""
        for text, child in self.replies:
            if text == reply:
                return child
        return None

    def size(self) -> int:
        """How many solver moves the tree lists."""
        return 1 + sum(child.size() for _, child in self.replies)

    def to_json(self) -> list[object]:
        """``[move, ending]``, or ``[move, resisting reply, {reply: node, ...}]``."""
        if self.ending is not None:
            return [self.move, self.ending.value]
        return [
            self.move,
            self.resisting,
            {reply: child.to_json() for reply, child in self.replies},
        ]

    @classmethod
    def from_json(cls, data: object) -> Solution:
        """Read what :meth:`to_json` wrote."""
        if not (isinstance(data, list) and data and all(isinstance(x, str) for x in data[:2])):
            raise PuzzleError(f"a solution node is [move, ...], not {data!r:.80}")
        if len(data) == 2:
            try:
                return cls(data[0], Termination(data[1]))
            except ValueError:
                raise PuzzleError(f"{data[1]!r} is not an ending") from None
        if len(data) != 3 or not isinstance(data[2], dict):
            raise PuzzleError(f"a node is [move, reply, {{replies}}], not {data!r:.80}")
        move, resisting, listed = data
        replies = tuple((reply, cls.from_json(child)) for reply, child in listed.items())
        return cls(move, None, resisting, replies)


@dataclass(frozen=True)
class Verdict:
    """The checker's answer to one move of the solver."""

    correct: bool
    move: str
    """The move as the engine reads it (``e1-e4``), whatever notation was typed."""
    solved: bool = False
    """The move won: the puzzle is complete."""
    reply: str | None = None
    """After a correct move that does not win yet: the other side's reply to show."""
    hint: Hint | None = None
    """After a wrong move: a hint that points the way without giving the move."""
    refutation: Refutation | None = None
    """After a wrong move, when found cheaply: why it fails, told by the reply that holds
    (``f7-e7`` closes the road to e9)."""
    ending: Termination | None = None
    """How the game ended when solved."""
    captures: tuple[str, ...] = ()
    """The squares a correct move captured on (``("h4",)``), to be said: the pieces are gone
    from the next board."""


@dataclass(frozen=True)
class Rejection:
    """Why a position is not a puzzle (:data:`REASONS` lists the reasons)."""

    reason: str
    detail: str = ""


REASONS = (
    "game over",
    "no forced win",
    "several winning moves",
    "escape in one",
    "too costly",
)
"""Every :attr:`Rejection.reason`: the game has ended; no first move wins within the length;
more than one does; the only win is the king taking an open route (the board already draws
it); the proof needed more positions than its budget."""


@dataclass(frozen=True)
class Puzzle:
    """A position where the side to move has exactly one winning first move, and its proof.

    ``to_json()``/``from_json()`` round-trip it; see ``assets/puzzles/README.md`` for the
    record's shape.
    """

    id: str
    """Stable: the variant and a hash of the position and the side to move."""
    variant: str
    position: str
    """The start as an OTN position record (``Game(variant, position, to_move)``)."""
    to_move: Side
    goal: Termination
    """How the game ends along the main line (the most resisting replies)."""
    length: int
    """The solver's moves to the win against the most resisting replies (1 to 3)."""
    solution: Solution
    rating: int
    """The initial difficulty on the players' Glicko-2 scale."""
    source: str
    """Where the position comes from, e.g. ``self-play tablut seed 7 game 12 ply 40``."""

    # ------------------------------------------------------------------ records

    def to_json(self) -> dict[str, object]:
        """The puzzle as a JSON object (``json.dumps`` it to store it)."""
        return {
            "id": self.id,
            "variant": self.variant,
            "position": self.position,
            "to_move": self.to_move.value,
            "goal": self.goal.value,
            "length": self.length,
            "rating": self.rating,
            "source": self.source,
            "solution": self.solution.to_json(),
        }

    def to_text(self) -> str:
        """The puzzle as compact JSON text, one line (how files and databases keep it)."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, object] | str) -> Puzzle:
        """Read a puzzle written by :meth:`to_json` (the object or its JSON text)."""
        try:
            record: object = json.loads(data) if isinstance(data, str) else data
            if not isinstance(record, Mapping):
                raise TypeError("a puzzle record is a JSON object")
            return cls(
                id=str(record["id"]),
                variant=get_variant(str(record["variant"])).name,
                position=str(record["position"]),
                to_move=Side(record["to_move"]),
                goal=Termination(record["goal"]),
                length=int(record["length"]),
                rating=int(record["rating"]),
                source=str(record["source"]),
                solution=Solution.from_json(record["solution"]),
            )
        except (KeyError, ValueError, TypeError, TaflError) as error:
            raise PuzzleError(f"not a puzzle record ({error}): {data!s:.120}") from None

    # ------------------------------------------------------------------ for the player

    @property
    def task(self) -> Task:
        """The task: the side to move plays and wins in :attr:`length` moves."""
        return Task(self.to_move, self.length)

    def game(self) -> Game:
        """A new game at the puzzle's position."""
        return Game(self.variant, self.position, self.to_move)

    def main_line(self) -> list[str]:
        """The solution against the most resisting replies: solver, reply, solver, ..."""
        moves, _ = _main_line(self.game(), self.solution)
        return moves

    def continuation(self, line_so_far: Sequence[str] = ()) -> str:
        """The solver's winning move after ``line_so_far`` (the stored one, or after a reply
        the tree does not list, the first move in the engine's order that wins at once)."""
        _, node, _ = self._walk(line_so_far)
        return node.move

    def hints(self, line_so_far: Sequence[str] = ()) -> list[Hint]:
        """Hints for the solver's next move after ``line_so_far``, vaguest first: how the game
        is won and how soon, what kind of move starts it, which piece moves."""
        game, node, _ = self._walk(line_so_far)
        return self._hints(game, node)

    def answer(self, line_so_far: Sequence[str], move: str, *, attempt: int = 1) -> Verdict:
        """Judge the solver's ``move`` after ``line_so_far`` (the moves played in the puzzle so
        far: solver, reply, solver, ... as this checker gave them).

        ``move`` is read as ``/tafl move`` reads it (``e1-e4``, ``e1e4``, a bare ``e4``...); an
        illegal or unreadable move raises the engine's :class:`~bot.engine.TaflError` with its
        sentence. A correct move brings the reply that resists longest, or ``solved``. Besides
        the stored solution, a move that wins at once is correct, and so, after the first
        move, is any move that still wins by force in the moves left. A wrong move brings the
        hint numbered ``attempt`` (1: vaguest; see :meth:`hints`) and, when found within a
        small budget, the reply that refutes it.
        """
        game, node, remaining = self._walk(line_so_far)
        parsed = game.parse_move(move)
        text = parsed.text(game.size)
        taken = tuple(square_name(square, game.size) for square in game.captures_of(parsed))
        if text == node.move:
            return replace(self._correct(text, node), captures=taken)
        board = _copy(game.board)
        played = game.play(parsed)
        if played.outcome is not None and played.outcome.winner is self.to_move:
            return Verdict(
                True, text, solved=True, ending=played.outcome.termination, captures=taken
            )
        if line_so_far and remaining > 1:
            alternative = self._solve_move(board, _engine_move(parsed), remaining)
            if alternative is not None:
                return replace(self._correct(text, alternative), captures=taken)
        hint_list = self._hints(self._replay(line_so_far), node)
        hint = hint_list[max(0, min(attempt, len(hint_list)) - 1)]
        return Verdict(False, text, hint=hint, refutation=self._refutation(game, remaining))

    # ------------------------------------------------------------------ internals

    def _replay(self, line: Sequence[str]) -> Game:
        game = self.game()
        for text in line:
            game.play(text)
        return game

    def _walk(self, line: Sequence[str]) -> tuple[Game, Solution, int]:
        """The game after ``line``, the solution node for the solver's next move (built on the
        spot if the line left the stored tree) and the solver's moves left."""
        if len(line) % 2:
            raise PuzzleError(f"after {len(line)} moves it is the {self.to_move.other.value}' turn")
        game = self.game()
        node: Solution | None = self.solution
        for index, text in enumerate(line):
            if game.is_over:
                raise PuzzleError(f"the puzzle is already over before {text}")
            played = game.play(text)
            canonical = played.move.text(game.size)
            if node is None:
                continue
            if index % 2 == 0:
                if canonical != node.move:
                    node = None
            else:
                node = node.after(canonical)
        if game.is_over:
            raise PuzzleError("the puzzle is already over after those moves")
        remaining = self.length - len(line) // 2
        if node is None:
            node = self._solve_here(game, remaining)
        return game, node, remaining

    def _correct(self, text: str, node: Solution) -> Verdict:
        if node.ending is not None:
            return Verdict(True, text, solved=True, ending=node.ending)
        return Verdict(True, text, reply=node.resisting)

    def _prover(self) -> Prover:
        prover = Prover(get_variant(self.variant))
        prover.allow(CHECK_BUDGET)
        return prover

    def _solve_here(self, game: Game, remaining: int) -> Solution:
        """The solution from a position off the stored tree (after an accepted alternative)."""
        prover = self._prover()
        board = prover.board_for(game.board)
        builder = _TreeBuilder(prover)
        try:
            found = builder.best_move(board, remaining) if remaining >= 1 else None
        except ProofBudgetExceeded:
            found = None
        if found is None:
            raise PuzzleError("the moves so far have left the puzzle's forced win")
        return builder.node(board, found[0], found[1])

    def _solve_move(self, before: Board, move: int, remaining: int) -> Solution | None:
        """``move``'s own solution if it wins by force within ``remaining`` moves."""
        prover = self._prover()
        board = prover.board_for(before)
        try:
            board.make(move)
            try:
                after = prover.wins_after(board, remaining - 1)
            finally:
                board.unmake()
            if after < 1:
                return None
            return _TreeBuilder(prover).node(board, move, after + 1)
        except ProofBudgetExceeded:
            return None

    def _hints(self, game: Game, node: Solution) -> list[Hint]:
        variant = game.variant
        _, goal = _main_line(game.copy(), node)
        first = GoalHint(goal, self.to_move, node.length, variant.escape)
        move = Move.parse(node.move, game.size)
        board = _copy(game.board)
        piece = Piece(board.cells[move.origin])
        board.make(_engine_move(move))
        captures = bool(board.last_captures)
        # Threats counted by the square they aim at: two attackers able to take the king on
        # the same square are one threat to a player, two open routes are two.
        aims = {threat & TARGET_MASK for threat, _ in Prover(variant).threats(board)}
        threats = len(aims) if node.ending is None else 0
        second: Hint = ThemeHint(threats, captures, piece is Piece.KING, self.to_move)
        third = PieceHint(piece, square_name(move.origin, game.size))
        if node.ending is not None and node.length == 1:
            second = third  # a win at once has no "kind of move" worth telling apart
        return [first, second, third] if second != third else [first, third]

    def _refutation(self, game: Game, remaining: int) -> Refutation | None:
        """Why the move just played in ``game`` fails: the reply that holds."""
        prover = self._prover()
        board = prover.board_for(game.board)
        try:
            threats = prover.threats(board)
            reply = prover.refutation(board, remaining - 1)
        except ProofBudgetExceeded:
            return None
        if reply is None:
            return None
        size = game.size
        critical = _threat_squares(threats, size)
        target = reply & TARGET_MASK
        played = game.play(_text(reply, size))
        blocks = None
        if target in critical:
            blocks = square_name(critical[target], size)
        if remaining == 1 and played.outcome is None:
            if blocks is None:
                return None  # the move simply did not win: no reply needs naming
            try:
                still = prover.winning_moves_now(prover.board_for(game.board))
            except ProofBudgetExceeded:
                return None
            if still:
                # The reply takes one square the move needed, but another way still wins:
                # it does not explain the failure, which is only that the move did not win.
                return None
        captured = square_name(played.captures[0], size) if played.captures else None
        return Refutation(
            played.move.text(size),
            side=self.to_move,
            reply_ending=played.outcome.termination if played.outcome else None,
            king_reply=board.cells[reply >> MOVE_SHIFT] == Piece.KING,
            blocks=blocks,
            captured=captured,
            threatened=bool(threats),
        )


class _TreeBuilder:
    """Builds solution trees with a prover: the solver's shortest win at every node (the
    first in move order among equals) and every legal reply."""

    def __init__(self, prover: Prover) -> None:
        self.prover = prover

    def best_move(self, board: ProofBoard, max_length: int) -> tuple[int, int] | None:
        """The solver's (move, length) of its shortest forced win within ``max_length``."""
        wins = self.prover.winning_moves_now(board)
        if wins:
            return wins[0][0], 1
        best: tuple[int, int] | None = None
        for move in sorted(board.moves()):
            board.make(move)
            try:
                after = self.prover.wins_after(board, max_length - 1)
            finally:
                board.unmake()
            if after >= 1 and (best is None or after + 1 < best[1]):
                best = (move, after + 1)
                if after == 1:
                    break  # nothing beats a win in two once there is no win in one
        return best

    def node(self, board: ProofBoard, move: int, length: int) -> Solution:
        """The tree of ``move``, known to win within ``length`` moves (the board is kept)."""
        size = board.tables.size
        text = _text(move, size)
        status = board.make(move)
        try:
            if status is not None:
                return Solution(text, status)
            if not board.has_moves():
                return Solution(text, Termination.NO_LEGAL_MOVE)
            listed: dict[int, Solution] = {}
            for reply in sorted(board.moves()):
                board.make(reply)
                try:
                    if self.prover.winning_moves_now(board):
                        continue  # answered by a win at once: not listed
                    found = self.best_move(board, length - 1)
                    if found is None:  # cannot happen for a proven move
                        raise AssertionError(f"{text}: no win after {_text(reply, size)}")
                    listed[reply] = self.node(board, *found)
                finally:
                    board.unmake()
            # The reply to show: the longest resistance; among equals the one that leaves the
            # solver the most replies to answer later, then the prover's order of natural
            # defences (blocks, the king stepping away) before other moves.
            order = self.prover.replies_in_order(board)
            resisting = max(
                order,
                key=lambda r: (
                    listed[r].length if r in listed else 1,
                    listed[r].size() if r in listed else 0,
                    -order.index(r),
                ),
            )
            replies = tuple((_text(r, size), child) for r, child in listed.items())
            return Solution(text, None, _text(resisting, size), replies)
        finally:
            board.unmake()


def examine(
    variant: str | Variant,
    position: str,
    to_move: Side,
    max_length: int = MAX_LENGTH,
    *,
    source: str = "",
    allow_escape_in_one: bool = False,
    prover: Prover | None = None,
    budget: int | None = None,
) -> Puzzle | Rejection:
    """The puzzle at ``position`` with ``to_move`` to play, or why there is none.

    A position qualifies when exactly one first move of the side to move wins by force within
    ``max_length`` of its moves, every reply considered. A win in one by the king's taking an
    open route is refused unless ``allow_escape_in_one``: the board already draws the route.
    ``budget`` caps the positions the proof may visit (``None``: no cap); a ``prover`` of the
    same variant may be passed in to reuse what it proved before. Invalid positions raise
    the engine's :class:`~bot.engine.PositionError`.
    """
    rules = get_variant(variant) if isinstance(variant, str) else variant
    game = Game(rules, position, to_move)
    if game.is_over:
        return Rejection("game over", str(game.outcome))
    prover = prover if prover is not None else Prover(rules)
    prover.allow(budget)
    board = prover.board_for(game.board)
    try:
        return _examine(game, board, max_length, prover, source, allow_escape_in_one)
    except ProofBudgetExceeded as error:
        return Rejection("too costly", str(error))
    finally:
        prover.allow(None)


def prove(
    variant: str | Variant,
    position: str,
    to_move: Side,
    max_length: int = MAX_LENGTH,
    *,
    source: str = "",
    allow_escape_in_one: bool = False,
) -> Puzzle | None:
    """The puzzle at ``position``, or ``None`` if it does not qualify (see :func:`examine`)."""
    found = examine(
        variant,
        position,
        to_move,
        max_length,
        source=source,
        allow_escape_in_one=allow_escape_in_one,
    )
    return found if isinstance(found, Puzzle) else None


def _examine(
    game: Game,
    board: ProofBoard,
    max_length: int,
    prover: Prover,
    source: str,
    allow_escape_in_one: bool,
) -> Puzzle | Rejection:
    size = game.size
    now = prover.winning_moves_now(board)
    if len(now) > 1:
        texts = ", ".join(_text(move, size) for move, _ in now)
        return Rejection("several winning moves", f"{texts} win at once")
    winners = {move: 1 for move, _ in now}
    plausible = 0
    standing = {move for move, _ in now}
    for move in sorted(board.moves()):
        if move in winners:
            continue
        board.make(move)
        try:
            after = prover.wins_after(board, max_length - 1)
            if after < 1 and (
                board.last_captures
                or any(threat not in standing for threat, _ in prover.threats(board))
            ):
                plausible += 1  # it captures or makes a new threat, and fails
        finally:
            board.unmake()
        if after >= 1:
            winners[move] = after + 1
            if len(winners) > 1:
                texts = ", ".join(f"{_text(m, size)} (in {n})" for m, n in winners.items())
                return Rejection("several winning moves", texts)
    if not winners:
        return Rejection("no forced win", f"within {max_length}")
    ((move, length),) = winners.items()
    tree = _TreeBuilder(prover).node(board, move, length)
    _, goal = _main_line(game.copy(), tree)
    if length == 1 and goal is Termination.KING_ESCAPED and not allow_escape_in_one:
        return Rejection("escape in one", tree.move)
    rating = LENGTH_RATINGS.get(tree.length, LENGTH_RATINGS[MAX_LENGTH])
    rating += PLAUSIBLE_RATING * min(plausible, PLAUSIBLE_CAP)
    return Puzzle(
        id=puzzle_id(game.variant.name, game.start_position, game.turn),
        variant=game.variant.name,
        position=game.start_position,
        to_move=game.turn,
        goal=goal,
        length=tree.length,
        solution=tree,
        rating=rating,
        source=source,
    )


def puzzle_id(variant: str, position: str, to_move: Side) -> str:
    """``tablut-3f2a9c1d``: the variant and a short hash of the position and the side."""
    digest = hashlib.sha256(f"{variant}|{position}|{to_move.value}".encode()).hexdigest()
    return f"{variant}-{digest[:8]}"


def _main_line(game: Game, node: Solution) -> tuple[list[str], Termination]:
    """The moves from ``game`` (left at the end) along the most resisting replies, and how
    the game ends."""
    moves = []
    while True:
        moves.append(node.move)
        game.play(node.move)
        if node.ending is not None:
            return moves, node.ending
        assert node.resisting is not None
        moves.append(node.resisting)
        game.play(node.resisting)
        child = node.after(node.resisting)
        if child is None:
            wins = Prover(game.variant).winning_moves_now(game.board)
            child = Solution(_text(wins[0][0], game.size), wins[0][1])
        node = child


def _threat_squares(threats: list[tuple[int, Termination]], size: int) -> dict[int, int]:
    """Every square a threat needs, mapped to the square the threat aims at (the escape
    square, or where the capturing attacker lands)."""
    squares: dict[int, int] = {}
    for move, _ in threats:
        origin = move >> MOVE_SHIFT
        target = move & TARGET_MASK
        step = _step(origin, target, size)
        sq = origin
        while sq != target:
            sq += step
            squares.setdefault(sq, target)
    return squares


def _step(origin: int, target: int, size: int) -> int:
    if origin // size == target // size:
        return 1 if target > origin else -1
    return size if target > origin else -size


def _copy(board: Board) -> Board:
    return Board(board.variant, list(board.cells), board.turn)


def _engine_move(move: Move) -> int:
    return move.origin << MOVE_SHIFT | move.target


def _text(move: int, size: int) -> str:
    return Move(move >> MOVE_SHIFT, move & TARGET_MASK).text(size)
