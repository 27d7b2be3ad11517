"""Commands and values typed the way people type them, in the club's language (issue 15,
items 10-13 and its polish list)."""

from __future__ import annotations

import re
from datetime import date

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.binding import bind
from commands.dispatch import handle
from commands.parsing import parse
from commands.rendering import Renderer
from commands.replies import Reply, msg
from commands.session import Invocation
from storage import tables as t
from tests.commands.chat import Chat
from tournament.model import MatchStatus


def test_a_hyphen_in_a_command_word_is_typed_for_nothing() -> None:
    assert parse("/check-in").name == "checkin"
    assert parse("/Check-In").name == "checkin"
    assert parse("/report-3-1") == parse("/report 3-1")
    assert parse("/report–3–1").args == ("3–1",)


async def test_check_in_with_a_hyphen_is_answered_as_the_command(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", check_in=())
    for typed in ("/check-in", "/Check-In"):
        reply = await chat.say("bob", typed)
        assert reply and "/checkin" not in reply, reply
    assert (await chat.tournament()).entries[await chat.player_id("bob")].checked_in


async def test_a_score_glued_to_report_is_reported(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    reply = await chat.say("bob", "/report-3-1")
    assert "recorded" in reply
    (match,) = (await chat.tournament()).matches.values()
    assert match.status is MatchStatus.PENDING


async def test_tournament_info_counts_the_players_waiting_for_approval_HGV_1_4(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:yes')
    for player in ("bob", "cruz", "dora"):
        await chat.say(player, "/register")
    reply = await chat.say("ana", "/tournament info")
    assert "0 entries, and 3 players wait for approval: /approve all" in reply, reply


async def test_status_never_offers_a_draw_of_nobody_HGV_1_4(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:yes')
    await chat.say("bob", "/register")
    reply = await chat.say("ana", "/status")
    assert "0 players" not in reply and "Nobody can be drawn yet" in reply, reply
    await chat.say("ana", "/approve all")
    await chat.say("bob", "/confirm")
    # Nor of one: the draw would refuse it (at least two).
    reply = await chat.say("ana", "/status")
    assert "Only 1 player can be drawn so far: a draw needs at least 2" in reply, reply
    assert "/draw" not in reply, reply
    await chat.say("cruz", "/register")
    await chat.say("ana", "/approve all")
    await chat.say("cruz", "/confirm")
    assert "2 players can be drawn now: /draw." in await chat.say("ana", "/status")


async def _created(chat: Chat, options: str, preset: str = "navodari-table") -> str:
    return await chat.say(
        "ana", f'/tournament new name:"Cupa" preset:{preset} start:"2026-01-31 20:00" {options}'
    )


async def test_last_chance_is_the_consolation_option_HGV_7_4_13(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    reply = await _created(chat, "last_chance:yes")
    assert "Cupa" in reply and "no option" not in reply, reply
    assert (await chat.tournament()).preset.knockout.consolation


async def test_switches_are_typed_yes_or_no_in_the_clubs_languages(engine: AsyncEngine) -> None:
    """consolation:da, third_place:nie, Última_Chance:sí: one yes/no reader for all."""
    chat = Chat(engine)
    reply = await _created(chat, "consolation:da third_place:nie ultima_chance:sí")
    assert "does not fit" not in reply, reply
    knockout = (await chat.tournament()).preset.knockout
    assert knockout.consolation and not knockout.third_place


async def test_a_switch_that_is_no_yes_or_no_is_answered_in_the_clubs_words(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    reply = await _created(chat, "consolation:quizás")
    assert reply == "consolation:quizás no sirve: admite sí o no.", reply


def test_a_lot_is_won_or_lost_in_every_language_and_a_colour_on_result_WAR_V() -> None:
    from commands.registry import BY_NAME, select

    for command in ("/result 5 2-2 1-1 lot:{}", "/report 2-2 1-1 lot:{}"):
        for typed, meant in (
            ("won", "won"),
            ("ganó", "won"),
            ("wygrałem", "won"),
            ("câștigat", "won"),
            ("lost", "lost"),
            ("perdí", "lost"),
            ("przegrana", "lost"),
            ("pierdut", "lost"),
        ):
            parsed = parse(command.format(typed))
            target, words = select(BY_NAME[parsed.name], parsed)
            args = bind(target.signature, parsed, words)
            assert args.choice("lot") == meant, (command, typed)
    for typed, meant in (
        ("white", "white"),
        ("negras", "black"),
        ("białe", "white"),
        ("first", "first"),
        ("negru", "black"),
    ):
        parsed = parse(f"/result 5 2-2 1-1 lot:{typed}")
        target, words = select(BY_NAME["result"], parsed)
        assert bind(target.signature, parsed, words).choice("lot") == meant


async def test_help_tournament_new_lists_the_preset_options_in_the_clubs_words(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:pl")
    reply = await chat.say("ana", "/help tournament new")
    assert "consolation:tak|nie: drabinka „Ostatnia szansa”" in reply, reply
    assert "group_size:3: liczba graczy w grupie" in reply


async def test_rules_show_the_options_with_their_values_HGV_7_4_13(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:ro")
    await _created(chat, "consolation:da group_size:4")
    reply = await chat.say("ana", "/rules")
    assert "consolation:da: tabloul „Ultima Șansă”" in reply, reply
    assert "third_place:da" in reply and "group_size:4" in reply


async def _in_other_chat(chat: Chat, user: str, text: str, *, admin: bool = False) -> str:
    """Type `text` as `user` in a group that is not the club's (yet)."""
    inv = Invocation("console", "new-group", user, user, text, chat.now, chat_admin=admin)
    response = await handle(inv, uow_factory=chat.uow_factory, config=chat.config)
    assert response is not None
    return Renderer(response.language, "UTC", "plain").reply(response.reply).text


async def test_club_join_answers_in_the_clubs_language(engine: AsyncEngine) -> None:
    """Issue 15, item 11: /club join came before the club and answered in English."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    assert await chat.say("ana", "/club join") == "Añade el código: /club join CODE."
    await chat.say("bob", "/register")
    answer = await _in_other_chat(chat, "bob", "/club join ABC")
    assert answer == "Solo los directores pueden usar /club join.", answer
    answer = await _in_other_chat(chat, "bob", "/club join ABC", admin=True)
    assert answer.startswith("El código ABC no existe"), answer


def test_quotes_escaped_inside_a_quoted_name_are_kept_without_backslashes() -> None:
    parsed = parse('/addplayer name:"O\'Neil \\"Big\\" Smith"')
    assert parsed.options["name"] == 'O\'Neil "Big" Smith'
    assert parse('/addplayer "Ana P." "Jorge P."').args == ("Ana P.", "Jorge P.")


async def test_a_name_with_escaped_quotes_is_stored_as_meant(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:no')
    await chat.say("ana", '/addplayer name:"O\'Neil \\"Big\\" Smith"')
    names = [p for p in (await chat.tournament()).entries]
    assert await chat.player_id('O\'Neil "Big" Smith') in names


async def test_a_new_club_language_is_confirmed_in_that_language(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    response = await chat.response("ana", "/club language:es")
    assert response is not None and response.language == "es"
    assert "fus orar" in await chat.say("ana", "/club language:ro")
    assert "strefa czasowa" in await chat.say("ana", "/club language:pl")


async def test_a_draughts_club_reads_of_lots_not_dice_and_no_gammons_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:pl")
    await _created(chat, "", preset="warcaby-100")
    rules = await chat.say("ana", "/rules")
    assert "losowanie przeprowadzone przez bota" in rules and "kośćmi" not in rules, rules
    # A match is two games, match and rematch: its lengths are games, not points.
    assert "group_length:2: mecze grupowe po tyle partii" in rules, rules
    assert "final_length:2: finał po tyle partii" in rules and "tylu punktów" not in rules
    for asked in ("/help", "/help report"):
        shown = await chat.say("bob", asked)
        assert not re.search(r"\bgammon", shown) and "/report game" not in shown, shown


async def test_romanian_and_polish_wording_of_refusals_and_cancellations(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:pl")
    await _created(chat, "approval:no")
    await chat.say("bob", "/register")
    await chat.say("bob", "/confirm")
    reply = await chat.say("ana", "/draw")
    assert "potrzeba co najmniej 2 zawodników" in reply and "musi" not in reply, reply
    await chat.say("ana", "/club language:ro")
    reply = await chat.say("ana", '/tournament cancel "Cupa" reason:"ploaie"')
    said = " ".join([reply, *(t for _, t in chat.posted)])
    assert "a fost anulat" in said and "este anulat" not in said, said


async def test_a_start_with_its_day_is_not_said_as_an_hour(engine: AsyncEngine) -> None:
    """Issue 15 polish: "empieza a las vie, 30 ene" ("a las" is for hours only). On the
    day itself a refusal says the hour alone: "empieza el sáb, 6 mar, 19:40" was read at
    the table in Valencia, that very Saturday."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    await chat.say("ana", '/tournament new name:"Copa" start:"2026-01-31 20:00" approval:no')
    await chat.say("bob", "/register")
    chat.at("2026-01-30T12:00")
    before = await chat.say("bob", "/checkin")
    assert re.search(r"abre el sáb, 31 ene, \d\d:\d\d\.", before), before
    chat.at("2026-01-31T12:00")
    that_day = await chat.say("bob", "/checkin")
    assert re.search(r"abre a las \d\d:\d\d\.", that_day), that_day


async def test_a_report_before_its_match_says_the_hour_on_the_day_HGV_2_3_4(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    await chat.night("bob", "cruz", "dora", check_in=("bob",))
    reply = await chat.say("bob", "/report 3-1")
    assert re.search(r"empieza a las \d\d:\d\d ", reply), reply


async def test_the_draw_shows_each_players_seed_HGV_7_2_1(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:no')
    for player in ("bob", "cruz", "dora", "eli"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")
    drawn = await chat.say("ana", "/draw")
    assert drawn.startswith("Draw made.")
    assert all(f"seed {n}" in drawn for n in (1, 2, 3, 4)), drawn


async def _played_out(chat: Chat) -> None:
    """Play a night of bob and cruz to its end, the director setting every result."""
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    for _ in range(6):
        state = await chat.tournament()
        open_ = [m for m in state.matches.values() if m.is_ready and not m.is_final]
        if not open_:
            break
        await chat.say("ana", f"/result {open_[0].number} {open_[0].length}-0")


async def test_ranking_points_are_written_in_the_clubs_number_format_HGV_7_5(
    engine: AsyncEngine,
) -> None:
    """Issue 15 polish: the placements said 2.30 and /ranking 2,30 in one Spanish chat."""
    from commands import views
    from commands.replies import Reply

    chat = Chat(engine)
    await _played_out(chat)
    state = await chat.tournament()
    assert state.placements
    names = {await chat.player_id(n): n for n in ("bob", "cruz")}
    table = Reply((views.placements_table(state, names),))
    spanish = Renderer("es", "UTC", "plain").reply(table).text
    assert re.search(r"\d,\d\d", spanish) and not re.search(r"\d\.\d\d", spanish), spanish
    assert re.search(r"\d\.\d\d", Renderer("en", "UTC", "plain").reply(table).text)


async def test_the_prizes_column_is_explained_under_the_ranking_HGV_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _played_out(chat)
    reply = await chat.say("bob", "/ranking")
    assert "Prizes: yes once a player has played at least 6 of the season's 10" in reply, reply


async def test_a_command_said_in_the_clubs_language_is_answered_with_its_name(
    engine: AsyncEngine,
) -> None:
    """/potwierdź, /confirmar, /raport: no dead end, the reply names the command."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:pl")
    reply = await chat.say("zofia", "/potwierdź")
    assert "/confirm" in reply, reply
    await chat.say("ana", "/club language:es")
    assert "/standings" in await chat.say("bob", "/clasificación")
    await chat.say("ana", "/club language:ro")
    assert "/checkin" in await chat.say("bob", "/sosire")


async def test_all_is_understood_in_the_clubs_language_HGV_1_4(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    await chat.say("ana", '/tournament new name:"Copa" start:"2026-01-31 20:00" approval:sí')
    await chat.say("bob", "/register")
    await chat.say("cruz", "/register")
    await chat.say("ana", "/approve todos")
    assert all(e.approved for e in (await chat.tournament()).entries.values())


async def test_options_named_in_the_clubs_language_are_understood(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    response = await chat.response("ana", "/club idioma:es zona_horaria:Caracas")
    assert response is not None and response.language == "es"
    reply = await chat.say("ana", '/tournament new nombre:"Copa" inicio:"27/03/2026 8pm" grupo:4')
    assert reply.startswith("Inscripciones abiertas para Copa"), reply
    state = await chat.tournament()
    assert state.preset.groups.size == 4
    reply = await chat.say("ana", "/standings grupo:1")
    assert "grupo:" in reply and "group_size" not in reply, reply
    # fecha: is a tournament's start, and on /register (which has no start) a birth date:
    # "/register has no option fecha:".
    await chat.say("eve", '/register nombre:"Eva Ruiz" fecha:1980-01-02')
    async with chat.engine.connect() as conn:
        born = await conn.execute(select(t.players.c.born).where(t.players.c.name == "Eva Ruiz"))
    assert born.scalar_one() == date(1980, 1, 2)


async def test_a_lot_is_asked_for_with_the_whole_line_and_named_as_a_club_says_it_WAR_V(
    engine: AsyncEngine,
) -> None:
    """Every phase level: the hint is the line typed with lot:won, not "/report 3-1";
    sorteo:ganado is lot:won."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    await chat.night("bob", "cruz", preset="warcaby-100")
    chat.at("2026-01-31T20:30")
    _match, white, _black = await chat.first_match("bob", "cruz")
    phases = (await chat.tournament()).preset.scoring.group_tiebreak_games  # a group match
    level = " ".join(["2-2"] * (1 + len(phases)))
    asked = await chat.say(white, f"/report {level}")
    assert f"/report {level} lot:won" in asked and "/report 3-1" not in asked, asked
    told = await chat.say(white, f"/report {level} sorteo:ganado")
    assert "anotado" in told, told


async def test_a_director_is_asked_for_the_lot_by_colour_WAR_V(engine: AsyncEngine) -> None:
    """/result with every phase level: the colour that won (lot:white), not "won"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", preset="warcaby-100")
    chat.at("2026-01-31T20:30")
    match, _white, _black = await chat.first_match("bob", "cruz")
    phases = (await chat.tournament()).preset.scoring.group_tiebreak_games
    level = " ".join(["2-2"] * (1 + len(phases)))
    asked = await chat.say("ana", f"/result {match.number} {level}")
    assert "the colour that won the lot, lot:white or lot:black" in asked, asked
    assert f"/result {match.number} {level} lot:white" in asked, asked
    told = await chat.say("ana", f"/result {match.number} {level} lot:black")
    assert told.startswith(f"Match {match.number}: ") and "lot" in told, told
    assert (await chat.tournament()).matches[match.number].lot_winner == "black"


def test_a_command_typed_with_a_phones_sentence_end_or_wide_slash_is_the_command() -> None:
    """A phone's keyboard adds a full stop or types a full-width slash: "/confirm." and
    "／confirm" went unanswered, read as chat."""
    assert parse("/confirm.").name == "confirm"
    assert parse("/me!").name == "me"
    assert parse("\uff0fconfirm").name == "confirm"
    assert parse("/report. 3-1") == parse("/report 3-1")
    # On the score or a match number too ("3-1. is not a score"); a name keeps its dot.
    assert parse("/report 3-1.") == parse("/report 3-1")
    assert parse("/report 3:1!") == parse("/report 3:1")
    assert parse("/reopen 5.") == parse("/reopen 5")
    assert parse("/present Ana P.").args == ("Ana", "P.")


def test_an_emoji_after_a_command_says_nothing_to_it() -> None:
    """ "/confirm ✅" read "I did not understand ✅"; "/checkin 👋" was taken for a name."""
    assert parse("/confirm ✅") == parse("/confirm")
    assert parse("/report 3-1 😀") == parse("/report 3-1")
    assert parse("/checkin 👋🏽") == parse("/checkin")
    assert parse("/register ❤️") == parse("/register")
    assert parse('/addplayer "✅"').args == ("✅",)  # quoted: what was typed


async def test_a_yes_after_a_players_own_command_is_the_command(engine: AsyncEngine) -> None:
    """Sevilla's players typed "/confirm sí", "/checkin ya estoy" and "/accept ok": each
    was refused, and "ya estoy" ("I'm here already") was offered as /present ya estoy."""
    chat = await open_cup(engine)
    for player in ("bob", "cruz"):
        await chat.say(player, "/register ok")
        assert "is confirmed" in await chat.say(player, "/confirm sí")
    chat.at("2026-01-31T19:40")
    assert "checked in" in await chat.say("bob", "/checkin ya estoy")
    assert "checked in" in await chat.say("cruz", "/checkin jestem tutaj")
    await chat.say("ana", "/draw")
    chat.at("2026-01-31T20:20")
    match, white, black = await chat.first_match("bob", "cruz")
    await chat.say(white, "/report 3-1")
    said = await chat.say(black, "/accept ok")
    assert said.startswith(f"Match {match.number}: {white} 3-1 {black}."), said
    assert "/present Ignacio" in await chat.say("bob", "/checkin Ignacio"), "a name: refused"


async def test_a_command_word_written_to_the_bot_alone_is_the_command(
    engine: AsyncEngine,
) -> None:
    """Bob answered the bot's question in his chat with it: "confirm", "me", and read
    "Commands start with /". In a private chat everything is for the bot; in the club's
    group a line without a slash is people talking, and stays unanswered."""
    chat = await open_cup(engine)
    await chat.say("bob", "/register")
    assert "is confirmed" in await chat.say("bob", "Confirm.", dm=True)
    assert "January Cup" in await chat.say("bob", "me", dm=True)
    assert await chat.say("bob", "hello", dm=True) == "Commands start with /, for example /help."
    # "Yes" to the bot's question: the commands that answer it.
    said = await chat.say("bob", "Tak!", dm=True)
    assert said.startswith("To answer, tap the button under the question"), said
    assert "/confirm" in said and "/accept" in said, said
    # With a tap each, bound to bob and his club.
    answered = await chat.response("bob", "ok", dm=True)
    assert answered is not None
    assert [b.command.split(" club:")[0] for b in answered.reply.buttons] == [
        "/confirm",
        "/accept",
    ], answered.reply.buttons
    assert all(b.command.endswith(" for:bob") for b in answered.reply.buttons)
    assert await chat.say("cruz", "confirm it is tomorrow?") == ""


async def test_the_command_meant_is_one_tap_away_for_the_one_who_typed_it(
    engine: AsyncEngine,
) -> None:
    """ "Did you mean /confirm?" had to be typed again on a phone: it carries the line as a
    button, bound to the person who typed it (pressed by another, refused)."""
    chat = await open_cup(engine)
    await chat.say("bob", "/register")
    response = await chat.response("bob", "/potwierdzam")
    assert response is not None
    (button,) = response.reply.buttons
    assert button.command.startswith("/confirm club:"), button.command
    cruz = await chat.response("cruz", button.command, pressed=True)
    assert cruz is not None and cruz.refused
    assert not (await chat.tournament()).entries[await chat.player_id("bob")].confirmed
    bob = await chat.response("bob", button.command, pressed=True)
    assert bob is not None and "is confirmed" in chat.text(bob)
    # Written privately: bound to bob's one club; a stranger's private chat has no club.
    response = await chat.response("bob", "/mee", dm=True)
    assert response is not None
    (button,) = response.reply.buttons
    assert button.command.startswith("/me club:"), button.command
    stranger = await chat.response("zed", "/mee", dm=True)
    assert stranger is not None and not stranger.reply.buttons


def test_check_in_split_by_a_phone_is_the_checkin() -> None:
    """Autocorrect makes "/checkin" "/check in": it read "I do not know /check", and the
    player, at the venue, was counted late."""
    assert parse("/check in") == parse("/checkin")
    assert parse("/Check In") == parse("/checkin")
    assert parse("/check in tournament:luty").options == {"tournament": "luty"}


async def test_a_score_written_3x1_is_reported(engine: AsyncEngine) -> None:
    """'3x1' is how a score is written in much of Latin America; it was refused."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    assert "recorded" in await chat.say("bob", "/report 3x1")


def test_void_is_typed_in_the_clubs_language_HGV_4_8() -> None:
    """ "/result 19 nulo" answered "nobody here is called nulo"."""
    from commands.registry import BY_NAME, select

    for typed in ("void", "nulo", "anular", "unieważnij", "anuluj", "anulat", "anulează"):
        parsed = parse(f'/result 19 {typed} reason:"x"')
        target, words = select(BY_NAME[parsed.name], parsed)
        args = bind(target.signature, parsed, words)
        assert args.choice("void") == "void", typed
        assert args.player("player") is None, typed


async def test_one_cancelled_lateness_point_is_said_in_the_singular_CLUB_BOTH_ABSENT(
    engine: AsyncEngine,
) -> None:
    """Spanish read "se anulan 1 punto", Romanian "s-au anulat 1 punct"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", check_in=("bob",))
    chat.at("2026-01-31T20:12")
    await chat.say("cruz", "/checkin")
    (match,) = (await chat.tournament()).matches.values()
    await chat.say("ana", "/club language:es")
    reply = await chat.say("ana", f'/cancel {match.number} reason:"tráfico"')
    assert reply == f"Encuentro {match.number}: se anula 1 punto por retraso.", reply
    for points, said in ((1, "s-a anulat 1 punct"), (3, "s-au anulat 3 puncte")):
        line = Reply((msg("cancel.done", match=2, points=points),))
        assert Renderer("ro", "UTC", "plain").reply(line).text == (
            f"Partida 2: {said} de întârziere."
        )


async def test_more_of_the_words_a_club_types_name_their_command(engine: AsyncEngine) -> None:
    """A Spanish, a Polish and a Romanian night: /calendario, /terminarz, /tabla,
    /reclamo, /yo, /ja and /eu got "I do not know" and no suggestion."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    for typed, meant in (
        ("/calendario", "/schedule"),
        ("/terminarz", "/schedule"),
        ("/tabla", "/standings"),
        ("/reclamo", "/dispute"),
        ("/yo", "/me"),
        ("/ja", "/me"),
        ("/eu", "/me"),
    ):
        reply = await chat.say("bob", typed)
        assert f"¿Querías decir {meant}?" in reply, (typed, reply)


async def test_a_directors_subcommand_said_as_one_word_names_it(engine: AsyncEngine) -> None:
    """/nuevo, /przenieś, /novato, /usuń, /lista, /arbitru got no suggestion (or /lift for
    /lista): each names the command and subcommand, the rest of the line kept."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    for typed, meant in (
        ('/nuevo nombre:"Copa" inicio:"2027-01-09 17:00"', '/tournament new nombre:"Copa"'),
        ("/przenieś", "/tournament move"),
        ("/novato luis", "/player novice luis"),
        ("/usuń luis", "/player remove luis"),
        ("/lista", "/tournament list"),
        ("/arbitru", "/director"),
    ):
        reply = await chat.say("ana", typed)
        assert f"¿Querías decir {meant}" in reply, (typed, reply)


def test_a_novice_and_an_all_time_ranking_said_in_the_clubs_words_HGV_NOVICE_HGV_8() -> None:
    """/player nowicjusz "Marek Hłasko" was offered /player rename; /ranking wszech
    czasów (two words) answered "I do not understand: czasów"."""
    from commands.registry import BY_NAME, select

    for line, sub in (
        ("/player nowicjusz marek", "player novice"),
        ("/player novato luis", "player novice"),
    ):
        parsed = parse(line)
        target, _ = select(BY_NAME[parsed.name], parsed)
        assert target.name == sub, line
    for line in ("/ranking wszech czasów", "/ranking din toate timpurile", "/ranking de siempre"):
        parsed = parse(line)
        target, words = select(BY_NAME[parsed.name], parsed)
        assert bind(target.signature, parsed, words).choice("which") == "alltime", line


def test_a_report_may_name_the_opponent_after_against_in_any_language() -> None:
    """ "/report 3-1 contra cruz" and "vs cruz" answered "I did not understand contra
    cruz"; the name after an "against" is the vs: option."""
    from commands.registry import BY_NAME, select

    for typed in ("vs cruz", "contra cruz", "przeciw cruz", "împotriva cruz"):
        parsed = parse(f"/report 3-1 {typed}")
        target, words = select(BY_NAME[parsed.name], parsed)
        args = bind(target.signature, parsed, words)
        assert args.values["vs"] == "cruz", (typed, args.values)
        assert args.values["score"] == [(3, 1)], typed


async def open_cup(engine: AsyncEngine) -> Chat:
    """Return a chat whose club has January Cup open for entries, without approval."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say(
        "ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'
    )
    return chat
