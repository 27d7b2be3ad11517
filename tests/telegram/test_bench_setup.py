"""bench.telegram's setup leaves the sender every announcement (issue 17).

The bench drives the command layer directly and its clock stands still. A command's
announcements are leased to its reply until an adapter settles them; a setup that
drops the replies left the draw's announcement leased for ever, and the bench waited
for an empty outbox that never came.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bench.telegram import Clock, setup
from storage.engine import make_engine
from storage.outbox import OutboxStore


async def test_after_setup_the_sender_can_claim_every_pending_announcement(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'bench.db'}"
    clock = Clock(datetime(2026, 1, 30, 12, 0, tzinfo=UTC))
    await setup(url, 6, clock)
    engine = make_engine(url)
    try:
        outbox = OutboxStore(engine)
        pending = await outbox.pending_count("telegram")
        claimed = await outbox.claim("telegram", now=clock.now(), limit=1000)
        assert pending > 0  # the draw's announcement, at least
        assert len(claimed) == pending  # none stays leased while the clock stands still
    finally:
        await engine.dispose()
