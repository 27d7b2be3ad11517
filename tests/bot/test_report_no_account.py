"""A report against a player the director entered (no chat account): CLUB-REPORT, INTERFACE §1.

Played in the Spanish club: Begoña has no chat account, so nobody can accept or dispute
for her; the reply must not tell the reporter that she can.
"""

from __future__ import annotations

from tests.bot.conftest import Clubtd, Script

NIGHT = """\
@club name:"Backgammon Madrid" timezone:Europe/Madrid{language}
@director marta
@clock 2027-02-12 15:00
marta: /tournament new name:"Copa" start:"2027-02-13 17:00" approval:no seed:5 group_size:3
sergio: /register
jose: /register name:"José García"
sergio: /confirm
jose: /confirm
marta: /addplayer "Begoña Ruiz"
@clock 2027-02-13 16:30
sergio: /checkin
jose: /checkin
marta: /present begona
marta: /draw
@clock 2027-02-13 18:30
sergio: /report 3-1 vs:begona
jose: /report 3-1 vs:sergio
"""


def _replies(clubtd: Clubtd, script: Script, url: str, language: str = "") -> list[str]:
    text = NIGHT.format(language=language)
    result = clubtd("console", "--script", script("n.t", text), "--db", url)
    assert result.exit_code == 0, result.stderr
    return [line for line in result.stdout.splitlines() if line.startswith("[18:30] #club:")]


def test_a_report_against_a_player_without_a_chat_account_says_who_can_settle_it_CLUB_REPORT(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """Begoña cannot accept: the report stands after 15 minutes or a director settles it."""
    said = _replies(clubtd, script, database_url)
    begona = next(line for line in said if "sergio 3-1 Begoña Ruiz" in line)
    assert begona.endswith(
        "recorded. Begoña Ruiz has no chat account: it stands after 15 minutes, "
        "unless a director sets it with /result."
    )
    # a player with an account is still asked to accept or dispute
    assert any("José García 3-1 sergio recorded. sergio can accept or dispute" in s for s in said)


def test_the_same_in_spanish_CLUB_REPORT(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """The club's language, not English."""
    said = _replies(clubtd, script, database_url, " language:es")
    begona = next(line for line in said if "sergio 3-1 Begoña Ruiz" in line)
    assert "Begoña Ruiz no tiene cuenta en el chat" in begona
    assert "puede aceptarlo" not in begona
