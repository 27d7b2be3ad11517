"""/me for a player suspended from the tournament open for entries (HGV-2.3.6, INTERFACE §1).

Played as a club plays it: a no-show in January, February opened that night; in February
/me must say the suspension bars them from February, not invite them to /register.
"""

from __future__ import annotations

from tests.bot.conftest import Clubtd, Script

JANUARY_NO_SHOW = """\
@club name:"HG" timezone:Europe/Madrid{language}
@director ana
@clock 2027-01-15 18:00
ana: /tournament new name:"January Cup" start:"2027-01-16 17:00" approval:no seed:3 \
group_size:4 qualifiers:1 consolation:no
alice: /register
bob: /register
carol: /register
dave: /register
alice: /confirm
bob: /confirm
carol: /confirm
dave: /confirm
@clock 2027-01-16 16:30
alice: /checkin
bob: /checkin
dave: /checkin
ana: /draw
@clock 2027-01-16 19:30
ana: /result alice 3-1 bob
ana: /result alice 3-1 dave
ana: /result bob 3-1 dave
ana: /tournament new name:"February Cup" start:"2027-02-13 17:00" approval:no
@clock 2027-02-01 12:00
carol (dm): /me
"""


def _me(clubtd: Clubtd, script: Script, url: str, language: str = "") -> list[str]:
    text = JANUARY_NO_SHOW.replace(" \\\n", " ").format(language=language)
    result = clubtd("console", "--script", script("story.t", text), "--db", url)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    return lines[lines.index("[12:00] @carol: carol") :]


def test_me_names_the_tournament_a_no_show_is_barred_from_HGV_2_3_6(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """The suspension names February Cup, and /register is not offered."""
    said = _me(clubtd, script, database_url)
    assert said == [
        "[12:00] @carol: carol",
        "  You are suspended from February Cup (Sat, Feb 13, 17:00): you confirmed and did "
        "not come. A director can lift it.",
    ]


def test_me_for_a_suspended_player_in_a_spanish_club_HGV_2_3_6(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """The same in the club's language, with no word of English and no /register."""
    said = _me(clubtd, script, database_url, " language:es")
    assert said[1] == (
        "  Tienes una suspensión para February Cup (sáb, 13 feb, 17:00): confirmaste y no "
        "viniste. Un director puede levantarla."
    )
    assert not any("/register" in line for line in said)


def test_a_director_reads_a_players_card_and_a_player_only_their_own(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """/me carol, by a director: carol's card, naming her, not "you". By a player: refused,
    pointing to /me; a director cannot set carol's language for her."""
    text = JANUARY_NO_SHOW.replace(" \\\n", " ").format(language="")
    text += 'ana: /me carol\nalice: /me carol\nana: /me "carol" language:es\nana: /me car\n'
    result = clubtd("console", "--script", script("story.t", text), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    said = lines[lines.index("[12:00] @carol: carol") + 2 :]
    card = [
        "[12:00] #club: carol",
        "  carol is suspended from February Cup (Sat, Feb 13, 17:00): confirmed and did not come."
        ' To lift it: /lift carol reason:"..."',
    ]
    assert said[:2] == card
    assert said[2] == "[12:00] #club: Only directors look at another player's card; yours: /me"
    assert said[3] == (
        "[12:00] #club: Only a player sets the language of their own messages, with "
        "/me language:es"
    )
    assert said[4:] == card  # a unique beginning of the name is enough
