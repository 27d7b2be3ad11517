"""The look-alike table shipped with clubtd is the one the confusables table gives."""

from __future__ import annotations

import json

import pytest

from commands import look_alikes, names


def test_the_shipped_table_is_built_from_the_installed_confusables() -> None:
    shipped = json.loads(look_alikes.TABLE.read_text(encoding="utf-8"))
    assert shipped == look_alikes.build(), "run: python -m commands.look_alikes"


def test_the_table_maps_cyrillic_and_sequences_as_uts_39_says() -> None:
    assert names.skeleton("Аna") == names.skeleton("Ana")  # Cyrillic А
    assert names.skeleton("Amold") == names.skeleton("Arnold")
    assert names.skeleton("Ana") != names.skeleton("Ann")


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("Grzegorz B.", "Grzegorz Brzęczyszczykiewicz", True),
        ("grzegorz brzeczyszczykiewicz", "Grzegorz B.", True),  # either way, folded
        ("Ana Pérez", "ana p.", True),
        ("María José G.", "Maria Jose Gil", True),
        ("Grzegorz B.", "Grzegorz Kowalski", False),  # another initial
        ("Grzegorz B.", "Tomasz Brzęczyszczykiewicz", False),  # another first name
        ("Grzegorz B", "Grzegorz Brzęczyszczykiewicz", False),  # no dot: a name, not cut
        ("Ana P.", "Ana P.", False),  # the same name: not an abbreviation of itself
        ("Ana", "Ana Pérez", False),
        ("Ana P.", "Ana María Pérez", False),
    ],
)
def test_a_surname_cut_to_its_initial_abbreviates_the_whole(
    one: str, other: str, same: bool
) -> None:
    assert names.abbreviates(one, other) is same


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("andres", "Andrés Bello", True),
        ("ANDRÉS", "andres bello", True),
        ("Andrés Bello", "andres", False),  # the whole name is not a first name
        ("andres", "Andrés", False),  # the same one word: a twin, not a first name
        ("bello", "Andrés Bello", False),  # the surname alone is not asked about
        ("andres b", "Andrés Bello", False),
    ],
)
def test_a_single_word_is_the_first_name_of_a_whole_name(one: str, other: str, same: bool) -> None:
    assert names.first_name_of(one, other) is same


def test_a_letter_with_a_stroke_reads_like_its_base_letter() -> None:
    """Ł, đ, ø have no accent to drop: "Lukasz Zolc" in a ranking file made a second
    player beside the club's "Łukasz Żółć" (ó and ż were dropped, Ł was not)."""
    assert names.look_alike("Lukasz Zolc", ["Jan Kowalski", "Łukasz Żółć"]) == "Łukasz Żółć"
    assert names.look_alike("Đorđe", ["Dorde"]) == "Dorde"
    assert names.look_alike("Lukasz Zolc", ["Łukasz Kot"]) is None
