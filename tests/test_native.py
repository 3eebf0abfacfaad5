"""The compiled build (``python -m bot.native build``) plays exactly as the pure Python does.

The build compiles a copy of the package in the test's folder, then a separate interpreter runs
perft and fixed-depth searches on it; they must give the same leaf counts, moves, scores and
node counts as the sources running here. Where there is no C compiler the test is skipped, except
in CI (``CI=true``), where it must run.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from bot import native
from bot.engine.perft import PUBLISHED

ROOT = Path(__file__).resolve().parent.parent

PERFT = [("tablut", 3), ("brandubh", 4), ("copenhagen", 2), ("fidchell", 3)]
SEARCHES = [
    ("tablut", [], 4),
    ("tablut", ["e2-c2", "c5-c3", "a4-b4", "e3-h3"], 4),
    ("brandubh", ["d2-c2", "e4-e2", "d6-e6", "c4-c5"], 5),
    ("copenhagen", ["d1-d3", "e5-e2", "g1-g3", "f4-c4"], 3),
    ("tablut-corner", [], 4),
]

def _compiler_missing() -> str | None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").exists():
        return "no Python headers"
    return None


def measure(
    perft_rows: list[tuple[str, int]], searches: list[tuple[str, list[str], int]]
) -> dict[str, list[list[int]]]:
    """Perft counts and fixed-depth search results, run here and, as source text, in the probe."""
    from bot.ai.search import Searcher
    from bot.engine import Board, Game, get_variant
    from bot.engine.perft import perft

    out: dict[str, list[list[int]]] = {"perft": [], "search": []}
    for variant, depth in perft_rows:
        result = perft(Board(get_variant(variant)), depth, captures=True)
        out["perft"].append([result.leaves, result.captures or 0])
    for variant, moves, depth in searches:
        game = Game(variant)
        for text in moves:
            game.play(text)
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        r = Searcher(game.variant).search(board, max_depth=depth)
        out["search"].append([r.move or 0, r.score, r.depth, r.nodes])
    return out


# The probe runs in another interpreter on the compiled copy: the same measure(), plus which
# files were imported.
_PROBE = (
    "import json, sys\n"
    + inspect.getsource(measure)
    + "\nimport bot.ai.search, bot.engine.board\n"
    "from bot import native\n"
    "out = measure(*json.loads(sys.argv[1]))\n"
    "out['files'] = [bot.ai.search.__file__, bot.engine.board.__file__]\n"
    "out['describe'] = native.describe()\n"
    "print(json.dumps(out))\n"
)


def test_the_compiled_build_plays_exactly_as_the_sources(tmp_path: Path) -> None:
    missing = _compiler_missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test the compiled build, but there is {missing}")
        pytest.skip(f"the compiled build needs a C compiler: {missing}")
    if native.compiled():
        pytest.skip("this checkout is itself compiled; the comparison needs pure sources here")
    copy = tmp_path / "project"
    shutil.copytree(
        ROOT / "bot",
        copy / "bot",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "native-build.json"),
    )
    native.build(copy, quiet=True)
    assert native.compiled(copy) == list(native.MODULES)
    assert native.stale(copy) == []

    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps([PERFT, SEARCHES])],
        cwd=copy,
        env=dict(os.environ, PYTHONPATH=str(copy)),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    compiled = json.loads(done.stdout)
    assert all(not name.endswith(".py") for name in compiled["files"]), compiled["files"]
    assert compiled["describe"] == f"compiled ({len(native.MODULES)} modules)"

    pure = measure(PERFT, SEARCHES)
    for (variant, depth), row in zip(PERFT, compiled["perft"], strict=True):
        assert tuple(row) == PUBLISHED[(variant, depth)], (variant, depth)
    assert compiled["perft"] == pure["perft"]
    assert compiled["search"] == pure["search"]

    # An edited source makes the build stale, and the status command says so.
    search = copy / "bot" / "ai" / "search.py"
    search.write_text(search.read_text() + "\n# edited\n")
    assert native.stale(copy) == ["bot/ai/search.py"]
    assert "STALE" in native.describe(copy)
    native.clean(copy)
    assert native.compiled(copy) == []
    assert not list(copy.rglob("*.so"))


def test_status_says_which_build_runs(capsys: pytest.CaptureFixture[str]) -> None:
    if native.compiled():
        pytest.skip("this checkout is compiled")
    assert native.main(["status"]) == 0
    assert "engine and search: pure Python" in capsys.readouterr().out
    # The Docker image's check: every hot module must run compiled.
    assert native.main(["status", "--strict"]) == 1
