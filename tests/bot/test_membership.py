"""Club membership (HGV-1.4) in a transcript: approved once, by a director, with /approve."""

from __future__ import annotations

from pathlib import Path

from tests.bot.conftest import Clubtd, Script

NIGHT = """\
@club name:"HG Backgammon" timezone:America/Caracas
@director ana
@clock 2026-01-30 18:00
ana: /tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00"
alice: /register
bob: /register
eve: /register
alice: /confirm
bob: /confirm
eve: /confirm
ana: /draw
ana: /status
ana: /approve alice bob
ana: /approve all
ana: /approve all
@clock 2026-01-31 19:10
alice: /checkin
ana: /tournament new name:"February Cup" start:"2026-02-28 20:00"
"""


def test_approval_is_membership_once_and_says_what_to_type_HGV_1_4(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    result = clubtd("console", "--script", script("m.t", NIGHT), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Director: /approve alice (or /approve all)." in out
    # /draw does not say "0 players": it names who waits and the command to type.
    assert (
        "3 players confirmed but wait for approval as club members: alice, bob, eve. "
        "Approve them first: /approve all" in out
    )
    assert "Waiting for approval as club members: alice, bob, eve." in out
    # Several names at once, each approved; then "all" approves the rest.
    assert "Approved as club members: alice, bob." in out
    assert "Approved as a club member: eve." in out
    assert "Nobody is waiting for approval." in out
    assert "@alice: You are now a member of HG Backgammon, and your entry in January Cup" in out
    assert "alice is checked in." in out


def test_a_member_needs_no_approval_in_the_next_tournament_HGV_1_4(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    later = NIGHT + (
        '@clock 2026-02-01 12:00\nana: /tournament new name:"March Cup" start:"2026-03-06 20:00"\n'
    )
    first = clubtd("console", "--script", script("m.t", later), "--db", database_url)
    assert first.exit_code == 0, first.stderr
    again = clubtd(
        "console",
        "--script",
        script("n.t", "@clock 2026-02-01 12:05\nalice: /register\n"),
        "--db",
        database_url,
    )
    assert again.exit_code == 0, again.stderr
    assert "alice, you are entered" in again.stdout
    assert "/approve" not in again.stdout


def test_a_friendly_tournament_takes_guests_without_approval_HGV_1_4(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    friendly = (
        "@director ana\n@clock 2026-01-30 18:00\n"
        'ana: /tournament new name:"Friendly" start:"2026-01-31 20:00" official:no\n'
        "gus: /register\n"
    )
    result = clubtd("console", "--script", script("f.t", friendly), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    assert "gus, you are entered in Friendly" in result.stdout
    assert "/approve" not in result.stdout


def test_claiming_an_imported_name_waits_for_a_director_HGV_1_4(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Anyone could type "Alice Moreno": a director confirms the claim once, by /approve."""
    setup = '@club name:"HG"\n@director ana\n@clock 2026-01-30 17:00\n'
    assert clubtd("console", "--script", script("s.t", setup), "--db", database_url).exit_code == 0
    csv = tmp_path / "r.csv"
    csv.write_text("Alice Moreno;6,40\n", encoding="utf-8")
    assert clubtd("ranking", "import", str(csv), "--db", database_url).exit_code == 0
    night = (
        "@clock 2026-01-30 18:00\n"
        'ana: /tournament new name:"Cup" start:"2026-01-31 20:00"\n'
        'mallory: /register name:"alice moreno"\n'
        "ana: /status\n"
        "ana: /approve alice\n"
    )
    result = clubtd("console", "--script", script("n.t", night), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Director: /approve Alice Moreno (or /approve all)." in out
    assert "Waiting for approval as club members: Alice Moreno." in out
    assert "Approved as a club member: Alice Moreno." in out


def test_a_club_setting_says_whether_approval_is_needed_HGV_1_4(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    night = (
        "@director ana\n@clock 2026-01-30 18:00\n"
        "ana: /club approval:no\n"
        'ana: /tournament new name:"Open Cup" start:"2026-01-31 20:00"\n'
        "zoe: /register\n"
        "ana: /club approval:yes\n"
        'ana: /tournament new name:"Strict Cup" preset:warcaby-100 start:"2026-02-01 20:00"\n'
    )
    result = clubtd("console", "--script", script("n.t", night), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Players need no approval in tournaments created from now on." in out
    assert "zoe, you are entered in Open Cup" in out and "/approve zoe" not in out
    assert "in every tournament created from now on" in out
