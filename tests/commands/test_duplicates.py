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
    ("cruz", "/report 3-1"),
    ("dora", "/checkin"),
    ("dora", "/dispute"),
    ("ana", "/result cruz 3-1 dora"),
    ("bob", "/report 3-2"),
    ("cruz", "/accept"),
    # Refused first answers are answered once too, whatever refused them.
    ("dora", "/frobnicate"),
    ("dora", "/report three-one"),
    ("bob", "/draw"),
]
# The steps whose first answer is a refusal; every other step must be accepted.
REFUSED = {("dora", "/frobnicate"), ("dora", "/report three-one"), ("bob", "/draw")}


async def test_every_update_delivered_twice_is_applied_once(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    ids = count()
    for user, text in NIGHT:
        if user == "@":
            chat.at(text)
            continue
        update = f"update-{next(ids)}"
        first = await chat.response(user, text, update_id=update)
        await chat.drain()
        assert first is not None, text
        assert first.refused is ((user, text) in REFUSED), (text, first.reply)
        after_first = await dump(engine)
        again = await chat.response(user, text, update_id=update)
        assert again is None, text
        assert await dump(engine) == after_first, text
    state = await chat.tournament()
    assert any(m.is_final for m in state.matches.values())
