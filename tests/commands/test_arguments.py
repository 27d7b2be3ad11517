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


def test_a_misspelt_city_is_answered_with_the_closest_zones() -> None:
    with pytest.raises(Refused) as refused:
        time_zone("Bucarest")
    assert refused.value.code == "bad_timezone_close"
    assert "Europe/Bucharest" in str(refused.value.params["suggestion"])
    with pytest.raises(Refused) as nowhere:
        time_zone("Nowhere")
    assert nowhere.value.code == "bad_timezone"
