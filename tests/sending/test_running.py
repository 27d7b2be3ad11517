"""Running a command for an adapter, on a real database: the scheduler is poked after a
command that changed something (a plain or an async poke), with the command's next
deadline, not after a refusal, and a poke that fails does not fail the command."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sending.running import run_command
from commands.config import CommandConfig
from commands.session import Invocation
from storage.unit_of_work import unit_of_work_factory

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


def _inv(text: str, update_id: str) -> Invocation:
    """A group's administrator types `text` (the first command opens the club)."""
    return Invocation("fake", "-100", "7", "Ana", text, NOW, chat_admin=True, update_id=update_id)


async def test_a_command_pokes_the_scheduler_a_refusal_does_not(engine: AsyncEngine) -> None:
    pokes: list[str] = []

    async def later(_deadline: datetime | None) -> None:
        pokes.append("async")

    run = {"uow_factory": unit_of_work_factory(engine), "config": CommandConfig()}
    opened = await run_command(_inv("/club", "1"), poke=lambda _: pokes.append("plain"), **run)
    assert opened is not None and not opened.refused and pokes == ["plain"]
    assert await run_command(_inv("/club", "2"), poke=later, **run) is not None
    assert pokes == ["plain", "async"]  # an async poke is awaited
    refused = await run_command(_inv("/nonsense", "3"), poke=later, **run)
    assert refused is not None and refused.refused and pokes == ["plain", "async"]
    assert await run_command(_inv("/club", "2"), poke=later, **run) is None  # a redelivery
    assert pokes == ["plain", "async"]


async def test_a_failing_poke_is_logged_and_the_answer_still_goes(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(_deadline: datetime | None) -> None:
        raise RuntimeError("scheduler down")

    with caplog.at_level(logging.ERROR):
        response = await run_command(
            _inv("/club", "1"),
            uow_factory=unit_of_work_factory(engine),
            config=CommandConfig(),
            poke=broken,
        )
    assert response is not None and not response.refused
    assert "poke failed" in caplog.text


async def test_the_poke_carries_the_commands_next_deadline(engine: AsyncEngine) -> None:
    """The scheduler re-arms at what the command set, instead of sweeping everything."""
    deadlines: list[datetime | None] = []
    run = {"uow_factory": unit_of_work_factory(engine), "config": CommandConfig()}
    await run_command(_inv("/club", "1"), poke=deadlines.append, **run)
    assert deadlines == [None]  # no tournament: nothing falls due
    new = '/tournament new name:"Cup" start:"2026-02-01 20:00" approval:no'
    created = await run_command(_inv(new, "2"), poke=deadlines.append, **run)
    assert created is not None and not created.refused
    assert deadlines[1] is not None and NOW <= deadlines[1] <= datetime(2026, 2, 1, 20, tzinfo=UTC)
