"""Presets: every number and choice of a club's rules, loaded from a TOML data file.

A preset is chosen per tournament and any key may be overridden, either by its dotted
name (`groups.size`) or by a short alias (`group_size`). A bad file or override raises
`PresetError` naming the key and the values it accepts.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, get_args, get_origin, get_type_hints

from tournament.answers import yes_no

Game = Literal["backgammon", "draughts"]
GroupMethod = Literal["snake", "random"]
Pairing = Literal["seeded", "crossover"]
GroupTiebreak = Literal[
    "wins_among_tied",
    "points_diff_among_tied",
    "points_diff_overall",
    "head_to_head",
    "extra_game",
    "lot",
]
SeasonTiebreak = Literal["tournaments_won", "finals_played"]
ShortGame = Literal["2x5", "2x3", "2x2"]


def _rule(low: float | None = None, high: float | None = None) -> Any:
    return field(metadata={"low": low, "high": high})


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryRules:
    approval: bool
    members_only: bool
    minimum_age: int = _rule(0, 120)
    youngest_prize: bool
    veteran_prize: bool
    # A director may enter a player after the draw, placed by a new draw (/redraw)
    # until the first result; false where the entries are closed at the draw.
    walk_ins: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupRules:
    method: GroupMethod
    size: int = _rule(2, 64)
    qualifiers: int = _rule(0, 64)
    match_length: int = _rule(1, 99)
    round_minutes: int = _rule(1, 24 * 60)
    tiebreaks: tuple[GroupTiebreak, ...]
    forfeit_below_in_ties: bool
    void_single_win_forfeiter: bool
    tiebreak_game_length: int = _rule(1, 99)
    tiebreak_game_minutes: int = _rule(1, 24 * 60)  # NAV-TIE: one round of extra games


@dataclass(frozen=True, slots=True, kw_only=True)
class KnockoutRules:
    pairing: Pairing
    avoid_group_rematch: bool
    match_length: int = _rule(1, 99)
    semi_final_length: int = _rule(1, 99)
    final_length: int = _rule(1, 99)
    third_place: bool
    third_place_length: int = _rule(1, 99)
    consolation: bool
    consolation_length: int = _rule(1, 99)
    break_minutes: int = _rule(0, 24 * 60)


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoringRules:
    cube: bool
    crawford: bool
    single: int = _rule(0, 10)
    gammon: int = _rule(0, 10)
    backgammon: int = _rule(0, 10)
    group_tiebreak_games: tuple[ShortGame, ...]
    knockout_tiebreak_games: tuple[ShortGame, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class LatenessRules:
    step_minutes: int = _rule(1, 24 * 60)
    points_per_step: int = _rule(0, 99)
    forfeit_after_minutes: int = _rule(0, 24 * 60)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReminderRules:
    confirm_minutes_before: int = _rule(0, 30 * 24 * 60)
    checkin_minutes_before: int = _rule(0, 7 * 24 * 60)
    match_minutes_before: int = _rule(0, 24 * 60)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportingRules:
    accept_minutes: int = _rule(0, 7 * 24 * 60)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlacePoints:
    first: int
    last: int
    points: float


@dataclass(frozen=True, slots=True, kw_only=True)
class RankingRules:
    places: tuple[PlacePoints, ...]
    participation: float = _rule(0, 100)
    consolation_finalist: float = _rule(0, 100)
    per_match_won: float = _rule(0, 100)
    knockout_forfeit_loses_knockout_points: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonRules:
    official_tournaments: int = _rule(1, 366)
    prize_attendance: float = _rule(0, 1)
    tiebreaks: tuple[SeasonTiebreak, ...]
    novice_category: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockRules:
    reserve_minutes_per_point: float = _rule(0, 60)
    delay_seconds: int = _rule(0, 600)
    doubles_reserve_minutes_per_point: float = _rule(0, 60)
    doubles_delay_seconds: int = _rule(0, 600)
    under_way_minutes_per_point_scored: float = _rule(0, 60)
    final_stages_reserve_minutes: float = _rule(0, 600)
    final_stages_delay_seconds: int = _rule(0, 600)


@dataclass(frozen=True, slots=True, kw_only=True)
class PresetInfo:
    id: str
    name: str
    game: Game


@dataclass(frozen=True, slots=True, kw_only=True)
class Preset:
    preset: PresetInfo
    entry: EntryRules
    groups: GroupRules
    knockout: KnockoutRules
    scoring: ScoringRules
    lateness: LatenessRules
    reminders: ReminderRules
    reporting: ReportingRules
    ranking: RankingRules
    season: SeasonRules
    clock: ClockRules

    @property
    def id(self) -> str:
        return self.preset.id

    @property
    def game(self) -> Game:
        return self.preset.game


# Short names accepted in `/tournament new ... group_size:4`.
ALIASES: Mapping[str, str] = {
    "group_size": "groups.size",
    "group_method": "groups.method",
    "qualifiers": "groups.qualifiers",
    "group_length": "groups.match_length",
    "round_minutes": "groups.round_minutes",
    "knockout_length": "knockout.match_length",
    "semi_final_length": "knockout.semi_final_length",
    "final_length": "knockout.final_length",
    "third_place": "knockout.third_place",
    "consolation": "knockout.consolation",
    "pairing": "knockout.pairing",
    "approval": "entry.approval",
    "members_only": "entry.members_only",
    "minimum_age": "entry.minimum_age",
    "lateness_step": "lateness.step_minutes",
    "accept_minutes": "reporting.accept_minutes",
}

PRESET_NAMES: tuple[str, ...] = ("hgv-backgammon", "navodari-table", "warcaby-100")
# The preset whose season rules a game's ranking follows before the club played it.
GAME_PRESETS: dict[str, str] = {"backgammon": "hgv-backgammon", "draughts": "warcaby-100"}


ErrorCode = Literal[
    "choice",  # values: choices (the words it takes)
    "key",  # no such option; values: choices (the options there are)
    "whole_number",
    "number",
    "range",  # values: low, high
    "yes_no",
    "group_size",  # values: size (the group size qualifiers must fit in)
    "other",  # `allowed` says it in English
]


class PresetError(ValueError):
    """A preset file or override is invalid: `field` names the key, `code` and `values`
    say what fits (structured, for the catalogs), `allowed` says it in English."""

    def __init__(
        self,
        key: str,
        allowed: str,
        value: object = None,
        *,
        code: ErrorCode = "other",
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(f"{key}: expected {allowed}, got {value!r}")
        self.key = key
        self.allowed = allowed
        self.value = value
        self.code: ErrorCode = code
        self.values: dict[str, object] = dict(values or {})

    @property
    def field(self) -> str:
        """Return the key the error is about (dotted, or as typed when unknown)."""
        return self.key


def _choice(key: str, choices: Sequence[str], value: object) -> PresetError:
    """Return the error for a value outside a list of words."""
    return PresetError(
        key, " | ".join(choices), value, code="choice", values={"choices": tuple(choices)}
    )


def preset_names() -> tuple[str, ...]:
    """Return the names of the presets shipped with clubtd."""
    return PRESET_NAMES


def load_preset(name: str, overrides: Mapping[str, object] | None = None) -> Preset:
    """Load a shipped preset by name and apply overrides."""
    if name not in PRESET_NAMES:
        raise _choice("preset", PRESET_NAMES, name)
    shipped = _shipped(name)
    return apply_overrides(shipped, overrides) if overrides else shipped


@cache
def _shipped(name: str) -> Preset:
    """Return a shipped preset as its file says, read once: a Preset is immutable, and
    parsing one was half of a /tournament new (type hints evaluated by the thousand)."""
    text = resources.files("tournament.presets").joinpath(f"{name}.toml").read_text("utf-8")
    return parse_preset(text)


def parse_preset(text: str, overrides: Mapping[str, object] | None = None) -> Preset:
    """Parse preset TOML text, apply overrides, and validate every key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PresetError("file", "valid TOML", str(error)) from None
    preset: Preset = _build(Preset, data, "")
    if overrides:
        preset = apply_overrides(preset, overrides)
    _check_consistency(preset)
    return preset


def apply_overrides(preset: Preset, overrides: Mapping[str, object]) -> Preset:
    """Return a copy of `preset` with dotted or aliased keys replaced."""
    for raw_key, value in overrides.items():
        key = ALIASES.get(raw_key, raw_key)
        section_name, _, field_name = key.partition(".")
        section = getattr(preset, section_name, None) if field_name else None
        kind: type = type(section)
        hints = _hints(kind) if section is not None else {}
        if section is None or field_name not in hints or section_name == "preset":
            known = sorted(_all_keys())
            raise PresetError(
                raw_key,
                "one of " + ", ".join(known),
                value,
                code="key",
                values={"choices": tuple(known)},
            )
        converted = _convert(key, hints[field_name], value, from_text=isinstance(value, str))
        _check_range(type(section), field_name, key, converted)
        preset = replace(preset, **{section_name: replace(section, **{field_name: converted})})
    _check_consistency(preset)
    return preset


@cache
def override_keys() -> frozenset[str]:
    """Return every key an override may name: the aliases and the dotted keys."""
    return frozenset(_all_keys())


def _all_keys() -> list[str]:
    keys = list(ALIASES)
    for section in fields(Preset):
        if section.name == "preset":
            continue
        section_type = _hints(Preset)[section.name]
        keys.extend(f"{section.name}.{name}" for name in _hints(section_type))
    return keys


@cache
def _hints(cls: type) -> Mapping[str, Any]:
    # Evaluated from the annotations' text (compile per field): once per class, shared.
    return MappingProxyType(get_type_hints(cls))


def _build(cls: type, data: object, prefix: str) -> Any:
    if not isinstance(data, dict):
        raise PresetError(prefix or "file", "a table", data)
    hints = _hints(cls)
    unknown = sorted(set(data) - set(hints))
    if unknown:
        name = f"{prefix}{unknown[0]}"
        raise PresetError(name, "one of " + ", ".join(f"{prefix}{k}" for k in hints), None)
    values: dict[str, Any] = {}
    for name, hint in hints.items():
        key = f"{prefix}{name}"
        if name not in data:
            raise PresetError(key, "a value (the key is missing)", None)
        values[name] = _convert(key, hint, data[name], from_text=False)
        _check_range(cls, name, key, values[name])
    return cls(**values)


def _check_range(cls: type, name: str, key: str, value: object) -> None:
    meta: Mapping[str, float | None] = next(
        (f.metadata for f in fields(cls) if f.name == name), {}
    )
    low, high = meta.get("low"), meta.get("high")
    if low is None or high is None or not isinstance(value, int | float):
        return
    if isinstance(value, bool):
        return
    if not low <= value <= high:
        raise PresetError(
            key,
            f"a number from {low:g} to {high:g}",
            value,
            code="range",
            values={"low": f"{low:g}", "high": f"{high:g}"},
        )


def _convert(key: str, hint: Any, value: object, *, from_text: bool) -> Any:
    origin = get_origin(hint)
    if hint is bool:
        if from_text and isinstance(value, str) and (found := yes_no(value)) is not None:
            return found
        if isinstance(value, bool):
            return value
        raise PresetError(key, "true or false", value, code="yes_no")
    if hint is int:
        if from_text and isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise PresetError(key, "a whole number", value, code="whole_number")
    if hint is float:
        if from_text and isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                raise PresetError(key, "a number", value, code="number") from None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise PresetError(key, "a number", value, code="number")
    if hint is str:
        if isinstance(value, str) and value.strip():
            return value
        raise PresetError(key, "some text", value)
    if origin is Literal:
        allowed = get_args(hint)
        if value in allowed:
            return value
        raise _choice(key, [str(a) for a in allowed], value)
    if origin is tuple:
        (item,) = get_args(hint)[:1]
        if from_text and isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list | tuple):
            raise PresetError(key, "a list", value)
        return tuple(_convert(key, item, v, from_text=from_text) for v in value)
    if hint is PlacePoints:
        if (
            isinstance(value, list | tuple)
            and len(value) == 3
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
            and 1 <= int(value[0]) <= int(value[1])
        ):
            return PlacePoints(first=int(value[0]), last=int(value[1]), points=float(value[2]))
        raise PresetError(key, "[first place, last place, points] with first <= last", value)
    if isinstance(hint, type) and hasattr(hint, "__dataclass_fields__"):
        return _build(hint, value, f"{key}.")
    raise PresetError(key, "a supported value", value)  # pragma: no cover - schema bug


def _check_consistency(preset: Preset) -> None:
    groups = preset.groups
    if groups.qualifiers > groups.size:
        raise PresetError(
            "groups.qualifiers",
            f"at most the group size ({groups.size})",
            groups.qualifiers,
            code="group_size",
            values={"size": groups.size},
        )
    if not groups.tiebreaks:
        raise PresetError("groups.tiebreaks", "at least one tiebreak", [])
    last = groups.tiebreaks[-1]
    if last not in ("lot", "extra_game"):
        raise PresetError("groups.tiebreaks", "a chain ending in lot or extra_game", last)
    previous = 0
    for place in preset.ranking.places:
        if place.first <= previous:
            raise PresetError(
                "ranking.places", "place ranges in order, without overlap", place.first
            )
        previous = place.last
