"""The fast, mutable board: make/unmake, move generation, captures and end-of-game checks.

This is the engine's hot path, used by perft and by the AI's search. Moves are plain ints
(``origin << 9 | target``) and pieces are small int codes; the public, immutable API lives in
:mod:`bot.engine.game`. Ordinary pieces' sliding moves come from per-line tables keyed by the
line's occupancy (see :class:`~bot.engine.tables.Tables`), so generating every move of a side
costs two dictionary lookups per rank and file.
"""

from __future__ import annotations

from .rules import Rules, rules_for
from .tables import ATTACKER, DEFENDER, EMPTY, KING, MOVE_SHIFT, TARGET_MASK, Tables, tables_for
from .types import Termination
from .variants import Variant

ATTACKERS, DEFENDERS = 0, 1
"""Side indices on the fast board (``turn``)."""

Status = Termination | None
"""How the last move ended the game (``None``: it goes on), in the engine's one vocabulary of
endings; the side that made the move won. No legal move and repetition are judged by callers."""


_SIDE_OF_PIECE = (-1, ATTACKERS, DEFENDERS, -1)
_ANVIL_FOR_ATTACKERS = (False, True, False, False)


class Board:
    """A tafl position that can make and unmake moves quickly.

    Attributes are public for the engine's own modules and the AI; treat them as read-only.
    """

    __slots__ = (
        "cells",
        "hash",
        "king",
        "occ_cols",
        "occ_rows",
        "rules",
        "side_cols",
        "side_rows",
        "stack",
        "status",
        "tables",
        "turn",
        "variant",
    )

    def __init__(self, variant: Variant, cells: list[int] | None = None, turn: int | None = None):
        self.variant = variant
        tables = tables_for(variant)
        self.tables: Tables = tables
        self.rules: Rules = rules_for(variant)
        n = tables.size
        self.cells: list[int] = list(tables.start_cells if cells is None else cells)
        self.turn: int = tables.first_side if turn is None else turn
        self.occ_rows = [0] * n
        self.occ_cols = [0] * n
        self.side_rows = ([0] * n, [0] * n)
        self.side_cols = ([0] * n, [0] * n)
        self.king = -1
        self.hash = tables.zobrist_side if self.turn else 0
        for sq, piece in enumerate(self.cells):
            if piece == EMPTY:
                continue
            rank, file = divmod(sq, n)
            self.occ_rows[rank] |= 1 << file
            self.occ_cols[file] |= 1 << rank
            self.hash ^= tables.zobrist[piece][sq]
            if piece == KING:
                self.king = sq
            else:
                side = _SIDE_OF_PIECE[piece]
                self.side_rows[side][rank] |= 1 << file
                self.side_cols[side][file] |= 1 << rank
        self.status: Status = None
        self.stack: list[tuple[int, int, tuple[int, ...], Status, int]] = []

    # ------------------------------------------------------------------ move generation

    def moves(self) -> list[int]:
        """Every legal move of the side to move (empty when the game is over)."""
        if self.status:
            return []
        tables = self.tables
        n = tables.size
        side = self.turn
        result: list[int] = []
        line_moves = tables.line_moves
        fill = tables.fill_line
        occ = self.occ_rows
        own = self.side_rows[side]
        for r in range(n):
            mine = own[r]
            if mine:
                key = occ[r] << n | mine
                found = line_moves[r].get(key)
                result += found if found is not None else fill(r, key)
        occ = self.occ_cols
        own = self.side_cols[side]
        for f in range(n):
            mine = own[f]
            if mine:
                key = occ[f] << n | mine
                found = line_moves[n + f].get(key)
                result += found if found is not None else fill(n + f, key)
        if side == DEFENDERS and self.king >= 0:
            result += self.king_moves()
        return result

    def count_moves(self) -> int:
        """How many legal moves the side to move has (faster than ``len(moves())``)."""
        if self.status:
            return 0
        tables = self.tables
        n = tables.size
        side = self.turn
        total = 0
        line_moves = tables.line_moves
        fill = tables.fill_line
        occ = self.occ_rows
        own = self.side_rows[side]
        for r in range(n):
            mine = own[r]
            if mine:
                key = occ[r] << n | mine
                found = line_moves[r].get(key)
                total += len(found if found is not None else fill(r, key))
        occ = self.occ_cols
        own = self.side_cols[side]
        for f in range(n):
            mine = own[f]
            if mine:
                key = occ[f] << n | mine
                found = line_moves[n + f].get(key)
                total += len(found if found is not None else fill(n + f, key))
        if side == DEFENDERS and self.king >= 0:
            total += len(self.king_moves())
        return total

    def king_moves(self) -> list[int]:
        """The king's legal moves (the king may stop on corners and, per variant, the throne)."""
        tables = self.tables
        king = self.king
        cells = self.cells
        barred = tables.king_barred
        origin = king << MOVE_SHIFT
        result = []
        for ray in tables.rays[king]:
            for sq in ray:
                if cells[sq] or barred[sq]:
                    break
                result.append(origin | sq)
        return result

    def king_routes(self) -> list[int]:
        """Escape squares the king could reach with one move (his open routes)."""
        if self.king < 0:
            return []
        is_escape = self.tables.is_escape
        return [m & TARGET_MASK for m in self.king_moves() if is_escape[m & TARGET_MASK]]

    # ------------------------------------------------------------------ make / unmake

    def _toggle(self, sq: int, piece: int) -> None:
        """Add or remove ``piece`` at ``sq`` in the occupancy masks and the hash."""
        n = self.tables.size
        rank, file = divmod(sq, n)
        self.occ_rows[rank] ^= 1 << file
        self.occ_cols[file] ^= 1 << rank
        if piece != KING:
            side = _SIDE_OF_PIECE[piece]
            self.side_rows[side][rank] ^= 1 << file
            self.side_cols[side][file] ^= 1 << rank
        self.hash ^= self.tables.zobrist[piece][sq]

    def make(self, move: int) -> Status:
        """Play ``move`` (trusted to be legal) and return the resulting status code."""
        tables = self.tables
        cells = self.cells
        n = tables.size
        origin = move >> MOVE_SHIFT
        target = move & TARGET_MASK
        piece = cells[origin]
        cells[origin] = EMPTY
        cells[target] = piece
        bit_o_file = 1 << (origin % n)
        bit_o_rank = 1 << (origin // n)
        bit_t_file = 1 << (target % n)
        bit_t_rank = 1 << (target // n)
        ro = origin // n
        fo = origin % n
        rt = target // n
        ft = target % n
        occ_rows = self.occ_rows
        occ_cols = self.occ_cols
        occ_rows[ro] ^= bit_o_file
        occ_cols[fo] ^= bit_o_rank
        occ_rows[rt] ^= bit_t_file
        occ_cols[ft] ^= bit_t_rank
        zobrist = tables.zobrist[piece]
        previous_hash = self.hash
        self.hash = previous_hash ^ zobrist[origin] ^ zobrist[target] ^ tables.zobrist_side
        if piece == KING:
            self.king = target
        else:
            side = _SIDE_OF_PIECE[piece]
            rows = self.side_rows[side]
            cols = self.side_cols[side]
            rows[ro] ^= bit_o_file
            cols[fo] ^= bit_o_rank
            rows[rt] ^= bit_t_file
            cols[ft] ^= bit_t_rank

        captured = self.captures_by(piece, target)
        if captured:
            self._remove(captured, piece)
        rules = self.rules
        if rules.extra_captures:
            more = rules.more_captures(self, piece, target)
            if more:
                self._remove(more, piece)
                captured = captured + more

        if piece == ATTACKER:
            status = rules.after_attackers_move(self, target)
        else:
            status = rules.after_defenders_move(self, piece, target)
        self.stack.append((move, piece, tuple(captured), self.status, previous_hash))
        self.status = status
        self.turn ^= 1
        return status

    def _remove(self, squares: list[int], mover: int) -> None:
        """Take the enemy pieces of ``mover`` off ``squares`` (masks and hash included)."""
        tables = self.tables
        cells = self.cells
        n = tables.size
        enemy = DEFENDER if mover == ATTACKER else ATTACKER
        enemy_side = _SIDE_OF_PIECE[enemy]
        enemy_rows = self.side_rows[enemy_side]
        enemy_cols = self.side_cols[enemy_side]
        enemy_zobrist = tables.zobrist[enemy]
        occ_rows = self.occ_rows
        occ_cols = self.occ_cols
        h = self.hash
        for sq in squares:
            cells[sq] = EMPTY
            r = sq // n
            f = sq % n
            occ_rows[r] ^= 1 << f
            occ_cols[f] ^= 1 << r
            enemy_rows[r] ^= 1 << f
            enemy_cols[f] ^= 1 << r
            h ^= enemy_zobrist[sq]
        self.hash = h

    def captures_by(self, piece: int, target: int) -> list[int]:
        """Squares of the enemy pieces that ``piece`` arriving on ``target`` captures.

        Judged on the board before the capture is made; where the piece came from never matters
        (it cannot have come from a square of the capture's line).
        """
        tables = self.tables
        cells = self.cells
        captured: list[int] = []
        if piece == ATTACKER:
            hostile = tables.hostile_to_defenders
            throne = tables.throne
            for victim, anvil in tables.capture_pairs[target]:
                if cells[victim] != DEFENDER:
                    continue
                beyond = cells[anvil]
                if beyond == ATTACKER or hostile[anvil]:
                    captured.append(victim)
                elif anvil == throne:
                    if beyond == EMPTY:
                        if tables.empty_throne_hostile_to_defenders:
                            captured.append(victim)
                    elif tables.occupied_throne_hostile_to_defenders or (
                        tables.linnaean and self._king_hemmed_except(victim)
                    ):
                        captured.append(victim)
        elif piece == DEFENDER or tables.king_armed:
            hostile = tables.hostile_to_attackers
            king_anvil = tables.king_armed
            throne = tables.throne
            for victim, anvil in tables.capture_pairs[target]:
                if cells[victim] != ATTACKER:
                    continue
                beyond = cells[anvil]
                if (
                    beyond == DEFENDER
                    or (beyond == KING and king_anvil)
                    or hostile[anvil]
                    or (
                        anvil == throne
                        and beyond == EMPTY
                        and tables.empty_throne_hostile_to_attackers
                    )
                ):
                    captured.append(victim)
        return captured

    def unmake(self) -> None:
        """Take back the last move made with :meth:`make`."""
        move, piece, captured, status, previous_hash = self.stack.pop()
        tables = self.tables
        cells = self.cells
        n = tables.size
        origin = move >> MOVE_SHIFT
        target = move & TARGET_MASK
        cells[target] = EMPTY
        cells[origin] = piece
        ro, fo = divmod(origin, n)
        rt, ft = divmod(target, n)
        occ_rows = self.occ_rows
        occ_cols = self.occ_cols
        occ_rows[ro] ^= 1 << fo
        occ_cols[fo] ^= 1 << ro
        occ_rows[rt] ^= 1 << ft
        occ_cols[ft] ^= 1 << rt
        if piece == KING:
            self.king = origin
        else:
            side = _SIDE_OF_PIECE[piece]
            rows = self.side_rows[side]
            cols = self.side_cols[side]
            rows[ro] ^= 1 << fo
            cols[fo] ^= 1 << ro
            rows[rt] ^= 1 << ft
            cols[ft] ^= 1 << rt
        if captured:
            enemy = DEFENDER if piece == ATTACKER else ATTACKER
            enemy_side = _SIDE_OF_PIECE[enemy]
            enemy_rows = self.side_rows[enemy_side]
            enemy_cols = self.side_cols[enemy_side]
            for sq in captured:
                cells[sq] = enemy
                r, f = divmod(sq, n)
                occ_rows[r] ^= 1 << f
                occ_cols[f] ^= 1 << r
                enemy_rows[r] ^= 1 << f
                enemy_cols[f] ^= 1 << r
        self.hash = previous_hash
        self.status = status
        self.turn ^= 1

    def pass_turn(self) -> None:
        """Give the move to the other side without a move (the turn and the hash change, the
        squares do not); a second call undoes it. For asking what a side threatens."""
        self.turn ^= 1
        self.hash ^= self.tables.zobrist_side

    @property
    def last_captures(self) -> tuple[int, ...]:
        """Squares emptied by captures in the last move made."""
        return self.stack[-1][2] if self.stack else ()

    # ------------------------------------------------------------------ king capture

    def _king_hemmed_except(self, beside: int) -> bool:
        """Linnaeus law 10: the throned king's neighbours other than ``beside`` are attackers."""
        cells = self.cells
        return all(
            cells[sq] == ATTACKER for sq in self.tables.neighbours[self.king] if sq != beside
        )

    # ------------------------------------------------------------------ queries

    def would_capture(self, move: int) -> bool:
        """Whether ``move`` would capture at least one ordinary piece (without playing it)."""
        self.make(move)
        result = bool(self.stack[-1][2])
        self.unmake()
        return result

    def king_threatened(self) -> bool:
        """Whether the attackers, to move now or next, could capture the king with one move."""
        return bool(self.king_capturing_moves())

    def king_capturing_moves(self) -> list[int]:
        """The attackers' moves that would capture the king now, whoever is to move (the
        family's rules know which squares to look at, so the search can ask at every node)."""
        if self.king < 0 or self.status:
            return []
        return self.rules.king_capturing_moves(self)

    def attackers_reaching(self, target: int) -> list[int]:
        """The attackers' legal moves onto the empty square ``target``."""
        tables = self.tables
        cells = self.cells
        n = tables.size
        line_moves = tables.line_moves
        rows = self.side_rows[ATTACKERS]
        cols = self.side_cols[ATTACKERS]
        target_rank = target // n
        result = []
        for ray in tables.rays[target]:
            for sq in ray:
                piece = cells[sq]
                if piece == EMPTY:
                    continue
                if piece == ATTACKER:
                    # The line tables know which special squares the attacker may cross.
                    if sq // n == target_rank:
                        index = target_rank
                        key = self.occ_rows[index] << n | rows[index]
                    else:
                        file = sq % n
                        index = n + file
                        key = self.occ_cols[file] << n | cols[file]
                    found = line_moves[index].get(key)
                    if found is None:
                        found = tables.fill_line(index, key)
                    move = sq << MOVE_SHIFT | target
                    if move in found:
                        result.append(move)
                break
        return result

    def is_legal(self, move: int) -> bool:
        """Whether ``move`` (squares on the board) is legal for the side to move."""
        if self.status:
            return False
        origin = move >> MOVE_SHIFT
        target = move & TARGET_MASK
        piece = self.cells[origin]
        side = self.turn
        if piece == KING:
            return side == DEFENDERS and move in self.king_moves()
        if piece == EMPTY or _SIDE_OF_PIECE[piece] != side:
            return False
        tables = self.tables
        n = tables.size
        if origin // n == target // n:
            index = origin // n
            key = self.occ_rows[index] << n | self.side_rows[side][index]
        elif origin % n == target % n:
            file = origin % n
            index = n + file
            key = self.occ_cols[file] << n | self.side_cols[side][file]
        else:
            return False
        found = tables.line_moves[index].get(key)
        if found is None:
            found = tables.fill_line(index, key)
        return move in found

    def has_moves(self) -> bool:
        """Whether the side to move has any legal move (cheaper than generating them all)."""
        if self.status:
            return False
        tables = self.tables
        n = tables.size
        side = self.turn
        line_moves = tables.line_moves
        for offset, occupied, own in (
            (0, self.occ_rows, self.side_rows[side]),
            (n, self.occ_cols, self.side_cols[side]),
        ):
            for i in range(n):
                mine = own[i]
                if mine:
                    key = occupied[i] << n | mine
                    found = line_moves[offset + i].get(key)
                    if found is None:
                        found = tables.fill_line(offset + i, key)
                    if found:
                        return True
        return side == DEFENDERS and self.king >= 0 and bool(self.king_moves())

    def perft(self, depth: int) -> int:
        """Count the move sequences of length ``depth`` (terminal positions have no children)."""
        if depth <= 0:
            return 1
        if self.status:
            return 0
        if depth == 1:
            return self.count_moves()
        total = 0
        make = self.make
        unmake = self.unmake
        if depth == 2:
            count = self.count_moves
            for move in self.moves():
                if make(move) is None:
                    total += count()
                unmake()
            return total
        for move in self.moves():
            make(move)
            total += self.perft(depth - 1)
            unmake()
        return total

    def perft_captures(self, depth: int) -> tuple[int, int]:
        """Like :meth:`perft`, also counting the leaf moves that capture at least one piece."""
        if depth <= 0:
            return 1, 0
        if self.status:
            return 0, 0
        moves = self.moves()
        if depth == 1:
            cells = self.cells
            captures = 0
            known: dict[tuple[int, int], bool] = {}  # (piece, target) -> captures?
            rules = self.rules
            for move in moves:
                target = move & TARGET_MASK
                if rules.extra_captures and rules.may_capture_more(target):
                    captures += self.would_capture(move)  # depends on more than the arrival
                    continue
                key = (cells[move >> MOVE_SHIFT], target)
                hit = known.get(key)
                if hit is None:
                    hit = known[key] = bool(self.captures_by(key[0], target))
                captures += hit
            return len(moves), captures
        leaves = 0
        captures = 0
        for move in moves:
            self.make(move)
            sub_leaves, sub_captures = self.perft_captures(depth - 1)
            leaves += sub_leaves
            captures += sub_captures
            self.unmake()
        return leaves, captures
