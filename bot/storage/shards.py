"""Which servers a bot process answers for: Discord's shards, as the storage layer sees them.

Discord routes a server's events to shard ``(guild_id >> 22) % shard_count``, and direct messages to
shard 0. A process that runs some of the shards must load, time and settle only the games of those
servers, so the background scans of the stores (deadlines, reminders, challenge expiry, start-up
load) take a :class:`Shards` and filter in SQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MAX_SHARDS = 10_000
"""A sanity bound for a typo'd shard count (the largest bots run a few thousand shards)."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events (direct messages, ``None``, go to shard 0)."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards one process runs, out of ``count``."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ValueError(
                f"the shard count must be between 1 and {MAX_SHARDS}, not {self.count}"
            )
        if not self.ids:
            raise ValueError("a process must run at least one shard")
        outside = sorted(shard for shard in self.ids if not 0 <= shard < self.count)
        if outside:
            raise ValueError(
                f"shard {outside[0]} does not exist: with {self.count} shards they are numbered"
                f" 0 to {self.count - 1}"
            )

    @classmethod
    def every(cls, count: int = 1) -> Shards:
        """All ``count`` shards in one process (``count`` 1: the unsharded bot)."""
        return cls(count, frozenset(range(count)))

    @classmethod
    def of(cls, count: int, ids: Iterable[int]) -> Shards:
        """The shards ``ids`` out of ``count``."""
        return cls(count, frozenset(ids))

    @property
    def is_everything(self) -> bool:
        """Whether this process answers for every server."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process answers for ``guild_id`` (``None``: direct messages)."""
        return self.is_everything or shard_of(guild_id, self.count) in self.ids

    def where(self, column: str) -> str:
        """An SQL condition (to join with ``AND``) true for rows of servers this process owns.

        ``column`` is a trusted column name from our own SQL; the numbers are validated ints, so
        the condition has no parameters. Both SQLite and PostgreSQL have ``>>`` and ``%``.
        """
        if self.is_everything:
            return "TRUE"
        ids = ", ".join(str(shard) for shard in sorted(self.ids))
        dm_owner = "TRUE" if 0 in self.ids else "FALSE"
        return (
            f"(CASE WHEN {column} IS NULL THEN {dm_owner}"
            f" ELSE (({column} >> 22) % {self.count}) IN ({ids}) END)"
        )

    def describe(self) -> str:
        """For logs: ``"shards 0-3 of 8"`` or ``"all servers (unsharded)"``."""
        if self.count == 1:
            return "all servers (unsharded)"
        return f"shards {format_ranges(self.ids)} of {self.count}"


def format_ranges(ids: Iterable[int]) -> str:
    """``{0, 1, 2, 3, 6}`` as ``"0-3,6"`` (the form ``TAFL_SHARD_IDS`` takes)."""
    runs: list[list[int]] = []
    for shard in sorted(set(ids)):
        if runs and shard == runs[-1][1] + 1:
            runs[-1][1] = shard
        else:
            runs.append([shard, shard])
    return ",".join(str(low) if low == high else f"{low}-{high}" for low, high in runs)


def parse_ranges(text: str) -> frozenset[int]:
    """``"0-3,6"`` as ``{0, 1, 2, 3, 6}``; :class:`ValueError` with a reason otherwise."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            raise ValueError(
                f"{text!r} has an empty part: write ranges like 0-3 or lists like 0,2,5"
            )
        low_text, _, high_text = part.partition("-")
        if not low_text.isdigit() or (high_text and not high_text.isdigit()):
            raise ValueError(f"{part!r} is not a shard number or a range like 0-3")
        low = int(low_text)
        high = int(high_text) if high_text else low
        if high < low:
            raise ValueError(f"the range {part!r} runs backwards")
        if high - low > MAX_SHARDS:
            raise ValueError(f"the range {part!r} is too large")
        ids.update(range(low, high + 1))
    return frozenset(ids)


def split_shards(ids: Iterable[int], processes: int) -> list[frozenset[int]]:
    """``ids`` in ``processes`` contiguous runs (in order) whose sizes differ by at most one,
    the larger first: ``0..9`` in 3 is ``0-3``, ``4-6``, ``7-9``."""
    ordered = sorted(set(ids))
    if not 1 <= processes <= len(ordered):
        raise ValueError(f"cannot split {len(ordered)} shards over {processes} processes")
    size, larger = divmod(len(ordered), processes)
    runs = []
    start = 0
    for index in range(processes):
        end = start + size + (1 if index < larger else 0)
        runs.append(frozenset(ordered[start:end]))
        start = end
    return runs
