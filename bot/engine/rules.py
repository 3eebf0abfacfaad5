"""Each rule family's own rules, in one place: how the king is captured, what else a move
captures, and how a move can end the game.

A :class:`~bot.engine.variants.Variant` describes a ruleset as data (board, start, special
squares) and names its family's :class:`Rules` subclass, which is its behaviour, on the model of
python-chess's variant classes. The fast :class:`~bot.engine.board.Board` asks these methods
after every move, and everything above it (the referee :class:`~bot.engine.game.Game`, the AI's
tactics, the bot's words) asks the board, so each rule has exactly one definition.

Every method judges the board *after* the move was made and its ordinary captures removed;
``target`` is where the moving piece now stands. A method that ends the game returns the
:class:`~bot.engine.types.Termination`; the side that just moved is the winner of every ending a
move makes.

The rules sit below the board and the variants: they know a board as a :class:`Position` and a
variant as a :class:`Ruleset`, what they read of each.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from .tables import ATTACKER, DEFENDER, EMPTY, KING, Layout, Tables, tables_for
from .types import Side, Termination


class Position(Protocol):
    """What the rules read of a board (the fast :class:`~bot.engine.board.Board`), and the
    moves they try on it."""

    cells: list[int]
    king: int
    """The king's square (-1 once he is off the board)."""

    def king_moves(self) -> list[int]: ...
    def king_routes(self) -> list[int]: ...
    def attackers_reaching(self, target: int) -> list[int]: ...
    def make(self, move: int) -> Termination | None: ...
    def unmake(self) -> None: ...


class Ruleset(Layout, Protocol):
    """A ruleset as the rules know it: its layout, and the family of rules it names."""

    @property
    def rules(self) -> type[Rules]: ...


KING_TAKEN = frozenset({Termination.KING_CAPTURED, Termination.GROUP_CAPTURED})
"""The endings in which the king was captured."""


class Rules:
    """What every variant shares: the king escapes by arriving on an escape square, and a
    position seen for the third time is a draw. Subclasses say how the king is captured."""

    repetition = Termination.REPETITION
    """How the game ends when a position occurs for the third time."""
    repetition_winner: Side | None = None
    """Who wins by it (``None``: a draw)."""
    extra_captures = False
    """Whether :meth:`more_captures` can capture anything (the board skips it otherwise)."""
    king_strength = "s"
    """The king's strength as OpenTafl's rules records write it (``ks:``): ``c`` captured by
    two away from the throne, ``s`` only when surrounded."""
    surrounded_side_loses = False
    """A side shut in entirely loses (OpenTafl's ``surf:``: the king's group captured, or
    Copenhagen's encirclement)."""
    forts_and_walls = False
    """Shieldwalls, exit forts and encirclement: Copenhagen's rules beyond the king."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    # ------------------------------------------------------------------ king capture

    def king_captured(self, board: Position, target: int) -> Termination | None:
        """Whether the attacker that just arrived on ``target`` captured the king."""
        if target in self.tables.neighbours[board.king] and self.ring_closed(board, target):
            return Termination.KING_CAPTURED
        return None

    def king_capturing_moves(self, board: Position) -> list[int]:
        """The attackers' moves that would capture the king (who stands on the board).

        Whether an arrival captures depends only on the square, so the empty squares next to
        the king are tested first with :meth:`ring_closed`, then who can reach them. Exact
        without playing the moves: the captures they make only remove defenders, which never
        help close the ring.
        """
        cells = board.cells
        result: list[int] = []
        for target in self.tables.neighbours[board.king]:
            if cells[target] == EMPTY and self.ring_closed(board, target):
                result += board.attackers_reaching(target)
        return result

    def ring_closed(self, board: Position, target: int) -> bool:
        """The family's king capture: whether the king, with an attacker on ``target`` (a
        square next to him, empty or already holding that attacker), is captured."""
        raise NotImplementedError

    # ------------------------------------------------------------------ more captures

    def more_captures(self, board: Position, piece: int, target: int) -> list[int]:
        """Captures beyond the custodial ones (judged after those were removed)."""
        return []

    def may_capture_more(self, target: int) -> bool:
        """Whether a piece arriving on ``target`` could make :meth:`more_captures`."""
        return False

    def exit_fort(self, board: Position) -> frozenset[int]:
        """The squares of an exit fort that wins for the defenders (none in most rules)."""
        return frozenset()

    # ------------------------------------------------------------------ endings

    def after_attackers_move(self, board: Position, target: int) -> Termination | None:
        """How an attackers' move ends the game, if it does."""
        if board.king >= 0:
            return self.king_captured(board, target)
        return None

    def after_defenders_move(self, board: Position, piece: int, target: int) -> Termination | None:
        """How a defenders' move ends the game, if it does: the king's escape, for every
        variant, or the family's own way (:meth:`defenders_win`)."""
        if piece == KING and self.tables.is_escape[target]:
            return Termination.KING_ESCAPED
        return self.defenders_win(board)

    def defenders_win(self, board: Position) -> Termination | None:
        """A defenders' win other than an escape, judged after their move: Tuichi where the
        variant says it wins."""
        if self.tables.tuichi_wins and len(board.king_routes()) >= 2:
            return Termination.TUICHI
        return None


class CentreStrongRules(Rules):
    """Four attackers on the throne, three and the throne beside it, two anywhere else
    (``tablut``, ``tablut-ashton``, ``fidchell``)."""

    king_strength = "c"

    def ring_closed(self, board: Position, target: int) -> bool:
        tables = self.tables
        cells = board.cells
        king = board.king
        throne = tables.throne
        if king == throne or king in tables.throne_neighbours:
            return all(
                sq in (target, throne) or cells[sq] == ATTACKER for sq in tables.neighbours[king]
            )
        for victim, anvil in tables.capture_pairs[target]:
            if victim == king:
                return cells[anvil] == ATTACKER or bool(tables.hostile_to_defenders[anvil])
        return False


class SurroundedRules(Rules):
    """Every neighbour of the king is an attacker, the board edge, the empty throne or a
    corner (``tablut-corner``)."""

    def ring_closed(self, board: Position, target: int) -> bool:
        cells = board.cells
        closes = self.tables.closes_ring
        return all(
            sq == target or cells[sq] == ATTACKER or (closes[sq] and cells[sq] == EMPTY)
            for sq in self.tables.neighbours[board.king]
        )


class GroupRules(SurroundedRules):
    """As :class:`SurroundedRules`, and the king falls with his whole group when the king and
    every defender connected to him have no free neighbour (``tablut-unarmed``,
    ``brandubh``). The moving attacker must touch the group."""

    surrounded_side_loses = True

    def king_captured(self, board: Position, target: int) -> Termination | None:
        tables = self.tables
        cells = board.cells
        king = board.king
        closes = tables.closes_ring
        for sq in tables.neighbours[king]:
            if cells[sq] == EMPTY and not closes[sq]:
                return None
        group = {king}
        frontier = [king]
        touches_mover = False
        all_neighbours = tables.neighbours
        while frontier:
            sq = frontier.pop()
            for nb in all_neighbours[sq]:
                piece = cells[nb]
                if piece == DEFENDER:
                    if nb not in group:
                        group.add(nb)
                        frontier.append(nb)
                elif piece == EMPTY:
                    if not closes[nb]:
                        return None
                elif nb == target:
                    touches_mover = True
        if not touches_mover:
            return None
        return Termination.GROUP_CAPTURED if len(group) > 1 else Termination.KING_CAPTURED

    def king_capturing_moves(self, board: Position) -> list[int]:
        """Only a move onto the group's last free square can capture it; each candidate is
        confirmed by playing it (an attacker leaving a square next to the group, or capturing
        one of its defenders, opens the ring again)."""
        liberty = self._last_liberty(board)
        if liberty < 0:
            return []
        result = []
        for move in board.attackers_reaching(liberty):
            status = board.make(move)
            board.unmake()
            if status is not None and status in KING_TAKEN:
                result.append(move)
        return result

    def _last_liberty(self, board: Position) -> int:
        """The only free square next to the king's group, or -1 if it has none or several.

        Free means empty and not a square that closes the ring (the empty throne, a corner).
        """
        cells = board.cells
        closes = self.tables.closes_ring
        neighbours = self.tables.neighbours
        group = {board.king}
        frontier = [board.king]
        free = -1
        while frontier:
            sq = frontier.pop()
            for nb in neighbours[sq]:
                piece = cells[nb]
                if piece == DEFENDER:
                    if nb not in group:
                        group.add(nb)
                        frontier.append(nb)
                elif piece == EMPTY and not closes[nb] and nb != free:
                    if free >= 0:
                        return -1
                    free = nb
        return free


class CopenhagenRules(Rules):
    """Copenhagen Hnefatafl: the king is captured on four sides (three beside the throne) and
    never on the edge; shieldwalls; the defenders also win by an exit fort, the attackers by
    encirclement; perpetual repetition loses for the defenders."""

    repetition = Termination.PERPETUAL_REPETITION
    repetition_winner: Side | None = Side.ATTACKERS
    extra_captures = True
    surrounded_side_loses = True
    forts_and_walls = True

    def __init__(self, tables: Tables) -> None:
        super().__init__(tables)
        n = tables.size
        last = n - 1
        self._edge = bytes(
            1 if sq // n in (0, last) or sq % n in (0, last) else 0 for sq in range(n * n)
        )
        # Each edge as (its squares in order, the step inwards).
        self._edges: tuple[tuple[tuple[int, ...], int], ...] = (
            (tuple(range(n)), n),  # rank 1
            (tuple(last * n + f for f in range(n)), -n),  # the last rank
            (tuple(r * n for r in range(n)), 1),  # file a
            (tuple(r * n + last for r in range(n)), -1),  # the last file
        )
        self._edge_index: list[list[tuple[int, int]]] = [[] for _ in range(n * n)]
        for e, (squares, _) in enumerate(self._edges):
            for i, sq in enumerate(squares):
                self._edge_index[sq].append((e, i))

    # ------------------------------------------------------------------ king capture

    def ring_closed(self, board: Position, target: int) -> bool:
        cells = board.cells
        throne = self.tables.throne
        neighbours = self.tables.neighbours[board.king]
        return len(neighbours) == 4 and all(  # never on the edge
            sq == target or cells[sq] == ATTACKER or (sq == throne and cells[sq] == EMPTY)
            for sq in neighbours
        )

    # ------------------------------------------------------------------ shieldwall

    def may_capture_more(self, target: int) -> bool:
        return bool(self._edge_index[target])

    def more_captures(self, board: Position, piece: int, target: int) -> list[int]:
        """Shieldwall: a row of two or more enemy pieces along an edge, bracketed at both ends
        along the edge (by the mover's pieces or an empty corner) with a mover's piece in front
        of every member. A king in an attacked row counts towards the two but stays; a king
        may bracket or stand in front for the defenders.

        The moving piece must be one of the brackets. docs/RULES.md also allows a front piece to
        complete the wall, but in the 1,752 recorded games none of the 24 walls completed
        from the front captured, and all 59 recorded wall captures were made by a bracket.
        """
        captured: list[int] = []
        for e, i in self._edge_index[target]:
            for step in (-1, 1):
                captured += self._wall(board, piece, e, i + step, step)
        return captured

    def _is_enemy(self, piece: int, other: int) -> bool:
        if piece == ATTACKER:
            return other in (DEFENDER, KING)
        return other == ATTACKER

    def _is_friend(self, piece: int, other: int) -> bool:
        if piece == ATTACKER:
            return other == ATTACKER
        return other in (DEFENDER, KING)

    def _bracket(self, piece: int, cells: list[int], squares: tuple[int, ...], i: int) -> bool:
        if i < 0 or i >= len(squares):
            return False
        sq = squares[i]
        if sq in self.tables.corners:
            return cells[sq] == EMPTY
        return self._is_friend(piece, cells[sq])

    def _row_captures(
        self, board: Position, piece: int, e: int, first: int, last: int
    ) -> list[int]:
        """The members of the row ``first..last`` of edge ``e`` (enemy pieces, bracketed) that
        fall, if every member has a mover's piece in front; the king never falls this way."""
        squares, inward = self._edges[e]
        cells = board.cells
        if last - first < 1:
            return []
        for i in range(first, last + 1):
            if not self._is_friend(piece, cells[squares[i] + inward]):
                return []
        return [squares[i] for i in range(first, last + 1) if cells[squares[i]] != KING]

    def _wall(self, board: Position, piece: int, e: int, start: int, step: int) -> list[int]:
        """The mover stands on edge ``e`` as a bracket; the row runs from ``start`` on."""
        squares, _ = self._edges[e]
        cells = board.cells
        i = start
        while 0 <= i < len(squares) and self._is_enemy(piece, cells[squares[i]]):
            i += step
        if i == start or not self._bracket(piece, cells, squares, i):
            return []
        first, last = sorted((start, i - step))
        return self._row_captures(board, piece, e, first, last)

    # ------------------------------------------------------------------ endings

    def after_attackers_move(self, board: Position, target: int) -> Termination | None:
        if board.king < 0:
            return None
        captured = self.king_captured(board, target)
        if captured is not None:
            return captured
        return Termination.ENCIRCLEMENT if self._encircled(board) else None

    def defenders_win(self, board: Position) -> Termination | None:
        if board.king >= 0 and self._edge[board.king] and self.exit_fort(board):
            return Termination.EXIT_FORT
        return None

    def _encircled(self, board: Position) -> bool:
        """The squares reachable from the king through empty squares and defenders reach no
        edge square and hold every defender."""
        cells = board.cells
        edge = self._edge
        neighbours = self.tables.neighbours
        king = board.king
        seen = {king}
        frontier = [king]
        defenders = 0
        while frontier:
            sq = frontier.pop()
            if edge[sq]:
                return False
            for nb in neighbours[sq]:
                if nb not in seen and cells[nb] != ATTACKER:
                    seen.add(nb)
                    frontier.append(nb)
                    if cells[nb] == DEFENDER:
                        defenders += 1
        return defenders == cells.count(DEFENDER)

    def exit_fort(self, board: Position) -> frozenset[int]:
        """docs/RULES.md's exit fort: the king on the edge can move, no attacker touches the fort
        (the king's square and the empty squares reachable from it), and the defenders next
        to the fort all belong to the wall that cannot be broken. Returns the fort's squares
        when it holds (empty otherwise)."""
        if not self._edge[board.king] or not board.king_moves():
            return frozenset()
        cells = board.cells
        neighbours = self.tables.neighbours
        king = board.king
        fort = {king}
        frontier = [king]
        walls: set[int] = set()
        while frontier:
            sq = frontier.pop()
            for nb in neighbours[sq]:
                here = cells[nb]
                if here == ATTACKER:
                    return frozenset()
                if here == EMPTY and nb not in fort:
                    fort.add(nb)
                    frontier.append(nb)
                elif here == DEFENDER:
                    walls.add(nb)
        # The greatest set of defenders of which every member is held on its rank and on its
        # file: a neighbour off the board, in the fort or in the set (corners and the throne
        # are hostile, so they do not hold).
        n = self.tables.size
        holding = fort - self.tables.corners - {self.tables.throne}  # hostile squares hold none
        held = {sq for sq, piece in enumerate(cells) if piece == DEFENDER}
        changed = True
        while changed:
            changed = False
            for sq in list(held):
                rank, file = divmod(sq, n)
                along_rank = (
                    file == 0
                    or file == n - 1
                    or sq - 1 in holding
                    or sq + 1 in holding
                    or sq - 1 in held
                    or sq + 1 in held
                )
                along_file = (
                    rank == 0
                    or rank == n - 1
                    or sq - n in holding
                    or sq + n in holding
                    or sq - n in held
                    or sq + n in held
                )
                if not (along_rank and along_file):
                    held.discard(sq)
                    changed = True
        return frozenset(fort) if walls <= held else frozenset()


@cache
def rules_for(variant: Ruleset) -> Rules:
    """The rules object of a variant: the class it names, built once per process."""
    return variant.rules(tables_for(variant))
