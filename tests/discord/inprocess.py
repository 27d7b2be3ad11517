"""The Discord adapter run in the test's own process (not as `clubtd run`), against the
stand-in: a test can then hand it a slow picture renderer (`draw`), a slow scheduler
poke (`poke`, awaited after a command) or any `DiscordConfig` (a tight throttle)."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import pictures
from bot.bootstrap import App, build
from bot.clock import Clock, RealClock
from bot.discord_adapter.service import DiscordConfig, DiscordService
from bot.pictures import Drawn
from bot.settings import Settings
from commands.replies import Picture
from storage.migrate import upgrade
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

    async def __call__(self, deadline: datetime | None = None) -> None:
        await asyncio.sleep(self.delay)


@dataclass
class Adapter:
    standin: StandIn
    service: DiscordService
    draw: SlowDraw
    poke: SlowPoke
    ana: User  # has Manage Server
    players: list[User]  # Alice and Bob
    app: App | None = None  # the database, the clock and the command settings

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


_TEMPLATE: list[Path] = []  # this process's database at the head revision, made once


async def _fresh_database(tmp_path: Path) -> str:
    """Return the URL of a new SQLite file at the head revision (a copy: no migrating)."""
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="clubtd-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        await upgrade(f"sqlite:///{folder / 'clubtd.db'}")
        _TEMPLATE.append(folder / "clubtd.db")
    target = tmp_path / "clubtd.db"
    await asyncio.to_thread(shutil.copy, _TEMPLATE[0], target)
    return f"sqlite:///{target}"


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path,
    prepare: Callable[[StandIn], None] | None = None,
    *,
    clock: Clock | None = None,
    database_url: str | None = None,
    **config: Any,
) -> AsyncIterator[Adapter]:
    """Run the adapter on a fresh database against a stand-in server with Ana, Alice and
    Bob; `prepare` adds to the server before the bot connects; `clock` replaces the real
    one; `database_url` one at the head revision (a new SQLite file in tmp_path by
    default); `config` sets `DiscordConfig` fields."""
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
    settings = Settings(database_url=database_url or await _fresh_database(tmp_path))
    app = await build(settings, clock=clock or RealClock())
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
    # discord.py waits `guild_ready_timeout` (2 s) after the last GUILD_CREATE before
    # it is ready; the stand-in sends every guild at once, in order, before any
    # interaction, so nothing is lost by not waiting for more.
    service.client._connection.guild_ready_timeout = 0.01
    try:
        await service.start()
        await asyncio.wait_for(service.ready.wait(), timeout=30)
        yield Adapter(standin, service, draw, poke, ana, players, app)
    finally:
        await service.stop()
        await app.close()
        await standin.stop()
        discord.http.Route.BASE = base  # type: ignore[misc]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


async def settled(adapter: Adapter, *, seconds: float = 15.0) -> None:
    """Wait until the Discord outbox is empty (every announcement an answer carried is
    settled, every other one sent), then run one round of the sender ourselves: anything
    that would still be posted, a second copy say, is posted by then."""
    app = adapter.app
    assert app is not None
    deadline = time.monotonic() + seconds
    while await app.outbox.pending_count("discord"):
        if time.monotonic() > deadline:
            raise AssertionError("the Discord outbox did not empty")
        await asyncio.sleep(0.02)  # polls the condition: the sender runs every 0.2 s
    await adapter.service.sender.run_once()
