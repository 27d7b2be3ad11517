"""A report is echoed as its reporter typed it, their side first (issue 20, item 8)."""

from __future__ import annotations

import json

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import tables as t
from tests.commands.chat import Chat
from tournament.state import Match


async def test_black_reporting_3_1_reads_their_name_first(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    reply = await chat.say(black, f"/report {match.length}-1")
    assert f"{black} {match.length}-1 {white} recorded" in reply, reply


async def _disputed(engine: AsyncEngine) -> tuple[Chat, Match, str, str]:
    """Play to a reported first match its black player disputes; return the chat, the
    match, its black player and what the dispute was answered."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    await chat.say(white, f"/report {match.length}-1")
    return chat, match, black, await chat.say(black, "/dispute")


async def test_disputing_twice_says_the_match_is_disputed(engine: AsyncEngine) -> None:
    chat, _match, black, first = await _disputed(engine)
    again = await chat.say(black, "/dispute")
    assert "disputed" in first and "disputed" in again, again
    assert "no" not in again.split(":")[0].lower(), again


async def test_a_dispute_settled_by_a_director_says_why(engine: AsyncEngine) -> None:
    """The director and the club read the reason given, as they read a correction's."""
    chat, match, _black, _said = await _disputed(engine)
    settled = f'/result {match.number} {match.length}-1 reason:"checked the scoresheet"'
    said = await chat.say("ana", settled)
    assert said.splitlines()[-1] == "Reason: checked the scoresheet", said
    # The reply is the club's announcement (an outbox row held for it), and the log says it.
    async with engine.connect() as conn:
        held = (await conn.execute(select(t.outbox.c.payload))).scalars().all()
        logged = (await conn.execute(select(t.audit_log.c.detail))).scalars().all()
    assert any("checked the scoresheet" in json.dumps(p) for p in held), held
    assert {"match": match.number, "reason": "checked the scoresheet"}.items() <= next(
        d.items() for d in logged if d.get("reason") == "checked the scoresheet"
    )
    unexplained = await chat.say("ana", f"/result {match.number + 1} {match.length}-0")
    assert "Reason" not in unexplained, unexplained
    # A result without a reason logs none (not "reason": "").
    async with engine.connect() as conn:
        details = (await conn.execute(select(t.audit_log.c.detail))).scalars().all()
    finished = [d for d in details if d.get("match") == match.number + 1 and "how" in d]
    assert finished and all("reason" not in d for d in finished), finished


async def test_me_says_where_you_stand_before_any_entry(engine: AsyncEngine) -> None:
    """Issue 20 item 8: /me before any tournament answered the name alone."""
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("bob", "/register")
    alone = await chat.say("bob", "/me", dm=True)
    assert alone.splitlines()[0] == "bob" and "not entered in a tournament" in alone, alone
    await chat.say(
        "ana",
        '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00" '
        "approval:no",
    )
    await chat.say("cruz", "/register")
    invited = await chat.say("bob", "/me", dm=True)
    assert "not entered in January Cup" in invited and "/register" in invited, invited
