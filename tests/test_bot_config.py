"""Settings from the environment and .env: clear errors, the token never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_bot.config import ConfigError, load_settings


def test_defaults_and_values() -> None:
    settings = load_settings({"DISCORD_TOKEN": "secret-token", "DISCORD_TEST_GUILD_ID": "42"})
    assert settings.database == Path("data/tafl.sqlite3")
    assert settings.test_guild_id == 42
    assert settings.log_level == "INFO"
    assert settings.api_base is None and settings.gateway_url is None
    assert "secret-token" not in repr(settings) and "secret-token" not in str(settings)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": " "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DISCORD_TEST_GUILD_ID": "abc"}, "must be a server id"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
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
