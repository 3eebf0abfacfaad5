"""Escape geometry compiled once per variant: which rays lead the king to freedom.

The king's open routes are tested with the board's occupancy bitmasks (one per rank and file),
so "is this ray clear?" is one AND instead of a walk along the squares.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bot.engine.tables import Tables, tables_for
from bot.engine.variants import Variant

EscapeRay = tuple[int, int, int, tuple[int, ...]]
"""``(is_file, line, mask, squares)``: the ray runs along rank ``line`` (``is_file`` 0) or file
``line`` (1); it is clear when ``occupancy[line] & mask == 0``; ``squares`` are the squares it
crosses, the escape square last."""


@dataclass(frozen=True)
class Geometry:
    """Per-variant escape rays and special squares the evaluation and the search share."""

    size: int
    escape_rays: tuple[tuple[EscapeRay, ...], ...]
    """For every square, the rays from it that end on an escape square the king may reach."""
    king_barred: bytes
    """Squares the king may never enter (camps; the throne where he may not return)."""
    corner_zone: bytes
    """Squares near a corner where attackers hold the blockade (corner-escape variants)."""
    distance_to_escape: tuple[int, ...]
    """King moves needed to escape from each square on an empty board (rook distance)."""


def _build(variant: Variant, tables: Tables) -> Geometry:
    n = tables.size
    area = n * n
    barred = tables.king_barred
    escape = tables.is_escape
    all_rays: list[tuple[EscapeRay, ...]] = []
    for sq in range(area):
        rank, file = divmod(sq, n)
        rays: list[EscapeRay] = []
        for ray in tables.rays[sq]:
            end = ray[-1]
            # Only the far end of a ray can be an escape square the king stops on: along an
            # edge he would already have escaped, and a corner is always a ray's end.
            if not escape[end] or any(barred[s] for s in ray):
                continue
            is_file = 1 if ray[0] % n == file else 0
            if is_file:
                mask = sum(1 << (s // n) for s in ray)
                rays.append((1, file, mask, ray))
            else:
                mask = sum(1 << (s % n) for s in ray)
                rays.append((0, rank, mask, ray))
        all_rays.append(tuple(rays))
    zone = bytearray(area)
    for corner in variant.corners:
        cr, cf = divmod(corner, n)
        for sq in range(area):
            r, f = divmod(sq, n)
            if (
                sq != corner
                and max(abs(r - cr), abs(f - cf)) <= 2
                and abs(r - cr) + abs(f - cf) > 1
            ):
                zone[sq] = 1
    # Breadth-first rook distance to an escape square on an empty board, for the king.
    inf = 99
    dist = [inf] * area
    frontier = [sq for sq in range(area) if escape[sq]]
    for sq in frontier:
        dist[sq] = 0
    while frontier:
        nxt = []
        for sq in frontier:
            for ray in tables.rays[sq]:
                for s in ray:
                    if barred[s]:
                        break
                    if dist[s] == inf:
                        dist[s] = dist[sq] + 1
                        nxt.append(s)
        frontier = nxt
    # A square the king may not enter can still be his own: the throne he starts on where he
    # may not return to it (fidchell, tablut-ashton). The search above walks towards the
    # king, so it never reaches such a square; from it he is one move from his best square.
    # Every barred square is given a distance so, but only the throne matters: the king
    # never stands on the others (the camps).
    for sq in range(area):
        if barred[sq]:
            reachable = [dist[s] for s in _king_reach(tables, sq)]
            dist[sq] = min(min(reachable, default=inf) + 1, inf)
    return Geometry(n, tuple(all_rays), bytes(barred), bytes(zone), tuple(dist))


def _king_reach(tables: Tables, start: int) -> list[int]:
    """The squares the king reaches from ``start`` in one move on an empty board."""
    barred = tables.king_barred
    reach = []
    for ray in tables.rays[start]:
        for sq in ray:
            if barred[sq]:
                break
            reach.append(sq)
    return reach


@cache
def geometry_for(variant: Variant) -> Geometry:
    """The compiled escape geometry of a variant (built once per process)."""
    return _build(variant, tables_for(variant))


def open_routes(rays: tuple[EscapeRay, ...], rows: list[int], cols: list[int]) -> int:
    """How many of ``rays`` are clear on a board with these occupancy masks."""
    count = 0
    for is_file, line, mask, _ in rays:
        if not ((cols if is_file else rows)[line] & mask):
            count += 1
    return count
