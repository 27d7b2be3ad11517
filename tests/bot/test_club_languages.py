"""A director plays a night in Spanish, Polish and Romanian as people type, typos
included: every reply is in the club's language and none is a dead end (issue 15)."""

from __future__ import annotations

import re

import pytest

from tests.bot.conftest import Clubtd, Script

# Words only English replies use; names and command words aside.
ENGLISH = re.compile(r"\b(the|is|are|your|you|and|not|send|write|match|player)\b", re.I)

NIGHTS = {
    "es": """\
@club name:"HGV" timezone:America/Caracas language:es
@director ana
@clock 2026-01-29 12:00
ana: /tournament new nombre:"Copa Enero" inicio:30/01/2026 20:00 last_chance:si
ana: /tournament info
rocio: /register name:"Rocío"
alex: /register
bea: /register
ana: /status
ana: /aprove todos
ana: /approve todos
rocio: /confirmar
rocio: /confirm
alex: /confirm
bea: /confirm
@clock 2026-01-30 19:30
rocio: /Check-In
alex: /check-in
bea: /checkin
ana: /draw
@clock 2026-01-30 20:05
rocio: /report-3-2
alex: /dispute
alex: /report 1-3
ana: /status
ana: /result 1 bea 3-2 alex
ana: /result 1
ana: /result 1 rocio 3-2 alex
ana: /club join
""",
    "pl": """\
@club name:"Warcaby 55+" timezone:Europe/Warsaw language:pl
@director ana
@clock 2026-01-29 12:00
ana: /tournament new nazwa:"Puchar" preset:warcaby-100 start:"30.01.2026 18:00" approval:nie
zofia: /register name:"zofia kowalska" born:12.03.1965
jan: /register born:1950-01-02
ana: /tournament info
zofia: /potwierdź
zofia: /confirm
jan: /confirm
@clock 2026-01-30 17:30
zofia: /Check-In
jan: /check-in
ana: /draw
@clock 2026-01-30 18:05
jan: /wynik 3-1
jan: /report 3-1
zofia: /dispute
ana: /status
ana: /rules
ana: /tournament cancel "Puchar" powód:"awaria"
""",
    "ro": """\
@club name:"Zarul Magic" timezone:Europe/Bucharest language:ro
@director ana
@clock 2026-01-29 12:00
ana: /tournament new name:"Cupa" preset:navodari-table start:"30/01/2026 19:00" ultima_sansa:da
ana: /tournament cancel "Cupa" motiv:"greșeală"
ana: /tournament new name:"Cupa 2" preset:navodari-table start:"30/01/2026 19:00" approval:nu
ion: /register born:1980-01-01
maria: /register born:01.02.1975
ana: /tournament info
ion: /confirma
ion: /confirm
maria: /confirm
@clock 2026-01-30 18:30
ion: /Check-In
maria: /check-in
ana: /draw
@clock 2026-01-30 19:05
ana: /status
ion: /raport 5-3
ion: /report-5-3
ana: /reslut 1 5-1
ana: /status
ana: /tournament cancel "Cupa 2" motiv:"pana de curent"
""",
}


@pytest.mark.parametrize("language", sorted(NIGHTS))
def test_a_night_typed_in_the_clubs_language_is_answered_in_it(
    clubtd: Clubtd, script: Script, language: str
) -> None:
    result = clubtd("console", "--script", script(f"{language}.t", NIGHTS[language]))
    assert result.exit_code == 0, result.stderr
    replies = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(replies) > 20
    english = [line for line in replies if ENGLISH.search(line.split(": ", 1)[-1])]
    assert not english, "\n".join(english)
    # No dead end: an unknown word names the command meant.
    unknown = [line for line in replies if "/help" in line and "/" not in line.split("/help")[0]]
    assert not unknown, unknown
