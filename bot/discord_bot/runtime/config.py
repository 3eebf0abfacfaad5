"""Settings read from the environment (and a ``.env`` file), checked once at start-up."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import find_dotenv, load_dotenv

from bot.storage import (
    DEFAULT_LEASE_SECONDS,
    PostgresOptions,
    Shards,
    format_ranges,
    is_postgres_url,
    parse_ranges,
    redact,
    split_shards,
)
from bot.storage.shards import MAX_SHARDS

DEFAULT_DATABASE = "data/tafl.sqlite3"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and what to do."""


MAX_AI_WORKERS = 64
MAX_POOL_SIZE = 1000
SECRETS = (
    "DISCORD_TOKEN",
    "TAFL_DATABASE",
    "TAFL_DATABASE_PASSWORD",
    "TAFL_DATABASE_LISTEN_URL",
    "TAFL_WEB_SECRET",
    "DISCORD_CLIENT_SECRET",
)
"""Settings that may instead be read from a file named by ``<NAME>_FILE`` (a Docker or
Kubernetes secret mounted as a file), so that they appear in no environment listing."""


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
    instance: str | None = None
    """``TAFL_INSTANCE``: the name this process runs under, which no other running process
    may share (a Kubernetes pod's name); ``None``: one made of the machine's name and the
    process id. A process takes back at once the shards an earlier process of its name held."""
    lease_seconds: float = DEFAULT_LEASE_SECONDS
    """``TAFL_SHARD_LEASE``: seconds a shard's lease lasts unrenewed."""
    http_host: str = "0.0.0.0"
    """``TAFL_HTTP_HOST``: the address the health and metrics endpoint listens on."""
    http_port: int | None = None
    """``TAFL_HTTP_PORT``: the port of ``/healthz``, ``/readyz`` and ``/metrics``; ``None``
    (the default): no endpoint."""
    pseudo_locale: bool = False
    """``TAFL_PSEUDO_LOCALE=1``: every player reads the pseudo-locale (each translated string
    marked and lengthened, ``⟦Ŷöûŕ ɱöṽé···⟧``), to find text that escaped translation."""
    public_url: str | None = None
    """``TAFL_PUBLIC_URL``: the address (``https://...``, no trailing slash) where the health
    server's port is reachable from browsers, behind the operator's proxy; when set, the web
    board is served there and every board gets its Open the board button. ``None``: no web
    board."""
    web_secret: str | None = field(default=None, repr=False)
    """``TAFL_WEB_SECRET`` (or ``TAFL_WEB_SECRET_FILE``): the key the web board's links are
    signed with; ``None``: one derived from the bot's token (shared by every process)."""
    client_secret: str | None = field(default=None, repr=False)
    """``DISCORD_CLIENT_SECRET`` (or ``DISCORD_CLIENT_SECRET_FILE``): the application's OAuth2
    client secret, for the Activity's sign-in; ``None``: the Activity cannot sign anyone in."""
    pseudo_drawn: Path | None = None
    """``TAFL_PSEUDO_DRAWN``: with the pseudo-locale, a file where every string drawn on an
    image is written (one JSON string a line), for the words on images a pseudo-locale run
    checks; ``None``: not written."""
    postgres: PostgresOptions = field(default_factory=PostgresOptions)
    """``TAFL_DB_POOL_SIZE``, ``TAFL_DB_POOL_WAIT``, ``TAFL_DB_CONNECT_TIMEOUT``,
    ``TAFL_DB_STATEMENT_CACHE``, ``TAFL_DATABASE_PASSWORD`` and ``TAFL_DATABASE_LISTEN_URL``:
    how PostgreSQL is used."""

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
            f"ai_workers={self.ai_workers!r}, instance={self.instance!r}, "
            f"lease_seconds={self.lease_seconds!r}, http_host={self.http_host!r}, "
            f"http_port={self.http_port!r}, pseudo_locale={self.pseudo_locale!r}, "
            f"public_url={self.public_url!r}, web_secret={_hidden(self.web_secret)}, "
            f"client_secret={_hidden(self.client_secret)}, pseudo_drawn={self.pseudo_drawn!r}, "
            f"postgres={self.postgres!r})"
        )


def _path(environ: Mapping[str, str], name: str) -> Path | None:
    text = environ.get(name, "").strip()
    return Path(text) if text else None


def load_settings(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Read the settings; ``.env`` in the working directory fills in what the environment lacks."""
    if environ is None:
        if dotenv:
            load_dotenv(find_dotenv(usecwd=True), override=False)
        environ = os.environ
    environ = with_secret_files(environ)
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
        pseudo_locale=environ.get("TAFL_PSEUDO_LOCALE", "").strip().lower() in ("1", "true", "yes"),
        pseudo_drawn=_path(environ, "TAFL_PSEUDO_DRAWN"),
        challenge_expiry=int(_number(environ, "TAFL_CHALLENGE_EXPIRY", 15 * 60, minimum=5)),
        shards=_shards(environ),
        ai_workers=_ai_workers(environ),
        instance=environ.get("TAFL_INSTANCE", "").strip() or None,
        lease_seconds=_number(environ, "TAFL_SHARD_LEASE", DEFAULT_LEASE_SECONDS, minimum=3),
        http_host=environ.get("TAFL_HTTP_HOST", "").strip() or "0.0.0.0",
        http_port=http_port(environ),
        public_url=public_url(environ),
        web_secret=environ.get("TAFL_WEB_SECRET", "").strip() or None,
        client_secret=environ.get("DISCORD_CLIENT_SECRET", "").strip() or None,
        postgres=_postgres(environ),
    )


def _hidden(secret: str | None) -> str:
    """How a secret setting is shown in a log: whether it is set, never what it is."""
    return "None" if secret is None else "<hidden>"


def public_url(environ: Mapping[str, str]) -> str | None:
    """``TAFL_PUBLIC_URL`` without its trailing slash (``None``: not set); a
    :class:`ConfigError` when it is no web address, or when no port serves it
    (``TAFL_HTTP_PORT``)."""
    text = environ.get("TAFL_PUBLIC_URL", "").strip().rstrip("/")
    if not text:
        return None
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", text):
        raise ConfigError(
            f"TAFL_PUBLIC_URL must be the web address of the bot's board, like "
            f"https://tafl.example.org, not {text!r}"
        )
    if http_port(environ) is None:
        raise ConfigError(
            "TAFL_PUBLIC_URL is set but TAFL_HTTP_PORT is not: the web board is served on the "
            "health server's port, behind your proxy"
        )
    return text


def with_secret_files(environ: Mapping[str, str]) -> Mapping[str, str]:
    """``environ`` with each secret named by a ``<NAME>_FILE`` setting read from that file
    (its last line break dropped); a :class:`ConfigError` when both forms are set or the file
    cannot be read."""
    found = dict(environ)
    for name in SECRETS:
        path = environ.get(f"{name}_FILE", "").strip()
        if not path:
            continue
        if environ.get(name, "").strip():
            raise ConfigError(
                f"{name} and {name}_FILE are both set: keep one (the file is the safer place)"
            )
        try:
            found[name] = Path(path).read_text(encoding="utf-8").rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else "it is not text"
            raise ConfigError(
                f"{name}_FILE names {path!r}, which cannot be read: {reason}"
            ) from None
    return found


def http_endpoints(environ: Mapping[str, str]) -> tuple[str, list[int]]:
    """Where the bot processes of this machine (or container) serve ``/healthz``: the address
    to ask them at, and one port per process, ``TAFL_HTTP_PORT`` counted up ``TAFL_PROCESSES``
    times (default 1) as ``python -m bot cluster`` gives them out. A :class:`ConfigError` when
    ``TAFL_HTTP_PORT`` is not set (no process serves the endpoint) or a setting is malformed."""
    port = http_port(environ)
    if port is None:
        raise ConfigError("TAFL_HTTP_PORT is not set: the bot serves no health endpoint")
    processes = _whole(environ, "TAFL_PROCESSES", 1, 1, MAX_SHARDS)
    if port + processes - 1 > 65535:
        raise ConfigError(
            f"TAFL_HTTP_PORT={port} with TAFL_PROCESSES={processes} runs past port 65535"
        )
    host = environ.get("TAFL_HTTP_HOST", "").strip()
    # Listening on every address (the default) is reached through the loopback one.
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return host, list(range(port, port + processes))


def http_port(environ: Mapping[str, str]) -> int | None:
    """``TAFL_HTTP_PORT`` (``None``: not set); a :class:`ConfigError` when it is no port."""
    text = environ.get("TAFL_HTTP_PORT", "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        raise ConfigError(f"TAFL_HTTP_PORT must be a port number from 1 to 65535, not {text!r}")
    return int(text)


def _postgres(environ: Mapping[str, str]) -> PostgresOptions:
    """The PostgreSQL pool's settings (read whatever the database, checked the same way)."""
    defaults = PostgresOptions()
    return PostgresOptions(
        pool_size=_whole(environ, "TAFL_DB_POOL_SIZE", defaults.pool_size, 1, MAX_POOL_SIZE),
        pool_wait=_number(environ, "TAFL_DB_POOL_WAIT", defaults.pool_wait, minimum=0.1),
        connect_timeout=_number(
            environ, "TAFL_DB_CONNECT_TIMEOUT", defaults.connect_timeout, minimum=0.1
        ),
        statement_cache=_whole(
            environ, "TAFL_DB_STATEMENT_CACHE", defaults.statement_cache, 0, 100_000
        ),
        password=environ.get("TAFL_DATABASE_PASSWORD") or None,
        listen_url=_listen_url(environ),
    )


def _listen_url(environ: Mapping[str, str]) -> str | None:
    """``TAFL_DATABASE_LISTEN_URL``: a direct connection to PostgreSQL for the listening
    connection, when ``TAFL_DATABASE`` goes through a pooler in transaction mode."""
    text = environ.get("TAFL_DATABASE_LISTEN_URL", "").strip()
    if not text:
        return None
    if not is_postgres_url(text):
        raise ConfigError(
            f"TAFL_DATABASE_LISTEN_URL must be a postgresql:// URL (a direct connection to the"
            f" server behind PgBouncer), not {redact(text)!r}"
        )
    if not is_postgres_url(environ.get("TAFL_DATABASE", "").strip()):
        raise ConfigError(
            "TAFL_DATABASE_LISTEN_URL is set but TAFL_DATABASE is not PostgreSQL: it is for a"
            " PostgreSQL reached through PgBouncer; leave it empty"
        )
    return text


def _whole(environ: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


def _shards(environ: Mapping[str, str]) -> Shards | None:
    """The shards from ``TAFL_SHARD_COUNT`` and ``TAFL_SHARD_IDS`` (``None``: both unset)."""
    count_text = environ.get("TAFL_SHARD_COUNT", "").strip()
    ids_text = environ.get("TAFL_SHARD_IDS", "").strip()
    if not count_text:
        if environ.get("TAFL_PROCESS_INDEX", "").strip():
            raise ConfigError(
                "TAFL_PROCESS_INDEX is set but TAFL_SHARD_COUNT is not: every process must be"
                " given the same shard count, e.g. TAFL_SHARD_COUNT=8"
            )
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
    index_text = environ.get("TAFL_PROCESS_INDEX", "").strip()
    if index_text:
        if ids_text:
            raise ConfigError(
                "TAFL_SHARD_IDS and TAFL_PROCESS_INDEX are both set: name the shards, or say"
                " which of TAFL_PROCESSES processes this is, not both"
            )
        return _slice(environ, count, index_text)
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


def _slice(environ: Mapping[str, str], count: int, index_text: str) -> Shards:
    """The shards of process ``TAFL_PROCESS_INDEX`` of ``TAFL_PROCESSES``: the same contiguous
    slices ``python -m bot cluster`` gives its processes."""
    processes = _whole(environ, "TAFL_PROCESSES", 0, 1, MAX_SHARDS)
    if processes == 0:
        raise ConfigError(
            "TAFL_PROCESS_INDEX is set but TAFL_PROCESSES is not: say how many processes share"
            " the shards, e.g. TAFL_PROCESSES=3"
        )
    # A number, or a name ending in one: a StatefulSet pod's name (tafl-bot-2) says its index.
    match = re.fullmatch(r"(?:.*-)?(\d+)", index_text)
    if match is None:
        raise ConfigError(
            f"TAFL_PROCESS_INDEX must be a number from 0, or a name ending in one (tafl-bot-2),"
            f" not {index_text!r}"
        )
    index = int(match.group(1))
    if processes > count:
        raise ConfigError(
            f"TAFL_PROCESSES={processes} is more than the {count} shards (TAFL_SHARD_COUNT):"
            " a process without a shard would have nothing to do"
        )
    if index >= processes:
        raise ConfigError(
            f"TAFL_PROCESS_INDEX {index_text!r} is process {index}, but with"
            f" TAFL_PROCESSES={processes} they are numbered 0 to {processes - 1}"
        )
    return Shards.of(count, split_shards(range(count), processes)[index])


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
