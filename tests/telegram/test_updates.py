"""Offline: Telegram updates through the real Application, replies recorded."""

from __future__ import annotations

import dataclasses
import html

from sqlalchemy import select

from bot.telegram_adapter.updates import Where
from bot.throttle import Rate
from commands.catalog import template
from commands.session import Invocation
from storage import tables as t
from tests.security.test_telegram_findings import held_row
from tests.telegram.conftest import DIRECTOR, Harness
from tests.telegram.fake import BOT_USERNAME, GROUP, callback_update, message_update, user

ANA = user(DIRECTOR, "Ana Director")
BOB = user(2002, "Bob")
CRUZ = user(2003, "Cruz")
ANONYMOUS = user(1087968824, "Group")
NEW_CUP = (
    '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00" approval:no'
)


async def open_cup(h: Harness, update_id: int = 1) -> None:
    await h.send(message_update(update_id, ANA, NEW_CUP))
    assert "January Cup is open for entries" in h.request.texts(GROUP)[-1]


async def entries(h: Harness) -> dict[str, bool]:
    """Return the tournament's entries: player name -> confirmed."""
    async with h.engine.connect() as conn:
        rows = await conn.execute(select(t.players.c.id, t.players.c.name))
        names = {r.id: r.name for r in rows}
    async with h.service.handlers.uow_factory() as uow:
        club = await uow.clubs.for_chat("telegram", str(GROUP))
        assert club is not None
        state = await uow.tournaments.current(club.id)
        assert state is not None
        return {names[p]: e.confirmed_at is not None for p, e in state.entries.items()}


async def test_a_command_in_the_group_is_answered_in_html_quoting_it(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(2, BOB, "/register", message_id=77))
    (call,) = [c for c in harness.request.sent(chat_id=GROUP) if "Bob" in c.params["text"]]
    assert call.params["parse_mode"] == "HTML"
    assert call.params["reply_parameters"]["message_id"] == 77
    buttons = call.params["reply_markup"]["inline_keyboard"]
    data = [[b["callback_data"] for b in row] for row in buttons]
    assert data == [[f"/confirm club:1 for:{BOB['id']}"]]  # the button is Bob's, in this club
    assert harness.pokes  # the scheduler is told a command changed something


async def test_a_hostile_name_is_escaped_and_pings_nobody(harness: Harness) -> None:
    await open_cup(harness)
    hostile = {"id": 2010, "is_bot": False, "first_name": "<b>x</b> @everyone & co"}
    await harness.send(message_update(2, hostile, "/register"))
    text = harness.request.texts(GROUP)[-1]
    assert "&lt;b&gt;x&lt;/b&gt; @\u200beveryone &amp; co" in text
    assert "<b>" not in text and "@everyone" not in text
    assert html.unescape(text).count("<b>x</b>") == 1  # shown exactly as typed


async def test_a_redelivered_update_is_applied_and_answered_once(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(5, BOB, "/register"))
    before = len(harness.request.sent())
    await harness.send(message_update(5, BOB, "/register"))
    assert len(harness.request.sent()) == before
    async with harness.engine.connect() as conn:
        count = (await conn.execute(select(t.players.c.id))).all()
    assert len(count) == 1


async def test_a_button_press_is_answered_first_then_runs_as_typed(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(2, BOB, "/register"))
    register_reply = harness.request.next_id  # the id of the reply with the button
    assert (await entries(harness)) == {"Bob": False}
    start = len(harness.request.calls)
    await harness.send(
        callback_update(3, BOB, "/confirm", chat_id=GROUP, message_id=register_reply)
    )
    methods = harness.request.methods()[start:]
    assert methods[0] == "answerCallbackQuery"
    # The answer updates the message the button was under (issue 20): no new post.
    assert methods.index("answerCallbackQuery") < methods.index("editMessageText")
    assert "sendMessage" not in methods
    updated = harness.request.messages[(GROUP, register_reply)]
    assert "confirmed" in updated["text"] and "reply_markup" not in updated
    assert (await entries(harness)) == {"Bob": True}


async def test_an_anonymous_admin_is_a_director(harness: Harness) -> None:
    group = {"id": GROUP, "type": "supergroup", "title": "Club"}
    await harness.send(message_update(1, ANONYMOUS, NEW_CUP, sender_chat=group))
    assert "January Cup is open for entries" in harness.request.texts(GROUP)[-1]
    assert not harness.request.sent("getChatMember")


async def test_a_player_is_refused_a_director_command(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(2, BOB, "/draw"))
    assert harness.request.texts(GROUP)[-1] == "Only directors can use /draw."
    asked = [int(c.params["user_id"]) for c in harness.request.sent("getChatMember")]
    assert BOB["id"] in asked


async def test_a_group_administrator_is_a_director(harness: Harness) -> None:
    harness.request.admins[GROUP] = {CRUZ["id"]}
    await harness.send(message_update(1, CRUZ, NEW_CUP))
    assert "January Cup is open for entries" in harness.request.texts(GROUP)[-1]
    await harness.send(message_update(2, CRUZ, "/status"))
    assert len(harness.request.sent("getChatMember")) == 1  # cached


async def test_commands_for_another_bot_are_left_alone(harness: Harness) -> None:
    await open_cup(harness)
    before = len(harness.request.calls)
    await harness.send(message_update(2, BOB, "/register@someotherbot"))
    await harness.send(message_update(3, BOB, "just chatting"))
    assert len(harness.request.calls) == before
    await harness.send(message_update(4, BOB, f"/register@{BOT_USERNAME}"))
    assert "Bob" in harness.request.texts(GROUP)[-1]


async def test_a_private_reply_goes_to_the_person_not_the_group(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(2, BOB, "/register"))
    await harness.send(message_update(3, BOB, "/help"))
    assert harness.request.texts(BOB["id"])[-1].startswith("Commands:")
    harness.request.blocked.add(BOB["id"])
    await harness.send(message_update(4, BOB, "/help"))
    assert harness.request.texts(GROUP)[-1].startswith("Commands:")


async def test_start_from_the_deep_link_shows_the_help(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(2, BOB, "/register"))
    await harness.send(message_update(3, BOB, "/start hi", chat_id=BOB["id"]))
    assert harness.request.texts(BOB["id"])[-1].startswith("Commands:")


async def test_a_reply_that_goes_privately_releases_the_groups_announcement(
    harness: Harness,
) -> None:
    h = harness
    _, held = await held_row(h)  # an announcement leased to a reply that says the same
    private = dataclasses.replace(held, reply=dataclasses.replace(held.reply, private=True))
    inv = Invocation("telegram", str(GROUP), str(BOB["id"]), "Bob", "/x", h.clock.now())
    await h.service.handlers.reply(inv, Where(GROUP, BOB["id"], False, None), private)
    assert "January Cup" in h.request.texts(BOB["id"])[-1]
    # The group did not see it: its announcement goes now, not after the lease.
    assert await h.drain() == 1
    assert "January Cup" in h.request.texts(GROUP)[-1]


async def _spam(h: Harness, who: dict[str, object], first_id: int, chat_id: int) -> str:
    """Send more commands at once than the throttle lets through; return the last answer."""
    for update_id in range(first_id, first_id + Rate().burst + 3):
        await h.send(message_update(update_id, who, "/help", chat_id=chat_id))
    return html.unescape(h.request.texts(chat_id)[-1])


async def test_slow_down_is_said_in_the_clubs_language_in_its_group(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(2, ANA, "/club language:pl"))
    assert await _spam(harness, BOB, 10, GROUP) == template("pl", "throttled")


async def test_slow_down_is_said_in_the_persons_own_language_privately(harness: Harness) -> None:
    await open_cup(harness)
    await harness.send(message_update(2, ANA, "/club language:pl"))
    await harness.send(message_update(3, BOB, "/register"))
    await harness.send(message_update(4, BOB, "/me language:ro", chat_id=BOB["id"]))
    harness.clock.advance(seconds=60)  # Bob's bucket is full again
    assert await _spam(harness, BOB, 10, BOB["id"]) == template("ro", "throttled")
    await harness.send(message_update(30, CRUZ, "/register"))  # the club's only: Polish
    harness.clock.advance(seconds=60)
    assert await _spam(harness, CRUZ, 40, CRUZ["id"]) == template("pl", "throttled")
