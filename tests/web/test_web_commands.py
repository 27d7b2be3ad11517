"""`/club web:on|off` and `/web` (INTERFACE §1, §6): the club's pages and their links."""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat

LINK = re.compile(r"http://127\.0\.0\.1:8080/c/([0-9a-f]+)")


async def test_web_on_gives_a_link_with_at_least_96_random_bits(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    reply = await chat.say("ana", "/club web:on")
    found = LINK.search(reply)
    assert found is not None, reply
    assert len(found.group(1)) * 4 >= 96
    assert "/club web:off" in reply
    # Asking again keeps the link already printed on the venue's wall.
    again = LINK.search(await chat.say("ana", "/club web:on"))
    assert again is not None and again.group(1) == found.group(1)


async def test_web_off_then_on_gives_a_new_link(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    first = LINK.search(await chat.say("ana", "/club web:on"))
    assert first is not None
    await chat.say("ana", "/club web:off")
    second = LINK.search(await chat.say("ana", "/club web:on"))
    assert second is not None
    assert first.group(1) != second.group(1)  # off forgot the old secret for good


async def test_only_a_director_turns_the_pages_on(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    reply = await chat.say("bob", "/club web:on")
    assert LINK.search(reply) is None
    assert "director" in reply.lower()
    assert "/club web:on" in await chat.say("bob", "/web")  # still off


async def test_web_while_off_says_how_to_turn_them_on(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    reply = await chat.say("bob", "/web")
    assert "/club web:on" in reply
    assert LINK.search(reply) is None


async def test_web_gives_the_current_tournaments_page(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    club = LINK.search(await chat.say("ana", "/club web:on"))
    assert club is not None
    assert club.group(0) in await chat.say("bob", "/web")  # no tournament yet: the club's
    await chat.night("bob", "carol", "dave")
    state = await chat.tournament()
    reply = await chat.say("bob", "/web")
    assert f"{club.group(0)}/t/{state.id}" in reply
    assert "January Cup" in reply


async def test_the_draw_announcement_carries_the_link_when_pages_are_on(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    club = LINK.search(await chat.say("ana", "/club web:on"))
    assert club is not None
    await chat.say(
        "ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'
    )
    for player in ("bob", "carol", "dave"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")
    chat.at("2026-01-31 19:30")
    for player in ("bob", "carol", "dave"):
        await chat.say(player, "/checkin")
    # The draw's announcement is its reply in the club's chat (held in the outbox).
    said = await chat.say("ana", "/draw")
    state = await chat.tournament()
    assert "January Cup: matches" in said
    assert f"Follow it live: {club.group(0)}/t/{state.id}" in said


async def test_no_link_in_the_draw_while_pages_are_off(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club web:on")
    await chat.say("ana", "/club web:off")
    await chat.say(
        "ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'
    )
    for player in ("bob", "carol", "dave"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")
    chat.at("2026-01-31 19:30")
    for player in ("bob", "carol", "dave"):
        await chat.say(player, "/checkin")
    said = await chat.say("ana", "/draw")
    assert "January Cup: matches" in said
    assert "/c/" not in said and "live" not in said


async def test_the_final_announcement_carries_the_link(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    club = LINK.search(await chat.say("ana", "/club web:on"))
    assert club is not None
    await chat.night("bob", "carol", "dave", "erin")
    for _ in range(40):
        state = await chat.tournament()
        if state.status.value == "finished":
            break
        match = next(
            m
            for m in sorted(state.matches.values(), key=lambda m: m.number)
            if m.is_ready and not m.is_final
        )
        await chat.say("ana", f"/result {match.number} {match.length}-0")
    finished = [text for _, text in chat.posted if "ranking points" in text.lower()]
    assert state.status.value == "finished"
    assert finished and f"{club.group(0)}/t/{state.id}" in finished[-1]


async def test_web_off_is_said_in_the_clubs_language(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    on = await chat.say("ana", "/club web:sí")
    assert "Las páginas públicas del club están activadas" in on
    off = await chat.say("ana", "/club web:off")
    assert "404" in off and "desactivadas" in off


async def test_a_mistyped_web_value_changes_nothing_and_says_what_to_type(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    reply = await chat.say("ana", "/club web:maybe")
    assert "web:on" in reply or ("on" in reply and "off" in reply), reply
    assert "/club web:on" in await chat.say("bob", "/web")  # still off


async def test_club_web_alone_gives_the_link_and_takes_on_or_off_as_a_word(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    assert "/club web:on" in await chat.say("ana", "/club web")  # off: says how to turn on
    on = LINK.search(await chat.say("ana", "/club web on"))
    assert on is not None
    again = LINK.search(await chat.say("ana", "/club web"))
    assert again is not None and again.group(1) == on.group(1)
    assert "404" in await chat.say("ana", "/club web off")


async def test_on_and_off_in_polish_and_romanian_words(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:pl")
    assert "są włączone" in await chat.say("ana", "/club web włącz")
    assert "są wyłączone" in await chat.say("ana", "/club web:nie")
    await chat.say("ana", "/club language:ro")
    assert "sunt pornite" in await chat.say("ana", "/club web:da")
    assert "sunt oprite" in await chat.say("ana", "/club web oprește")
    refused = await chat.say("ana", "/club web pornt")
    assert "on, off" in refused and "web:" in refused
