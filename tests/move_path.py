"""Follow one move from the Move menu to the posted board in the real bot process, and count
the modules of the Discord layer it passes through and the times it turns back to one.

``python tests/move_path.py [BOT ARGS]`` runs the bot (as ``python -m bot``) with a profiler
that notes every call of a function defined in ``bot/discord_bot``, by the asyncio task that
made it; at exit it writes the calls of every task that ran a function whose name contains
``TAFL_MOVE_PATH_MARK`` (by default the Move menu's last step) to ``TAFL_MOVE_PATH_OUT`` as JSON:
``[[caller file, callee file, callee name], ...]`` per task, files relative to
``bot/discord_bot`` (the caller ``null`` when outside it, e.g. discord.py).

A coroutine resumed after an ``await`` is not a call: only a frame's first run counts. How the
path is read is :func:`summary`'s.
"""

from __future__ import annotations

import asyncio
import atexit
import inspect
import json
import os
import runpy
import sys
from pathlib import Path
from types import FrameType
from typing import Any

LAYER = str(Path.cwd() / "bot" / "discord_bot") + os.sep
RESUMABLE = inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR
Call = tuple[str | None, str, str]


def module_of(frame: FrameType | None) -> str | None:
    """The Discord layer's file a frame runs in (``cogs/play.py``), or ``None``."""
    if frame is None:
        return None
    name = frame.f_code.co_filename
    return name[len(LAYER) :] if name.startswith(LAYER) else None


def install(out: str, mark: str) -> None:
    """Note the Discord layer's calls from now on; write the marked tasks' calls at exit."""
    traces: dict[int, list[Call]] = {}
    started: set[int] = set()
    alive: list[FrameType] = []  # kept so that no later frame takes a started one's id

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee = module_of(frame)
        if callee is None:
            return
        if frame.f_code.co_flags & RESUMABLE:
            if id(frame) in started:
                return
            started.add(id(frame))
            alive.append(frame)
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return
        if task is not None:
            traces.setdefault(id(task), []).append(
                (module_of(frame.f_back), callee, frame.f_code.co_qualname)
            )

    def dump() -> None:
        sys.setprofile(None)
        marked = [calls for calls in traces.values() if any(mark in name for *_, name in calls)]
        Path(out).write_text(json.dumps(marked))

    atexit.register(dump)
    sys.setprofile(profile)


def summary(calls: list[list[Any]]) -> tuple[list[str], int, int]:
    """The files entered in order, the calls between files, and the turns back: calls between
    files into a file already entered before on the path."""
    entered: list[str] = []
    between = turns = 0
    for caller, callee, _ in calls:
        if caller == callee:
            continue
        between += 1
        if callee in entered:
            turns += 1
        else:
            entered.append(callee)
    return entered, between, turns


if __name__ == "__main__":
    install(
        os.environ["TAFL_MOVE_PATH_OUT"],
        os.environ.get("TAFL_MOVE_PATH_MARK", "on_target_chosen"),
    )
    sys.argv = ["bot", *sys.argv[1:]]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
