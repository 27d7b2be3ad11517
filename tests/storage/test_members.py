"""Merging a duplicate player in storage: what the club keeps moves, nothing dangles."""

from __future__ import annotations

from decimal import Decimal

from tests.storage.conftest import NOW, UowFactory
from tournament.sanctions import Sanction


async def test_merge_moves_accounts_sanctions_and_adds_imported_points(
    uow_factory: UowFactory,
) -> None:
    async with uow_factory() as uow:
        club = await uow.clubs.add("HG", "UTC", "es", NOW)
        rocio = await uow.players.add(club.id, "Rocío", NOW)
        twin = await uow.players.add(club.id, "Rocío 2", NOW)
        other = await uow.players.add(club.id, "Bruno", NOW)
        await uow.players.add_account(twin.id, "telegram", "77")
        await uow.rankings.replace_imported(
            club.id, [(other.id, Decimal("3")), (rocio.id, Decimal("0.49"))], "backgammon", NOW
        )
        await uow.rankings.replace_imported(club.id, [(twin.id, Decimal("1.5"))], "draughts", NOW)
        await uow.sanctions.add(
            club.id,
            Sanction(
                id=0,
                player=twin.id,
                reason="no_show",
                origin=None,
                applies_to=None,
                created_at=NOW,
            ),
        )
        await uow.commit()
    async with uow_factory() as uow:
        await uow.players.merge(twin.id, rocio.id)
        await uow.commit()
    async with uow_factory() as uow:
        assert [p.name for p in await uow.players.all(club.id)] == ["Rocío", "Bruno"]
        assert await uow.players.accounts(rocio.id) == [("telegram", "77")]
        assert [s.player for s in await uow.sanctions.for_club(club.id)] == [rocio.id]
        assert await uow.rankings.imported(club.id, "draughts") == [(rocio.id, Decimal("1.5"))]
        backgammon = await uow.rankings.imported(club.id, "backgammon")
        assert backgammon == [(other.id, Decimal("3")), (rocio.id, Decimal("0.49"))]
    async with uow_factory() as uow:  # two imported rows of one game are added up
        await uow.rankings.replace_imported(
            club.id, [(rocio.id, Decimal("0.49")), (other.id, Decimal("0.25"))], "draughts", NOW
        )
        await uow.players.merge(other.id, rocio.id)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.rankings.imported(club.id, "draughts") == [(rocio.id, Decimal("0.74"))]
        assert [p.name for p in await uow.players.all(club.id)] == ["Rocío"]
