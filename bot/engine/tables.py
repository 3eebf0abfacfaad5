"""Lookup tables compiled once per variant for the fast board.

Everything here is derived from a ``Variant`` description; the board's hot loops only index
these tables, so a new ruleset needs a new description, not new code paths.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from functools import cache
from typing import Protocol

from .otn import parse_position
from .types import Piece, Side, Square

EMPTY, ATTACKER, DEFENDER, KING = (int(p) for p in Piece)

# Codes of the squares along a line, for ordinary pieces' sliding moves.
NORMAL, THRONE, CORNER = 0, 1, 2
CAMP = 3  # CAMP + group index

MOVE_SHIFT = 9
"""Moves are ints ``origin << MOVE_SHIFT | target`` in the hot paths (boards up to 19x19)."""
TARGET_MASK = (1 << MOVE_SHIFT) - 1


class Layout(Hashable, Protocol):
    """What the tables are compiled from: a ruleset's board, its special squares and who may
    use them, as a :class:`~bot.engine.variants.Variant` describes them (``docs/RULES.md`` is
    the authority on each); hashable, as the tables are compiled once per ruleset. A protocol,
    so that the tables, and the rules built on them, sit below the variants that name their
    rules."""

    @property
    def size(self) -> int: ...
    @property
    def start(self) -> str: ...
    @property
    def first(self) -> Side: ...
    @property
    def throne(self) -> Square: ...
    @property
    def corners(self) -> frozenset[Square]: ...
    @property
    def camps(self) -> frozenset[Square]: ...
    @property
    def camp_groups(self) -> tuple[frozenset[Square], ...]: ...
    @property
    def escape_squares(self) -> frozenset[Square]: ...
    @property
    def king_armed(self) -> bool: ...
    @property
    def king_may_enter_throne(self) -> bool: ...
    @property
    def throne_passable(self) -> bool: ...
    @property
    def linnaean_capture(self) -> bool: ...
    @property
    def empty_throne_hostile_to(self) -> frozenset[Side]: ...
    @property
    def occupied_throne_hostile_to_defenders(self) -> bool: ...
    @property
    def camps_hostile_to_attackers(self) -> frozenset[Square]: ...
    @property
    def tuichi_wins(self) -> bool: ...


class Tables:
    """Per-variant geometry, hostility and move tables used by :class:`~bot.engine.board.Board`."""

    def __init__(self, variant: Layout) -> None:
        n = variant.size
        self.size = n
        self.area = n * n
        self.throne = variant.throne
        self.king_armed = variant.king_armed
        self.linnaean = variant.linnaean_capture
        self.tuichi_wins = variant.tuichi_wins
        self.occupied_throne_hostile_to_defenders = variant.occupied_throne_hostile_to_defenders
        self.empty_throne_hostile_to_attackers = Side.ATTACKERS in variant.empty_throne_hostile_to
        self.empty_throne_hostile_to_defenders = Side.DEFENDERS in variant.empty_throne_hostile_to
        self.first_side = 0 if variant.first is Side.ATTACKERS else 1
        self.start_cells = parse_position(variant.start, n)

        area = n * n
        corners = variant.corners
        camps = variant.camps
        self.corners = corners
        self.is_camp = bytes(1 if sq in camps else 0 for sq in range(area))
        # The one definition of where the king may never stop or pass: the camps, and the
        # throne once he may not return to it. The board's king moves, the referee's
        # explanations and the AI's escape geometry all read it.
        barred = set(camps)
        if not variant.king_may_enter_throne:
            barred.add(self.throne)
        self.king_barred = bytes(1 if sq in barred else 0 for sq in range(area))
        self.is_escape = bytes(1 if sq in variant.escape_squares else 0 for sq in range(area))
        # A square that, for the king, closes the ring like an attacker would (SURROUNDED rules).
        self.closes_ring = bytes(
            1 if sq in corners or sq == self.throne else 0 for sq in range(area)
        )

        # Squares hostile whatever stands on them (the throne is handled by the board).
        hostile_to_attackers = set(corners) | set(variant.camps_hostile_to_attackers)
        hostile_to_defenders = set(corners) | set(camps)
        self.hostile_to_attackers = bytes(
            1 if sq in hostile_to_attackers else 0 for sq in range(area)
        )
        self.hostile_to_defenders = bytes(
            1 if sq in hostile_to_defenders else 0 for sq in range(area)
        )

        self.neighbours: list[tuple[int, ...]] = []
        self.capture_pairs: list[tuple[tuple[int, int], ...]] = []
        self.rays: list[tuple[tuple[int, ...], ...]] = []
        for sq in range(area):
            rank, file = divmod(sq, n)
            neigh = []
            pairs = []
            rays = []
            for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                r1, f1 = rank + dr, file + df
                if 0 <= r1 < n and 0 <= f1 < n:
                    neigh.append(r1 * n + f1)
                    r2, f2 = r1 + dr, f1 + df
                    if 0 <= r2 < n and 0 <= f2 < n:
                        pairs.append((r1 * n + f1, r2 * n + f2))
                ray = []
                r, f = rank + dr, file + df
                while 0 <= r < n and 0 <= f < n:
                    ray.append(r * n + f)
                    r, f = r + dr, f + df
                if ray:
                    rays.append(tuple(ray))
            self.neighbours.append(tuple(neigh))
            self.capture_pairs.append(tuple(pairs))
            self.rays.append(tuple(rays))
        self.throne_neighbours = frozenset(self.neighbours[self.throne])

        # Lines: rows 0..n-1 then files n..2n-1, each as its squares and their codes.
        camp_group_of = {sq: g for g, group in enumerate(variant.camp_groups) for sq in group}
        self.lines: list[tuple[int, ...]] = []
        self.line_codes: list[tuple[int, ...]] = []
        for r in range(n):
            self.lines.append(tuple(r * n + f for f in range(n)))
        for f in range(n):
            self.lines.append(tuple(r * n + f for r in range(n)))
        for line in self.lines:
            codes = []
            for sq in line:
                if sq == self.throne:
                    codes.append(THRONE)
                elif sq in corners:
                    codes.append(CORNER)
                elif sq in camp_group_of:
                    codes.append(CAMP + camp_group_of[sq])
                else:
                    codes.append(NORMAL)
            self.line_codes.append(tuple(codes))
        self.throne_passable = variant.throne_passable
        # Sliding moves of ordinary pieces per line, keyed by (occupancy << n | own pieces).
        self.line_moves: list[dict[int, tuple[int, ...]]] = [{} for _ in self.lines]

        rng = random.Random(0x7AF1)
        self.zobrist = [[rng.getrandbits(64) for _ in range(area)] for _ in range(4)]
        self.zobrist_side = rng.getrandbits(64)

    def fill_line(self, index: int, key: int) -> tuple[int, ...]:
        """Compute (and cache) the ordinary pieces' moves along one line for one occupancy."""
        n = self.size
        occupied = key >> n
        own = key & ((1 << n) - 1)
        squares = self.lines[index]
        codes = self.line_codes[index]
        passable = self.throne_passable
        moves: list[int] = []
        for i in range(n):
            if not own >> i & 1:
                continue
            origin_code = codes[i]
            origin = squares[i] << MOVE_SHIFT
            for step in (-1, 1):
                j = i + step
                while 0 <= j < n and not occupied >> j & 1:
                    code = codes[j]
                    if code == NORMAL:
                        moves.append(origin | squares[j])
                    elif code == THRONE:
                        if not passable:
                            break
                    elif code == CORNER:
                        break
                    elif code == origin_code:  # a camp square of the camp the move starts in
                        moves.append(origin | squares[j])
                    else:
                        break
                    j += step
        result = tuple(moves)
        self.line_moves[index][key] = result
        return result


@cache
def tables_for(variant: Layout) -> Tables:
    """The compiled tables of a variant (built once per process)."""
    return Tables(variant)


__all__ = [
    "ATTACKER",
    "DEFENDER",
    "EMPTY",
    "KING",
    "MOVE_SHIFT",
    "TARGET_MASK",
    "Layout",
    "Tables",
    "tables_for",
]
