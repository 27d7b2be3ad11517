"""Rows made from the last rows (reused where their facts held) equal rows made afresh,
whatever changed in place: a reused row must never be a stale one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from storage.repositories import codec
from tournament import progress
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out
from tournament.state import Penalty, Report, Span, TournamentState

START = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


def _first(state: TournamentState) -> int:
    return min(state.matches)


def _report(state: TournamentState) -> None:
    match = state.matches[_first(state)]
    assert match.white is not None
    match.report = Report(by=match.white, white=3, black=1, at=START, seq=1)


def _counter(state: TournamentState) -> None:
    report = state.matches[_first(state)].report
    assert report is not None and report.white == 3
    report.counter = Report(by=2, white=1, black=3, at=START, seq=2)  # in place


def _pause(state: TournamentState) -> None:
    state.matches[_first(state)].pauses.append(Span(START))


def _resume(state: TournamentState) -> None:
    state.matches[_first(state)].pauses[-1].end = START + timedelta(minutes=5)  # in place


def _leave(state: TournamentState) -> None:
    state.entries[3].presence[-1].end = START + timedelta(minutes=7)  # in place


def _penalty(state: TournamentState) -> None:
    state.penalties["late:1:1:2"] = Penalty("late:1:1:2", _first(state), 2, 1, START)


def _cancel(state: TournamentState) -> None:
    state.penalties["late:1:1:2"].cancelled = True  # in place


def _done(state: TournamentState) -> None:
    state.done["remind:match:1"] = START


def _done_again(state: TournamentState) -> None:
    state.done["remind:match:1"] = START + timedelta(minutes=1)


def _regroup(state: TournamentState) -> None:
    group = state.groups[0]
    group.players = tuple(reversed(group.players))  # in place


def _rename(state: TournamentState) -> None:
    state.name = "Renamed Cup"


def _withdraw(state: TournamentState) -> None:
    del state.entries[12]


CHANGES: list[Callable[[TournamentState], None]] = [
    lambda state: progress.draw(state, tuple(sorted(state.entries)), START),
    _report,
    _counter,
    _pause,
    _resume,
    _leave,
    _penalty,
    _cancel,
    _done,
    _done_again,
    _regroup,
    _rename,
    lambda state: play_out(state, seed=5),
    _withdraw,
]


def test_rows_made_from_the_last_rows_equal_rows_made_afresh() -> None:
    state = new_tournament(load_preset("hgv-backgammon"), 12, START, seed=3)
    rows = codec.rows_of(state, 1)
    for change in CHANGES:
        change(state)
        again = codec.rows_of(state, 1, rows)
        assert again == codec.rows_of(state, 1), change
        rows = again
    assert codec.rows_of(state, 1, rows).fresh == {
        "matches": [],
        "entries": [],
        "penalties": [],
        "done": [],
    }
