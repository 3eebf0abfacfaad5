"""``python -m bot health [--ready]``: whether this machine's bot processes are alive (or ready),
for a container's healthcheck (Docker Compose's ``healthcheck``).

It asks ``/healthz`` (with ``--ready``, ``/readyz``) of each process, on ``TAFL_HTTP_PORT`` and
the ports after it, one per process of ``TAFL_PROCESSES`` (as ``python -m bot cluster`` gives
them out), and exits 0 when every one says yes, else 1, printing one line that says why: the
form a healthcheck keeps and shows (``docker inspect``).
"""

from __future__ import annotations

import argparse
import os
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence

from dotenv import find_dotenv, load_dotenv

from ..runtime.config import ConfigError, http_endpoints

TIMEOUT = 3.0
"""Seconds to wait for each process's answer (the readiness check itself waits at most 2 s
for the database)."""


def ask(host: str, port: int, path: str, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """Ask one process; whether it said yes (200), and what it said or why it did not."""
    address = f"[{host}]" if ":" in host else host
    url = f"http://{address}:{port}{path}"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return True, _first_line(response.read())
    except urllib.error.HTTPError as refused:  # 503: it answers, and says why not
        with refused:
            return False, _first_line(refused.read()) or f"{refused.code} {refused.reason}"
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        return False, f"no answer ({reason}): is the process running?"


def _first_line(body: bytes) -> str:
    text = body.decode("utf-8", errors="replace").strip()
    return text.splitlines()[0] if text else ""


def run(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """Entry point of ``python -m bot health``; 0 when every process is alive (or ready), else
    1. ``environ`` replaces the environment (and ``.env``) in tests."""
    parser = argparse.ArgumentParser(
        prog="python -m bot health",
        description="Check that this machine's bot processes are alive (or, with --ready,"
        " serving their shards), through their /healthz or /readyz (TAFL_HTTP_PORT).",
    )
    parser.add_argument(
        "--ready",
        action="store_true",
        help="ask whether each process serves its shards (/readyz), not only whether it runs",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for each process (default {TIMEOUT:g})",
    )
    arguments = parser.parse_args(argv)
    if environ is None:
        load_dotenv(find_dotenv(usecwd=True), override=False)
        environ = os.environ
    try:
        host, ports = http_endpoints(environ)
    except ConfigError as error:
        print(f"unhealthy: {error}")
        return 1
    path = "/readyz" if arguments.ready else "/healthz"
    word = "ready" if arguments.ready else "alive"
    for port in ports:
        fine, said = ask(host, port, path, arguments.timeout)
        if not fine:
            print(f"not {word}: the process on port {port}: {said}")
            return 1
    if len(ports) == 1:
        print(said if arguments.ready else f"{word} (port {ports[0]})")
    else:
        print(f"{word}: {len(ports)} processes (ports {ports[0]}-{ports[-1]})")
    return 0
