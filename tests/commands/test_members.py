"""The director's roster commands through the real command layer: who may use them, what
is logged, and a member's name typed without accents on a chat platform (issue 15)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import tables as t
from tests.commands.chat import Chat
from tests.security.test_club_findings import in_chat


async def _log(engine: AsyncEngine) -> list[tuple[str, str, dict[str, object]]]:
    async with engine.connect() as conn:
        query = select(t.audit_log.c.action, t.audit_log.c.actor, t.audit_log.c.detail)
        return [(r.action, r.actor, dict(r.detail)) for r in await conn.execute(query)]


async def test_roster_commands_are_for_directors_and_logged_with_who(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/addplayer "zofia kowalska" "Rocío 2" Rocío')
    assert "Only directors can use /player rename." in await chat.say(
        "bob", '/player rename zofia to:"Zofia"'
    )
    assert "Only directors can use /redraw." in await chat.say("bob", "/redraw confirm")
    await chat.say("ana", '/player rename "zofia kowalska" to:"Zofia Kowalska"')
    await chat.say("ana", '/player merge "Rocío 2" into:"Rocío"')
    log = await _log(engine)
    assert (
        "player_rename",
        "console:ana (ana)",
        {"player": "zofia kowalska", "to": "Zofia Kowalska"},
    ) in log
    assert (
        "player_merge",
        "console:ana (ana)",
        {"player": "Rocío 2", "into": "Rocío", "tournaments": 0},
    ) in log
    assert not [entry for entry in log if entry[1].startswith("console:bob")]


async def test_rocio_on_telegram_is_asked_whether_she_is_the_member(engine: AsyncEngine) -> None:
    """On a chat platform a name proves nothing: "rocio" is told who "Rocío" is and how
    to claim her, no account is linked and no "Rocío 2" is made."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/addplayer "Rocío"')
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        await uow.clubs.link_chat(club.id, "telegram", "club")
        await uow.commit()
    _, answer = await in_chat(chat, "club", "777", "/register name:rocio", platform="telegram")
    # Entered by a director and never ranked: no "0.00 points" to be known by.
    assert answer.startswith("Are you Rocío, already on the club list? Ask a director"), answer
    async with engine.connect() as conn:
        assert (await conn.execute(select(t.accounts.c.id))).first() is None
        names = [
            r.name for r in await conn.execute(select(t.players.c.name).order_by(t.players.c.id))
        ]
    assert names == ["Rocío"]


async def test_addplayer_keeps_quoted_one_word_names_apart(engine: AsyncEngine) -> None:
    """`/addplayer "Bob" "Ann"` is two players; unquoted `carl dora` is one name."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    said = await chat.say("ana", '/addplayer "Bob" “Ann”')
    assert said.splitlines() == [
        "Bob is now a player of the club.",
        "Ann is now a player of the club.",
    ]
    assert (
        await chat.say("ana", "/addplayer carl dora") == "carl dora is now a player of the club."
    )


async def test_addplayer_names_end_at_a_comma_and_at_and(engine: AsyncEngine) -> None:
    """Sevilla's director typed `/addplayer "Juan Pérez", "Lucía Gómez"`, `Marta Ruiz,
    Elena Díaz` and `Carmen y Rosa`: players called "Juan Pérez," and "Marta Ruiz, Elena
    Díaz" were made, and one "Carmen y Rosa". A comma and an "and" end a name."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    said = await chat.say("ana", '/addplayer "Juan Pérez", "Lucía Gómez", Pedro')
    said += "\n" + await chat.say("ana", "/addplayer Marta Ruiz, Elena Díaz")
    said += "\n" + await chat.say("ana", "/addplayer Carmen and Rosa")
    async with engine.connect() as conn:
        names = [
            r.name for r in await conn.execute(select(t.players.c.name).order_by(t.players.c.id))
        ]
    assert names == [
        "Juan Pérez",
        "Lucía Gómez",
        "Pedro",
        "Marta Ruiz",
        "Elena Díaz",
        "Carmen",
        "Rosa",
    ], said


async def test_two_look_alike_new_names_in_one_addplayer_are_refused_whole(
    engine: AsyncEngine,
) -> None:
    """The second name is checked against the first, entered a moment before in the same
    command (a Cyrillic "А" reads as a Latin "A"): nobody is entered."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/addplayer "Bob"')
    said = await chat.say("ana", '/addplayer "Ana Pérez" "\u0410na Pérez"')
    assert said.startswith("\u0410na Pérez looks just like Ana Pérez, a player of the club:"), said
    async with engine.connect() as conn:
        names = [
            r.name for r in await conn.execute(select(t.players.c.name).order_by(t.players.c.id))
        ]
    assert names == ["Bob"]


async def test_a_member_not_entered_is_named_with_the_command_that_enters_them(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"May Cup" start:"2026-01-31 20:00" approval:no')
    await chat.say("ana", '/addplayer "Rocío Núñez" tournament:"May Cup"')
    await chat.say("ana", '/tournament new name:"June Cup" start:"2026-02-28 20:00" approval:no')
    said = await chat.say("ana", '/present "rocio nunez" tournament:"June Cup"')
    example = '/addplayer "Rocío Núñez" tournament:"June Cup"'
    assert said == f"Rocío Núñez is not entered in June Cup. To enter them, send {example}"
    assert await chat.say("ana", example) == (
        "Rocío Núñez, a member of the club, is entered in June Cup (confirmed):"
        " points and history are theirs."
    )
    present = await chat.say("ana", '/present "rocio nunez" tournament:"June Cup"')
    assert present == "Rocío Núñez is marked present."


async def test_approving_a_member_approves_their_entries_in_every_open_tournament_HGV_1_4(
    engine: AsyncEngine,
) -> None:
    """pepe entered a friendly (open to guests) and next week's official cup; the
    director's /approve, acting on the friendly, said "their entries no longer need
    approval", yet on the cup's night pepe could not check in and /status listed him
    as waiting again. /me said nothing of the approval either."""
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Friendly" start:"2026-01-31 20:00" official:no')
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-02-07 20:00"')
    await chat.say("pepe", "/register")
    await chat.say("pepe", '/register tournament:"Cup"')
    card = await chat.say("pepe", "/me")
    assert "Cup: waiting for a director's approval; confirmed: no" in card, card
    await chat.say("ana", "/approve pepe")
    card = await chat.say("pepe", "/me")
    assert "Cup: entered; confirmed: no" in card, card
    chat.at("2026-02-07T19:30")
    assert "checked in" in await chat.say("pepe", "/checkin")
    glance = await chat.say("ana", "/status")
    assert "waiting" not in glance.lower(), glance
    assert "Only 1 player can be drawn so far: a draw needs at least 2" in glance, glance


async def test_a_new_player_beside_a_member_of_the_same_surname_is_offered_the_merge(
    engine: AsyncEngine,
) -> None:
    """Zbyszek is what Zbigniew is called at the table: typed so, he is a new player (a
    relative may share the surname), and the reply gives the merge that joins them. A
    first name of another initial is a relative (Maria and Gheorghe Stan): not asked."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/addplayer "Zbigniew Łęcki" "Maria Stan"')
    said = await chat.say("ana", '/addplayer "Zbyszek Łęcki" "Jan Nowak" "Gheorghe Stan"')
    assert "Zbyszek Łęcki is now a player of the club" in said, said
    assert (
        "The club also has Zbigniew Łęcki: if Zbyszek Łęcki is the same person, join them: "
        '/player merge "Zbyszek Łęcki" into:"Zbigniew Łęcki"'
    ) in said, said
    assert "Gheorghe Stan is now a player of the club" in said, said
    assert said.count("The club also has") == 1, "Jan Nowak shares no surname, Gheorghe no name"
    again = await chat.say("ana", '/addplayer "Zbigniew Lecki"')
    assert "The club also has" not in again, "the member himself, not a new player"


async def test_a_new_name_a_letter_from_a_member_is_offered_the_merge(
    engine: AsyncEngine,
) -> None:
    """Gdańsk's director typed "Jan Kowalsky" and "Grzegorz Brzenczyszczykiewicz" for
    members of the club: two new players, silently, whose points would stay apart. They
    are entered (a namesake may be new), with the merge that joins each to the member."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/addplayer "Jan Kowalski" "Grzegorz Brzęczyszczykiewicz" "Ana López"')
    said = await chat.say(
        "ana", '/addplayer "Jan Kowalsky" "Grzegorz Brzenczyszczykiewicz" "Ana Pérez"'
    )
    assert (
        "The club also has Jan Kowalski: if Jan Kowalsky is the same person, join them: "
        '/player merge "Jan Kowalsky" into:"Jan Kowalski"'
    ) in said, said
    assert (
        '/player merge "Grzegorz Brzenczyszczykiewicz" into:"Grzegorz Brzęczyszczykiewicz"'
    ) in said, said
    assert said.count("The club also has") == 2, "Ana Pérez is not Ana López"


async def players_made(engine: AsyncEngine) -> bool:
    """Return whether the club has any player (a refused /addplayer makes none)."""
    async with engine.connect() as conn:
        return (await conn.execute(select(t.players.c.id))).first() is not None


async def test_a_word_of_a_command_is_not_made_a_player(engine: AsyncEngine) -> None:
    """/addplayer "Jan Kowalsky" potwierdź made a player called "potwierdź" (confirm):
    nothing is entered, and the line with the names only is offered."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    said = await chat.say("ana", '/addplayer "Jan Kowalsky" potwierdź')
    assert said == (
        "potwierdź is not a player's name: nothing was entered."
        ' Names only: /addplayer "Jan Kowalsky"'
    ), said
    assert not await players_made(engine)
    for word in ("confirm", "wszyscy", "todos"):
        assert "is not a player's name" in await chat.say("ana", f"/addplayer {word}")


async def test_unquoted_lower_case_words_are_asked_one_player_or_several(
    engine: AsyncEngine,
) -> None:
    """/addplayer bob cruz dora eva made one player "bob cruz dora eva", who stayed in
    the club's list and from then on was "bob" to every /addplayer "bob"."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    asked = await chat.say("ana", "/addplayer bob cruz dora eva")
    assert asked == (
        'Is bob cruz dora eva one player or several? One: /addplayer "bob cruz dora eva"'
        ' · Several: /addplayer "bob" "cruz" "dora" "eva"'
    ), asked
    assert not await players_made(engine)
    # A name as a name is written, or quoted, is one player; quoted apart, several.
    assert "José Luis García is now" in await chat.say("ana", "/addplayer José Luis García")
    assert "ana maria lopez is now" in await chat.say("ana", '/addplayer "ana maria lopez"')
    several = await chat.say("ana", '/addplayer "bob" "cruz"')
    assert "bob is now" in several and "cruz is now" in several, several


async def test_a_duplicate_merged_before_playing_is_said_to_carry_an_entry_not_results(
    engine: AsyncEngine,
) -> None:
    """Gdańsk's "Paweł Wisniewski 2", entered and merged the same evening, was said to
    bring "1 tournament with results and ranking points": it had none."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say(
        "ana", '/tournament new name:"May Cup" preset:hgv-backgammon start:"2026-05-30 20:00"'
    )
    await chat.say("ana", '/addplayer "Rocío" "Rocío 2"')
    said = await chat.say("ana", '/player merge "Rocío 2" into:"Rocío"')
    assert said == (
        "Rocío 2 is merged into Rocío: 1 tournament entry carried over; no results yet."
    ), said
    state = await chat.tournament()
    assert len(state.entries) == 1
