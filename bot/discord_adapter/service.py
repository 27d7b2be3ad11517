"""The Discord adapter as `clubtd run` starts it: a discord.py client in the caller's loop.

`start()` logs in (`GET /users/@me`), asks for the gateway in `setup_hook` (so a REST
base set by CLUBTD_DISCORD_API_URL brings its own gateway), syncs the slash commands
built from the registry, connects, and starts the outbox sender; `stop()` undoes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord import app_commands

from bot import pictures
from bot.discord_adapter.interactions import InteractionHandlers
from bot.discord_adapter.posts import Draw
from bot.discord_adapter.slash import Translator, build_commands
from bot.discord_adapter.transport import PLATFORM, DiscordTransport
from bot.sending.buttons import ButtonStore
from bot.sending.languages import ChatLanguages
from bot.sending.outbox import OutboxSender
from bot.sending.pacing import Window, WindowPacer
from bot.sending.running import Poke
from bot.settings import Shards, secret_text
from bot.throttle import Rate, Throttle
from commands.config import CommandConfig
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory

if TYPE_CHECKING:
    from bot.bootstrap import App

log = logging.getLogger("clubtd.discord")

DISCORD_API = "https://discord.com/api/v10"
CUSTOM_ID_LIMIT = 100
BUTTON_KEY = "discord.button."


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    """What the Discord adapter reads from the settings (INTERFACE §5)."""

    token: str
    api_url: str | None = None  # CLUBTD_DISCORD_API_URL: a rate-limit proxy or a test double
    director_role: str | None = None  # CLUBTD_DISCORD_DIRECTOR_ROLE: a role id
    shards: Shards | None = None  # CLUBTD_DISCORD_SHARDS: None runs all of them here
    window: Window = field(default_factory=Window)
    outbox_interval: float = 1.0
    defer_after: float = 1.0  # answer within Discord's 3 s: defer what takes longer
    throttle: Rate = field(default_factory=Rate)  # per person: a burst, then one every 3 s


def config_from_settings(settings: Any) -> DiscordConfig:
    token = secret_text(settings.discord_token)
    if token is None:
        raise ValueError("CLUBTD_DISCORD_TOKEN is not set")
    return DiscordConfig(
        token=token,
        api_url=getattr(settings, "discord_api_url", None) or None,
        director_role=getattr(settings, "discord_director_role", None) or None,
        shards=getattr(settings, "discord_shards", None),
    )


RATE_LIMIT_WAIT = 1.0  # seconds discord.py may sleep in a send; longer: that chat waits


class ClubClient(discord.AutoShardedClient):
    """The discord.py client: no privileged intents, no mentions unless asked.

    Sharded, so one bot can outgrow one gateway connection: without CLUBTD_DISCORD_SHARDS
    it runs as many shards as `GET /gateway/bot` advises; with `0-1/4` it runs shards 0
    and 1 of 4 and other processes on the same PostgreSQL run the rest (a guild's events
    reach the process of shard `(guild_id >> 22) % 4`, DMs shard 0's).
    """

    def __init__(self, service: DiscordService) -> None:
        shards = service.config.shards
        split: dict[str, Any] = (
            {} if shards is None else {"shard_ids": list(shards.ids), "shard_count": shards.count}
        )
        super().__init__(
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            **split,
        )
        # discord.py sleeps out a 429 inside the send (its own floor is 30 s): a chat's
        # limit would then hold the outbox round, and every other club's news with it.
        # Over this it raises RateLimited instead, and only that chat waits (B3).
        self.http.max_ratelimit_timeout = RATE_LIMIT_WAIT
        self.service = service
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        # A plain Client dials a constant gateway; ask the REST base for its own.
        _, url, _ = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.tree.set_translator(Translator())
        for command in build_commands(self.service.handlers):
            self.tree.add_command(command)
        # The commands are the application's, not a shard's: the process holding shard 0
        # publishes them, so several processes do not overwrite each other at start-up.
        shards = self.service.config.shards
        if shards is None or 0 in shards.ids:
            await self.tree.sync()

    async def on_ready(self) -> None:
        self.service.ready.set()
        log.info("Discord adapter connected as %s", self.user)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type == discord.InteractionType.component:
            await self.service.handlers.on_button(interaction)


class DiscordService:
    """The Discord adapter: interactions in, replies and outbox rows out."""

    platform = "discord"

    def __init__(
        self,
        config: DiscordConfig,
        *,
        uow_factory: SqlUnitOfWorkFactory,
        command_config: CommandConfig,
        outbox: OutboxStore,
        clock: Callable[[], datetime],
        poke: Poke | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        draw: Draw = pictures.render,
    ) -> None:
        self.config = config
        if config.api_url:
            # One class attribute covers REST, interaction callbacks and follow-ups.
            discord.http.Route.BASE = config.api_url.rstrip("/")
        self.client = ClubClient(self)
        self.ready = asyncio.Event()
        self.pacer = WindowPacer(config.window, clock=monotonic)
        # Buttons posted before the button_tokens table kept their tokens in meta.
        self.buttons = ButtonStore(
            uow_factory, prefix=BUTTON_KEY, limit=CUSTOM_ID_LIMIT - 4, legacy_meta=True
        )
        self.transport = DiscordTransport(
            self.client,
            self.pacer,
            self.buttons,
            uow_factory,
            draw=draw,
            director_role=config.director_role,
        )
        self.sender = OutboxSender(
            outbox,
            self.transport,
            uow_factory,
            clock,
            interval=config.outbox_interval,
            monotonic=monotonic,
        )
        self.handlers = InteractionHandlers(
            uow_factory=uow_factory,
            config=command_config,
            clock=clock,
            transport=self.transport,
            director_role=config.director_role,
            defer_after=config.defer_after,
            poke=poke,
            queued=self.sender.wake,
            outbox=outbox,
            draw=draw,
            throttle=Throttle(config.throttle, clock=monotonic),
            languages=ChatLanguages(
                uow_factory, PLATFORM, command_config.default_language, monotonic=monotonic
            ),
        )
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Log in, connect to the gateway and start sending the outbox."""
        try:
            await self.client.login(self.config.token)
            self._task = asyncio.create_task(self._connect(), name="clubtd-discord-gateway")
            self.sender.start()
        except BaseException:
            await self.stop()
            raise
        log.info("Discord adapter started")

    async def _connect(self) -> None:
        try:
            await self.client.connect(reconnect=True)
        except Exception:
            log.exception("the Discord gateway connection ended")

    async def stop(self) -> None:
        await self.sender.stop()
        with contextlib.suppress(Exception):
            await self.client.close()
        task, self._task = self._task, None
        if task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, timeout=5)

    def wake(self) -> None:
        self.sender.wake()

    async def after_sweep(self) -> None:
        self.sender.wake()


def from_app(app: App) -> DiscordService:
    """Build the adapter for `clubtd run` (an `AdapterFactory` for bot.runner.ADAPTERS)."""
    return DiscordService(
        config_from_settings(app.settings),
        uow_factory=app.uow_factory,
        command_config=app.config,
        outbox=app.outbox,
        clock=app.clock.now,
        poke=app.scheduler.poke,
    )
