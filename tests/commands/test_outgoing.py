"""Which outbox row is a command's reply (issue 18): declared, never guessed from words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from commands import outgoing
from commands.mentions import NOBODY
from commands.notices import Notice
from commands.replies import Reply, announced, say

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
CHATS = [("console", "club"), ("telegram", "-100"), ("console", "other")]
AUDIENCE = outgoing.Audience(CHATS, {7: [("console", "bob")]}, {7: "pl"})


def _rows(plan: list[tuple[Notice, bool]], reply: Reply) -> outgoing.Outgoing:
    return outgoing.rows(
        plan, AUDIENCE, NOBODY, club_id=1, now=NOW, origin=("console", "club"), reply=reply
    )


def _held(out: outgoing.Outgoing) -> list[tuple[str, str]]:
    return [(r["platform"], r["chat"]) for r in out.rows if r["held_until"]]


def test_the_first_own_announcement_to_the_chat_it_came_from_is_the_reply() -> None:
    fell_due = Notice(say("late.point"))
    own = Notice(say("line.finished"), answers=True)
    also_own = Notice(say("knockout.started"), answers=True)
    reply = announced(say("line.finished"), say("reinstate.checkin").parts[0])
    out = _rows([(fell_due, False), (own, False), (also_own, False)], reply)
    assert _held(out) == [("console", "club")]
    (row,) = [r for r in out.rows if r["held_until"]]
    assert row["payload"]["parts"][0]["msg"]["key"] == "line.finished"  # own, not fell_due
    assert len(out.rows) == 6  # every notice still goes to both console chats
    assert out.answer is not None and out.says_more
    assert out.answer.parts == own.reply.parts + reply.aside


@pytest.mark.parametrize("why", ["not announced", "private", "other chat", "not own"])
def test_no_row_is_the_reply_unless_declared_so(why: str) -> None:
    notice = Notice(say("line.finished"), answers=why != "not own")
    reply = say("line.finished")  # the very same words: still not carried, unless declared
    if why != "not announced":
        reply = announced(reply)
    if why == "private":
        reply = Reply(reply.parts, private=True, announced=True)
    origin = ("console", "elsewhere") if why == "other chat" else ("console", "club")
    out = outgoing.rows(
        [(notice, False)], AUDIENCE, NOBODY, club_id=1, now=NOW, origin=origin, reply=reply
    )
    assert _held(out) == [] and out.answer is None and not out.says_more


def test_the_chat_platforms_get_the_gathered_form_and_a_player_each_account() -> None:
    plain = Notice(say("line.finished"), answers=True)
    gathered = Notice(say("line.finished"), answers=True)
    mine = Notice(say("sanction.you"), player=7)
    out = _rows([(plain, False), (gathered, True), (mine, False)], say("help.title"))
    where = [(r["platform"], r["chat"]) for r in out.rows]
    assert where == [
        ("console", "club"),
        ("console", "other"),
        ("telegram", "-100"),
        ("console", "user:bob"),
    ]
    assert out.rows[-1]["payload"]["language"] == "pl"
