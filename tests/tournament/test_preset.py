"""Presets are data: every rule number comes from a file, and bad keys are named."""

import pytest

from tournament.preset import PresetError, load_preset, parse_preset, preset_names


@pytest.mark.parametrize("name", preset_names())
def test_every_shipped_preset_loads(name: str) -> None:
    preset = load_preset(name)
    assert preset.id == name
    assert preset.groups.qualifiers <= preset.groups.size


def test_hgv_groups_of_three_by_snake_seeding_HGV_7_2_1() -> None:
    groups = load_preset("hgv-backgammon").groups
    assert (groups.method, groups.size, groups.match_length) == ("snake", 3, 3)


def test_navodari_random_groups_of_four_two_qualify_NAV_I_NAV_QUAL() -> None:
    groups = load_preset("navodari-table").groups
    assert (groups.method, groups.size, groups.qualifiers) == ("random", 4, 2)


def test_override_by_alias_and_by_dotted_key() -> None:
    preset = load_preset("hgv-backgammon", {"group_size": "4", "knockout.third_place": "yes"})
    assert preset.groups.size == 4
    assert preset.knockout.third_place is True


@pytest.mark.parametrize(
    ("overrides", "key", "allowed"),
    [
        ({"group_size": "many"}, "groups.size", "a whole number"),
        ({"group_size": "1"}, "groups.size", "a number from 2 to 64"),
        ({"groups.method": "swiss"}, "groups.method", "snake | random"),
        ({"third_place": "perhaps"}, "knockout.third_place", "true or false"),
        ({"qualifiers": "9"}, "groups.qualifiers", "at most the group size (3)"),
    ],
)
def test_a_bad_override_names_the_key_and_the_allowed_values(
    overrides: dict[str, str], key: str, allowed: str
) -> None:
    with pytest.raises(PresetError) as caught:
        load_preset("hgv-backgammon", overrides)
    assert (caught.value.key, caught.value.allowed) == (key, allowed)


def test_an_unknown_override_lists_the_keys_that_exist() -> None:
    with pytest.raises(PresetError) as caught:
        load_preset("hgv-backgammon", {"group_sise": "4"})
    assert caught.value.key == "group_sise"
    assert "group_size" in caught.value.allowed


def test_an_unknown_preset_lists_the_shipped_ones() -> None:
    with pytest.raises(PresetError) as caught:
        load_preset("chess-blitz")
    assert caught.value.allowed == "hgv-backgammon | navodari-table | warcaby-100"


def test_a_preset_file_missing_a_key_is_refused_by_name() -> None:
    with pytest.raises(PresetError) as caught:
        parse_preset('[preset]\nid = "x"\nname = "x"\ngame = "backgammon"\n')
    assert caught.value.key == "entry"


def test_a_preset_file_with_a_bad_value_is_refused_by_name() -> None:
    from importlib import resources

    text = resources.files("tournament.presets").joinpath("hgv-backgammon.toml").read_text()
    with pytest.raises(PresetError) as caught:
        parse_preset(text.replace('game = "backgammon"', 'game = "chess"'))
    assert (caught.value.key, caught.value.allowed) == ("preset.game", "backgammon | draughts")


@pytest.mark.parametrize(
    ("overrides", "field", "code", "values"),
    [
        ({"group_size": "many"}, "groups.size", "whole_number", {}),
        ({"group_size": "1"}, "groups.size", "range", {"low": "2", "high": "64"}),
        ({"groups.method": "swiss"}, "groups.method", "choice", {"choices": ("snake", "random")}),
        ({"third_place": "perhaps"}, "knockout.third_place", "yes_no", {}),
        ({"qualifiers": "9"}, "groups.qualifiers", "group_size", {"size": 3}),
    ],
)
def test_a_bad_override_is_a_structured_error_the_catalogs_can_say(
    overrides: dict[str, str], field: str, code: str, values: dict[str, object]
) -> None:
    # HGV-7.2.1: the director may choose the group size; what does not fit is said by code.
    with pytest.raises(PresetError) as caught:
        load_preset("hgv-backgammon", overrides)
    assert (caught.value.field, caught.value.code, caught.value.values) == (field, code, values)


def test_an_unknown_override_is_a_key_error_listing_the_options() -> None:
    with pytest.raises(PresetError) as caught:
        load_preset("hgv-backgammon", {"group_sise": "4"})
    assert caught.value.code == "key"
    assert "group_size" in caught.value.values["choices"]  # type: ignore[operator]
