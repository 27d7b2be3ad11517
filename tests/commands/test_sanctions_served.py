"""A suspension ends: served once its tournament is played, or lifted (HGV-2.3.6)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.export import export_club
from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end
from tournament.state import TournamentState


async def sanctions_of(chat: Chat, name: str) -> list[dict[str, Any]]:
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        data = await export_club(uow, club)
    return next(p["sanctions"] for p in data["players"] if p["name"] == name)


FEBRUARY = (
    '/tournament new name:"February Cup" preset:hgv-backgammon '
    'start:"2026-02-28 20:00" approval:no'
)


async def dora_suspended_then_february(engine: AsyncEngine) -> Chat:
    """Play January to the end, suspend dora from the next tournament, open February."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    assert "dora" in await chat.say("ana", '/sanction dora reason:"insulted a player"')
    await chat.say("ana", FEBRUARY)
    return chat


async def draw_february_without_dora(chat: Chat) -> None:
    """Enter, confirm and check in the others, and draw February."""
    for player in ("bob", "cruz", "eva"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")
    chat.at("2026-02-28T19:30")
    for player in ("bob", "cruz", "eva"):
        await chat.say(player, "/checkin")
    await chat.say("ana", "/draw")


async def test_a_served_suspension_is_inactive_in_the_export_and_served_in_me_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    chat = await dora_suspended_then_february(engine)
    (before,) = await sanctions_of(chat, "dora")
    assert (before["applies_to"], before["active"]) == ("February Cup", True)
    # February is open for entries: /me names it rather than "the next tournament"
    assert "You are suspended from February Cup" in await chat.say("dora", "/me", dm=True)
    await draw_february_without_dora(chat)
    chat.at("2026-02-28T20:05")
    await play_to_the_end(chat)
    (after,) = await sanctions_of(chat, "dora")
    assert (after["active"], after["status"]) == (False, "served")
    me = await chat.say("dora", "/me", dm=True)
    assert "Suspended from the next tournament" not in me
    assert "Suspension served: you sat out February Cup" in me


async def test_a_lifted_suspension_is_inactive_in_the_export_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    await chat.say("ana", '/sanction dora reason:"late twice"')
    await chat.say("ana", '/lift dora reason:"apologised"')
    (lifted,) = await sanctions_of(chat, "dora")
    assert (lifted["active"], lifted["status"]) == (False, "lifted")


async def test_a_suspended_player_refused_in_the_group_is_named_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """Issue 15.18: "You are suspended from February Cup" in the group named nobody."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    await chat.say("ana", '/sanction dora reason:"insulted a player"')
    await chat.say("ana", FEBRUARY)
    reply = await chat.say("dora", "/register")
    assert reply.startswith("dora, you are suspended from February Cup"), reply
    assert dora_entered(await chat.tournament(), await chat.player_id("dora")) is False


def dora_entered(state: TournamentState, player: int) -> bool:
    return player in state.entries


async def test_me_during_the_night_names_next_months_tournament_the_suspension_bars_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """While January is played, /me named February as "the next tournament"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await chat.say("ana", '/sanction dora reason:"insulted a player"')
    await chat.say("ana", FEBRUARY)
    me = await chat.say("dora", "/me", dm=True)
    assert "January Cup" in me, "January is still her tournament tonight"
    assert "You are suspended from February Cup" in me, me
    assert "the next tournament" not in me
    # Suspended by the director now, eva is told so, naming February too.
    chat.posted.clear()
    await chat.say("ana", '/sanction eva reason:"left without a word"')
    await chat.drain()
    (told,) = [text for where, text in chat.posted if where == "user:eva"]
    assert told.startswith("You are suspended from February Cup"), told


async def test_a_no_show_is_told_which_open_tournament_the_suspension_bars_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """February opened on January's night: bob, a no-show, is told he is suspended from
    February Cup, not from "the club's next tournament"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", check_in=("cruz", "dora"))
    await chat.say("ana", FEBRUARY)
    chat.posted.clear()
    await chat.wait(120)
    told = [text for where, text in chat.posted if where == "user:bob"]
    assert any("suspended" in text for text in told), told
    assert any("You are suspended from February Cup" in text for text in told), chat.posted
    assert not any("next tournament" in text for text in told), told
    # The club hears it by name too.
    club = [
        text for where, text in chat.posted if where == "club" and "confirmed but did not" in text
    ]
    assert club and all("suspended from February Cup" in text for text in club), club


async def test_a_suspended_player_is_told_the_suspension_not_to_register_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    chat = await dora_suspended_then_february(engine)
    suspended = "dora, you are suspended from February Cup. /me shows why"
    assert suspended in await chat.say("dora", "/register")
    # "send /register" would only lead back to the suspension.
    assert suspended in await chat.say("dora", "/confirm")
    chat.at("2026-02-28T19:30")
    assert suspended in await chat.say("dora", "/checkin")
    assert suspended in await chat.say("dora", "/withdraw")
    # Someone merely not entered is still told to register.
    assert "You are not entered in February Cup: send /register." in await chat.say(
        "bob", "/checkin"
    )


async def test_a_sanction_typed_twice_is_one_suspension_HGV_2_3_6(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    await chat.say("ana", '/sanction dora reason:"insulted a player"')
    again = await chat.say("ana", '/sanction dora reason:"insulted a player, again"')
    assert again.startswith("dora is already suspended from the club's next tournament"), again
    await chat.say("ana", FEBRUARY)
    third = await chat.say("ana", '/sanction dora reason:"a third time"')
    assert third.startswith("dora is already suspended from February Cup"), third
    assert len(await sanctions_of(chat, "dora")) == 1
    # Lifted, the director may suspend again, with another reason.
    await chat.say("ana", '/lift dora reason:"wrong reason"')
    assert "dora" in await chat.say("ana", '/sanction dora reason:"the right reason"')
    assert [s["active"] for s in await sanctions_of(chat, "dora")] == [False, True]


async def test_a_suspended_member_who_joins_the_chat_can_read_why_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """Entered by a director (no chat account), suspended, then in the chat: /register
    said "/me shows why" and threw the new account away, so /me said "register first"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    await chat.say("ana", '/addplayer "Fede"')  # a member without a chat account
    await chat.say("ana", '/sanction fede reason:"did not pay the fee"')
    await chat.say("ana", FEBRUARY)
    joined = await chat.say("fede", "/register")
    assert "Fede, you are suspended from February Cup. /me shows why" in joined, joined
    card = await chat.say("fede", "/me", dm=True)
    assert "You are suspended from February Cup" in card, card


async def test_excusing_a_latecomer_says_what_lateness_takes_CLUB_NO_SHOW(
    engine: AsyncEngine,
) -> None:
    """/excuse is for a no-show; said of a player still only late it answered "nothing
    to excuse", and the director did not learn which command stops the lateness."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva", check_in=("bob", "cruz", "eva"))
    chat.at("2026-01-31T20:15")
    dora = await chat.player_id("dora")
    state = await chat.tournament()
    number = min(m.number for m in state.matches.values() if dora in (m.white, m.black))
    reply = await chat.say("ana", '/excuse dora reason:"phoned: stuck in traffic"')
    assert reply.startswith(f"dora is not a no-show: they are late for match {number}"), reply
    assert f'/pause {number} reason:"..."' in reply and '/forfeit dora reason:"..."' in reply
    assert "has nothing to excuse" in await chat.say("ana", '/excuse bob reason:"x"')


async def test_excusing_a_player_who_came_late_names_the_points_to_cancel_CLUB_BOTH_ABSENT(
    engine: AsyncEngine,
) -> None:
    """dora came 15 minutes late, a point down; "/excuse dora reason:traffic" answered
    "dora has nothing to excuse", and the director never learnt of /cancel."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva", check_in=("bob", "cruz", "eva"))
    chat.at("2026-01-31T20:15")
    await chat.say("dora", "/checkin")
    dora = await chat.player_id("dora")
    state = await chat.tournament()
    number = min(m.number for m in state.matches.values() if dora in (m.white, m.black))
    reply = await chat.say("ana", '/excuse dora reason:"stuck in traffic"')
    assert reply.startswith(
        f"dora is not a no-show: they came late to match {number}, and 1 lateness point"
    ), reply
    assert f'/cancel {number} reason:"..."' in reply, reply
    after = await chat.tournament()
    assert [p.points for p in after.penalties.values() if not p.cancelled] == [1]
    await chat.say("ana", f'/cancel {number} reason:"stuck in traffic"')
    assert "has nothing to excuse" in await chat.say("ana", '/excuse dora reason:"x"')


async def test_a_suspension_is_served_once_its_tournament_is_drawn_unfinished_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """February's night was played without dora, but one match was never reported: the
    tournament stays "knockout". Her suspension is served (she sat it out); in March her
    /me said it still stood, "a director can lift it"."""
    chat = await dora_suspended_then_february(engine)
    await draw_february_without_dora(chat)
    (before,) = await sanctions_of(chat, "dora")
    assert (before["active"], before["status"]) == (False, "served")
    chat.at("2026-03-01T10:00")
    await chat.say("ana", MARCH)
    me = await chat.say("dora", "/me", dm=True)
    assert "You are suspended" not in me, me
    assert "Suspension served: you sat out February Cup" in me, me
    assert "dora, you are entered in March Cup" in await chat.say("dora", "/register")


async def test_me_on_the_night_sat_out_lists_next_months_entry_not_no_entry_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """Valencia: Paco sat out May (suspended), entered June that night; his /me showed
    June's entry, then "you are not entered in any tournament now"."""
    chat = await dora_suspended_then_february(engine)
    await draw_february_without_dora(chat)
    await chat.say("ana", MARCH)
    assert "dora, you are entered in March Cup" in await chat.say("dora", "/register")
    me = await chat.say("dora", "/me", dm=True)
    assert "March Cup: entered" in me, me
    assert "not entered in a tournament" not in me, me


MARCH = (
    '/tournament new name:"March Cup" preset:hgv-backgammon start:"2026-03-28 20:00" approval:no'
)


async def test_a_directors_suspension_tells_the_player_the_directors_words_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """ "/sanction piotr reason:spóźnienie" told piotr only "a director's decision"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    await chat.say("ana", '/sanction dora reason:"insulted a player"')
    told = [text for who, text in chat.posted if who == "user:dora"]
    assert told[-1].endswith("a director's decision (“insulted a player”)."), told
    me = await chat.say("dora", "/me", dm=True)
    assert "a director's decision (“insulted a player”)" in me, me


async def test_a_suspension_given_while_entries_are_open_names_what_it_follows_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """On 10 December a director suspended jan, entered and confirmed in the December
    Cup: the reply, his message and /me said "the club's next tournament", and he could
    not tell whether he may play on the 19th. He may: it bars the one after, and says so."""
    chat = Chat(engine)
    await chat.say(
        "ana", '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00"'
    )
    for player in ("bob", "cruz", "dora", "eva"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")
    said = await chat.say("ana", '/sanction dora reason:"insulted a player"')
    assert said == "dora is suspended from the club's next tournament after January Cup.", said
    told = [text for where, text in chat.posted if where == "user:dora"]
    assert any("next tournament after January Cup: a director's decision" in t for t in told)
    card = await chat.say("dora", "/me", dm=True)
    assert "Suspended from the next tournament after January Cup" in card, card
    # She plays January; February, once opened, is the one she sits out.
    chat.at("2026-01-31T19:30")
    for player in ("bob", "cruz", "dora", "eva"):
        await chat.say(player, "/checkin")
    assert "dora" in await chat.say("ana", "/draw")
    await chat.say("ana", FEBRUARY)
    card = await chat.say("dora", "/me", dm=True)
    assert "You are suspended from February Cup" in card, card


async def test_a_suspension_decided_after_the_entry_keeps_the_player_out_of_the_draw_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """Valencia's tono entered March in January, was a no-show in February, and played
    March all the same: the suspension was only checked at /register. Confirming and
    checking in now meet it, /status names it, and the draw leaves the entry out."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await chat.say("ana", FEBRUARY)
    await chat.say("dora", '/register tournament:"February Cup"')
    # Tonight's tournament is January's: the suspension bars from February.
    await chat.say("ana", '/sanction dora reason:"insulted a player"')
    (barring,) = await sanctions_of(chat, "dora")
    assert (barring["applies_to"], barring["active"]) == ("February Cup", True)
    for player in ("bob", "cruz", "eva"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")
    refused = await chat.say("dora", "/confirm")
    assert refused.startswith("dora, you are suspended from February Cup"), refused
    chat.at("2026-02-28T19:30")
    for player in ("bob", "cruz", "eva"):
        await chat.say(player, "/checkin")
    refused = await chat.say("dora", "/checkin")
    assert refused.startswith("dora, you are suspended from February Cup"), refused
    glance = await chat.say("ana", "/status")
    assert "Suspended from this tournament (1): dora. Not drawn" in glance, glance
    assert 'to let one play: /lift dora reason:"...".' in glance, glance
    assert "3 players can be drawn now: /draw." in glance, glance
    drawn = await chat.say("ana", "/draw")
    assert "Not drawn, suspended from this tournament: dora." in drawn, drawn
    state = await chat.tournament()
    dora = await chat.player_id("dora")
    assert all(dora not in group.players for group in state.groups)
    assert state.entries[dora].status.value == "removed"
    (served,) = await sanctions_of(chat, "dora")
    assert (served["active"], served["status"]) == (False, "served")
    # Nor was she reminded to confirm a place she cannot take.
    told = [text for who, text in chat.posted if who == "user:dora"]
    assert not [t for t in told if "February Cup" in t and "/confirm" in t], told
    others = [text for who, text in chat.posted if who == "user:bob"]
    assert any("/checkin" in t for t in others), others


async def test_a_suspension_for_a_night_never_played_is_named_till_it_is_called_off_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """February Cup was forgotten (never drawn): dora's suspension waited for it, unseen,
    while she entered March. The director is told; calling February off moves it."""
    chat = await dora_suspended_then_february(engine)
    chat.at("2026-03-10T12:00")
    opened = await chat.say(
        "ana",
        '/tournament new name:"March Cup" preset:hgv-backgammon start:"2026-03-28 20:00"'
        " approval:no",
    )
    assert (
        "Suspended from February Cup, never played: dora. The suspension waits for it until"
        " it is called off; called off, it moves to the next tournament." in opened
    ), opened
    glance = await chat.say("ana", "/status")
    assert "Suspended from February Cup, never played: dora." in glance, glance
    card = await chat.say("dora", "/me", dm=True)
    assert "February Cup was never played: the suspension waits for it" in card, card
    await chat.say("ana", '/tournament cancel "February Cup" reason:"forgotten"')
    (moved,) = await sanctions_of(chat, "dora")
    assert (moved["applies_to"], moved["active"]) == ("March Cup", True)
    assert "Suspended from" not in await chat.say("ana", "/status")
