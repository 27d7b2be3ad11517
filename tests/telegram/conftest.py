"""Fixtures for the Telegram adapter: an offline harness and a file SQLite database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from telegram import Update

from bot.telegram_adapter import TelegramConfig, TelegramService
from bot.telegram_adapter.pacing import Limits
from commands.config import CommandConfig
from storage import tables as t
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory
from tests.telegram.fake import RecordingRequest

START = datetime(2026, 1, 30, 12, 0, tzinfo=UTC)
DIRECTOR = 1001  # in CLUBTD_DIRECTORS
NO_LIMITS = Limits(per_chat_seconds=0.0, group_per_minute=10_000, per_second=10_000)


@dataclass
class Clock:
    at: datetime = START

    def now(self) -> datetime:
        return self.at

    def advance(self, **delta: float) -> None:
        self.at += timedelta(**delta)


@dataclass
class Harness:
    """The real adapter on a recording BaseRequest and a real database."""

    engine: AsyncEngine
    request: RecordingRequest
    service: TelegramService
    clock: Clock
    pokes: list[datetime] = field(default_factory=list)

    async def send(self, update: dict[str, Any]) -> None:
        """Feed one Bot API update through the Application, as polling would."""
        app = self.service.application
        await app.process_update(Update.de_json(update, app.bot))

    async def drain(self) -> int:
        """Run the outbox sender once; return how many rows it claimed."""
        return await self.service.sender.run_once()

    async def rows(self) -> list[Any]:
        async with self.engine.connect() as conn:
            result = await conn.execute(select(t.outbox).order_by(t.outbox.c.id))
            return list(result)


@pytest_asyncio.fixture
async def harness(engine: AsyncEngine) -> AsyncIterator[Harness]:
    request = RecordingRequest()
    clock = Clock()
    pokes: list[datetime] = []
    service = TelegramService(
        TelegramConfig(token="4242:TEST", limits=NO_LIMITS),
        uow_factory=unit_of_work_factory(engine),
        command_config=CommandConfig(directors=frozenset({("telegram", str(DIRECTOR))})),
        outbox=OutboxStore(engine),
        clock=clock.now,
        poke=lambda deadline=None: pokes.append(clock.now()),
        request=request,
        monotonic=lambda: clock.now().timestamp(),
    )
    await service.open()
    yield Harness(engine, request, service, clock, pokes)
    await service.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # python-telegram-bot warns about RetryAfter.retry_after's future type on every 429.
    for item in items:
        if "tests/telegram" in str(item.fspath):
            item.add_marker(
                pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
            )
