"""A club's season on one database, as a director plays it in the console (issue 15).

An imported ranking; members without a chat account entered by their names; a member
claiming her imported name; a walk-in put into the groups by a new draw; next month
opened on the night; a name fixed and a duplicate merged; the cup's name reused the next
season. The season table must be the imported points plus the sum of every tournament's
exported ranking points (HGV-8), and the next season starts from nothing.

The core part of the story: a group result corrected before the knockout and another
after the final was drawn (the final is derived again), the final reopened after the night
ended (asked to confirm; named by `tournament:` once a bare command means next month's
entries), a no-show in March suspended from the next tournament (refused there) and the
suspension served once that tournament is played (export `active: false`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from tests.bot.conftest import Clubtd, Script

SETUP = """\
@club name:"HG Backgammon" timezone:America/Caracas language:en
@director ana
@clock 2026-01-20 12:00
"""
RANKING = "Pos;Jugador;Puntos\n1;Jorge P.;6,40\n2;Rocío;0,49\n3;María José;0,30\n4;Ana P.;0,20\n"
IMPORTED = {"Jorge P.": 6.40, "Rocío": 0.49, "María José": 0.30, "Ana P.": 0.20}
# One group of four, the best two play the final: a short night to write down.
OPTIONS = "group_size:4 qualifiers:2 consolation:no seed:7"

JANUARY = f"""\
@clock 2026-01-30 18:00
ana: /tournament new name:"January Cup" start:"2026-01-31 20:00" {OPTIONS}
ana: /addplayer "jorge p." "Ana P."
rocio: /register
rocio: /register name:"Rocío"
ana: /approve rocio
rocio: /confirm
@clock 2026-01-31 20:00
ana: /draw
ana: /addplayer Bob
ana: /redraw confirm
ana: /tournament new name:"February Cup" start:"2026-02-28 20:00" {OPTIONS}
ana: /addplayer "zofia kowalska" tournament:"February Cup"
ana: /result 1 3-1
ana: /result 2 3-0
ana: /result 3 3-2
ana: /result 4 3-1
ana: /result 5 3-1
ana: /result 6 0-3
ana: /result 7 7-4
"""

FEBRUARY = f"""\
@clock 2026-02-27 18:00
ana: /addplayer "Rocío B" jorge maria jose
@clock 2026-02-28 20:00
ana: /draw
ana: /tournament new name:"March Cup" start:"2026-03-28 20:00" {OPTIONS}
ana: /result 1 3-1
ana: /result 2 3-2
ana: /result 2 2-3
ana: /result 3 1-3
ana: /result 4 3-0
ana: /result 5 2-3
ana: /result 6 3-1
ana: /result 6 1-3
ana: /result 7 7-2
ana: /reopen 7
ana: /reopen 7 tournament:"February Cup"
ana: /reopen 7 confirm tournament:feb
ana: /result 7 4-7 tournament:feb
ana: /player rename "zofia kowalska" to:"Zofia Kowalska"
ana: /player merge "Rocío B" into:rocio
"""

MARCH = """\
@clock 2026-03-27 18:00
ana: /addplayer Zofia Rocío "María José"
@clock 2026-03-28 19:30
ana: /present Zofia
rocio: /checkin
@clock 2026-03-28 20:00
ana: /draw
@wait 1h
ana: /result Zofia 3-1 Rocío
@clock 2026-03-28 21:30
ana: /result 4 7-5
ana: /ranking
"""

NEXT_JANUARY = f"""\
@clock 2027-01-29 18:00
ana: /tournament new name:"January Cup" start:"2027-01-30 20:00" {OPTIONS}
ana: /addplayer jorge "Ana P." Bob
ana: /addplayer "María José"
@clock 2027-01-30 20:00
ana: /draw
ana: /result 1 3-1
ana: /result 2 3-2
ana: /result 3 1-3
ana: /result 4 7-3
"""


def _night(clubtd: Clubtd, script: Script, database_url: str, text: str) -> str:
    result = clubtd("console", "--script", script("night.t", text), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    out = str(result.stdout)
    assert "Traceback" not in out
    return out


def _export(clubtd: Clubtd, database_url: str) -> dict[str, Any]:
    result = clubtd("export", "--db", database_url, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _season_sum(data: dict[str, Any], year: str, imported: dict[str, float]) -> dict[str, float]:
    """Return imported points plus every official tournament's points of `year`."""
    total: dict[str, float] = defaultdict(float, imported)
    for tournament in data["tournaments"]:
        if tournament["start"].startswith(year) and tournament["official"]:
            for row in tournament["ranking_points"]:
                total[row["name"]] += row["points"]
    return {name: round(points, 2) for name, points in total.items()}


def test_a_season_of_monthly_tournaments_adds_up_HGV_8(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    assert clubtd("console", "--script", script("s.t", SETUP), "--db", database_url).exit_code == 0
    csv = tmp_path / "ranking.csv"
    csv.write_bytes(RANKING.encode("cp1252"))  # as an older Excel saves it
    imported = clubtd("ranking", "import", str(csv), "--db", database_url)
    assert imported.exit_code == 0, imported.stderr

    january = _night(clubtd, script, database_url, JANUARY)
    assert "Jorge P., a member of the club, is entered in January Cup" in january
    assert "Are you Rocío, 0.49 points in the ranking?" in january
    assert "Bob is entered in January Cup, but its groups are drawn already" in january
    assert "February Cup is open for entries" in january
    assert "zofia kowalska is entered in February Cup" in january
    assert "January Cup is over. Champion: Jorge P.!" in january

    february = _night(clubtd, script, database_url, FEBRUARY)
    assert "María José, a member of the club, is entered in February Cup" in february
    assert "Jorge P., a member of the club, is entered in February Cup" in february
    assert "zofia kowalska is now called Zofia Kowalska, in every table." in february
    assert "Rocío B is merged into Rocío: 1 tournament" in february
    # Corrections before the knockout and after its final was drawn (HGV-4.8).
    assert "Match 2 corrected: María José 2-3 zofia kowalska (was 3-2)." in february
    assert "Final, match 7: zofia kowalska (white) v Jorge P." in february
    assert "Match 6 corrected: zofia kowalska 1-3 Jorge P. (was 3-1)." in february
    # The final derived again: Jorge P. won the group, so he now plays white (HGV-7.4.8).
    assert "Match 7: Jorge P. 7-2 zofia kowalska. Jorge P. wins." in february
    # The final reopened once the night was over: the bare number means March's entries,
    # the refusal says how to name February's, and undoing a champion asks first.
    assert 'For February Cup\'s match 7: /reopen 7 tournament:"February Cup"' in february
    assert "This takes back the final placements and ranking points of February Cup" in february
    assert "Match 7 is reopened and will be played again: Jorge P. v zofia kowalska." in february
    assert "February Cup is over. Champion: zofia kowalska!" in february

    march = _night(clubtd, script, database_url, MARCH)
    assert "María José confirmed but did not come" in march  # CLUB-NO-SHOW
    assert "March Cup is over. Champion: Zofia Kowalska!" in march
    data = _export(clubtd, database_url)
    (suspension,) = next(p for p in data["players"] if p["name"] == "María José")["sanctions"]
    assert (suspension["reason"], suspension["active"]) == ("no_show", True)
    by_name = {t["name"]: t for t in data["tournaments"]}
    assert [t["status"] for t in data["tournaments"]] == ["finished"] * 3
    # The walk-in played; nobody was made twice; the duplicate and the old spelling are gone.
    assert "Bob" in {p for g in by_name["January Cup"]["groups"] for p in g["players"]}
    assert sorted(p["name"] for p in data["players"]) == [
        "Ana P.",
        "Bob",
        "Jorge P.",
        "María José",
        "Rocío",
        "Zofia Kowalska",
    ]
    text = json.dumps(data, ensure_ascii=False)
    assert "zofia kowalska" not in text and "Rocío B" not in text
    assert "Rocío" in {p["name"] for p in by_name["February Cup"]["ranking_points"]}
    season = {row["name"]: row["points"] for row in data["ranking"]}
    assert season == _season_sum(data, "2026", IMPORTED)
    carried = {row["name"]: row["carried_over"] for row in data["ranking"]}
    assert {name: points for name, points in carried.items() if points} == IMPORTED

    # Next season: the cup's name again, a new tournament; the table starts from nothing.
    next_january = _night(clubtd, script, database_url, NEXT_JANUARY)
    assert "María José is suspended from January Cup" in next_january
    data = _export(clubtd, database_url)
    (suspension,) = next(p for p in data["players"] if p["name"] == "María José")["sanctions"]
    # Served: its tournament was played (issue 15 item 4).
    assert (suspension["applies_to"], suspension["active"]) == ("January Cup", False)
    cups = [t for t in data["tournaments"] if t["name"] == "January Cup"]
    assert [t["start"][:4] for t in cups] == ["2026", "2027"]
    assert all(t["status"] == "finished" for t in cups)
    season = {row["name"]: row["points"] for row in data["ranking"]}
    assert season == _season_sum(data, "2027", {})
    assert set(season) == {"Jorge P.", "Ana P.", "Bob"}
