"""Start-up: logging, settings, the database, then the bot; clear messages instead of tracebacks."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord
import yarl

from bot import native
from bot.ai import level_named, level_rating
from bot.storage import (
    DatabaseUnusable,
    Holder,
    LeaseKeeper,
    Shards,
    Storage,
    StorageError,
    format_ranges,
    redact,
)

from ..client import StoppedBeforeConnecting, TaflBot, make_bot
from ..runtime.config import ConfigError, Settings, load_settings
from ..runtime.health import STARTING, WAITING_FOR_LEASES, Health, HealthServer
from ..runtime.logs import setup_logging
from ..runtime.metrics import Metrics
from ..web.routes import WebFront
from .supervisor import CONFIG_ERROR

log = logging.getLogger("bot")


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at another REST base / gateway (a local stand-in in tests).

    discord.py has no setting for these: they are class attributes read at login.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class Stopper:
    """SIGTERM (``docker stop``, Kubernetes, the cluster supervisor), as cleanly as Ctrl+C:
    before the bot exists it ends the wait for the leases; then it closes the bot (interactions
    being handled finish, then the connection and the database close). The process stops
    counting as ready at once."""

    def __init__(self, health: Health) -> None:
        self.stopping = asyncio.Event()
        self.health = health
        self.bot: TaflBot | None = None
        self._closing: set[asyncio.Task[None]] = set()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._stop)

    def _stop(self) -> None:
        log.info("SIGTERM: stopping")
        self.health.stopping = True
        self.stopping.set()
        if self.bot is not None:
            task = asyncio.get_running_loop().create_task(self.bot.close())
            self._closing.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(self._closing.discard)


def ai_rating(variant: str, level: int) -> float:
    """The AI's fixed rating at a stored level (1-based) in ``variant``: rated games against it
    move only the player's rating."""
    return level_rating(variant, level_named(level))


async def _serve(settings: Settings) -> int:
    health = Health()
    stopper = Stopper(health)
    holder = Holder.new(settings.instance)
    if settings.http_port is None:
        return await _run(settings, holder, stopper, None, None)
    # First of all, so that it answers while the process opens the database and waits for its
    # shards' leases (which may take as long as another process holds them).
    metrics = Metrics(settings.shards, holder.instance)
    server = HealthServer(health, metrics)
    front = None
    if settings.public_url is not None:  # the web board, on the same port
        front = WebFront()
        front.add_to(server.app)
    address = f"{settings.http_host}:{settings.http_port}"
    try:
        await server.start(settings.http_host, settings.http_port)
    except OSError as error:
        # Another process has the port (two clusters given the same TAFL_HTTP_PORT), or it is
        # not this user's: trying again would fail the same way.
        log.critical(
            "cannot serve /healthz, /readyz and /metrics on %s (TAFL_HTTP_HOST, TAFL_HTTP_PORT):"
            " %s",
            address,
            error.strerror or error,
        )
        return CONFIG_ERROR
    log.info("health and metrics on http://%s (/healthz, /readyz, /metrics)", address)
    if settings.public_url is not None:
        log.info("the web board on http://%s, reached at %s", address, settings.public_url)
    try:
        return await _run(settings, holder, stopper, metrics, front)
    finally:
        await server.close()


async def _run(
    settings: Settings,
    holder: Holder,
    stopper: Stopper,
    metrics: Metrics | None,
    front: WebFront | None,
) -> int:
    health = stopper.health
    try:
        storage = await Storage.open(
            settings.database,
            shards=settings.shards,
            ai_ratings=ai_rating,
            postgres=settings.postgres,
        )
    except DatabaseUnusable as error:
        # Left untouched, and no restart can help (a wrong password, a newer schema, another
        # application's tables): status 2 stops a cluster instead of restarting it forever.
        log.critical("%s", error)
        return CONFIG_ERROR
    except StorageError as error:
        # Unreachable (a supervisor or compose restarts us later), or a migration that failed
        # (rolled back): one line each, no traceback.
        log.critical("%s", error)
        return 1
    except OSError as error:
        log.critical("cannot open the database %s: %s", redact(settings.database), error)
        return 1
    try:
        # Read back rather than assumed: PostgreSQL's configuration, a role or a database can
        # set these otherwise, and an operator comparing setups needs what really ran.
        log.info(
            "durability of the database %s: %s", storage.db.target, await storage.db.durability()
        )
    except StorageError as error:  # only a report: a database away for a moment is told later
        log.warning("cannot read the database's durability settings: %s", error)
    leases = LeaseKeeper(storage.leases, storage.shards, holder, seconds=settings.lease_seconds)
    health.storage, health.leases, health.phase = storage, leases, WAITING_FOR_LEASES
    if metrics is not None:
        metrics.watch(storage=storage, leases=leases)
    acquired = False
    # Before connecting to Discord: a process whose shards another one serves waits here (a
    # stray started by mistake waits for good, and never answers anyone).
    try:
        acquired = await leases.acquire(stopper.stopping)
    finally:
        if not acquired:  # stopped by SIGTERM, or cancelled by Ctrl+C
            # SQLite's connection runs in a thread of its own that would keep the process
            # from exiting.
            await storage.close()
    if not acquired:
        return 0
    health.phase = STARTING
    bot = make_bot(settings, storage, leases, metrics)
    stopper.bot = health.bot = bot
    if front is not None and bot.web_board is not None:
        front.serve(bot.web_board)
    if metrics is not None:
        metrics.watch(ai=bot.ai, gateways=bot, games=lambda: len(bot.hub.active()))
    try:
        async with bot:
            await bot.start(settings.token)
    except discord.LoginFailure:
        log.critical("Discord refused the token in DISCORD_TOKEN: check it in the developer portal")
        return 1
    except (discord.HTTPException, OSError) as error:
        log.critical("cannot reach Discord: %s", error)
        return 1
    except StorageError as error:  # the database lost while loading the games at start-up
        log.critical("%s", error)
        return 1
    except StoppedBeforeConnecting as stopped:
        log.info("%s", stopped)
    finally:
        await bot.shutdown()
    if bot.lost is not None:
        return 1  # restarted, it waits for the shards (or serves them again if given back)
    return 0


def run() -> int:
    """Entry point of ``python -m bot``; returns the process exit status."""
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"tafl bot: {error}", file=sys.stderr)
        return 2
    shards = settings.shards
    # Several processes of one bot may log to one place: each sharded one names its shards.
    label = None if shards is None else f"shards {format_ranges(shards.ids)}"
    setup_logging(settings.log_level, label)
    apply_endpoints(settings)
    log.info("starting with %r", settings)
    log.info("serving %s", (shards or Shards.every()).describe())
    log.info("rules engine and AI search: %s", native.describe())
    try:
        return asyncio.run(_serve(settings))
    except KeyboardInterrupt:
        return 0
