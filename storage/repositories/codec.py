"""Turn a TournamentState into table rows and back.

A row is a plain dict of column values. The repository keeps the rows of every state it
loaded and compares them with the rows of the state it is asked to save: equal rows are
not written. Presence spans, reports, games and the draw are JSON documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from functools import lru_cache
from itertools import compress
from operator import attrgetter, ne
from typing import Any, cast

from storage.types import required_time_from_json, time_from_json, time_to_json
from tournament import folding
from tournament.model import EntryStatus, MatchStatus, Stage, TournamentStatus
from tournament.preset import PlacePoints, Preset, load_preset
from tournament.scoring import GameRecord, Side
from tournament.state import (
    DrawRecord,
    Entry,
    Group,
    Match,
    Penalty,
    Placement,
    Report,
    Span,
    TournamentState,
)

Row = dict[str, Any]


fold_name = folding.key  # a name as look-ups compare it (tournament/folding.py)


@dataclass(slots=True)
class Rows:
    """The rows one tournament is stored as, each collection by its natural key."""

    tournament: Row
    preset: Preset
    entries: dict[int, Row] = field(default_factory=dict)
    matches: dict[int, Row] = field(default_factory=dict)
    penalties: dict[str, Row] = field(default_factory=dict)
    done: dict[str, Row] = field(default_factory=dict)
    placements: dict[int, Row] = field(default_factory=dict)
    version: int = 1
    # What each collection's rows were made from: an unchanged match reuses its row.
    facts: dict[str, Made] = field(default_factory=dict, repr=False, compare=False)
    # The keys of each collection whose rows `rows_of` made anew rather than reused from
    # the rows it was given (None: it was given none, every row is new).
    fresh: dict[str, list[Any]] | None = field(default=None, repr=False, compare=False)
    # When the next action of the state these rows store falls due, once a command has
    # worked it out: `(when,)`, `(None,)` for nothing waiting; None when not known.
    deadline: tuple[datetime | None] | None = field(default=None, repr=False, compare=False)
    # By match number, when each live match's first action falls due (due.next_deadline's
    # memo), for these rows: a save keeps the figures of matches it left as they were.
    deadlines: dict[int, datetime | None] = field(default_factory=dict, repr=False, compare=False)


# -- presets --


@lru_cache(maxsize=256)
def _cached_preset(name: str, overrides: tuple[tuple[str, str], ...]) -> Preset:
    return load_preset(name, dict(overrides) or None)


def preset_for(name: str, overrides: Mapping[str, str]) -> Preset:
    """Return the preset a tournament was created with (presets are frozen: shared)."""
    return _cached_preset(name, tuple(sorted(overrides.items())))


def _override_text(key: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        if any(isinstance(item, PlacePoints) for item in value):
            raise ValueError(f"{key} cannot be stored as an override")
        return ",".join(_override_text(key, item) for item in value)
    return str(value)


def overrides_between(base: Preset, preset: Preset) -> dict[str, str]:
    """Return the dotted overrides that turn `base` into `preset`, as override texts."""
    result: dict[str, str] = {}
    for section in fields(base):
        if section.name == "preset":
            continue
        old, new = getattr(base, section.name), getattr(preset, section.name)
        for item in fields(old):
            value = getattr(new, item.name)
            if getattr(old, item.name) != value:
                key = f"{section.name}.{item.name}"
                result[key] = _override_text(key, value)
    if preset_for(preset.id, result) != preset:
        raise ValueError("the changed preset cannot be expressed as overrides")
    return result


# -- tournament --


def tournament_row(state: TournamentState) -> Row:
    """Return the columns of the tournament itself that the state decides."""
    return {
        "name": state.name,
        "name_key": fold_name(state.name),
        "start": state.start,
        "seed": state.seed,
        "status": state.status.value,
        "official": state.official,
        "created_at": state.created_at,
        "finished_at": state.finished_at,
        "draw": _draw_json(state.draw),
        "groups": [{"name": g.name, "players": list(g.players)} for g in state.groups],
    }


def _draw_json(draw: DrawRecord | None) -> dict[str, Any] | None:
    if draw is None:
        return None
    return {
        "method": draw.method,
        "seed": draw.seed,
        "fingerprint": draw.fingerprint,
        "ranking": list(draw.ranking),
        "players": list(draw.players),
        "at": time_to_json(draw.at),
    }


def _draw_from(doc: Mapping[Any, Any] | None) -> DrawRecord | None:
    if doc is None:
        return None
    return DrawRecord(
        method=doc["method"],
        seed=doc["seed"],
        fingerprint=doc["fingerprint"],
        ranking=tuple(doc["ranking"]),
        players=tuple(doc["players"]),
        at=required_time_from_json(doc["at"]),
    )


def state_from(row: Mapping[Any, Any], preset: Preset) -> TournamentState:
    """Return a tournament without its entries, matches and other children."""
    return TournamentState(
        id=row["id"],
        name=row["name"],
        preset=preset,
        start=row["start"],
        seed=row["seed"],
        status=TournamentStatus(row["status"]),
        official=row["official"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
        draw=_draw_from(row["draw"]),
        groups=[Group(name=g["name"], players=tuple(g["players"])) for g in row["groups"]],
    )


def restore(rows: Rows, tournament_id: int) -> TournamentState:
    """Return the state `rows` store, as a load from the database would build it."""
    state = state_from({**rows.tournament, "id": tournament_id}, rows.preset)
    fill(
        state,
        entries=rows.entries.values(),
        matches=rows.matches.values(),
        penalties=rows.penalties.values(),
        done=rows.done.values(),
        placements=rows.placements.values(),
    )
    return state


def fill(
    state: TournamentState,
    *,
    entries: Iterable[Mapping[Any, Any]],
    matches: Iterable[Mapping[Any, Any]],
    penalties: Iterable[Mapping[Any, Any]],
    done: Iterable[Mapping[Any, Any]],
    placements: Iterable[Mapping[Any, Any]],
) -> None:
    """Add a tournament's children to `state`, from their rows."""
    for row in entries:
        entry = entry_from(row)
        state.entries[entry.player] = entry
    for row in matches:
        match = match_from(row)
        state.matches[match.number] = match
    for row in penalties:
        penalty = penalty_from(row)
        state.penalties[penalty.key] = penalty
    for row in done:
        state.done[row["key"]] = row["due"]
    ordered = sorted(placements, key=lambda r: r["ordinal"])
    state.placements = [placement_from(r) for r in ordered]


# -- spans --


def _spans_json(spans: list[Span]) -> list[list[str | None]]:
    return [[time_to_json(s.start), time_to_json(s.end)] for s in spans]


def _spans_from(doc: list[list[str | None]]) -> list[Span]:
    return [
        Span(start=required_time_from_json(cast(str, a)), end=time_from_json(b)) for a, b in doc
    ]


# -- entries --


def entry_row(entry: Entry) -> Row:
    return {
        "player_id": entry.player,
        "registered_at": entry.registered_at,
        "status": entry.status.value,
        "approved": entry.approved,
        "confirmed_at": entry.confirmed_at,
        "withdrawn_at": entry.withdrawn_at,
        "seed": entry.seed,
        "born": entry.born,
        "novice": entry.novice,
        "knockout_forfeit": entry.knockout_forfeit,
        "presence": _spans_json(entry.presence),
    }


def entry_from(row: Mapping[Any, Any]) -> Entry:
    born: date | None = row["born"]
    return Entry(
        player=row["player_id"],
        registered_at=row["registered_at"],
        status=EntryStatus(row["status"]),
        approved=row["approved"],
        confirmed_at=row["confirmed_at"],
        withdrawn_at=row["withdrawn_at"],
        seed=row["seed"],
        born=born,
        novice=row["novice"],
        knockout_forfeit=row["knockout_forfeit"],
        presence=_spans_from(row["presence"]),
    )


# -- matches --


def _pairs(pairs: tuple[tuple[int, int], ...]) -> list[list[int]]:
    return [[a, b] for a, b in pairs]


def _pairs_from(doc: list[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a, b in doc)


def _report_json(report: Report | None) -> dict[str, Any] | None:
    if report is None:
        return None
    return {
        "by": report.by,
        "white": report.white,
        "black": report.black,
        "at": time_to_json(report.at),
        "seq": report.seq,
        "tiebreaks": _pairs(report.tiebreaks),
        "lot_winner": report.lot_winner,
        "counter": _report_json(report.counter),
    }


def _report_from(doc: Mapping[Any, Any] | None) -> Report | None:
    if doc is None:
        return None
    return Report(
        by=doc["by"],
        white=doc["white"],
        black=doc["black"],
        at=required_time_from_json(doc["at"]),
        seq=doc["seq"],
        tiebreaks=_pairs_from(doc["tiebreaks"]),
        lot_winner=cast(Side | None, doc["lot_winner"]),
        counter=_report_from(doc.get("counter")),
    )


def match_row(match: Match) -> Row:
    return {
        "number": match.number,
        "stage": match.stage.value,
        "round": match.round,
        "length": match.length,
        "white": match.white,
        "black": match.black,
        "start": match.start,
        "group_name": match.group,
        "bracket_key": match.key,
        "round_name": match.round_name,
        "bracket_index": match.index,
        "white_from": match.white_from,
        "black_from": match.black_from,
        "created_at": match.created_at,
        "status": match.status.value,
        "white_score": match.white_score,
        "black_score": match.black_score,
        "winner": match.winner,
        "forfeited_by": sorted(match.forfeited_by),
        "finished_at": match.finished_at,
        "report": _report_json(match.report),
        "report_seq": match.report_seq,
        "disputed_by": match.disputed_by,
        "games": [{"winner": g.winner, "kind": g.kind, "cube": g.cube} for g in match.games],
        "tiebreaks": _pairs(match.tiebreaks),
        "lot_winner": match.lot_winner,
        "pauses": _spans_json(match.pauses),
    }


def match_from(row: Mapping[Any, Any]) -> Match:
    return Match(
        number=row["number"],
        stage=Stage(row["stage"]),
        round=row["round"],
        length=row["length"],
        white=row["white"],
        black=row["black"],
        start=row["start"],
        group=row["group_name"],
        key=row["bracket_key"],
        round_name=row["round_name"],
        index=row["bracket_index"],
        white_from=row["white_from"],
        black_from=row["black_from"],
        created_at=row["created_at"],
        status=MatchStatus(row["status"]),
        white_score=row["white_score"],
        black_score=row["black_score"],
        winner=row["winner"],
        forfeited_by=frozenset(row["forfeited_by"]),
        finished_at=row["finished_at"],
        report=_report_from(row["report"]),
        report_seq=row["report_seq"],
        disputed_by=row["disputed_by"],
        games=tuple(GameRecord(g["winner"], g["kind"], g["cube"]) for g in row["games"]),
        tiebreaks=_pairs_from(row["tiebreaks"]),
        lot_winner=row["lot_winner"],
        pauses=_spans_from(row["pauses"]),
    )


# -- penalties, done actions, placements --


def penalty_row(penalty: Penalty) -> Row:
    return {
        "key": penalty.key,
        "match_number": penalty.match,
        "against": penalty.against,
        "points": penalty.points,
        "at": penalty.at,
        "cancelled": penalty.cancelled,
    }


def penalty_from(row: Mapping[Any, Any]) -> Penalty:
    return Penalty(
        key=row["key"],
        match=row["match_number"],
        against=row["against"],
        points=row["points"],
        at=row["at"],
        cancelled=row["cancelled"],
    )


def done_row(key: str, due: datetime) -> Row:
    return {"key": key, "due": due}


def placement_row(placement: Placement, ordinal: int) -> Row:
    return {
        "player_id": placement.player,
        "ordinal": ordinal,
        "place": placement.place,
        "points": placement.points,
    }


def placement_from(row: Mapping[Any, Any]) -> Placement:
    return Placement(place=row["place"], player=row["player_id"], points=row["points"])


# The fields changed in place (a report answered, a pause or a presence closed): read by
# value below. Every other field is immutable, so reading it is enough.
_IN_PLACE = {"report", "pauses", "presence"}
# Everything a match or entry row is made of, read at C speed: equal facts, equal row.
# Derived from the dataclasses, so a field added to Match or Entry is never missed.
_MATCH_FACTS = attrgetter(*(f.name for f in fields(Match) if f.name not in _IN_PLACE))
_ENTRY_FACTS = attrgetter(*(f.name for f in fields(Entry) if f.name not in _IN_PLACE))
_PENALTY_FACTS = attrgetter(*(f.name for f in fields(Penalty)))
_DRAW_FACTS = attrgetter(*(f.name for f in fields(DrawRecord)))
_REPORT = attrgetter("report")
_PAUSES = attrgetter("pauses")
_PRESENCE = attrgetter("presence")


@dataclass(slots=True)
class Made:
    """What a collection's rows were made from: each key's facts, in the state's order."""

    keys: list[Any]
    facts: list[Any]


def _report_facts(report: Report | None) -> tuple[Any, ...] | None:
    # A report is changed in place (accepted, countered): its values, not the object.
    if report is None:
        return None
    return (
        report.by,
        report.white,
        report.black,
        report.at,
        report.seq,
        report.tiebreaks,
        report.lot_winner,
        _report_facts(report.counter),
    )


def _spans_facts(spans: list[Span]) -> tuple[tuple[datetime, datetime | None], ...]:
    if not spans:
        return ()  # most matches were never paused, most entries have one presence
    return tuple([(span.start, span.end) for span in spans])


def _match_facts(matches: list[Match]) -> list[tuple[Any, ...]]:
    # Column by column: the loops that call Python only look at what is there.
    reports = [None if r is None else _report_facts(r) for r in map(_REPORT, matches)]
    pauses = [_spans_facts(p) if p else () for p in map(_PAUSES, matches)]
    return list(zip(map(_MATCH_FACTS, matches), reports, pauses, strict=True))


def _entry_facts(entries: list[Entry]) -> list[tuple[Any, ...]]:
    presence = [_spans_facts(p) if p else () for p in map(_PRESENCE, entries)]
    return list(zip(map(_ENTRY_FACTS, entries), presence, strict=True))


def _head_facts(state: TournamentState) -> tuple[Any, ...]:
    draw = None if state.draw is None else _DRAW_FACTS(state.draw)
    groups = tuple([(g.name, g.players) for g in state.groups])
    return (
        state.name,
        state.start,
        state.seed,
        state.status,
        state.official,
        state.created_at,
        state.finished_at,
        draw,
        groups,
    )


def _reuse(
    made: Made,
    objects: list[Any],
    build: Callable[[Any, Any], Row],
    known: Made | None,
    rows: dict[Any, Row] | None,
) -> tuple[dict[Any, Row], list[Any]]:
    """Return a collection's rows and the keys whose rows were made anew: an object
    whose facts equal those `known` (the rows `rows` were made from) keeps its row."""
    if known is None or rows is None:
        return {k: build(k, o) for k, o in zip(made.keys, objects, strict=True)}, made.keys
    if known.keys == made.keys:
        # The same keys in the same order (no match added): compared at C speed.
        changed = list(compress(range(len(made.keys)), map(ne, known.facts, made.facts)))
        out = dict(rows)
        for index in changed:
            key = made.keys[index]
            out[key] = build(key, objects[index])
        return out, [made.keys[i] for i in changed]
    before = dict(zip(known.keys, known.facts, strict=True))
    out, fresh = {}, []
    for key, fact, item in zip(made.keys, made.facts, objects, strict=True):
        if key in rows and before.get(key, _NOTHING) == fact:
            out[key] = rows[key]
        else:
            out[key] = build(key, item)
            fresh.append(key)
    return out, fresh


_NOTHING = object()  # never equal to a fact


def rows_of(state: TournamentState, version: int = 1, previous: Rows | None = None) -> Rows:
    """Return every row of a state, as they are (to be) stored.

    With `previous` (the rows last saved or loaded), a match, entry, penalty or done
    action whose facts are unchanged keeps its row object, and `fresh` names the rows
    made anew: a /report changes one match of a hundred, and building every row anew to
    compare them was most of a save.
    """
    was = previous.facts if previous is not None else {}
    matches = list(state.matches.values())
    entries = list(state.entries.values())
    penalties = list(state.penalties.values())
    facts = {
        "matches": Made(list(state.matches), _match_facts(matches)),
        "entries": Made(list(state.entries), _entry_facts(entries)),
        "penalties": Made(list(state.penalties), list(map(_PENALTY_FACTS, penalties))),
        "done": Made(list(state.done), list(state.done.values())),
        "head": Made([], [_head_facts(state)]),
    }
    # The tournament's own row too: its groups and draw are JSON made anew otherwise.
    kept = previous is not None and was.get("head") == facts["head"]
    fresh: dict[str, list[Any]] = {}
    out: dict[str, dict[Any, Row]] = {}
    for name, objects, build in (
        ("matches", matches, _match_row),
        ("entries", entries, _entry_row),
        ("penalties", penalties, _penalty_row),
        ("done", facts["done"].facts, done_row),
    ):
        rows = None if previous is None else getattr(previous, name)
        out[name], fresh[name] = _reuse(facts[name], objects, build, was.get(name), rows)
    return Rows(
        tournament=previous.tournament if kept and previous else tournament_row(state),
        preset=state.preset,
        entries=out["entries"],
        matches=out["matches"],
        penalties=out["penalties"],
        done=out["done"],
        placements={p.player: placement_row(p, i) for i, p in enumerate(state.placements)},
        version=version,
        facts=facts,
        fresh=fresh if previous is not None else None,
    )


def _match_row(_number: int, match: Match) -> Row:
    return match_row(match)


def _entry_row(_player: int, entry: Entry) -> Row:
    return entry_row(entry)


def _penalty_row(_key: str, penalty: Penalty) -> Row:
    return penalty_row(penalty)
