"""Builds the fast core, the C extensions of the rules engine and the search, where it can.

``pip install -e .`` (or ``pip install .``) runs this. The extensions are optional: without a C
compiler or Python's headers the build prints a warning and the install goes on, and the bot
runs on the pure Python engine and search (``python -m bot.native status`` says which).
``TAFL_NO_NATIVE=1`` skips the build (the Docker image builds the core in its own stage).

Each extension is compiled with the SHA-256 of its sources, so that a build older than an edit
of them is ignored at run time (``bot/engine/core.py``, ``source_digest``: the same rule).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
ENGINE = Path("bot/engine/csrc")
AI = Path("bot/ai/csrc")


def source_digest(*directories: Path) -> str:
    """As ``bot.engine.core.source_digest`` (a test checks that they agree)."""
    digest = hashlib.sha256()
    for directory in directories:
        for path in sorted((ROOT / directory).glob("*.[ch]")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def extension(name: str, directories: list[Path], skip: tuple[str, ...] = ()) -> Extension:
    """The extension ``name`` of the ``*.c`` files in ``directories`` but ``skip``."""
    sources = sorted(
        str(path.relative_to(ROOT))
        for directory in directories
        for path in (ROOT / directory).glob("*.c")
        if str(path.relative_to(ROOT)) not in skip
    )
    return Extension(
        name,
        sources=sources,
        include_dirs=[str(directory) for directory in directories],
        define_macros=[("TAFL_SOURCE_DIGEST", f'"{source_digest(*directories)}"')],
        extra_compile_args=["-O3", "-std=c11"],
        optional=True,  # no compiler: warn and install the pure Python engine
    )


def extensions() -> list[Extension]:
    if os.environ.get("TAFL_NO_NATIVE", "") not in ("", "0"):
        return []
    found = [extension("bot.engine._core", [ENGINE])]
    if (ROOT / AI).is_dir():
        # The search's extension has the engine's board compiled in, not its Python module.
        found.append(extension("bot.ai._core", [ENGINE, AI], skip=(str(ENGINE / "module.c"),)))
    return found


setup(ext_modules=extensions())
