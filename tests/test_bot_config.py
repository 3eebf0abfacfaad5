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
    assert settings.ai_workers == 2 and settings.identify_lock is None
    assert load_settings({"DISCORD_TOKEN": "t", "TAFL_AI_WORKERS": " 5 "}).ai_workers == 5
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
