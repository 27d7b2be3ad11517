"""A director's changes to who plays: walk-in, removal, a new draw, a merged duplicate."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournament.nights import Night, at
from tournament import attendance, due, progress, reports, roster
from tournament.events import GroupsDrawn
from tournament.model import EntryStatus, Refused, TournamentStatus
from tournament.scoring import named_first


def test_a_new_draw_places_a_walk_in_and_the_players_the_first_draw_left_out() -> None:
    night = Night(group_size=4)
    night.enter("ana", "bob", "cid")
    night.enter("dan", confirm=False)  # neither confirmed nor here: left out by the draw
    night.draw()
    assert night.state.entries[night.id("dan")].status is EntryStatus.WITHDRAWN
    night.ids["eve"] = 5
    roster.walk_in(night.state, 5, at("20:05"))
    assert roster.waiting_for_draw(night.state) == [5]
    night.state.entries[night.id("dan")].confirmed_at = at("20:05")  # he came after all
    roster.redraw(night.state, (), at("20:06"))
    drawn = {p for g in night.state.groups for p in g.players}
    assert drawn == {1, 2, 3, 4, 5}
    assert len(night.state.matches) == 10  # one round robin of five
    assert night.state.draw is not None and night.state.draw.seed == night.state.seed + 1
    assert all(
        m.start is not None and m.start >= at("20:06") for m in night.state.matches.values()
    )


def test_no_new_draw_and_no_walk_in_after_the_first_result() -> None:
    """A walk-in the director did not draw in stays out: not an active entry who never
    played, and nobody can join or redraw once a result is in."""
    night = Night()
    night.enter("ana", "bob", "cid")
    night.draw()
    roster.walk_in(night.state, 8, at("20:01"))
    assert night.state.entries[8].status is EntryStatus.WITHDRAWN
    first = night.match("ana", "bob")
    score = named_first(3, 1, first_is_white=first.white == night.id("ana"))
    reports.report_score(night.state, first.number, night.id("ana"), score, at("20:20"))
    with pytest.raises(Refused) as refused:
        roster.redraw(night.state, (), at("20:30"))
    assert refused.value.code == "redraw_too_late"
    with pytest.raises(Refused) as refused:
        roster.walk_in(night.state, 9, at("20:30"))
    assert refused.value.code == "walk_in_too_late"
    assert night.state.entries[8].status is EntryStatus.WITHDRAWN
    assert night.state.group_of(8) is None


def test_a_walk_in_only_where_the_preset_allows_it() -> None:
    night = Night("navodari-table")
    night.enter("ana", "bob")
    night.draw()
    with pytest.raises(Refused) as refused:
        roster.walk_in(night.state, 9, at("20:05"))
    assert refused.value.code == "walk_in_not_allowed"


def test_remove_is_for_the_entry_list_before_the_draw() -> None:
    night = Night()
    night.enter("ana", "bob", "cid")
    roster.remove(night.state, night.id("cid"), at("19:00"))
    assert night.state.entries[night.id("cid")].status is EntryStatus.REMOVED
    night.draw()
    assert {p for g in night.state.groups for p in g.players} == {1, 2}
    with pytest.raises(Refused) as refused:
        roster.remove(night.state, night.id("ana"), at("20:01"))
    assert refused.value.code == "remove_after_draw"


def test_merging_rewrites_every_fact_that_names_the_duplicate() -> None:
    night = Night()
    night.enter("ana", "bob", "dup")
    night.draw()
    for match in list(night.state.matches.values()):
        white = match.white
        assert white is not None
        reports.report_score(
            night.state, match.number, white, named_first(3, 0, first_is_white=True), at("23:30")
        )
        reports.accept(night.state, match.number, match.opponent_of(white) or 0, at("23:31"))
    dup, keeper = night.id("dup"), 7
    roster.merge_player(night.state, dup, keeper)
    state = night.state
    assert dup not in state.entries and state.entries[keeper].player == keeper
    named = {p for m in state.matches.values() for p in (m.white, m.black, m.winner)}
    named |= {p for g in state.groups for p in g.players}
    named |= {p.player for p in state.placements}
    assert dup not in named and keeper in named
    assert state.draw is not None and dup not in state.draw.players
    assert state.status is not TournamentStatus.REGISTRATION
    with pytest.raises(Refused):
        roster.merge_player(state, night.id("ana"), keeper)  # both played: two people


def test_one_person_entered_twice_before_the_draw_becomes_one_entry() -> None:
    """A director's /addplayer, then the player's own /register under their handle: two
    entries of one person, before any draw. Merged, they are one entry: confirmed and
    present if either was, entered since the earlier."""
    night = Night()
    night.enter("rocio", confirm=False, check_in=at("19:40"))  # her own, by her handle
    night.enter("Rocío Pérez")  # the director's, confirmed, not checked in
    handle, member = night.id("rocio"), night.id("Rocío Pérez")
    handles = night.state.entries[handle]
    roster.merge_player(night.state, handle, member)
    (entry,) = night.state.entries.values()
    assert entry.player == member
    assert entry.confirmed and entry.checked_in
    assert entry.presence == handles.presence
    night.enter("ana", "bob")
    night.draw()
    assert member in {p for g in night.state.groups for p in g.players}


def test_a_walk_in_on_the_day_is_present_not_a_no_show_CLUB_NO_SHOW() -> None:
    """The director walks in the latecomer standing before them: after the new draw they
    are neither late from the round's start nor, 30 minutes on, a suspended no-show."""
    night = Night("warcaby-100")
    night.enter("ana", "bob", "cid", check_in=at("19:30"))
    night.draw()
    night.ids["eve"] = 4
    roster.walk_in(night.state, 4, at("20:05"))
    roster.redraw(night.state, (), at("20:06"))
    first = night.state.matches_of(4)[0]
    assert first.start is not None
    due.sweep(night.state, first.start + timedelta(minutes=45))
    assert night.state.entries[4].status is EntryStatus.ACTIVE
    assert not any(4 in m.forfeited_by for m in night.state.matches_of(4))


def test_a_walk_in_entered_before_check_in_opens_still_checks_in() -> None:
    night = Night("warcaby-100")
    night.enter("ana", "bob", "cid")
    night.draw(when=at("12:00", day=30))
    night.ids["eve"] = 4
    entry = roster.walk_in(night.state, 4, at("12:05", day=30))
    assert not entry.checked_in


def test_a_walk_in_who_leaves_in_the_minute_of_the_new_draw_waits_for_no_draw() -> None:
    """Drawn at 20:06 and gone at 20:06 looks like a walk-in's withdrawal: they are in a
    group, and another new draw must not place them again."""
    night = Night("warcaby-100")
    night.enter("ana", "bob", "cid", check_in=at("19:30"))
    night.draw()
    night.ids["eve"] = 4
    roster.walk_in(night.state, 4, at("20:06"))
    roster.redraw(night.state, (), at("20:06"))
    attendance.withdraw(night.state, 4, at("20:06"))
    assert night.state.entries[4].status is EntryStatus.WITHDRAWN
    assert roster.waiting_for_draw(night.state) == []


def test_a_suspended_entry_is_taken_out_by_the_draw_and_the_new_draw_HGV_2_3_6() -> None:
    """An entry made before a suspension barred the player (a no-show of the month in
    between) is not drawn: it is removed, and the draw's event names it."""
    night = Night(group_size=4)
    night.enter("ana", "bob", "cid", "dan")
    events = progress.draw(night.state, (), at("19:55"), barred=frozenset({night.id("dan"), 99}))
    dan = night.state.entries[night.id("dan")]
    assert dan.status is EntryStatus.REMOVED
    assert {p for g in night.state.groups for p in g.players} == {1, 2, 3}
    (drawn,) = [e for e in events if isinstance(e, GroupsDrawn)]
    assert drawn.barred == (night.id("dan"),)
    roster.redraw(night.state, (), at("19:58"), barred=frozenset({night.id("dan")}))
    assert {p for g in night.state.groups for p in g.players} == {1, 2, 3}
