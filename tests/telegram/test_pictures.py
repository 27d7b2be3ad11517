"""Offline: pictures go to Telegram as photos; the live ones are edited in place."""

from __future__ import annotations

from commands import views
from commands.pictures import group_picture
from commands.replies import Reply
from tests.pictures.tournaments import player_names, simulated
from tests.telegram.conftest import DIRECTOR, Harness
from tests.telegram.fake import GROUP, message_update, user
from tests.telegram.test_sender import NEW_CUP, club_with_bob, queue, row_states


def standings(waves: int) -> Reply:
    state = simulated(12, waves=waves)
    return Reply((group_picture(state, state.groups[0], player_names(12)),))


async def test_a_live_picture_is_edited_not_posted_again(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    key = "standings:1:1"
    await queue(h, club, str(GROUP), standings(0), coalesce=key)
    await h.drain()
    (photo,) = h.request.sent("sendPhoto", GROUP)
    first_id = h.request.next_id
    assert photo.params["caption"] == "Spring Cup: group 1"
    assert len(photo.params["caption"]) < 1024
    for waves in (1, 2):
        await queue(h, club, str(GROUP), standings(waves), coalesce=key)
        await h.drain()
    edits = h.request.sent("editMessageMedia", GROUP)
    assert [int(e.params["message_id"]) for e in edits] == [first_id, first_id]
    assert len(h.request.sent("sendPhoto")) == 1 and h.request.next_id == first_id
    assert [s for s, _, _ in await row_states(h)][-3:] == ["sent", "sent", "sent"]


async def test_the_live_picture_follows_a_deleted_message(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    key = "standings:1:1"
    await queue(h, club, str(GROUP), standings(0), coalesce=key)
    await h.drain()
    h.request.messages.pop((GROUP, h.request.next_id))
    await queue(h, club, str(GROUP), standings(1), coalesce=key)
    await h.drain()
    assert len(h.request.sent("sendPhoto", GROUP)) == 2
    assert (await h.rows())[-1].platform_message_id == str(h.request.next_id)


async def test_a_refused_photo_goes_out_as_its_text(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    h.request.fail("sendPhoto", 400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
    await queue(h, club, str(GROUP), standings(1), coalesce="standings:1:1")
    await h.drain()
    assert not h.request.sent("sendPhoto")
    state = simulated(12, waves=1)
    table = views.group_table(state, state.groups[0], player_names(12))
    assert "<pre>" in h.request.texts(GROUP)[-1]
    assert all(str(row[1].text) in h.request.texts(GROUP)[-1] for row in table.rows)  # type: ignore[union-attr]
    assert (await row_states(h))[-1][0] == "sent"


async def test_a_club_with_pictures_off_gets_text(harness: Harness) -> None:
    h = harness
    await h.send(message_update(1, user(DIRECTOR, "Ana"), NEW_CUP))
    await h.send(message_update(2, user(DIRECTOR, "Ana"), "/club pictures:off"))
    await h.drain()
    assert any("as text" in text for text in h.request.texts(GROUP))
    async with h.service.handlers.uow_factory() as uow:
        club = await uow.clubs.for_chat("telegram", str(GROUP))
        assert club is not None and not club.pictures
    await queue(h, club.id, str(GROUP), standings(1), coalesce="standings:1:1")
    await h.drain()
    assert not h.request.sent("sendPhoto")
    assert "<pre>" in h.request.texts(GROUP)[-1] and "Group 1" in h.request.texts(GROUP)[-1]
