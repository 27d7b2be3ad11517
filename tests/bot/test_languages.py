"""A night in Spanish, Romanian and Polish: no English sentence, and CLDR plural forms."""

from __future__ import annotations

import re
import string

import pytest

from commands.catalog import CATALOGS, en
from commands.rendering import plurals
from tests.bot.conftest import Clubtd, Script

PLAYERS = [f"p{n}" for n in range(1, 23)]
COUNTS = (1, 2, 5, 22)


def night(language: str) -> str:
    lines = [
        f'@club name:"Club" timezone:Europe/Madrid language:{language}',
        "@director ana",
        "@clock 2026-03-06 18:00",
        'ana: /tournament new name:"Cup" start:"2026-03-06 20:00"',
    ]
    lines += [f"{p}: /register" for p in PLAYERS]
    lines.append("ana: /approve all")
    for n, player in enumerate(PLAYERS, 1):
        lines.append(f"{player}: /confirm")
        if n in COUNTS:
            lines.append("ana: /status")
    lines += ["@clock 2026-03-06 19:30", "p1: /checkin", "p2: /checkin", "ana: /draw"]
    lines += ["@clock 2026-03-06 20:25", "p1: /report 3-1", "p1 (dm): /me", "ana: /rules"]
    return "\n".join(lines) + "\n"


def english_fragments(language: str) -> set[str]:
    """Return the sentences of English templates that the language says otherwise."""
    found: set[str] = set()
    for key, template in en.MESSAGES.items():
        if CATALOGS[language].get(key) == template:
            continue  # the same in both (a score, a usage line)
        flat = template
        for block in reversed(plurals(template)):
            flat = flat[: block.start] + "{x}" + flat[block.end :]
        for literal, *_ in string.Formatter().parse(flat):
            for piece in re.split(r"[.:;!?]", literal):
                if len(piece.strip()) >= 14 and re.search(r"[a-z]{4} [a-z]{3,}", piece):
                    found.add(piece.strip())
    return found


EXPECTED = {
    # One player is no draw: /status says so rather than "1 player can be drawn now".
    "es": [
        "solo se puede sortear a 1 jugador:",
        "ahora a 2 jugadores:",
        "ahora a 5 jugadores:",
        "22 jugadores:",
    ],
    "ro": [
        "doar 1 jucător poate intra",
        "sorți 2 jucători:",
        "sorți 5 jucători:",
        "sorți 22 de jucători:",
    ],
    "pl": ["tylko 1 zawodnik:", "udział 2 osoby:", "udział 5 osób:", "udział 22 osoby:"],
}


@pytest.mark.parametrize("language", ["es", "ro", "pl"])
def test_a_night_in_the_club_language_has_no_english_and_right_plurals(
    language: str, clubtd: Clubtd, script: Script, database_url: str
) -> None:
    result = clubtd("console", "--script", script("n.t", night(language)), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Approved" not in out and len(out.splitlines()) > 60
    english = sorted(f for f in english_fragments(language) if f in out)
    assert english == []
    for phrase in EXPECTED[language]:
        assert phrase in out, phrase
    assert "(s)" not in out and "(e)" not in out and "(es)" not in out
