"""The web client's sources and build (``web/``, built into ``bot/discord_bot/web/static``):
the digest its bundle carries, and a copy of ``web/`` with its packages installed by npm, where
the tests rebuild the bundle and run the client's own tests."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
STATIC = ROOT / "bot" / "discord_bot" / "web" / "static"
BUILT = ("board.js", "activity.js", "board.css")
"""What ``npm run build`` writes into the package."""
CONFIG = ("package.json", "package-lock.json", "build.mjs", "tsconfig.json")
HEADER = "/* tafl board, built from sources sha256:{digest} */"


def sources(web: Path = WEB) -> list[str]:
    """The files the bundle is built from, as ``web/build.mjs`` lists them (sorted, ``/``)."""
    found = list(CONFIG)
    found += [
        path.relative_to(web).as_posix() for path in (web / "src").rglob("*") if path.is_file()
    ]
    return sorted(found)


def source_digest(web: Path = WEB) -> str:
    """The SHA-256 that ``web/build.mjs`` writes on the first line of each built file."""
    digest = hashlib.sha256()
    for name in sources(web):
        digest.update(name.encode() + b"\0" + (web / name).read_bytes() + b"\0")
    return digest.hexdigest()


def npm() -> str | None:
    """The npm command, where this machine has Node."""
    return shutil.which("npm")


_installed: dict[Path, Path] = {}
"""The copy installed for each test session (by its base folder): npm ci once per run."""


def installed_once(base: Path) -> Path:
    """:func:`installed_copy` under ``base``, made once per test session."""
    if base not in _installed:
        _installed[base] = installed_copy(base / "web-client")
    return _installed[base]


def installed_copy(folder: Path) -> Path:
    """A copy of ``web/`` (without its packages) under ``folder``, its packages installed by
    ``npm ci`` from the lockfile; ``folder/bot/discord_bot/web/static`` receives its build."""
    npm_command = npm()
    assert npm_command is not None
    web = folder / "web"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(WEB, web, ignore=shutil.ignore_patterns("node_modules"))
    (folder / "bot" / "discord_bot" / "web" / "static").mkdir(parents=True)
    subprocess.run(
        [npm_command, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=web,
        check=True,
        timeout=300,
        env={**os.environ, "NO_UPDATE_NOTIFIER": "1"},
    )
    return web
