"""A whole night for each preset, replayed from a transcript (INTERFACE §3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.bot.conftest import Clubtd

NIGHTS = Path(__file__).parent / "nights"
DEMO = Path(__file__).parents[2] / "bot" / "demo" / "night.transcript"


def play(clubtd: Clubtd, transcript: Path, url: str) -> tuple[list[str], dict[str, Any]]:
    result = clubtd("console", "--script", str(transcript), "--db", url)
    assert result.exit_code == 0, result.stderr
    exported = clubtd("export", "--db", url, "--format", "json")
    assert exported.exit_code == 0, exported.stderr
    return result.stdout.splitlines(), json.loads(exported.stdout)


def places(data: dict[str, Any]) -> list[tuple[int, str]]:
    (tournament,) = data["tournaments"]
    return [(p["place"], p["name"]) for p in tournament["placements"]]


def test_a_navodari_cup_NAV_I_NAV_TIE_NAV_II_NAV_IV_NAV_PRIZE(
    clubtd: Clubtd, database_url: str
) -> None:
    lines, data = play(clubtd, NIGHTS / "navodari.t", database_url)
    assert "[18:00] #club: This tournament is for players aged 18 or over." in lines
    assert "[20:20] #club: p4 is 20 minutes late for match 3: p2 gets 1 point. p2 2-0 p4" in lines
    assert (
        "[22:10] #club: Group 1: p6, p8, p3 are still tied. Extra games: matches 13, 14, 15."
        in lines
    )
    assert "  p3 above p6: won the extra game" in lines
    assert "[22:10] #club: Semi-final, match 16: p5 (white) v p2 at 22:13." in lines  # A1-B2
    assert "[22:10] #club: Semi-final, match 17: p1 (white) v p3 at 22:13." in lines  # B1-A2
    assert places(data)[:4] == [(1, "p5"), (2, "p1"), (3, "p3"), (4, "p2")]
    assert "  Youngest player: p6." in lines and "  Veteran: p5." in lines
    (tournament,) = data["tournaments"]
    lengths = {m["stage"]: m["length"] for m in tournament["matches"]}
    assert lengths == {"group": 5, "tiebreak": 1, "knockout": 7, "third_place": 7}


def test_a_draughts_festival_WAR_V_WAR_GAME(clubtd: Clubtd, database_url: str) -> None:
    lines, data = play(clubtd, NIGHTS / "warcaby.t", database_url)
    assert "[11:10] #club: Match 2: p3 2-2 (tiebreak 3-1) p6. p3 wins." in lines
    assert "[11:15] #club: p4 did not come: p2 wins match 3 by forfeit (p2 4-0 p4)." in lines
    assert (
        "[12:40] #club: Match 14: p1 2-2 (tiebreak 2-2, 2-2, 2-2; black won the lot) p3. "
        "p3 wins." in lines
    )
    assert places(data)[:4] == [(1, "p3"), (2, "p5"), (3, "p1"), (4, "p2")]
    no_show = next(p for p in data["players"] if p["name"] == "p4")
    assert [s["reason"] for s in no_show["sanctions"]] == ["no_show"]


def test_the_demo_night_of_the_hgv_club_HGV_7_2_1_HGV_7_3_1_HGV_7_4_13(
    clubtd: Clubtd, database_url: str, tmp_path: Path
) -> None:
    (tmp_path / "ranking.csv").write_text(
        (Path(DEMO).parent / "ranking.csv").read_text(encoding="utf-8"), encoding="utf-8"
    )
    setup = tmp_path / "setup.t"
    setup.write_text('@club name:"HG Backgammon"\n@clock 2026-01-30 12:00\n', encoding="utf-8")
    assert clubtd("console", "--script", str(setup), "--db", database_url).exit_code == 0
    imported = clubtd("ranking", "import", str(tmp_path / "ranking.csv"), "--db", database_url)
    assert imported.exit_code == 0, imported.stderr
    _, data = play(clubtd, DEMO, database_url)
    (tournament,) = data["tournaments"]
    assert tournament["status"] == "finished"
    assert tournament["groups"][0]["players"] == ["alice", "heidi", "ivan"]
    stages = {m["stage"] for m in tournament["matches"]}
    assert stages == {"group", "knockout", "consolation"}
    assert places(data)[0] == (1, "grace")
