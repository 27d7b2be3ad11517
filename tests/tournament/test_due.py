"""due_actions: what state plus time says is due, applied once, in due order."""

from __future__ import annotations

import copy
from dataclasses import asdict
from datetime import timedelta
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.nights import Night, at
from tournament import attendance, due, reports
from tournament.events import CheckinOpen, ConfirmReminder, MatchReminder
from tournament.simulation import random_score
from tournament.state import TournamentState

NAMES = ("ana", "bob", "cruz", "dora", "eli", "fay")


def snapshot(state: TournamentState) -> dict[str, object]:
    return {
        "matches": {n: asdict(m) for n, m in state.matches.items()},
        "entries": {p: asdict(e) for p, e in state.entries.items()},
        "penalties": {k: asdict(p) for k, p in state.penalties.items()},
        "done": dict(state.done),
        "status": state.status,
        "placements": [asdict(p) for p in state.placements],
    }


@st.composite
def nights(draw: st.DrawFn) -> Night:
    count = draw(st.integers(2, 6))
    preset = draw(st.sampled_from(["hgv-backgammon", "navodari-table", "warcaby-100"]))
    night = Night(preset, seed=draw(st.integers(0, 1000)))
    names = NAMES[:count]
    for name in names:
        arrival = draw(st.one_of(st.none(), st.integers(-40, 90)))
        night.enter(name, check_in=None)
        if arrival is not None:
            attendance.check_in(
                night.state,
                night.id(name),
                night.state.start + timedelta(minutes=arrival),
                director=True,
            )
            leave = draw(st.one_of(st.none(), st.integers(1, 120)))
            if leave is not None:
                attendance.mark_away(
                    night.state,
                    night.id(name),
                    night.state.start + timedelta(minutes=arrival + leave),
                )
    night.draw(*names, when=night.state.start - timedelta(minutes=5))
    return night


@settings(max_examples=120, deadline=None)
@given(nights(), st.integers(0, 300), st.integers(0, 300))
def test_applying_at_t1_then_t2_equals_applying_once_at_t2(night: Night, a: int, b: int) -> None:
    t1, t2 = sorted(
        (night.state.start + timedelta(minutes=a), night.state.start + timedelta(minutes=b))
    )
    twice = copy.deepcopy(night.state)
    once = copy.deepcopy(night.state)
    due.sweep(twice, t1)
    due.sweep(twice, t2)
    due.sweep(once, t2)
    assert snapshot(twice) == snapshot(once)


@settings(max_examples=60, deadline=None)
@given(nights(), st.integers(0, 300))
def test_due_actions_lists_what_sweep_applies_and_changes_nothing(
    night: Night, minutes: int
) -> None:
    now = night.state.start + timedelta(minutes=minutes)
    before = snapshot(night.state)
    actions = due.due_actions(night.state, now)
    assert snapshot(night.state) == before
    assert len({a.key for a in actions}) == len(actions)
    assert [a.due for a in actions] == sorted(a.due for a in actions)
    assert all(a.due <= now for a in actions)
    due.sweep(night.state, now)
    assert {a.key: a.due for a in actions} == {
        k: v for k, v in night.state.done.items() if k in {a.key for a in actions}
    }
    assert due.due_actions(night.state, now) == []


def test_reminders_fall_due_at_the_preset_offsets() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", confirm=False)
    reminders = night.state.preset.reminders
    confirm_at = night.state.start - timedelta(minutes=reminders.confirm_minutes_before)
    assert due.next_deadline(night.state) == confirm_at
    events = due.sweep(night.state, confirm_at)
    assert [type(e) for e in events] == [ConfirmReminder]
    attendance.confirm(night.state, night.id("ana"), confirm_at)
    attendance.confirm(night.state, night.id("bob"), confirm_at)
    checkin_at = night.state.start - timedelta(minutes=reminders.checkin_minutes_before)
    events = due.sweep(night.state, checkin_at)
    assert [type(e) for e in events] == [CheckinOpen]
    assert due.sweep(night.state, checkin_at) == []


def test_check_in_opens_for_the_club_also_when_nobody_confirmed_CLUB_PRESENCE() -> None:
    """Entered, none confirmed: the club heard nothing when check-in opened, though an
    entry who checks in is drawn. Only confirmed entries get a reminder of their own."""
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", confirm=False)
    checkin_at = night.state.start - timedelta(
        minutes=night.state.preset.reminders.checkin_minutes_before
    )
    events = due.sweep(night.state, checkin_at)
    opened = [e for e in events if isinstance(e, CheckinOpen)]
    assert [e.players for e in opened] == [()]


def test_a_match_reminder_names_the_opponent_and_the_start() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", check_in=at("19:00"))
    night.draw("ana", "bob", "cruz", when=at("19:05"))
    events = due.sweep(night.state, at("20:30"))
    reminders = [e for e in events if isinstance(e, MatchReminder)]
    minutes_before = night.state.preset.reminders.match_minutes_before
    assert [r.at for r in reminders] == [
        m.start - timedelta(minutes=minutes_before)  # type: ignore[operator]
        for m in sorted(night.state.matches.values(), key=lambda m: m.number)
        if m.start is not None and m.start - timedelta(minutes=minutes_before) <= at("20:30")
    ]


@settings(max_examples=120, deadline=None)
@given(nights(), st.integers(-60, 300), st.integers(0, 300))
def test_the_shortcuts_agree_with_the_full_list_of_what_waits(
    night: Night, swept: int, minutes: int
) -> None:
    """Issue 17: the catch-up reads only what can be due by now, and the next deadline
    only each match's first waiting step; both must say what the whole list says."""
    due.sweep(night.state, night.state.start + timedelta(minutes=swept))
    now = night.state.start + timedelta(minutes=minutes)
    waiting = due.pending(night.state)
    assert due.next_deadline(night.state) == (waiting[0].due if waiting else None)
    assert due._waiting(night.state, until=now) == [a for a in waiting if a.due <= now]


def test_a_match_played_before_its_time_leaves_nothing_waiting() -> None:
    """A result entered before the match's reminder: no reminder, lateness step or
    forfeit of that match waits any more, nor wakes the scheduler (CLUB-REPORT)."""
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", "dora", check_in=at("19:00"))
    night.draw("ana", "bob", "cruz", "dora", when=at("19:05"))
    match = night.match("ana", "bob")
    assert any(a.match == match.number for a in due.pending(night.state))
    reports.record_result(
        night.state,
        match,
        random_score(night.state.preset, match, Random(1)),
        at("19:10"),
        how="director",
    )
    assert not [a for a in due.pending(night.state) if a.match == match.number]
