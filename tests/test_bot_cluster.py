"""``python -m bot cluster``: how the shards are split, what each process is given, and the
supervisor keeping real (tiny, ``sh``) processes running, restarting and stopping them."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from fakediscord import FakeDiscord

from bot.__main__ import main
from bot.discord_bot.main.cluster import (
    ClusterError,
    check_database,
    plan,
    recommended_shard_count,
    run,
    split_shards,
)
from bot.discord_bot.main.supervisor import Backoff, Child, Exit, Supervisor
from bot.discord_bot.runtime.config import ConfigError, load_settings
from bot.storage import format_ranges

ROOT = Path(__file__).resolve().parent.parent
PG_URL = "postgresql://tafl:s3cret@db.example/tafl"


def sh(script: str) -> tuple[str, ...]:
    return ("/bin/sh", "-c", textwrap.dedent(script))


# -- planning ----------------------------------------------------------------------------------


def test_backoff_doubles_up_to_the_longest_and_starts_over_after_a_long_run() -> None:
    backoff = Backoff(first=1, longest=60, healthy_after=60)
    pauses: list[float] = []
    pause = None
    for ran_for in (0, 5, 5, 5, 5, 5, 5, 5, 59, 60, 1):
        pause = backoff.pause(pause, ran_for)
        pauses.append(pause)
    assert pauses == [1, 2, 4, 8, 16, 32, 60, 60, 60, 1, 2]


@pytest.mark.parametrize(
    ("ids", "processes", "runs"),
    [
        (range(10), 3, ["0-3", "4-6", "7-9"]),
        (range(4), 4, ["0", "1", "2", "3"]),
        (range(4), 1, ["0-3"]),
        ({0, 2, 5, 6}, 2, ["0,2", "5-6"]),
    ],
)
def test_shards_are_split_into_contiguous_runs(
    ids: range | set[int], processes: int, runs: list[str]
) -> None:
    assert [format_ranges(run) for run in split_shards(ids, processes)] == runs


def test_each_process_gets_its_range_and_the_rest_of_the_environment() -> None:
    environ = {"DISCORD_TOKEN": "t", "TAFL_DATABASE": PG_URL, "LOG_LEVEL": "DEBUG"}
    children = plan(load_settings(environ), 8, 3, environ=environ, command=("bot",))
    assert [child.name for child in children] == [
        "process 1 (shards 0-2)",
        "process 2 (shards 3-5)",
        "process 3 (shards 6-7)",
    ]
    assert children[1].command == ("bot",)
    workers = str(max(1, (os.cpu_count() or 2) // 3))
    name = f"{socket.gethostname()}:{os.getpid()}/process-2"
    assert children[1].env == {
        **environ, "TAFL_SHARD_COUNT": "8", "TAFL_SHARD_IDS": "3-5", "TAFL_AI_WORKERS": workers,
        "TAFL_INSTANCE": name,
    }  # fmt: skip


def test_each_process_keeps_its_name_and_gets_its_own_port() -> None:
    """A restarted child takes its shards back at once under the name it had; each answers
    health checks on a port of its own."""
    environ = {
        "DISCORD_TOKEN": "t", "TAFL_DATABASE": PG_URL, "TAFL_INSTANCE": "box",
        "TAFL_HTTP_PORT": "9100", "TAFL_PROCESS_INDEX": "0", "TAFL_PROCESSES": "3",
        "TAFL_SHARD_COUNT": "8",
    }  # fmt: skip
    # This machine is process 0 of 3 (its slice 0-2), in one process.
    children = plan(load_settings(environ), 8, 1, environ=environ, command=("bot",))
    envs = [child.env or {} for child in children]
    assert [env["TAFL_INSTANCE"] for env in envs] == ["box/process-1"]
    assert [env["TAFL_HTTP_PORT"] for env in envs] == ["9100"]
    assert "TAFL_PROCESS_INDEX" not in envs[0] and envs[0]["TAFL_SHARD_IDS"] == "0-2"
    del environ["TAFL_PROCESS_INDEX"]
    children = plan(load_settings(environ), 8, 3, environ=environ, command=("bot",))
    assert [(child.env or {})["TAFL_HTTP_PORT"] for child in children] == ["9100", "9101", "9102"]
    crowded = {**environ, "TAFL_HTTP_PORT": "65534"}
    with pytest.raises(ConfigError, match="TAFL_HTTP_PORT=65534 leaves no room for 3 processes"):
        plan(load_settings(crowded), 8, 3, environ=crowded, command=("bot",))


def test_the_ai_workers_are_shared_out_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    environ = {"DISCORD_TOKEN": "t", "TAFL_DATABASE": PG_URL}
    settings = load_settings(environ)
    assert [c.env["TAFL_AI_WORKERS"] for c in plan(settings, 8, 3, environ=environ)] == ["2"] * 3
    assert plan(settings, 8, 1, environ=environ)[0].env["TAFL_AI_WORKERS"] == "8"
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert plan(settings, 8, 4, environ=environ)[0].env["TAFL_AI_WORKERS"] == "1"
    chosen = {**environ, "TAFL_AI_WORKERS": "3"}
    assert plan(load_settings(chosen), 8, 4, environ=chosen)[3].env["TAFL_AI_WORKERS"] == "3"


def test_a_cluster_given_shard_ids_splits_only_those() -> None:
    environ = {"DISCORD_TOKEN": "t", "TAFL_SHARD_COUNT": "16", "TAFL_SHARD_IDS": "8-15"}
    children = plan(load_settings(environ), 16, 2, environ=environ, command=("bot",))
    assert [child.env and child.env["TAFL_SHARD_IDS"] for child in children] == ["8-11", "12-15"]
    with pytest.raises(ConfigError, match=r"^--processes must be at least 1, not 0$"):
        plan(load_settings(environ), 16, 0, environ=environ)


def test_more_processes_than_shards_run_one_per_shard(caplog: pytest.LogCaptureFixture) -> None:
    environ = {"DISCORD_TOKEN": "t", "TAFL_SHARD_COUNT": "16", "TAFL_SHARD_IDS": "8-15"}
    with caplog.at_level(logging.WARNING):
        children = plan(load_settings(environ), 16, 9, environ=environ, command=("bot",))
    assert [child.env and child.env["TAFL_SHARD_IDS"] for child in children] == [
        str(k) for k in range(8, 16)
    ]
    assert "9 processes asked for but there are only 8 shards to run: running 8" in caplog.text


def test_several_processes_need_postgresql() -> None:
    sqlite = load_settings({"DISCORD_TOKEN": "t"})
    check_database(sqlite, 1)
    with pytest.raises(ConfigError) as refused:
        check_database(sqlite, 2)
    assert str(refused.value) == (
        "2 processes cannot share the SQLite file data/tafl.sqlite3: use PostgreSQL"
        " (TAFL_DATABASE=postgresql://…), or --processes 1"
    )
    check_database(load_settings({"DISCORD_TOKEN": "t", "TAFL_DATABASE": PG_URL}), 2)


def test_the_command_line_refuses_sqlite_for_several_processes_before_asking_discord(
    capsys: pytest.CaptureFixture[str],
) -> None:
    environ = {"DISCORD_TOKEN": "t", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}
    assert run(["--processes", "2"], environ) == 2
    assert capsys.readouterr().err == (
        "tafl bot: 2 processes cannot share the SQLite file data/tafl.sqlite3: use PostgreSQL"
        " (TAFL_DATABASE=postgresql://…), or --processes 1\n"
    )


def test_an_unknown_command_is_refused_with_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clutser"]) == 2
    assert capsys.readouterr().err == (
        "tafl bot: unknown command 'clutser'\n"
        "usage: python -m bot [cluster --processes N | health [--ready]"
        " | catalogs extract|update|check|init LANG]\n"
    )


async def test_the_shard_count_discord_recommends() -> None:
    async with FakeDiscord(recommended_shards=6) as fake:
        assert await recommended_shard_count(fake.api_base, fake.token) == 6
        with pytest.raises(
            ClusterError, match=r"^Discord refused the token in DISCORD_TOKEN \(401"
        ):
            await recommended_shard_count(fake.api_base, "wrong")
        fake.request_log.rejected.clear()


async def test_an_unreachable_discord_is_one_clear_sentence() -> None:
    with socket.socket() as unused:  # a port nobody listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(ClusterError) as failed:
        await recommended_shard_count(f"http://127.0.0.1:{port}/api/v10", "t")
    message = str(failed.value)
    assert message.startswith(
        f"cannot ask Discord how many shards to run (GET http://127.0.0.1:{port}/api/v10/gateway/bot:"
    )
    assert message.endswith("); set TAFL_SHARD_COUNT to skip asking") and "\n" not in message


# -- the supervisor, with real processes -------------------------------------------------------


async def test_a_dying_process_is_restarted_with_a_doubling_pause_reset_by_a_long_run(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Run 2 is killed by SIGKILL, run 4 lives longer than healthy_after; the others exit at once.
    script = f"""
        n=$(( $(cat {tmp_path}/runs 2>/dev/null || echo 0) + 1 )); echo $n > {tmp_path}/runs
        [ $n -eq 2 ] && kill -9 $$
        [ $n -eq 4 ] && sleep 0.8
        exit 3
    """
    backoff = Backoff(first=0.05, longest=0.2, healthy_after=0.5)
    six_exits = asyncio.Event()

    def on_exit(ended: Exit) -> None:
        if len(supervisor.exits) == 6:
            supervisor.stop()
            six_exits.set()

    supervisor = Supervisor(
        [Child("process 1 (shards 0-3)", sh(script))], backoff=backoff, on_exit=on_exit
    )
    caplog.set_level(logging.INFO, "bot.cluster")
    assert await asyncio.wait_for(supervisor.run(handle_signals=False), 10) == 0
    assert six_exits.is_set()
    first_six = supervisor.exits[:6]
    assert [e.status for e in first_six] == [3, -9, 3, 3, 3, 3]
    assert [e.restart_in for e in first_six] == [0.05, 0.1, 0.2, 0.05, 0.1, 0.2]
    assert (
        "process 1 (shards 0-3) exited with code -9 (SIGKILL) after 0 s; restarting in 0.1 s"
        in (caplog.messages)
    )


async def test_a_process_that_refuses_to_run_stops_alone_and_the_others_keep_serving(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A rolling upgrade's old process restarting onto a schema it cannot read (or any other
    refusal, exit status 2) is not restarted in a loop, and takes no healthy process down."""
    steady = sh(f"""
        trap 'echo $? > {tmp_path}/steady-stopped; exit 0' TERM
        while :; do echo beat >> {tmp_path}/steady-beats; sleep 0.02; done
    """)
    broken = sh(f"""
        echo started >> {tmp_path}/broken-runs
        echo "tafl bot: the database's schema is too new" >&2
        exit 2
    """)
    refused = asyncio.Event()
    supervisor = Supervisor(
        [Child("process 1 (shards 0-1)", steady), Child("process 2 (shards 2-3)", broken)],
        backoff=Backoff(first=0.01),
        grace=5,
        on_exit=lambda ended: refused.set(),
    )
    caplog.set_level(logging.INFO, "bot.cluster")
    running = asyncio.create_task(supervisor.run(handle_signals=False))
    await asyncio.wait_for(refused.wait(), 10)
    beats = tmp_path / "steady-beats"

    def count() -> int:
        return beats.read_text().count("beat") if beats.exists() else 0

    seen = count()
    for _ in range(500):  # the healthy process goes on after the refusal
        if count() > seen + 2:
            break
        await asyncio.sleep(0.02)
    assert count() > seen + 2
    supervisor.stop()
    assert await asyncio.wait_for(running, 10) == 0
    assert (tmp_path / "broken-runs").read_text() == "started\n"  # never restarted
    assert (tmp_path / "steady-stopped").exists()
    assert sorted((e.child, e.status, e.restart_in) for e in supervisor.exits) == [
        (0, 0, None),
        (1, 2, None),
    ]
    assert (
        "process 2 (shards 2-3) refused to run (exit status 2; its reason is above): it is not"
        " restarted; 1 other process(es) keep serving"
    ) in caplog.messages


async def test_when_every_process_refuses_the_set_stops_with_status_2(tmp_path: Path) -> None:
    broken = sh(f"echo started >> {tmp_path}/runs; exit 2")
    supervisor = Supervisor(
        [Child("process 1", broken), Child("process 2", broken)], backoff=Backoff(first=0.01)
    )
    assert await asyncio.wait_for(supervisor.run(handle_signals=False), 10) == 2
    assert (tmp_path / "runs").read_text() == "started\nstarted\n"


SUPERVISE = """
import asyncio, json, logging, sys
from bot.discord_bot.main.supervisor import Child, Supervisor
logging.basicConfig(level=logging.INFO, format="%(message)s")
children = [Child(name, command) for name, command in json.loads(sys.argv[1])]
sys.exit(asyncio.run(Supervisor(children, grace=float(sys.argv[2])).run()))
"""


def test_sigterm_stops_every_process_and_kills_one_that_will_not_stop(tmp_path: Path) -> None:
    def child(name: str, on_term: str) -> tuple[str, tuple[str, ...]]:
        return name, sh(f"""
            trap '{on_term}' TERM
            echo $$ > {tmp_path}/{name}.pid
            while :; do sleep 0.02; done
        """)

    children = [child("polite", "exit 0"), child("stubborn", "")]
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISE, json.dumps(children), "0.5"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pid_files = [tmp_path / f"{name}.pid" for name, _ in children]
        deadline = time.monotonic() + 10
        while not all(path.exists() and path.read_text().strip() for path in pid_files):
            assert time.monotonic() < deadline and supervisor.poll() is None
            time.sleep(0.01)
        supervisor.send_signal(signal.SIGTERM)
        _, log = supervisor.communicate(timeout=10)
    finally:
        supervisor.kill()
    assert supervisor.returncode == 0, log
    for path in pid_files:
        with pytest.raises(ProcessLookupError):
            os.kill(int(path.read_text()), 0)
    assert "SIGTERM: stopping every process" in log
    assert "stubborn did not stop within 0.5 s of SIGTERM: killing it" in log
    assert "polite stopped with exit status 0" in log
    assert "stubborn stopped with exit status -9" in log


def test_a_supervisor_killed_outright_takes_its_processes_with_it(tmp_path: Path) -> None:
    children = [("sleeper", sh(f"echo $$ > {tmp_path}/sleeper.pid; exec sleep 60"))]
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISE, json.dumps(children), "0.5"],
        cwd=ROOT,
        stderr=subprocess.DEVNULL,
    )
    pid_file = tmp_path / "sleeper.pid"
    try:
        deadline = time.monotonic() + 10
        while not (pid_file.exists() and pid_file.read_text().strip()):
            assert time.monotonic() < deadline and supervisor.poll() is None
            time.sleep(0.01)
        supervisor.kill()  # SIGKILL: no chance to stop anything itself
        supervisor.wait(timeout=10)
        child = int(pid_file.read_text())
        deadline = time.monotonic() + 10
        while _alive(child):
            assert time.monotonic() < deadline, "the child outlived its supervisor"
            time.sleep(0.01)
    finally:
        supervisor.kill()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie waiting for init to reap it is dead too.
    status = (
        Path(f"/proc/{pid}/stat").read_text().split()[2] if Path(f"/proc/{pid}").exists() else "X"
    )
    return status not in ("Z", "X")


# -- --hold-on-refusal: a refused configuration is not restarted in a loop ---------------------

MALFORMED = {
    "a lease of 1 s": (
        {"TAFL_SHARD_LEASE": "1"},
        "TAFL_SHARD_LEASE must be at least 3 seconds, not 1",
    ),
    "ai workers abc": (
        {"TAFL_AI_WORKERS": "abc"},
        "TAFL_AI_WORKERS must be a whole number of processes from 1 to 64, not 'abc'",
    ),
    "pool size 0": (
        {"TAFL_DB_POOL_SIZE": "0"},
        "TAFL_DB_POOL_SIZE must be a whole number from 1 to 1000, not '0'",
    ),
    "a missing password file": (
        {"TAFL_DATABASE_PASSWORD_FILE": "{folder}/missing"},
        "TAFL_DATABASE_PASSWORD_FILE names '{folder}/missing', which cannot be read:"
        " No such file or directory",
    ),
    "port 99999": (
        {"TAFL_HTTP_PORT": "99999"},
        "TAFL_HTTP_PORT must be a port number from 1 to 65535, not '99999'",
    ),
    "token and token file": (
        {"DISCORD_TOKEN_FILE": "{folder}/token"},
        "DISCORD_TOKEN and DISCORD_TOKEN_FILE are both set: keep one (the file is the safer place)",
    ),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_a_cluster_holding_on_a_malformed_setting_runs_until_sigterm_and_says_why(
    case: str, tmp_path: Path
) -> None:
    """As Docker Compose runs it (``restart: unless-stopped``): the cluster does not exit,
    which would have it restarted in a loop; it logs the reason, its health check says
    unhealthy with the reason, and SIGTERM stops it with status 2."""
    setting, reason = MALFORMED[case]
    (tmp_path / "token").write_text("a token\n")
    port = _free_port()
    env = _cluster_env(tmp_path, port)
    env.update({name: value.format(folder=tmp_path) for name, value in setting.items()})
    reason = reason.format(folder=tmp_path)
    if case == "port 99999":  # no port to answer on: the check reads the setting itself
        said = f"unhealthy: {reason}"
    else:
        said = f"not ready: the process on port {port}: refused to run: {reason}"
    log = _held(env, tmp_path, said)
    assert f"CRITICAL bot.cluster: refused to run: {reason}; waiting to be stopped" in log


def test_a_cluster_whose_every_process_refused_holds_and_says_so(tmp_path: Path) -> None:
    """The settings are fine, but the bot process refuses the database (not an SQLite file):
    the cluster holds too, and its health check points to the log."""
    (tmp_path / "notes.txt").write_text("not a database\n")
    port = _free_port()
    env = _cluster_env(tmp_path, port)
    env.update({"TAFL_SHARD_COUNT": "1", "TAFL_DATABASE": str(tmp_path / "notes.txt")})
    reason = "every bot process refused (exit status 2); the log says why"
    log = _held(env, tmp_path, f"not ready: the process on port {port}: refused to run: {reason}")
    assert "process 1 (shards 0) refused to run (exit status 2" in log
    assert (tmp_path / "notes.txt").read_text() == "not a database\n"


def _cluster_env(folder: Path, port: int) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(folder),
        "DISCORD_TOKEN": "a token",
        "TAFL_HTTP_HOST": "127.0.0.1",
        "TAFL_HTTP_PORT": str(port),
        "TAFL_AI_WORKERS": "1",
    }


def _held(env: dict[str, str], folder: Path, said: str) -> str:
    """Run ``python -m bot cluster --hold-on-refusal`` until it says it holds; check that
    ``python -m bot health --ready`` prints ``said`` (and exits 1) while it goes on running,
    and that SIGTERM stops it with status 2; its log."""
    log_path = folder / "cluster.log"
    with log_path.open("wb") as log_file:
        cluster = subprocess.Popen(
            [sys.executable, "-m", "bot", "cluster", "--hold-on-refusal"],
            cwd=folder,  # no .env of the project's
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=log_file,
        )
    try:
        deadline = time.monotonic() + 30
        while "waiting to be stopped" not in log_path.read_text():
            assert cluster.poll() is None, (
                f"exited with status {cluster.returncode}:\n{log_path.read_text()}"
            )
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        health = subprocess.run(
            [sys.executable, "-m", "bot", "health", "--ready"],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert (health.returncode, health.stdout.strip()) == (1, said)
        assert cluster.poll() is None, "the cluster stopped holding"
        cluster.send_signal(signal.SIGTERM)
        assert cluster.wait(timeout=30) == 2
    finally:
        cluster.kill()
    log = log_path.read_text()
    assert "Traceback" not in log
    return log


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
