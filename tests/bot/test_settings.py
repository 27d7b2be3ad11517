"""Settings from the environment (INTERFACE §5), CLUBTD_DIRECTORS in particular."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.bootstrap import command_config
from bot.settings import Settings, SettingsError, parse_directors


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
    with pytest.raises(SettingsError, match="platform:id"):
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
    with pytest.raises(SettingsError, match="time zone"):
        Settings()
    monkeypatch.setenv("CLUBTD_TIMEZONE", "UTC")
    monkeypatch.setenv("CLUBTD_LANGUAGE", "xx")
    with pytest.raises(SettingsError, match="language"):
        Settings()


def test_the_environment_wins_over_the_dotenv_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text(
        "# the club's settings\n"
        "export CLUBTD_TIMEZONE='America/Caracas'  # quoted, with a comment\n"
        'clubtd_language="es"\n'
        "CLUBTD_DATABASE_URL=sqlite:///from-file.db\n"
        "CLUBTD_UNKNOWN=ignored\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("CLUBTD_DATABASE_URL", "sqlite:///from-env.db")
    settings = Settings()
    assert settings.timezone == "America/Caracas"
    assert settings.language == "es"  # names in any case, as pydantic-settings read them
    assert settings.database_url == "sqlite:///from-env.db"


def test_values_given_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_DATABASE_URL", "sqlite:///from-env.db")
    monkeypatch.setenv("CLUBTD_TELEGRAM_WEBHOOK_PORT", "9443")
    settings = Settings(database_url="sqlite:///given.db")
    assert settings.database_url == "sqlite:///given.db"
    assert settings.telegram_webhook_port == 9443


def test_every_wrong_setting_is_named_with_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_TIMEZONE", "Mars/Olympus")
    monkeypatch.setenv("CLUBTD_TELEGRAM_WEBHOOK_PORT", "port")
    with pytest.raises(SettingsError) as raised:
        Settings()
    assert [name for name, _ in raised.value.problems] == [
        "CLUBTD_TELEGRAM_WEBHOOK_PORT",
        "CLUBTD_TIMEZONE",
    ]
    assert "CLUBTD_TIMEZONE: unknown time zone 'Mars/Olympus'" in str(raised.value)


def test_the_command_line_refuses_wrong_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.bot.conftest import invoke

    monkeypatch.setenv("CLUBTD_LANGUAGE", "xx")
    result = invoke("export", "--format", "json")
    assert result.exit_code == 2
    assert "invalid settings:\n  CLUBTD_LANGUAGE: unknown language 'xx'" in result.stderr


def test_secrets_stay_out_of_the_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_DISCORD_TOKEN", "tok-3141")
    monkeypatch.setenv("CLUBTD_TELEGRAM_WEBHOOK_SECRET", "hook-2718")
    settings = Settings()
    assert "3141" not in repr(settings) and "2718" not in str(settings)
    assert settings.telegram_webhook_secret is not None
    assert settings.telegram_webhook_secret.get_secret_value() == "hook-2718"
