"""Entry decisions (minimum age, approval, members only) and the age prizes."""

import calendar
from datetime import date, timedelta

import pytest

from tournament.entry import age_on, decide_entry, youngest_and_veteran
from tournament.preset import load_preset

NAVODARI = load_preset("navodari-table").entry
HGV = load_preset("hgv-backgammon").entry
WARCABY = load_preset("warcaby-100").entry

# --- NAV-ENTRY: minimum age ------------------------------------------------------------


def test_navodari_minimum_age_is_18_NAV_ENTRY() -> None:
    assert NAVODARI.minimum_age == 18


def test_minimum_age_reached_on_the_tournament_day_is_accepted_NAV_ENTRY() -> None:
    born = date(2000, 6, 15)
    birthday = date(born.year + NAVODARI.minimum_age, 6, 15)
    decision = decide_entry(NAVODARI, born=born, on=birthday, is_member=False)
    assert (decision.accepted, decision.refusal, dict(decision.params)) == (True, None, {})


def test_one_day_short_of_the_minimum_age_is_refused_NAV_ENTRY() -> None:
    born = date(2000, 6, 15)
    day_before = date(born.year + NAVODARI.minimum_age, 6, 15) - timedelta(days=1)
    decision = decide_entry(NAVODARI, born=born, on=day_before, is_member=True)
    assert (decision.accepted, decision.needs_approval, decision.refusal) == (
        False,
        False,
        "too_young",
    )
    assert dict(decision.params) == {
        "minimum_age": NAVODARI.minimum_age,
        "age": NAVODARI.minimum_age - 1,
    }


def test_leap_day_birth_comes_of_age_on_1_march_NAV_ENTRY() -> None:
    born = date(2004, 2, 29)
    year = born.year + NAVODARI.minimum_age
    assert not calendar.isleap(year)
    on_28_feb = decide_entry(NAVODARI, born=born, on=date(year, 2, 28), is_member=True)
    on_1_mar = decide_entry(NAVODARI, born=born, on=date(year, 3, 1), is_member=True)
    assert (on_28_feb.refusal, on_28_feb.params["age"]) == ("too_young", NAVODARI.minimum_age - 1)
    assert (on_1_mar.accepted, on_1_mar.refusal) == (True, None)


@pytest.mark.parametrize(
    ("on", "age"),
    [
        (date(2007, 2, 28), 2),
        (date(2007, 3, 1), 3),
        (date(2008, 2, 28), 3),
        (date(2008, 2, 29), 4),
        (date(2004, 2, 29), 0),
    ],
)
def test_age_of_a_leap_day_birth_NAV_ENTRY(on: date, age: int) -> None:
    assert age_on(date(2004, 2, 29), on) == age


def test_age_before_birth_is_an_error_NAV_ENTRY() -> None:
    with pytest.raises(ValueError):
        age_on(date(2004, 2, 29), date(2004, 2, 28))


def test_minimum_age_needs_a_birth_date_NAV_ENTRY() -> None:
    decision = decide_entry(NAVODARI, born=None, on=date(2025, 5, 1), is_member=True)
    assert (decision.accepted, decision.refusal) == (False, "birth_date_required")
    assert dict(decision.params) == {"minimum_age": NAVODARI.minimum_age}


def test_no_minimum_age_needs_no_birth_date_NAV_ENTRY() -> None:
    assert HGV.minimum_age == 0
    decision = decide_entry(HGV, born=None, on=date(2025, 5, 1), is_member=True)
    assert (decision.accepted, decision.refusal) == (True, None)


# --- HGV-1.4: approval and members only ------------------------------------------------


def test_a_newcomer_waits_for_membership_approval_HGV_1_4() -> None:
    assert HGV.approval
    decision = decide_entry(HGV, born=None, on=date(2025, 5, 1), is_member=False)
    assert (decision.accepted, decision.needs_approval, decision.refusal) == (True, True, None)


def test_a_member_is_approved_once_not_per_tournament_HGV_1_4() -> None:
    decision = decide_entry(HGV, born=None, on=date(2025, 5, 1), is_member=True)
    assert (decision.accepted, decision.needs_approval) == (True, False)


def test_entries_without_approval_are_accepted_outright_HGV_1_4() -> None:
    assert not WARCABY.approval
    decision = decide_entry(WARCABY, born=None, on=date(2025, 5, 1), is_member=False)
    assert (decision.accepted, decision.needs_approval, decision.refusal) == (True, False, None)


def test_friendly_tournament_admits_a_guest_without_approval_HGV_1_4() -> None:
    assert HGV.members_only
    decision = decide_entry(HGV, born=None, on=date(2025, 5, 1), is_member=False, official=False)
    assert (decision.accepted, decision.needs_approval, decision.refusal) == (True, False, None)


def test_open_club_approves_every_newcomer_HGV_1_4() -> None:
    assert not NAVODARI.members_only
    adult = date(1980, 1, 1)
    for official in (True, False):
        decision = decide_entry(
            NAVODARI, born=adult, on=date(2025, 5, 1), is_member=False, official=official
        )
        assert (decision.accepted, decision.needs_approval) == (True, NAVODARI.approval)


# --- NAV-PRIZE: youngest and veteran ---------------------------------------------------


def test_navodari_awards_the_age_prizes_NAV_PRIZE() -> None:
    assert (NAVODARI.youngest_prize, NAVODARI.veteran_prize) == (True, True)


def test_youngest_and_veteran_NAV_PRIZE() -> None:
    born = {1: date(1990, 5, 1), 2: date(2005, 1, 2), 3: date(1941, 12, 24), 4: date(1975, 7, 7)}
    assert youngest_and_veteran(born) == ((2,), (3,))


def test_ties_share_the_prize_NAV_PRIZE() -> None:
    born = {
        5: date(2005, 1, 2),
        1: date(1950, 3, 3),
        2: date(2005, 1, 2),
        3: date(1950, 3, 3),
        4: date(1980, 1, 1),
    }
    assert youngest_and_veteran(born) == ((2, 5), (1, 3))


def test_unknown_birth_dates_are_not_eligible_NAV_PRIZE() -> None:
    born = {1: None, 2: date(1980, 1, 1), 3: None, 4: date(1990, 1, 1)}
    assert youngest_and_veteran(born) == ((4,), (2,))


def test_nobody_qualifies_without_birth_dates_NAV_PRIZE() -> None:
    assert youngest_and_veteran({}) == ((), ())
    assert youngest_and_veteran({1: None}) == ((), ())


def test_a_lone_eligible_player_takes_both_prizes_NAV_PRIZE() -> None:
    assert youngest_and_veteran({1: None, 7: date(1970, 1, 1)}) == ((7,), (7,))
