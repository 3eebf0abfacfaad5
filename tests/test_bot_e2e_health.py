"""End-to-end: the health and metrics endpoint (``TAFL_HTTP_PORT``) of the real bot process,
asked over real HTTP, as Kubernetes, Docker Compose and Prometheus ask it.

* ``/healthz`` answers whatever the process is doing: while it waits for its shards' leases
  (a second process for a shard already served), and while the database is down.
* ``/readyz`` says 200 once the bot is connected and serving, and 503 with its reason while it
  waits for the leases or the database does not answer; ``python -m bot health --ready`` says
  the same in one line and its exit status.
* ``/metrics`` counts the moves played and times the interactions and the AI's searches, as
  Prometheus's own parser reads it.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import aiohttp
import pg_server
import pytest
import pytest_asyncio
from e2e_support import ROOT, WAIT, BotProcess, World, bot_env, open_world, printed_log, split_log
from fakediscord import FakeDiscord
from prometheus_client.parser import text_string_to_metric_families

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(180)]

PORT = pg_server.free_port()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    folder = tmp_path_factory.mktemp("bot_e2e_health")
    extra = {"TAFL_HTTP_PORT": str(PORT), "TAFL_HTTP_HOST": "127.0.0.1", "TAFL_AI_WORKERS": "1"}
    async with open_world(folder, ["ann", "ben", "cy"], extra) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    """Print what the bot logged during the test (pytest shows it only when the test fails)."""
    with printed_log(world):
        yield


async def get(port: int, path: str) -> tuple[int, str]:
    """``GET http://127.0.0.1:port/path``: the status and the body."""
    timeout = aiohttp.ClientTimeout(total=10)
    async with (
        aiohttp.ClientSession(timeout=timeout) as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def answer_becomes(port: int, path: str, wanted: Callable[[int, str], bool]) -> str:
    """Ask again until the answer is ``wanted`` (the process gets there in its own time);
    the body."""
    said: tuple[int, str] | str = "nothing"
    for _ in range(int(WAIT / 0.1)):
        try:
            said = await get(port, path)
        except aiohttp.ClientConnectionError as error:
            said = str(error)
        else:
            if wanted(*said):
                return said[1]
        await asyncio.sleep(0.1)
    raise AssertionError(f"{path} on port {port} never answered as wanted; last: {said!r}")


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a scrape, by name and labels, as Prometheus's own parser reads it."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, frozenset(sample.labels.items())] = sample.value
    return found


def value(
    found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return found[name, frozenset(labels.items())]


async def health_command(port: int, *arguments: str) -> tuple[int, str]:
    """``python -m bot health ...`` for one process on ``port``: its exit status and output."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAFL_"))},
        "TAFL_HTTP_PORT": str(port),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", *arguments,
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, output.decode().strip()


async def test_a_connected_bot_is_alive_and_ready(world: World, bot_log: None) -> None:
    assert await get(PORT, "/healthz") == (200, "alive\n")
    said = await answer_becomes(PORT, "/readyz", lambda status, _: status == 200)
    assert said == "ready: all servers (unsharded)\n"
    assert await health_command(PORT, "--ready") == (0, "ready: all servers (unsharded)")
    assert await health_command(PORT) == (0, f"alive (port {PORT})")


async def test_metrics_count_the_moves_and_time_the_interactions_and_searches(
    world: World, bot_log: None
) -> None:
    ann, ben, cy = world.user("ann"), world.user("ben"), world.user("cy")
    before = samples((await get(PORT, "/metrics"))[1])
    assert value(before, "tafl_moves_total", kind="player") == 0
    assert value(before, "tafl_moves_total", kind="ai") == 0

    # A game between two people: a command, a click, and one move.
    duel = world.channel("duel")
    await world.challenge(ann, ben, duel, variant="brandubh", side="attackers")
    await world.play_line(ann, ben, duel, ["a4-a2"])
    # A game against the AI, which moves first.
    versus = world.channel("versus-ai")
    mark = world.fake.checkpoint()
    await world.command(cy, versus, "play", variant="brandubh", level="easy", side="defenders")
    await world.fake.wait_for_message(
        versus, lambda m: "played `" in m.text, after=mark, timeout=WAIT
    )

    # The bot notes a first response once Discord's answer to it is back: ask until all four
    # interactions (three commands, one click) are timed.
    def timed(status: int, text: str) -> bool:
        found = samples(text)
        commands = found.get(
            ("tafl_interaction_latency_seconds_count", frozenset({("type", "command")}))
        )
        clicks = found.get(
            ("tafl_interaction_latency_seconds_count", frozenset({("type", "component")}))
        )
        return commands == 3 and clicks == 1

    after = samples(await answer_becomes(PORT, "/metrics", timed))
    assert value(after, "tafl_moves_total", kind="player") == 1
    assert value(after, "tafl_moves_total", kind="ai") == 1
    assert value(after, "tafl_ai_search_seconds_count", purpose="move") == 1
    assert value(after, "tafl_ai_search_seconds_count", purpose="review") == 0
    assert value(after, "tafl_ai_search_seconds_sum", purpose="move") > 0
    # Every command was answered within Discord's 3 s, and the histogram's buckets add up.
    assert value(after, "tafl_interaction_latency_seconds_bucket", type="command", le="+Inf") == 3
    assert not any(name == "tafl_interactions_unanswered_total" for name, _ in after)
    assert value(after, "tafl_games_active") == 2
    assert value(after, "tafl_ai_queue_length", purpose="move") == 0
    assert value(after, "tafl_ai_workers") == 1
    assert value(after, "tafl_shard_connected", shard="0") == 1
    assert value(after, "tafl_shard_latency_seconds", shard="0") >= 0
    assert value(after, "tafl_shard_leases_valid") == 1
    assert value(after, "tafl_shard_lease_renewals_total") >= 0
    assert value(after, "tafl_db_outages_total") == 0
    assert value(after, "tafl_db_outage_ongoing") == 0
    # SQLite has no pool: no pool series rather than made-up zeros.
    assert not any(name.startswith("tafl_db_pool") for name, _ in after)
    info = next(labels for name, labels in after if name == "tafl_process_info")
    assert ("shards", "0") in info and ("shard_count", "1") in info


async def test_a_process_waiting_for_its_leases_is_alive_but_not_ready(
    world: World, tmp_path: Path, bot_log: None
) -> None:
    """A second process for the same servers (the same database and shard) waits for the
    first one's lease, for good; meanwhile its endpoint says so."""
    port = pg_server.free_port()
    env = {**world.bot.env, "TAFL_HTTP_PORT": str(port)}
    stray = BotProcess(env, tmp_path / "stray.log")
    await stray.launch()
    try:
        said = await answer_becomes(port, "/readyz", lambda status, text: "leases" in text)
        assert said == "waiting for the shards' leases\n"
        assert (await get(port, "/readyz"))[0] == 503
        assert await get(port, "/healthz") == (200, "alive\n")
        status, output = await health_command(port, "--ready")
        assert (status, output) == (
            1,
            f"not ready: the process on port {port}: waiting for the shards' leases",
        )
        assert await health_command(port) == (0, f"alive (port {port})")
        found = samples((await get(port, "/metrics"))[1])
        assert value(found, "tafl_shard_leases_valid") == 0
        assert value(found, "tafl_moves_total", kind="player") == 0
        assert not any(name.startswith("tafl_shard_connected") for name, _ in found)
    finally:
        code = await stray.stop()
    print(stray.log_text())
    assert code == 0
    assert "waiting to serve all servers (unsharded)" in stray.log_text()
    # The first process served throughout.
    assert (await get(PORT, "/readyz"))[0] == 200


async def test_a_port_already_taken_is_refused_in_one_line_and_status_2(
    world: World, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **world.bot.env,
            "TAFL_HTTP_PORT": str(port),
            "TAFL_DATABASE": str(tmp_path / "x.sqlite3"),
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        output, _ = await asyncio.wait_for(process.communicate(), WAIT)
    log = output.decode()
    assert process.returncode == 2, log
    [refusal] = [entry for entry in split_log(log) if "CRITICAL" in entry]
    assert f"cannot serve /healthz, /readyz and /metrics on 127.0.0.1:{port}" in refusal
    assert "Traceback" not in log
    assert not (tmp_path / "x.sqlite3").exists()  # refused before touching the database


async def test_the_shard_latency_is_the_heartbeat_round_trip_not_the_interval(
    tmp_path: Path,
) -> None:
    """On a gateway that acknowledges heartbeats at once, as Discord's nearby servers do,
    discord.py (2.7.1) timed the acknowledgement from the previous heartbeat, so the latency
    read the heartbeat interval (41 s on Discord) while the shard answered in milliseconds:
    an alert on it would fire for nothing. With heartbeats every 2 s, every reading over
    several of them stays well below the interval."""
    interval = 2.0
    port = pg_server.free_port()
    async with FakeDiscord(heartbeat_interval_ms=int(interval * 1000)) as fake:
        env = bot_env(fake, None, tmp_path, {
            "TAFL_HTTP_PORT": str(port), "TAFL_HTTP_HOST": "127.0.0.1", "TAFL_AI_WORKERS": "1",
        })  # fmt: skip
        bot = BotProcess(env, tmp_path / "bot.log")
        readings = []
        try:
            await bot.start(fake, None)
            for _ in range(int(4 * interval / 0.25)):  # four heartbeats' time
                found = samples((await get(port, "/metrics"))[1])
                readings.append(value(found, "tafl_shard_latency_seconds", shard="0"))
                await asyncio.sleep(0.25)
        finally:
            code = await bot.stop()
        print(bot.log_text())
    assert code == 0
    assert max(readings) < interval / 2, readings


# -- on PostgreSQL: a database outage is not a reason to restart ------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[pg_server.PostgresServer]:
    """A PostgreSQL server of this module's own, to stop and start again (crash-like)."""
    try:
        started = pg_server.start()
    except pg_server.PostgresUnavailable as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test PostgreSQL: {missing}")
        pytest.skip(f"no PostgreSQL server: {missing}")
    try:
        yield started
    finally:
        started.stop()


async def test_while_the_database_is_down_the_bot_is_alive_but_not_ready(
    tmp_path: Path, server: pg_server.PostgresServer
) -> None:
    """Also: the interactions the bot leaves unanswered while its leases have lapsed (it
    cannot renew them without the database) count as unanswered."""
    url = await pg_server.fresh_schema(server.url)
    port = pg_server.free_port()
    try:
        async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
            club = fake.create_guild("Club", shard=(1, 2))
            ann = fake.create_user("ann", guild=club)
            env = bot_env(fake, None, tmp_path, {
                "TAFL_DATABASE": url, "TAFL_SHARD_COUNT": "2", "TAFL_AI_WORKERS": "1",
                "TAFL_HTTP_PORT": str(port), "TAFL_HTTP_HOST": "127.0.0.1",
                "TAFL_SHARD_LEASE": "3",
            })  # fmt: skip
            bot = BotProcess(env, tmp_path / "bot.log")
            try:
                await bot.start(fake, None)
                said = await answer_becomes(port, "/readyz", lambda status, _: status == 200)
                assert said == "ready: shards 0-1 of 2\n"
                found = samples((await get(port, "/metrics"))[1])
                assert value(found, "tafl_shard_connected", shard="0") == 1
                assert value(found, "tafl_shard_connected", shard="1") == 1
                assert value(found, "tafl_db_pool_max_connections") == 10
                in_use = value(found, "tafl_db_pool_connections", state="in_use")
                idle = value(found, "tafl_db_pool_connections", state="idle")
                assert in_use >= 0 and idle >= 0 and in_use + idle <= 10

                await asyncio.to_thread(server.halt)
                # Its leases may lapse first (they last 3 s): the database is named once a
                # request has found it gone.
                said = await answer_becomes(
                    port, "/readyz", lambda status, text: "database" in text and status == 503
                )
                assert said.startswith("the database is unavailable: "), said
                assert await get(port, "/healthz") == (200, "alive\n")
                found = samples((await get(port, "/metrics"))[1])
                assert value(found, "tafl_db_outage_ongoing") == 1
                assert value(found, "tafl_db_outages_total") == 1

                def lapsed(status: int, text: str) -> bool:
                    return value(samples(text), "tafl_shard_leases_valid") == 0

                await answer_becomes(port, "/metrics", lapsed)
                for _ in range(2):
                    await fake.send_slash_command(
                        ann, club.channel("general"), "tafl", subcommand="variants"
                    )

                def dropped(status: int, text: str) -> bool:
                    found = samples(text)
                    key = ("tafl_interactions_unanswered_total", frozenset({("type", "command")}))
                    return found.get(key) == 2

                await answer_becomes(port, "/metrics", dropped)

                await asyncio.to_thread(server.resume)
                said = await answer_becomes(port, "/readyz", lambda status, _: status == 200)
                found = samples((await get(port, "/metrics"))[1])
                assert value(found, "tafl_db_outage_ongoing") == 0
                assert value(found, "tafl_db_outages_total") == 1
            finally:
                code = await bot.stop()
            print(bot.log_text())
            fake.assert_healthy()
        assert code == 0
        problems = [e for e in split_log(bot.log_text()) if "Traceback" in e or " ERROR " in e]
        assert not problems, problems
    finally:
        await pg_server.drop_schema(url)
