"""Maximum matching in a general graph (Edmonds' blossom algorithm), the Swiss pairing's proof
that the players still unpaired can all be paired."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable


def maximum_matching(
    count: int, adjacent: Callable[[int, int], bool], start: Iterable[tuple[int, int]] = ()
) -> list[int]:
    """A maximum matching of vertices ``0..count-1`` (``adjacent`` symmetric): ``mate[v]`` is
    v's partner or -1. Deterministic: the pairs of ``start`` (adjacent, disjoint), a greedy
    start in index order, then augmenting paths from the lowest unmatched vertex."""
    mate = [-1] * count
    for u, v in start:
        mate[u], mate[v] = v, u
    for u in range(count):
        if mate[u] == -1:
            for v in range(u + 1, count):
                if mate[v] == -1 and adjacent(u, v):
                    mate[u], mate[v] = v, u
                    break
    free = [u for u in range(count) if mate[u] == -1]
    if len(free) < 2:
        return mate
    neighbours: dict[int, list[int]] = {}

    def graph(u: int) -> list[int]:
        # built when the search first reaches u: an augmenting path is usually found after
        # few vertices, so most of the quadratic adjacency is never asked
        found = neighbours.get(u)
        if found is None:
            found = neighbours[u] = [v for v in range(count) if v != u and adjacent(u, v)]
        return found

    for root in free:
        if mate[root] == -1:
            _augment(count, graph, mate, root)
    return mate


def _augment(count: int, graph: Callable[[int], list[int]], mate: list[int], root: int) -> None:
    parent = [-1] * count
    base = list(range(count))
    used = [False] * count
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * count
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in graph(v):
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                current = lca(v, to)
                blossom = [False] * count
                mark(v, current, to, blossom)
                mark(to, current, v, blossom)
                for i in range(count):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:
                        previous = parent[to]
                        after = mate[previous]
                        mate[to], mate[previous] = previous, to
                        to = after
                    return
                used[mate[to]] = True
                queue.append(mate[to])
