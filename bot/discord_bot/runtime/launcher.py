"""Start-up: logging, settings, the database, then the bot; clear messages instead of tracebacks."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord
import yarl

from bot import native
from bot.ai import level_rating
from bot.storage import DatabaseUnusable, Shards, Storage, StorageError, format_ranges, redact

from ..app.wording import level_name
from ..client import StoppedBeforeConnecting, TaflBot, make_bot
from .config import ConfigError, Settings, load_settings
from .logs import setup_logging
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


def close_on_sigterm(bot: TaflBot) -> None:
    """Make SIGTERM (``docker stop``, the cluster supervisor) close the bot as cleanly as Ctrl+C:
    interactions being handled finish, then the connection and the database close."""
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()

    def close() -> None:
        log.info("SIGTERM: stopping")
        task = loop.create_task(bot.close())
        closing.add(task)  # the loop keeps only a weak reference to a task
        task.add_done_callback(closing.discard)

    loop.add_signal_handler(signal.SIGTERM, close)


def ai_rating(variant: str, level: int) -> float:
    """The AI's fixed rating at a stored level (1-based) in ``variant``: rated games against it
    move only the player's rating."""
    return level_rating(variant, level_name(level))


async def _serve(settings: Settings) -> int:
    try:
        storage = await Storage.open(
            settings.database, shards=settings.shards, ai_ratings=ai_rating
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
    try:
        await storage.claim_shards()
    except StorageError as error:
        # Another process runs one of our shards (perhaps one just killed, whose connection
        # the server has not dropped yet): a later restart may succeed.
        log.critical("%s", error)
        await storage.close()
        return 1
    bot = make_bot(settings, storage)
    close_on_sigterm(bot)
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
