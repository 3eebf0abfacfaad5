"""Puzzles from the games played on the bot: ``python -m bot.tools puzzles DATABASE``.

The finished games of the database are replayed with the engine and go through the same miner
as self-play and recorded games (:func:`bot.ai.puzzles.mining.mine`): a short search keeps the
positions where it sees a forced win, and each is proven exactly. The puzzles found can be
written as JSON Lines and added to the database, where the bot offers them at once (a puzzle
already there keeps the rating it has earned).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.ai.puzzles import Puzzle
from bot.ai.puzzles.mining import Tally, mine
from bot.ai.puzzles.starter import write_puzzles
from bot.engine import Game, TaflError, get_variant
from bot.storage import GameRecord, Storage, StorageError, is_postgres_url, redact
from bot.storage.replay import replay_game

PAGE = 500
"""Finished games read per query."""


@dataclass
class MiningReport:
    """What a run read, found and added, per variant."""

    games: dict[str, int] = field(default_factory=dict)
    not_replayed: list[int] = field(default_factory=list)
    """Ids of games whose moves the engine refused (their puzzles are not looked for)."""
    found: dict[str, list[Puzzle]] = field(default_factory=dict)
    added: int = 0

    def describe(self) -> str:
        """One line per variant and one for the whole run."""
        lines = [
            f"{variant}: {count} games, {len(self.found.get(variant, []))} puzzles"
            for variant, count in self.games.items()
        ]
        if self.not_replayed:
            shown = ", ".join(str(i) for i in self.not_replayed[:10])
            more = "…" if len(self.not_replayed) > 10 else ""
            lines.append(f"not replayed (their moves no longer pass the rules): {shown}{more}")
        total = sum(len(found) for found in self.found.values())
        lines.append(f"{total} puzzles found, {self.added} new in the database")
        return "\n".join(lines)


async def finished_games(
    storage: Storage, variant: str, *, after_id: int = 0, max_games: int | None = None
) -> list[tuple[GameRecord, list[str]]]:
    """The finished games of ``variant`` with ids above ``after_id`` and their moves in effect,
    oldest first (at most ``max_games``)."""
    games: list[tuple[GameRecord, list[str]]] = []
    while max_games is None or len(games) < max_games:
        page = await storage.games.finished(variant, after_id=after_id, limit=PAGE)
        if not page:
            break
        for record in page:
            games.append((record, await storage.games.moves(record.id)))
        after_id = page[-1].id
    return games[:max_games] if max_games is not None else games


def replayed(
    games: Sequence[tuple[GameRecord, list[str]]], tally: Tally, refused: list[int]
) -> Iterator[tuple[Game, str]]:
    """Each game rebuilt by the engine with where it comes from; a game that no longer
    replays is named in ``refused`` and left out."""
    for record, moves in games:
        try:
            game = replay_game(record, moves)
        except TaflError:
            refused.append(record.id)
            continue
        tally.games += 1
        yield game, f"game {record.id} of the bot's database"


async def mine_database(
    target: str | os.PathLike[str],
    variants: Sequence[str],
    count: int,
    *,
    out: Path | None = None,
    add: bool = False,
    after_id: int = 0,
    max_games: int | None = None,
    last_plies: int | None = None,
    say: Callable[[str], None] = lambda line: print(line, flush=True),
) -> MiningReport:
    """Mine up to ``count`` puzzles of each of ``variants`` from the finished games of the
    database ``target``; write them to ``out`` (JSON Lines) and, with ``add``, into the
    database. Refuses a database file that does not exist rather than creating one."""
    if not is_postgres_url(target) and not await asyncio.to_thread(os.path.isfile, target):
        # Opening it would create an empty database and mine nothing.
        raise StorageError(f"there is no database file {os.fspath(target)!r} to mine")
    names = [get_variant(v).name for v in variants]
    storage = await Storage.open(target)
    try:
        report = MiningReport()
        for variant in names:
            games = await finished_games(storage, variant, after_id=after_id, max_games=max_games)
            report.games[variant] = len(games)
            say(f"{variant}: {len(games)} finished games in {redact(str(target))}")
            tally = Tally()
            # The search and the proofs are CPU work: a thread keeps the database's
            # connections answering their keep-alives meanwhile.
            report.found[variant] = await asyncio.to_thread(
                mine,
                replayed(games, tally, report.not_replayed),
                tally,
                count,
                last_plies=last_plies,
                say=say,
            )
        puzzles = [p for found in report.found.values() for p in found]
        if out is not None:
            await asyncio.to_thread(write_puzzles, out, puzzles)
            say(f"wrote {len(puzzles)} puzzles to {out}")
        if add:
            report.added = await storage.puzzles.add(
                (p.id, p.variant, p.to_text(), float(p.rating)) for p in puzzles
            )
        return report
    finally:
        await storage.close()
