"""Messages as a new director reads them: one per event, plain rules, a useful /status."""

from __future__ import annotations

from tests.bot.conftest import Clubtd, Script

NIGHT = """\
@club name:"Club" timezone:Europe/Madrid
@director ana
@clock 2026-03-06 18:00
ana: /tournament new name:"Cup" start:"2026-03-06 20:00" approval:no
alice: /register
bob: /register name:"Gina R."
carol: /register
alice: /confirm
bob: /confirm
ana: /status
@clock 2026-03-06 19:30
alice: /checkin
ana: /status
ana: /checkin
alice: /report
ana: /draw
@clock 2026-03-06 20:15
alice (dm): /me language:pl
@wait 10m
"""


def run(clubtd: Clubtd, script: Script, url: str, text: str) -> list[str]:
    result = clubtd("console", "--script", script("n.t", text), "--db", url)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def test_creating_and_drawing_post_one_message_each(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    lines = run(clubtd, script, database_url, NIGHT)
    created = [
        line
        for line in lines
        if "entries" in line
        and "#club: Cup" in line
        and "status" not in line
        and ": open for" not in line
    ]
    assert created == [
        "[18:00] #club: Cup is open for entries: starts Fri, Mar 6, 20:00. "
        "Send /register to enter."
    ]
    drawn = [line for line in lines if "Draw made" in line or "groups are drawn" in line]
    assert len(drawn) == 1


def test_status_before_the_start_names_who_to_chase(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    text = "\n".join(run(clubtd, script, database_url, NIGHT))
    assert "Not confirmed yet (1): carol." in text
    assert "2 players can be drawn now: /draw." in text
    assert "Confirmed, not checked in (1): Gina R.. " not in text
    assert "Confirmed, not checked in (1): Gina R. When one arrives: /present Gina R." in text
    assert "Nothing needs you right now." not in text


def test_report_without_a_score_and_a_director_typing_a_player_command(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    text = "\n".join(run(clubtd, script, database_url, NIGHT))
    assert "is not a score" not in text
    assert "Add the score, yours first: /report 3-1" in text
    assert "You have not registered yet" not in text
    assert "You are a director here, not a player of this tournament." in text


def test_a_player_reads_direct_messages_in_their_own_language(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    lines = run(clubtd, script, database_url, NIGHT)
    assert "[20:15] @alice: Twoje wiadomości prywatne są teraz po polsku." in " ".join(lines)
    assert any(line.startswith("[20:20] #club: Gina R. is 20 minutes late") for line in lines)


RULES = """\
@director ana
@clock 2026-03-06 09:00
ana: /tournament new name:"{name}" preset:{preset} start:"2026-03-06 10:00"
ana: /rules
"""


def test_draughts_rules_say_a_forfeit_after_30_minutes_WAR_V(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    rules = RULES.format(name="Festival", preset="warcaby-100")
    text = "\n".join(run(clubtd, script, database_url, rules))
    assert "not there 30 minutes after the start loses the match by forfeit" in text
    assert "point(s)" not in text and "Lateness: for every" not in text
    assert "match and rematch with colours swapped" in text


def test_navodari_rules_say_why_groups_of_5_are_drawn_NAV_I(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    rules = RULES.format(name="Cupa", preset="navodari-table")
    text = "\n".join(run(clubtd, script, database_url, rules))
    assert "Groups of 4 by lot" in text
    assert "drawn one each into groups chosen by lot, which then have 5" in text
    assert "wins_among_tied" not in text and "head_to_head" not in text
    assert "the result of their match against each other" in text
    assert "youngest player and to the veteran" in text
    assert "18 or over" in text
