"""The build's own checks: ruff, mypy --strict on every package of the bot, and the import
layering."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["engine", "ai", "render", "storage", "discord_bot"]
"""Each layer may import only the layers to its left (and never the Discord layer)."""
STRICT = [f"bot/{layer}" for layer in LAYERS]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_layers_import_only_leftwards(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    for path in sorted((ROOT / "bot" / layer).rglob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "bot" and len(parts) > 1 and parts[1] in LAYERS:
                assert parts[1] in allowed, f"{path.relative_to(ROOT)} imports {name}"


@pytest.mark.parametrize("layer", ["engine", "ai"])
def test_pure_layers_use_only_the_standard_library(layer: str) -> None:
    stdlib = set(sys.stdlib_module_names)
    for path in sorted((ROOT / "bot" / layer).rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            assert top in stdlib or top == "bot", f"{path.relative_to(ROOT)} imports {name}"


def test_ruff_is_clean() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "bot", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict_on_every_layer() -> None:
    targets = [t for t in STRICT if any((ROOT / t).glob("*.py"))]
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *targets],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
