"""Settings from the environment (INTERFACE §5), CLUBTD_DIRECTORS in particular."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.bootstrap import command_config
from bot.settings import Settings, parse_directors


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Run each test without the developer's CLUBTD_ variables or .env file."""
    import os

    for key in list(os.environ):
        if key.startswith("CLUBTD_"):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)


def test_defaults() -> None:
    settings = Settings()
    assert settings.database_url == "sqlite:///clubtd.db"
    assert settings.discord_token is None
    assert settings.telegram_token is None
    assert settings.telegram_api_url is None
    assert settings.directors == frozenset()
    assert (settings.timezone, settings.language) == ("UTC", "en")


def test_directors_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_DIRECTORS", "telegram:123, discord:456,Telegram:789")
    settings = Settings()
    assert settings.directors == frozenset(
        {("telegram", "123"), ("discord", "456"), ("telegram", "789")}
    )
    assert command_config(settings).directors == settings.directors


def test_directors_from_a_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "CLUBTD_DIRECTORS=console:ana\nCLUBTD_TIMEZONE=America/Caracas\n", encoding="utf-8"
    )
    settings = Settings()
    assert settings.directors == frozenset({("console", "ana")})
    assert settings.timezone == "America/Caracas"


def test_empty_directors_is_nobody(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_DIRECTORS", "")
    assert Settings().directors == frozenset()


@pytest.mark.parametrize("value", ["123", "telegram:", "irc:55", "telegram:1,,discord"])
def test_bad_directors_are_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CLUBTD_DIRECTORS", value)
    with pytest.raises(ValidationError, match="platform:id"):
        Settings()


def test_parse_directors_accepts_pairs() -> None:
    assert parse_directors([("discord", 7)]) == frozenset({("discord", "7")})


def test_tokens_are_secret_and_blank_means_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("CLUBTD_DISCORD_TOKEN", " ")
    settings = Settings()
    assert settings.telegram_token is not None
    assert settings.telegram_token.get_secret_value() == "123:abc"
    assert "123:abc" not in repr(settings)
    assert settings.discord_token is None


def test_unknown_time_zone_or_language_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_TIMEZONE", "Mars/Olympus")
    with pytest.raises(ValidationError, match="time zone"):
        Settings()
    monkeypatch.setenv("CLUBTD_TIMEZONE", "UTC")
    monkeypatch.setenv("CLUBTD_LANGUAGE", "xx")
    with pytest.raises(ValidationError, match="language"):
        Settings()
