"""A dispute pings the club's directors once, and nobody else (issue 20)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.discord.conftest import GENERAL, GUILD
from tests.discord.inprocess import running, settled

ROLE = 700_000_000_000_000_077
EVA = "800099"  # given director rights by /director add: stored with the club


async def test_a_dispute_pings_the_director_role_and_the_clubs_directors(tmp_path: Path) -> None:
    async with running(tmp_path, director_role=str(ROLE)) as adapter:
        standin = adapter.standin
        start = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
        await adapter.slash(
            adapter.ana, "tournament", sub="new", name="Cup", start=start, approval="no"
        )
        for player in adapter.players:
            await adapter.slash(player, "register")
            await adapter.slash(player, "checkin")
        await adapter.slash(adapter.ana, "draw")
        async with adapter.service.handlers.uow_factory() as uow:
            club = await uow.clubs.for_chat("discord", str(GUILD))
            assert club is not None
            await uow.clubs.add_director(club.id, "discord", EVA)
            await uow.commit()
        alice, bob = adapter.players
        await adapter.slash(alice, "report", score="3-1", match=1)
        answer = await adapter.slash(bob, "dispute", match=1)
        assert "disputed by" in answer
        await settled(adapter)
        called = [
            (content, pinged)
            for message_id, content, pinged in standin.notified
            if standin.messages[message_id].channel_id == GENERAL and "disputed by" in content
        ]
        # Once, in the club's channel: the role and the stored director, no player.
        assert [pinged for _, pinged in called] == [frozenset({f"role:{ROLE}", f"user:{EVA}"})]
        assert f"<@&{ROLE}> <@{EVA}>" in called[0][0]
