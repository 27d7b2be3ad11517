"""The composition root: the one place that wires settings, storage, use cases and time.

Nothing in `bot/` is created at import time; `build` makes everything for one process
and `App.close` takes it down again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from bot.clock import Clock
from bot.settings import DEFAULT_WEB_LISTEN, Settings, listen_address, web_base
from commands.config import CommandConfig
from storage.engine import make_engine
from storage.locks import SchedulerLock
from storage.migrate import upgrade_engine
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory, unit_of_work_factory

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from bot.scheduler import Scheduler
    from bot.web.server import WebServer


@dataclass
class App:
    """Everything one process runs on."""

    settings: Settings
    clock: Clock
    engine: AsyncEngine
    uow_factory: SqlUnitOfWorkFactory
    config: CommandConfig
    outbox: OutboxStore
    lock: SchedulerLock
    _scheduler: Scheduler | None = field(default=None, repr=False)

    @property
    def scheduler(self) -> Scheduler:
        """Return the alarm clock, made on first use: `clubtd export` and the console
        never load APScheduler nor the sweeping use cases (issue 17: start-up)."""
        if self._scheduler is None:
            from bot.scheduler import Scheduler
            from commands.sweeping import housekeep

            async def prune(now: datetime) -> None:
                await housekeep(uow_factory=self.uow_factory, now=now)

            self._scheduler = Scheduler(self._sweep, self.clock, lock=self.lock, housekeep=prune)
        return self._scheduler

    async def sweep(self, now: datetime) -> datetime | None:
        """Apply everything due by `now`; return the next deadline."""
        from commands.sweeping import sweep_due

        return await sweep_due(uow_factory=self.uow_factory, config=self.config, now=now)

    async def _sweep(self, now: datetime) -> datetime | None:
        """The scheduler's sweep: what fell due, without the hourly housekeeping."""
        from commands.sweeping import sweep_due

        return await sweep_due(
            uow_factory=self.uow_factory, config=self.config, now=now, housekeeping=False
        )

    def web_server(self, listen: str | None = None) -> WebServer:
        """Return the public pages' server (INTERFACE §6) on `listen`, else the setting."""
        # Imported here: Jinja2 and the QR code load only where pages are served.
        from bot.web.server import PageStore, WebServer

        host, port = listen_address(listen or self.settings.web_listen or DEFAULT_WEB_LISTEN)
        base = web_base(self.settings, listen)
        store = PageStore(engine=self.engine, uow_factory=self.uow_factory, base_url=base)
        return WebServer(store, host, port)

    async def close(self) -> None:
        """Stop the scheduler, give up the lock and close the database."""
        try:
            if self._scheduler is not None:
                await self._scheduler.stop()
            await self.lock.release()
        finally:
            await self.engine.dispose()


def command_config(settings: Settings) -> CommandConfig:
    """Return what the use cases need from the settings."""
    return CommandConfig(
        directors=settings.directors,
        default_timezone=settings.timezone,
        default_language=settings.language,
        web_url=web_base(settings),
    )


async def build(settings: Settings, *, clock: Clock, database_url: str | None = None) -> App:
    """Open the database (bringing it to the newest schema) and wire the application."""
    engine = make_engine(database_url or settings.database_url)
    try:
        await upgrade_engine(engine)
    except BaseException:
        await engine.dispose()
        raise
    uow_factory = unit_of_work_factory(engine)
    config = command_config(settings)
    lock = SchedulerLock(engine)

    return App(
        settings=settings,
        clock=clock,
        engine=engine,
        uow_factory=uow_factory,
        config=config,
        outbox=OutboxStore(engine),
        lock=lock,
    )
