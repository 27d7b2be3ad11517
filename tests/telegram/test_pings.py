"""A dispute calls the club's directors in the group by id, once: the configured ones and
the group's administrators (issue 20)."""

from __future__ import annotations

import re

from tests.telegram.conftest import DIRECTOR, Harness
from tests.telegram.fake import GROUP, message_update, user

GUS = 4242
NEW_CUP = '/tournament new name:"Cup" preset:hgv-backgammon start:"2026-01-30 13:00" approval:no'


async def test_a_dispute_links_the_directors_and_no_player(harness: Harness) -> None:
    # Ana is a configured director; Gus administers the group: a director there too.
    harness.request.admins[GROUP] = {DIRECTOR, GUS}
    ana, alice, bob = user(DIRECTOR, "Ana"), user(3001, "Alice"), user(3002, "Bob")
    said = iter(range(100, 200))

    async def typed(who: dict[str, object], text: str) -> None:
        await harness.send(message_update(next(said), who, text))
        while await harness.drain():
            pass

    await typed(ana, NEW_CUP)
    for player in (alice, bob):
        await typed(player, "/register")
        await typed(player, "/checkin")
    await typed(ana, "/draw")
    await typed(alice, "/report 3-1 match:1")
    await typed(bob, "/dispute 1")
    posts = [
        str(c.params["text"])
        for c in harness.request.calls
        if c.method == "sendMessage"
        and int(c.params["chat_id"]) == GROUP
        and "disputed" in str(c.params["text"])
    ]
    assert len(posts) == 1, posts
    linked = re.findall(r'<a href="tg://user\?id=(\d+)">', posts[0])
    assert sorted(linked) == sorted([str(DIRECTOR), str(GUS)]), posts[0]
