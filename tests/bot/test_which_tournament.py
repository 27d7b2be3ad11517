"""Issue 7's stories about typos and which tournament a command means, as transcripts."""

from __future__ import annotations

import json

from tests.bot.conftest import Clubtd, Script

SETUP = """\
@club name:"Test Club" timezone:Europe/Madrid
@director ana
@clock 2026-05-01 18:00
"""


def run(clubtd: Clubtd, script: Script, url: str, text: str) -> list[str]:
    result = clubtd("console", "--script", script("story.t", SETUP + text), "--db", url)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stdout
    return result.stdout.splitlines()


def tournaments(clubtd: Clubtd, url: str) -> list[tuple[str, str]]:
    exported = clubtd("export", "--db", url, "--format", "json")
    assert exported.exit_code == 0, exported.stderr
    return [(t["name"], t["status"]) for t in json.loads(exported.stdout)["tournaments"]]


def test_tournament_new_typos_are_refused_saying_what_to_type(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """preset:navodari, thirdplace:no and group_size:five crashed the console (issue 7)."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" preset:navodari start:"2026-05-01 20:00"\n'
        'ana: /tournament new name:"May Cup" thirdplace:no start:"2026-05-01 20:00"\n'
        'ana: /tournament new name:"May Cup" group_size:five start:"2026-05-01 20:00"\n'
        'ana: /tournament new name:Navodari Cup preset:navodari-table start:"2026-05-01 20:00"\n'
        "ana: /tournament nwe\n",
    )
    assert lines == [
        "[18:00] #club: There is no preset navodari: did you mean preset:navodari-table? "
        "Presets: hgv-backgammon, navodari-table, warcaby-100.",
        "[18:00] #club: /tournament new has no option thirdplace: did you mean third_place:? "
        "It takes name:, preset:, start:, official:, seed:, tournament:, group_size: ... (/rules)",
        "[18:00] #club: group_size:five does not fit: it takes a whole number, for example 4.",
        '[18:00] #club: A value with spaces needs quotes: name:"Navodari Cup"',
        "[18:00] #club: /tournament nwe? Did you mean /tournament new? "
        "It takes: new, list, move, rename, cancel, info.",
    ]
    assert tournaments(clubtd, database_url) == []


def test_a_second_tournament_does_not_become_the_tournament(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """Commands act on tonight's tournament; a later one is named with tournament:."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\n'
        "alice: /register\n"
        'ana: /tournament new name:"June Cup" start:"2026-06-05 20:00" approval:no\n'
        "bob: /register\n"
        'carol: /register tournament:"june"\n'
        "ana: /tournament list\n",
    )
    assert (
        "[18:00] #club: Also open for entries: May Cup. Commands act on the tournament played "
        "today, else "
        'the next to start; add tournament:"June Cup" to act on this one.' in lines
    )
    assert any(line.startswith("[18:00] #club: bob, you are entered in May Cup") for line in lines)
    assert any(
        line.startswith("[18:00] #club: carol, you are entered in June Cup") for line in lines
    )
    assert lines[-4:] == [
        "[18:00] #club: Test Club: tournaments",
        "  May Cup: Fri, May 1, 20:00, open for entries",
        "  June Cup: Fri, Jun 5, 20:00, open for entries",
        '  Commands act on May Cup unless you add tournament:"...".',
    ]


def test_two_tournaments_tonight_ask_which_and_a_cancelled_one_leaves_every_default(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """/tournament cancel needs a reason, is logged, keeps the tournament with its status."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\n'
        'ana: /tournament new name:"May Cup 2" start:"2026-05-01 21:00" approval:no\n'
        "dave: /register\n"
        "dave: /rules\n"
        'ana: /tournament cancel "May Cup 2"\n'
        'ana: /tournament cancel name:"may cup 2" reason:"created by mistake"\n'
        "dave: /register\n"
        'ana: /draw tournament:"May Cup 2"\n',
    )
    assert lines[3:] == [
        '[18:00] #club: Which tournament? Add tournament:"May Cup" · tournament:"May Cup 2" '
        "to the command.",
        # A look-up offers a button per tournament; /register (a change) does not: in a
        # group, whoever taps a button runs it as themselves.
        '[18:00] #club: Which tournament? Add tournament:"May Cup" · tournament:"May Cup 2" '
        "to the command.",
        '  [May Cup: /rules tournament:"May Cup"] [May Cup 2: /rules tournament:"May Cup 2"]',
        '[18:00] #club: Add a reason: /tournament cancel "May Cup 2" reason:"..."',
        "[18:00] #club: May Cup 2 is cancelled: created by mistake.",
        "[18:00] #club: dave, you are entered in May Cup (Fri, May 1, 20:00). "
        "Please confirm you will come: /confirm",
        "  [Confirm: /confirm]",
        "[18:00] #club: May Cup 2 is cancelled: /tournament list shows the others.",
    ]
    assert tournaments(clubtd, database_url) == [
        ("May Cup", "registration"),
        ("May Cup 2", "cancelled"),
    ]


def test_a_finished_tournament_cannot_be_cancelled(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\n'
        "alice: /register\nbob: /register\nalice: /confirm\nbob: /confirm\n"
        "@clock 2026-05-01 19:45\nalice: /checkin\nbob: /checkin\nana: /draw\n"
        "@clock 2026-05-01 20:30\n"
        "ana: /result alice 3-0 bob\n"
        "@clock 2026-05-01 20:50\n"
        "ana: /result alice 7-0 bob\n"
        'ana: /tournament cancel "May Cup" reason:"oops"\n',
    )
    assert lines[-1] == (
        "[20:50] #club: May Cup is finished: it stays in the record and cannot be cancelled."
    )
    assert tournaments(clubtd, database_url) == [("May Cup", "finished")]


def test_an_unfinished_may_cup_leaves_the_june_entries_to_june(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """May's night ended with matches unplayed (still in play): in June, /confirm,
    /checkin and /withdraw act on June's tournament, the one where they can act
    (CLUB-PRESENCE)."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\n'
        "alice: /register\nbob: /register\ncarol: /register\n"
        "alice: /confirm\nbob: /confirm\ncarol: /confirm\n"
        "@clock 2026-05-01 19:30\n"
        "alice: /checkin\nbob: /checkin\ncarol: /checkin\n"
        "ana: /draw\n"
        "@clock 2026-06-05 18:00\n"
        'ana: /tournament new name:"June Cup" start:"2026-06-05 20:00" approval:no\n'
        "alice: /register\nbob: /register\n"
        "alice: /confirm\nbob: /confirm\n"
        "@clock 2026-06-05 19:30\n"
        "alice: /checkin\n"
        "bob: /withdraw confirm\n",
    )
    entered = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("[18:00] #club: bob, you are entered in June")
    )
    june = lines[entered + 1 :]
    for who in ("alice", "bob"):
        assert (
            f"[18:00] #club: Thank you, {who}: your place in June Cup (Fri, Jun 5, 20:00)"
            " is confirmed." in june
        )
    assert "[19:30] #club: alice is checked in. Good luck!" in june
    assert june[-1] == "[19:30] #club: You have withdrawn from June Cup. No sanction applies."
    assert not any("May Cup" in line for line in june), june
    assert tournaments(clubtd, database_url) == [
        ("May Cup", "groups"),
        ("June Cup", "registration"),
    ]


def test_a_players_command_means_the_one_tournament_they_entered(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """A morning, an afternoon and a night cup on one day; bob entered the afternoon's.
    On the eve his /confirm answered "you are not entered in Morning: send /register"
    (the next to start), and /register entered him there by mistake; on the day his
    /confirm and /schedule were asked "which tournament?" though he is in only one.
    /register still asks on the day (it enters another one), as does a director."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"Morning" start:"2026-05-02 11:00" approval:no\n'
        'ana: /tournament new name:"Afternoon" start:"2026-05-02 18:00" approval:no\n'
        'ana: /tournament new name:"Night" start:"2026-05-02 22:00" approval:no\n'
        'bob: /register tournament:"Afternoon"\n'
        "bob: /confirm\n"
        "bob: /me\n"
        "@clock 2026-05-02 09:00\n"
        "bob: /schedule\n"
        "bob: /withdraw\n"
        "bob: /register\n"
        "ana: /status\n",
    )
    assert lines[-9:] == [
        "[18:00] #club: Thank you, bob: your place in Afternoon (Sat, May 2, 18:00) is confirmed.",
        "[18:00] #club: bob",
        "  Afternoon: entered; confirmed: yes; present: no.",
        "[09:00] #club: Afternoon starts Sat, May 2, 18:00; the draw has not been made yet.",
        "[09:00] #club: Withdraw from Afternoon? Before the start this carries no sanction."
        " To go ahead: /withdraw confirm",
        "  [Yes, withdraw: /withdraw confirm]",
        '[09:00] #club: Which tournament? Add tournament:"Morning" · tournament:"Afternoon" ·'
        ' tournament:"Night" to the command.',
        '[09:00] #club: Which tournament? Add tournament:"Morning" · tournament:"Afternoon" ·'
        ' tournament:"Night" to the command.',
        '  [Morning: /status tournament:"Morning"] [Afternoon: /status tournament:"Afternoon"]'
        ' [Night: /status tournament:"Night"]',
    ], lines[-9:]


def test_at_the_venue_tonight_a_check_in_is_for_tonights_tournament(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """eve entered next month's cup only and came tonight: her /checkin is about
    tonight's (she is not entered: /register), not next month's check-in hours."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\n'
        'ana: /tournament new name:"June Cup" start:"2026-06-05 20:00" approval:no\n'
        'eve: /register tournament:"June Cup"\n'
        "@clock 2026-05-01 19:30\n"
        "eve: /checkin\n",
    )
    assert "May Cup" in lines[-1] and "June Cup" not in lines[-1], lines[-1]


# Two cups on one day, created in the morning.
MORNING_AND_NIGHT = (
    "@clock 2026-05-02 09:00\n"
    'ana: /tournament new name:"Morning" start:"2026-05-02 11:00" approval:no\n'
    'ana: /tournament new name:"Night" start:"2026-05-02 22:00" approval:no\n'
)


def test_a_card_needs_no_tournament_when_several_are_on_and_none_is_yours(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """bob's afternoon cup was called off; his /me asked "which tournament?" of the two
    left that day, neither his. His card says he is in neither, and how to enter."""
    lines = run(
        clubtd,
        script,
        database_url,
        MORNING_AND_NIGHT
        + 'ana: /tournament new name:"Afternoon" start:"2026-05-02 18:00" approval:no\n'
        'bob: /register tournament:"Afternoon"\n'
        'ana: /tournament cancel "Afternoon" reason:"no hall"\n'
        "bob: /me\n",
    )
    assert lines[-2] == "[09:00] #club: bob", lines[-3:]
    assert lines[-1] == (
        "  You are not entered in Morning, Night; to play, for example:"
        ' /register tournament:"Morning"'
    ), lines[-3:]


def test_a_card_asks_which_when_the_player_is_in_several_that_are_on(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """José was in both of the day's cups; his /me said he was in neither ("You are not
    entered in Morning, Night"): it asks which, as his other commands do."""
    lines = run(
        clubtd,
        script,
        database_url,
        MORNING_AND_NIGHT + 'jose: /register tournament:"Morning"\n'
        'jose: /register tournament:"Night"\n'
        "jose: /me\n",
    )
    said = "\n".join(lines[-2:])
    assert "not entered" not in said, said
    assert 'tournament:"Morning"' in said and 'tournament:"Night"' in said, said


def test_the_season_ranking_does_not_ask_which_of_the_unfinished_nights(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """Two nights left unfinished (a knockout never reported): /ranking, the club's
    table, answered "which tournament?" with a button for each; it shows the table."""
    night = """\
@clock {made} 12:00
ana: /tournament new name:"{name}" start:"{day} 20:00"
ana: /addplayer "bob" "cruz" "dora" tournament:"{name}"
@clock {day} 19:30
ana: /present "bob" "cruz" "dora"
ana: /draw
"""
    lines = run(
        clubtd,
        script,
        database_url,
        night.format(name="May Cup", made="2026-05-02", day="2026-05-09")
        + night.format(name="June Cup", made="2026-05-10", day="2026-06-13")
        + "@clock 2026-07-01 12:00\nbob: /ranking\nana: /status\n",
    )
    assert sum("Draw made" in line for line in lines) == 2, lines
    # The last two replies, each its lines up to the next one ("[12:00] #club: ...").
    starts = [i for i, line in enumerate(lines) if line.startswith("[12:00] #club:")]
    ranking = "\n".join(lines[starts[-2] : starts[-1]])
    status = "\n".join(lines[starts[-1] :])
    assert "ranking" in ranking, ranking
    assert "Which tournament?" not in ranking, ranking
    assert "Which tournament?" in status, "a director's glance of a night still asks"


def test_a_night_whose_day_passed_undrawn_is_named_to_move_or_call_off(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """May Cup was forgotten: in June its glance said "the start (20:00) has passed", as
    if tonight's, and June Cup's creation said to add tournament:"June Cup", which every
    command meant already."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\n'
        "alice: /register\n"
        "alice: /confirm\n"
        "dave: /register\n"
        "@clock 2026-06-02 12:00\n"
        "ana: /status\n"
        "ana: /tournament info\n"
        'ana: /tournament new name:"June Cup" start:"2026-06-05 20:00" approval:no\n'
        "bob: /register\n"
        "ana: /tournament list\n"
        # The line the glance offered, its reason filled in.
        'ana: /tournament move "May Cup" start:"2026-06-05 20:00" reason:"forgotten"\n',
    )
    assert any(
        line.startswith(
            "[12:00] #club: May Cup moves to Fri, Jun 5, 20:00 (it was Fri, May 1, 20:00):"
            " forgotten."
        )
        for line in lines
    ), lines[-6:]
    lines = lines[: lines.index("[12:00] #club: Test Club: tournaments") + 4]
    assert lines[-3:-1] == [
        "  May Cup: Fri, May 1, 20:00, never drawn, its day passed",
        "  June Cup: Fri, Jun 5, 20:00, open for entries",
    ]
    assert (
        "  Its start (Fri, May 1, 20:00) was on an earlier day and the groups were never drawn:"
        ' to play it another night, /tournament move "May Cup" start:"2026-06-05 20:00"'
        ' reason:"...";'
        ' to call it off, /tournament cancel "May Cup" reason:"...".' in lines
    )
    assert not any("The start (20:00) has passed" in line for line in lines)
    assert "[12:00] #club: May Cup: never drawn, its day passed." in lines  # the glance
    info = next(line for line in lines if line.startswith("[12:00] #club: May Cup ("))
    assert "never drawn, its day passed" in info, info  # /tournament info
    # Nobody comes that night: who confirmed or is here is no news.
    assert not any("When one arrives" in line or "a reminder goes" in line for line in lines)
    assert (
        "[12:00] #club: Never drawn, though their day has passed (1): May Cup. To call one off:"
        ' /tournament cancel "May Cup" reason:"..."' in lines
    )
    assert not any("Also open for entries" in line for line in lines)
    assert any(
        line.startswith("[12:00] #club: bob, you are entered in June Cup") for line in lines
    )
    assert tournaments(clubtd, database_url) == [
        ("May Cup", "registration"),
        ("June Cup", "registration"),
    ]


def test_a_new_tournament_that_starts_first_says_it_is_the_one_commands_mean(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """June Cup opened first; May Cup, starting sooner, is what commands act on now."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"June Cup" start:"2026-06-05 20:00" approval:no\n'
        'ana: /tournament new name:"May Cup" start:"2026-05-08 20:00" approval:no\n'
        "bob: /register\n",
    )
    assert (
        "[18:00] #club: Also open for entries: June Cup. Commands act on May Cup, the next to"
        ' start; add tournament:"June Cup" to act on another.' in lines
    )
    assert any(line.startswith("[18:00] #club: bob, you are entered in May Cup") for line in lines)


def test_a_forgotten_night_takes_no_entry_and_a_withdrawal_from_it_is_free(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """A month after May Cup's day (never drawn), carl was entered in it, "check-in is
    already open", and bob, who had confirmed, was told withdrawing "suspends you from the
    next tournament" (HGV-2.3.6): a night never held owes nobody their word."""
    lines = run(
        clubtd,
        script,
        database_url,
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\n'
        "bob: /register\n"
        "bob: /confirm\n"
        "@clock 2026-06-02 12:00\n"
        "carl: /register\n"
        "bob: /checkin\n"
        "bob: /withdraw\n"
        "bob: /withdraw confirm\n"
        "ana: /status\n",
    )
    refusal = (
        "May Cup was to be played on Fri, May 1, 20:00 and was never drawn: there is no night"
        " to enter, confirm or check in for. A director moves it to another night or calls"
        " it off."
    )
    assert lines.count(f"[12:00] #club: {refusal}") == 2, lines  # carl's entry, bob's check-in
    assert "[12:00] #club: Withdraw from May Cup? This carries no sanction. To go ahead:" in (
        " ".join(lines)
    )
    assert "[12:00] #club: You have withdrawn from May Cup. No sanction applies." in lines
    assert not any("can be drawn" in line for line in lines)  # the glance offers no /draw
    exported = clubtd("export", "--db", database_url, "--format", "json")
    players = {p["name"]: p for p in json.loads(exported.stdout)["players"]}
    assert players["bob"]["sanctions"] == []
    assert "carl" not in players
