"""The compiled build of the rules engine and the AI's search (mypyc), with Python as fallback.

    python -m bot.native build    # compile the hot modules in place (mypy and a C compiler)
    python -m bot.native status   # which modules run compiled, and whether the build is stale
                                  # (--strict: fail unless all of them are, and fresh)
    python -m bot.native clean    # remove the compiled modules: the sources run again

mypyc compiles this project's type-annotated Python to C extensions. Python imports an
extension before a source file of the same name, so after ``build`` the compiled modules stand
in for their sources with no other change, and the search runs about twice as fast
(``benchmarks/ai.py`` prints both). Nothing else needs them: without a build, or after
``clean``, the same sources run as plain Python.

A compiled module does not see later edits of its source. ``build`` records each source's
SHA-256 in ``bot/native-build.json``; :func:`stale` compares them, ``status`` reports it and
the test suite refuses to run on a stale build.

This module imports nothing from the layers it compiles, so any layer may ask it.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The directory that holds the ``bot`` package."""

MODULES = (
    "bot/engine/tables.py",
    "bot/engine/rules.py",
    "bot/engine/board.py",
    "bot/ai/geometry.py",
    "bot/ai/tactics.py",
    "bot/ai/evaluation.py",
    "bot/ai/search.py",
)
"""The modules on the search's hot path, compiled together so their calls stay native."""

GROUP = "bot.native"
"""mypyc's group name: its shared runtime library becomes ``bot/native__mypyc.*.so``."""

MANIFEST = "bot/native-build.json"


def _extensions(source: Path) -> list[Path]:
    stem = source.with_suffix("")
    return [
        stem.with_name(stem.name + suffix)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if stem.with_name(stem.name + suffix).exists()
    ]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled(root: Path = ROOT) -> list[str]:
    """The hot modules that have a compiled extension beside their source."""
    return [module for module in MODULES if _extensions(root / module)]


def stale(root: Path = ROOT) -> list[str]:
    """Compiled modules whose source changed since the build (or whose build is unrecorded)."""
    built = compiled(root)
    if not built:
        return []
    try:
        recorded = json.loads((root / MANIFEST).read_text())
    except (OSError, ValueError):
        return built
    return [module for module in built if recorded.get(module) != _digest(root / module)]


def describe(root: Path = ROOT) -> str:
    """One line for logs: ``compiled (7 modules)``, ``pure Python`` or what is stale."""
    built = compiled(root)
    if not built:
        return "pure Python"
    old = stale(root)
    if old:
        return f"compiled, but STALE for {', '.join(old)} (run: python -m bot.native build)"
    if len(built) < len(MODULES):
        return f"partly compiled ({len(built)} of {len(MODULES)} modules)"
    return f"compiled ({len(built)} modules)"


def clean(root: Path = ROOT) -> list[Path]:
    """Remove the compiled extensions, the shared runtime and the manifest; returns them."""
    removed = []
    runtime = root / (GROUP.replace(".", "/") + "__mypyc.py")
    for source in [*(root / module for module in MODULES), runtime]:
        for path in _extensions(source):
            path.unlink()
            removed.append(path)
    manifest = root / MANIFEST
    if manifest.exists():
        manifest.unlink()
        removed.append(manifest)
    return removed


_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

modules = sys.argv[1:]
sys.argv[1:] = []
setup(
    name="tafl-bot-native",
    packages=[],
    ext_modules=mypycify(
        modules, group_name={group!r}, opt_level="3", target_dir={temp!r} + "/c"
    ),
    script_args=[
        "build_ext", "--inplace", "--build-temp", {temp!r} + "/objects",
        "--build-lib", {temp!r} + "/lib",
    ],
)
"""


def build(root: Path = ROOT, *, quiet: bool = False) -> None:
    """Compile :data:`MODULES` in place under ``root``; raises ``RuntimeError`` on failure."""
    clean(root)
    with tempfile.TemporaryDirectory(prefix="tafl-native-") as temp:
        script = Path(temp) / "setup_native.py"
        script.write_text(_SETUP.format(group=GROUP, temp=temp))
        done = subprocess.run(
            [sys.executable, str(script), *MODULES],
            cwd=root,
            capture_output=True,
            text=True,
        )
    if done.returncode != 0:
        clean(root)
        output = (done.stdout + done.stderr).strip().splitlines()
        raise RuntimeError("mypyc failed:\n" + "\n".join(output[-30:]))
    if not quiet:
        print(f"compiled {len(MODULES)} modules under {root}")
    manifest = {module: _digest(root / module) for module in MODULES}
    (root / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.native",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=("build", "status", "clean"))
    parser.add_argument(
        "--strict",
        action="store_true",
        help="status: fail unless every hot module runs compiled and up to date",
    )
    args = parser.parse_args(argv)
    if args.command == "build":
        try:
            build()
        except (RuntimeError, OSError) as error:
            print(f"build failed, pure Python stays in use: {error}", file=sys.stderr)
            return 1
    elif args.command == "clean":
        removed = clean()
        print(f"removed {len(removed)} files; the engine and search run as pure Python")
        return 0
    print(f"engine and search: {describe()}")
    if stale() or (args.strict and len(compiled()) < len(MODULES)):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
