"""The language a chat is spoken to in before any command ran, on a real database: the
club's in its chat, a person's own (or their only club's) privately, else the default;
kept a while per chat, so a busy chat costs no query each time."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sending.languages import ChatLanguages
from storage.unit_of_work import SqlUnitOfWork, SqlUnitOfWorkFactory, unit_of_work_factory

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


@dataclass
class Counted:
    """The real unit-of-work factory, counting how many units were opened."""

    factory: SqlUnitOfWorkFactory
    opened: int = 0

    def __call__(self) -> SqlUnitOfWork:
        self.opened += 1
        return self.factory()


@dataclass
class Ticks:
    now: float = 0.0

    def __call__(self) -> float:
        return self.now


async def _club(engine: AsyncEngine, name: str, language: str, chat: str) -> int:
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.add(name, "UTC", language, NOW)
        await uow.clubs.link_chat(club.id, "fake", chat)
        await uow.commit()
    return club.id


async def _player(engine: AsyncEngine, club_id: int, user: str, language: str | None) -> None:
    async with unit_of_work_factory(engine)() as uow:
        player = await uow.players.add(club_id, f"P{user}-{club_id}", NOW)
        await uow.players.add_account(player.id, "fake", user)
        if language is not None:
            await uow.players.save(dataclasses.replace(player, language=language))
        await uow.commit()


async def test_a_clubs_chat_hears_the_clubs_language_others_the_default(
    engine: AsyncEngine,
) -> None:
    await _club(engine, "Warsaw", "pl", "-100")
    languages = ChatLanguages(unit_of_work_factory(engine), "fake", "es")
    assert await languages.of("-100") == "pl"
    assert await languages.of("-999") == "es"  # a chat with no club
    other = ChatLanguages(unit_of_work_factory(engine), "other", "es")
    assert await other.of("-100") == "es"  # the same chat id on another platform


async def test_privately_a_persons_own_language_else_their_only_clubs(
    engine: AsyncEngine,
) -> None:
    warsaw = await _club(engine, "Warsaw", "pl", "-100")
    madrid = await _club(engine, "Madrid", "es", "-200")
    await _player(engine, warsaw, "7", None)  # one club, no language of their own
    await _player(engine, warsaw, "8", "ro")  # their own language
    await _player(engine, warsaw, "9", None)  # two clubs, no language of their own
    await _player(engine, madrid, "9", None)
    languages = ChatLanguages(unit_of_work_factory(engine), "fake", "en")
    assert await languages.of("user:7") == "pl"
    assert await languages.of("user:8") == "ro"
    assert await languages.of("user:9") == "en"  # which club's? neither: the default
    assert await languages.of("user:10") == "en"  # a stranger


async def test_an_answer_is_kept_a_while_and_the_cache_is_bounded(engine: AsyncEngine) -> None:
    club_id = await _club(engine, "Warsaw", "pl", "-100")
    await _club(engine, "Madrid", "es", "-200")
    counted, ticks = Counted(unit_of_work_factory(engine)), Ticks()
    languages = ChatLanguages(counted, "fake", "en", ttl=60.0, size=1, monotonic=ticks)
    assert await languages.of("-100") == "pl"
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.get(club_id)
        await uow.clubs.save(dataclasses.replace(club, language="ro"))
        await uow.commit()
    ticks.now = 59.0
    assert [await languages.of("-100") for _ in range(5)] == ["pl"] * 5
    assert counted.opened == 1  # no query while the answer is fresh
    ticks.now = 61.0
    assert await languages.of("-100") == "ro"  # refreshed: the change shows
    assert await languages.of("-200") == "es"  # pushes "-100" out (size 1)
    assert counted.opened == 3
    assert await languages.of("-100") == "ro"
    assert counted.opened == 4  # it was forgotten, so asked again
