"""The health endpoint's parts without a bot: readiness before the bot exists, the database's
check, interactions that were never answered, where ``python -m bot health`` looks, and that
command asking real servers on several ports. (The whole bot's endpoint is tested end to end in
test_bot_e2e_health.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pg_server
import pytest
from aiohttp import web
from storage_helpers import FakeClock

from bot.discord_bot.main import probe
from bot.discord_bot.runtime.config import ConfigError, http_endpoints
from bot.discord_bot.runtime.health import (
    FRESH_SECONDS,
    OPENING,
    STARTING,
    WAITING_FOR_LEASES,
    Health,
    HealthServer,
)
from bot.discord_bot.runtime.metrics import UNANSWERED_AFTER, Metrics
from bot.storage import Holder, LeaseKeeper, Shards, Storage
from bot.storage.database import Outage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "tafl.sqlite3")
    try:
        yield opened
    finally:
        await opened.close()


async def test_before_the_bot_exists_readiness_says_what_the_process_waits_for(
    storage: Storage,
) -> None:
    health = Health()
    assert await health.readiness() == (False, OPENING)
    health.storage = storage
    health.leases = LeaseKeeper(storage.leases, storage.shards, Holder.new("tafl-bot-0"))
    health.phase = WAITING_FOR_LEASES
    assert await health.readiness() == (False, "waiting for the shards' leases")
    health.phase = STARTING
    assert await health.readiness() == (False, STARTING)
    health.stopping = True
    assert await health.readiness() == (False, "stopping")


async def test_the_database_is_asked_only_when_it_has_not_answered_lately(
    storage: Storage,
) -> None:
    clock = FakeClock()
    outage = storage.db.outage = Outage(storage.db.target, clock)
    health = Health()
    assert not outage.answered_within(FRESH_SECONDS)
    assert await health.check_database(storage) is None  # asked: SELECT 1 answered
    assert outage.answered_within(FRESH_SECONDS)
    answered = outage.answered_at
    assert await health.check_database(storage) is None  # not asked again
    assert outage.answered_at == answered
    clock.advance(FRESH_SECONDS)
    assert not outage.answered_within(FRESH_SECONDS)
    assert await health.check_database(storage) is None  # asked again
    assert outage.answered_at == clock.now


def test_an_interaction_never_answered_is_counted_once_and_forgotten() -> None:
    clock = FakeClock()
    metrics = Metrics(Shards.of(4, {2, 3}), "tafl-bot-1", clock=clock)
    registry = metrics.registry
    metrics.interaction_arrived({"id": "11", "type": 2})
    metrics.interaction_arrived({"id": "12", "type": 3})
    clock.advance(0.25)
    metrics.interaction_answered(12, accepted=True)
    assert registry.get_sample_value(
        "tafl_interaction_latency_seconds_sum", {"type": "component"}
    ) == pytest.approx(0.25)
    clock.advance(UNANSWERED_AFTER)
    metrics.forget_unanswered()
    assert registry.get_sample_value("tafl_interactions_unanswered_total", {"type": "command"}) == 1
    metrics.interaction_answered(11, accepted=True)  # too late: already counted unanswered
    metrics.forget_unanswered()
    assert registry.get_sample_value("tafl_interactions_unanswered_total", {"type": "command"}) == 1
    assert (
        registry.get_sample_value("tafl_interaction_latency_seconds_count", {"type": "command"})
        is None
    )
    # A first response Discord refused (an expired token) failed the player as well.
    metrics.interaction_arrived({"id": "13", "type": 4})
    metrics.interaction_answered(13, accepted=False)
    assert (
        registry.get_sample_value("tafl_interactions_unanswered_total", {"type": "autocomplete"})
        == 1
    )
    assert (
        registry.get_sample_value(
            "tafl_process_info",
            {"name": "tafl-bot-1", "shards": "2-3", "shard_count": "4", "version": "0.1.0"},
        )
        == 1
    )


def test_two_processes_in_one_interpreter_keep_their_own_metrics() -> None:
    first, second = Metrics(), Metrics()
    first.count_move(by_ai=False)
    assert first.registry.get_sample_value("tafl_moves_total", {"kind": "player"}) == 1
    assert second.registry.get_sample_value("tafl_moves_total", {"kind": "player"}) == 0


@pytest.mark.parametrize(
    ("environ", "host", "ports"),
    [
        ({"TAFL_HTTP_PORT": "8000"}, "127.0.0.1", [8000]),
        ({"TAFL_HTTP_PORT": "8000", "TAFL_PROCESSES": "3"}, "127.0.0.1", [8000, 8001, 8002]),
        ({"TAFL_HTTP_PORT": "9100", "TAFL_HTTP_HOST": "0.0.0.0"}, "127.0.0.1", [9100]),
        ({"TAFL_HTTP_PORT": "9100", "TAFL_HTTP_HOST": "::"}, "::1", [9100]),
        ({"TAFL_HTTP_PORT": "9100", "TAFL_HTTP_HOST": "10.1.2.3"}, "10.1.2.3", [9100]),
    ],
)
def test_the_health_command_asks_one_port_per_process(
    environ: dict[str, str], host: str, ports: list[int]
) -> None:
    assert http_endpoints(environ) == (host, ports)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "TAFL_HTTP_PORT is not set"),
        ({"TAFL_HTTP_PORT": "http"}, "TAFL_HTTP_PORT must be a port number"),
        ({"TAFL_HTTP_PORT": "65535", "TAFL_PROCESSES": "2"}, "runs past port 65535"),
        ({"TAFL_HTTP_PORT": "8000", "TAFL_PROCESSES": "0"}, "TAFL_PROCESSES must be"),
    ],
)
def test_the_health_command_says_what_is_wrong_with_its_settings(
    environ: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        http_endpoints(environ)


async def test_the_health_command_checks_every_process_and_names_the_one_not_ready(
    storage: Storage, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two real endpoints on consecutive ports, as a cluster of two runs them: the first ready
    to be asked, the second still waiting for its leases."""
    first, second = Health(), Health()
    first.phase, second.phase = STARTING, WAITING_FOR_LEASES
    base = pg_server.free_port()
    servers = [HealthServer(first, Metrics()), HealthServer(second, Metrics())]
    try:
        for offset, server in enumerate(servers):
            await server.start("127.0.0.1", base + offset)
        environ = {"TAFL_HTTP_PORT": str(base), "TAFL_PROCESSES": "2"}
        alive = await asyncio.to_thread(probe.run, [], environ)
        assert (alive, capsys.readouterr().out) == (
            0,
            f"alive: 2 processes (ports {base}-{base + 1})\n",
        )
        ready = await asyncio.to_thread(probe.run, ["--ready"], environ)
        assert (ready, capsys.readouterr().out) == (
            1,
            f"not ready: the process on port {base}: {STARTING}\n",
        )
        three = await asyncio.to_thread(probe.run, [], {**environ, "TAFL_PROCESSES": "3"})
        out = capsys.readouterr().out
        assert three == 1 and out.startswith(f"not alive: the process on port {base + 2}: no"), out
    finally:
        for server in servers:
            await server.close()
    assert await asyncio.to_thread(probe.run, [], {}) == 1
    assert capsys.readouterr().out == (
        "unhealthy: TAFL_HTTP_PORT is not set: the bot serves no health endpoint\n"
    )


async def test_readyz_says_its_reason_in_one_line_whatever_the_reason_holds() -> None:
    """A reason built from an error message (a PostgreSQL refusal with a DETAIL line) is
    still one line: probes and people reading the body see all of it."""
    health = Health()
    health.phase = "the database is unavailable: not yet\nDETAIL:  Consistent recovery state"
    port = pg_server.free_port()
    server = HealthServer(health, Metrics())
    await server.start("127.0.0.1", port)
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/readyz") as response,
        ):
            said = (response.status, await response.text())
    finally:
        await server.close()
    assert said == (503, "the database is unavailable: not yet DETAIL: Consistent recovery state\n")


async def test_the_trace_times_a_first_response_once_discord_accepts_it() -> None:
    """The trace on a real HTTP session, against a server that answers an interaction's
    callback as Discord might: a 503 that discord.py retries (not the end of it), then a 200;
    or a 404 (the token expired: the player saw the interaction fail)."""
    answers = {"77": [503, 200], "78": [404]}

    async def callback(request: web.Request) -> web.Response:
        return web.json_response({}, status=answers[request.match_info["id"]].pop(0))

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    runner = web.AppRunner(app)
    await runner.setup()
    port = pg_server.free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    metrics = Metrics()
    registry = metrics.registry

    def count(name: str) -> float | None:
        return registry.get_sample_value(name, {"type": "command"})

    url = f"http://127.0.0.1:{port}/api/v10/interactions/{{}}/a-token/callback?with_response=1"
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.trace_config()]) as session:
            for interaction in ("77", "78"):
                metrics.interaction_arrived({"id": interaction, "type": 2})

            async def respond(interaction: str) -> int:
                async with session.post(url.format(interaction), json={}) as response:
                    await response.read()
                    return response.status

            assert await respond("77") == 503
            assert count("tafl_interactions_unanswered_total") is None  # to be sent again
            assert count("tafl_interaction_latency_seconds_count") is None
            assert await respond("77") == 200
            assert count("tafl_interaction_latency_seconds_count") == 1
            assert await respond("78") == 404
            assert count("tafl_interactions_unanswered_total") == 1
    finally:
        await runner.cleanup()
