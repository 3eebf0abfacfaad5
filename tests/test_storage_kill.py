"""Kill-and-reload: a writer killed with SIGKILL mid-run loses nothing it acknowledged (on an
SQLite file, and on a PostgreSQL server that outlives the writer)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.engine import Game
from bot.storage import GameStatus, Storage
from bot.storage.movelog import moves_in_effect

ROOT = Path(__file__).resolve().parent.parent
WRITER = Path(__file__).with_name("storage_kill_writer.py")

LogEntry = tuple[str, int, str | None]


async def run_and_kill(
    path: str, seed: int, first_channel: int, moves_before_kill: int
) -> list[str]:
    """Start the writer, read acknowledgements until enough moves were committed, SIGKILL it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(WRITER),
        str(path),
        str(seed),
        str(first_channel),
        stdout=asyncio.subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert process.stdout is not None
    lines: list[str] = []
    try:
        while sum(line.startswith("move") for line in lines) < moves_before_kill:
            raw = await asyncio.wait_for(process.stdout.readline(), timeout=30)
            assert raw, f"the writer stopped by itself (exit code {await process.wait()})"
            lines.append(raw.decode().strip())
    finally:
        # Killed while it is still writing: it has no chance to flush, close or checkpoint.
        process.send_signal(signal.SIGKILL)
        await process.wait()
    assert process.returncode == -signal.SIGKILL
    # Acknowledgements written before the kill may still sit unread in the pipe: they count.
    # (A line cut short by the kill, after the last newline, was never acknowledged.)
    rest = (await process.stdout.read()).decode().split("\n")[:-1]
    lines.extend(line.strip() for line in rest if line.strip())
    return lines


def expected_logs(lines: list[str]) -> tuple[dict[int, list[LogEntry]], set[int]]:
    logs: dict[int, list[LogEntry]] = {}
    finished: set[int] = set()
    for line in lines:
        kind, game_id, *rest = line.split()
        if kind == "game":
            logs[int(game_id)] = []
        elif kind == "move":
            logs[int(game_id)].append(("move", int(rest[0]), rest[1]))
        elif kind == "takeback":
            logs[int(game_id)].append(("takeback", int(rest[0]), None))
        else:
            finished.add(int(game_id))
    return logs, finished


async def check_nothing_acknowledged_was_lost(path: str, lines: list[str]) -> None:
    logs, finished = expected_logs(lines)
    storage = await Storage.open(path)
    try:
        for game_id, expected in logs.items():
            stored = [(e.kind, e.ply, e.move) for e in await storage.games.log(game_id)]
            # Every acknowledged entry, in order, exactly once; at most one more entry that was
            # committed but not yet acknowledged when the kill came.
            assert stored[: len(expected)] == expected, f"game {game_id} lost acknowledged moves"
            assert len(stored) <= len(expected) + 1
            assert [e.seq for e in await storage.games.log(game_id)] == list(
                range(1, len(stored) + 1)
            )
            if game_id in finished:
                assert (await storage.games.get(game_id)).status is GameStatus.FINISHED
        report = await storage.load_active_games()
        assert report.unreplayable == ()
        for loaded in report.games:
            entries = await storage.games.log(loaded.record.id)
            stored_log = [(e.kind, e.ply, e.move) for e in entries]
            reference = Game(loaded.record.variant)
            for move in moves_in_effect(stored_log):
                reference.play(move)
            assert loaded.game.position_otn() == reference.position_otn()
            assert loaded.game.turn is reference.turn
    finally:
        await storage.close()


async def test_sigkill_mid_run_loses_nothing_acknowledged(database_target: str) -> None:
    path = database_target
    first_run = await run_and_kill(path, seed=11, first_channel=1_000, moves_before_kill=250)
    await check_nothing_acknowledged_was_lost(path, first_run)
    # The killed database is reopened and written again by a new process, then killed again.
    second_run = await run_and_kill(path, seed=12, first_channel=2_000, moves_before_kill=250)
    await check_nothing_acknowledged_was_lost(path, first_run + second_run)
