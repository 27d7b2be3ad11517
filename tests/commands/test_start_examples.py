"""A refusal that shows a tournament's start to copy shows one that works: ahead of now,
never too far (a fixed date in the catalog was in the past within a year)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.arguments import START_AHEAD, suggested_start
from tests.commands.chat import Chat

COPIED = re.compile(r'(/tournament new name:"[^"]+" start:"[^"]+")')
START = re.compile(r'start:"([^"]+)"')


@pytest.mark.parametrize(
    ("now", "zone", "expected"),
    [
        ("2026-12-04 18:00", "Europe/Madrid", "2027-01-30 20:00"),  # December: next year
        ("2026-01-30 12:00", "UTC", "2026-02-28 20:00"),  # a Saturday ends the month
        ("2027-06-30 23:30", "UTC", "2027-07-31 20:00"),
        ("2027-06-30 23:30", "Pacific/Kiritimati", "2027-08-28 20:00"),  # July 1 there
    ],
)
def test_the_suggested_start_is_next_months_last_saturday_evening(
    now: str, zone: str, expected: str
) -> None:
    at = suggested_start(datetime.fromisoformat(now).replace(tzinfo=UTC), zone)
    assert f"{at:%Y-%m-%d %H:%M}" == expected
    assert at.weekday() == 5 and (at + timedelta(days=7)).month != at.month


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_the_suggested_start_is_ahead_and_not_too_far_all_year(zone: str) -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    while now < datetime(2027, 1, 1, tzinfo=UTC):
        at = suggested_start(now, zone)
        assert now < at <= now + START_AHEAD, (now, at)
        now += timedelta(hours=13)


async def test_the_line_a_refusal_gives_creates_the_tournament(engine: AsyncEngine) -> None:
    chat = Chat(engine, now=datetime(2026, 12, 4, 18, 0, tzinfo=UTC))
    await chat.say("ana", "/club language:es timezone:Europe/Madrid")
    said = await chat.say("ana", "/tournament new")
    line = COPIED.search(said)
    assert line is not None, said
    assert line.group(1) == '/tournament new name:"Copa de Enero" start:"2027-01-30 20:00"'
    said = await chat.say("ana", line.group(1))
    assert said.startswith("Inscripciones abiertas para Copa de Enero"), said


@pytest.mark.parametrize(
    "typed",
    [
        '/tournament new name:"Copa" start:"2026-01-31 20:00"',  # past
        '/tournament new name:"Copa" start:"2030-01-31 20:00"',  # too far
        '/tournament new name:"Copa" start:"el sábado por la noche"',  # not a date
        '/tournament new name:"Copa"',  # no start
    ],
)
async def test_a_refused_start_suggests_one_that_is_accepted(
    engine: AsyncEngine, typed: str
) -> None:
    chat = Chat(engine, now=datetime(2026, 12, 4, 18, 0, tzinfo=UTC))
    await chat.say("ana", "/club language:es")
    said = await chat.say("ana", typed)
    suggested = START.findall(said)
    assert suggested and suggested[-1] == "2027-01-30 20:00", said
    said = await chat.say("ana", f'/tournament new name:"Copa" start:"{suggested[-1]}"')
    assert said.startswith("Inscripciones abiertas para Copa"), said


@pytest.mark.parametrize(
    ("language", "cup"),
    [("en", "January Cup"), ("pl", "Puchar Stycznia"), ("ro", "Cupa Ianuarie")],
)
async def test_the_example_names_the_month_of_its_start(
    engine: AsyncEngine, language: str, cup: str
) -> None:
    chat = Chat(engine, now=datetime(2026, 12, 4, 18, 0, tzinfo=UTC))
    await chat.say("ana", f"/club language:{language}")
    said = await chat.say("bob", "/standings")
    assert f'name:"{cup}" start:"2027-01-30 20:00"' in said, said
