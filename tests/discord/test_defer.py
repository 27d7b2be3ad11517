"""Discord's 3-second rule, forced: a slow answer is deferred, then edited in.

The adapter runs in this process (tests/discord/inprocess.py) so a test can hand it a
slow picture renderer (its `draw` injection point) or a slow scheduler poke (`poke`,
awaited after a command): answering then takes longer than Discord's 3 seconds. The
interaction must be deferred within `defer_after` (a type 5 callback, ephemeral for a
private command) and the answer must replace the deferred "thinking" message (an edit
of the original response); an answer only its asker may see, deferred in the open,
replaces the public placeholder with a private follow-up.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest_asyncio

from tests.discord.conftest import GENERAL, GUILD
from tests.discord.inprocess import Adapter, running, settled
from tests.discord.standin import EPHEMERAL, EXPIRY_SECONDS
from tests.discord.test_e2e import _png

SLOW = EXPIRY_SECONDS + 0.5  # longer than Discord waits for an answer
DEFER_AFTER = 0.5


@pytest_asyncio.fixture
async def adapter(tmp_path: Path) -> AsyncIterator[Adapter]:
    async with running(tmp_path, defer_after=DEFER_AFTER) as adapter:
        yield adapter


async def test_a_slow_answer_is_deferred_then_edited_in(adapter: Adapter) -> None:
    standin = adapter.standin
    start = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
    opened = await adapter.slash(
        adapter.ana, "tournament", sub="new", name="Cup", start=start, approval="no"
    )
    assert "Cup" in opened
    for player in adapter.players:
        await adapter.slash(player, "register")
        await adapter.slash(player, "checkin")
    await adapter.slash(adapter.ana, "draw")
    await settled(adapter)  # the live standings (drawn quickly) go out first

    adapter.draw.delay = SLOW
    alice, bob = adapter.players
    asked = time.time()
    standings, schedule = await asyncio.gather(
        standin.slash(alice, "standings", guild_id=GUILD, channel_id=GENERAL),
        standin.slash(bob, "schedule", guild_id=GUILD, channel_id=GENERAL),
    )
    answers = await asyncio.gather(
        standin.wait_for(lambda m: m.id == standings.original and bool(m.attachments), seconds=20),
        standin.wait_for(lambda m: m.id == schedule.original and bool(m.attachments), seconds=20),
    )
    for interaction, answer in zip((standings, schedule), answers, strict=True):
        # Deferred ("thinking") well within Discord's 3 seconds...
        assert [r["type"] for r in interaction.responses] == [5]
        assert interaction.responded[0] - interaction.created < DEFER_AFTER + 1.5
        # ...and answered later by editing that message: no second message.
        assert interaction.original_edits == 1 and not interaction.followups
        assert time.time() - asked >= SLOW
        assert len(answer.pngs()) == 1
        _png(answer.pngs()[0])
    # Routine look-ups are deferred privately (issue 20: a quiet channel).
    assert standings.responses[0]["data"]["flags"] & EPHEMERAL
    assert schedule.responses[0]["data"]["flags"] & EPHEMERAL
    assert answers[0].ephemeral and answers[1].ephemeral
    assert "group-1" in answers[0].attachments[0].filename


async def test_a_slow_private_answer_replaces_a_public_placeholder(adapter: Adapter) -> None:
    standin = adapter.standin
    start = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
    await adapter.slash(adapter.ana, "tournament", sub="new", name="Cup", start=start)
    adapter.poke.delay = SLOW
    # /status is not a private command, but its answer is for the asker only (the
    # routine look-ups, /rules among them, are private from the start since issue 20).
    rules = await standin.slash(adapter.ana, "status", guild_id=GUILD, channel_id=GENERAL)
    answer = await standin.answer(rules, seconds=20)
    assert [r["type"] for r in rules.responses] == [5]
    assert not rules.responses[0].get("data", {}).get("flags", 0) & EPHEMERAL
    assert rules.original_deleted and rules.followups == [answer.id]
    assert answer.ephemeral and answer.text
    # Nothing of it is left in the open: no placeholder, no public copy.
    assert not [
        m for m in standin.in_channel(GENERAL) if m.interaction_id == rules.id and not m.ephemeral
    ]


async def test_a_private_answer_too_late_for_discord_goes_to_the_askers_dms(
    adapter: Adapter,
) -> None:
    standin = adapter.standin
    start = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
    await adapter.slash(
        adapter.ana, "tournament", sub="new", name="Cup", start=start, approval="no"
    )
    for player in adapter.players:
        await adapter.slash(player, "register")
        await adapter.slash(player, "checkin")
    await adapter.slash(adapter.ana, "draw")
    # Not deferred in time (as if the process stalled): the interaction expires.
    adapter.service.handlers.defer_after = SLOW + 5
    adapter.draw.delay = SLOW
    bob = adapter.players[1]
    asked = await standin.slash(bob, "schedule", guild_id=GUILD, channel_id=GENERAL)
    card = await standin.wait_for(
        lambda m: m in standin.dms(bob.id) and bool(m.attachments), seconds=30
    )
    assert not asked.responses  # Discord never got an answer in time
    _png(card.pngs()[0])
    assert card.attachments[0].filename.endswith("-bob.png")
    in_the_open = [a.filename for m in standin.in_channel(GENERAL) for a in m.attachments]
    assert not [name for name in in_the_open if name.endswith("-bob.png")]
