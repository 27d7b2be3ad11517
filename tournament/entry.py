"""Who may enter a tournament (HGV-1.4, NAV-ENTRY) and the age prizes (NAV-PRIZE)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

from tournament.model import PlayerId
from tournament.preset import EntryRules

TOO_YOUNG = "too_young"
MEMBERS_ONLY = "members_only"
BIRTH_DATE_REQUIRED = "birth_date_required"


def age_on(born: date, on: date) -> int:
    """Return the age in whole years on a day.

    Someone born on 29 February turns a year older on 1 March in non-leap years: the
    birthday has not come while the day is still in February.
    """
    if on < born:
        raise ValueError(f"{on} is before the birth date {born}")
    birthday_to_come = (on.month, on.day) < (born.month, born.day)
    return on.year - born.year - birthday_to_come


@dataclass(frozen=True, slots=True)
class EntryDecision:
    """Whether an entry is accepted; a refusal is a code with the numbers it shows."""

    accepted: bool
    needs_approval: bool
    refusal: str | None
    params: Mapping[str, int | str] = field(default_factory=lambda: MappingProxyType({}))


def _refuse(code: str, **params: int | str) -> EntryDecision:
    return EntryDecision(False, False, code, MappingProxyType(params))


def decide_entry(
    rules: EntryRules, *, born: date | None, on: date, is_member: bool, official: bool = True
) -> EntryDecision:
    """Return whether a player may enter a tournament held on `on` (HGV-1.4, NAV-ENTRY).

    Approval is club membership, decided once per player (HGV-1.4): when the club approves
    its members (`rules.approval`), a player who is not a member yet enters but waits for
    a director's approval of their membership. Official tournaments are for members; a
    members-only club's friendly tournaments admit guests without approval, while an
    open club (`members_only` false, Navodari's organisers who select) approves every
    newcomer. Without approval anyone may enter. The minimum age (NAV-ENTRY) is then
    checked: without a birth date "birth_date_required", below it "too_young" with the
    minimum and the age on the day.
    """
    if rules.minimum_age > 0:
        if born is None:
            return _refuse(BIRTH_DATE_REQUIRED, minimum_age=rules.minimum_age)
        age = age_on(born, on)
        if age < rules.minimum_age:
            return _refuse(TOO_YOUNG, minimum_age=rules.minimum_age, age=age)
    guest_welcome = rules.members_only and not official
    needs_approval = rules.approval and not is_member and not guest_welcome
    return EntryDecision(True, needs_approval, None, MappingProxyType({}))


def youngest_and_veteran(
    born: Mapping[PlayerId, date | None],
) -> tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]]:
    """Return the youngest players and the veterans, for the special prizes (NAV-PRIZE).

    The youngest have the latest birth date, the veterans the earliest; players born
    the same day share the prize, listed by id. Players without a birth date (missing
    or None) are not eligible. A lone eligible player is both. Whether a club awards
    the prizes at all (`EntryRules.youngest_prize`, `veteran_prize`) is the caller's.
    """
    known = {player: day for player, day in born.items() if day is not None}
    if not known:
        return (), ()
    latest, earliest = max(known.values()), min(known.values())
    youngest = tuple(sorted(p for p, day in known.items() if day == latest))
    veterans = tuple(sorted(p for p, day in known.items() if day == earliest))
    return youngest, veterans
