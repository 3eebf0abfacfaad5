"""The fast core: which build of the rules engine and the search runs, and how to get the fast one.

    python -m bot.native status    # which runs (--strict: fail unless the fast core does)
    python -m bot.native build     # compile it in place (what `pip install -e .` does)
    python -m bot.native clean     # remove it: the pure Python engine and search run

The fast core is two C extensions built by ``pip install -e .`` (``setup.py``) where a C
compiler exists: ``bot.engine._core`` (the rules engine's board: perft, move generation,
captures, endings) and ``bot.ai._core`` (the search, its evaluation and king tactics), about
60 times the speed of the Python they mirror. Without a compiler the install still succeeds
and the same game runs in pure Python, slower. The Python engine and search stay the
reference: the tests prove the C plays exactly as they do (``tests/test_native.py``).

A build older than an edit of its C sources is ignored (the pure Python runs) and reported
here as stale; ``TAFL_PURE_PYTHON=1`` turns the fast core off.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The directory that holds the ``bot`` package (and ``setup.py`` in a checkout)."""

EXTENSIONS = {"engine": "bot/engine/_core", "search": "bot/ai/_core"}
"""The fast core's extensions by part, as paths without their platform suffix."""

HOW_TO_GET_IT = (
    "install a C compiler (Debian: apt install gcc python3-dev), then run pip install -e . again"
)
"""What a user does to get the fast core where it is missing."""


def _files(stem: Path) -> list[Path]:
    return [
        stem.with_name(stem.name + suffix)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if stem.with_name(stem.name + suffix).exists()
    ]


def compiled(root: Path = ROOT) -> list[str]:
    """The parts (``engine``, ``search``) whose extension is built under ``root``."""
    return [part for part, stem in EXTENSIONS.items() if _files(root / stem)]


def states() -> dict[str, str]:
    """Each part's state in this process: ``fast``, ``missing``, ``stale`` or ``off``."""
    from bot.ai import fast
    from bot.engine import core

    return {"engine": core.state(), "search": fast.state()}


def in_use() -> bool:
    """Whether both parts run on the fast core."""
    return all(state == "fast" for state in states().values())


def stale() -> list[str]:
    """The parts whose build is older than their C sources (they run as pure Python)."""
    return [part for part, state in states().items() if state == "stale"]


def describe() -> str:
    """One line for logs: which core runs, and how to get the fast one where it does not."""
    found = states()
    if all(state == "fast" for state in found.values()):
        return "fast core (C): rules engine and search"
    reasons = set(found.values()) - {"fast"}
    if "off" in reasons:
        why = "the fast core is turned off (TAFL_PURE_PYTHON)"
        how = "unset TAFL_PURE_PYTHON"
    elif "stale" in reasons:
        why = f"the fast core is older than its C sources ({', '.join(stale())})"
        how = "run pip install -e . again"
    else:
        why = "the fast core is not built"
        how = HOW_TO_GET_IT
    return f"pure Python, about 60 times slower: {why}; to get it, {how}"


def build(root: Path = ROOT, *, quiet: bool = False) -> None:
    """Compile the fast core in place under ``root`` (a checkout with ``setup.py``); raises
    ``RuntimeError`` when it cannot be built."""
    if not (root / "setup.py").exists():
        raise RuntimeError(f"no setup.py under {root}: build from a checkout")
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace", "--force"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    missing = [part for part in EXTENSIONS if part not in compiled(root)]
    if done.returncode != 0 or missing:
        output = (done.stdout + done.stderr).strip().splitlines()
        raise RuntimeError("the fast core did not build:\n" + "\n".join(output[-30:]))
    if not quiet:
        print(f"built the fast core under {root}")


def clean(root: Path = ROOT) -> list[Path]:
    """Remove the fast core's extensions under ``root``; returns the files removed."""
    removed = []
    for stem in EXTENSIONS.values():
        for path in _files(root / stem):
            path.unlink()
            removed.append(path)
    return removed


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.native",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=("build", "status", "clean"))
    parser.add_argument(
        "--strict", action="store_true", help="status: fail unless the fast core runs"
    )
    args = parser.parse_args(argv)
    if args.command == "build":
        try:
            build()
        except RuntimeError as error:
            print(f"{error}\nthe pure Python engine and search stay in use", file=sys.stderr)
            return 1
        return 0
    if args.command == "clean":
        removed = clean()
        print(f"removed {len(removed)} files; the engine and search run as pure Python")
        return 0
    print(f"engine and search: {describe()}")
    if stale() or (args.strict and not in_use()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
