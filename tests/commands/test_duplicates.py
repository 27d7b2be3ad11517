"""Every update delivered twice changes nothing the second time (ARCHITECTURE idea 2)."""

from __future__ import annotations

from itertools import count

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.test_bad_input import dump

NIGHT = [
    ("ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no seed:3'),
    ("bob", "/register"),
    ("cruz", "/register"),
    ("dora", "/register"),
    ("bob", "/confirm"),
    ("cruz", "/confirm"),
    ("dora", "/confirm"),
    ("@", "2026-01-31T19:30"),
    ("bob", "/checkin"),
    ("cruz", "/checkin"),
    ("ana", "/draw"),
    ("@", "2026-01-31T20:25"),
    ("bob", "/report 3-1"),
    ("cruz", "/report 3-2"),
    ("dora", "/checkin"),
    ("cruz", "/accept"),
    ("bob", "/accept"),
    ("dora", "/report 3-0"),
    ("ana", "/result bob 3-1 cruz"),
]


async def test_every_update_delivered_twice_is_applied_once(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    ids = count()
    for user, text in NIGHT:
        if user == "@":
            chat.at(text)
            continue
        update = f"update-{next(ids)}"
        first = await chat.say(user, text, update_id=update)
        after_first = await dump(engine)
        again = await chat.say(user, text, update_id=update)
        assert first and again == "", text
        assert await dump(engine) == after_first, text
    state = await chat.tournament()
    assert any(m.is_final for m in state.matches.values())
