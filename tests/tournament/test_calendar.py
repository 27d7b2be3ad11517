"""Which tournament a command means without naming one, and calling one off."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tournament.calendar import (
    Listed,
    cancel,
    entered_among,
    last_played,
    meant,
    named,
    overdue,
    rename,
    same_time_later,
    upcoming_entry,
)
from tournament.model import Refused, TournamentStatus
from tournament.preset import load_preset
from tournament.state import TournamentState

NOW = datetime(2026, 5, 1, 16, 0, tzinfo=UTC)  # 18:00 in Madrid


def at(day: int, hour: int) -> datetime:
    return datetime(2026, 5, day, hour, 0, tzinfo=UTC)


def listed(*rows: tuple[int, str, datetime, str]) -> list[Listed]:
    return [Listed(*row) for row in rows]


def test_the_tournament_in_play_comes_first() -> None:
    found = meant(
        listed((1, "A", at(1, 18), "registration"), (2, "B", at(1, 12), "groups")),
        NOW,
        "Europe/Madrid",
    )
    assert found.chosen is not None and found.chosen.id == 2


def test_tonights_tournament_before_one_left_in_play_a_month_ago() -> None:
    """December's final was never reported: January's night is still January's; between
    the two nights, December's unfinished business comes first."""
    rows = listed(
        (1, "December", datetime(2026, 4, 3, 18, 0, tzinfo=UTC), "knockout"),
        (2, "January", at(1, 18), "registration"),
    )
    found = meant(rows, NOW, "Europe/Madrid")
    assert found.chosen is not None and found.chosen.name == "January"
    between = datetime(2026, 4, 20, 12, 0, tzinfo=UTC)
    found = meant(rows, between, "Europe/Madrid")
    assert found.chosen is not None and found.chosen.name == "December"


def test_tonights_finished_tournament_before_one_left_in_play_a_month_ago() -> None:
    """March finished at one o'clock; February's night was never finished. A correction
    typed after March's final (/result 10 3-1) corrected February's match 10."""
    rows = listed(
        (1, "February", datetime(2026, 4, 3, 18, 0, tzinfo=UTC), "groups"),
        (2, "March", at(1, 8), "finished"),
        (3, "April", at(29, 8), "registration"),
    )
    found = meant(rows, NOW, "Europe/Madrid")
    assert found.chosen is not None and found.chosen.name == "March"
    # The next day March is a night gone by: February's unfinished business again.
    found = meant(rows, at(3, 12), "Europe/Madrid")
    assert found.chosen is not None and found.chosen.name == "February"
    # With nothing left in play, the next to start, as before.
    rows = [rows[1], rows[2]]
    found = meant(rows, NOW, "Europe/Madrid")
    assert found.chosen is not None and found.chosen.name == "April"


def test_tonight_before_a_later_one_even_if_created_after() -> None:
    found = meant(
        listed((1, "June", at(30, 18), "registration"), (2, "May", at(1, 18), "registration")),
        NOW,
        "Europe/Madrid",
    )
    assert found.chosen is not None and found.chosen.name == "May"


def test_the_next_to_start_when_none_is_today() -> None:
    found = meant(
        listed((1, "Later", at(20, 18), "registration"), (2, "Sooner", at(9, 18), "registration")),
        NOW,
        "Europe/Madrid",
    )
    assert found.chosen is not None and found.chosen.name == "Sooner"


def test_two_tonight_are_ambiguous() -> None:
    found = meant(
        listed((1, "A", at(1, 18), "registration"), (2, "B", at(1, 19), "registration")),
        NOW,
        "Europe/Madrid",
    )
    assert found.chosen is None
    assert [t.name for t in found.candidates] == ["A", "B"]


def test_a_cancelled_tournament_is_in_no_default() -> None:
    rows = listed((1, "A", at(1, 18), "cancelled"), (2, "Old", at(1, 1), "finished"))
    found = meant(rows, NOW, "Europe/Madrid")
    assert found.chosen is not None and found.chosen.name == "Old"
    assert meant(rows[:1], NOW, "Europe/Madrid").chosen is None


def test_the_day_is_the_clubs_day() -> None:
    """At 23:30 UTC it is already the next day in Madrid."""
    late = datetime(2026, 5, 1, 23, 30, tzinfo=UTC)
    rows = listed((1, "A", at(2, 18), "registration"), (2, "B", at(2, 19), "registration"))
    assert meant(rows, late, "Europe/Madrid").candidates
    chosen = meant(rows, late, "America/Caracas").chosen  # still the day before there
    assert chosen is not None and chosen.name == "A"


def test_a_players_own_command_means_the_tournament_they_entered() -> None:
    """Three on one day, bob in the second: not ambiguous for him. On the eve of the
    next to start, not his, his one upcoming entry; never tonight's, where a check-in at
    the venue is for it, nor when he entered several."""
    day = listed(
        (1, "Morning", at(2, 9), "registration"),
        (2, "Afternoon", at(2, 16), "registration"),
        (3, "Night", at(2, 20), "registration"),
    )
    found = meant(day, NOW, "Europe/Madrid")
    assert found.chosen is not None and found.chosen.id == 1  # the eve: the next to start
    assert upcoming_entry(found.chosen, day, {2}, NOW, "Europe/Madrid") == day[1]
    assert upcoming_entry(found.chosen, day, {1, 2}, NOW, "Europe/Madrid") is None  # his
    assert upcoming_entry(found.chosen, day, {2, 3}, NOW, "Europe/Madrid") is None  # two
    on_the_day = datetime(2026, 5, 2, 6, 0, tzinfo=UTC)
    assert upcoming_entry(day[0], day, {2}, on_the_day, "Europe/Madrid") is None  # tonight
    assert entered_among(day, {2}) == day[1]
    assert entered_among(day, {2, 3}) is None and entered_among(day, set()) is None


def state(status: TournamentStatus) -> TournamentState:
    made = TournamentState(
        id=1,
        name="May Cup",
        preset=load_preset("hgv-backgammon"),
        start=at(1, 18),
        seed=1,
        official=True,
        created_at=NOW,
    )
    made.status = status
    return made


def test_cancel_keeps_a_finished_tournament() -> None:
    with pytest.raises(Refused) as refused:
        cancel(state(TournamentStatus.FINISHED))
    assert refused.value.code == "cannot_cancel_finished"
    called_off = state(TournamentStatus.REGISTRATION)
    cancel(called_off)
    assert called_off.status is TournamentStatus.CANCELLED
    with pytest.raises(Refused):
        cancel(called_off)


def test_a_season_is_the_calendar_year_on_the_clubs_clock() -> None:
    # HGV-8: 23:30 on New Year's Eve in Caracas is already next year in UTC.
    from tournament.calendar import in_season, season

    eve = datetime(2027, 1, 1, 3, 30, tzinfo=UTC)
    assert season(eve, "America/Caracas") == 2026
    assert season(eve, "UTC") == 2027
    rows = listed((1, "Dec", eve, "finished"), (2, "Jan", at(2, 18), "finished"))
    assert in_season(rows, 2026, "America/Caracas") == {1, 2}


def test_a_new_tournament_may_not_share_a_live_ones_name() -> None:
    from tournament.calendar import check_new_name

    rows = listed((1, "Copa Mayo", at(1, 18), "groups"), (2, "Old", at(1, 12), "finished"))
    with pytest.raises(Refused) as caught:
        check_new_name("copa  MAYÓ", rows)
    assert caught.value.code == "tournament_exists"
    check_new_name("old", rows)  # next season's edition of a finished one is fine


def test_listed_rows_carry_a_typed_status() -> None:
    (row,) = listed((1, "A", at(1, 18), "cancelled"))
    assert row.status is TournamentStatus.CANCELLED and not row.live and row.done


def test_the_last_played_is_the_latest_finished_before_the_one_meant() -> None:
    rows = listed(
        (1, "March", at(1, 10), "finished"),
        (2, "April", at(2, 10), "finished"),
        (3, "Called off", at(3, 10), "cancelled"),
        (4, "May", at(9, 18), "registration"),
        (5, "June", at(20, 18), "finished"),  # after May: not what May's look-up shows
    )
    found = last_played(rows, rows[3])
    assert found is not None and found.name == "April"
    assert last_played(rows, rows[0]) is None


def test_a_tournament_is_named_forgivingly_the_latest_of_its_name() -> None:
    """`febrero` is "Copa de Febrero", `cupa feb` too; a name shared by two seasons is
    the latest; a word that fits two names is nobody's."""
    club = listed(
        (1, "Copa de Enero", at(2, 20), "finished"),
        (2, "Copa de Febrero", at(9, 20), "knockout"),
        (3, "Copa de Enero", at(30, 20), "registration"),
    )
    found = named(club, "febrero")
    assert found is not None and found.id == 2
    found = named(club, "COPA DE ENERO")
    assert found is not None and found.id == 3
    found = named(club, "copa feb")
    assert found is not None and found.id == 2
    assert named(club, "copa") is None
    assert named(club, "") is None


def test_a_tournament_is_renamed_unless_the_name_is_its_own_or_taken() -> None:
    state = TournamentState(
        id=2, name="Marhc Cup", preset=load_preset("hgv-backgammon"), start=at(14, 18), seed=1
    )
    rows = listed(
        (1, "April Cup", at(20, 18), "registration"), (2, "Marhc Cup", at(14, 18), "registration")
    )
    with pytest.raises(Refused) as taken:
        rename(state, "APRIL CUP", rows)
    assert taken.value.code == "tournament_exists"
    with pytest.raises(Refused) as same:
        rename(state, "Marhc Cup", rows)
    assert same.value.code == "rename_tournament_same"
    rename(state, "March Cup", rows)
    assert state.name == "March Cup"
    rename(state, "marhc cup", rows)  # its own old name, another case: no other holds it
    assert state.name == "marhc cup"


def test_a_draw_never_made_is_overdue_from_the_next_day_on_the_clubs_clock() -> None:
    """On its own day a tournament not drawn is late, not forgotten; the next day it is."""
    may = Listed(1, "May Cup", at(1, 18), TournamentStatus.REGISTRATION)  # 20:00 in Madrid
    assert not overdue(may, at(1, 21), "Europe/Madrid")  # 23:00 the same night
    assert overdue(may, at(1, 23), "Europe/Madrid")  # 01:00 the next day
    assert not overdue(may, at(1, 23), "America/Caracas")  # still the same day there
    drawn = Listed(2, "June Cup", at(1, 18), TournamentStatus.GROUPS)
    assert not overdue(drawn, at(9, 12), "Europe/Madrid")


def test_a_forgotten_night_moves_to_its_weekday_and_time_after_now() -> None:
    """A Friday 20:00 in Madrid, forgotten in March (winter time), is offered the next
    Friday 20:00 after now in April (summer time), not 21:00."""
    march = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)  # Friday 20:00 CET
    later = same_time_later(march, datetime(2026, 4, 7, 9, 0, tzinfo=UTC), "Europe/Madrid")
    assert later == datetime(2026, 4, 10, 18, 0, tzinfo=UTC)  # Friday 20:00 CEST
    # Its own weekday, later the same day it is asked: that night.
    asked = datetime(2026, 4, 10, 10, 0, tzinfo=UTC)
    assert same_time_later(march, asked, "Europe/Madrid") == later
    # Asked after that night's start: the week after.
    asked = datetime(2026, 4, 10, 18, 30, tzinfo=UTC)
    assert same_time_later(march, asked, "Europe/Madrid") == datetime(
        2026, 4, 17, 18, 0, tzinfo=UTC
    )
