"""Tournaments: load a whole TournamentState, save only the rows that changed."""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Select, Table, Update, bindparam, case, delete, insert, select, update

from storage import tables as t
from storage.engine import DatabaseConnection
from storage.repositories import codec
from storage.repositories.base import NotFound, SqlRepository, StaleState
from storage.transaction import HeldWrite, Transaction
from tournament.calendar import Listed
from tournament.model import EntryStatus, TournamentStatus
from tournament.ranking import TournamentRecord
from tournament.state import TournamentState

_IN_PLAY = (TournamentStatus.GROUPS.value, TournamentStatus.KNOCKOUT.value)

# Built once: every command asks for these, and building a statement costs more than
# running it on SQLite (issue 17).
_TID = bindparam("tournament_id", type_=t.tournaments.c.id.type)
_HEAD = select(t.tournaments.c.id, t.tournaments.c.version).where(t.tournaments.c.id == _TID)
_HEAD_LOCKED = _HEAD.with_for_update()
_BY_ID = select(t.tournaments).where(t.tournaments.c.id == _TID)
_BY_ID_LOCKED = _BY_ID.with_for_update()
# What `list` reads of each tournament (clubs.for_chat can read it in its own query).
LISTED_COLUMNS = (
    t.tournaments.c.id,
    t.tournaments.c.name,
    t.tournaments.c.start,
    t.tournaments.c.status,
    t.tournaments.c.version,
)
_LISTED = (
    select(*LISTED_COLUMNS)
    .where(t.tournaments.c.club_id == bindparam("club_id"))
    .order_by(t.tournaments.c.start, t.tournaments.c.id)
)
_LISTED_LOCKED = _LISTED.with_for_update()
_UNFINISHED = (
    select(t.tournaments.c.id, t.tournaments.c.club_id)
    .where(
        t.tournaments.c.status.not_in(
            (TournamentStatus.FINISHED.value, TournamentStatus.CANCELLED.value)
        )
    )
    .order_by(t.tournaments.c.id)
)
# A save's version check and bump; the columns that changed are bound at execution.
_BUMP = (
    update(t.tournaments)
    .where(
        t.tournaments.c.id == bindparam("b_id", type_=t.tournaments.c.id.type),
        t.tournaments.c.version == bindparam("b_version", type_=t.tournaments.c.version.type),
    )
    .values(version=t.tournaments.c.version + 1)
)


@dataclass(frozen=True, slots=True)
class _Child:
    """A child table and the column that is its key within one tournament."""

    table: Table
    key: str
    attribute: str  # the Rows field holding its rows


_CHILDREN = (
    _Child(t.entries, "player_id", "entries"),
    _Child(t.matches, "number", "matches"),
    _Child(t.penalties, "key", "penalties"),
    _Child(t.done_actions, "key", "done"),
    _Child(t.placements, "player_id", "placements"),
)


# One process serves up to ~1,000 clubs (issue 17), each with its tournament of the night
# (~130 KB cached at 16 players, ~360 KB at 46): kept at 64, most commands of a busy
# process would load their tournament whole.
MAX_TOURNAMENTS = 1024


class StateCache:
    """Loaded tournaments kept between units of work of one process.

    A command on a 46-player night otherwise spends most of its time decoding the same
    rows again. An entry is used only while its version matches the stored one and only
    by a unit of work that holds the tournament (SQLite's IMMEDIATE transaction, or a
    row lock on PostgreSQL); the state object itself is handed out, so a unit of work
    that does not commit evicts what it took before its transaction ends. One handed out
    for update is out until it comes back (`put`, `evict`): a lock-free unit of work
    holds no lock, and a second one in this process then loads a state of its own.
    """

    def __init__(self, size: int = MAX_TOURNAMENTS) -> None:
        self._size = size  # tournaments kept; the least recently used goes first
        self._states: dict[int, tuple[int, TournamentState, codec.Rows]] = {}
        self._out: set[int] = set()  # handed out for update, not back yet

    def take(
        self, tournament_id: int, version: int, *, for_update: bool = False
    ) -> tuple[TournamentState, codec.Rows] | None:
        """Return the state cached at `version` and its rows; None if not cached, or if
        it is out and asked `for_update` (then it is out until put back or evicted)."""
        found = self._states.get(tournament_id)
        if found is None or found[0] != version:
            return None
        if for_update:
            if tournament_id in self._out:
                return None
            self._out.add(tournament_id)
        self._states[tournament_id] = self._states.pop(tournament_id)  # recently used
        return found[1], found[2]

    def put(self, state: TournamentState, rows: codec.Rows) -> None:
        self._states.pop(state.id, None)
        self._out.discard(state.id)
        self._states[state.id] = (rows.version, state, rows)
        while len(self._states) > self._size:
            self.evict([next(iter(self._states))])

    def __len__(self) -> int:
        return len(self._states)

    def evict(self, tournament_ids: Iterable[int]) -> None:
        for tournament_id in tournament_ids:
            self._states.pop(tournament_id, None)
            self._out.discard(tournament_id)

    def keep_unchanged(self, states: Mapping[int, tuple[TournamentState, codec.Rows]]) -> None:
        """Settle the states a unit of work took for update and did not commit: each one
        that still serialises to the rows it was loaded as is (again) what the database
        holds, and is kept; a changed one leaves. A refused command must not cost the
        next command a whole load."""
        for tournament_id, (state, rows) in states.items():
            if codec.rows_of(state, rows.version, rows) == rows:
                self.put(state, rows)
            else:
                self._states.pop(tournament_id, None)


@dataclass(slots=True)
class SaveStats:
    """How many rows the last save wrote, per table (for tests and benchmarks)."""

    inserted: dict[str, int]
    updated: dict[str, int]
    deleted: dict[str, int]


class SqlTournamentRepository(SqlRepository):
    """Tournaments of every club; remembers the rows of each state it loaded."""

    def __init__(
        self,
        transaction: Transaction,
        cache: StateCache | None = None,
        *,
        serialised: bool = False,
    ) -> None:
        super().__init__(transaction)
        self._loaded: dict[int, codec.Rows] = {}
        self.last_save: SaveStats | None = None
        self._cache = cache
        self._serialised = serialised  # every transaction holds the database (SQLite)
        self._taken: set[int] = set()  # cached states handed out in this unit of work
        # Versions read by `list` in this transaction (locked, or SQLite's serialised).
        self._versions: dict[int, int] = {}
        self._states_out: dict[int, TournamentState] = {}
        # Each club's listing read in this transaction, and whether it was locked: a
        # command lists its club's tournaments in more than one place (issue 17).
        self._listed: dict[int, tuple[bool, builtins.list[Listed]]] = {}
        # Of those, the ones taken for update, with the rows they were loaded as.
        self._for_update: dict[int, codec.Rows] = {}

    def forget(self) -> None:
        """Drop the remembered rows (after a rollback): the next save compares with the
        database; states this unit of work may have changed leave the cache."""
        self._loaded.clear()
        self._versions.clear()
        self._listed.clear()
        if self._cache is not None:
            # Kept only if taken for update (a command's, refused: its session goes with
            # it) and unchanged. A reader holds a copy: what it loaded without committing
            # leaves, as a state this unit of work saved.
            kept = {
                i: (self._states_out[i], self._for_update[i])
                for i in self._taken
                if i in self._for_update
            }
            self._cache.evict(i for i in self._taken if i not in kept)
            self._cache.keep_unchanged(kept)
        self._taken.clear()

    def committed(self) -> None:
        """Keep the states this unit of work saved, at their new versions."""
        self._versions.clear()
        self._listed.clear()
        if self._cache is None:
            return
        for tournament_id in self._taken:
            rows = self._loaded.get(tournament_id)
            state = self._states_out.get(tournament_id)
            if rows is not None and state is not None:
                self._cache.put(state, rows)
            else:
                self._cache.evict([tournament_id])  # never left out
        self._taken.clear()

    async def add(
        self, club_id: int, state: TournamentState, overrides: Mapping[str, str]
    ) -> TournamentState:
        """Store a new tournament; return it with its id set."""
        stored = dict(overrides)
        if codec.preset_for(state.preset.id, stored) != state.preset:
            raise ValueError("the state's preset is not its preset name with these overrides")
        conn = await self._conn()
        self._listed.pop(club_id, None)
        rows = codec.rows_of(state)
        values = {
            **rows.tournament,
            "club_id": club_id,
            "preset_name": state.preset.id,
            "overrides": stored,
            "version": 1,
        }
        result = await conn.execute(
            insert(t.tournaments).values(values).returning(t.tournaments.c.id)
        )
        state.id = result.scalar_one()
        for child in _CHILDREN:
            new: dict[Any, codec.Row] = getattr(rows, child.attribute)
            if new:
                await conn.execute(
                    _INSERTS[child.table.name],
                    [{**r, "tournament_id": state.id} for r in new.values()],
                )
        self._loaded[state.id] = rows
        return state

    async def get(self, tournament_id: int, *, for_update: bool = False) -> TournamentState:
        """Load a tournament; `for_update` locks it until commit (PostgreSQL)."""
        version = self._versions.get(tournament_id)
        if version is not None:
            cached = self._cached(tournament_id, version, for_update)
            if cached is not None:
                return cached
        asked = {"tournament_id": tournament_id}
        locking = self._locking(for_update)
        query = _BY_ID_LOCKED if locking else _BY_ID  # built once, locked already
        head = (_HEAD_LOCKED if locking else _HEAD, asked)
        state = await self._load(query, for_update=for_update, head=head, params=asked)
        if state is None:
            raise NotFound(f"tournament {tournament_id}")
        return state

    async def _load(
        self,
        query: Select[Any],
        *,
        for_update: bool,
        head: tuple[Select[Any], dict[str, Any]] | None = None,
        params: dict[str, Any] | None = None,
    ) -> TournamentState | None:
        """Load the tournament `query` finds; `params` bind a prebuilt query, which then
        carries its own FOR UPDATE."""
        conn = await self._conn()
        if self._locking(for_update) and params is None:
            # SQLite renders no FOR UPDATE: its BEGIN IMMEDIATE already serialises writers.
            query = query.with_for_update()
        cacheable = self._cache is not None and (for_update or self._serialised)
        if cacheable and self._cache is not None:
            # Ask for the version first: a cached state at that version needs no more.
            c = t.tournaments.c
            asked = head or (query.with_only_columns(c.id, c.version), {})
            found = (await conn.execute(*asked)).first()
            if found is None:
                return None
            cached = self._cached(found.id, found.version, for_update)
            if cached is not None:
                return cached
            query, params = _BY_ID, {"tournament_id": found.id}  # the head locked it
        row = (await conn.execute(query, params)).mappings().first()
        if row is None:
            return None
        tournament_id = row["id"]
        preset = codec.preset_for(row["preset_name"], row["overrides"])
        state = codec.state_from(row, preset)
        children = {
            c.attribute: await _child_rows(conn, c.table, tournament_id) for c in _CHILDREN
        }
        codec.fill(state, **children)
        # Snapshot what the state serialises to, not what came back: an untouched state
        # then compares equal whatever a driver does to JSON key order or dates.
        rows = self._loaded[state.id] = codec.rows_of(state, row["version"])
        if cacheable and for_update:
            return self._hand_out(state, rows)
        if cacheable and state.id not in self._states_out:
            # Kept for the next command once committed; a reader gets its own copy.
            self._taken.add(state.id)
            self._states_out[state.id] = state
            return codec.restore(rows, state.id)
        return state

    def _cached(
        self, tournament_id: int, version: int, for_update: bool
    ) -> TournamentState | None:
        """Return the cached state at `version` to a unit of work that holds it for
        update, a copy to a reader (it may keep its state after its transaction, and must
        never hold the object the next command changes); None when not cached."""
        own = self._states_out.get(tournament_id)
        loaded = self._loaded.get(tournament_id)
        if own is not None and loaded is not None and loaded.version == version:
            return own  # this unit of work's own, with its changes
        if self._cache is None:
            return None
        hit = self._cache.take(tournament_id, version, for_update=for_update)
        if hit is None:
            return None
        state, rows = hit
        self._loaded[tournament_id] = rows
        return self._hand_out(state, rows) if for_update else codec.restore(rows, tournament_id)

    def _hand_out(self, state: TournamentState, rows: codec.Rows) -> TournamentState:
        """Return `state` to the unit of work that takes it for update."""
        self._taken.add(state.id)
        self._states_out[state.id] = state
        self._for_update.setdefault(state.id, rows)  # as first loaded: a save replaces
        return state

    async def current(self, club_id: int, *, for_update: bool = False) -> TournamentState | None:
        """Return the club's tournament in play, else the latest one open for entries,
        else the latest finished one."""
        c = t.tournaments.c
        rank = case(
            (c.status.in_(_IN_PLAY), 0),
            (c.status == TournamentStatus.REGISTRATION.value, 1),
            else_=2,
        )
        query = (
            select(t.tournaments)
            .where(c.club_id == club_id, c.status != TournamentStatus.CANCELLED.value)
            .order_by(rank, c.start.desc(), c.id.desc())
            .limit(1)
        )
        return await self._load(query, for_update=for_update)

    async def by_name(self, club_id: int, name: str) -> TournamentState | None:
        """Return the club's latest tournament of that name, matched ignoring case."""
        c = t.tournaments.c
        query = (
            select(c.id)
            .where(c.club_id == club_id, c.name_key == codec.fold_name(name))
            .order_by(c.start.desc(), c.id.desc())
            .limit(1)
        )
        tournament_id = (await (await self._conn()).execute(query)).scalar_one_or_none()
        return None if tournament_id is None else await self.get(tournament_id)

    async def list(self, club_id: int, *, for_update: bool = False) -> builtins.list[Listed]:
        """Return every tournament of the club as a typed row, by start; `for_update`
        locks them until commit (PostgreSQL), as a command that writes lists them; asked
        again in this transaction, the listing read then serves."""
        known = self._listed.get(club_id)
        if known is not None and (known[0] or not for_update):
            return builtins.list(known[1])
        query = _LISTED_LOCKED if self._locking(for_update) else _LISTED
        rows = (await (await self._conn()).execute(query, {"club_id": club_id})).all()
        return builtins.list(self.take_listing(club_id, rows, for_update=for_update))

    def take_listing(
        self, club_id: int, rows: Iterable[Sequence[Any]], *, for_update: bool
    ) -> builtins.list[Listed]:
        """Remember the club's tournaments as read in this transaction: (id, name, start,
        status, version) each, by start; `for_update` when they are locked until commit."""
        rows = builtins.list(rows)
        if self._cache is not None and (for_update or self._serialised):
            # The versions stand until this transaction ends or saves one: a `get` of
            # one of them needs no version query of its own.
            self._versions.update((r[0], r[4]) for r in rows)
        listed = [Listed(r[0], r[1], r[2], TournamentStatus(r[3])) for r in rows]
        self._listed[club_id] = (for_update, listed)
        return listed

    async def of_player(self, player_id: int, *, active: bool = False) -> builtins.list[int]:
        """Return the ids of the tournaments `player_id` has an entry in, oldest first
        (`active`: only where the entry is still active)."""
        e = t.entries.c
        query = select(e.tournament_id).where(e.player_id == player_id).order_by(e.tournament_id)
        if active:
            query = query.where(e.status == EntryStatus.ACTIVE.value)
        return [r.tournament_id for r in await (await self._conn()).execute(query)]

    async def unfinished(self) -> builtins.list[tuple[int, int]]:
        """Return (tournament id, club id) of every tournament not finished (or cancelled)."""
        result = await (await self._conn()).execute(_UNFINISHED)
        return [(r.id, r.club_id) for r in result]

    async def overrides(self, tournament_id: int) -> dict[str, str]:
        query = select(t.tournaments.c.overrides).where(t.tournaments.c.id == tournament_id)
        value = (await (await self._conn()).execute(query)).scalar_one_or_none()
        if value is None:
            raise NotFound(f"tournament {tournament_id}")
        return dict(value)

    async def club_of(self, tournament_id: int) -> int:
        query = select(t.tournaments.c.club_id).where(t.tournaments.c.id == tournament_id)
        club_id = (await (await self._conn()).execute(query)).scalar_one_or_none()
        if club_id is None:
            raise NotFound(f"tournament {tournament_id}")
        return int(club_id)

    async def records(self, club_id: int) -> builtins.list[TournamentRecord]:
        """Return every finished tournament's ranking contribution, oldest first."""
        conn = await self._conn()
        c = t.tournaments.c
        finished = (
            await conn.execute(
                select(c.id, c.name, c.official, c.preset_name, c.overrides)
                .where(c.club_id == club_id, c.status == TournamentStatus.FINISHED.value)
                .order_by(c.start, c.id)
            )
        ).all()
        if not finished:
            return []
        ids = [r.id for r in finished]
        p = t.placements.c
        placed: dict[int, list[Any]] = {i: [] for i in ids}
        placed_query = (
            select(p.tournament_id, p.player_id, p.place, p.points)
            .where(p.tournament_id.in_(ids))
            .order_by(p.tournament_id, p.ordinal)
        )
        for row in await conn.execute(placed_query):
            placed[row.tournament_id].append(row)
        e = t.entries.c
        novices: dict[int, set[int]] = {i: set() for i in ids}
        novice_query = select(e.tournament_id, e.player_id).where(
            e.tournament_id.in_(ids), e.novice.is_(True)
        )
        for novice in await conn.execute(novice_query):
            novices[novice.tournament_id].add(novice.player_id)
        records = []
        for tournament in finished:
            rows = placed[tournament.id]
            by_place = {r.place: r.player_id for r in rows if r.place in (1, 2)}
            records.append(
                TournamentRecord(
                    tournament=tournament.name,
                    tournament_id=tournament.id,
                    official=tournament.official,
                    points={r.player_id: Decimal(r.points) for r in rows},
                    champion=by_place.get(1),
                    finalists=tuple(by_place[place] for place in (1, 2) if place in by_place),
                    novices=frozenset(novices[tournament.id]),
                    game=codec.preset_for(tournament.preset_name, tournament.overrides).game,
                )
            )
        return records

    async def save(self, state: TournamentState) -> None:
        """Write what changed since the state was loaded or added, bumping its version."""
        conn = await self._conn()
        before = self._loaded.get(state.id)
        if before is None:
            before = await self._stored_rows(state.id)
        after = codec.rows_of(state, before.version, before)
        stats = SaveStats(inserted={}, updated={}, deleted={})
        head = {k: v for k, v in after.tournament.items() if before.tournament.get(k) != v}
        if after.preset != before.preset:
            head["preset_name"] = after.preset.id
            head["overrides"] = codec.overrides_between(
                codec.preset_for(after.preset.id, {}), after.preset
            )
        fresh = after.fresh or {}
        plans = [
            (
                child,
                *_diff(
                    getattr(before, child.attribute),
                    getattr(after, child.attribute),
                    fresh.get(child.attribute),
                ),
            )
            for child in _CHILDREN
        ]
        if not head and not any(new or changed or gone for _, new, changed, gone in plans):
            self.last_save = stats
            return
        self._versions.pop(state.id, None)  # about to change
        self._listed.clear()  # its status, name or start may change
        few = _few_rows_changed(plans) if not head and not self._serialised else None
        if few is not None:
            # A /report's save (one match row), an /accept's (that row and the match it
            # lets start). On PostgreSQL the bump and those updates go in one statement,
            # held for the command's next one (the outbox insert takes it into its own:
            # storage/outbox.py), or sent before it, or at the commit.
            child, changed = few
            columns = tuple(changed[0][1])
            fused: dict[str, Any] = {"b_id": state.id, "b_version": before.version}
            for index, (key, row) in enumerate(changed):
                fused[f"b_key{index}"] = key
                fused.update({f"r{index}_{name}": value for name, value in row.items()})
            await self._transaction.hold_write(
                HeldWrite(
                    _bumped_update(child, columns, len(changed)),
                    fused,
                    _stale_unless_one(state.id),
                    unseen=_bumped_update(child, columns, len(changed), unseen=True),
                )
            )
            stats.updated[child.table.name] = len(changed)
            plans = []
        else:
            # The version check comes first: it takes the row lock on PostgreSQL, and a
            # concurrent writer who saved since our load makes this save fail, not vanish.
            bump = {"b_id": state.id, "b_version": before.version, **head}
            _stale_unless_one(state.id)((await conn.execute(_BUMP, bump)).rowcount)
        if head:
            stats.updated["tournaments"] = 1
        for child, new, changed, gone in plans:
            await _write(conn, child, state.id, new, changed, gone, stats)
        after.version = before.version + 1
        after.deadlines = _still_due(before, after)
        self._loaded[state.id] = after
        if self._cache is not None:
            # Kept at its new version once committed; if not, it leaves the cache.
            self._taken.add(state.id)
            self._states_out[state.id] = state
        self.last_save = stats

    def _locking(self, for_update: bool) -> bool:
        """Whether a read `for_update` takes row locks: not in a lock-free unit of work,
        whose reads commit as they run (its save checks the version instead)."""
        return for_update and not self._transaction.lock_free

    def known_deadline(self, state: TournamentState) -> tuple[datetime | None] | None:
        """Return the deadline remembered with the rows `state` was loaded as (cached
        states keep it from the command that saved them), or None."""
        rows = self._loaded.get(state.id)
        return None if rows is None else rows.deadline

    def remember_deadline(self, state: TournamentState, deadline: datetime | None) -> None:
        """Keep `deadline` with the rows just saved: it goes into the cache with them."""
        rows = self._loaded.get(state.id)
        if rows is not None:
            rows.deadline = (deadline,)

    def deadline_memo(self, state: TournamentState) -> dict[int, datetime | None]:
        """Return the next-deadline memo kept with the rows `state` was saved as (a new
        one, kept nowhere, for a state this unit of work did not load)."""
        rows = self._loaded.get(state.id)
        return {} if rows is None else rows.deadlines

    async def _stored_rows(self, tournament_id: int) -> codec.Rows:
        # A state loaded in another unit of work: compare with what is stored now.
        await self.get(tournament_id)
        return self._loaded[tournament_id]


async def _child_rows(conn: DatabaseConnection, table: Table, tournament_id: int) -> list[Any]:
    query = select(table).where(table.c.tournament_id == tournament_id).order_by(table.c.id)
    return list((await conn.execute(query)).mappings())


def _still_due(before: codec.Rows, after: codec.Rows) -> dict[int, datetime | None]:
    """Return the figures of `before`'s next-deadline memo that hold for `after`: of the
    matches whose row and whose players' entry rows are the same objects (unchanged,
    codec.rows_of), while no done action, entry or match came or went and the preset
    stayed. A match's first due time reads nothing else (tournament.due)."""
    fresh = after.fresh
    if (
        not before.deadlines
        or fresh is None
        or fresh.get("done")
        or len(after.done) != len(before.done)
        or len(after.entries) != len(before.entries)
        or len(after.matches) != len(before.matches)
        or after.preset is not before.preset
    ):
        return {}
    touched = set(fresh.get("matches", ()))
    players = set(fresh.get("entries", ()))
    kept: dict[int, datetime | None] = {}
    for number, due in before.deadlines.items():
        row = after.matches.get(number)
        if (
            row is not None
            and number not in touched
            and row["white"] not in players
            and row["black"] not in players
        ):
            kept[number] = due
    return kept


def _diff(
    before: dict[Any, codec.Row], after: dict[Any, codec.Row], fresh: list[Any] | None = None
) -> tuple[list[codec.Row], list[tuple[Any, codec.Row]], list[Any]]:
    """Return the rows `after` adds, those it changes and the keys it drops; `fresh`: the
    keys of the only rows of `after` not taken unchanged from `before` (codec.rows_of)."""
    if fresh is not None:
        # A /report makes one row anew of a hundred: only those need a look.
        new = [after[key] for key in fresh if key not in before]
        changed = [
            (key, after[key]) for key in fresh if key in before and before[key] != after[key]
        ]
        # Keys are only dropped when fewer are left than were there and came.
        dropped = len(after) != len(before) + len(new)
        return new, changed, [key for key in before if key not in after] if dropped else []
    new = [row for key, row in after.items() if key not in before]
    changed = [
        (key, row)
        for key, row in after.items()
        if key in before and before[key] is not row and before[key] != row
    ]
    gone = [key for key in before if key not in after]
    return new, changed, gone


def _row_update(child: _Child) -> Update:
    """Return the update of one row of a child table, by tournament and key."""
    table, key_column = child.table, child.table.c[child.key]
    return update(table).where(
        table.c.tournament_id == bindparam("b_tournament", type_=table.c.tournament_id.type),
        key_column == bindparam("b_key", type_=key_column.type),
    )


_UPDATES = {child.table.name: _row_update(child) for child in _CHILDREN}  # built once


def _stale_unless_one(tournament_id: int) -> Callable[[int], None]:
    """Return the check of a save's version bump: one row written, or the version had
    moved on since the state was loaded."""

    def check(rowcount: int) -> None:
        if rowcount != 1:
            raise StaleState(f"tournament {tournament_id} changed since it was loaded")

    return check


# The most rows of one table a save rewrites in its one held statement (a result and the
# matches it lets start); a save of more goes row by row.
FUSED_ROWS = 4


def _few_rows_changed(
    plans: builtins.list[tuple[_Child, Any, Any, Any]],
) -> tuple[_Child, builtins.list[tuple[Any, codec.Row]]] | None:
    """Return the child and the (key, row) pairs of a save that changes up to FUSED_ROWS
    existing rows of one table, all of the same columns, and adds or drops none; None
    for any other save."""
    touched = [plan for plan in plans if plan[1] or plan[2] or plan[3]]
    if len(touched) != 1:
        return None
    child, new, changed, gone = touched[0]
    if new or gone or not 1 <= len(changed) <= FUSED_ROWS:
        return None
    columns = tuple(changed[0][1])
    if any(tuple(row) != columns for _, row in changed):
        return None
    return child, changed


# A lock-free save's condition: the platform's update id is not among those processed
# (storage/transaction.py); bound as u_platform and u_update_id.
_UNSEEN = ~(
    select(t.processed_updates.c.update_id)
    .where(
        t.processed_updates.c.platform
        == bindparam("u_platform", type_=t.processed_updates.c.platform.type),
        t.processed_updates.c.update_id
        == bindparam("u_update_id", type_=t.processed_updates.c.update_id.type),
    )
    .exists()
)


@functools.cache
def _bumped_update(
    child: _Child, columns: tuple[str, ...], rows: int = 1, *, unseen: bool = False
) -> Update:
    """Return PostgreSQL's version check and bump (_BUMP) and the rewrite of `rows` rows
    of `child` in one statement: each row is updated only if the bump found the version,
    so the statement's row count (its first row's) is 1 exactly when all happened. Row i
    is keyed by b_key<i>, its values bound as "r<i>_" + column: a parameter named after a
    column of `tournaments` would be set by SQLAlchemy in the bump too. `unseen`: the
    bump also needs the update id of u_platform and u_update_id not processed yet (a
    lock-free save's)."""
    bump = _BUMP.where(_UNSEEN) if unseen else _BUMP
    bumped = bump.returning(t.tournaments.c.id).cte("bumped")
    table = child.table
    key_column = table.c[child.key]
    bumped_id = select(bumped.c.id).scalar_subquery()

    def rewrite(index: int) -> Update:
        return (
            update(table)
            .where(
                table.c.tournament_id == bumped_id,
                key_column == bindparam(f"b_key{index}", type_=key_column.type),
            )
            .values(
                {name: bindparam(f"r{index}_{name}", type_=table.c[name].type) for name in columns}
            )
        )

    statement = rewrite(0).add_cte(bumped)
    for index in range(1, rows):
        # Statements of a WITH all run: the others ride along the first.
        also = rewrite(index).returning(key_column).cte(f"rewrote{index}")
        statement = statement.add_cte(also)
    return statement


_INSERTS = {child.table.name: insert(child.table) for child in _CHILDREN}


async def _write(
    conn: DatabaseConnection,
    child: _Child,
    tournament_id: int,
    new: list[codec.Row],
    changed: list[tuple[Any, codec.Row]],
    gone: list[Any],
    stats: SaveStats,
) -> None:
    table, name = child.table, child.table.name
    key_column = table.c[child.key]
    if gone:
        await conn.execute(
            delete(table).where(table.c.tournament_id == tournament_id, key_column.in_(gone))
        )
        stats.deleted[name] = len(gone)
    if changed:
        # Whole rows, one executemany: a changed row is rewritten, an unchanged one never.
        query = _UPDATES[name]
        params = [{"b_tournament": tournament_id, "b_key": key, **row} for key, row in changed]
        await conn.execute(query, params)
        stats.updated[name] = len(changed)
    if new:
        rows = [{**row, "tournament_id": tournament_id} for row in new]
        await conn.execute(_INSERTS[table.name], rows)
        stats.inserted[name] = len(new)
