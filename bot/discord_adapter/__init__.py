"""The Discord adapter (discord.py 2.7): slash commands, autocomplete and buttons.

`clubtd run` registers `from_app` as the "discord" adapter factory; `DiscordService`
is the adapter itself, `DiscordConfig` what it reads from the settings.
"""

from __future__ import annotations

from bot.discord_adapter.service import (
    DiscordConfig,
    DiscordService,
    config_from_settings,
    from_app,
)

__all__ = ["DiscordConfig", "DiscordService", "config_from_settings", "from_app"]
