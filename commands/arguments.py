"""Read typed arguments: scores, dates, times, match numbers, reasons.

Each reader raises `Refused` with a code whose catalog message says what to type.
"""

from __future__ import annotations

import difflib
import functools
import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from commands import spoken_dates
from commands.params import DATETIME_EXAMPLE
from commands.replies import When
from tournament import folding
from tournament.answers import NO_WORDS, YES_WORDS
from tournament.model import Refused

# The marks between a score's two numbers: 3-1, 3:1, 3–1, 3/1, and 3x1 as a score is
# written in Latin America.
SCORE_MARKS = "-:–—/xX×"
_SCORE = re.compile(rf"^(\d{{1,3}})\s*[{SCORE_MARKS}]\s*(\d{{1,3}})$")
_SCORE_ANYWHERE = re.compile(rf"\d{{1,3}}\s*[{SCORE_MARKS}]\s*\d{{1,3}}")


def score(text: str, *, usage: str) -> tuple[int, int]:
    """Read "3-1" (also 3:1, 3–1, 3x1) as (first, second)."""
    found = _SCORE.match(text.strip())
    if not found:
        raise Refused("bad_score", text=text, usage=usage)
    return int(found.group(1)), int(found.group(2))


def scores(args: tuple[str, ...], *, usage: str) -> list[tuple[int, int]]:
    """Read one or more scores: the match, then any tiebreak phases (WAR-V)."""
    joined = " ".join(args)
    parts = _SCORE_ANYWHERE.findall(joined)
    leftover = _SCORE_ANYWHERE.sub("", joined).strip()
    if not parts or leftover:
        raise Refused("bad_score", text=joined or "?", usage=usage)
    return [score(part, usage=usage) for part in parts]


def match_number(text: str | None) -> int | None:
    if text is None:
        return None
    cleaned = text.strip().lstrip("#")
    if not _whole(cleaned, digits=6):
        raise Refused("bad_match_number", text=text)
    return int(cleaned)


def _whole(text: str, *, digits: int) -> bool:
    """Return whether `text` is a plain number of at most `digits` ASCII digits.

    `str.isdigit` accepts "²" and other digits `int` cannot read: only 0-9 here.
    """
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


def cube(text: str | None) -> int:
    """Read the doubling cube's final value (1 when not given)."""
    if text is None:
        return 1
    if not _whole(text.strip(), digits=2):
        raise Refused("bad_cube", text=text)
    return int(text)


def birth_date(text: str | None, today: date | None = None) -> date | None:
    """Read a birth date; one in the future (or before 1900) is refused, not stored."""
    if text is None:
        return None
    born = _date(text.strip()) or _date_said(text)
    if born is None:
        swapped = _meant_date(text.strip())
        if swapped is not None:
            raise Refused("bad_date_swapped", text=text, meant=swapped.isoformat())
        raise Refused("bad_date", text=text)
    return born_by(born, today)


_ISO_DAY = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
# Day first, as Europe and Latin America write dates: 30/01/2026, 30.01.2026, 30-01-2026.
_DAY_FIRST = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$")
# 20:00, 20.00, 20h, 20h30, 8pm, 8:30 pm.
_TIME = re.compile(r"^(\d{1,2})(?:[:.h](\d{2}))?\s*(h|am|pm)?$")


def birth_date_reads(text: str) -> bool:
    """Return whether `text` is a date `birth_date` reads (whether it is a likely birth
    date is `birth_date`'s to say)."""
    return _date(text.strip()) is not None or _date_said(text) is not None


def _date_said(text: str) -> date | None:
    """Read a date said with its month's name and its year: "2 martie 1950", "2 de marzo
    de 1950", "2 marca 1950" (a birth date: the year is never guessed)."""
    words = [w for w in text.split() if folding.loose(w) not in ("de", "del")]
    if len(words) != 3 or not (words[2].isdigit() and len(words[2]) == 4):
        return None
    return spoken_dates.day_said(" ".join(words), date(1, 1, 1))


def _date(text: str) -> date | None:
    """Read a date as ISO (2026-01-30, 2026-1-30) or day first (30/01/2026, 30.01.2026)."""
    parts = _year_month_day(text)
    try:
        return date(*parts) if parts is not None else date.fromisoformat(text)
    except ValueError:
        return None


def _meant_date(text: str) -> date | None:
    """Return the date `text` means with its month and day the other way round
    (1951-13-02, 02/13/1951), when only that way it is one."""
    parts = _year_month_day(text)
    if parts is None:
        return None
    year, month, day = parts
    try:
        return date(year, day, month)
    except ValueError:
        return None


def _year_month_day(text: str) -> tuple[int, int, int] | None:
    """Return the numbers of a date typed ISO or day first, as (year, month, day)."""
    if found := _DAY_FIRST.match(text):
        day, month, year = (int(part) for part in found.groups())
        return year, month, day
    if found := _ISO_DAY.match(text):
        year, month, day = (int(part) for part in found.groups())
        return year, month, day
    return None


def _date_time(text: str) -> datetime | None:
    """Read "2026-01-31 20:00", "31/01/2026 20:00" or "31.01.2026 20.00" (no zone)."""
    try:
        return datetime.fromisoformat(text.replace("T", " "))
    except ValueError:
        pass
    day, _, clock = text.partition(" ")
    found_day, found_time = _date(day), _clock(clock)
    if found_day is None or found_time is None:
        return None
    return datetime.combine(found_day, found_time)


def _clock(text: str) -> time | None:
    """Read a time of day: 20:00, 20.00, 20h, 20h30, 8pm, 8:30 pm."""
    found = _TIME.match(text.strip().lower())
    if found is None:
        return None
    hour, minute, suffix = found.groups()
    if minute is None and suffix is None:
        return None  # "30/01/2026 20" says no time
    hour, minute = int(hour), int(minute or 0)
    if suffix in ("am", "pm") and not 1 <= hour <= 12:
        return None
    if suffix == "pm" and hour < 12:
        hour += 12
    if suffix == "am" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def reads_as_start(text: str) -> bool:
    """Return whether `text` is a start with its time, in any form `local_time` reads
    (whichever day it is: the form is what counts)."""
    typed = " ".join(text.split())
    if _date_time(typed) is not None:
        return True
    spoken = _spoken(typed, date(2000, 1, 1))
    return spoken is not None and spoken[1] is not None


# A day said without its year is next year's only this far ahead; beyond, the year is asked.
_YEAR_GUESSED_UP_TO = timedelta(days=183)


def _spoken(text: str, today: date) -> tuple[date, time | None, bool] | None:
    """Read a start as a director says it ("30 enero 20:00", "sábado 20h", "30/1 8 pm"):
    its day (`spoken_dates`), its time when one ends the text, and whether its year was
    guessed."""
    words = text.split()
    for cut in (2, 1):  # "8 pm" is two words
        if len(words) > cut:
            clock = _clock(" ".join(words[-cut:]))
            said = " ".join(words[:-cut])
            day = spoken_dates.day_said(said, today)
            if clock is not None and day is not None:
                return day, clock, spoken_dates.year_guessed(said, today)
    day = spoken_dates.day_said(text, today)
    return None if day is None else (day, None, False)


def born_by(born: date | None, today: date | None) -> date | None:
    """Refuse a birth date not in the past, or before 1900: no age comes from it."""
    if born is not None and (born.year < 1900 or (today is not None and born >= today)):
        raise Refused("bad_birth_date", text=born.isoformat())
    return born


def local_time(text: str | None, zone: str, today: date | None = None) -> datetime:
    """Read "2026-01-31 20:00" (or "31/01/2026 20:00", "31.01.2026 20:00") in the club's
    time zone; return it in UTC. Given `today` (club time), a day as a director says it
    too: "30 enero 20:00", "sábado 20h", "30/1 20:00" (`spoken_dates`)."""
    if not text:
        raise Refused("start_required")
    typed = " ".join(text.split())
    day = _date(typed)
    if day is not None:
        # A date alone would start the tournament at midnight: the time was forgotten.
        raise Refused("start_without_time", text=text, example=f"{day.isoformat()} 20:00")
    naive = _date_time(typed)
    if naive is None and today is not None:
        spoken = _spoken(typed, today)
        if spoken is not None:
            day, clock, guessed = spoken
            if clock is None:
                example = f"{day.isoformat()} 20:00"
                raise Refused("start_without_time", text=text, example=example)
            naive = datetime.combine(day, clock)
            if guessed and day > today + _YEAR_GUESSED_UP_TO:
                # "5 January" typed on 10 January: most likely a slip, not next year's.
                example = f"{day.isoformat()} {clock:%H:%M}"
                raise Refused("start_year_needed", text=text, example=example)
    if naive is None:
        raise Refused("bad_datetime", text=text)
    try:
        if naive.tzinfo is not None:
            return naive.astimezone(UTC)
        return naive.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)
    except OverflowError:  # the year 1 or 9999 on the other side of UTC: about then,
        return naive.replace(tzinfo=UTC)  # refused as too far ahead (or past) by its use


START_AHEAD = timedelta(days=2 * 365)  # a start at most two years ahead


def start_time(text: str | None, zone: str, now: datetime) -> datetime:
    """Read a tournament's start (club time): after now, and at most two years ahead, so
    no date near the calendar's edge is ever stored (a zone change could overflow it)."""
    start = local_time(text, zone, now.astimezone(ZoneInfo(zone)).date())
    if start <= now:
        raise Refused("start_in_past", start=When(start, "datetime"))
    if start > now + START_AHEAD:
        raise Refused(
            "start_too_far", start=When(start, "date"), latest=When(now + START_AHEAD, "date")
        )
    return start


def suggested_start(now: datetime, zone: str) -> datetime:
    """Return the start a reply gives as an example: the last Saturday of next month at
    20:00, club time (clubs meet monthly), so what it says to type is never refused as
    past, nor as too far ahead."""
    local = now.astimezone(ZoneInfo(zone))
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    after = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    last = after - timedelta(days=1)
    saturday = last - timedelta(days=(last.weekday() - 5) % 7)
    return datetime(saturday.year, saturday.month, saturday.day, 20, 0, tzinfo=ZoneInfo(zone))


def dated(usage: str, now: datetime, zone: str) -> str:
    """Return a usage line with its example start one a director may copy: the start
    `suggested_start` gives, not a fixed date that is one day in the past."""
    if DATETIME_EXAMPLE not in usage:
        return usage
    return usage.replace(DATETIME_EXAMPLE, f'"{suggested_start(now, zone):%Y-%m-%d %H:%M}"')


# Cities as the clubs' languages write them (es, pl, ro), folded: the zones' own names
# are English ("Warsaw"), and a Polish director types "Warszawa". Only unambiguous ones
# (no Valencia: Spain's or Venezuela's).
CITIES = {
    city: zone
    for zone, cities in {
        "Europe/Warsaw": "warszawa varsovia krakow cracovia wroclaw gdansk poznan lodz"
        " katowice lublin szczecin bydgoszcz",
        "Europe/Bucharest": "bucuresti bucarest bukareszt constanta navodari cluj cluj-napoca"
        " iasi timisoara brasov craiova galati ploiesti",
        "Europe/Madrid": "madryt barcelona sevilla zaragoza malaga bilbao murcia alicante"
        " palma valladolid granada",
        "Europe/London": "londres londyn londra",
        "Europe/Paris": "paryz",
        "Europe/Rome": "roma rzym",
        "Europe/Vienna": "viena wieden",
        "Europe/Prague": "praga",
        "Europe/Chisinau": "kiszyniow",
        "America/Mexico_City": "ciudad_de_mexico cdmx",
        "America/New_York": "nueva_york nowy_jork",
        "America/Caracas": "maracaibo maracay barquisimeto",
        "America/Bogota": "medellin cali barranquilla",
        "Atlantic/Canary": "canarias las_palmas tenerife",
    }.items()
    for city in cities.split()
}


def time_zone(text: str) -> str:
    """Return the IANA zone `text` means: exact, any case or accents, a city only one
    zone has (`Bucharest`), or a city as the club writes it (`Warszawa`, `București`);
    refuse with the closest zones otherwise."""
    text = text.strip()
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    else:
        return text
    wanted = folding.loose(text).replace(" ", "_")
    by_name, by_city = _zones()
    if wanted in by_name:
        return by_name[wanted]
    if wanted in CITIES:
        return CITIES[wanted]
    cities = by_city.get(wanted.rsplit("/", 1)[-1], [])
    if len(cities) == 1:
        return cities[0]
    known = {city: zones[0] for city, zones in by_city.items()} | CITIES
    close = cities or list(
        dict.fromkeys(
            known[c]
            for c in difflib.get_close_matches(wanted.rsplit("/", 1)[-1], list(known), n=3)
        )
    )
    if close:
        raise Refused("bad_timezone_close", text=text, suggestion=" / ".join(close))
    raise Refused("bad_timezone", text=text)


@functools.cache
def _zones() -> tuple[dict[str, str], dict[str, list[str]]]:
    """Return the zones by lower-case name and by lower-case city (the last part)."""
    names = sorted(z for z in available_timezones() if "/" in z and not z.startswith("Etc/"))
    by_city: dict[str, list[str]] = {}
    for zone in names:
        by_city.setdefault(zone.rsplit("/", 1)[-1].lower(), []).append(zone)
    by_name = {zone.lower(): zone for zone in names} | {"utc": "UTC"}
    return by_name, by_city


# Yes and no as a club types them (tournament/answers.py): the synonyms every yes/no
# choice option reads (club settings, /tournament new).
YES_NO_SYNONYMS = {word: "yes" for word in YES_WORDS} | {word: "no" for word in NO_WORDS}
