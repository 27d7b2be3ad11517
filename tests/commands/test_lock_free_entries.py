"""/confirm and /checkin are tried without locks too (storage/transaction.py).

Each changes its entry's row and logs it: on PostgreSQL that is one statement, sent by
the commit when no message is queued (the console's), with the platform's update id.
Recorded once, answered once; a redelivery is silent and changes nothing. On SQLite every
command runs locked, and the same holds.
"""

from __future__ import annotations

import logging

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.engine import is_sqlite
from tests.commands.chat import Chat
from tests.commands.test_bad_input import dump
from tests.commands.test_lock_free_report import retried


async def once_then_redelivered(chat: Chat, user: str, text: str, update_id: str) -> None:
    """Run `text` as a platform update, then the same update again: answered and recorded
    once, the redelivery silent and changing nothing."""
    said = await chat.response(user, text, update_id=update_id)
    assert said is not None and not said.refused, said
    before = await dump(chat.engine)
    assert await chat.response(user, text, update_id=update_id) is None
    assert await dump(chat.engine) == before


async def test_confirm_and_checkin_are_recorded_once_without_running_again(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    chat = Chat(engine)
    await chat.say(
        "ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'
    )
    for player in ("bob", "cruz"):
        await chat.say(player, "/register")
    await chat.say("bob", "/confirm")  # the club's first: anything it still had to record
    caplog.set_level(logging.DEBUG, logger="clubtd")
    steps = []
    await once_then_redelivered(chat, "cruz", "/confirm", "u-1")
    steps.append(len(retried(caplog)))
    chat.at("2026-01-31T19:30")
    assert await chat.say("bob", "/checkin") == "bob is checked in. Good luck!"
    steps.append(len(retried(caplog)))
    await once_then_redelivered(chat, "cruz", "/checkin", "u-2")
    steps.append(len(retried(caplog)))
    state = await chat.tournament()
    cruz = state.entries[await chat.player_id("cruz")]
    assert cruz.confirmed and cruz.checked_in
    if is_sqlite(engine):
        assert steps == [0, 0, 0]
    else:
        # One statement each, none run again but the night's first check-in, which also
        # records that check-in opened (done_actions rows): run again, locked. A
        # redelivery finds the entry confirmed or checked in already: refused, and
        # silent as a redelivery.
        assert steps == [0, 1, 1]
