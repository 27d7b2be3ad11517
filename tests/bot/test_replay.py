"""Replaying a night in one transcript or in two, an hour apart, on one database,
leaves the same state (ARCHITECTURE idea 1: effects stamped with their due time)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.conftest import Clubtd
from tests.bot.nights import AFTER, BEFORE, play, prepare, without_draw


def test_one_transcript_or_two_give_the_same_export(
    clubtd: Clubtd, tmp_path: Path, database_url: str
) -> None:
    whole = f"sqlite:///{tmp_path / 'whole.db'}"
    prepare(clubtd, tmp_path, whole)
    prepare(clubtd, tmp_path, database_url)

    once = play(clubtd, tmp_path, whole, BEFORE + AFTER)
    twice = play(clubtd, tmp_path, database_url, BEFORE, AFTER)

    exported = [clubtd("export", "--db", url, "--format", "json") for url in (whole, database_url)]
    assert [e.exit_code for e in exported] == [0, 0]
    first, second = (json.loads(e.stdout) for e in exported)
    assert first == second
    assert first["tournaments"][0]["status"] == "finished"
    # What the restart caught up on was printed at the time it fell due.
    assert without_draw(once.splitlines()) == without_draw(twice.splitlines())
    assert "[21:10] #club: p6 did not come: p2 wins match 4 by forfeit (p6 0-3 p2)." in twice
