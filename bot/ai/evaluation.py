"""Static evaluation of a tafl position, aware of the variant's escape and capture rules.

Scores are in centi-pawns of an attacker (100) from the defenders' point of view inside this
module; :meth:`Evaluator.evaluate` returns them from the side to move's point of view, as the
negamax search wants. The weights were tuned by self-play (see ``bot/ai/arena.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from bot.engine.board import DEFENDERS, Board
from bot.engine.tables import ATTACKER, EMPTY
from bot.engine.variants import KingCapture, Variant

from .geometry import geometry_for


@dataclass(frozen=True)
class Weights:
    """The evaluation's terms; every value is in hundredths of an attacker."""

    attacker: int = 100
    defender: int = 190
    king_mobility: int = 6
    threat_square: int = 70
    """A square the king reaches in one move from which he would have an open route."""
    fork_square: int = 260
    """Such a square with two or more routes (a Tuichi next move)."""
    king_distance: int = 18
    """Per king move to an escape square on an empty board (closer is better for the king)."""
    king_closed: tuple[int, ...] = (0, 12, 45, 120, 240)
    """By how many of the king's four sides are closed (attackers, edge, hostile squares)."""
    attacker_near_king: int = 9
    corner_guard: int = 22
    mobility: int = 3
    """Per legal move of difference between the sides (scaled per side below)."""
    tempo: int = 10

    def scaled(self, **changes: int) -> Weights:
        """A copy with some weights changed (for tuning matches)."""
        return replace(self, **changes)  # type: ignore[arg-type]


DEFAULT_WEIGHTS = Weights()
WEIGHT_NAMES = tuple(f.name for f in fields(Weights))


class Evaluator:
    """Evaluates positions of one variant with one set of weights."""

    def __init__(self, variant: Variant, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.variant = variant
        self.weights = weights
        geometry = geometry_for(variant)
        self.geometry = geometry
        self.escape_rays = geometry.escape_rays
        self.king_barred = geometry.king_barred
        self.corner_zone = geometry.corner_zone
        self.distance = geometry.distance_to_escape
        self.centre_strong = variant.king_capture is KingCapture.CENTRE_STRONG
        self.corner_squares = tuple(sq for sq, flag in enumerate(geometry.corner_zone) if flag)
        # Scores are relative to the start position, so 0 (a repetition draw) means "as
        # balanced as the start": neither side then seeks or shuns draws for a mere offset.
        self.offset = 0
        start = Board(variant, turn=DEFENDERS)
        self.offset = self.evaluate(start) - weights.tempo

    def king_targets(self, board: Board) -> list[int]:
        """Squares the king can move to (empty list when there is no king)."""
        king = board.king
        if king < 0:
            return []
        cells = board.cells
        barred = self.king_barred
        result = []
        for ray in board.tables.rays[king]:
            for sq in ray:
                if cells[sq] or barred[sq]:
                    break
                result.append(sq)
        return result

    def threats(self, board: Board, targets: list[int]) -> list[tuple[int, int]]:
        """``(square, routes)`` for king targets from which he would have open routes."""
        king = board.king
        n = board.tables.size
        rows = board.occ_rows
        cols = board.occ_cols
        kr, kf = divmod(king, n)
        # The king leaves his square, so rays through it must see it empty.
        rows[kr] ^= 1 << kf
        cols[kf] ^= 1 << kr
        escape_rays = self.escape_rays
        found = []
        for sq in targets:
            count = 0
            for is_file, line, mask, _ in escape_rays[sq]:
                if not ((cols if is_file else rows)[line] & mask):
                    count += 1
            if count:
                found.append((sq, count))
        rows[kr] ^= 1 << kf
        cols[kf] ^= 1 << kr
        return found

    def evaluate(self, board: Board) -> int:
        """The position's value for the side to move."""
        w = self.weights
        tables = board.tables
        cells = board.cells
        attackers = sum(r.bit_count() for r in board.side_rows[0])
        defenders = sum(r.bit_count() for r in board.side_rows[1])
        score = w.defender * defenders - w.attacker * attackers
        king = board.king
        if king >= 0:
            targets = self.king_targets(board)
            score += w.king_mobility * len(targets)
            for _, routes in self.threats(board, targets):
                score += w.fork_square if routes >= 2 else w.threat_square
            score -= w.king_distance * self.distance[king]
            closed = 4 - len(tables.neighbours[king])
            closes = tables.closes_ring
            for sq in tables.neighbours[king]:
                piece = cells[sq]
                if piece == ATTACKER or (piece == EMPTY and closes[sq]):
                    closed += 1
            if self.centre_strong and king != tables.throne:
                # Off the throne two attackers suffice: each one beside him is a real danger.
                closed = min(4, closed + (closed > 0))
            score -= w.king_closed[closed]
            n = tables.size
            kr, kf = divmod(king, n)
            near = 0
            rows = board.side_rows[0]
            for r in range(max(0, kr - 2), min(n, kr + 3)):
                row = rows[r]
                if row:
                    near += (row >> max(0, kf - 2) & 0b11111).bit_count()
            score -= w.attacker_near_king * near
        if w.corner_guard and self.corner_squares:
            guards = 0
            for sq in self.corner_squares:
                if cells[sq] == ATTACKER:
                    guards += 1
            score -= w.corner_guard * guards
        if w.mobility:
            turn = board.turn
            own = board.count_moves()
            board.turn = turn ^ 1
            other = board.count_moves()
            board.turn = turn
            mobility = own - other if turn == DEFENDERS else other - own
            score += w.mobility * mobility
        score -= self.offset
        return (score if board.turn == DEFENDERS else -score) + w.tempo
