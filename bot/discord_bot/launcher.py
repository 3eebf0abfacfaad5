"""Start-up: logging, settings, the database, then the bot; clear messages instead of tracebacks."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
import yarl

from bot import native
from bot.storage import DatabaseUnusable, Storage

from .client import TaflBot
from .config import ConfigError, Settings, load_settings

log = logging.getLogger("bot")


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at another REST base / gateway (a local stand-in in tests).

    discord.py has no setting for these: they are class attributes read at login.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def setup_logging(level: str) -> None:
    """Log to stderr with timestamps; discord.py's own chatter one level quieter."""
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if level == "DEBUG":
        logging.getLogger("discord").setLevel(logging.INFO)


async def _serve(settings: Settings) -> int:
    try:
        storage = await Storage.open(settings.database)
    except DatabaseUnusable as error:
        log.critical("%s", error)
        return 1
    except OSError as error:
        log.critical("cannot open the database %s: %s", settings.database, error)
        return 1
    bot = TaflBot(settings, storage)
    try:
        async with bot:
            await bot.start(settings.token)
    except discord.LoginFailure:
        log.critical("Discord refused the token in DISCORD_TOKEN: check it in the developer portal")
        return 1
    except (discord.HTTPException, OSError) as error:
        log.critical("cannot reach Discord: %s", error)
        return 1
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
    setup_logging(settings.log_level)
    apply_endpoints(settings)
    log.info("starting with %r", settings)
    log.info("rules engine and AI search: %s", native.describe())
    try:
        return asyncio.run(_serve(settings))
    except KeyboardInterrupt:
        return 0
