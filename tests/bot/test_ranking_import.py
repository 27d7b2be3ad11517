"""`clubtd ranking import` as a new director uses it (INTERFACE §2, HGV-8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bot.conftest import Clubtd, Script

EUROPEAN = "Nombre;Puntos\nAna Pérez;6,40\nBruno;5,15\nCarla;5,15\n;\n"


def test_a_semicolon_csv_with_decimal_commas_creates_the_club_HGV_8(
    clubtd: Clubtd, tmp_path: Path, database_url: str
) -> None:
    """A new database: the import creates the club and its ranking is the season so far."""
    csv = tmp_path / "ranking.csv"
    csv.write_text(EUROPEAN, encoding="utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", database_url, "--club", "HG Caracas")
    assert result.exit_code == 0, result.stderr
    assert "Created the club HG Caracas" in result.stdout
    assert "3 new players without a chat account" in result.stdout
    exported = json.loads(clubtd("export", "--db", database_url).stdout)
    assert exported["club"]["name"] == "HG Caracas"
    assert exported["ranking"] == [
        {"rank": 1, "name": "Ana Pérez", "points": 6.4, "tournaments": 0, "carried_over": 6.4},
        {"rank": 2, "name": "Bruno", "points": 5.15, "tournaments": 0, "carried_over": 5.15},
        {"rank": 2, "name": "Carla", "points": 5.15, "tournaments": 0, "carried_over": 5.15},
    ]
    assert set(exported["rankings"]) == {"backgammon"}


def test_a_refused_file_on_a_new_database_creates_no_club(
    clubtd: Clubtd, tmp_path: Path, database_url: str
) -> None:
    """The club a first import makes is committed with the import: a refused file left
    "Created the club" on the screen and a club without a ranking behind."""
    csv = tmp_path / "ranking.csv"
    csv.write_text("name;points\nRocío Pérez;12,5\nrocio perez;3\n", encoding="utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", database_url, "--club", "HG Caracas")
    assert result.exit_code == 2, result.stdout
    assert "Created the club" not in result.stdout
    assert "nothing was imported" in result.stderr
    csv.write_text("name;points\nRocío Pérez;12,5\n", encoding="utf-8")
    fixed = clubtd("ranking", "import", str(csv), "--db", database_url, "--club", "HG Caracas")
    assert fixed.exit_code == 0, fixed.stderr
    assert "Created the club HG Caracas" in fixed.stdout  # made now, with its ranking


def test_a_second_import_is_refused_without_replace(
    clubtd: Clubtd, tmp_path: Path, database_url: str
) -> None:
    first = tmp_path / "first.csv"
    first.write_text("name,points\nana,3\nbob,2\n", encoding="utf-8")
    second = tmp_path / "second.csv"
    second.write_text("name;points\nbob;9,5\n", encoding="utf-8")
    assert clubtd("ranking", "import", str(first), "--db", database_url).exit_code == 0
    refused = clubtd("ranking", "import", str(second), "--db", database_url)
    assert refused.exit_code == 2
    assert "already has an imported backgammon ranking (2 players)" in refused.stderr
    assert "with --replace" in refused.stderr
    before = json.loads(clubtd("export", "--db", database_url).stdout)["ranking"]
    assert [(r["name"], r["points"]) for r in before] == [("ana", 3.0), ("bob", 2.0)]
    replaced = clubtd("ranking", "import", str(second), "--db", database_url, "--replace")
    assert replaced.exit_code == 0, replaced.stderr
    assert "Replaced the earlier import (2 players)." in replaced.stdout
    after = json.loads(clubtd("export", "--db", database_url).stdout)["ranking"]
    assert [(r["name"], r["points"]) for r in after] == [("bob", 9.5)]


def test_every_problem_row_gets_its_own_line(clubtd: Clubtd, tmp_path: Path) -> None:
    csv = tmp_path / "bad.csv"
    csv.write_text("name;points\nana;lots\nbob;2\n;3\nbob;1\n", encoding="utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", "sqlite:///bad.db")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines == [
        f"clubtd: {csv}: line 2: 'lots' is not a number of points",
        f"clubtd: {csv}: line 4: the name is empty",
        f"clubtd: {csv}: line 5: 'bob' is listed twice (also line 3)",
        f"clubtd: {csv}: nothing was imported; fix the file",
    ]


def test_a_name_that_reads_like_another_in_the_file_is_refused(
    clubtd: Clubtd, tmp_path: Path, script: Script, database_url: str
) -> None:
    """ "jose nunez" two lines after "José Núñez" would be a second player, or one player
    given two lines of points: the file is refused, nothing kept. "Rocio Diaz" is the
    club's Rocío Díaz, as /addplayer matches a member (the same letters, accents aside)."""
    chat = script("club.t", '@club name:"HG"\nrocio: /register name:"Rocío Díaz"\n')
    assert clubtd("console", "--script", chat, "--db", database_url).exit_code == 0
    csv = tmp_path / "ranking.csv"
    csv.write_text("name,points\nJosé Núñez,12.5\nRocio Diaz,10\njose nunez,3\nAna,1\n", "utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", database_url)
    assert result.exit_code == 2, result.stdout
    assert result.stderr.splitlines() == [
        f"clubtd: {csv}: line 4: 'jose nunez' reads like 'José Núñez' (line 2): if they are"
        " one player, write it as 'José Núñez'",
        f"clubtd: {csv}: nothing was imported; fix the file",
    ]
    exported = json.loads(clubtd("export", "--db", database_url).stdout)
    assert [p["name"] for p in exported["players"]] == ["Rocío Díaz"]
    assert exported["ranking"] == []


def test_a_name_without_its_accents_or_polish_letters_is_the_member(
    clubtd: Clubtd, tmp_path: Path, script: Script, database_url: str
) -> None:
    """ "Lukasz Zolc" in a spreadsheet typed without Polish letters is the club's "Łukasz
    Żółć" (Ł has no accent to drop): his points, not a second, 0-point player; the import
    says whom it took the name for."""
    chat = script("club.t", '@club name:"Klub"\nlukasz: /register name:"Łukasz Żółć"\n')
    assert clubtd("console", "--script", chat, "--db", database_url).exit_code == 0
    csv = tmp_path / "ranking.csv"
    csv.write_text("Lukasz Zolc;3,5\nJan Kowalski;2\n", "utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    said = " ".join(result.stdout.split())
    assert "'Lukasz Zolc' is the club's 'Łukasz Żółć'" in said, said
    exported = json.loads(clubtd("export", "--db", database_url).stdout)
    assert [p["name"] for p in exported["players"]] == ["Jan Kowalski", "Łukasz Żółć"]
    ranked = {r["name"]: r["points"] for r in exported["ranking"]}
    assert ranked == {"Łukasz Żółć": 3.5, "Jan Kowalski": 2.0}, exported["ranking"]


SPREADSHEET = (
    "Pos;Jugador;Puntos\n1;María José;0,30\n2;Rocío;0,49\n3;Ana Pérez;6,40\n4;Íñigo;0,30\n"
)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "utf-16"])
def test_a_spreadsheet_csv_in_any_encoding_with_a_position_column_in_any_order(
    clubtd: Clubtd, tmp_path: Path, encoding: str
) -> None:
    """Issue 15 item 8: Excel's encodings, a `Pos` column, rows not sorted by points:
    sorted best first, equal points keep the file's order (HGV-8)."""
    csv = tmp_path / "ranking.csv"
    csv.write_bytes(SPREADSHEET.encode(encoding))
    result = clubtd("ranking", "import", str(csv), "--db", "sqlite:///r.db")
    assert result.exit_code == 0, result.stderr
    exported = json.loads(clubtd("export", "--db", "sqlite:///r.db").stdout)
    assert [(r["rank"], r["name"], r["points"]) for r in exported["ranking"]] == [
        (1, "Ana Pérez", 6.4),
        (2, "Rocío", 0.49),
        (3, "María José", 0.3),
        (3, "Íñigo", 0.3),
    ]


def test_a_central_european_excel_file_reads_as_names(clubtd: Clubtd, tmp_path: Path) -> None:
    """Polish and Romanian Excel save "CSV" in Windows-1250: "Łucja", not "£ucja"."""
    csv = tmp_path / "ranking.csv"
    text = "Lp.;Zawodnik;Punkty\n1;Łucja Wiśniewska;5,5\n2;Ştefan Ţurcanu;4\n3;Józef Ząbek;4\n"
    csv.write_bytes(text.encode("cp1250"))
    result = clubtd("ranking", "import", str(csv), "--db", "sqlite:///r.db")
    assert result.exit_code == 0, result.stderr
    exported = json.loads(clubtd("export", "--db", "sqlite:///r.db").stdout)
    assert [r["name"] for r in exported["ranking"]] == [
        "Łucja Wiśniewska",
        "Ştefan Ţurcanu",
        "Józef Ząbek",
    ]


def test_a_file_that_is_not_text_gets_one_clear_line(clubtd: Clubtd, tmp_path: Path) -> None:
    """No raw Python decode error: what to do instead, and nothing imported."""
    csv = tmp_path / "ranking.csv"
    csv.write_bytes(b"Ana;3\n\x81\x8d\x8f;2\n")
    result = clubtd("ranking", "import", str(csv), "--db", "sqlite:///r.db")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"clubtd: {csv}: the file is not text in UTF-8 or Windows-1252: save it from the "
        'spreadsheet as "CSV UTF-8" and import that file'
    ]
    assert "Traceback" not in result.stderr and "codec" not in result.stderr


DRAUGHTS_NIGHT = """\
@club name:"Club" timezone:Europe/Warsaw
@director ana
@clock 2026-03-06 09:00
ana: /tournament new name:"Festival" preset:warcaby-100 start:"2026-03-06 10:00"
ana: /ranking
ana: /ranking game:backgammon
ana: /ranking game:chess
"""


def test_each_game_keeps_its_own_ranking_HGV_8(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """A draughts import never shows in the backgammon ranking, and the other way round."""
    setup = "@club\n@clock 2026-03-06 08:00\n"
    assert clubtd("console", "--script", script("c.t", setup), "--db", database_url)
    backgammon = tmp_path / "bg.csv"
    backgammon.write_text("ana,4\nbob,2\n", encoding="utf-8")
    draughts = tmp_path / "dr.csv"
    draughts.write_text("cyryl,8\n", encoding="utf-8")
    for csv, game in ((backgammon, "backgammon"), (draughts, "draughts")):
        done = clubtd("ranking", "import", str(csv), "--db", database_url, "--game", game)
        assert done.exit_code == 0, done.stderr
    result = clubtd("console", "--script", script("n.t", DRAUGHTS_NIGHT), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    draughts_table = out.split("season ranking, draughts")[1].split("[09:00]")[0]
    assert "cyryl" in draughts_table and "ana" not in draughts_table
    backgammon_table = out.split("season ranking, backgammon")[1].split("[09:00]")[0]
    assert "ana" in backgammon_table and "cyryl" not in backgammon_table
    assert "game: chess is not one of the choices. Choose backgammon, draughts." in out
    exported = json.loads(clubtd("export", "--db", database_url).stdout)
    assert [r["name"] for r in exported["ranking"]] == ["ana", "bob"]
    assert [r["name"] for r in exported["rankings"]["draughts"]] == ["cyryl"]
