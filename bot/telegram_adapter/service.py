"""The Telegram adapter as `clubtd run` starts it: one Application, run by hand.

`start()` initialises the Application (getMe), publishes the command menus, starts
the update processing (long polling by default, a webhook with a secret token when
configured) and the outbox sender; `stop()` takes them down in reverse. Everything
runs in the caller's event loop, beside the scheduler (not `run_polling`, which owns
the loop).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from telegram import Bot, BotCommand, BotCommandScopeAllChatAdministrators, BotCommandScopeDefault
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.sending.languages import ChatLanguages
from bot.sending.outbox import OutboxSender
from bot.sending.running import Poke
from bot.settings import secret_text
from bot.telegram_adapter.admins import AdminCache
from bot.telegram_adapter.delivery import Messenger, buttons
from bot.telegram_adapter.pacing import Limits, pacer
from bot.telegram_adapter.transport import PLATFORM, TelegramTransport
from bot.telegram_adapter.updates import UpdateHandlers
from bot.telegram_adapter.webhook import WebhookServer, shared_secret
from bot.throttle import Rate, Throttle
from commands.catalog import LANGUAGES, template
from commands.config import CommandConfig
from commands.registry import shown_to
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory

if TYPE_CHECKING:
    from bot.bootstrap import App

log = logging.getLogger("clubtd.telegram")

ALLOWED_UPDATES = ["message", "callback_query"]
TELEGRAM_API = "https://api.telegram.org/bot"


@dataclass(frozen=True, slots=True)
class TelegramConfig:
    """What the Telegram adapter reads from the settings (INTERFACE §5)."""

    token: str
    api_url: str | None = None  # CLUBTD_TELEGRAM_API_URL: a self-hosted Bot API server
    webhook_url: str | None = None  # CLUBTD_TELEGRAM_WEBHOOK_URL: webhook mode when set
    webhook_secret: str | None = (
        None  # CLUBTD_TELEGRAM_WEBHOOK_SECRET: derived from the token if unset
    )
    webhook_listen: str = "0.0.0.0"  # CLUBTD_TELEGRAM_WEBHOOK_LISTEN
    webhook_port: int = 8443  # CLUBTD_TELEGRAM_WEBHOOK_PORT
    poll_timeout: int = 10  # long-polling seconds; 0 for a Bot API stand-in without it
    poll_interval: float = 0.0  # pause between polls (use > 0 with poll_timeout 0)
    limits: Limits = field(default_factory=Limits)
    outbox_interval: float = 1.0  # how often the sender looks for due rows when idle
    admin_cache_seconds: float = 60.0
    concurrent_updates: int = 16
    throttle: Rate = field(default_factory=Rate)  # per person: a burst, then one every 3 s

    @property
    def base_url(self) -> str:
        """Return the Bot API base URL the token is appended to."""
        url = (self.api_url or TELEGRAM_API).rstrip("/")
        if "{token}" in url or url.endswith("/bot"):
            return url
        return url + "/bot"

    @property
    def base_file_url(self) -> str:
        url = self.base_url
        if "{token}" in url:
            return url.replace("/bot{token}", "/file/bot{token}")
        return url[: -len("/bot")] + "/file/bot"


def config_from_settings(settings: Any) -> TelegramConfig:
    """Read the Telegram settings; the webhook ones are optional until the lead adds them."""
    token = secret_text(settings.telegram_token)
    if token is None:
        raise ValueError("CLUBTD_TELEGRAM_TOKEN is not set")
    return TelegramConfig(
        token=token,
        api_url=getattr(settings, "telegram_api_url", None) or None,
        webhook_url=getattr(settings, "telegram_webhook_url", None) or None,
        webhook_secret=secret_text(getattr(settings, "telegram_webhook_secret", None)),
        webhook_listen=getattr(settings, "telegram_webhook_listen", None) or "0.0.0.0",
        webhook_port=int(getattr(settings, "telegram_webhook_port", None) or 8443),
    )


def bot_commands(language: str, *, directors: bool) -> list[BotCommand]:
    """Return the command menu: player commands, or every command for directors."""
    return [
        BotCommand(spec.name, template(language, f"help.{spec.name}")[:256] or spec.name)
        for spec in shown_to(director=directors)
    ]


async def publish_commands(bot: Bot) -> None:
    """setMyCommands: players' commands for everyone, all of them for group admins."""
    for language in LANGUAGES:
        code = None if language == "en" else language
        await bot.set_my_commands(
            bot_commands(language, directors=False),
            scope=BotCommandScopeDefault(),
            language_code=code,
        )
        await bot.set_my_commands(
            bot_commands(language, directors=True),
            scope=BotCommandScopeAllChatAdministrators(),
            language_code=code,
        )


class TelegramService:
    """The Telegram adapter: updates in, replies and outbox rows out."""

    platform = "telegram"

    def __init__(
        self,
        config: TelegramConfig,
        *,
        uow_factory: SqlUnitOfWorkFactory,
        command_config: CommandConfig,
        outbox: OutboxStore,
        clock: Callable[[], datetime],
        poke: Poke | None = None,
        request: BaseRequest | None = None,
        get_updates_request: BaseRequest | None = None,
        sender_options: dict[str, Any] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        builder = (
            ApplicationBuilder()
            .token(config.token)
            .base_url(config.base_url)
            .base_file_url(config.base_file_url)
            .concurrent_updates(config.concurrent_updates)
        )
        if request is not None:
            builder = builder.request(request).get_updates_request(get_updates_request or request)
        self.application: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        bot = self.application.bot
        # `monotonic` paces sends and ages caches; tests tie it to their virtual clock.
        self.pacer = pacer(config.limits, clock=monotonic)
        self.messenger = Messenger(bot, buttons(uow_factory, clock), self.pacer)
        self.admins = AdminCache(bot, ttl=config.admin_cache_seconds, clock=monotonic)
        self.transport = TelegramTransport(self.messenger, uow_factory)
        self.sender = OutboxSender(
            outbox,
            self.transport,
            uow_factory,
            clock,
            interval=config.outbox_interval,
            monotonic=monotonic,
            **(sender_options or {}),
        )
        self.handlers = UpdateHandlers(
            uow_factory=uow_factory,
            config=command_config,
            clock=clock,
            transport=self.transport,
            admins=self.admins,
            poke=poke,
            queued=self.sender.wake,
            outbox=outbox,
            throttle=Throttle(config.throttle, clock=monotonic),
            languages=ChatLanguages(
                uow_factory, PLATFORM, command_config.default_language, monotonic=monotonic
            ),
        )
        self.transport.moved = self.handlers.move_chat
        self.application.add_handler(
            MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, self.handlers.on_message)
        )
        self.application.add_handler(
            MessageHandler(filters.StatusUpdate.MIGRATE, self.handlers.on_migrate)
        )
        self.application.add_handler(CallbackQueryHandler(self.handlers.on_callback))
        self.application.add_error_handler(self._on_error)
        self.webhook: WebhookServer | None = None
        self._opened = False

    async def open(self) -> None:
        """Initialise the Application (getMe) and publish the command menus."""
        if self._opened:
            return
        await self.application.initialize()
        self._opened = True
        try:
            await publish_commands(self.application.bot)
        except TelegramError as error:
            log.warning("could not publish the command menu: %s", error)

    async def start(self) -> None:
        """Start receiving updates and sending the outbox."""
        try:
            await self.open()
            await self.application.start()
            if self.config.webhook_url:
                await self._start_webhook()
            else:
                assert self.application.updater is not None
                await self.application.updater.start_polling(
                    poll_interval=self.config.poll_interval,
                    timeout=self.config.poll_timeout,
                    allowed_updates=ALLOWED_UPDATES,
                )
            self.sender.start()
        except BaseException:
            await self.stop()  # half started (Telegram unreachable, a bad token): undo
            raise
        log.info("Telegram adapter started as @%s", self.application.bot.username)

    async def _start_webhook(self) -> None:
        url = self.config.webhook_url
        assert url is not None
        secret = self.config.webhook_secret or shared_secret(self.config.token)
        self.webhook = WebhookServer(
            self.application,
            listen=self.config.webhook_listen,
            port=self.config.webhook_port,
            path=urlparse(url).path or "/",
            secret=secret,
        )
        await self.webhook.start()
        await self.application.bot.set_webhook(
            url, secret_token=secret, allowed_updates=ALLOWED_UPDATES
        )

    async def stop(self) -> None:
        """Stop taking updates, let the ones in hand finish, then stop the sender;
        unsent rows wait in the outbox for the next start."""
        if self.webhook is not None:
            await self.webhook.stop()
            self.webhook = None
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        await self.sender.stop()
        if self._opened:
            await self.application.shutdown()
            self._opened = False

    def wake(self) -> None:
        """Send due outbox rows now (after a scheduler sweep, for instance)."""
        self.sender.wake()

    async def after_sweep(self) -> None:
        """For `Scheduler(after_sweep=...)`: what a sweep queued goes out at once."""
        self.sender.wake()

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error while handling %r", update, exc_info=context.error)


def from_app(app: App) -> TelegramService:
    """Build the adapter for `clubtd run` (an `AdapterFactory` for bot.runner.ADAPTERS)."""
    return TelegramService(
        config_from_settings(app.settings),
        uow_factory=app.uow_factory,
        command_config=app.config,
        outbox=app.outbox,
        clock=app.clock.now,
        poke=app.scheduler.poke,
    )
