"""The last group table comes before the knockout's announcement (issue 15, polish)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from commands import announce
from tournament import progress, reports
from tournament.events import KnockoutStarted
from tournament.model import Stage
from tournament.preset import load_preset
from tournament.simulation import new_tournament, random_score

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)


def test_the_last_group_table_is_posted_before_the_knockout_starts_HGV_7_3_1() -> None:
    state = new_tournament(load_preset("hgv-backgammon"), 6, START, seed=3)
    progress.draw(state, tuple(sorted(state.entries)), START)
    rng = random.Random(3)
    *first, last = state.stage_matches(Stage.GROUP)
    for match in first:
        reports.record_result(
            state, match, random_score(state.preset, match, rng), START, how="director"
        )
    events = reports.record_result(
        state, last, random_score(state.preset, last, rng), START, how="x"
    )
    assert any(isinstance(e, KnockoutStarted) for e in events)
    names = {p: f"p{p}" for p in state.entries}
    said = announce.notices(state, events, names)
    keys = [n.coalesce or "" for n in said]
    table = keys.index(f"standings:{state.id}:{last.group}")
    started = next(
        i for i, n in enumerate(said) if getattr(n.reply.parts[0], "key", "") == "knockout.started"
    )
    assert table < started
