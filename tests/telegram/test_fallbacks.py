"""Offline: a picture that cannot be drawn goes as its text; a live message whose group
became a supergroup is posted anew in the new chat, which the club follows."""

from __future__ import annotations

import json
from typing import Any

from bot.pictures import Drawn
from commands.replies import Picture
from tests.telegram.conftest import Harness
from tests.telegram.fake import GROUP
from tests.telegram.test_pictures import standings
from tests.telegram.test_sender import club_with_bob, queue, row_states

LIVE = "standings:1:1"


def broken_drawing(picture: Picture, language: str, timezone: str) -> Drawn:
    raise ValueError("Pillow: image has wrong mode")


async def test_a_picture_that_cannot_be_drawn_goes_as_its_text(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    h.service.messenger.draw = broken_drawing
    await queue(h, club, str(GROUP), standings(1), coalesce=LIVE)
    await h.drain()
    assert not h.request.sent("sendPhoto")
    assert "<pre>" in h.request.texts(GROUP)[-1] and "Group 1" in h.request.texts(GROUP)[-1]
    assert (await row_states(h))[-1][0] == "sent"


async def test_a_live_picture_that_cannot_be_redrawn_is_posted_as_text(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    await queue(h, club, str(GROUP), standings(0), coalesce=LIVE)
    await h.drain()
    assert len(h.request.sent("sendPhoto", GROUP)) == 1
    h.service.messenger.draw = broken_drawing
    await queue(h, club, str(GROUP), standings(1), coalesce=LIVE)
    await h.drain()
    assert not h.request.sent("editMessageMedia")
    assert "<pre>" in h.request.texts(GROUP)[-1]
    assert (await row_states(h))[-1][0] == "sent"


async def test_a_live_message_in_a_group_that_moved_is_posted_in_the_new_chat(
    harness: Harness,
) -> None:
    h = harness
    club = await club_with_bob(h)
    await queue(h, club, str(GROUP), standings(0), coalesce=LIVE)
    await h.drain()
    new_id = -1005550003
    original = h.request._answer

    def migrated(name: str, params: dict[str, Any]) -> tuple[int, bytes]:
        if name.startswith(("edit", "send")) and int(str(params["chat_id"])) == GROUP:
            body = {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: group chat was upgraded to a supergroup chat",
                "parameters": {"migrate_to_chat_id": new_id},
            }
            return 400, json.dumps(body).encode()
        return original(name, params)

    h.request._answer = migrated  # type: ignore[method-assign]
    await queue(h, club, str(GROUP), standings(1), coalesce=LIVE)
    await h.drain()
    # Posted anew in the supergroup, once, and the club follows it there.
    assert len(h.request.sent("sendPhoto", new_id)) == 1
    last = (await h.rows())[-1]
    assert last.status == "sent" and last.attempts == 1
    async with h.service.handlers.uow_factory() as uow:
        assert await uow.clubs.for_chat("telegram", str(new_id)) is not None
