"""What is kept, and for how long (docs/SECURITY.md): pruning on the scheduler's clock.

Every store that grows with traffic has a bound here: messages already handled, link
codes that can no longer be used, update ids platforms no longer redeliver, button
tokens of old messages, and audit entries older than the retention period.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from storage import tables as t
from storage.repositories.base import SqlRepository, upsert


@dataclass(frozen=True, slots=True)
class Retention:
    outbox_done: timedelta = timedelta(days=7)  # sent, superseded or expired rows
    outbox_failed: timedelta = timedelta(days=30)  # kept longer, to find out why
    link_codes: timedelta = timedelta(days=1)  # after they expired or were used
    updates: timedelta = timedelta(days=2)  # platforms redeliver for a day at most
    button_tokens: timedelta = timedelta(days=14)
    audit: timedelta = timedelta(days=730)


RETENTION = Retention()


class SqlHousekeeping(SqlRepository):
    """Delete what is no longer needed; return how many rows of each kind went."""

    retention: Retention = RETENTION

    async def prune(self, now: datetime) -> dict[str, int]:
        """Delete what the retention periods no longer keep; count it by kind."""
        keep = self.retention
        conn = await self._conn()
        o, lc = t.outbox.c, t.link_codes.c
        statements = {
            "outbox": delete(t.outbox).where(
                o.status.in_(("sent", "superseded", "expired")),
                o.created_at < now - keep.outbox_done,
            ),
            "outbox_failed": delete(t.outbox).where(
                o.status == "failed", o.created_at < now - keep.outbox_failed
            ),
            "link_codes": delete(t.link_codes).where(
                (lc.expires_at < now - keep.link_codes)
                | (lc.used_at.is_not(None) & (lc.used_at < now - keep.link_codes))
            ),
            "processed_updates": delete(t.processed_updates).where(
                t.processed_updates.c.at < now - keep.updates
            ),
            "button_tokens": delete(t.button_tokens).where(
                t.button_tokens.c.created_at < now - keep.button_tokens
            ),
            "audit_log": delete(t.audit_log).where(t.audit_log.c.at < now - keep.audit),
        }
        counts = {name: (await conn.execute(query)).rowcount for name, query in statements.items()}
        counts["claim_codes"] = await self._prune_claim_codes(now)
        return counts

    async def _prune_claim_codes(self, now: datetime) -> int:
        """Delete claim-code hashes used (stored as "") or expired (7 days, SECURITY.md)."""
        conn = await self._conn()
        key = t.meta.c.key
        rows = await conn.execute(
            select(key, t.meta.c.value).where(key.startswith(CLAIM_PREFIX, autoescape=True))
        )
        gone = [
            r.key for r in rows if str(r.key).startswith(CLAIM_PREFIX) and _spent(r.value, now)
        ]
        if gone:
            await conn.execute(delete(t.meta).where(key.in_(gone)))
        return len(gone)


CLAIM_PREFIX = "claim."  # commands/claims.py keeps "hash expiry" under claim.<club>.<player>


def _spent(value: str | None, now: datetime) -> bool:
    digest, _, until = (value or "").partition(" ")
    try:
        return not digest or datetime.fromisoformat(until) <= now
    except ValueError:
        return True


class SqlButtonTokens(SqlRepository):
    """Button commands too long for a platform's callback data, stored by token."""

    async def put(self, token: str, command: str, now: datetime) -> None:
        values = {"token": token, "command": command, "created_at": now}
        await (await self._conn()).execute(
            upsert(self._dialect, t.button_tokens, ("token",), values)
        )

    async def get(self, token: str) -> str | None:
        query = select(t.button_tokens.c.command).where(t.button_tokens.c.token == token)
        value = (await (await self._conn()).execute(query)).scalar_one_or_none()
        return None if value is None else str(value)
