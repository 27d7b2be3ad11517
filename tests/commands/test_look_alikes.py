"""The look-alike table shipped with clubtd is the one the confusables table gives."""

from __future__ import annotations

import json

from commands import look_alikes, names


def test_the_shipped_table_is_built_from_the_installed_confusables() -> None:
    shipped = json.loads(look_alikes.TABLE.read_text(encoding="utf-8"))
    assert shipped == look_alikes.build(), "run: python -m commands.look_alikes"


def test_the_table_maps_cyrillic_and_sequences_as_uts_39_says() -> None:
    assert names.skeleton("Аna") == names.skeleton("Ana")  # Cyrillic А
    assert names.skeleton("Amold") == names.skeleton("Arnold")
    assert names.skeleton("Ana") != names.skeleton("Ann")
