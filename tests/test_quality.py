"""The build's own checks: ruff, mypy --strict on every package of the bot, and the import
layering."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "ai": {"engine"},
    "render": {"engine", "ai"},  # it draws the AI's reviews
    "storage": {"engine"},
    "tools": {"engine", "ai", "storage"},
    "discord_bot": {"engine", "ai", "render", "storage"},
}
"""The layers of ``bot`` and what each may import: the engine at the bottom; the AI, storage and
rendering on it (rendering also draws the AI's reviews); the tools that use the AI and storage
together, and the Discord layer, on top. Nothing imports the Discord layer or the tools."""
LAYERS = list(ALLOWED)
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
def test_layers_import_only_what_the_graph_allows(layer: str) -> None:
    allowed = ALLOWED[layer] | {layer}
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


def test_storage_loads_neither_the_renderer_nor_the_ai() -> None:
    """``import bot.storage`` brings in the engine and the database drivers, not Pillow, the
    renderer or the AI (with its process pool)."""
    probe = (
        "import sys, bot.storage; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'PIL' "
        "or m.startswith(('bot.ai', 'bot.render', 'bot.discord_bot'))))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == "[]", run.stdout
