"""Player names are matched forgivingly; what fits nobody gets the closest names."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from commands.resolver import Known, Roster, fold
from storage.engine import make_engine
from tests.commands.chat import Chat
from tournament.club import Player
from tournament.model import Refused

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def roster(*people: tuple[str, ...]) -> Roster:
    known = []
    for number, (name, *handles) in enumerate(people, 1):
        player = Player(id=number, club_id=1, name=name, created_at=WHEN)
        known.append(Known(player, tuple(fold(n) for n in (name, *handles))))
    return Roster(known)


CLUB = roster(
    ("Alice Moreno", "alice"),
    ("Gina R.", "gina77"),
    ("Bob Élan",),
    ("Bobby Tables",),
    ("Eve",),
    ("Frank",),
    ("Zoë Ångström",),
)


def name_of(text: str) -> str:
    return CLUB.one(text).name


def refused(text: str) -> Refused:
    with pytest.raises(Refused) as caught:
        CLUB.one(text)
    return caught.value


def test_case_accents_and_spaces_do_not_matter() -> None:
    assert name_of("alice moreno") == "Alice Moreno"
    assert name_of("  ALICE   MORENO ") == "Alice Moreno"
    assert name_of("bob elan") == "Bob Élan"
    assert name_of("zoe angstrom") == "Zoë Ångström"
    assert name_of('"Gina R."') == "Gina R."


def test_a_unique_beginning_of_the_name_or_of_a_word_is_enough() -> None:
    assert name_of("ali") == "Alice Moreno"
    assert name_of("moreno") == "Alice Moreno"
    assert name_of("Gina") == "Gina R."
    assert name_of("tables") == "Bobby Tables"


def test_the_chat_handle_works_too() -> None:
    assert name_of("@gina77") == "Gina R."


def test_an_exact_name_wins_over_longer_ones() -> None:
    both = roster(("Bob",), ("Bobby",))
    assert both.one("bob").name == "Bob"
    assert both.one("bobb").name == "Bobby"


def test_an_ambiguous_beginning_lists_who_it_could_be() -> None:
    refusal = refused("bob")
    assert refusal.code == "ambiguous_player"
    assert refusal.params["candidates"] == "Bob Élan, Bobby Tables"


def test_nobody_fits_gives_the_closest_names() -> None:
    refusal = refused("alcie")
    assert refusal.code == "no_such_player_close"
    assert refusal.params["suggestions"] == "Alice Moreno"
    assert refused("qqqqqqq").code == "no_such_player"


def test_several_names_without_quotes() -> None:
    assert [p.name for p in CLUB.several(["eve", "frank"])] == ["Eve", "Frank"]
    assert [p.name for p in CLUB.several(["Alice", "Moreno", "frank"])] == [
        "Alice Moreno",
        "Frank",
    ]
    assert [p.name for p in CLUB.several(["bob", "elan", "eve", "eve"])] == ["Bob Élan", "Eve"]
    with pytest.raises(Refused) as caught:
        CLUB.several(["eve", "frnk"])
    assert caught.value.params["suggestions"] == "Frank"


def test_several_names_apart_by_commas_and_by_and() -> None:
    """/present Ion Popescu, Maria Stan read "Popescu," as a name nobody has; /present
    Gheorghe Stan și Vasile Ionescu, "și" (and). Neither is a name, unless someone's."""
    club = roster(
        ("Ion Popescu",), ("Maria Stan",), ("Gheorghe Stan",), ("Vasile Ionescu",), ("Ilona",)
    )
    assert [p.name for p in club.several(["Ion", "Popescu,", "Maria", "Stan"])] == [
        "Ion Popescu",
        "Maria Stan",
    ]
    assert [p.name for p in club.several(["Gheorghe", "Stan", "și", "Vasile", "Ionescu"])] == [
        "Gheorghe Stan",
        "Vasile Ionescu",
    ]
    assert [p.name for p in club.several(["maria,ion", "y", "ilona"])] == [
        "Maria Stan",
        "Ion Popescu",
        "Ilona",
    ]
    # "Ion, Popescu" are two names: Ion Popescu once (the comma is not inside a name).
    assert [p.name for p in club.several(["Ion,", "Popescu"])] == ["Ion Popescu"]
    called_i = roster(("I",), ("Eve",), ("Frank",))
    assert [p.name for p in called_i.several(["eve", "i", "frank"])] == ["Eve", "I", "Frank"]


def test_one_name_of_several_wrong_says_the_others_were_left_too() -> None:
    """/present eve gheorghe frank: nothing is done, and the refusal says so for Eve and
    Frank, lest the director think they were marked."""
    with pytest.raises(Refused) as caught:
        CLUB.several(["eve", "qqqqqqq", "frank"])
    assert caught.value.code == "no_such_player_of_several"
    assert caught.value.params == {"name": "qqqqqqq", "others": "Eve, Frank"}
    with pytest.raises(Refused) as caught:
        CLUB.several(["frnk"])  # alone: as one name
    assert caught.value.code == "no_such_player_close"


def test_approve_takes_several_names_as_typed_and_reports_each_HGV_1_4(
    database_url: str,
) -> None:
    """/approve eve frank approves both; /approve Alice Moreno needs no quotes (HGV-1.4)."""

    async def scenario() -> None:
        engine = make_engine(database_url)
        try:
            chat = Chat(engine)
            await chat.say(
                "ana", '/tournament new name:"May Cup" start:"2026-01-31 20:00" approval:yes'
            )
            for user, name in (("eve", "Eve"), ("frank", "Frank"), ("al", "Alice Moreno")):
                await chat.say(user, f'/register name:"{name}"')
            assert await chat.say("ana", "/approve eve frank") == (
                "Approved as club members: Eve, Frank. Their entries need no approval any more."
            )
            assert await chat.say("ana", "/approve Alice Moreno") == (
                "Approved as a club member: Alice Moreno. Their entries need no approval any more."
            )
            assert await chat.say("ana", "/approve frnk") == (
                "Nobody here is called frnk. Did you mean Frank?"
            )
            assert await chat.say("ana", "/approve eve frnk") == (
                "Nobody here is called frnk (did you mean Frank?). Nothing was done, not for"
                " Eve either: send it again."
            )
        finally:
            await engine.dispose()

    asyncio.run(scenario())
