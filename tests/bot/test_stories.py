"""Issue 7's stories, typed as people typed them, end to end on SQLite and PostgreSQL.

Each transcript is replayed by `clubtd console --script`; the assertions name the
lines that tell the story (the right match, a correction carried through, undo for
people, a tie that never ends).
"""

from __future__ import annotations

import json
import re

from tests.bot.conftest import Clubtd, Script

RIGHT_MATCH = """\
@club name:"Test Club" timezone:Europe/Madrid
@director ana
@clock 2026-03-06 18:00
ana: /tournament new name:"Cup" start:"2026-03-06 20:00" approval:no seed:5
alice: /register
bob: /register
hugo: /register
alice: /confirm
bob: /confirm
hugo: /confirm
@clock 2026-03-06 19:30
alice: /checkin
ana: /draw
@clock 2026-03-06 19:45
alice: /report 3-1
bob: /checkin
@clock 2026-03-06 20:25
alice: /reprot 3-1
alice: /report 3-1
bob: /accept
alice: /report 3-1
alice: /report 3-1 match:2
"""

CORRECTED_FINAL = """\
@club name:"HG Backgammon" timezone:America/Caracas
@director ana
@clock 2026-03-06 18:00
ana: /tournament new name:"March Cup" start:"2026-03-06 20:00" approval:no seed:7
alice: /register name:"Alice Moreno"
gina: /register name:"Gina R."
bob: /register
alice: /confirm
gina: /confirm
bob: /confirm
@clock 2026-03-06 19:30
alice: /checkin
gina: /checkin
bob: /checkin
ana: /draw
ana: /schedule all
@clock 2026-03-06 20:25
alice: /report 3-1
bob: /accept
@clock 2026-03-06 21:05
gina: /report 3-0
bob: /accept
@clock 2026-03-06 21:45
gina: /report 3-1
alice: /accept
@clock 2026-03-06 21:50
alice: /report 5-2
bob: /accept
@clock 2026-03-06 22:35
alice: /report 3-1
@clock 2026-03-06 22:40
gina: /report 7-5
alice: /accept
ana: /ranking
@clock 2026-03-07 10:00
ana: /reslt 5 7-6
ana: /result "Alice Moreno" 7-6 "Gina R."
ana: /ranking
ana: /bracket
"""

WITHDRAW_AND_BACK = """\
@club name:"Test Club" timezone:Europe/Madrid
@director ana
@clock 2026-03-06 18:00
ana: /tournament new name:"Cup" start:"2026-03-06 20:00" approval:no seed:7
alice: /register
bob: /register
cruz: /register
alice: /confirm
bob: /confirm
cruz: /confirm
@clock 2026-03-06 19:30
alice: /checkin
bob: /checkin
cruz: /checkin
ana: /draw
@clock 2026-03-06 20:20
alice: /withdraw report
alice: /withdraw
alice: /withdraw confirm
alice: /me
ana: /reinstate alice
ana: /reinstate alice reason:"she meant her report"
alice: /checkin
alice: /schedule
ana: /excuse alice reason:"phoned"
"""

NEVER_ENDING_TIE = """\
@club name:"Cupa Zarul Magic" timezone:Europe/Bucharest
@director ana
@clock 2026-03-06 18:00
ana: /tournament new name:"Cupa" preset:navodari-table start:"2026-03-06 20:00" approval:no seed:7
alice: /register born:1980-01-01
bob: /register born:1981-01-01
cruz: /register born:1982-01-01
alice: /confirm
bob: /confirm
cruz: /confirm
@clock 2026-03-06 19:30
alice: /checkin
bob: /checkin
cruz: /checkin
ana: /draw
@clock 2026-03-06 21:00
ana: /result alice 5-3 bob
ana: /result bob 5-2 cruz
ana: /result cruz 5-4 alice
@clock 2026-03-06 21:20
ana: /result alice 1-0 bob
ana: /result bob 1-0 cruz
ana: /result cruz 1-0 alice
ana: /lot 2
ana: /lot
"""


def play(clubtd: Clubtd, script: Script, text: str, url: str) -> list[str]:
    result = clubtd("console", "--script", script("story.t", text), "--db", url)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def test_a_report_acts_on_the_match_that_is_on_HGV_2_3_4(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """19:45 for a 20:00 match with the opponent absent, and after match 1 is final."""
    lines = play(clubtd, script, RIGHT_MATCH, database_url)
    early = (
        "[19:45] #club: Match 1 starts at 20:00 and your opponent has not "
        "checked in yet: report it once it has been played."
    )
    assert early in lines
    assert "[20:25] #club: Match 1: alice 3-1 bob. alice wins." in lines
    later = (
        "[20:25] #club: Match 2 starts at 20:40 and your opponent has not "
        "checked in yet: report it once it has been played."
    )
    assert lines.count(later) == 2  # /report 3-1, and with match:2 named
    assert not any("hugo 1-3 alice" in line or "alice 3-1 hugo" in line for line in lines)
    assert (
        "[20:25] #club: I do not know /reprot. Did you mean /report 3-1? "
        "Send /help for the list of commands."
    ) in lines


def test_a_final_corrected_after_the_finish_changes_champion_points_and_season_HGV_4_8(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """`/result "Alice Moreno" 7-6 "Gina R."` the morning after (HGV-7.5, HGV-8 follow)."""
    lines = play(clubtd, script, CORRECTED_FINAL, database_url)
    hint = next(line for line in lines if line.startswith("[22:35]"))
    assert hint.startswith("[22:35] #club: ")
    assert "  Send your score first, for example /report 7-5." in lines  # the final's length
    assert "[22:40] #club: March Cup is over. Champion: Gina R.!" in lines
    at = lines.index("[10:00] #club: Match 5 corrected: Gina R. 6-7 Alice Moreno (was 7-5).")
    assert lines[at + 1] == (
        "  March Cup: placements and ranking points corrected. "
        "Champion: Alice Moreno (was Gina R.)."
    )
    places = lines[at + 3 : at + 7]
    assert [re.split(r"\s{2,}", row.strip()) for row in places] == [
        ["Place", "Player", "Points"],
        ["1", "Alice Moreno", "2.22"],
        ["2", "Gina R.", "1.18"],
        ["3", "bob", "0.60"],
    ]
    season = lines.index("[10:00] #club: [picture: ranking-season-backgammon.png]") + 1
    assert lines[season] == "  HG Backgammon: season ranking"  # under its picture line
    assert re.split(r"\s{2,}", lines[season + 2].strip())[:3] == ["1", "Alice Moreno", "2.22"]
    exported = clubtd("export", "--db", database_url, "--format", "json")
    assert exported.exit_code == 0, exported.stderr
    data = json.loads(exported.stdout)
    cup = next(t for t in data["tournaments"] if t["name"] == "March Cup")
    assert cup["status"] == "finished"
    assert cup["placements"][0] == {"place": 1, "name": "Alice Moreno", "places": "1"}
    assert {"name": "Alice Moreno", "points": 2.22} in [
        {"name": r["name"], "points": r["points"]} for r in cup["ranking_points"]
    ]
    assert data["ranking"][0]["name"] == "Alice Moreno"
    assert data["ranking"][0]["points"] == 2.22


def test_withdraw_asks_first_and_a_director_brings_the_player_back_HGV_2_3_5(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """`/withdraw report` withdraws nobody; `/reinstate` undoes a confirmed withdrawal."""
    lines = play(clubtd, script, WITHDRAW_AND_BACK, database_url)
    stray = lines.index(
        "[20:20] #club: /withdraw report? Did you mean /withdraw confirm? It takes: confirm."
    )
    assert lines[stray + 1].startswith("[20:20] #club: Leave Cup? It is under way")
    assert lines[stray + 2] == "  [Yes, withdraw: /withdraw confirm]"
    assert lines[stray + 3].startswith("[20:20] #club: You have left Cup")
    assert '[20:20] #club: Add a reason: /reinstate alice reason:"..."' in lines
    # One message: the club's announcement, and what the director needs besides.
    back = lines.index("[20:20] #club: alice is back in the tournament.")
    assert lines[back + 1 : back + 4] == [
        "  Matches to play again: 1, 3.",
        "  alice's suspension is lifted.",
        "  alice checks in again with /checkin.",
    ]
    assert lines.count("[20:20] #club: alice is back in the tournament.") == 1
    assert "    1  G1 R1  20:20  cruz   alice    0-0  to play" in lines
    assert "[20:20] #club: alice has nothing to excuse." in lines  # not a no-show


def test_a_tie_that_never_ends_is_settled_by_lot_with_the_seed_NAV_TIE(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """A three-way cycle, extra games one at a time per player, a cycle again, /lot."""
    lines = play(clubtd, script, NEVER_ENDING_TIE, database_url)
    assert (
        "[21:00] #club: Group 1: alice, cruz, bob are still tied. Extra games: matches 4, 5, 6."
        in lines
    )
    assert (
        "  The extra games left them level again. A director can settle it by lot: /lot 1" in lines
    )
    assert "  [Settle by lot: /lot 1]" in lines
    assert "[21:20] #club: There is no group 2: there is only group 1." in lines
    lot = next(line for line in lines if "the tie is settled by lot" in line)
    found = re.fullmatch(
        r"\[21:20\] #club: Group 1: the tie is settled by lot "
        r"\(seed (\d+)\): (\w+), (\w+), (\w+)\.",
        lot,
    )
    assert found is not None
    order = found.group(2, 3, 4)
    assert sorted(order) == ["alice", "bob", "cruz"]
    # The group's table follows in the drawn order (the lot decided its extra games),
    # before the bracket.
    table = lines.index(lot) + 1
    assert lines[table] == "[21:20] #club: [picture: cupa-group-1.png]"
    rows = [line.split()[1] for line in lines[table + 3 : table + 6]]
    assert rows == list(order), lines[table : table + 8]
    # Said as what it was: "won the extra game" named games nobody played.
    assert lines[table + 6 : table + 8] == [
        f"  {order[0]} above {order[1]}: by lot (dice)",
        f"  {order[1]} above {order[2]}: by lot (dice)",
    ], lines[table : table + 9]
    assert any(line.startswith("[21:20] #club: The group stage is over.") for line in lines)
    final = f"[21:20] #club: Final, match 10: {order[0]} (white) v {order[1]} at 21:23."
    assert final in lines
