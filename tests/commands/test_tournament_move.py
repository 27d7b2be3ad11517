"""/tournament move: a tournament not drawn yet moves to another start (the venue is
taken); confirmations for another day no longer hold (HGV-2.3.6), and the reminders go
out again for the new date."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat

NEW_CUP = '/tournament new name:"March Cup" start:"2026-03-14 20:00" approval:no'


async def _entered(chat: Chat) -> None:
    """March Cup with bob and cruz entered and confirmed."""
    await chat.say("ana", NEW_CUP)
    for name in ("bob", "cruz"):
        await chat.say(name, "/register")
        await chat.say(name, "/confirm")


async def test_moved_to_another_day_confirmations_are_asked_again_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _entered(chat)
    chat.at("2026-03-13T20:30")  # the day before: the confirm reminder's time has passed
    await chat.wait(1)
    said = await chat.say(
        "ana", '/tournament move "March Cup" start:"2026-03-21 20:00" reason:"the hall is taken"'
    )
    assert said.startswith("March Cup moves to Sat, Mar 21, 20:00"), said
    assert "the hall is taken" in said and "confirm again with /confirm" in said, said
    state = await chat.tournament()
    assert state.start == datetime(2026, 3, 21, 20, 0, tzinfo=UTC)
    assert not any(e.confirmed for e in state.entries.values())
    # The old date passes without a draw or a no-show; the day before the new date, the
    # reminder to confirm goes out again.
    chat.at("2026-03-14T21:00")
    await chat.wait(1)
    assert (await chat.tournament()).status.value == "registration"
    chat.at("2026-03-20T20:30")
    await chat.wait(1)
    reminders = [text for who, text in chat.posted if "Will you come?" in text]
    assert len(reminders) == 2, chat.posted


async def test_moved_later_the_same_day_confirmations_stand(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await _entered(chat)
    said = await chat.say(
        "ana", '/tournament move "March Cup" start:"2026-03-14 21:00" reason:"x"'
    )
    assert said == "March Cup moves to Sat, Mar 14, 21:00 (it was Sat, Mar 14, 20:00): x.", said
    state = await chat.tournament()
    assert all(e.confirmed for e in state.entries.values())


async def test_a_drawn_tournament_does_not_move_and_nothing_changes(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    before = await chat.tournament()
    response = await chat.response(
        "ana", '/tournament move "January Cup" start:"2026-02-07 20:00" reason:"x"'
    )
    assert response is not None and response.refused
    assert chat.text(response) == "January Cup is drawn already: its start can no longer move."
    assert (await chat.tournament()).start == before.start


async def test_a_move_needs_a_reason_and_a_new_start(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await _entered(chat)
    asked = await chat.response("ana", '/tournament move "March Cup" start:"2026-03-21 20:00"')
    assert asked is not None and asked.refused
    assert 'reason:"..."' in chat.text(asked), chat.text(asked)
    same = await chat.response(
        "ana", '/tournament move "March Cup" start:"2026-03-14 20:00" reason:"x"'
    )
    assert same is not None and same.refused
    assert chat.text(same) == "March Cup already starts at Sat, Mar 14, 20:00.", chat.text(same)
    state = await chat.tournament()
    assert state.start == datetime(2026, 3, 14, 20, 0, tzinfo=UTC)
    assert all(e.confirmed for e in state.entries.values())


async def test_a_move_is_typed_in_the_clubs_words(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await _entered(chat)
    for word, start in (
        ("mover", "2026-03-21"),
        ("przenieść", "2026-03-22"),
        ("mută", "2026-03-23"),
    ):
        said = await chat.say(
            "ana", f'/tournament {word} "March Cup" start:"{start} 20:00" reason:"x"'
        )
        assert said.startswith("March Cup moves to"), (word, said)


async def test_usage_lines_show_a_start_to_come_not_a_fixed_past_date(
    engine: AsyncEngine,
) -> None:
    """A director reading /help in December saw start:"2026-01-31 20:00", in the past."""
    chat = Chat(engine)
    chat.at("2026-12-05T12:00")
    await chat.say("ana", '/club name:"HG"')
    helped = await chat.say("ana", "/help tournament")
    # The last Saturday of next month at 20:00, as the refusals of a past start suggest.
    assert 'start:"2027-01-30 20:00"' in helped, helped
    assert "2026-01-31" not in helped, helped
    asked = await chat.say("ana", "/tournament move")
    assert 'start:"2027-01-30 20:00"' in asked, asked


async def test_each_player_entered_hears_a_move_or_a_cancellation_privately(
    engine: AsyncEngine,
) -> None:
    """The March Cup moved a week on, then was called off: only the club's channel heard,
    and José, entered and confirmed, came on the old date. Each player entered hears it in
    a direct message (a move to another day asks them to confirm again); one who withdrew
    does not."""
    chat = Chat(engine)
    await _entered(chat)
    await chat.say("dora", "/register")
    await chat.say("dora", "/withdraw")
    await chat.say("dora", "/withdraw confirm")
    told = len(chat.posted)
    await chat.say("ana", '/tournament move "March Cup" start:"2026-03-14 21:00" reason:"late"')
    later = {who: text for who, text in chat.posted[told:] if who.startswith("user:")}
    assert later == {
        f"user:{name}": "March Cup, which you entered, moves to Sat, Mar 14, 21:00 (it was Sat,"
        " Mar 14, 20:00): late. Your entry stands."
        for name in ("bob", "cruz")
    }, later
    told = len(chat.posted)
    await chat.say(
        "ana", '/tournament move "March Cup" start:"2026-03-21 20:00" reason:"the hall is taken"'
    )
    moved = {who: text for who, text in chat.posted[told:] if who.startswith("user:")}
    assert sorted(moved) == ["user:bob", "user:cruz"], moved
    assert all("confirm again if you can come" in text for text in moved.values()), moved
    told = len(chat.posted)
    await chat.say("ana", '/tournament cancel "March Cup" reason:"snow"')
    cancelled = {who: text for who, text in chat.posted[told:] if who.startswith("user:")}
    assert cancelled == {
        f"user:{name}": "March Cup, which you entered, is cancelled: snow. Your entry ends"
        " with it."
        for name in ("bob", "cruz")
    }, cancelled
