"""`clubtd console --script`: a small night end to end (INTERFACE §3)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.bot.conftest import Clubtd, Script
from tests.bot.nights import DRAW_SEED, without_draw

SETUP = """\
@club name:"Test Club" timezone:Europe/Madrid
@director ana
@clock 2026-03-06 19:00
"""

NIGHT = """\
ana: /tournament new name:"Cup" start:"2026-03-06 20:00" approval:no
alice: /register
bob: /register
alice: /confirm
bob (dm): /confirm
@clock 2026-03-06 19:30
alice: /checkin
ana: /draw
@clock 2026-03-06 20:15
bob (dm): /me
"""


def _prepare(clubtd: Clubtd, script: Script, tmp_path: Path, url: str) -> None:
    """Create the club and import a ranking, so colours do not depend on the draw's lot."""
    assert clubtd("console", "--script", script("setup.t", SETUP), "--db", url).exit_code == 0
    (tmp_path / "ranking.csv").write_text("name,points\nalice,2\nbob,1\n", encoding="utf-8")
    imported = clubtd("ranking", "import", str(tmp_path / "ranking.csv"), "--db", url)
    assert imported.exit_code == 0, imported.stderr


def test_a_small_night_prints_every_bot_message(
    clubtd: Clubtd,
    script: Script,
    tmp_path: Path,
    database_url: str,
) -> None:
    """Registration, a lateness point at 20:10 (HGV-2.3.1) and a private reply."""
    _prepare(clubtd, script, tmp_path, database_url)
    result = clubtd("console", "--script", script("night.t", NIGHT), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    after_checkin = lines[lines.index("[19:30] #club: alice is checked in. Good luck!") + 1]
    assert after_checkin.startswith("[19:30] #club: ")
    assert DRAW_SEED.search(after_checkin)  # the /draw reply names the seed
    assert without_draw(lines) == [
        "[19:00] #club: Cup is open for entries: starts Fri, Mar 6, 20:00. "
        "Send /register to enter.",
        "[19:00] #club: alice, you are entered in Cup (Fri, Mar 6, 20:00). "
        "Please confirm you will come: /confirm",
        "  Check-in is already open: send /checkin when you are at the venue.",
        "  [Confirm: /confirm]",
        "[19:00] #club: bob, you are entered in Cup (Fri, Mar 6, 20:00). "
        "Please confirm you will come: /confirm",
        "  Check-in is already open: send /checkin when you are at the venue.",
        "  [Confirm: /confirm]",
        "[19:00] #club: Thank you, alice: your place in Cup (Fri, Mar 6, 20:00) is confirmed.",
        "[19:00] @bob: Thank you, bob: your place in Cup (Fri, Mar 6, 20:00) is confirmed.",
        "[19:30] #club: alice is checked in. Good luck!",
        "[19:50] @alice: Your match 1 against bob starts at 20:00 at table 1; you play white.",
        "[19:50] @bob: Your match 1 against alice starts at 20:00 at table 1; you play black.",
        "[19:50] #club: Round at 20:00: to your tables, please.",
        "  Table 1: alice (white) v bob, match 1.",
        "[20:10] #club: bob is 10 minutes late for match 1: alice gets 1 point. alice 1-0 bob",
        "[20:10] @bob: You are 10 minutes late for match 1: your opponent got 1 point. "
        "Send /checkin as soon as you arrive.",
        "[20:15] @bob: bob",
        "  Cup: entered; confirmed: yes; present: no.",
        "  Cup: matches",
        "  No.  Round  Time   White  Black  Score  Status",
        "    1  G1 R1  20:00  alice  bob      1-0  to play",
        "  Lateness in match 1: 1 point to your opponent at 20:10.",
    ]


def test_the_next_transcript_continues_on_the_stored_clock(
    clubtd: Clubtd,
    script: Script,
    tmp_path: Path,
    database_url: str,
) -> None:
    """A second run starts at 20:15 where the first stopped and lets 20:20, 20:30 fall due."""
    _prepare(clubtd, script, tmp_path, database_url)
    assert clubtd("console", "--script", script("n.t", NIGHT), "--db", database_url).exit_code == 0
    later = "@club\n@director ana\nalice: /standings\n@wait 20m\n"
    result = clubtd("console", "--script", script("later.t", later), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["[20:15] #club: [picture: cup-group-1.png]", "  Group 1"]
    stamped = [line for line in lines if line.startswith("[")]
    assert stamped[1:] == [
        "[20:20] #club: bob is 20 minutes late for match 1: alice gets 1 point. alice 2-0 bob",
        "[20:20] @bob: You are 20 minutes late for match 1: your opponent got 1 point. "
        "Send /checkin as soon as you arrive.",
        "[20:30] #club: bob did not come: alice wins match 1 by forfeit (alice 3-0 bob).",
        "[20:30] #club: bob confirmed but did not come: their matches are lost and they are "
        'suspended from the next tournament. A director can excuse them: /excuse bob reason:"..."',
        "[20:30] @bob: You are suspended from the club's next tournament: you confirmed and did "
        "not come.",
        "[20:30] #club: Cup is over. Champion: alice!",
        "[20:30] #club: [picture: cup-group-1.png]",
    ]


def test_the_clock_never_goes_back(clubtd: Clubtd, script: Script) -> None:
    text = SETUP + "ana: /help\n@clock 2026-03-06 18:59\nana: /help\n"
    result = clubtd("console", "--script", script("back.t", text), "--db", "sqlite:///c.db")
    assert result.exit_code == 2
    assert "line 5: @clock 2026-03-06 18:59 is before the clock (2026-03-06 19:00)" in (
        result.stderr
    )
    assert result.stdout.count("Commands:") == 1  # the run stopped at line 5


def test_the_clock_of_a_new_database_may_be_set_to_any_time(
    clubtd: Clubtd, script: Script
) -> None:
    text = "@clock 2001-01-01 10:00\nana: /help\n"
    result = clubtd("console", "--script", script("old.t", text), "--db", "sqlite:///o.db")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("[10:00] #club: Commands:")


def test_a_malformed_directive_stops_the_run_before_anything_happens(
    clubtd: Clubtd,
    script: Script,
) -> None:
    text = SETUP + "ana: /help\n@wait a while\n"
    result = clubtd("console", "--script", script("bad.t", text), "--db", "sqlite:///m.db")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "clubtd: line 5: @wait: not a duration: 'a while' (write 90s, 10m, 2h or 1h30m)"
    )
    assert result.stdout == ""


def test_a_rejected_command_is_a_reply_not_a_failure(clubtd: Clubtd, script: Script) -> None:
    text = SETUP + "bob: /draw\nbob: /frobnicate\nbob: hello everyone\n"
    result = clubtd("console", "--script", script("no.t", text), "--db", "sqlite:///r.db")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "[19:00] #club: Only directors can use /draw.",
        "[19:00] #club: I do not know /frobnicate. Send /help for the list of commands.",
    ]


def test_directives_are_stored_and_harmless_to_repeat(
    clubtd: Clubtd,
    script: Script,
    tmp_path: Path,
) -> None:
    url = "sqlite:///d.db"
    text = SETUP + '@club name:"Renamed Club"\n@director ana\nana: /club\n'
    assert clubtd("console", "--script", script("a.t", text), "--db", url).exit_code == 0
    result = clubtd("console", "--script", script("b.t", "ana: /club\n"), "--db", url)
    assert result.stdout.splitlines() == [
        "[19:00] #club: Renamed Club: time zone Europe/Madrid, language en."
    ]


def test_pictures_are_written_and_printed(clubtd: Clubtd, script: Script, tmp_path: Path) -> None:
    """INTERFACE §3: a picture prints as [picture: NAME.png] and is written to DIR."""
    url = "sqlite:///p.db"
    _prepare(clubtd, script, tmp_path, url)
    pictures = tmp_path / "pics"
    text = NIGHT + "@clock 2026-03-06 20:30\nalice: /report 3-1\nbob: /accept\nana: /standings\n"
    result = clubtd(
        "console", "--script", script("p.t", text), "--db", url, "--pictures", str(pictures)
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "[20:30] #club: [picture: cup-group-1.png]" in lines  # the live table, then /standings
    assert lines.count("[20:30] #club: [picture: cup-group-1.png]") == 2
    with Image.open(pictures / "cup-group-1.png") as image:
        assert image.format == "PNG" and image.width == 1000
    # Without a directory a picture still prints as its line, its table as text under it.
    again = clubtd("console", "--script", script("q.t", "ana: /standings\n"), "--db", url)
    shown = again.stdout.splitlines()
    at = shown.index("[20:30] #club: [picture: cup-group-1.png]")
    assert shown[at + 1] == "  Group 1"


def test_interactive_console_reads_stdin(clubtd: Clubtd) -> None:
    lines = "@director ana\n/help\nbob: /register\nbob (dm): /me\n\n@wait 10m\n"
    result = clubtd("console", "--db", "sqlite:///i.db", "--as", "ana", input=lines)
    assert result.exit_code == 0
    out = result.stdout
    assert "#club: Commands:" in out
    assert "/tournament" in out  # ana is a director: she sees the directors' commands
    assert (
        "#club: bob, you are now a player of Club. No tournament is open for entries yet." in out
    )
    assert "@bob: bob\n" in out
    assert "Virtual clock: " in result.stderr  # @wait works on a new database (§3)


def test_a_club_can_turn_pictures_off(clubtd: Clubtd, script: Script, tmp_path: Path) -> None:
    """/club pictures:off: tables go out as text even where pictures could be drawn."""
    url = "sqlite:///off.db"
    _prepare(clubtd, script, tmp_path, url)
    pictures = tmp_path / "pics"
    text = NIGHT + "ana: /club pictures:off\nana: /standings\n"
    result = clubtd(
        "console", "--script", script("o.t", text), "--db", url, "--pictures", str(pictures)
    )
    assert result.exit_code == 0, result.stderr
    assert "#club: Test Club: time zone Europe/Madrid, language en." in result.stdout
    assert "  Tables and brackets go out as text" in result.stdout
    after = result.stdout.split("pictures:on)")[1]
    assert "Group 1" in after and "[picture:" not in after


def test_an_unknown_command_is_answered_in_the_club_language(
    clubtd: Clubtd, script: Script
) -> None:
    text = (
        '@club name:"Club Navodari" language:ro\n@director ana\nana: /club\nmaria: /raport 2-1\n'
    )
    result = clubtd("console", "--script", script("ro.t", text), "--db", "sqlite:///ro.db")
    assert result.exit_code == 0, result.stderr
    *_, said, button = result.stdout.splitlines()
    assert said.endswith(
        "Nu cunosc /raport. Ați vrut să scrieți /report 2-1? "
        "Trimiteți /help pentru lista de comenzi."
    ), said
    # The line meant, one tap away (pressed, it is sent as maria typed it).
    assert button == "  [Da: /report 2-1]", button


def test_a_transcript_written_by_hand_on_windows_runs(
    clubtd: Clubtd, script: Script, tmp_path: Path
) -> None:
    """Notepad's byte-order mark and CRLF line ends, and "(DM)" in capitals, stopped the
    run with "not a transcript line" (INTERFACE §3)."""
    text = (
        '\ufeff@club name:"CR" timezone:UTC\r\n@director ana\r\n@clock 2026-05-01 18:00\r\n'
        'ana: /tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no\r\n'
        "bob: /register\r\nbob (DM): /me   # his card\r\n"
    )
    path = tmp_path / "windows.t"
    path.write_bytes(text.encode("utf-8"))
    result = clubtd("console", "--script", str(path), "--db", f"sqlite:///{tmp_path / 'w.db'}")
    assert result.exit_code == 0, result.stderr
    assert "[18:00] @bob: bob" in result.stdout.splitlines(), result.stdout
