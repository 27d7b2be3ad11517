"""Clubs, players, sanctions, rankings, audit, processed updates, meta, rollback."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import StatementError

from storage import NotFound
from storage import tables as t
from tests.storage.conftest import NOW, UowFactory, club_with_players, registration
from tournament.sanctions import Sanction


async def test_clubs_chats_link_codes_and_directors(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        club = await uow.clubs.add("Hermandad", "America/Caracas", "es", NOW)
        other = await uow.clubs.add("Navodari", "Europe/Bucharest", "ro", NOW)
        await uow.clubs.link_chat(club.id, "telegram", "-100")
        await uow.clubs.link_chat(club.id, "discord", "42")
        await uow.clubs.link_chat(other.id, "discord", "42")  # the chat moves
        await uow.clubs.add_link_code(club.id, "ABC123", NOW + timedelta(hours=1))
        await uow.clubs.add_director(club.id, "telegram", "7")
        await uow.clubs.add_director(club.id, "telegram", "7")  # twice is once
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.clubs.for_chat("telegram", "-100") == club
        assert await uow.clubs.for_chat("discord", "42") == other
        assert await uow.clubs.for_chat("discord", "nope") is None
        assert await uow.clubs.chats(club.id) == [("telegram", "-100")]
        club.language = "en"
        await uow.clubs.save(club)
        assert (await uow.clubs.get(club.id)).language == "en"
        with pytest.raises(NotFound):
            await uow.clubs.get(999)
        assert await uow.clubs.is_director(club.id, "telegram", "7")
        assert not await uow.clubs.is_director(other.id, "telegram", "7")
        expired = NOW + timedelta(hours=1)
        assert await uow.clubs.redeem_link_code("ABC123", expired) is None
        assert await uow.clubs.redeem_link_code("ABC123", NOW) == club.id
        assert await uow.clubs.redeem_link_code("ABC123", NOW) is None  # used
        assert await uow.clubs.redeem_link_code("NOPE", NOW) is None
        await uow.commit()


async def test_players_by_account_and_by_name(uow_factory: UowFactory) -> None:
    club_id = await club_with_players(uow_factory, 2)
    async with uow_factory() as uow:
        ana = await uow.players.add(club_id, "Ana  María Pérez", NOW, born=date(1990, 5, 1))
        await uow.players.add_account(ana.id, "telegram", "555")
        await uow.players.add_account(ana.id, "discord", "777")
        await uow.players.add_account(ana.id, "discord", "777")  # again: a no-op
        with pytest.raises(ValueError):
            await uow.players.add_account(1, "discord", "777")
        await uow.commit()
    async with uow_factory() as uow:
        found = await uow.players.by_account(club_id, "telegram", "555")
        assert found == ana
        assert found.created_at.tzinfo is UTC and found.born == date(1990, 5, 1)
        assert await uow.players.by_account(club_id + 1, "telegram", "555") is None
        assert await uow.players.by_name(club_id, "  ana maría   PÉREZ ") == [ana]
        assert await uow.players.by_name(club_id, "ana") == []
        assert await uow.players.accounts(ana.id) == [("telegram", "555"), ("discord", "777")]
        assert [p.id for p in await uow.players.all(club_id)] == [1, 2, ana.id]
        assert set(await uow.players.many([1, ana.id, 99])) == {1, ana.id}
        ana.novice, ana.member, ana.name = True, False, "Ana Pérez"
        await uow.players.save(ana)
        assert await uow.players.get(ana.id) == ana
        assert await uow.players.by_name(club_id, "ANA PÉREZ") == [ana]
        with pytest.raises(LookupError):
            await uow.players.get(999)


async def test_the_clubs_of_a_chat_account_oldest_first(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        first = await uow.clubs.add("First", "UTC", "en", NOW)
        second = await uow.clubs.add("Second", "UTC", "en", NOW + timedelta(days=1))
        third = await uow.clubs.add("Third", "UTC", "en", NOW + timedelta(days=2))
        for club in (second, first):
            player = await uow.players.add(club.id, "Ana", NOW)
            await uow.players.add_account(player.id, "telegram", "555")
        await uow.players.add_account(
            (await uow.players.add(third.id, "Bo", NOW)).id, "telegram", "6"
        )
        assert await uow.clubs.for_account("telegram", "555") == [first, second]
        assert await uow.clubs.for_account("discord", "555") == []


async def test_sanctions_are_stored_and_ended(uow_factory: UowFactory) -> None:
    club_id = await club_with_players(uow_factory, 12)
    state = registration(12)
    async with uow_factory() as uow:
        await uow.tournaments.add(club_id, state, {})
        new = Sanction(0, 3, "no_show", state.id, None, NOW, note="did not come")
        sanction = await uow.sanctions.add(club_id, new)
        assert sanction.id > 0 and sanction.player == 3
        await uow.commit()
    async with uow_factory() as uow:
        (stored,) = await uow.sanctions.for_club(club_id)
        assert stored == sanction
        stored.active, stored.ended_at, stored.ended_by = False, NOW, "excused"
        stored.applies_to = state.id
        await uow.sanctions.save(stored)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.sanctions.for_club(club_id) == [stored]
        assert await uow.sanctions.for_club(club_id + 1) == []


async def test_the_imported_ranking_keeps_its_order_and_exact_points(
    uow_factory: UowFactory,
) -> None:
    club_id = await club_with_players(uow_factory, 4)
    rows = [(3, Decimal("12.50")), (1, Decimal("12.50")), (4, Decimal("0.04"))]
    async with uow_factory() as uow:
        await uow.rankings.replace_imported(club_id, rows)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.rankings.imported(club_id) == rows
        assert [str(p) for _, p in await uow.rankings.imported(club_id)] == [
            "12.50",
            "12.50",
            "0.04",
        ]
        await uow.rankings.replace_imported(club_id, [(2, Decimal(1))])
        assert await uow.rankings.imported(club_id) == [(2, Decimal(1))]


async def test_a_processed_update_is_remembered_once(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        assert await uow.updates.remember("telegram", "1001", NOW) is True
        assert await uow.updates.remember("telegram", "1001", NOW) is False
        assert await uow.updates.remember("discord", "1001", NOW) is True
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.updates.remember("telegram", "1001", NOW) is False
        assert await uow.updates.forget_before(NOW + timedelta(days=1)) == 2
        assert await uow.updates.remember("telegram", "1001", NOW) is True


async def test_meta_and_audit(uow_factory: UowFactory) -> None:
    club_id = await club_with_players(uow_factory, 0)
    async with uow_factory() as uow:
        assert await uow.meta.get("schema_note") is None
        await uow.meta.set("schema_note", "one")
        await uow.meta.set("schema_note", "two")
        await uow.audit.add(
            club_id=club_id,
            tournament_id=None,
            actor="telegram:7",
            action="club.linked",
            detail={"chat": "-100", "n": 1},
            at=NOW,
        )
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.meta.get("schema_note") == "two"
        conn = await uow.transaction.connection()
        row = (await conn.execute(select(t.audit_log))).one()
        assert (row.actor, row.action, row.detail, row.at) == (
            "telegram:7",
            "club.linked",
            {"chat": "-100", "n": 1},
            NOW,
        )


async def test_leaving_without_commit_leaves_nothing(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        club = await uow.clubs.add("Ghost", "UTC", "en", NOW)
        for i in range(12):
            await uow.players.add(club.id, f"P{i}", NOW)
        await uow.tournaments.add(club.id, registration(12), {})
        await uow.outbox.add(
            club_id=club.id, platform="telegram", chat="1", payload={}, created_at=NOW
        )
        await uow.updates.remember("telegram", "1", NOW)
        await uow.meta.set("k", "v")
    with pytest.raises(RuntimeError, match="boom"):
        async with uow_factory() as uow:
            await uow.clubs.add("Ghost 2", "UTC", "en", NOW)
            await uow.commit()
            await uow.clubs.add("Ghost 3", "UTC", "en", NOW)
            raise RuntimeError("boom")
    async with uow_factory() as uow:
        conn = await uow.transaction.connection()
        counts = {}
        for table in (t.players, t.tournaments, t.entries, t.outbox, t.processed_updates, t.meta):
            query = select(func.count()).select_from(table)
            counts[table.name] = (await conn.execute(query)).scalar_one()
        names = list((await conn.execute(select(t.clubs.c.name))).scalars())
    assert set(counts.values()) == {0}
    assert names == ["Ghost 2"]  # committed before the error; Ghost 3 was not


async def test_naive_datetimes_are_refused(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        with pytest.raises(StatementError, match="naive datetime"):
            await uow.clubs.add("Naive", "UTC", "en", datetime(2026, 1, 1))
