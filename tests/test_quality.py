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
    "tournament": {"engine"},  # pairing and standings name the sides of a game
    "tools": {"engine", "ai", "storage"},
    "discord_bot": {"engine", "ai", "render", "storage", "tournament"},
}
"""The layers of ``bot`` and what each may import: the engine at the bottom; the AI, storage,
rendering and tournament logic on it (rendering also draws the AI's reviews); the tools that
use the AI and storage together, and the Discord layer, on top. Nothing imports the Discord
layer or the tools."""
LAYERS = list(ALLOWED)
STRICT = [f"bot/{layer}" for layer in LAYERS]
CONFINED: dict[str, tuple[str, ...]] = {
    "discord": ("bot/discord_bot/",),
    "prometheus_client": (
        "bot/discord_bot/runtime/metrics.py",
        "bot/discord_bot/runtime/health.py",
    ),
    "pairing_core": ("bot/tournament/pairing_library.py",),
}
"""Libraries only some of the bot's files may import: discord.py in the Discord layer alone, and
the Prometheus client in the process's metrics and health endpoint alone (the layers below
expose plain numbers and callbacks; they must not grow a dependency on how they are watched),
and the pairing library behind the tournament layer's one wrapper."""
PURE_EXCEPT: dict[str, str] = {"bot/tournament/pairing_library.py": "pairing_core"}
"""The one library a pure layer may use, in the one file that wraps it."""


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


@pytest.mark.parametrize("library", sorted(CONFINED))
def test_confined_libraries_are_imported_only_where_allowed(library: str) -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        for name in _imports(path):
            if name.split(".")[0] == library:
                assert relative.startswith(CONFINED[library]), f"{relative} imports {name}"


@pytest.mark.parametrize("layer", ["engine", "ai", "tournament"])
def test_pure_layers_use_only_the_standard_library(layer: str) -> None:
    stdlib = set(sys.stdlib_module_names)
    for path in sorted((ROOT / "bot" / layer).rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        for name in _imports(path):
            top = name.split(".")[0]
            allowed = top in stdlib or top == "bot" or PURE_EXCEPT.get(relative) == top
            assert allowed, f"{relative} imports {name}"


def test_ruff_is_clean() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "bot", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format_is_kept() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "bot", "tests", "benchmarks"],
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
    renderer, the AI (with its process pool), discord.py or the Prometheus client."""
    probe = (
        "import sys, bot.storage; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PIL', 'discord', 'prometheus_client') "
        "or m.startswith(('bot.ai', 'bot.render', 'bot.discord_bot'))))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == "[]", run.stdout


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path, known: set[str]) -> set[str]:
    """The ``bot`` modules (of ``known``) that ``path`` imports when it runs (inside functions
    too), not those imported only for type checking; relative imports resolved, and ``from
    package import module`` read as importing the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = _module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for inner in node.body for child in ast.walk(inner))
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known
            names.update(submodules or {base})
    return {name for name in names if name in known}


def _graph() -> dict[str, set[str]]:
    modules = {_module_of(path): path for path in (ROOT / "bot").rglob("*.py")}
    known = set(modules)
    return {module: _runtime_imports(path, known) - {module} for module, path in modules.items()}


def test_no_module_imports_itself_back_through_others() -> None:
    """No import cycle between files (imports for type checking only aside)."""
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for name in sorted(graph[module]):
            if state.get(name) == 1:
                cycle = [*path[path.index(name) :], name]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if name not in state:
                visit(name)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_the_discord_layers_parts_import_only_what_they_should() -> None:
    """Cogs never import one another (they share services through the bot); the services
    (``app``) know nothing of Discord or of the adapters above them."""
    graph = _graph()
    cogs = {m for m in graph if m.startswith("bot.discord_bot.cogs.")}
    for cog in cogs:
        assert not graph[cog] & cogs, f"{cog} imports {sorted(graph[cog] & cogs)}"
    for path in sorted((ROOT / "bot" / "discord_bot" / "app").rglob("*.py")):
        module = _module_of(path)
        for name in _imports(path):
            assert name.split(".")[0] != "discord", f"{module} imports {name}"
        outside = {
            name for name in graph[module]
            if name.startswith("bot.discord_bot.") and not name.startswith("bot.discord_bot.app")
        }  # fmt: skip
        assert not outside, f"{module} imports {sorted(outside)}"


def test_the_composition_imports_neither_discord_nor_what_sends() -> None:
    """``compose`` builds what players see from the services' events as plain data: it never
    imports discord.py (not even for types) nor any part of the Discord layer but the services'
    event types and itself, so that it can be tested, and translated, on its own."""
    allowed = ("bot.discord_bot.app", "bot.discord_bot.compose")
    layers = {f"bot.{layer}" for layer in ("engine", "ai", "render", "storage")}
    for path in sorted((ROOT / "bot" / "discord_bot" / "compose").rglob("*.py")):
        module = _module_of(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(tree):  # imports for type checking too
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*parent, base] if base else parent)
                names = [base]
            else:
                continue
            for name in names:
                assert name.split(".")[0] != "discord", f"{module} imports {name}"
                if name.startswith("bot."):
                    inside = name.startswith(allowed) or ".".join(name.split(".")[:2]) in layers
                    assert inside, f"{module} imports {name}"
