"""Withdrawing through the command layer: free before the start, suspended after it
(HGV-2.3.6, HGV-2.3.5), said before it is done."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def _entered(chat: Chat) -> None:
    new = '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'
    await chat.say("ana", new)
    for player in ("bob", "cruz", "dora"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")


async def _sanctions(chat: Chat) -> list[tuple[int, str]]:
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        return [(s.player, s.reason) for s in await uow.sanctions.for_club(club.id) if s.active]


async def test_withdrawing_before_the_start_is_free_HGV_2_3_6(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await _entered(chat)
    chat.at("2026-01-31 19:50")
    assert "Before the start this carries no sanction" in await chat.say("dora", "/withdraw")
    assert "No sanction applies" in await chat.say("dora", "/withdraw confirm")
    assert await _sanctions(chat) == []


async def test_a_confirmed_player_withdrawing_after_the_start_is_a_no_show_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _entered(chat)
    chat.at("2026-01-31 20:10")  # started, not drawn yet: the word came late
    asked = await chat.say("dora", "/withdraw")
    assert "already started" in asked and "suspends you from the next tournament" in asked
    assert await _sanctions(chat) == []  # asking changes nothing
    done = await chat.say("dora", "/withdraw confirm")
    assert "suspended from the next tournament" in done, done
    dora = await chat.player_id("dora")
    assert await _sanctions(chat) == [(dora, "no_show")]
    # The director may excuse it, as any no-show (CLUB-NO-SHOW).
    excused = await chat.say("ana", '/excuse dora reason:"phoned at 19:30"')
    assert await _sanctions(chat) == [], excused


async def test_a_checked_in_player_leaving_before_the_draw_is_suspended_HGV_2_3_5(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _entered(chat)
    chat.at("2026-01-31 19:40")
    await chat.say("dora", "/checkin")
    chat.at("2026-01-31 20:05")
    assert "suspended from the next tournament" in await chat.say("dora", "/withdraw confirm")
    assert await _sanctions(chat) == [(await chat.player_id("dora"), "left")]


async def test_a_late_withdrawal_reinstated_lifts_its_suspension_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _entered(chat)
    chat.at("2026-01-31 20:10")
    await chat.say("dora", "/withdraw confirm")
    said = await chat.say("ana", '/reinstate dora reason:"pressed the wrong button"')
    # Lifted whatever it was for (a no-show here): not "for leaving".
    assert "dora's suspension is lifted." in said, said
    assert await _sanctions(chat) == []


async def test_an_unapproved_entry_withdraws_freely_after_the_start_HGV_1_4(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    new = '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:yes'
    await chat.say("ana", new)
    await chat.say("eva", "/register")
    await chat.say("eva", "/confirm")
    chat.at("2026-01-31 20:10")
    asked = await chat.say("eva", "/withdraw")
    assert asked.startswith("Withdraw from January Cup? This carries no sanction."), asked
    assert "No sanction applies" in await chat.say("eva", "/withdraw confirm")
    assert await _sanctions(chat) == []


async def test_the_question_names_the_tournament_asked_about_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """Entered in February and March, dora asks to leave March: the answer's command and
    button name March. A bare "/withdraw confirm" withdrew her from February."""
    chat = Chat(engine)
    for name, day in (("February Cup", "2026-02-28"), ("March Cup", "2026-03-28")):
        await chat.say("ana", f'/tournament new name:"{name}" start:"{day} 20:00" approval:no')
        await chat.say("dora", f'/register tournament:"{name}"')
    response = await chat.response("dora", '/withdraw tournament:"march cup"')
    assert response is not None
    command = '/withdraw confirm tournament:"March Cup"'
    assert chat.text(response).endswith(f"To go ahead: {command}"), chat.text(response)
    # The button carries the same line, bound to dora (club and asker added by binding).
    assert [b.command.startswith(f"{command} ") for b in response.reply.buttons] == [True]
    assert "March Cup" in await chat.say("dora", command)
    dora = await chat.player_id("dora")
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        statuses = {
            t.name: t.entries[dora].status.value
            for t in [await uow.tournaments.get(x.id) for x in await uow.tournaments.list(club.id)]
        }
    assert statuses == {"February Cup": "active", "March Cup": "withdrawn"}
    # Asked without naming one, the default tournament's question stays as short as before.
    plain = await chat.say("dora", "/withdraw")
    assert plain.endswith("To go ahead: /withdraw confirm"), plain


async def test_me_lists_every_entry_still_to_come(engine: AsyncEngine) -> None:
    """Entered in February and March, /me showed February alone: March is there too, and
    goes once withdrawn from."""
    chat = Chat(engine)
    for name, day in (("February Cup", "2026-02-28"), ("March Cup", "2026-03-28")):
        await chat.say("ana", f'/tournament new name:"{name}" start:"{day} 20:00" approval:no')
        await chat.say("dora", f'/register tournament:"{name}"')
    card = await chat.say("dora", "/me", dm=True)
    assert "February Cup: entered;" in card and "March Cup: entered;" in card, card
    assert card.index("February Cup") < card.index("March Cup")
    await chat.say("dora", '/withdraw confirm tournament:"March Cup"')
    assert "March Cup" not in await chat.say("dora", "/me", dm=True)


async def test_on_the_night_next_months_entry_can_be_withdrawn_too_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """Playing tonight, bob types /withdraw: asked about tonight (it is his), and shown
    the line for next month's entry, which withdraws him from that one alone, free."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    await chat.say("ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00"')
    await chat.say("bob", "/register")
    response = await chat.response("bob", "/withdraw")
    assert response is not None
    asked = chat.text(response)
    assert asked.startswith("Leave January Cup? Its groups are drawn"), asked
    line = '/withdraw tournament:"February Cup"'
    assert asked.endswith(f"Did you mean February Cup? To withdraw from it instead: {line}")
    assert [b.command.split(" club:")[0] for b in response.reply.buttons][-1] == line
    assert "Before the start this carries no sanction" in await chat.say("bob", line)
    said = await chat.say("bob", '/withdraw confirm tournament:"February Cup"')
    assert said == "You have withdrawn from February Cup. No sanction applies.", said
    assert await _sanctions(chat) == []
    bob = await chat.player_id("bob")
    assert (await chat.tournament()).entries[bob].status.value == "active"  # still tonight's


async def test_a_check_in_after_withdrawing_before_the_draw_says_register_again(
    engine: AsyncEngine,
) -> None:
    """dora withdrew on Friday and came on Saturday: her /checkin said "Your entry is
    withdrawn: ask a director", though /register enters her again by herself."""
    chat = Chat(engine)
    await _entered(chat)
    await chat.say("dora", "/withdraw confirm")
    chat.at("2026-01-31 19:30")

    said = await chat.say("dora", "/checkin")

    assert said == "You withdrew from January Cup. To enter again: /register", said
    await chat.say("dora", "/register")
    assert (await chat.say("dora", "/checkin")).startswith("dora is checked in."), said


async def test_leaving_after_the_draw_says_drawn_before_the_start_under_way_after_HGV_2_3_5(
    engine: AsyncEngine,
) -> None:
    """Eva withdrew at 19:50, drawn at 19:30 for 20:00, and read "it has started"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    before = await chat.say("bob", "/withdraw")
    assert before.startswith("Leave January Cup? Its groups are drawn: your matches are lost")
    chat.at("2026-01-31T20:05")
    after = await chat.say("bob", "/withdraw")
    assert after.startswith("Leave January Cup? It is under way"), after
