"""/ranking in January: the new season is empty, last season's table is not lost (HGV-8)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end


async def _december_played(chat: Chat) -> None:
    await chat.night("bob", "cruz", "dora", start="2026-12-19 20:00")
    chat.at("2026-12-19T20:05")
    await play_to_the_end(chat)


async def test_a_new_seasons_ranking_shows_how_the_last_one_ended_HGV_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _december_played(chat)
    december = await chat.say("bob", "/ranking")
    assert "season ranking" in december and "final" not in december, december
    chat.at("2027-01-05T18:00")
    january = await chat.say("bob", "/ranking")
    assert january.startswith("The 2027 season has no finished tournament yet"), january
    assert "This is how the 2026 season ended." in january, january
    assert "season ranking, final" in january and "2026" in january, january
    assert all(name in january for name in ("bob", "cruz", "dora")), january


async def test_an_earlier_seasons_final_table_is_asked_by_its_year_HGV_8(
    engine: AsyncEngine,
) -> None:
    """Valencia's director, in March, typed /ranking 2027 for last season's prizes: "2027
    is not one of the choices"."""
    chat = Chat(engine)
    await _december_played(chat)
    chat.at("2027-03-05T18:00")
    await chat.night("bob", "cruz", "eva", start="2027-03-06 20:00")
    chat.at("2027-03-06T20:05")
    await play_to_the_end(chat)
    for typed in ("/ranking 2026", "/ranking year:2026", "/ranking season 2026", "/ranking 26"):
        last = await chat.say("ana", typed)
        assert "2026 season ranking, final" in last, (typed, last)
        assert "dora" in last and "eva" not in last, last
    now = await chat.say("bob", "/ranking 2027")
    assert "season ranking" in now and "final" not in now and "eva" in now, now
    none = await chat.say("bob", "/ranking 2024")
    assert none == (
        "No ranked tournament in the 2024 season: nothing to rank. This season's table: /ranking"
    ), none


async def test_a_club_without_any_ranked_season_still_hears_there_is_none_HGV_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", start="2026-12-19 20:00")
    reply = await chat.say("bob", "/ranking")
    assert reply.startswith("No backgammon ranking yet"), reply


async def test_a_seasons_first_draw_is_seeded_by_how_the_last_season_ended_HGV_7_2_1(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    players = ("bob", "cruz", "dora", "emil", "fede", "gil")
    await chat.night(*players, start="2026-12-19 20:00")
    chat.at("2026-12-19T20:05")
    await play_to_the_end(chat)
    december = await chat.tournament()
    best = [p.player for p in sorted(december.placements, key=lambda p: p.place)][:2]
    chat.at("2027-01-20T18:00")
    await chat.night(*players, start="2027-01-30 20:00")
    january = await chat.tournament()
    assert january.id != december.id and january.groups, "January was drawn"
    seeds = {e.seed: e.player for e in january.entries.values()}
    # The 2027 season has no points yet: its first draw is seeded by December's table
    # (its champion and finalist first), not by a lot among six "newcomers".
    assert [seeds[1], seeds[2]] == best, (seeds, best)


async def _imported_in_december(chat: Chat, players: tuple[str, ...]) -> None:
    """Make the players members, then import the club's ranking on 10 December 2026:
    best first, as the club had it."""
    await chat.say("ana", '/club name:"HG"')
    for name in players:
        await chat.say(name, "/register")
    rows = [
        (await chat.player_id(name), Decimal(len(players) - i)) for i, name in enumerate(players)
    ]
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        await uow.rankings.replace_imported(
            club.id, rows, "backgammon", datetime(2026, 12, 10, tzinfo=UTC)
        )
        await uow.commit()


async def test_a_ranking_imported_in_december_is_how_that_season_ended_in_january_HGV_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    chat.at("2026-12-10T12:00")
    await _imported_in_december(chat, ("emil", "dora", "cruz", "bob"))
    chat.at("2027-01-05T18:00")
    january = await chat.say("bob", "/ranking")
    # Not "no ranking yet, or a director imports one": the director did.
    assert "This is how the 2026 season ended." in january, january
    assert january.index("emil") < january.index("dora") < january.index("bob"), january


async def test_a_seasons_first_draw_is_seeded_by_a_ranking_imported_last_season_HGV_7_2_1(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    chat.at("2026-12-10T12:00")
    players = ("emil", "dora", "cruz", "bob", "fede", "gil")
    await _imported_in_december(chat, players)
    chat.at("2027-01-20T18:00")
    await chat.night(*players, start="2027-01-30 20:00")
    january = await chat.tournament()
    seeds = {e.seed: e.player for e in january.entries.values()}
    assert [seeds[1], seeds[2]] == [await chat.player_id(n) for n in ("emil", "dora")], seeds
