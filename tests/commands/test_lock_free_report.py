"""A report is tried without locks, and run again with them when it does more.

On PostgreSQL a `/report` first runs in a lock-free unit of work (storage/transaction.py):
its one row, its messages and its update id in one statement. One that changes more
(the first command after the round's call also records that call as done) gives up
having written nothing and runs again, locked; either way it is recorded once and
answered once. On SQLite every report runs locked, and the same holds.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.engine import is_sqlite
from tests.commands.chat import Chat
from tests.commands.test_bad_input import dump
from tournament.state import Match

AGAIN = "lock-free, it wrote nothing; again, locked"


def retried(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if AGAIN in r.getMessage()]


async def test_reports_are_recorded_once_whether_they_ran_locked_or_not(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eve")
    chat.at("2026-01-31T20:25")
    state = await chat.tournament()
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora", "eve")}
    first, second = sorted(state.matches.values(), key=lambda m: m.number)[:2]
    caplog.set_level(logging.DEBUG, logger="clubtd")
    assert first.white is not None and second.white is not None
    steps = []
    for update, match in (("u-1", first), ("u-2", second)):
        said = await chat.response(
            names[match.white], f"/report 3-1 match:{match.number}", update_id=update
        )
        assert said is not None and not said.refused, said
        steps.append(len(retried(caplog)))
        before = await dump(engine)
        assert await chat.response(names[match.white], "/report 3-1", update_id=update) is None
        assert await dump(engine) == before
        steps.append(len(retried(caplog)))
    state = await chat.tournament()
    for match in (first, second):
        assert state.matches[match.number].report is not None
    if is_sqlite(engine):
        assert steps == [0, 0, 0, 0]
    else:
        # The first command since the round was called also records the call as done
        # (rows of done_actions): run again, locked; the second is its match's row
        # alone. A redelivery's one statement finds its update id: it wrote nothing, and
        # the locked run says so.
        assert steps == [1, 2, 2, 3]


async def test_reports_sent_at_once_are_all_recorded(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    chat = Chat(engine)
    players = ("bob", "cruz", "dora", "eve", "fay", "gil", "hal", "ivy")
    await chat.night(*players)
    chat.at("2026-01-31T20:25")
    names = {await chat.player_id(n): n for n in players}
    state = await chat.tournament()
    firsts: list[Match] = []  # each player's first match
    for match in sorted(state.matches.values(), key=lambda m: m.number):
        if match.is_ready and not any(set(match.players) & set(m.players) for m in firsts):
            firsts.append(match)
    first, *rest = firsts
    assert len(rest) >= 3
    assert first.white is not None
    await chat.response(names[first.white], f"/report 3-1 match:{first.number}")
    # A connection each, open already: every report sends its read before any answer
    # comes back, so all read one version (one that had to open a connection first read
    # the version the others wrote, on a busy machine).
    await asyncio.gather(
        *(chat.response(names[m.white], "/standings") for m in rest if m.white is not None)
    )
    caplog.set_level(logging.DEBUG, logger="clubtd")
    said = await asyncio.gather(
        *(
            chat.response(
                names[m.white], f"/report 3-1 match:{m.number}", update_id=f"u-{m.number}"
            )
            for m in rest
            if m.white is not None
        )
    )
    assert all(s is not None and not s.refused for s in said), [
        (s.refused, [p.key for p in s.reply.parts]) for s in said if s is not None
    ]
    state = await chat.tournament()
    assert all(state.matches[m.number].report is not None for m in [first, *rest])
    if not is_sqlite(engine):
        # They read the same version: all but the first to write found it moved on.
        assert retried(caplog)
