"""`clubtd export --format json`: every key of INTERFACE §4, with its type."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.bot.conftest import Clubtd
from tests.bot.nights import AFTER, BEFORE, play, prepare

STAGES = {"group", "knockout", "third_place", "consolation", "tiebreak"}
MATCH_STATUSES = {
    "scheduled",
    "playing",
    "pending",
    "disputed",
    "finished",
    "forfeit",
    "double_forfeit",
    "void",
}
ENTRY_STATUSES = {"active", "withdrawn", "no_show", "removed"}
TOURNAMENT_STATUSES = {"registration", "groups", "knockout", "finished"}


@pytest.fixture
def exported(clubtd: Clubtd, tmp_path: Path, database_url: str) -> dict[str, Any]:
    prepare(clubtd, tmp_path, database_url)
    play(clubtd, tmp_path, database_url, BEFORE + AFTER)
    result = clubtd("export", "--db", database_url, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _keys(item: dict[str, Any], *keys: str) -> None:
    missing = [k for k in keys if k not in item]
    assert not missing, f"missing {missing} in {item}"


def _time(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    assert moment.utcoffset() is not None, f"{text} has no offset"
    return moment


def _name(value: object, nullable: bool = False) -> None:
    assert isinstance(value, str) or (nullable and value is None), value


def test_every_key_has_its_type(exported: dict[str, Any]) -> None:
    _keys(exported, "club", "players", "ranking", "tournaments")
    assert exported["club"]["name"] == "Replay Club"
    assert exported["club"]["timezone"] == "America/Caracas"

    names = [p["name"] for p in exported["players"]]
    assert names == ["p1", "p2", "p3", "p4", "p5", "p6"]  # by name
    for player in exported["players"]:
        _keys(player, "name", "sanctions")
        for sanction in player["sanctions"]:
            _keys(sanction, "kind", "reason", "tournament", "applies_to", "active")
            assert isinstance(sanction["kind"], str)
            assert isinstance(sanction["reason"], str)
            _name(sanction["tournament"], nullable=True)
            _name(sanction["applies_to"], nullable=True)
            assert isinstance(sanction["active"], bool)

    assert exported["ranking"]
    for row in exported["ranking"]:
        _keys(row, "name", "points", "tournaments")
        _name(row["name"])
        assert isinstance(row["points"], float | int)
        assert isinstance(row["tournaments"], int)

    tournaments = exported["tournaments"]
    assert [t["name"] for t in tournaments] == ["March Cup", "April Cup"]
    for tournament in tournaments:
        _keys(
            tournament,
            "name",
            "preset",
            "status",
            "entries",
            "groups",
            "matches",
            "placements",
            "ranking_points",
        )
        assert tournament["preset"] == "hgv-backgammon"
        assert tournament["status"] in TOURNAMENT_STATUSES
        for entry in tournament["entries"]:
            _keys(entry, "name", "confirmed", "checked_in", "seed", "status")
            _name(entry["name"])
            assert isinstance(entry["confirmed"], bool)
            assert isinstance(entry["checked_in"], bool)
            assert entry["seed"] is None or isinstance(entry["seed"], int)
            assert entry["status"] in ENTRY_STATUSES
        for group in tournament["groups"]:
            _keys(group, "name", "players", "standings")
            assert isinstance(group["name"], str)
            assert all(isinstance(p, str) for p in group["players"])
            for row in group["standings"]:
                _keys(row, "rank", "name", "won", "lost", "points_for", "points_against")
                assert all(
                    isinstance(row[k], int)
                    for k in ("rank", "won", "lost", "points_for", "points_against")
                )
        for match in tournament["matches"]:
            _keys(
                match,
                "id",
                "stage",
                "group",
                "round",
                "white",
                "black",
                "length",
                "start",
                "score",
                "status",
                "winner",
                "penalties",
            )
            assert isinstance(match["id"], int)
            assert match["stage"] in STAGES
            _name(match["group"], nullable=True)
            assert isinstance(match["round"], int)
            _name(match["white"], nullable=True)
            _name(match["black"], nullable=True)
            assert isinstance(match["length"], int)
            if match["start"] is not None:
                _time(match["start"])
            assert isinstance(match["score"], list) and len(match["score"]) == 2
            assert match["status"] in MATCH_STATUSES
            _name(match["winner"], nullable=True)
            for penalty in match["penalties"]:
                _keys(penalty, "against", "points", "at")
                _name(penalty["against"])
                assert isinstance(penalty["points"], int)
                _time(penalty["at"])
        for placement in tournament["placements"]:
            _keys(placement, "place", "name")
            assert placement["place"] is None or isinstance(placement["place"], int)
        for row in tournament["ranking_points"]:
            _keys(row, "name", "points")
            assert isinstance(row["points"], float | int)


def test_the_night_as_exported(exported: dict[str, Any]) -> None:
    """Entries by seed, matches by number, score [white, black], penalties with times."""
    march = exported["tournaments"][0]
    assert march["status"] == "finished"
    assert [e["name"] for e in march["entries"]] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert [e["seed"] for e in march["entries"]] == [1, 2, 3, 4, 5, 6]
    assert {e["name"]: e["status"] for e in march["entries"]}["p6"] == "no_show"
    assert [m["id"] for m in march["matches"]] == list(range(1, 8))
    first = march["matches"][0]
    assert (first["white"], first["black"], first["score"], first["winner"]) == (
        "p1",
        "p4",
        [3, 1],
        "p1",
    )
    assert first["start"] == "2026-03-06T20:00:00-04:00"
    assert first["penalties"] == [
        {"against": "p4", "points": 1, "at": "2026-03-06T20:10:00-04:00"}
    ]
    final = march["matches"][-1]
    assert (final["stage"], final["length"], final["score"], final["winner"]) == (
        "knockout",
        7,
        [3, 7],
        "p2",
    )
    assert [g["name"] for g in march["groups"]] == ["1", "2"]
    assert [r["name"] for r in march["groups"][0]["standings"]] == ["p1", "p4", "p5"]
    assert march["placements"][:2] == [
        {"place": 1, "name": "p2", "places": "1"},
        {"place": 2, "name": "p1", "places": "2"},
    ]
    assert exported["ranking"][0]["name"] == "p2"
    # The season so far: the imported ranking, carried over, plus the March Cup (HGV-8).
    top = exported["ranking"][0]
    assert top["carried_over"] > 0
    assert round(top["points"] - top["carried_over"], 2) == march["ranking_points"][0]["points"]
    sanctions = {p["name"]: p["sanctions"] for p in exported["players"]}
    assert sanctions["p5"] == [
        {
            "kind": "suspension",
            "reason": "director",
            "tournament": "March Cup",
            "applies_to": "April Cup",
            "active": True,
            "status": "active",
        }
    ]


def test_a_no_show_is_exported_with_the_suspension_HGV_2_3_6(exported: dict[str, Any]) -> None:
    sanctions = {p["name"]: p["sanctions"] for p in exported["players"]}
    assert [s["reason"] for s in sanctions["p6"]] == ["no_show"]


def test_export_one_tournament_or_a_missing_one(
    clubtd: Clubtd, tmp_path: Path, database_url: str
) -> None:
    prepare(clubtd, tmp_path, database_url)
    play(clubtd, tmp_path, database_url, BEFORE + AFTER)
    one = clubtd("export", "--db", database_url, "--tournament", "april cup")
    assert one.exit_code == 0, one.stderr
    assert [t["name"] for t in json.loads(one.stdout)["tournaments"]] == ["April Cup"]
    # Named as a chat command names it: a word of the name, its beginning.
    forgiving = clubtd("export", "--db", database_url, "--tournament", "apr")
    assert forgiving.exit_code == 0, forgiving.stderr
    assert [t["name"] for t in json.loads(forgiving.stdout)["tournaments"]] == ["April Cup"]
    # Its month in the club's words too, as `tournament:abril` finds it in the chat.
    by_month = clubtd("export", "--db", database_url, "--tournament", "abril")
    assert by_month.exit_code == 0, by_month.stderr
    assert [t["name"] for t in json.loads(by_month.stdout)["tournaments"]] == ["April Cup"]
    missing = clubtd("export", "--db", database_url, "--tournament", "May Cup")
    assert missing.exit_code == 2
    assert "no tournament called 'May Cup'" in missing.stderr
