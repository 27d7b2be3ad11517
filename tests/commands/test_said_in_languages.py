"""A command typed as a club says it is answered with the right command (INTERFACE §1)."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.registry import BY_PATH, SAID_IN_LANGUAGES
from commands.resolver import fold
from commands.words import said_in_languages, without_phrase_tail
from tests.commands.chat import Chat


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("rejestracja", "register"),  # Polish, as the club calls its sign-up sheet
        ("zgłoszenie", "register"),
        ("inscripción", "register"),  # Spanish, with its accent
        ("registro", "register"),
        ("potwierdź", "confirm"),
        ("raport", "report"),
        ("klasyfikacja", "standings"),  # Polish: the group tables, as a club says it
        # A director's overview, never /resume (a clock) or /cancel (a match).
        ("resumen", "status"),
        ("przegląd", "status"),
        ("rezumat", "status"),
        ("glance", "status"),
    ],
)
def test_a_word_in_the_clubs_language_names_the_command(typed: str, meant: str) -> None:
    assert SAID_IN_LANGUAGES.get(fold(typed)) == meant


def test_every_word_names_a_command() -> None:
    """A word names a command, or a command and its subcommand (/nuevo: /tournament new)."""
    for meant in set(SAID_IN_LANGUAGES.values()):
        assert meant in BY_PATH, meant


@pytest.mark.parametrize(
    ("typed", "rest", "meant"),
    [
        ("wynik", "2-0", "report"),  # a player's line: only their score
        ("resultado", "3-1", "report"),
        ("rezultat", "", "report"),
        ("wynik", "3-1 z Grzegorzem", "report"),  # the player's score, then the opponent
        ("resultado", "3-1 con José", "report"),
        ("wynik", "zofia 2-1 jan", "result"),  # a director's: names and the score
        ("resultado", "5 3-1", "result"),
        ("rezultat", "5 void", "result"),
        ("wyniki", "2-0", "result"),  # only "result" itself is both
    ],
)
def test_a_result_word_is_a_report_when_a_score_comes_first(
    typed: str, rest: str, meant: str
) -> None:
    assert said_in_languages(fold(typed), rest) == meant


@pytest.mark.parametrize(
    ("typed", "rest", "meant"),
    [
        ("prezent", "", "checkin"),  # a player arriving
        ("presente", "", "checkin"),
        ("prezent", "mihai ana", "present"),  # a director naming who is here
        ("presente", "rosa", "present"),
        ("obecny", "jan", "present"),
        ("obecni", "Jan Kowalski, Anna Nowak", "present"),  # Gdańsk: those who are here
        ("presentes", "rosa lucia", "present"),
        ("nieobecni", "jan", "away"),
    ],
)
def test_an_arrival_word_with_names_is_the_directors_present(
    typed: str, rest: str, meant: str
) -> None:
    assert said_in_languages(fold(typed), rest) == meant


@pytest.mark.parametrize(
    ("typed", "rest", "kept"),
    [
        ("tragere", "la sorți", ""),  # Romanian "the draw" is three words
        ("tragere", "La  Sorti seed:5", "seed:5"),
        ("sorteo", "de grupos", ""),
        ("tragere", "acum", "acum"),  # not the phrase: kept as typed
        ("raport", "la sorti", "la sorti"),  # only the phrase's own word drops it
    ],
)
def test_a_phrase_said_for_a_command_is_answered_without_its_tail(
    typed: str, rest: str, kept: str
) -> None:
    assert without_phrase_tail(fold(typed), rest) == kept


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("wznów", "resume"),  # a Polish director restarting a match's clock
        ("pausa", "pause"),
        ("walkower", "forfeit"),
        ("ausente", "away"),
        ("usprawiedliw", "excuse"),
        ("redeschide", "reopen"),
        ("sanción", "sanction"),
        ("aprobar", "approve"),  # entering players and keeping the club's list
        ("zatwierdź", "approve"),
        ("aprobă", "approve"),
        ("añadir", "addplayer"),
        ("dodaj", "addplayer"),
        ("adaugă", "addplayer"),
        ("jugador", "player"),
        ("gracz", "player"),
        ("jucător", "player"),
        ("perdonar", "lift"),
        ("export", "web"),  # the command line's; the pages give the data in the chat
        ("exportar", "web"),
        ("claim", "director claim"),  # a member's claim code
        ("kod", "director claim"),
        ("código", "director claim"),
    ],
)
def test_a_directors_word_in_the_clubs_language_names_the_command(typed: str, meant: str) -> None:
    assert SAID_IN_LANGUAGES.get(fold(typed)) == meant


async def test_a_word_for_tables_and_ranking_alike_offers_both(engine: AsyncEngine) -> None:
    """After January's final a Romanian director typed /clasament for the season and
    was offered only /standings (the group tables)."""
    chat = Chat(engine)
    await chat.say("ana", "/club language:ro")

    said = await chat.say("ana", "/clasament")

    assert said == (
        "Nu cunosc /clasament. Ați vrut să scrieți /standings (clasamentul grupelor) sau"
        " /ranking (clasamentul sezonului)? Trimiteți /help pentru lista de comenzi."
    ), said
    assert "/ranking" not in await chat.say("ana", "/raport")  # one meaning: one answer
