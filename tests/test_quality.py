"""The build's own checks: ruff, mypy --strict on every package of the bot, the import
layering (no circles, type-only imports included) and who may call storage."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tokenize
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
    "i18n": set(),  # languages and their catalogues, knowing nothing of tafl or Discord
    "discord_bot": {"engine", "ai", "render", "storage", "tournament", "i18n"},
}
"""The layers of ``bot`` and what each may import: the engine at the bottom; the AI, storage,
rendering and tournament logic on it (rendering also draws the AI's reviews); the translation
library (``i18n``) beside them, on nothing; the tools that use the AI and storage together, and
the Discord layer, on top. Nothing imports the Discord layer or the tools."""
LAYERS = list(ALLOWED)
STRICT = [f"bot/{layer}" for layer in LAYERS]
CONFINED: dict[str, tuple[str, ...]] = {
    "discord": ("bot/discord_bot/",),
    "prometheus_client": (
        "bot/discord_bot/runtime/metrics.py",
        "bot/discord_bot/runtime/health.py",
    ),
    "pairing_core": ("bot/tournament/pairing_library.py",),
    "babel": (
        "bot/i18n/",
        "bot/discord_bot/compose/catalogs.py",
        "bot/discord_bot/main/catalogs.py",
    ),
}
"""Libraries only some of the bot's files may import: discord.py in the Discord layer alone, and
the Prometheus client in the process's metrics and health endpoint alone (the layers below
expose plain numbers and callbacks; they must not grow a dependency on how they are watched),
the pairing library behind the tournament layer's one wrapper, and Babel in the translation
layer and the catalogues' extraction and checks alone (compose words sentences through a
``Language``, never through Babel directly)."""
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


def _bot_imports(path: Path, known: set[str]) -> dict[str, bool]:
    """The ``bot`` modules (of ``known``) that ``path`` imports, each with whether it is
    imported for type checking only (under ``if TYPE_CHECKING:``) rather than when the file
    runs (inside functions too); relative imports resolved, and ``from package import module``
    read as importing the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = _module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(child) for inner in node.body for child in ast.walk(inner))
    found: dict[str, bool] = {}
    for node in ast.walk(tree):
        names: set[str] = set()
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known
            names.update(submodules or {base})
        for name in names & known:
            found[name] = found.get(name, True) and id(node) in typing_only
    found.pop(module, None)
    return found


def _modules() -> dict[str, Path]:
    """Every module of ``bot`` by name: its Python files, and the C extensions by their type
    stubs (``_core.pyi``), so that ``from . import _core`` reads as importing the extension,
    not its package."""
    files = [*(ROOT / "bot").rglob("*.py"), *(ROOT / "bot").rglob("*.pyi")]
    return {_module_of(path): path for path in files}


def _graph(*, type_checking: bool = True) -> dict[str, set[str]]:
    """Which ``bot`` module imports which, imports for type checking only included (or not)."""
    modules = _modules()
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        imports = _bot_imports(path, known)
        graph[module] = {name for name, typing in imports.items() if type_checking or not typing}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle of ``graph`` (its modules in order, the first repeated last), if any."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for name in sorted(graph[module]):
            if state.get(name) == 1:
                return [*path[path.index(name) :], name]
            if name not in state:
                found = visit(name)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_no_module_imports_itself_back_through_others() -> None:
    """No import cycle between files, imports for type checking only included: a circle of
    annotations is a circle of dependencies all the same (each file needs the others to be
    understood, checked or changed)."""
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_runtime_sits_below_the_client_and_the_entry_point_above_it() -> None:
    """``runtime/``, the process's services, imports nothing of the Discord layer outside
    itself (type checking included: it reads the bot through small protocols and callbacks);
    ``main/``, the entry point, is imported by ``python -m bot`` alone; the client, the
    composition root, by the entry point alone."""
    graph = _graph()
    runtime = "bot.discord_bot.runtime"
    main = "bot.discord_bot.main"
    for module, names in graph.items():
        if module == runtime or module.startswith(runtime + "."):
            above = {
                name for name in names
                if name.startswith("bot.discord_bot") and not name.startswith(runtime)
            }  # fmt: skip
            assert not above, f"{module} imports {sorted(above)}"
        in_main = module == main or module.startswith(main + ".")
        if not in_main and module != "bot.__main__":
            entry = {name for name in names if name == main or name.startswith(main + ".")}
            assert not entry, f"{module} imports the entry point: {sorted(entry)}"
        if "bot.discord_bot.client" in names and not in_main:
            raise AssertionError(f"{module} imports the client")


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
    layers = {f"bot.{layer}" for layer in ("engine", "ai", "render", "storage", "i18n")}
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


STORAGE_WIRING = (
    "bot/discord_bot/app/",
    "bot/discord_bot/client.py",
    "bot/discord_bot/runtime/",
    "bot/discord_bot/main/",
)
"""Where the Discord layer may call storage: its services, the composition root that builds
them, and the process's wiring (its health check, metrics and entry point)."""


def _storage_reaches(path: Path) -> list[int]:
    """The lines where ``path`` reaches the database: an attribute ``.storage`` (``self.bot.
    storage.games...``), a name or parameter ``storage``, or any use of a name it imports from
    ``bot.storage`` that is the storage, the database or a store (``Storage``, ``Database``,
    ``GameStore``...). Storage's plain values (records, errors, ``replay_game``) are not
    calls and do not count."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    handles: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").split(".")[:2] == ["bot", "storage"]
        ):
            handles.update(
                alias.asname or alias.name
                for alias in node.names
                if alias.name in ("Storage", "Database") or alias.name.endswith("Store")
            )
    lines = []
    for node in ast.walk(tree):
        if (
            (isinstance(node, ast.Attribute) and node.attr == "storage")
            or (isinstance(node, ast.Name) and (node.id == "storage" or node.id in handles))
            or (isinstance(node, ast.arg) and node.arg == "storage")
        ):
            lines.append(node.lineno)
    return sorted(lines)


def test_only_the_services_and_the_wiring_call_storage() -> None:
    """In the Discord layer only the services (``app/``) call storage, besides the composition
    root and the process's wiring (:data:`STORAGE_WIRING`): the adapters (cogs, the table,
    views, desks) ask a service, which owns the rules of play and records what happened. Read
    from the code (:func:`_storage_reaches` says what counts as reaching storage). The layers
    below the Discord layer are not its adapters (``bot/tools`` is a tool of its own that
    opens the database)."""
    callers = {}
    for path in sorted((ROOT / "bot" / "discord_bot").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(STORAGE_WIRING):
            continue
        lines = _storage_reaches(path)
        if lines:
            callers[relative] = lines
    assert not callers, f"storage called outside the services (file: lines): {callers}"


ANY_LINES_AT_MOST = 8
"""The lines of ``bot`` that may name ``typing.Any`` (the issue asked for fewer than 15). The
edges left untyped: a database row's columns (``storage/database.py``: a column is typed by the
code reading it), the options the client hands discord.py (``client.py``: discord.py's type for
them is private and differs between the plain and the sharded bot), and the watchdog's
overrides of discord.py's overloaded answers (``table.py``'s ``TimelyResponse``); each file's
import adds one."""


def _lines_naming_any(path: Path) -> set[int]:
    """The lines whose code (not a comment or a docstring) names ``Any``."""
    source = path.read_text(encoding="utf-8")
    return {
        token.start[0]
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.NAME and token.string == "Any"
    }


def test_any_stays_rare() -> None:
    """``Any`` turns mypy off wherever it flows: the C modules have stubs, the AI answers with
    typed replies, statements take typed values, stored records are read as TypedDicts or
    narrowed objects, the table sends TypedDicts of discord.py's types."""
    found = {
        path.relative_to(ROOT).as_posix(): sorted(_lines_naming_any(path))
        for path in sorted((ROOT / "bot").rglob("*.py"))
    }
    found = {name: lines for name, lines in found.items() if lines}
    assert sum(len(lines) for lines in found.values()) <= ANY_LINES_AT_MOST, found


CAPTIONED = {"board_view_from_game", "replay_views", "view_before_move", "analysis_view"}


def test_the_bot_captions_its_images_in_the_compositions_words() -> None:
    """A captioned board image drawn by the bot passes the composition's words (``words=``):
    the renderer's English defaults are the command line's, never a player's."""
    missing = []
    for path in sorted((ROOT / "bot" / "discord_bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            keywords = {k.arg for k in node.keywords}
            if name in CAPTIONED and "caption" in keywords and "words" not in keywords:
                missing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert missing == [], "captioned without the composition's words: " + ", ".join(missing)


def test_the_adapters_name_stored_types_through_their_services() -> None:
    """Cogs and desks take the stored types they name from storage's package or their
    service's module, never from storage's inner modules (where its stores live)."""
    adapters = sorted((ROOT / "bot" / "discord_bot" / "cogs").glob("*.py"))
    adapters += sorted((ROOT / "bot" / "discord_bot").glob("*_desk.py"))
    found = {}
    for path in adapters:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lines = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.storage.")
        ]
        if lines:
            found[path.relative_to(ROOT).as_posix()] = lines
    assert found == {}, f"storage's inner modules imported by adapters: {found}"
