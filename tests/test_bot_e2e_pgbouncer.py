"""The bot behind PgBouncer in transaction pooling mode, as an operator deploys it: a real
PgBouncer in front of a real PostgreSQL server.

Transaction pooling lends a server connection for one transaction at a time, so ``LISTEN``,
which needs a session of its own, hears nothing there: the signals by which processes tell each
other of moves in games across servers pass only through a direct connection to PostgreSQL
(``TAFL_DATABASE_LISTEN_URL``). Without one, each process says so in its log.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pg_server
import pgbouncer
import pytest
import pytest_asyncio
from e2e_support import WAIT, BotProcess, bot_env, private_text, split_log
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser

from bot.storage import PostgresOptions, Storage
from bot.storage import postgres as postgres_backend

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(240)]

NOT_HEARD = "signals from the other processes do not reach this one"


@dataclass
class Setup:
    server: pg_server.PostgresServer
    bouncer: pgbouncer.Bouncer


@pytest.fixture(scope="module")
def setup() -> Iterator[Setup]:
    """PostgreSQL and PgBouncer (transaction pooling) in front of it; both must run in CI."""
    try:
        server = pg_server.start()
    except pg_server.PostgresUnavailable as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test PostgreSQL: {missing}")
        pytest.skip(f"no PostgreSQL server: {missing}")
    try:
        try:
            bouncer = pgbouncer.start(server)
        except pgbouncer.PgBouncerUnavailable as missing:
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI must test PgBouncer: {missing}")
            pytest.skip(f"no PgBouncer: {missing}")
        try:
            yield Setup(server, bouncer)
        finally:
            bouncer.stop()
    finally:
        server.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def database(setup: Setup) -> AsyncIterator[str]:
    """An empty database of the test's own (PgBouncer refuses asyncpg's search_path)."""
    name = await pgbouncer.fresh_database(setup.server)
    try:
        yield name
    finally:
        await pgbouncer.drop_database(setup.server, name)


async def heard_within(
    sender: Storage, topic: str, heard: asyncio.Queue[str | None], seconds: float
) -> bool:
    """Whether a signal sent by ``sender`` now (and again every half second) reaches the
    listener feeding ``heard`` within ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        await sender.db.signal(topic, "7")
        try:
            while True:
                if await asyncio.wait_for(heard.get(), 0.5) == "7":
                    return True
        except TimeoutError:
            pass
    return False


async def test_signals_pass_behind_pgbouncer_only_through_a_direct_listening_connection(
    setup: Setup, database: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_backend, "LISTEN_CHECK_SECONDS", 2.0)
    caplog.set_level(logging.INFO, "bot.storage")
    pooled = setup.bouncer.url(database)
    direct = pgbouncer.direct_url(setup.server, database)
    behind = PostgresOptions(statement_cache=0)
    listening = PostgresOptions(statement_cache=0, listen_url=direct)
    sender = await Storage.open(pooled, postgres=behind)
    deaf = await Storage.open(pooled, postgres=behind)
    hearing = await Storage.open(pooled, postgres=listening)
    try:
        to_deaf: asyncio.Queue[str | None] = asyncio.Queue()
        to_hearing: asyncio.Queue[str | None] = asyncio.Queue()
        deaf.db.listen("games", to_deaf.put_nowait)
        hearing.db.listen("games", to_hearing.put_nowait)
        assert await heard_within(sender, "games", to_hearing, WAIT)
        assert not await heard_within(sender, "games", to_deaf, 3.0)
    finally:
        for storage in (sender, deaf, hearing):
            await storage.close()
    said = [r for r in caplog.records if NOT_HEARD in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in caplog.records]
    assert said[0].levelno == logging.ERROR
    assert "set TAFL_DATABASE_LISTEN_URL to a direct connection" in said[0].getMessage()


async def wait_for_line(bot: BotProcess, text: str) -> str:
    """The bot's log entry holding ``text``, once it is written."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while loop.time() < deadline:
        found = [entry for entry in split_log(bot.log_text()) if text in entry]
        if found:
            return found[0]
        assert bot.process is not None and bot.process.returncode is None, bot.log_text()
        await asyncio.sleep(0.1)
    raise AssertionError(f"the bot never logged {text!r}:\n{bot.log_text()}")


@pytest.mark.parametrize("direct", [True, False], ids=["with a listening URL", "without"])
async def test_the_bot_plays_behind_pgbouncer_and_says_whether_signals_reach_it(
    setup: Setup, database: str, tmp_path: Path, direct: bool
) -> None:
    """The bot behind transaction pooling, set as the README says: it starts, serves and
    plays; and its log says whether the other processes' signals reach it (they do through
    TAFL_DATABASE_LISTEN_URL, and without it the log says what to set)."""
    extra = {
        "TAFL_DATABASE": setup.bouncer.url(database),
        "TAFL_DB_STATEMENT_CACHE": "0",
        "TAFL_AI_WORKERS": "1",
    }
    if direct:
        extra["TAFL_DATABASE_LISTEN_URL"] = pgbouncer.direct_url(setup.server, database)
    async with FakeDiscord() as fake:
        guild: FakeGuild = fake.create_guild("Club")
        ann: FakeUser = fake.create_user("ann", guild=guild)
        channel: FakeChannel = guild.channel("general")
        bot = BotProcess(bot_env(fake, guild, tmp_path, extra), tmp_path / "bot.log")
        try:
            await bot.start(fake, guild)
            mark = fake.checkpoint()
            played = await fake.send_slash_command(
                ann, channel, "tafl", subcommand="play",
                options={"variant": "brandubh", "level": "easy", "side": "defenders"},
            )  # fmt: skip
            await played.wait_callback(timeout=WAIT)
            await fake.wait_for_message(
                channel, lambda m: "played `" in m.text, after=mark, timeout=WAIT
            )
            asked = await fake.send_slash_command(
                ann, channel, "tafl", subcommand="history", options={}
            )
            await asked.wait_callback(timeout=WAIT)
            assert asked.original_message is not None, await private_text(asked)
            if direct:
                said = await wait_for_line(bot, "signals from the other processes reach this")
                assert " INFO " in said
            else:
                said = await wait_for_line(bot, NOT_HEARD)
                assert " ERROR " in said
                assert "set TAFL_DATABASE_LISTEN_URL to a direct connection" in said
        finally:
            code = await bot.stop()
        print(bot.log_text())
        fake.assert_healthy()
    assert code == 0
    problems = [
        entry
        for entry in split_log(bot.log_text())
        if ("Traceback" in entry or " ERROR " in entry) and NOT_HEARD not in entry
    ]
    assert not problems, problems
