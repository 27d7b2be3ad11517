"""What a director met playing a season in Spanish, Polish and Romanian (issue 15, item 2 of
the season brief): numbers, repeated words, hints and tournament names as clubs type them."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.rendering import Renderer
from commands.replies import Name, msg
from tests.commands.chat import Chat


def test_a_tournament_named_turniej_is_not_called_turniej_turniej() -> None:
    """Polish 'Turniej {tournament} zakończony' with 'Turniej Marcowy' says the word once."""
    renderer = Renderer("pl", "UTC", "plain")
    finished = msg("tournament.finished", tournament=Name("Turniej Marcowy"), champion="Lolek")
    assert renderer.message(finished) == "Turniej Marcowy zakończony. Wygrywa Lolek!"
    other = msg("tournament.finished", tournament=Name("Puchar Zimy"), champion="Lolek")
    assert renderer.message(other) == "Turniej Puchar Zimy zakończony. Wygrywa Lolek!"


async def test_rules_write_points_with_the_clubs_decimal_comma_HGV_7_5(
    engine: AsyncEngine,
) -> None:
    """/rules in a Spanish club says 0,25 and 0,04, never 0.25 beside a table's 2,30."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    await chat.say("ana", "/club language:es")
    reply = await chat.say("bob", "/rules")
    assert "0,25" in reply and "0,04" in reply, reply
    assert "0.25" not in reply and "0.04" not in reply, reply


async def test_reopen_with_a_typo_suggests_the_match_typed(engine: AsyncEngine) -> None:
    """`/reopen 1 confrim` offers `/reopen 1 confirm`, not the help's example number."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    await chat.say("ana", "/result 1 3-1")
    reply = await chat.say("ana", "/reopen 1 confrim")
    assert "/reopen 1 confirm" in reply, reply


async def test_a_director_score_typed_with_a_space_is_a_score(engine: AsyncEngine) -> None:
    """`/result 1 3 1` records 3-1 for match 1, not a player called "3 1"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    await chat.say("ana", "/result 1 3 1")
    match = (await chat.tournament()).matches[1]
    assert match.is_final and (match.white_score, match.black_score) == (3, 1)


async def test_a_tournament_is_found_by_any_word_of_its_name_and_the_clubs_word(
    engine: AsyncEngine,
) -> None:
    """`turneu:februarie` finds "Cupa Februarie" as a player's name is found by a later word;
    `turniej:`/`torneo:`/`turneu:` are `tournament:` in the club's language."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    await chat.say("ana", '/tournament new name:"Cupa Februarie" start:"2026-02-28 20:00"')
    for typed in ("tournament:februarie", "turneu:februarie", "torneo:Februarie", "turniej:feb"):
        reply = await chat.say("ana", f"/tournament info {typed}")
        assert "Cupa Februarie" in reply and "January Cup" not in reply, (typed, reply)
    reply = await chat.say("ana", "/tournament info turneul:jan")
    assert "January Cup" in reply, reply  # the other one, by its beginning


async def test_a_tournament_is_found_by_its_month_said_in_another_form(
    engine: AsyncEngine,
) -> None:
    """Gdańsk's Ewa typed `tournament:luty` for "Puchar Lutego" (February, in the
    genitive) and read "there is no tournament luty"; a month's name finds its month in
    any case and any club language, not a word that only looks like one."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    await chat.say("ana", '/tournament new name:"Puchar Lutego" start:"2027-02-13 10:00"')
    await chat.say("ana", '/tournament new name:"Puchar Marca" start:"2027-03-13 10:00"')
    for typed in (
        "turniej:luty",
        "tournament:February",
        "torneo:febrero",
        'turniej:"puchar luty"',
    ):
        reply = await chat.say("ana", f"/tournament info {typed}")
        assert reply.startswith("Puchar Lutego"), (typed, reply)
    reply = await chat.say("ana", "/tournament info turniej:marzec")
    assert reply.startswith("Puchar Marca"), reply
    reply = await chat.say("ana", "/tournament info turniej:kwiecień")
    assert "There is no tournament kwiecień" in reply, reply


async def test_a_match_of_last_nights_tournament_is_named_once_next_month_is_meant(
    engine: AsyncEngine,
) -> None:
    """After the final, a bare command means next month's open tournament: `/reopen 1`
    there says how to name last night's match, and the suggestion works."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", extra="consolation:no")
    for _ in range(3):
        state = await chat.tournament()
        for match in state.matches.values():
            if not match.is_final and match.is_ready:
                await chat.say("ana", f"/result {match.number} {match.length}-0")
    assert (await chat.tournament()).status.value == "finished"
    await chat.say("ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00"')
    reply = await chat.say("ana", "/reopen 1")
    assert '/reopen 1 tournament:"January Cup"' in reply, reply
    reply = await chat.say("ana", '/reopen 1 tournament:"January Cup"')
    assert "confirm" in reply, reply


async def test_a_no_show_checking_in_late_is_told_so_in_words_CLUB_NO_SHOW(
    engine: AsyncEngine,
) -> None:
    """A no-show's /checkin says 'no-show' in the club's words, never the code 'no_show'."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", check_in=("cruz", "dora"))
    await chat.wait(120)
    assert (await chat.tournament()).entries[await chat.player_id("bob")].status.value == (
        "no_show"
    )
    reply = await chat.say("bob", "/checkin")
    assert "no_show" not in reply and "no-show" in reply, reply


async def test_confirm_in_the_clubs_language_reopens_a_final(engine: AsyncEngine) -> None:
    """`/reopen N confirmar` (es), `potwierdź` (pl), `confirmă` (ro) is `confirm`, not a typo
    answered with 'did you mean confirm?'."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", extra="consolation:no")
    for _ in range(3):
        state = await chat.tournament()
        for match in state.matches.values():
            if not match.is_final and match.is_ready:
                await chat.say("ana", f"/result {match.number} {match.length}-0")
    final = max((await chat.tournament()).matches)
    reply = await chat.say("ana", f"/reopen {final} confirmar")
    assert "reopened" in reply and "did you mean" not in reply, reply
    assert not (await chat.tournament()).matches[final].is_final


async def test_resultado_is_answered_as_result(engine: AsyncEngine) -> None:
    """A Spanish director's `/resultado` is pointed to /result, not /report."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    reply = await chat.say("ana", "/resultado 1 3-1")
    assert "/result" in reply and "/report" not in reply, reply


async def test_a_result_before_the_draw_points_to_draw(engine: AsyncEngine) -> None:
    """`/result 1 3 1` before `/draw` says to draw, not '/schedule all' (which lists none)."""
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00"')
    reply = await chat.say("ana", "/result 1 3 1")
    assert "/draw" in reply and "/schedule" not in reply, reply


async def test_turniej_is_answered_with_tournament(engine: AsyncEngine) -> None:
    """A Polish director's `/turniej info` is pointed to /tournament, not a bare 'unknown'."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:pl")
    for typed in ("/turniej info", "/turneu info", "/torneo info"):
        reply = await chat.say("ana", typed)
        assert "/tournament" in reply, reply


async def test_a_result_for_next_month_before_its_draw_points_to_draw_not_last_month(
    engine: AsyncEngine,
) -> None:
    """A month after January, `/result 1 3-1` in February's undrawn night says to /draw; it
    does not send the director back to a match of January."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", extra="consolation:no")
    for _ in range(3):
        state = await chat.tournament()
        for match in state.matches.values():
            if not match.is_final and match.is_ready:
                await chat.say("ana", f"/result {match.number} {match.length}-0")
    await chat.say("ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00"')
    chat.at("2026-02-28 20:05")
    reply = await chat.say("ana", "/result 1 3-1")
    assert "/draw" in reply and "January Cup" not in reply, reply


async def test_a_result_by_names_of_last_nights_match_says_how_to_name_it(
    engine: AsyncEngine,
) -> None:
    """After the final, `/result bob 3-0 cruz` in next month's entries names last night."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", extra="consolation:no")
    for _ in range(3):
        state = await chat.tournament()
        for match in state.matches.values():
            if not match.is_final and match.is_ready:
                await chat.say("ana", f"/result {match.number} {match.length}-0")
    await chat.say("ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00"')
    reply = await chat.say("ana", "/result bob 3-1 cruz")
    assert '/result bob 3-1 cruz tournament:"January Cup"' in reply, reply


def test_a_players_name_keeps_the_word_before_it() -> None:
    """Only a tournament's name drops a repeated word: 'de De la Cruz' is a person's."""
    renderer = Renderer("es", "UTC", "plain")
    text = renderer.message(msg("checkin.done", name=Name("De la Cruz")))
    assert text == "Llegada de De la Cruz registrada. ¡Mucha suerte!"


async def test_stare_is_answered_with_status(engine: AsyncEngine) -> None:
    """A Romanian director's `/stare` (state) is pointed to /status."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:ro")
    reply = await chat.say("ana", "/stare")
    assert "/status" in reply, reply


async def test_a_result_naming_only_the_loser_is_read_and_a_stranger_refused(
    engine: AsyncEngine,
) -> None:
    """`/result 1 3-2 LOSER` gives the loser's opponent 3; a player not in match 1 is told
    who plays it, not shown the generic forms with match 12."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eve")
    match = (await chat.tournament()).matches[1]
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora", "eve")}
    loser = names[match.black or 0]
    stranger = next(n for i, n in names.items() if i not in match.players)
    reply = await chat.say("ana", f"/result 1 3-2 {stranger}")
    assert "12" not in reply and names[match.white or 0] in reply, reply
    await chat.say("ana", f"/result 1 3-2 {loser}")
    match = (await chat.tournament()).matches[1]
    assert (match.white_score, match.black_score) == (3, 2)
