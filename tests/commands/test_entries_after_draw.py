"""Entries after the draw: /register, walk-ins, and a director's /present and /away.

Entered players hear they are in; newcomers whom a director can still add (walk_ins,
before the first result) hear how; the director hears whom a refusal is about."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def test_a_drawn_player_registering_again_hears_they_are_entered(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    reply = await chat.say("bob", "/register")
    assert reply == "You are already entered in January Cup. /me shows your entry.", reply


async def test_a_newcomer_after_the_draw_is_told_a_director_can_still_enter_them(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    reply = await chat.say("eli", "/register")
    assert "January Cup is drawn already" in reply and reply.endswith("/addplayer eli"), reply
    entered = await chat.say("ana", "/addplayer eli")
    assert "/redraw confirm" in entered, entered
    # Walked in at the table: present from now, and the director hears it (and the undo).
    assert "eli counts as present from now" in entered, entered
    assert "after the new draw: /away eli." in entered, entered
    await chat.say("ana", "/redraw confirm")
    eli = await chat.player_id("eli")
    assert (await chat.tournament()).entries[eli].present_now()


async def test_a_player_who_never_confirmed_hears_why_a_checkin_after_the_draw_fails(
    engine: AsyncEngine,
) -> None:
    """fay registered, never confirmed, and came at 20:03: her /checkin said only "Your
    entry is withdrawn: ask a director"; it says why, and what the director can do."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", unconfirmed=("fay",))
    chat.at("2026-01-31T20:03")

    reply = await chat.say("fay", "/checkin")

    assert reply == (
        "You neither confirmed nor checked in before the draw, so January Cup was drawn"
        " without you. Until its first result a director can still enter you and draw"
        " again: /addplayer fay"
    ), reply
    await chat.say("ana", f"/result 1 {(await chat.tournament()).matches[1].length}-0")
    reply = await chat.say("fay", "/checkin")
    assert reply.endswith("so January Cup was drawn without you."), reply


async def test_after_the_first_result_a_newcomer_is_not_promised_a_place(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match = (await chat.tournament()).matches[1]
    await chat.say("ana", f"/result 1 {match.length}-0")
    reply = await chat.say("eli", "/register")
    assert "drawn already" not in reply and "/addplayer" not in reply, reply


async def test_present_or_away_for_an_entry_not_in_play_tells_the_director_what_undoes_it(
    engine: AsyncEngine,
) -> None:
    """It said "Your entry is withdrawn: ask a director." to the director, of someone else."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    await chat.say("ana", "/addplayer eli")
    waiting = await chat.say("ana", "/away eli")
    assert waiting == "eli is entered but not drawn yet: /redraw confirm places them.", waiting
    await chat.say("ana", "/redraw confirm")
    await chat.say("ana", '/forfeit dora all reason:"went home"')
    gone = await chat.say("ana", "/present dora")
    undo = '/reinstate dora reason:"..."'
    assert gone == f"dora's entry is withdrawn: to put it back, {undo}.", gone


async def test_present_twice_names_whom_it_found(engine: AsyncEngine) -> None:
    """/present b matched "ala bartek" by a word: "Already checked in." did not say who."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    assert await chat.say("ana", "/present cr") == "cruz is already checked in."


async def test_confirm_on_the_night_confirms_next_months_entry(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    await chat.say("ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00"')
    await chat.say("bob", "/register")
    # bob plays tonight and confirmed tonight's long ago: his /confirm now is February's.
    reply = await chat.say("bob", "/confirm")
    assert reply.startswith("Thank you, bob: your place in February Cup"), reply
    status = await chat.say("ana", '/status tournament:"February Cup"')
    assert "not confirmed" not in status.lower(), status
    # Someone playing tonight but not entered next month is told so, not "confirmed".
    reply = await chat.say("cruz", "/confirm")
    assert "February Cup" in reply and "/register" in reply, reply


async def test_a_walk_in_to_a_night_without_walk_ins_is_shown_the_next_months_command(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    # The Navodari cup takes no walk-ins (its organisers select the entries) and is 18+.
    await chat.say(
        "ana",
        '/tournament new name:"January Cup" preset:navodari-table'
        ' start:"2026-01-31 20:00" approval:no',
    )
    for player in ("bob", "cruz", "dora", "emil"):
        await chat.say(player, "/register born:1970-01-01")
        await chat.say(player, "/confirm")
    chat.at("2026-01-31T19:30")
    assert (said := await chat.say("ana", "/draw")).startswith("Draw made"), said
    await chat.say("ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00"')
    reply = await chat.say("ana", '/addplayer "Eli Ñúñez" born:1970-01-01')
    assert reply.startswith("January Cup takes no entries after its draw"), reply
    line = '/addplayer "Eli Ñúñez" born:1970-01-01 tournament:"February Cup"'
    assert reply.endswith(f"send {line}"), reply
    assert "entered" in (said := await chat.say("ana", line)).lower(), said


async def test_a_no_show_checking_in_late_hears_the_reinstate_a_director_sends(
    engine: AsyncEngine,
) -> None:
    """dora came at 20:45, after her first match was lost and she was made a no-show: her
    /checkin said "Your entry is no-show: ask a director", not what the director types."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", check_in=("bob", "cruz"))
    await chat.wait(100)  # her first match, at 20:00 or 20:40, is lost 30 minutes in

    reply = await chat.say("dora", "/checkin")

    assert reply == (
        "Your entry in January Cup: no-show. A director can put you back:"
        ' /reinstate dora reason:"..."'
    ), reply
    await chat.say("ana", '/reinstate dora reason:"traffic"')
    assert (await chat.say("dora", "/checkin")).startswith("dora is checked in."), reply


async def test_the_draw_names_who_it_left_out_and_a_reinstated_one_is_told_the_way_in(
    engine: AsyncEngine,
) -> None:
    """Gdańsk's director reinstated Jerzy, left out of the draw for not confirming, and
    drew again at once: Jerzy, still neither confirmed nor here, was left out again, and
    nothing had said who the draw passed over or what brings one back."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", unconfirmed=("fay",))
    drawn = await chat.say("ana", "/redraw confirm")
    assert (
        "\nNot drawn, neither confirmed nor checked in: fay. One who is here plays after"
        " /addplayer fay and a new draw (/redraw), before the first result.\n"
    ) in drawn, drawn

    reply = await chat.say("ana", '/reinstate fay reason:"she came"')
    assert reply.endswith(
        "fay is not in the groups: when they are here, mark them present (/present) and"
        " draw again (/redraw)."
    ), reply
    await chat.say("ana", "/present fay")
    drawn = await chat.say("ana", "/redraw confirm")
    state = await chat.tournament()
    assert await chat.player_id("fay") in {p for g in state.groups for p in g.players}
    assert "Not drawn" not in drawn, drawn


async def test_without_walk_ins_the_draw_names_who_it_left_out_and_offers_no_way_in(
    engine: AsyncEngine,
) -> None:
    """Navodari's organisers select the entries before the draw (no walk-ins): the draw
    still names who it passed over, but offers no /present and /redraw for them."""
    chat = Chat(engine)
    await chat.night(
        "bob", "cruz", "dora", unconfirmed=("fay",), preset="navodari-table", extra="minimum_age:0"
    )
    drawn = await chat.say("ana", "/redraw confirm")
    assert drawn.splitlines()[1] == "Not drawn, neither confirmed nor checked in: fay.", drawn
    reply = await chat.say("ana", '/reinstate fay reason:"she came"')
    assert "/redraw" not in reply, reply


async def test_marking_present_one_the_draw_left_out_says_the_walk_in_that_enters_them(
    engine: AsyncEngine,
) -> None:
    """di, left out of June's draw, came at 18:05; the director's /present di said "di's
    entry is withdrawn: /reinstate di", which brings her back undrawn. It says the
    /addplayer that enters her for a new draw, and that line does."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", unconfirmed=("di",))

    reply = await chat.say("ana", "/present di")

    assert reply == (
        "di was left out of the draw (neither confirmed nor checked in). To let them play:"
        " /addplayer di, then a new draw (/redraw), before the first result."
    ), reply
    await chat.say("ana", "/addplayer di")
    await chat.say("ana", "/redraw confirm")
    state = await chat.tournament()
    assert await chat.player_id("di") in {p for g in state.groups for p in g.players}


async def test_one_who_registered_in_the_draws_minute_and_was_left_out_is_a_walk_in_too(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"June Cup" start:"2026-01-31 20:00" approval:no')
    chat.at("2026-01-31T19:30")
    for player in ("bob", "cruz", "dora"):
        await chat.say(player, "/register")
        await chat.say(player, "/checkin")
    await chat.say("di", "/register")  # in the draw's own minute, never confirmed
    await chat.say("ana", "/draw")

    assert (await chat.say("ana", "/present di")).startswith("di was left out of the draw")


async def test_the_glance_names_who_a_new_draw_would_still_place(engine: AsyncEngine) -> None:
    """The draw's line scrolls away on the night: the director's /status says who waits
    for a new draw and who the draw left out, until the first result."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", unconfirmed=("di",))
    await chat.say("ana", '/addplayer "Eve Late"')

    glance = (await chat.say("ana", "/status")).splitlines()

    assert glance[1:3] == [
        "Entered since the draw, not in the groups yet (1): Eve Late. A new draw places"
        " them: /redraw confirm, until the first result.",
        "Left out of the draw, neither confirmed nor here (1): di. One who comes plays"
        " after /addplayer di and /redraw.",
    ], glance
    await chat.say("ana", f"/result 1 {(await chat.tournament()).matches[1].length}-0")
    after = await chat.say("ana", "/status")
    assert "Eve Late" not in after and "Left out" not in after, after


async def test_a_walk_in_checking_in_hears_a_new_draw_places_them_not_reinstate(
    engine: AsyncEngine,
) -> None:
    """di, left out and then entered by the director as a walk-in, sent /checkin herself:
    "your entry: withdrawn, a director can put you back: /reinstate di"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", unconfirmed=("di",))
    await chat.say("ana", "/addplayer di")

    said = await chat.say("di", "/checkin")

    assert said == (
        "You are entered in January Cup and counted as present; its groups are drawn"
        " already, so a director places you with a new draw: /redraw confirm"
    ), said
