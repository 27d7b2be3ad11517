"""The Telegram adapter (python-telegram-bot 22): a thin skin over the shared commands.

`clubtd run` registers `from_app` as the "telegram" adapter factory; `TelegramService`
is the adapter itself, `TelegramConfig` what it reads from the settings.
"""

from __future__ import annotations

from bot.telegram_adapter.service import (
    TelegramConfig,
    TelegramService,
    config_from_settings,
    from_app,
    publish_commands,
)

__all__ = [
    "TelegramConfig",
    "TelegramService",
    "config_from_settings",
    "from_app",
    "publish_commands",
]
