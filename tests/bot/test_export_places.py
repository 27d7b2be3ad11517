"""The export's placements: `place` stays, `places` adds the shared range (PLACE-SHARE)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from commands.export import _tournament
from tournament import progress
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)


def test_the_export_gives_each_placement_its_range_in_group_stage_order_PLACE_SHARE() -> None:
    state = new_tournament(load_preset("navodari-table"), 9, START, seed=2)
    play_out(state, seed=2)
    names = {p: f"p{p}" for p in state.entries}
    placements = _tournament(state, names, ZoneInfo("UTC"))["placements"]
    assert [(p["place"], p["places"]) for p in placements] == [
        (1, "1"),
        (2, "2"),
        (3, "3"),
        (4, "4"),
        *[(5, "5-9")] * 5,
    ]
    tables = [progress.standings_of(state, group) for group in state.groups]
    order = [f"p{t.rows[i].player}" for i in range(5) for t in tables if i < len(t.rows)]
    shared = [p["name"] for p in placements if p["place"] == 5]
    assert shared == [name for name in order if name in shared]
