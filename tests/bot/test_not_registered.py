"""Someone the club does not know by their chat account (INTERFACE §1).

Zoë was entered by the director (no chat account); her /register under her own name is
refused until she claims it with a code. Her /confirm must not send her back to that
/register alone: it says how a member the director entered gets in.
"""

from __future__ import annotations

from tests.bot.conftest import Clubtd, Script

NIGHT = """\
@club name:"Backgammon Madrid" timezone:Europe/Madrid{language}
@director marta
@clock 2027-02-12 15:00
marta: /tournament new name:"Copa" start:"2027-02-13 17:00" approval:no
marta: /addplayer "Zoë Núñez"
zoe: /register name:"zoe nunez"
zoe: /confirm
"""


def _confirm_reply(clubtd: Clubtd, script: Script, url: str, language: str = "") -> str:
    result = clubtd(
        "console", "--script", script("n.t", NIGHT.format(language=language)), "--db", url
    )
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()[-1]


def test_an_unknown_account_is_told_of_the_claim_code_too(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """/register, or the director's claim code for a member entered without an account."""
    said = _confirm_reply(clubtd, script, database_url)
    assert "You have not registered yet: send /register." in said
    assert "ask them for a claim code (/director claim)" in said
    assert "/register claim:CODE" in said


def test_the_same_in_spanish(clubtd: Clubtd, script: Script, database_url: str) -> None:
    """The club's language, not English."""
    said = _confirm_reply(clubtd, script, database_url, " language:es")
    assert "Todavía no te has inscrito" in said
    assert "/register claim:CÓDIGO" in said


def test_a_stranger_writing_privately_is_answered_in_the_clubs_language(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """The console is one club's terminal: a Polish club's newcomer writing the bot
    privately read English, and a mistyped claim code sent him to "register where your
    club meets" instead of saying the code does not work."""
    night = NIGHT.format(language=" language:pl") + (
        "jan (dm): /me\njan (dm): /register claim:ZLY-KOD\n"
    )
    result = clubtd("console", "--script", script("n.t", night), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    me, code = result.stdout.splitlines()[-2:]
    assert me.startswith("[15:00] @jan: Najpierw zapisz się tam, gdzie spotyka się"), me
    assert code.startswith("[15:00] @jan: Ten kod przejęcia nie działa"), code
