"""Settings read from the environment (and a ``.env`` file), checked once at start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from dotenv import find_dotenv, load_dotenv

from bot.storage import Shards, format_ranges, parse_ranges, redact
from bot.storage.shards import MAX_SHARDS

DEFAULT_DATABASE = "data/tafl.sqlite3"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and what to do."""


MAX_AI_WORKERS = 64


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment (see ``.env.example``)."""

    token: str
    database: str
    """``TAFL_DATABASE``: an SQLite file path or a ``postgresql://`` URL (shown redacted)."""
    test_guild_id: int | None
    api_base: str | None
    gateway_url: str | None
    log_level: str
    loop_monitor: bool = False
    """``TAFL_LOOP_MONITOR=1``: log the event loop's worst lag every few seconds."""
    timer_tick: float = 5.0
    """``TAFL_TIMER_TICK``: seconds between checks of move clocks and challenge expiry."""
    challenge_expiry: int = 15 * 60
    """``TAFL_CHALLENGE_EXPIRY``: seconds a challenge stays open."""
    shards: Shards | None = None
    """``TAFL_SHARD_COUNT`` / ``TAFL_SHARD_IDS``: the Discord shards this process runs; ``None``
    (neither set) is the plain unsharded bot."""
    ai_workers: int = 2
    """``TAFL_AI_WORKERS``: processes that search for the AI and the analysis (1 to 64)."""
    identify_lock: str | None = None
    """``TAFL_IDENTIFY_LOCK``: the file through which the processes of ``python -m bot cluster``
    take turns to identify their shards (the cluster sets it for its processes)."""

    def __repr__(self) -> str:  # neither the token nor a database password may reach a log
        shards = None
        if self.shards is not None:
            shards = f"{format_ranges(self.shards.ids)} of {self.shards.count}"
        return (
            f"Settings(token=<hidden>, database={redact(self.database)!r}, "
            f"test_guild_id={self.test_guild_id!r}, api_base={self.api_base!r}, "
            f"gateway_url={self.gateway_url!r}, log_level={self.log_level!r}, "
            f"loop_monitor={self.loop_monitor!r}, timer_tick={self.timer_tick!r}, "
            f"challenge_expiry={self.challenge_expiry!r}, shards={shards!r}, "
            f"ai_workers={self.ai_workers!r}, identify_lock={self.identify_lock!r})"
        )


def load_settings(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Read the settings; ``.env`` in the working directory fills in what the environment lacks."""
    if environ is None:
        if dotenv:
            load_dotenv(find_dotenv(usecwd=True), override=False)
        environ = os.environ
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: create a bot in the Discord developer portal and put its "
            "token in the environment or in .env (see .env.example)"
        )
    guild_text = environ.get("DISCORD_TEST_GUILD_ID", "").strip()
    test_guild_id: int | None = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(
                f"DISCORD_TEST_GUILD_ID must be a server id (digits), not {guild_text!r}"
            )
        test_guild_id = int(guild_text)
    level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LEVELS)}, not {level!r}")
    return Settings(
        token=token,
        database=environ.get("TAFL_DATABASE", "").strip() or DEFAULT_DATABASE,
        test_guild_id=test_guild_id,
        api_base=environ.get("DISCORD_API_BASE", "").strip() or None,
        gateway_url=environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
        log_level=level,
        loop_monitor=environ.get("TAFL_LOOP_MONITOR", "").strip().lower() in ("1", "true", "yes"),
        timer_tick=_number(environ, "TAFL_TIMER_TICK", 5.0, minimum=0.1),
        challenge_expiry=int(_number(environ, "TAFL_CHALLENGE_EXPIRY", 15 * 60, minimum=5)),
        shards=_shards(environ),
        ai_workers=_ai_workers(environ),
        identify_lock=environ.get("TAFL_IDENTIFY_LOCK", "").strip() or None,
    )


def _shards(environ: Mapping[str, str]) -> Shards | None:
    """The shards from ``TAFL_SHARD_COUNT`` and ``TAFL_SHARD_IDS`` (``None``: both unset)."""
    count_text = environ.get("TAFL_SHARD_COUNT", "").strip()
    ids_text = environ.get("TAFL_SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError(
                f"TAFL_SHARD_IDS is {ids_text!r} but TAFL_SHARD_COUNT is not set: it is needed "
                "too, as the total number of shards of the bot (all processes together), "
                "e.g. TAFL_SHARD_COUNT=8"
            )
        return None
    if (
        not (count_text.isascii() and count_text.isdigit())
        or not 1 <= int(count_text) <= MAX_SHARDS
    ):
        raise ConfigError(
            f"TAFL_SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARDS}, "
            f"not {count_text!r}: write e.g. TAFL_SHARD_COUNT=4"
        )
    count = int(count_text)
    if not ids_text:
        return Shards.every(count)
    try:
        ids = parse_ranges(ids_text)
    except ValueError as error:
        raise ConfigError(
            f"TAFL_SHARD_IDS {ids_text!r} cannot be read: {error}; write shard numbers and "
            "ranges like 0-3, 0,2,5 or 0-3,6"
        ) from None
    outside = sorted(shard for shard in ids if shard >= count)
    if outside:
        raise ConfigError(
            f"TAFL_SHARD_IDS {ids_text!r} names shard {outside[0]}, but with "
            f"TAFL_SHARD_COUNT={count} the shards are numbered 0 to {count - 1}"
        )
    return Shards.of(count, ids)


def _ai_workers(environ: Mapping[str, str]) -> int:
    """``TAFL_AI_WORKERS``: a whole number from 1 to :data:`MAX_AI_WORKERS` (default 2)."""
    text = environ.get("TAFL_AI_WORKERS", "").strip()
    if not text:
        return 2
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_AI_WORKERS:
        raise ConfigError(
            f"TAFL_AI_WORKERS must be a whole number of processes from 1 to {MAX_AI_WORKERS}, "
            f"not {text!r}"
        )
    return int(text)


def _number(environ: Mapping[str, str], name: str, default: float, *, minimum: float) -> float:
    """A number of seconds from ``name``, at least ``minimum``; a clear error otherwise."""
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {text!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g} seconds, not {text}")
    return value
