"""Storage benchmark: the cost of recording one move, and the start-up load of many active games.

Run: ``.venv/bin/python benchmarks/storage.py [--games 1000] [--moves 60] [--smoke]
[--postgres URL]``

With ``--postgres URL`` (any PostgreSQL the user may create schemas in; a fresh schema is made and
dropped) it also copies the populated database there with ``python -m bot.storage copy``'s
code, and measures recording a move and the start-up load on PostgreSQL.

Targets (issue 4): a move costs 2 ms or less and does not grow with the length of the game; loading
1,000 active games of 60 moves each takes 2 s or less. The load is reported in two parts: the
storage's own work (queries, grouping, takeback resolution) and the engine's replay, which is the
engine's cost rather than the storage's: on the fast core where it is built (``Game.play_all``),
else on the Python engine (``TAFL_PURE_PYTHON=1`` measures that one).

The benchmark checks what it stored: every move recorded is read back, and the start-up load
must bring back every game with all its moves; otherwise it exits with status 1. ``--smoke``
runs the same steps on 20 games of 20 moves and a 200-move game (about a second) and judges no
speed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # pg_server

from bot.engine import Game, core
from bot.storage import Participant, Storage, redact

MOVE_TARGET_MS = 2.0
LOAD_TARGET_S = 2.0
LONG_GAME = 2_000
SMOKE_GAMES, SMOKE_MOVES, SMOKE_LONG_GAME = 20, 20, 200


class BenchFailure(Exception):
    """The storage did not keep what the benchmark stored."""


def legal_games(count: int, length: int, seed: int = 1) -> list[list[str]]:
    """``count`` different random tablut games still going after ``length`` legal moves."""
    rng = random.Random(seed)
    games: list[list[str]] = []
    while len(games) < count:
        game = Game("tablut")
        moves: list[str] = []
        while len(moves) < length and not game.is_over:
            move = rng.choice(game.legal_moves())
            moves.append(move.text(game.size))
            game.play(move)
        if len(moves) == length and not game.is_over:
            games.append(moves)
    return games


async def record_moves(storage: Storage, channel_id: int, count: int) -> list[float]:
    """Append ``count`` moves to a new game, returning each append's wall time in seconds.

    Storage does not parse moves, so a fixed text costs the same as a real one; the game is
    aborted afterwards so it is not part of the start-up load.
    """
    game = await storage.games.create(
        guild_id=1,
        channel_id=channel_id,
        variant="tablut",
        attackers=Participant.user(1),
        defenders=Participant.user(2),
        move_seconds=3600,
    )
    timings: list[float] = []
    for ply in range(count):
        started = time.perf_counter()
        await storage.games.append_move(game.id, ply, "e1-e4")
        timings.append(time.perf_counter() - started)
    stored = len(await storage.games.moves(game.id))
    if stored != count:
        raise BenchFailure(f"{count} moves recorded, {stored} read back")
    await storage.games.abort(game.id)
    return timings


def ms(seconds: float) -> str:
    """Seconds as milliseconds, for printing."""
    return f"{seconds * 1000:.3f} ms"


def verdict(ok: bool) -> str:
    """How a figure compares with its target, for printing."""
    return "ok" if ok else "MISSED"


async def main(
    games: int, moves: int, long_game: int = LONG_GAME, postgres: str | None = None
) -> None:
    """Run the benchmark in a temporary folder (deleted afterwards)."""
    with tempfile.TemporaryDirectory(prefix="tafl-bench-") as name:
        await run(Path(name), games, moves, long_game)
        if postgres:
            await on_postgres(Path(name) / "bench.sqlite3", postgres, games, moves, long_game)


async def on_postgres(source: Path, url: str, games: int, moves: int, long_game: int) -> None:
    """Copy the populated database to a fresh schema of ``url``; time a move and the load."""
    import pg_server

    from bot.storage.copy import copy_database

    schema = await pg_server.fresh_schema(url)
    try:
        print(f"\n4. PostgreSQL ({redact(url)}, a fresh schema)")
        started = time.perf_counter()
        report = await copy_database(source, schema)
        copied = time.perf_counter() - started
        rows = sum(report.counts.values())
        print(
            f"   copy from SQLite: {rows} rows ({report.counts['moves']} moves)"
            f" in {copied:.2f} s, counts checked"
        )
        storage = await Storage.open(schema)
        timings = await record_moves(storage, 2, min(long_game, 1000))
        print(
            f"   recording one move: median {ms(statistics.median(timings))}"
            f"   p95 {ms(statistics.quantiles(timings, n=20)[-1])}"
        )
        await storage.close()
        started = time.perf_counter()
        storage = await Storage.open(schema)
        opened = time.perf_counter() - started
        loaded = await storage.load_active_games()
        await storage.close()
        # The populated games (the timed ones were aborted).
        expected = games
        if len(loaded.games) != expected or loaded.unreplayable:
            raise BenchFailure(f"{len(loaded.games)} of {expected} games loaded on PostgreSQL")
        print(
            f"   start-up: open {opened:.3f} s; load {expected} games: storage part"
            f" {loaded.total_seconds - loaded.replay_seconds:.3f} s,"
            f" total {loaded.total_seconds:.3f} s"
        )
    finally:
        await pg_server.drop_schema(schema)


async def run(folder: Path, games: int, moves: int, long_game: int = LONG_GAME) -> None:
    """Populate a database in ``folder`` and print the measurements."""
    path = folder / "bench.sqlite3"
    print(f"database: {path}  (SQLite, WAL, synchronous=FULL: every commit is fsynced)")

    print(f"\n1. populating {games} active games of {moves} legal moves through the public API")
    sequences = legal_games(20, moves)
    storage = await Storage.open(path)
    started = time.perf_counter()
    populate: list[float] = []
    for index in range(games):
        game = await storage.games.create(
            guild_id=1 + index % 7,
            channel_id=10_000 + index,
            variant="tablut",
            attackers=Participant.user(100 + index),
            defenders=Participant.user(5_000 + index),
            move_seconds=86_400,
        )
        for ply, move in enumerate(sequences[index % len(sequences)]):
            move_started = time.perf_counter()
            await storage.games.append_move(game.id, ply, move)
            populate.append(time.perf_counter() - move_started)
    print(
        f"   {games * moves} moves in {time.perf_counter() - started:.1f} s;"
        f" per move: median {ms(statistics.median(populate))},"
        f" mean {ms(statistics.fmean(populate))}"
    )

    print(f"\n2. recording one move (one game of {long_game} moves, in the populated database)")
    timings = await record_moves(storage, 1, long_game)
    median = statistics.median(timings)
    early, late = statistics.median(timings[:100]), statistics.median(timings[-100:])
    p95 = statistics.quantiles(timings, n=20)[-1]
    print(
        f"   median {ms(median)}   p95 {ms(p95)}   "
        f"[target <= {MOVE_TARGET_MS} ms: {verdict(median * 1000 <= MOVE_TARGET_MS)}]"
    )
    print(
        f"   moves 1-100: median {ms(early)};  moves {long_game - 99}-{long_game}: median"
        f" {ms(late)}  [no growth: {verdict(late <= early * 1.5)}]"
    )
    await storage.close()

    # What the fsync per commit costs: the same moves into two fresh files, taking turns so
    # that a burst of load on the machine hits both alike.
    count = min(500, long_game)
    medians: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    for round_ in range(2):
        for mode in ("FULL", "NORMAL") if round_ == 0 else ("NORMAL", "FULL"):
            fresh = await Storage.open(folder / f"{mode}-{round_}.sqlite3", synchronous=mode)
            medians[mode] += await record_moves(fresh, 1, count)
            await fresh.close()
    full_ms, normal_ms = (statistics.median(medians[m]) * 1000 for m in ("FULL", "NORMAL"))
    print(
        f"   synchronous=FULL (the bot's setting) against NORMAL (no fsync), fresh files,"
        f" {2 * count} moves each: median {full_ms:.3f} ms against {normal_ms:.3f} ms"
        f" (+{full_ms - normal_ms:.3f} ms per move)"
    )

    print(f"\n3. start-up: open, then load and replay {games} active games")
    started = time.perf_counter()
    storage = await Storage.open(path)
    opened = time.perf_counter() - started
    report = await storage.load_active_games()
    # The same load with the engine left out: every game gets one shared, empty engine game.
    blank = Game("tablut")
    no_engine = await storage.load_active_games(replay=lambda record, moves: blank)
    await storage.close()
    if len(report.games) != games or report.unreplayable:
        raise BenchFailure(
            f"{len(report.games)} of {games} games loaded, {len(report.unreplayable)} set aside"
        )
    short = [loaded.record.id for loaded in report.games if loaded.game.ply != moves]
    if short:
        raise BenchFailure(f"{len(short)} games did not come back with their {moves} moves")
    storage_part = report.total_seconds - report.replay_seconds
    print(f"   open (integrity check, schema check): {opened:.3f} s")
    print(
        f"   storage part (2 queries, records, grouping, takebacks): {storage_part:.3f} s"
        f"  [target <= {LOAD_TARGET_S} s: {verdict(storage_part <= LOAD_TARGET_S)}]"
    )
    print(f"   same load with a no-op replay, end to end: {no_engine.total_seconds:.3f} s")
    engine = "the fast core" if core.extension() is not None else f"Python, {core.state()}"
    print(
        f"   engine replay (Game.play_all, {games * moves} moves on {engine}):"
        f" {report.replay_seconds:.3f} s"
        f"  ({report.replay_seconds / (games * moves) * 1e6:.0f} us per move)"
    )
    print(
        f"   total: {report.total_seconds:.3f} s"
        f"  [target <= {LOAD_TARGET_S} s: {verdict(report.total_seconds <= LOAD_TARGET_S)}]"
    )
    print(f"\ndatabase size: {_size(folder) / 1e6:.1f} MB (deleted on exit)")


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.iterdir())


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000, help="active games to load")
    parser.add_argument("--moves", type=int, default=60, help="moves per game")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="also measure on this PostgreSQL (a fresh schema is made and dropped)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"a quick check that the benchmark works ({SMOKE_GAMES} games of {SMOKE_MOVES} moves)",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = _arguments(sys.argv[1:])
    try:
        if arguments.smoke:
            asyncio.run(main(SMOKE_GAMES, SMOKE_MOVES, SMOKE_LONG_GAME, arguments.postgres))
        else:
            asyncio.run(main(arguments.games, arguments.moves, postgres=arguments.postgres))
    except BenchFailure as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
