"""Settings from the environment and .env: clear errors, the token never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_bot.runtime.config import ConfigError, load_settings
from bot.storage import Shards


def test_defaults_and_values() -> None:
    settings = load_settings({"DISCORD_TOKEN": "secret-token", "DISCORD_TEST_GUILD_ID": "42"})
    assert settings.database == "data/tafl.sqlite3"
    assert settings.shards is None  # the plain unsharded bot
    assert settings.test_guild_id == 42
    assert settings.log_level == "INFO"
    assert settings.api_base is None and settings.gateway_url is None
    assert settings.ai_workers == 2 and settings.instance is None
    assert settings.lease_seconds == 30 and settings.http_port is None
    assert settings.postgres.pool_size == 10 and settings.postgres.pool_wait == 30
    assert settings.postgres.statement_cache == 100 and settings.postgres.password is None
    assert load_settings({"DISCORD_TOKEN": "t", "TAFL_AI_WORKERS": " 5 "}).ai_workers == 5
    assert not settings.pseudo_locale
    assert load_settings({"DISCORD_TOKEN": "t", "TAFL_PSEUDO_LOCALE": "1"}).pseudo_locale
    assert "secret-token" not in repr(settings) and "secret-token" not in str(settings)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": " "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DISCORD_TEST_GUILD_ID": "abc"}, "must be a server id"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "t", "TAFL_AI_WORKERS": "0"}, "from 1 to 64, not '0'"),
        ({"DISCORD_TOKEN": "t", "TAFL_AI_WORKERS": "two"}, "TAFL_AI_WORKERS must be a whole"),
        ({"DISCORD_TOKEN": "t", "TAFL_HTTP_PORT": "99999"}, "from 1 to 65535, not '99999'"),
        ({"DISCORD_TOKEN": "t", "TAFL_DB_POOL_SIZE": "0"}, "TAFL_DB_POOL_SIZE must be a whole"),
        ({"DISCORD_TOKEN": "t", "TAFL_DB_POOL_WAIT": "soon"}, "TAFL_DB_POOL_WAIT must be a"),
        ({"DISCORD_TOKEN": "t", "TAFL_DB_STATEMENT_CACHE": "-1"}, "from 0 to 100000"),
        ({"DISCORD_TOKEN": "t", "TAFL_SHARD_LEASE": "1"}, "TAFL_SHARD_LEASE must be at least 3"),
        (
            {
                "DISCORD_TOKEN": "t",
                "TAFL_DATABASE": "postgresql://tafl@pgbouncer/tafl",
                "TAFL_DATABASE_LISTEN_URL": "db.example:5432",
            },
            "TAFL_DATABASE_LISTEN_URL must be a postgresql:// URL",
        ),
        (
            {"DISCORD_TOKEN": "t", "TAFL_DATABASE_LISTEN_URL": "postgresql://tafl@db/tafl"},
            "TAFL_DATABASE_LISTEN_URL is set but TAFL_DATABASE is not PostgreSQL",
        ),
    ],
)
def test_bad_settings_say_what_is_wrong(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(environ)


def test_dotenv_in_the_working_directory_fills_gaps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=debug\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("LOG_LEVEL", "WARNING")  # the environment wins over the file
    settings = load_settings()
    assert settings.token == "from-file"
    assert settings.log_level == "WARNING"
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # load_dotenv set it in os.environ


def test_missing_token_exits_with_a_message_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main() == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "Traceback" not in err


def test_clock_settings_are_checked() -> None:
    base = {"DISCORD_TOKEN": "t"}
    settings = load_settings({**base, "TAFL_TIMER_TICK": "0.5", "TAFL_CHALLENGE_EXPIRY": "60"})
    assert (settings.timer_tick, settings.challenge_expiry) == (0.5, 60)
    with pytest.raises(ConfigError, match="TAFL_TIMER_TICK must be a number of seconds"):
        load_settings({**base, "TAFL_TIMER_TICK": "5s"})
    with pytest.raises(ConfigError, match=r"TAFL_TIMER_TICK must be at least 0\.1 seconds"):
        load_settings({**base, "TAFL_TIMER_TICK": "0"})
    with pytest.raises(ConfigError, match="TAFL_CHALLENGE_EXPIRY must be at least 5 seconds"):
        load_settings({**base, "TAFL_CHALLENGE_EXPIRY": "1"})


def test_a_database_url_is_kept_as_text_and_shown_without_its_password() -> None:
    url = "postgresql://tafl:s3cret-pw@db.example:5432/tafl"
    settings = load_settings({"DISCORD_TOKEN": "t", "TAFL_DATABASE": url})
    assert settings.database == url
    assert "s3cret-pw" not in repr(settings)
    assert "database='postgresql://tafl:***@db.example:5432/tafl'" in repr(settings)


@pytest.mark.parametrize(
    ("count", "ids", "expected", "shown"),
    [
        ("4", "", Shards.every(4), "'0-3 of 4'"),
        ("1", "", Shards.every(1), "'0 of 1'"),
        ("8", "0-3", Shards.of(8, range(4)), "'0-3 of 8'"),
        ("8", "0,2,5", Shards.of(8, {0, 2, 5}), "'0,2,5 of 8'"),
        (" 8 ", " 0-3, 6 ", Shards.of(8, {0, 1, 2, 3, 6}), "'0-3,6 of 8'"),
    ],
)
def test_shard_settings(count: str, ids: str, expected: Shards, shown: str) -> None:
    environ = {"DISCORD_TOKEN": "t", "TAFL_SHARD_COUNT": count, "TAFL_SHARD_IDS": ids}
    settings = load_settings(environ)
    assert settings.shards == expected
    assert f"shards={shown}" in repr(settings)


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        ("", "0-3", "TAFL_SHARD_IDS is '0-3' but TAFL_SHARD_COUNT is not set: it is needed too"),
        (
            "four",
            "",
            "TAFL_SHARD_COUNT must be a whole number of shards from 1 to 10000, "
            "not 'four': write e.g. TAFL_SHARD_COUNT=4",
        ),
        ("0", "", "TAFL_SHARD_COUNT must be a whole number .* not '0'"),
        ("-2", "", "TAFL_SHARD_COUNT must be a whole number .* not '-2'"),
        ("²", "", "TAFL_SHARD_COUNT must be a whole number .* not '²'"),
        ("10001", "", "TAFL_SHARD_COUNT must be a whole number .* not '10001'"),
        (
            "8",
            "0-x",
            "TAFL_SHARD_IDS '0-x' cannot be read: '0-x' is not a shard number or a range"
            " like 0-3; write shard numbers and ranges like 0-3, 0,2,5 or 0-3,6",
        ),
        ("8", "3-1", "TAFL_SHARD_IDS '3-1' cannot be read: the range '3-1' runs backwards"),
        ("8", "0,,2", "TAFL_SHARD_IDS '0,,2' cannot be read: '0,,2' has an empty part"),
        (
            "8",
            "4-9",
            "TAFL_SHARD_IDS '4-9' names shard 8, but with TAFL_SHARD_COUNT=8 the shards"
            " are numbered 0 to 7",
        ),
    ],
)
def test_bad_shard_settings_say_what_to_write(count: str, ids: str, message: str) -> None:
    environ = {"DISCORD_TOKEN": "t", "TAFL_SHARD_COUNT": count, "TAFL_SHARD_IDS": ids}
    with pytest.raises(ConfigError, match=f"^{message}"):
        load_settings(environ)


def test_database_and_deployment_settings() -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": "t",
            "TAFL_DB_POOL_SIZE": "40",
            "TAFL_DB_POOL_WAIT": "12.5",
            "TAFL_DB_CONNECT_TIMEOUT": "3",
            "TAFL_DB_STATEMENT_CACHE": "0",
            "TAFL_DATABASE_PASSWORD": "pa55word",
            "TAFL_INSTANCE": "tafl-bot-2",
            "TAFL_SHARD_LEASE": "20",
            "TAFL_HTTP_PORT": "9100",
            "TAFL_HTTP_HOST": "127.0.0.1",
        }
    )
    options = settings.postgres
    assert (options.pool_size, options.pool_wait, options.connect_timeout) == (40, 12.5, 3)
    assert options.statement_cache == 0 and options.password == "pa55word"
    assert (settings.instance, settings.lease_seconds) == ("tafl-bot-2", 20)
    assert (settings.http_host, settings.http_port) == ("127.0.0.1", 9100)
    assert "pa55word" not in repr(settings)
    assert options.listen_url is None


def test_behind_pgbouncer_the_listening_connection_can_go_direct(tmp_path: Path) -> None:
    direct = "postgresql://tafl:s3cret@postgres:5432/tafl"
    environ = {"DISCORD_TOKEN": "t", "TAFL_DATABASE": "postgresql://tafl@pgbouncer:6432/tafl"}
    settings = load_settings({**environ, "TAFL_DATABASE_LISTEN_URL": direct})
    assert settings.postgres.listen_url == direct
    assert "s3cret" not in repr(settings)
    (tmp_path / "listen").write_text(direct + "\n")
    from_file = load_settings(
        {**environ, "TAFL_DATABASE_LISTEN_URL_FILE": str(tmp_path / "listen")}
    )
    assert from_file.postgres.listen_url == direct


def test_secrets_can_come_from_files(tmp_path: Path) -> None:
    """As Docker and Kubernetes mount secrets: the value in a file, its name in ``<NAME>_FILE``
    (a final line break, as editors write, is not part of it)."""
    token, password = tmp_path / "token", tmp_path / "password"
    token.write_text("file-token\n")
    password.write_text("pw from file\n")
    settings = load_settings(
        {"DISCORD_TOKEN_FILE": str(token), "TAFL_DATABASE_PASSWORD_FILE": str(password)}
    )
    assert settings.token == "file-token" and settings.postgres.password == "pw from file"
    with pytest.raises(ConfigError, match="DISCORD_TOKEN and DISCORD_TOKEN_FILE are both set"):
        load_settings({"DISCORD_TOKEN": "t", "DISCORD_TOKEN_FILE": str(token)})
    with pytest.raises(ConfigError, match=r"DISCORD_TOKEN_FILE names '.*nowhere', which cannot"):
        load_settings({"DISCORD_TOKEN_FILE": str(tmp_path / "nowhere")})


@pytest.mark.parametrize(
    ("index", "expected"),
    [("0", {0, 1, 2}), ("1", {3, 4, 5}), ("tafl-bot-2", {6, 7}), ("2", {6, 7})],
)
def test_a_process_index_picks_its_slice_of_the_shards(index: str, expected: set[int]) -> None:
    """As in a StatefulSet, whose pod names end in their ordinal: 8 shards over 3 pods."""
    settings = load_settings(
        {
            "DISCORD_TOKEN": "t",
            "TAFL_SHARD_COUNT": "8",
            "TAFL_PROCESSES": "3",
            "TAFL_PROCESS_INDEX": index,
        }
    )
    assert settings.shards == Shards.of(8, expected)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"TAFL_PROCESS_INDEX": "0"}, "TAFL_PROCESS_INDEX is set but TAFL_SHARD_COUNT is not"),
        ({"TAFL_SHARD_COUNT": "4", "TAFL_PROCESS_INDEX": "0"}, "TAFL_PROCESSES is not"),
        (
            {"TAFL_SHARD_COUNT": "4", "TAFL_PROCESSES": "2", "TAFL_PROCESS_INDEX": "bot"},
            "a number from 0, or a name ending in one",
        ),
        (
            {"TAFL_SHARD_COUNT": "4", "TAFL_PROCESSES": "2", "TAFL_PROCESS_INDEX": "tafl-bot-2"},
            "is process 2, but with TAFL_PROCESSES=2 they are numbered 0 to 1",
        ),
        (
            {"TAFL_SHARD_COUNT": "2", "TAFL_PROCESSES": "3", "TAFL_PROCESS_INDEX": "0"},
            "TAFL_PROCESSES=3 is more than the 2 shards",
        ),
        (
            {"TAFL_SHARD_COUNT": "4", "TAFL_SHARD_IDS": "0", "TAFL_PROCESS_INDEX": "0"},
            "TAFL_SHARD_IDS and TAFL_PROCESS_INDEX are both set",
        ),
    ],
)
def test_bad_process_index_settings_say_what_to_write(extra: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({"DISCORD_TOKEN": "t", **extra})


def test_the_web_board_is_on_only_with_a_public_url_and_a_port(tmp_path: Path) -> None:
    base = {"DISCORD_TOKEN": "t"}
    assert load_settings(base, dotenv=False).public_url is None
    with pytest.raises(ConfigError, match="TAFL_HTTP_PORT is not"):
        load_settings({**base, "TAFL_PUBLIC_URL": "https://tafl.example.org"}, dotenv=False)
    with pytest.raises(ConfigError, match="web address"):
        load_settings(
            {**base, "TAFL_HTTP_PORT": "8000", "TAFL_PUBLIC_URL": "tafl.example.org"},
            dotenv=False,
        )
    secret = tmp_path / "client-secret"
    secret.write_text("shh-client\n")
    settings = load_settings(
        {
            **base,
            "TAFL_HTTP_PORT": "8000",
            "TAFL_PUBLIC_URL": "https://tafl.example.org/",
            "TAFL_WEB_SECRET": "shh-web",
            "DISCORD_CLIENT_SECRET_FILE": str(secret),
        },
        dotenv=False,
    )
    assert settings.public_url == "https://tafl.example.org"  # no trailing slash
    assert settings.web_secret == "shh-web" and settings.client_secret == "shh-client"
    shown = repr(settings)
    assert "shh" not in shown and "web_secret=<hidden>" in shown
