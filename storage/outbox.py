"""The outbox (ARCHITECTURE idea 2): messages leave the database, never a use case.

`SqlOutbox` is the use-case side: it queues rows in the same transaction as the state
change that causes them, and a row with a coalesce key supersedes the older unsent
rows with that key. `OutboxStore` is the sender side: each platform's sender claims a
batch (a lease, so two senders never get the same row; `FOR UPDATE SKIP LOCKED` lets
several processes drain one platform on PostgreSQL), sends, and marks every row.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    Insert,
    Row,
    Select,
    Table,
    Update,
    bindparam,
    func,
    insert,
    literal_column,
    select,
    update,
)

from storage import tables as t
from storage.engine import Database, begin, connect, is_sqlite, one_statement, reader
from storage.repositories.base import NotFound, SqlRepository

PENDING = "pending"
SENT = "sent"
SUPERSEDED = "superseded"
EXPIRED = "expired"
FAILED = "failed"

DEFAULT_LEASE = timedelta(minutes=2)


def _arrays(table: Table, columns: Sequence[str], prefix: str, name: str) -> Any:
    """Return PostgreSQL's rows of one array a column (bound as `prefix` + column), in
    their order (column `ordinal`)."""
    from sqlalchemy.dialects.postgresql import ARRAY

    arrays = [bindparam(prefix + c, type_=ARRAY(table.c[c].type)) for c in columns]
    return (
        func.unnest(*arrays)
        .table_valued(*columns, with_ordinality="ordinal")
        .render_derived()
        .alias(name)
    )


@functools.cache
def _insert_arrays(
    columns: tuple[str, ...],
    audit: tuple[str, ...] = (),
    superseding: bool = False,
    saving: Any = None,
    *,
    guarded: bool = False,
    remembering: bool = False,
) -> Insert:
    """Return PostgreSQL's insert of many rows from one array a column, in their order.

    Bound as "o_" + column. One statement, prepared once whatever the row count:
    SQLAlchemy's own batch insert (with RETURNING in parameter order) is built and run by
    SQLAlchemy for every call.
    The ids come from the sequence in the ORDER BY's order, as SQLAlchemy's relies on.
    With `audit` (its columns, bound as "a_" + column), the audit rows the unit of work
    held are inserted by the same statement; with `superseding`, the pending rows of the
    keys bound as arrays s_platform, s_chat and s_coalesce_key are superseded by it. One
    round trip for what was up to five: the statements of a WITH see one snapshot, so the
    rows inserted are not among those superseded, as when the update ran first. With
    `saving` (a tournament save the transaction held: storage/transaction.HeldWrite),
    that write goes in too, and each row returned says how many rows it wrote (`saved`).
    `guarded` (a lock-free unit of work's last statement, with `saving`): nothing else is
    written unless the save was (its version still the one read), so a stale one writes
    nothing and returns no row; `remembering`: the platform update id bound as
    u_platform, u_update_id and u_at is recorded with it (once: a redelivery's save
    found it and wrote nothing).
    """
    saved = None
    if saving is not None:
        saved = saving.returning(literal_column("1").label("one")).cte("saved")
    wrote = select(saved.c.one).exists() if guarded and saved is not None else None
    # Prefixed: a name of an outbox column among the parameters would be taken by
    # SQLAlchemy as a value the superseding UPDATE sets.
    batch = _arrays(t.outbox, columns, "o_", "batch")
    rows = select(*[batch.c[name] for name in columns]).order_by(batch.c.ordinal)
    if wrote is not None:
        rows = rows.where(wrote)
    statement = insert(t.outbox).from_select(columns, rows).returning(t.outbox.c.id)
    if saved is not None:
        statement = statement.add_cte(saved)
    if audit:
        statement = statement.add_cte(_audited(audit, wrote))
    if superseding:
        stale = _arrays(t.outbox, ("platform", "chat", "coalesce_key"), "s_", "stale")
        older = update(t.outbox).where(
            _c.platform == stale.c.platform,
            _c.chat == stale.c.chat,
            _c.coalesce_key == stale.c.coalesce_key,
            _c.status == bindparam("s_pending"),
        )
        if wrote is not None:
            older = older.where(wrote)
        # Every value of this statement is bound by name, none taken from it.
        statement = statement.add_cte(
            older.values(status=bindparam("s_superseded")).cte("superseded")
        )
    if remembering and wrote is not None:
        statement = statement.add_cte(_remembered(wrote))
    if saved is not None:
        counted = select(func.count()).select_from(saved).scalar_subquery().label("saved")
        statement = statement.returning(counted)  # after the id
    return statement


@functools.cache
def _saved_last(audit: tuple[str, ...], saving: Any, *, remembering: bool) -> Select[Any]:
    """Return a lock-free unit of work's last statement when it queues no message: its
    save, the audit rows (bound as "a_" + column) and, `remembering`, the update id, each
    written only if the save was; its one row says how many rows the save wrote."""
    saved = saving.returning(literal_column("1").label("one")).cte("saved")
    wrote = select(saved.c.one).exists()
    counted = select(func.count()).select_from(saved).scalar_subquery().label("saved")
    statement = select(counted).add_cte(saved)
    if audit:
        statement = statement.add_cte(_audited(audit, wrote))
    if remembering:
        statement = statement.add_cte(_remembered(wrote))
    return statement


def _audited(audit: tuple[str, ...], wrote: Any) -> Any:
    """Return the insert of the audit rows bound as "a_" + column, in their order (only
    if `wrote`, when given), as a CTE."""
    logged = _arrays(t.audit_log, audit, "a_", "logged")
    entries = select(*[logged.c[name] for name in audit]).order_by(logged.c.ordinal)
    if wrote is not None:
        entries = entries.where(wrote)
    return insert(t.audit_log).from_select(audit, entries).cte("audited")


def _remembered(wrote: Any) -> Any:
    """Return the insert of the update id bound as u_platform, u_update_id and u_at, made
    only if `wrote` (once: a redelivery's save found it and wrote nothing), as a CTE."""
    from sqlalchemy.dialects import postgresql

    u = t.processed_updates.c
    update_id = select(
        *[bindparam(f"u_{c.name}", type_=c.type) for c in (u.platform, u.update_id, u.at)]
    ).where(wrote)
    remembered = (
        postgresql.insert(t.processed_updates)
        .from_select(["platform", "update_id", "at"], update_id)
        .on_conflict_do_nothing(index_elements=["platform", "update_id"])
    )
    return remembered.cte("remembered")


def _bound_arrays(
    rows: Sequence[Mapping[str, Any]],
    audit: Sequence[Mapping[str, Any]],
    superseding: Sequence[tuple[str, str, str]],
) -> dict[str, Any]:
    """Return _insert_arrays' values: a column's array of the outbox rows ("o_"), of the
    audit rows ("a_", all of one shape) and of the coalesce keys superseded ("s_")."""
    names = rows[0] if rows else ()  # none: a last statement without messages
    arrays: dict[str, Any] = {f"o_{name}": [row[name] for row in rows] for name in names}
    if audit:
        arrays.update({f"a_{name}": [e[name] for e in audit] for name in audit[0]})
    if superseding:
        for index, name in enumerate(("platform", "chat", "coalesce_key")):
            arrays[f"s_{name}"] = [key[index] for key in superseding]
        arrays.update(s_pending=PENDING, s_superseded=SUPERSEDED)
    return arrays


class SqlOutbox(SqlRepository):
    """Queue messages inside a unit of work."""

    _queued: frozenset[str] = frozenset()

    @property
    def queued(self) -> frozenset[str]:
        """Return the platforms this unit of work queued rows for that no reply holds
        (a sender with none to send need not look)."""
        return self._queued

    async def add(
        self,
        *,
        club_id: int,
        platform: str,
        chat: str,
        payload: Mapping[str, Any],
        created_at: datetime,
        coalesce: str | None = None,
        expires_at: datetime | None = None,
    ) -> None:
        """Queue a message for a chat; a newer row with the same `coalesce` key
        supersedes an unsent older one (the sender edits one live message)."""
        await self.add_many(
            [
                {
                    "club_id": club_id,
                    "platform": platform,
                    "chat": chat,
                    "payload": payload,
                    "created_at": created_at,
                    "coalesce": coalesce,
                    "expires_at": expires_at,
                }
            ]
        )

    async def add_many(self, messages: Sequence[Mapping[str, Any]]) -> list[int]:
        """Queue several messages (keyword sets of `add`) with one insert; return their
        ids. A message with `held_until` is leased to the caller until then: the command's
        reply carries it, and the adapter marks it sent once that reply went out (or
        releases it); if the process dies first, the sender sends it after the lease."""
        if not messages:
            return []
        self._queued |= {m["platform"] for m in messages if not m.get("held_until")}
        # On PostgreSQL a save held for this statement is taken into it, not sent first.
        conn = await self._transaction.connection(keep_write=self._dialect == "postgresql")
        superseding = sorted(
            {(m["platform"], m["chat"], m["coalesce"]) for m in messages if m.get("coalesce")}
        )
        rows = self._rows(messages)
        if self._dialect == "postgresql":
            return await self._add_on_postgresql(conn, rows, superseding)
        for platform, chat, coalesce in superseding:
            await conn.execute(
                _SUPERSEDE, {"b_platform": platform, "b_chat": chat, "b_coalesce": coalesce}
            )
        if len(rows) > 1:
            # One executemany of a one-row INSERT, compiled once (a multi-row INSERT was
            # compiled anew for every number of rows: 10 times, 24 ms, in a demo night).
            # This unit of work holds SQLite's write lock (BEGIN IMMEDIATE), so the rows
            # take the ids after the table's largest, one by one in order.
            await conn.execute(_INSERT_MANY, rows)
            newest = int((await conn.execute(_LAST_ID)).scalar_one())
            return list(range(newest - len(rows) + 1, newest + 1))
        return [int(i) for i in (await conn.execute(_INSERT, rows)).scalars()]

    async def _add_on_postgresql(
        self,
        conn: Any,
        rows: list[dict[str, Any]],
        superseding: list[tuple[str, str, str]],
    ) -> list[int]:
        """Insert the rows, supersede the keys' older rows and write the audit rows the
        unit of work held, in one statement (_insert_arrays); return the rows' ids."""
        if self._transaction.lock_free:
            return await self._add_last(conn, rows, superseding)
        write = self._transaction.take_write()  # the command's save, when held
        audit = self._transaction.take_held(t.audit_log)
        columns = tuple(rows[0])  # every row has the same keys
        audit_columns = tuple(audit[0]) if audit else ()
        if any(tuple(entry) != audit_columns for entry in audit):
            await conn.execute(insert(t.audit_log), audit)  # not one shape: as they came
            audit, audit_columns = [], ()
        arrays = _bound_arrays(rows, audit, superseding)
        saving = None if write is None else write.statement
        statement = _insert_arrays(columns, audit_columns, bool(superseding), saving)
        if write is not None:
            arrays.update(write.params)
        inserted = (await conn.execute(statement, arrays)).all()
        if write is not None:
            write.check(int(inserted[0].saved))
        return sorted(int(row.id) for row in inserted)

    async def _add_last(
        self,
        conn: Any,
        rows: list[dict[str, Any]],
        superseding: list[tuple[str, str, str]],
    ) -> list[int]:
        """Write everything a lock-free unit of work holds in its last statement, which
        commits by itself (storage/transaction.py): its one save, guarding the rest."""
        tx = self._transaction
        write = tx.take_write()
        audit = tx.take_held(t.audit_log)
        remembered = tx.take_held(t.processed_updates)
        others = tx.take_held_tables()
        audit_columns = tuple(audit[0]) if audit else ()
        if (
            write is None
            or write.unseen is None
            or others
            or len(remembered) > 1
            or any(tuple(entry) != audit_columns for entry in audit)
        ):
            tx.needs_lock("its writes do not fit one statement guarded by its save")
        arrays = _bound_arrays(rows, audit, superseding)
        arrays.update(write.params)
        if remembered:
            arrays.update({f"u_{name}": value for name, value in remembered[0].items()})
        saving = write.unseen if remembered else write.statement
        if not rows:
            last = _saved_last(audit_columns, saving, remembering=bool(remembered))
            saved = int((await conn.execute(last, arrays, last=True)).scalar_one())
            inserted: list[Any] = []
        else:
            statement = _insert_arrays(
                tuple(rows[0]),  # every row has the same keys
                audit_columns,
                bool(superseding),
                saving,
                guarded=True,
                remembering=bool(remembered),
            )
            inserted = list((await conn.execute(statement, arrays, last=True)).all())
            saved = int(inserted[0].saved) if inserted else 0
        if not saved:
            # Its save found another version (or the update id processed): it wrote
            # nothing, and the command runs again, locked.
            tx.needs_lock("the tournament changed since it was read")
        tx.seal()
        write.check(saved)
        return sorted(int(row.id) for row in inserted)

    async def write_last(self) -> None:
        """Write what a lock-free unit of work holds in its last statement when it queued
        no message (its commit asks): its save, guarding its audit rows and update id.
        Without a save held there is nothing to guard them: the commit gives up."""
        tx = self._transaction
        if tx.lock_free and not tx.sealed and tx.holds_write:
            await self._add_last(await tx.connection(keep_write=True), [], [])

    @staticmethod
    def _rows(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Return the outbox rows of the messages: pending, but only the last of each
        coalesce key in the batch."""
        rows = [
            {
                "club_id": m["club_id"],
                "platform": m["platform"],
                "chat": m["chat"],
                "payload": dict(m["payload"]),
                "coalesce_key": m.get("coalesce"),
                "created_at": m["created_at"],
                "expires_at": m.get("expires_at"),
                "status": PENDING,
                "attempts": 0,
                "next_attempt_at": m["created_at"],
                "leased_until": m.get("held_until"),
            }
            for m in messages
        ]
        # Within one batch, only the last message of a coalesce key stays pending.
        last: dict[tuple[str, str, str], int] = {}
        for index, m in enumerate(messages):
            if m.get("coalesce"):
                last[(m["platform"], m["chat"], m["coalesce"])] = index
        for index, m in enumerate(messages):
            key = (m["platform"], m["chat"], m.get("coalesce"))
            if m.get("coalesce") and last[key] != index:  # type: ignore[index]
                rows[index]["status"] = SUPERSEDED
        return rows


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One claimed message, as a sender needs it."""

    id: int
    club_id: int
    platform: str
    chat: str
    payload: dict[str, Any]
    coalesce: str | None
    created_at: datetime
    expires_at: datetime | None
    attempts: int
    leased_until: datetime
    # The platform's id of the newest message sent with the same coalesce key, read with
    # the claim: the one to edit instead of posting anew (None: post).
    live: str | None = None


async def _live(conn: Any, row: Row[Any]) -> Any:
    """Return the platform message id the claimed `row` replaces (SQLite: a look-up)."""
    if row.coalesce_key is None:
        return None
    asked = {"b_platform": row.platform, "b_chat": row.chat, "b_coalesce": row.coalesce_key}
    return (await conn.execute(_LIVE, asked)).scalar_one_or_none()


def _row(row: Row[Any], live: Any = None) -> OutboxRow:
    return OutboxRow(
        id=row.id,
        club_id=row.club_id,
        platform=row.platform,
        chat=row.chat,
        payload=dict(row.payload),
        coalesce=row.coalesce_key,
        created_at=row.created_at,
        expires_at=row.expires_at,
        attempts=row.attempts,
        leased_until=row.leased_until,
        live=None if live is None else str(live),
    )


# The sender's statements, built once: it runs them every round and for every message.
_c = t.outbox.c
_FREE = _c.leased_until.is_(None) | (_c.leased_until <= bindparam("now"))
# Rows past their expiry that no one else is holding: two senders' UPDATEs over the same
# rows, each waiting for the other's row locks, deadlocked (bench.load, four processes);
# a held row is expired by the next round.
_EXPIRABLE = (
    select(_c.id)
    .where(
        _c.platform == bindparam("b_platform"),
        _c.status == PENDING,
        _c.expires_at.is_not(None),
        _c.expires_at <= bindparam("now"),
        _FREE,
    )
    .with_for_update(skip_locked=True)
)
_EXPIRE = (
    update(t.outbox)
    .where(_c.id.in_(_EXPIRABLE.scalar_subquery()))
    .values(status=EXPIRED, last_attempt_at=bindparam("now"), leased_until=None)
)
# Due rows, leased in one statement: SKIP LOCKED passes over the rows another sender is
# leasing now (ignored by SQLite, whose writers queue anyway); a row past its expiry is
# left to _EXPIRE. MATERIALIZED: the LIMIT is applied once, whatever the plan.
_DUE = (
    select(_c.id)
    .where(
        _c.platform == bindparam("b_platform"),
        _c.status == PENDING,
        _c.next_attempt_at <= bindparam("now"),
        _c.expires_at.is_(None) | (_c.expires_at > bindparam("now")),
        _FREE,
    )
    .order_by(_c.created_at, _c.id)
    .limit(bindparam("limit"))
    .with_for_update(skip_locked=True)
    .cte("due")
    .prefix_with("MATERIALIZED")
)
_SAME_KEY = (
    (_c.platform == bindparam("b_platform"))
    & (_c.chat == bindparam("b_chat"))
    & (_c.coalesce_key == bindparam("b_coalesce"))
)
_SUPERSEDE = update(t.outbox).where(_SAME_KEY, _c.status == PENDING).values(status=SUPERSEDED)
_LIVE = (
    select(_c.platform_message_id)
    .where(_SAME_KEY, _c.status == SENT, _c.platform_message_id.is_not(None))
    .order_by(_c.sent_at.desc(), _c.id.desc())
    .limit(1)
)
# The board a claimed row replaces, looked up in the claim itself (one statement a
# message fewer for the sender): the newest sent row of the same chat and key. PostgreSQL
# only: SQLAlchemy writes SQLite's RETURNING columns unqualified, and in this subquery
# `chat = chat` would compare the inner row with itself; SQLite looks each one up (_LIVE).
_sent = t.outbox.alias("sent")
_LIVE_OF_CLAIMED = (
    select(_sent.c.platform_message_id)
    .where(
        _sent.c.platform == _c.platform,
        _sent.c.chat == _c.chat,
        _sent.c.coalesce_key == _c.coalesce_key,
        _sent.c.status == SENT,
        _sent.c.platform_message_id.is_not(None),
    )
    .order_by(_sent.c.sent_at.desc(), _sent.c.id.desc())
    .limit(1)
    .scalar_subquery()
    .label("live")
)
_LEASE = (
    update(t.outbox)
    .where(_c.id.in_(select(_DUE.c.id)))
    # A sender has it: a command's late release must not free it (release()).
    .values(leased_until=bindparam("until"), last_attempt_at=bindparam("now"))
    .returning(*t.outbox.c)
)
_LEASE_WITH_LIVE = _LEASE.returning(_LIVE_OF_CLAIMED)
_INSERT = insert(t.outbox).returning(t.outbox.c.id, sort_by_parameter_order=True)
_INSERT_MANY = insert(t.outbox)
_LAST_ID = select(func.last_insert_rowid())
_SENT_VALUES = {
    "status": SENT,
    "sent_at": bindparam("at"),
    "last_attempt_at": bindparam("at"),
    "attempts": _c.attempts + 1,
    "leased_until": None,
}
_ALL_SENT = (
    update(t.outbox)
    .where(_c.id.in_(bindparam("ids", expanding=True)))
    .values(**_SENT_VALUES, last_error=None)
)
_SENT = (
    update(t.outbox)
    .where(_c.id == bindparam("row_id"))
    .values(
        **_SENT_VALUES,
        platform_message_id=bindparam("message"),
        last_error=bindparam("error"),
    )
)
_RELEASE = (
    update(t.outbox)
    .where(_c.id == bindparam("row_id"), _c.status == PENDING, _c.last_attempt_at.is_(None))
    .values(next_attempt_at=bindparam("at"), leased_until=None)
)


class OutboxStore:
    """The sender side of the outbox; every call is its own short transaction (on
    PostgreSQL, its statement alone: `storage.engine.one_statement`)."""

    def __init__(self, engine: Database, *, lease: timedelta = DEFAULT_LEASE) -> None:
        self._engine = one_statement(engine)  # each call is one or two statements
        self._reader = one_statement(reader(engine))  # no write lock (SQLite: DEFERRED)
        self._lite = is_sqlite(engine)
        self._lease = lease

    async def claim(self, platform: str, *, now: datetime, limit: int = 20) -> list[OutboxRow]:
        """Lease up to `limit` due rows of a platform, oldest first; expire stale ones.

        A leased row goes to no other claimer until it is marked or `now` passes its
        lease (a sender that died mid-send: the row is tried again).
        """
        asked = {"b_platform": platform, "now": now}
        leased = {**asked, "limit": limit, "until": now + self._lease}
        async with begin(self._engine) as conn:  # two statements, each whole by itself
            await conn.execute(_EXPIRE, asked)
            if not self._lite:
                rows = [_row(r, r.live) for r in await conn.execute(_LEASE_WITH_LIVE, leased)]
            else:
                rows = [
                    _row(r, await _live(conn, r))
                    for r in (await conn.execute(_LEASE, leased)).all()
                ]
        rows.sort(key=lambda r: (r.created_at, r.id))
        return rows

    async def mark_sent(
        self,
        row_id: int,
        *,
        at: datetime,
        platform_message_id: str | None = None,
        error: str | None = None,
    ) -> None:
        """Record that a row went out (as `platform_message_id`, to edit it later);
        `error` notes what did not (a part the platform refused)."""
        sent = {"row_id": row_id, "at": at, "message": platform_message_id, "error": error}
        await self._update_row(row_id, _SENT, sent)

    async def mark_all_sent(self, row_ids: Sequence[int], *, at: datetime) -> None:
        """Record that these rows went out, in one transaction (the console prints a
        batch, then marks it); a row already marked or gone is left as it is."""
        if not row_ids:
            return
        async with begin(self._engine) as conn:
            await conn.execute(_ALL_SENT, {"ids": list(row_ids), "at": at})

    async def release(self, row_id: int, *, at: datetime) -> None:
        """Hand a held row to the sender now: the reply that carried it did not go out.

        Only while the command still holds it: once its hold ran out a sender may have
        claimed it (`last_attempt_at` set), and clearing that sender's lease would let a
        second sender post it again.
        """
        async with begin(self._engine) as conn:
            await conn.execute(_RELEASE, {"row_id": row_id, "at": at})

    async def payloads(self, row_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """Return the payloads of these rows."""
        query = select(t.outbox.c.id, t.outbox.c.payload).where(t.outbox.c.id.in_(row_ids))
        async with connect(self._reader) as conn:
            return {int(r.id): dict(r.payload) for r in await conn.execute(query)}

    async def release_as(self, row_id: int, payload: Mapping[str, Any], *, at: datetime) -> None:
        """Hand a held row to the sender with what the reply that carried it said (the
        announcement and more): the reply could not go, and none of it may be lost."""
        await self._mark(row_id, payload=dict(payload), next_attempt_at=at, leased_until=None)

    async def mark_retry(
        self, row_id: int, *, at: datetime, retry_at: datetime, error: str, tried: bool = True
    ) -> None:
        """Give a row back to be tried again at `retry_at` (a 429 or network error);
        `tried=False` for a row only held back (pacing, behind another): no attempt."""
        attempts = t.outbox.c.attempts + 1 if tried else t.outbox.c.attempts
        await self._mark(
            row_id,
            next_attempt_at=retry_at,
            last_attempt_at=at,
            last_error=error,
            attempts=attempts,
            leased_until=None,
        )

    async def mark_failed(self, row_id: int, *, at: datetime, error: str) -> None:
        """Give up on a row (the platform refused it for good)."""
        await self._mark(
            row_id,
            status=FAILED,
            last_attempt_at=at,
            last_error=error,
            attempts=t.outbox.c.attempts + 1,
            leased_until=None,
        )

    async def _mark(self, row_id: int, **values: Any) -> None:
        query = update(t.outbox).where(t.outbox.c.id == row_id).values(**values)
        await self._update_row(row_id, query)

    async def _update_row(
        self, row_id: int, query: Update, params: Mapping[str, Any] | None = None
    ) -> None:
        async with begin(self._engine) as conn:
            if (await conn.execute(query, params)).rowcount != 1:
                raise NotFound(f"outbox row {row_id}")

    async def live_message(self, platform: str, chat: str, coalesce: str) -> str | None:
        """Return the platform message id of the newest sent row with that key."""
        asked = {"b_platform": platform, "b_chat": chat, "b_coalesce": coalesce}
        async with connect(self._reader) as conn:
            value = (await conn.execute(_LIVE, asked)).scalar_one_or_none()
        return None if value is None else str(value)

    async def pending_count(self, platform: str | None = None) -> int:
        """Return how many rows wait to be sent (of one platform, or of all)."""
        c = t.outbox.c
        query = select(func.count()).select_from(t.outbox).where(c.status == PENDING)
        if platform is not None:
            query = query.where(c.platform == platform)
        async with connect(self._reader) as conn:
            return int((await conn.execute(query)).scalar_one())
