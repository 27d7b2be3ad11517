"""Values a director types are read forgivingly, and refused with what to type."""

from __future__ import annotations

import pytest

from commands.arguments import time_zone
from tournament.model import Refused


def test_a_time_zone_in_any_case_or_by_its_city_is_understood() -> None:
    assert time_zone("Europe/Madrid") == "Europe/Madrid"
    assert time_zone("europe/bucharest") == "Europe/Bucharest"
    assert time_zone("Bucharest") == "Europe/Bucharest"
    assert time_zone("new york") == "America/New_York"
    assert time_zone("UTC") == "UTC"


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("Warszawa", "Europe/Warsaw"),
        ("Łódź", "Europe/Warsaw"),
        ("București", "Europe/Bucharest"),
        ("Bucarest", "Europe/Bucharest"),
        ("Constanța", "Europe/Bucharest"),
        ("Ciudad de México", "America/Mexico_City"),
        ("Bogotá", "America/Bogota"),
        ("Sevilla", "Europe/Madrid"),
    ],
)
def test_a_city_as_the_club_writes_it_is_its_zone(typed: str, zone: str) -> None:
    """The zones' names are English: a Polish director types "Warszawa", accents kept."""
    assert time_zone(typed) == zone


def test_a_misspelt_native_city_is_answered_with_its_zone() -> None:
    with pytest.raises(Refused) as refused:
        time_zone("Warszwa")
    assert str(refused.value.params["suggestion"]).startswith("Europe/Warsaw")


def test_a_misspelt_city_is_answered_with_the_closest_zones() -> None:
    with pytest.raises(Refused) as refused:
        time_zone("Bucuresty")
    assert refused.value.code == "bad_timezone_close"
    assert "Europe/Bucharest" in str(refused.value.params["suggestion"])
    with pytest.raises(Refused) as nowhere:
        time_zone("Nowhere")
    assert nowhere.value.code == "bad_timezone"


def test_dates_are_read_day_first_as_clubs_type_them() -> None:
    """Issue 15 polish: `30/01/2026 20:00`, `30.01.2026 20:00` and `born:12.03.1965`."""
    from datetime import date

    from commands.arguments import birth_date, local_time

    iso = local_time("2026-01-30 20:00", "Europe/Warsaw")
    for typed in ("30/01/2026 20:00", "30.01.2026 20:00", "30.01.2026 20.00", "30-01-2026 20:00"):
        assert local_time(typed, "Europe/Warsaw") == iso, typed
    assert birth_date("12.03.1965") == birth_date("12/3/1965") == date(1965, 3, 12)
    for wrong in ("31/02/2026 20:00", "30/01/2026 25:00", "30/01/2026"):
        with pytest.raises(Refused):
            local_time(wrong, "Europe/Warsaw")
    with pytest.raises(Refused):
        birth_date("31.02.1965")


def test_a_start_typed_without_quotes_keeps_its_time() -> None:
    from commands.binding import bind
    from commands.parsing import parse
    from commands.registry import BY_NAME, select

    parsed = parse("/tournament new name:Feb start:27.02.2026 20:00 group_size:4")
    target, words = select(BY_NAME["tournament"], parsed)
    assert bind(target.signature, parsed, words).text("start") == "27.02.2026 20:00"


def test_a_time_of_day_as_people_write_it() -> None:
    from commands.arguments import local_time

    eight = local_time("2026-03-27 20:00", "UTC")
    for typed in ("27/03/2026 8pm", "27/03/2026 20h", "27.03.2026 20h00", "27/03/2026 8 PM"):
        assert local_time(typed, "UTC") == eight, typed
    for wrong in ("27/03/2026 20", "27/03/2026 13pm", "27/03/2026 8xm"):
        with pytest.raises(Refused):
            local_time(wrong, "UTC")


def test_a_start_with_a_date_and_no_time_asks_for_the_time() -> None:
    """A date alone used to start the tournament at midnight, the time forgotten."""
    from commands.arguments import local_time

    for typed in ("2027-02-27", "27.02.2027", "27/02/2027"):
        with pytest.raises(Refused) as refused:
            local_time(typed, "Europe/Bucharest")
        assert refused.value.code == "start_without_time", typed
        assert refused.value.params["example"] == "2027-02-27 20:00", typed
    # Midnight said outright is a time.
    assert local_time("2027-02-27 00:00", "UTC").hour == 0


def test_a_start_as_a_director_says_it_in_the_clubs_language() -> None:
    """`30 enero 20:00`, `sábado 20h`, `30/1 20:00`, `30 stycznia 20:00`: on a phone the
    ISO date is the hardest thing to type. A day without its year is its next coming."""
    from datetime import date

    from commands.arguments import local_time

    today = date(2027, 1, 10)  # a Sunday
    thirtieth = local_time("2027-01-30 20:00", "Europe/Madrid")
    for typed in (
        "30 enero 20:00",
        "30 de enero de 2027 8 pm",
        "30/1 20:00",
        "30.01.27 20.00",
        "30 stycznia 20:00",
        "30 ianuarie 20h",
        "30 sty 20:00",  # as a Polish calendar prints it
        "30 ene. 20:00",
        "sáb 30 20:00",  # its weekday too, checked
        "sábado 30 de enero 20:00",
    ):
        assert local_time(typed, "Europe/Madrid", today) == thirtieth, typed
    saturday = local_time("2027-01-16 20:00", "Europe/Madrid")
    for typed in ("sábado 20:00", "sobotę 20:00", "sâmbătă 20:00", "w sobotę 20h", "sáb. 20:00"):
        assert local_time(typed, "Europe/Madrid", today) == saturday, typed
    # Said on a Saturday, "sábado" is the next one, a week on.
    assert local_time("sábado 20:00", "UTC", date(2027, 1, 16)).day == 23
    for wrong, code in (
        ("27 febrero", "start_without_time"),
        ("31/2 20:00", "bad_datetime"),
        ("30 foo 20:00", "bad_datetime"),
        ("vie 30 20:00", "bad_datetime"),  # the 30th is a Saturday: which was meant?
        ("5 stycznia 20:00", "start_year_needed"),  # past by five days: a slip
    ):
        with pytest.raises(Refused) as refused:
            local_time(wrong, "Europe/Madrid", today)
        assert refused.value.code == code, wrong
    assert refused.value.params["example"] == "2028-01-05 20:00"
    # The year said, next year's day is meant; without `today` only full dates are read.
    assert local_time("5 stycznia 2028 20:00", "UTC", today).year == 2028
    with pytest.raises(Refused):
        local_time("30 enero 20:00", "Europe/Madrid")


def test_a_start_said_without_quotes_is_read_whole() -> None:
    """`start:10 kwietnia 10:00` unquoted was "10 10:00" with "kwietnia" left over, and
    the reply told the director to quote a name "Kwiecień kwietnia"."""
    from commands.binding import bind
    from commands.parsing import parse
    from commands.registry import BY_NAME, select

    def start_of(line: str) -> str | None:
        parsed = parse(line)
        target, words = select(BY_NAME["tournament"], parsed)
        return bind(target.signature, parsed, words).text("start")

    assert start_of("/tournament new name:Kwiecień start:10 kwietnia 10:00") == (
        "10 kwietnia 10:00"
    )
    assert start_of("/tournament new name:Maj start:8 de mayo 8 pm") == "8 de mayo 8 pm"
    assert start_of("/tournament new nombre:Marzo inicio:sáb 20h") == "sáb 20h"
    assert start_of("/tournament new name:Abril start:sáb 8pm") == "sáb 8pm"
    assert start_of("/tournament new name:Feb start:27.02.2026 20:00") == "27.02.2026 20:00"
    # Typed with no keys at all, the start is read off the end and shown with its key.
    parsed = parse("/tournament new Kwiecień 10 kwietnia 10:00")
    target, words = select(BY_NAME["tournament"], parsed)
    with pytest.raises(Refused) as refused:
        bind(target.signature, parsed, words)
    assert refused.value.params["usage"] == (
        '/tournament new name:Kwiecień start:"10 kwietnia 10:00"'
    )


def test_a_birth_date_said_with_its_months_name_and_year() -> None:
    """born:2 martie 1950 (unquoted, as a Romanian player types it) answered "I did not
    understand martie 1950"; a day, a month's name and a year are a date (never a year
    guessed for a birth date)."""
    from datetime import date

    from commands.arguments import birth_date
    from commands.binding import bind
    from commands.parsing import parse
    from commands.registry import BY_NAME, select

    for typed in ("2 martie 1950", "2 de marzo de 1950", "2 marca 1950", "2 March 1950"):
        assert birth_date(typed) == date(1950, 3, 2), typed
    for wrong in ("2 marzo", "31 febrero 1950", "2 foo 1950"):
        with pytest.raises(Refused):
            birth_date(wrong)
    for line in ("/register născut:2 martie 1950", "/register born:2 de marzo de 1950"):
        parsed = parse(line)
        target, words = select(BY_NAME["register"], parsed)
        assert bind(target.signature, parsed, words).date("born") == date(1950, 3, 2), line


def test_a_birth_date_with_month_and_day_swapped_is_offered_the_right_way_round() -> None:
    """Ewa typed born:1951-13-02 and read "write it as 1950-03-02", a date not hers: the
    reply offers the date she meant, 1951-02-13. Without its zeros (1951-3-2) it is read."""
    from datetime import date

    from commands.arguments import birth_date

    for typed in ("1951-13-02", "02/13/1951"):
        with pytest.raises(Refused) as refused:
            birth_date(typed)
        assert refused.value.code == "bad_date_swapped", typed
        assert refused.value.params["meant"] == "1951-02-13", typed
    assert birth_date("1951-3-2") == date(1951, 3, 2)
    for wrong in ("1951-02-30", "1951-13-13", "13/13/1951"):
        with pytest.raises(Refused) as refused:
            birth_date(wrong)
        assert refused.value.code == "bad_date", wrong
