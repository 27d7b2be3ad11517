"""A tournament's day as a director says it: "30 enero", "30 de enero de 2027", "sábado",
"30 stycznia", "sobotę", "30 ianuarie", "30/1", "30.01.27" (es, pl, ro, en).

Only for a start, which is in the future: a day without a year is its next coming, a
weekday the next such day. The reply names the date it was read as.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from tournament import folding

# Folded (no accents, lower case); Polish months in the nominative and the genitive
# ("30 stycznia"), Spanish and English short forms as calendars print them.
_MONTH_WORDS = (
    ("enero", "ene", "styczen", "stycznia", "sty", "ianuarie", "ian", "january", "jan"),
    ("febrero", "feb", "luty", "lutego", "lut", "februarie", "february"),
    ("marzo", "mar", "marzec", "marca", "martie", "march"),
    ("abril", "abr", "kwiecien", "kwietnia", "kwi", "aprilie", "apr", "april"),
    ("mayo", "may", "maj", "maja", "mai"),
    ("junio", "jun", "czerwiec", "czerwca", "cze", "iunie", "iun", "june"),
    ("julio", "jul", "lipiec", "lipca", "lip", "iulie", "iul", "july"),
    ("agosto", "ago", "sierpien", "sierpnia", "sie", "august", "aug"),
    (
        "septiembre",
        "setiembre",
        "sep",
        "sept",
        "wrzesien",
        "wrzesnia",
        "wrz",
        "septembrie",
        "september",
    ),
    ("octubre", "oct", "pazdziernik", "pazdziernika", "paz", "octombrie", "october"),
    ("noviembre", "nov", "listopad", "listopada", "lis", "noiembrie", "noi", "november"),
    ("diciembre", "dic", "grudzien", "grudnia", "gru", "decembrie", "dec", "december"),
)
MONTHS = {word: number for number, words in enumerate(_MONTH_WORDS, 1) for word in words}
# Monday first (date.weekday()); Polish in the accusative too ("w sobotę").
# Short forms as calendars print them (sáb., sob., sâm., sat): a weekday is one word.
_WEEKDAY_WORDS = (
    ("lunes", "lun", "poniedzialek", "pon", "luni", "monday", "mon"),
    ("martes", "mar", "wtorek", "wt", "marti", "tuesday", "tue"),
    ("miercoles", "mie", "sroda", "srode", "sr", "miercuri", "mier", "wednesday", "wed"),
    ("jueves", "jue", "czwartek", "czw", "joi", "thursday", "thu"),
    ("viernes", "vie", "piatek", "pt", "vineri", "vin", "friday", "fri"),
    ("sabado", "sab", "sobota", "sobote", "sob", "sambata", "sam", "saturday", "sat"),
    (
        "domingo",
        "dom",
        "niedziela",
        "niedziele",
        "niedz",
        "nd",
        "duminica",
        "dum",
        "sunday",
        "sun",
    ),
)
WEEKDAYS = {word: number for number, words in enumerate(_WEEKDAY_WORDS) for word in words}
# Words between a day and its month or year: "30 de enero de 2027", "w sobotę".
_FILLERS = frozenset({"de", "del", "w", "we", "on", "the", "el", "la", "pe", "in"})
# 30/1, 30.01, 30-01, 30/01/27: a day first, without the year or with two digits.
_SHORT = re.compile(r"^(\d{1,2})[./-](\d{1,2})(?:[./-](\d{2}))?\.?$")


def day_said(text: str, today: date) -> date | None:
    """Return the day `text` names, on or after `today`, or None when it names none."""
    found = _day_and_guess(text, today)
    return None if found is None else found[0]


def year_guessed(text: str, today: date) -> bool:
    """Return whether the day `text` names has no year said (a weekday says its week)."""
    found = _day_and_guess(text, today)
    return found is not None and found[1]


def _day_and_guess(text: str, today: date) -> tuple[date, bool] | None:
    words = [
        w.rstrip(".")
        for w in folding.loose(text).replace(",", " ").split()
        if w.rstrip(".") not in _FILLERS
    ]
    if len(words) == 1 and words[0] in WEEKDAYS:
        # The next such day; today's weekday means a week on (the time may be past).
        ahead = (WEEKDAYS[words[0]] - today.weekday() - 1) % 7 + 1
        return today + timedelta(days=ahead), False
    if len(words) > 1 and words[0] in WEEKDAYS:
        # "sáb 16", "sábado 16 de enero": the date, checked against its weekday (a
        # mismatch is a slip, not a guess to make).
        rest = words[1:]
        dated = (
            _next_day_of_month(int(rest[0]), today)
            if len(rest) == 1 and rest[0].isdigit()
            else _day_and_guess(" ".join(rest), today)
        )
        if dated is None or dated[0].weekday() != WEEKDAYS[words[0]]:
            return None
        return dated
    if len(words) == 1:
        short = _SHORT.match(words[0])
        if short is None:
            return None
        day, month, year = short.groups()
        found = _coming(int(day), int(month), None if year is None else 2000 + int(year), today)
        return None if found is None else (found, year is None)
    if len(words) in (2, 3) and words[0].rstrip(".").isdigit() and words[1] in MONTHS:
        year = None
        if len(words) == 3:
            if not (words[2].isdigit() and len(words[2]) == 4):
                return None
            year = int(words[2])
        found = _coming(int(words[0].rstrip(".")), MONTHS[words[1]], year, today)
        return None if found is None else (found, year is None)
    return None


def _next_day_of_month(day: int, today: date) -> tuple[date, bool] | None:
    """Return the next date on or after `today` whose day of the month is `day`."""
    for months_on in range(3):
        month, year = (today.month - 1 + months_on) % 12 + 1, today.year
        year += (today.month - 1 + months_on) // 12
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found >= today:
            return found, True
    return None


def _coming(day: int, month: int, year: int | None, today: date) -> date | None:
    """Return the date, in `year` or (none given) the next time it comes."""
    for candidate in (year,) if year is not None else (today.year, today.year + 1):
        try:
            found = date(candidate, month, day)
        except ValueError:
            continue  # 29 February in a year without it: the next that has it, if given
        if year is not None or found >= today:
            return found
    return None
