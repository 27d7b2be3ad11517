"""/me lists a player's matches in the night's order, as /schedule does: group rounds
played early (HGV-2.3.4) let the knockout start before a round's published time, and
the card still reads group first, then knockout."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import Stage, TournamentStatus

PLAYERS = ("bob", "cruz", "dora", "emil", "fede", "gil")


async def test_me_lists_the_group_before_the_knockout_played_early_HGV_2_3_4(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    chat.at("2026-01-31T20:05")  # every group match reported before its round's time
    for _ in range(20):
        state = await chat.tournament()
        if state.status is TournamentStatus.KNOCKOUT:
            break
        ready = min(
            (m for m in state.matches.values() if m.is_ready and not m.is_final),
            key=lambda m: m.number,
        )
        await chat.say("ana", f"/result {ready.number} {ready.length}-1")
    knockout = state.stage_matches(Stage.KNOCKOUT)[0]
    assert knockout.white is not None and knockout.start is not None
    names = {await chat.player_id(n): n for n in PLAYERS}
    group = [m for m in state.matches_of(knockout.white) if m.stage is Stage.GROUP]
    assert any(m.start is not None and m.start > knockout.start for m in group), (
        "the night has a group match published after the knockout's start"
    )
    shown = await chat.say(names[knockout.white], "/me")
    rows = [line.split() for line in shown.splitlines()]
    numbers = [int(row[0]) for row in rows if row and row[0].isdigit()]
    assert numbers == sorted(numbers) and knockout.number in numbers, shown


async def test_me_after_the_night_says_the_place_and_points_HGV_8(engine: AsyncEngine) -> None:
    """Asked after the final, with next month's tournament open, /me spoke only of the
    entry to come: the card says how the last tournament ended for the player, a shared
    place as its range, and so does a director's /me NAME."""
    from tests.commands.playing import play_to_the_end
    from tournament.placements import shared_ranges

    chat = Chat(engine)
    await chat.night(*PLAYERS)
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    state = await chat.tournament()
    assert state.placements
    # Played and over, nothing open yet: not "confirmed: yes; present: yes" as if tonight.
    card = (await chat.say(PLAYERS[0], "/me")).splitlines()
    assert card[1] == "January Cup: finished.", card
    await chat.say("ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00"')
    ranges = shared_ranges([p.place for p in state.placements])
    names = {await chat.player_id(n): n for n in PLAYERS}
    for placement in state.placements:
        name = names[placement.player]
        card = await chat.say(name, "/me")
        if placement.place is None:
            assert "no place" in card, card
            continue
        first, last = ranges[placement.place]
        place = str(first) if first == last else f"{first}–{last}"
        points = f"{float(placement.points):.2f}"
        said = f"Last tournament, January Cup (Sat, Jan 31, 2026): place {place}, {points}"
        assert said in card, card
    champion = next(p for p in state.placements if p.place == 1)
    name = names[champion.player]
    assert f"{name}'s last tournament, January Cup" in await chat.say("ana", f"/me {name}")


async def test_a_withdrawn_entry_is_said_without_confirmed_no_present_no(
    engine: AsyncEngine,
) -> None:
    """bob confirmed, checked in, played and left: his card read "withdrawn; confirmed:
    no; present: no", as if he had never come."""
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    chat.at("2026-01-31T20:05")
    await chat.say("bob", "/withdraw confirm")
    card = await chat.say("bob", "/me")
    assert "January Cup: withdrawn." in card, card
    assert "confirmed: no" not in card, card


async def test_me_of_a_player_the_draw_left_out_says_not_drawn_not_withdrawn(
    engine: AsyncEngine,
) -> None:
    """Paco, in Valencia, never confirmed and was left out of the draw; his /me said his
    entry was "withdrawn", which he never did."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", unconfirmed=("paco",))
    card = await chat.say("paco", "/me")
    assert "Cup: not drawn (neither confirmed nor checked in)." in card, card
    assert "withdrawn" not in card, card
    await chat.say("bob", "/withdraw confirm")
    assert "withdrawn" in await chat.say("bob", "/me")
