"""Tables and /rules show a shared place as its range, never a bare "5th" for five
people (PLACE-SHARE)."""

from __future__ import annotations

from datetime import UTC, datetime

from commands import views
from commands.lookups import rules_summary
from commands.rendering import Renderer
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)


def test_the_placements_table_shows_shared_ranges_PLACE_SHARE() -> None:
    state = new_tournament(load_preset("navodari-table"), 9, START, seed=2)
    play_out(state, seed=2)
    names = {p: f"p{p}" for p in state.entries}
    table = views.placements_table(state, names)
    assert [row[0] for row in table.rows] == ["1", "2", "3", "4"] + ["5–9"] * 5


def test_rules_show_the_points_of_each_range_and_that_places_are_shared_PLACE_SHARE() -> None:
    for language, words in (
        ("en", "share a range of places"),
        ("es", "comparten un tramo de puestos"),
        ("pl", "dzielą przedział miejsc"),
        ("ro", "împart un interval de locuri"),
    ):
        renderer = Renderer(language, "UTC", "plain")
        text = "\n".join(map(renderer.message, rules_summary(load_preset("hgv-backgammon"))))
        places = "1: 2.00 · 2: 1.00 · 3–4: 0.50 · 5–8: 0.25 · 9–16: 0.15 · 17–32: 0.08"
        # Points as the language writes numbers, like the tables beside them (2,30 in es).
        assert (places if language == "en" else places.replace(".", ",")) in text, text
        assert words in text, language


def test_a_shared_range_is_right_aligned_with_the_single_places_PLACE_SHARE() -> None:
    state = new_tournament(load_preset("navodari-table"), 9, START, seed=2)
    play_out(state, seed=2)
    names = {p: f"p{p}" for p in state.entries}
    text = Renderer("en", "UTC", "plain").table(views.placements_table(state, names))
    rows = text.splitlines()[2:]
    assert rows[0].startswith("    1 ") and rows[-1].startswith("  5–9 "), text
