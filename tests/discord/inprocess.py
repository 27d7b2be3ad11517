"""The Discord adapter run in the test's own process (not as `clubtd run`), against the
stand-in: a test can then hand it a slow picture renderer (`draw`), a slow scheduler
poke (`poke`, awaited after a command) or any `DiscordConfig` (a tight throttle)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import pictures
from bot.bootstrap import build
from bot.clock import RealClock
from bot.discord_adapter.service import DiscordConfig, DiscordService
from bot.pictures import Drawn
from bot.settings import Settings
from commands.replies import Picture
from tests.discord.conftest import GENERAL, GUILD
from tests.discord.process import require_discord
from tests.discord.standin import StandIn, User


@dataclass
class SlowDraw:
    """The real renderer, after `delay` seconds (in the worker thread it runs in)."""

    delay: float = 0.0
    calls: list[str] = field(default_factory=list)

    def __call__(self, picture: Picture, language: str, timezone: str) -> Drawn:
        self.calls.append(picture.name)
        time.sleep(self.delay)
        return pictures.render(picture, language, timezone)


@dataclass
class SlowPoke:
    """The scheduler's poke after a command, taking `delay` seconds."""

    delay: float = 0.0

    async def __call__(self) -> None:
        await asyncio.sleep(self.delay)


@dataclass
class Adapter:
    standin: StandIn
    service: DiscordService
    draw: SlowDraw
    poke: SlowPoke
    ana: User  # has Manage Server
    players: list[User]  # Alice and Bob

    async def slash(self, who: User, name: str, /, **options: object) -> str:
        """`who` runs a slash command in #general; return the visible answer's text."""
        interaction = await self.standin.slash(
            who,
            name,
            guild_id=GUILD,
            channel_id=GENERAL,
            **options,  # type: ignore[arg-type]
        )
        return (await self.standin.answer(interaction)).text


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path, prepare: Callable[[StandIn], None] | None = None, **config: Any
) -> AsyncIterator[Adapter]:
    """Run the adapter on a fresh database against a stand-in server with Ana, Alice and
    Bob; `prepare` adds to the server before the bot connects; `config` sets
    `DiscordConfig` fields."""
    reason = require_discord()
    if reason is not None:
        pytest.skip(reason)
    standin = StandIn()
    standin.guild(GUILD, "HG Club", {GENERAL: "general"})
    ana = standin.user(800_001, "Ana")
    standin.join(GUILD, ana, manage=True)
    players = [standin.user(810_000 + i, n) for i, n in enumerate(["Alice", "Bob"], 1)]
    for player in players:
        standin.join(GUILD, player)
    if prepare is not None:
        prepare(standin)
    await standin.start()
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'clubtd.db'}")
    app = await build(settings, clock=RealClock())
    draw, poke = SlowDraw(), SlowPoke()
    options = {"outbox_interval": 0.2, **config}
    adapter_config = DiscordConfig(token=standin.token, api_url=standin.api_url, **options)
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    service = DiscordService(
        adapter_config,
        uow_factory=app.uow_factory,
        command_config=app.config,
        outbox=app.outbox,
        clock=app.clock.now,
        draw=draw,
        poke=poke,
    )
    try:
        await service.start()
        await asyncio.wait_for(service.ready.wait(), timeout=30)
        yield Adapter(standin, service, draw, poke, ana, players)
    finally:
        await service.stop()
        await app.close()
        await standin.stop()
        discord.http.Route.BASE = base  # type: ignore[misc]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
