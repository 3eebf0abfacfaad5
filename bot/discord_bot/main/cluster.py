"""``python -m bot cluster --processes N``: the bot's shards split over N supervised processes.

The shard count is ``TAFL_SHARD_COUNT``, else the count Discord recommends for the bot
(``GET /gateway/bot``). The shards (``TAFL_SHARD_IDS`` when set, else all) are cut into N
contiguous ranges, and each range runs in its own ``python -m bot`` with ``TAFL_SHARD_COUNT`` and
``TAFL_SHARD_IDS`` set, under a name of its own (``TAFL_INSTANCE``) that its restarts keep, and
with ``TAFL_HTTP_PORT`` (when set) counted up from the first process; everything else in the
environment is passed on as it is. See :mod:`.supervisor` for restarts and stopping.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
from collections.abc import Mapping, Sequence

import aiohttp
import discord

from bot.storage import format_ranges, is_postgres_url, redact, split_shards

from ..runtime.config import ConfigError, Settings, http_port, load_settings
from ..runtime.health import RefusalServer
from ..runtime.logs import setup_logging
from .supervisor import CONFIG_ERROR, Child, Supervisor

log = logging.getLogger("bot.cluster")

ASK_TIMEOUT = 15.0
"""Seconds to wait for Discord's answer to ``GET /gateway/bot``."""
USER_AGENT = f"DiscordBot (https://github.com/Rapptz/discord.py, {discord.__version__}) tafl-bot"
"""Discord asks every API client to name itself this way."""


MAX_PORT = 65535


class ClusterError(Exception):
    """The cluster cannot start; the message says why in one sentence."""


async def recommended_shard_count(api_base: str, token: str) -> int:
    """The shard count Discord recommends for the bot with ``token``; a :class:`ClusterError`
    saying what went wrong if it cannot be had."""
    url = f"{api_base.rstrip('/')}/gateway/bot"
    headers = {"Authorization": f"Bot {token}", "User-Agent": USER_AGENT}
    timeout = aiohttp.ClientTimeout(total=ASK_TIMEOUT)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(url, headers=headers) as response,
        ):
            if response.status == 401:
                raise ClusterError(
                    "Discord refused the token in DISCORD_TOKEN (401 from GET /gateway/bot):"
                    " check it in the developer portal"
                )
            if response.status != 200:
                raise ClusterError(
                    f"GET {url} answered {response.status} {response.reason}: try again later,"
                    " or set TAFL_SHARD_COUNT so that the count need not be asked"
                )
            answer: object = await response.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError, OSError, ValueError) as error:
        reason = str(error) or type(error).__name__
        raise ClusterError(
            f"cannot ask Discord how many shards to run (GET {url}: {reason}); set"
            " TAFL_SHARD_COUNT to skip asking"
        ) from None
    shards = answer.get("shards") if isinstance(answer, dict) else None
    if not isinstance(shards, int) or isinstance(shards, bool) or shards < 1:
        raise ClusterError(f"GET {url} did not say how many shards to run: {answer!r:.200}")
    return shards


def check_database(settings: Settings, processes: int) -> None:
    """Several processes are supported on PostgreSQL only: a :class:`ConfigError` otherwise."""
    if processes > 1 and not is_postgres_url(settings.database):
        raise ConfigError(
            f"{processes} processes cannot share the SQLite file {redact(settings.database)}:"
            " use PostgreSQL (TAFL_DATABASE=postgresql://…), or --processes 1"
        )


def plan(
    settings: Settings,
    count: int,
    processes: int,
    *,
    environ: Mapping[str, str],
    command: Sequence[str] = (sys.executable, "-m", "bot"),
) -> list[Child]:
    """The processes to run: ``command`` once per range of shards, its environment ``environ``
    plus the range in ``TAFL_SHARD_COUNT`` and ``TAFL_SHARD_IDS``, and ``TAFL_AI_WORKERS``
    (when not set: the machine's cores divided between the processes, at least 1 each)."""
    ids = settings.shards.ids if settings.shards is not None else range(count)
    if processes < 1:
        raise ConfigError(f"--processes must be at least 1, not {processes}")
    if processes > len(set(ids)):
        # A process without a shard would have nothing to do: a deployment that asks for more
        # processes than Discord currently wants shards (docker-compose's TAFL_PROCESSES) runs
        # one per shard rather than refusing to start.
        log.warning(
            "%d processes asked for but there are only %d shards to run: running %d",
            processes, len(set(ids)), len(set(ids)),
        )  # fmt: skip
        processes = len(set(ids))
    # The machine's cores shared out, unless TAFL_AI_WORKERS says how many each process runs.
    workers = environ.get("TAFL_AI_WORKERS", "").strip() or str(
        max(1, (os.cpu_count() or 2) // processes)
    )
    # Each child runs under a name of its own that its restarts keep (the supervisor restarts a
    # child only once it has exited), so a restarted child takes its shards back at once.
    name = environ.get("TAFL_INSTANCE", "").strip() or f"{socket.gethostname()}:{os.getpid()}"
    port_text = environ.get("TAFL_HTTP_PORT", "").strip()
    if port_text.isdigit() and int(port_text) + processes - 1 > MAX_PORT:
        raise ConfigError(
            f"TAFL_HTTP_PORT={port_text} leaves no room for {processes} processes, whose"
            f" endpoints take consecutive ports: use a port up to {MAX_PORT - processes + 1}"
        )
    children = []
    for number, shards in enumerate(split_shards(ids, processes), start=1):
        ranges = format_ranges(shards)
        env = {
            **{key: value for key, value in environ.items() if key != "TAFL_PROCESS_INDEX"},
            "TAFL_SHARD_COUNT": str(count),
            "TAFL_SHARD_IDS": ranges,
            "TAFL_AI_WORKERS": workers,
            "TAFL_INSTANCE": f"{name}/process-{number}",
        }
        if port_text.isdigit():
            # One endpoint per process, on consecutive ports (python -m bot health checks all).
            env["TAFL_HTTP_PORT"] = str(int(port_text) + number - 1)
        children.append(Child(f"process {number} (shards {ranges})", tuple(command), env))
    return children


async def _run(
    settings: Settings, processes: int, environ: Mapping[str, str], *, hold: bool = False
) -> int:
    if settings.shards is not None:
        count, source = settings.shards.count, "TAFL_SHARD_COUNT"
    else:
        try:
            count = await recommended_shard_count(
                settings.api_base or discord.http.Route.BASE, settings.token
            )
        except ClusterError as error:
            log.critical("%s", error)
            return 1
        source = "recommended by Discord"
    try:
        children = plan(settings, count, processes, environ=environ)
    except ConfigError as error:
        if not hold:
            return _refuse(error)
        await _hold(str(error), settings.http_host, _ports(environ, processes))
        return CONFIG_ERROR
    log.info("%d shards (%s) in %d process(es)", count, source, len(children))
    for child in children:
        log.info("%s: python -m bot", child.name)
    status = await Supervisor(children).run()
    if status == CONFIG_ERROR and hold:
        ports = [
            int(child.env["TAFL_HTTP_PORT"])
            for child in children
            if child.env and "TAFL_HTTP_PORT" in child.env
        ]
        await _hold(
            "every bot process refused (exit status 2); the log says why",
            settings.http_host,
            ports,
        )
    return status


async def _hold(reason: str, host: str, ports: Sequence[int]) -> None:
    """Wait for SIGTERM or SIGINT after refusing to run: a container that is restarted
    whenever it exits would otherwise repeat the refusal in a loop. Meanwhile the processes'
    ports (``TAFL_HTTP_PORT`` on) answer 503 with the reason, for the container's health
    check."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    server = RefusalServer(reason)
    try:
        if ports:
            await server.start(host, ports)
        log.critical(
            "refused to run: %s; waiting to be stopped (fix the configuration, then start the"
            " bot again)",
            reason,
        )
        await stop.wait()
    finally:
        await server.close()
    log.info("stopped while refusing to run")


def _ports(environ: Mapping[str, str], processes: int) -> list[int]:
    """The ports the processes would have served (none when ``TAFL_HTTP_PORT`` is unset or
    malformed: the health check then says that itself)."""
    try:
        first = http_port(environ)
    except ConfigError:
        return []
    if first is None:
        return []
    return list(range(first, min(first + max(processes, 1), MAX_PORT + 1)))


def run(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """Entry point of ``python -m bot cluster``; returns the exit status. ``environ`` replaces
    the environment (and ``.env``) in tests."""
    parser = argparse.ArgumentParser(
        prog="python -m bot cluster",
        description="Run the bot's shards in several supervised processes.",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="how many bot processes to run (default 1); the shards are split between them",
    )
    parser.add_argument(
        "--hold-on-refusal",
        action="store_true",
        help="when the settings are refused or every process refuses to run (exit status 2),"
        " wait to be stopped instead of exiting (for containers that are restarted whenever"
        " they exit)",
    )
    arguments = parser.parse_args(argv)
    try:
        settings = load_settings(environ)
        # Before asking Discord anything: the shard count does not change this answer.
        check_database(settings, arguments.processes)
    except ConfigError as error:
        if not arguments.hold_on_refusal:
            return _refuse(error)
        # load_settings has read .env into the environment by now.
        found = os.environ if environ is None else environ
        host = found.get("TAFL_HTTP_HOST", "").strip() or "0.0.0.0"
        setup_logging("INFO")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_hold(str(error), host, _ports(found, arguments.processes)))
        return CONFIG_ERROR
    setup_logging(settings.log_level)
    children_environ = os.environ if environ is None else environ
    try:
        return asyncio.run(
            _run(
                settings,
                arguments.processes,
                children_environ,
                hold=arguments.hold_on_refusal,
            )
        )
    except KeyboardInterrupt:  # Ctrl+C before the processes started
        return 0


def _refuse(error: ConfigError) -> int:
    print(f"tafl bot: {error}", file=sys.stderr)
    return CONFIG_ERROR
