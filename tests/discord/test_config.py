"""The Discord adapter reads its settings as the Telegram one does (bot.settings)."""

from __future__ import annotations

import pytest

from bot.discord_adapter.service import config_from_settings
from bot.settings import Settings


def test_config_reads_the_token_and_the_director_role() -> None:
    settings = Settings(
        discord_token=" tok.en ",  # type: ignore[arg-type]
        discord_api_url="http://127.0.0.1:9000/api/v10",
        discord_director_role=" 700000000000000003 ",
    )
    config = config_from_settings(settings)
    assert config.token == "tok.en"  # the secret as plain text, spaces trimmed
    assert config.api_url == "http://127.0.0.1:9000/api/v10"
    assert config.director_role == "700000000000000003"


def test_an_unset_or_blank_token_is_a_start_up_error() -> None:
    for token in (None, "   "):
        with pytest.raises(ValueError, match="CLUBTD_DISCORD_TOKEN"):
            config_from_settings(Settings(discord_token=token))  # type: ignore[arg-type]
