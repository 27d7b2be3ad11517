"""A command remembers when its tournament's next action falls due (issue 17): until then
the next command's catch-up and the scheduler's sweep have nothing to do and skip it;
from that moment on, they apply it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.sweeping import sweep_due
from tests.commands.chat import Chat
from tournament import due
from tournament.state import TournamentState


@contextmanager
def statements(engine: AsyncEngine) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)


async def _night(engine: AsyncEngine) -> tuple[Chat, datetime]:
    """Return a drawn night (joe not here) and when its first actions fall due."""
    chat = Chat(engine)
    await chat.night("bob", "eve", "ivy", "joe", check_in=("bob", "eve", "ivy"))
    deadline = await sweep_due(uow_factory=chat.uow_factory, config=chat.config, now=chat.now)
    assert deadline is not None and deadline > chat.now
    return chat, deadline


async def _done_by(chat: Chat, moment: datetime) -> set[str]:
    state = await chat.tournament()
    return {key for key, due in state.done.items() if due == moment}


async def test_the_scheduler_skips_a_tournament_until_its_deadline_then_applies_it(
    engine: AsyncEngine,
) -> None:
    chat, deadline = await _night(engine)
    with statements(engine) as seen:
        again = await sweep_due(
            uow_factory=chat.uow_factory, config=chat.config, now=deadline - timedelta(seconds=1)
        )
    assert again == deadline
    assert not [s for s in seen if "FROM clubs" in s or s.lstrip().startswith("UPDATE")]
    assert await _done_by(chat, deadline) == set()

    after = await sweep_due(uow_factory=chat.uow_factory, config=chat.config, now=deadline)
    assert await _done_by(chat, deadline)  # what fell due at the deadline was applied
    assert after is None or after > deadline


async def test_a_command_typed_at_the_deadline_catches_up_first(engine: AsyncEngine) -> None:
    chat, deadline = await _night(engine)
    chat.now = deadline - timedelta(seconds=1)
    await chat.say("ivy", "/standings")
    await chat.say("joe", "/checkin")
    assert await _done_by(chat, deadline) == set()
    chat.now = deadline
    await chat.say("bob", "/checkin")  # already in: refused, and nothing is saved
    assert await _done_by(chat, deadline) == set()
    state = await chat.tournament()
    match = min(state.matches.values(), key=lambda m: m.number)
    await chat.say("ana", f"/result {match.number} {match.length}-0")
    assert await _done_by(chat, deadline)  # the command acted as of now: caught up first


async def test_the_memo_of_each_match_agrees_with_working_it_out_afresh(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command keeps the first due time of the matches its save left as they were
    (storage's _still_due): a latecomer checking in changes only his entry, and his
    match's lateness step must leave the memo with it."""
    worked_out = due.next_deadline
    kept: list[int] = []
    wrong: list[object] = []

    def checked(
        state: TournamentState, memo: dict[int, datetime | None] | None = None
    ) -> datetime | None:
        if memo is None:
            wrong.append("no memo")
            return worked_out(state)
        kept.append(len(memo))
        afresh = worked_out(state)
        if worked_out(state, memo) != afresh:
            wrong.append(state.matches.keys() - memo.keys())  # a command would swallow it
        return afresh

    monkeypatch.setattr(due, "next_deadline", checked)
    chat, _ = await _night(engine)
    chat.at("2026-01-31 20:00")
    await chat.wait(5)
    await chat.say("bob", "/standings")
    await chat.say("joe", "/checkin")  # late: his entry changes, his match does not
    await chat.wait(4)
    state = await chat.tournament()
    for match in sorted(state.matches.values(), key=lambda m: m.number):
        if not match.is_final:
            await chat.say("ana", f"/result {match.number} {match.length}-0")
        await chat.wait(3)
    assert wrong == []
    assert any(kept)  # the memo carried figures over, and they held
