"""Issue 9, the findings in the use cases and storage (8, 9, 11, 13, 14), replayed through
the real command layer on a real database (SQLite, and PostgreSQL where it matters)."""

from __future__ import annotations

import asyncio
import unicodedata
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from commands import names
from commands.dispatch import handle
from commands.session import Invocation
from storage import tables as t
from storage.repositories.tournaments import StateCache
from tests.commands.chat import Chat
from tournament.model import Refused

PLAYERS = ("alice", "bob", "carol", "dave")


async def count(engine: AsyncEngine, table: t.Table) -> int:  # type: ignore[name-defined]
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())


# -- 8: two people registering one name at the same moment both got created --


async def test_finding_8_concurrent_registrations_of_one_name_make_one_player(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    for attempt in range(5):  # the review saw 5 of 5 pairs both created on PostgreSQL
        name = f"Twin {attempt}"
        first, second = await asyncio.gather(
            chat.response(f"a{attempt}", f'/register name:"{name}"'),
            chat.response(f"b{attempt}", f'/register name:"{name.upper()}"'),
        )
        assert first is not None and second is not None
        assert sorted([first.refused, second.refused]) == [False, True]
        async with engine.connect() as conn:
            query = select(func.count()).where(t.players.c.name_key == name.casefold())
            assert (await conn.execute(query)).scalar_one() == 1


async def test_finding_8_the_index_itself_refuses_a_second_folded_name(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        await uow.players.add(club.id, "Ana P.", chat.now)
        with pytest.raises(Refused, match="name_taken"):
            await uow.players.add(club.id, "ana  p.", chat.now)


# -- 9: names faked bot lines, hid characters, and passed for someone else --


@pytest.mark.parametrize(
    "twin",
    [
        "alice\u200b",  # zero-width space
        "\u0430lice",  # Cyrillic a
        "\u202ealice",  # right-to-left override
        "ALICE",
        "ａｌｉｃｅ",  # full-width
        "al\u0131ce",  # dotless i
    ],
)
async def test_finding_9_a_look_alike_of_a_player_is_refused(
    engine: AsyncEngine, twin: str
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("alice", "/register")
    answer = await chat.say("mallory", f'/register name:"{twin}"')
    assert "alice" in answer.lower()
    assert "looks just like" in answer or "is taken" in answer
    assert await count(engine, t.players) == 1


async def test_finding_9_letters_that_read_as_two_pass_for_nobody(engine: AsyncEngine) -> None:
    """UTS #39: "rn" reads as "m", so "Amold" beside "Arnold" is refused."""
    assert names.skeleton("Amold") == names.skeleton("Arnold")
    assert names.skeleton("Æsa") == names.skeleton("Aesa")
    assert names.look_alike("Ana", ["Arnold", "Anna"]) is None
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("arnold", '/register name:"Arnold"')
    answer = await chat.say("mallory", '/register name:"Amold"')
    assert "Arnold" in answer and "looks just like" in answer
    assert await count(engine, t.players) == 1


async def test_finding_9_a_name_cannot_fake_a_bot_line(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("eve", '/register name:"eve\n✅ Match 1: Bob 3-0 Ana. Bob wins."')
    async with engine.connect() as conn:
        (stored,) = (await conn.execute(select(t.players.c.name))).scalars().all()
    assert "\n" not in stored and stored.startswith("eve ✅")
    answer = await chat.say("zed", '/register name:"' + "z" * 65 + '"')
    assert "65 characters; 64 at most" in answer


@settings(max_examples=400, deadline=None)
@given(st.text(st.characters(codec=None, categories=None), max_size=120))
def test_finding_9_any_name_is_cleaned_or_refused(text: str) -> None:
    """Every Unicode category: the result is one NFKC line of visible text, or a refusal."""
    try:
        cleaned = names.clean(text)
    except Refused as refusal:
        assert refusal.code in ("name_required", "name_needs_letters", "name_too_long")
        return
    assert 0 < len(cleaned) <= names.MAX_LENGTH
    assert cleaned == cleaned.strip() and "  " not in cleaned
    assert unicodedata.normalize("NFKC", cleaned) == cleaned or any(
        unicodedata.category(c) in ("Mn", "Mc") for c in cleaned
    )
    for char in cleaned:
        assert unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
        assert char == " " or not char.isspace()
    assert names.skeleton(cleaned) == names.skeleton(names.clean(cleaned))


def test_finding_9_tables_shorten_long_stored_names() -> None:
    from commands.rendering import CELL_WIDTH, Renderer
    from commands.replies import Name, Table, msg

    title = msg("club.info", name="", timezone="", language="")
    table = Table(title, (msg("word.white"),), ((Name("x" * 4000),),))
    text = Renderer("en", "UTC", "plain").table(table)
    assert max(len(line) for line in text.splitlines()) <= 200
    assert "x" * CELL_WIDTH not in text and "…" in text


# -- 11: unbounded stores --


async def test_finding_11_old_rows_are_pruned_on_the_schedulers_sweep(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    old = chat.now - timedelta(days=40)
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        for when in (old, chat.now):
            await uow.outbox.add(
                club_id=club.id, platform="x", chat="c", payload={}, created_at=when
            )
            await uow.clubs.add_link_code(club.id, f"code{when}", when)
            await uow.updates.remember("x", f"u{when}", when)
            await uow.buttons.put(f"#t{when}", "/confirm", when)
        await uow.commit()
    async with engine.begin() as conn:
        await conn.execute(t.outbox.update().values(status="sent"))
    await chat.wait(1)  # the sweep prunes
    assert await count(engine, t.outbox) == 1
    assert await count(engine, t.button_tokens) == 1
    assert await count(engine, t.link_codes) == 1  # expired a moment ago: kept a day
    async with engine.connect() as conn:
        kept = (await conn.execute(select(t.processed_updates.c.update_id))).scalars().all()
    assert kept == [f"u{chat.now - timedelta(minutes=1)}"]


async def test_finding_11_a_junk_report_stores_nothing_it_typed(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    junk = "x" * 4000
    for _ in range(50):
        answer = await chat.say("alice", f"/report 3-1 {junk}")
        assert "Write it as /report 3-1" in answer
    async with engine.connect() as conn:
        rows = (await conn.execute(select(t.outbox.c.payload))).scalars().all()
    assert not any(junk in str(payload) for payload in rows)
    assert await count(engine, t.button_tokens) == 0


def test_finding_11_the_state_cache_is_bounded() -> None:
    from tests.storage.conftest import registration
    from tournament.state import TournamentState

    cache = StateCache(size=3)
    for tid in range(10):
        state: TournamentState = registration(4)
        state.id = tid

        class Rows:
            version = 1

        cache.put(state, Rows())  # type: ignore[arg-type]
    assert len(cache) == 3 and cache.take(9, 1) is not None and cache.take(0, 1) is None


def test_finding_11_a_long_typed_line_is_folded_but_not_kept() -> None:
    """Names are folded once per process; a line anyone can type is folded each time,
    never kept (32,768 long lines would sit in memory)."""
    from tournament import folding

    long_line = "Zoë " * 500
    kept = folding._kept_fold.cache_info().currsize
    assert folding.loose(long_line) == " ".join(["zoe"] * 500)
    assert folding._kept_fold.cache_info().currsize == kept
    assert folding.loose(f"Zoë {kept}") == f"zoe {kept}"  # a name's length: kept
    assert folding._kept_fold.cache_info().currsize == kept + 1


# -- 13: odd input got "something went wrong" --


async def test_finding_13_odd_numbers_and_dates_are_refused_politely(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    for text, expected in (
        ("/accept ²", "not a match number"),
        ("/accept 9999999999999", "not a match number"),
        ("/report game cube:²", "not a cube value"),
    ):
        answer = await chat.say("alice", text)
        assert expected in answer and "went wrong" not in answer, text


async def test_finding_13_a_huge_seed_and_a_future_birth_date_are_refused(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    answer = await chat.say(
        "ana", '/tournament new name:"Seeded" start:"2026-03-01 20:00" seed:' + "9" * 40
    )
    assert "not a seed" in answer
    answer = await chat.say(
        "ana", '/tournament new name:"Navodari" preset:navodari-table start:"2026-03-01 20:00"'
    )
    answer = await chat.say("zoe", "/register born:2090-01-01")
    assert "cannot be a birth date" in answer and "went wrong" not in answer


# -- 14: a reply equal to an announcement was sent instead of queued --


async def test_finding_14_an_announcement_the_reply_repeats_is_still_queued(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    state = await chat.tournament()
    match = next(m for m in state.matches.values() if m.is_ready and not m.is_final)
    inv = Invocation("console", "club", "ana", "ana", f"/result {match.number} 3-1", chat.now)
    # The adapter dies before it can send the reply (it never marks anything).
    response = await handle(inv, uow_factory=chat.uow_factory, config=chat.config)
    assert response is not None and not response.refused and response.held
    early = await chat.drain()  # the standings go; the result line is held a moment
    assert not any("3-1" in text for _, text in early)
    chat.now += timedelta(minutes=3)
    posted = await chat.drain()
    assert any(f"{match.number}" in text and "3-1" in text for _, text in posted)


# -- 5: an old Accept button accepted whatever score was pending now --


async def test_finding_5_an_old_accept_button_is_refused_with_the_current_state(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    alice = await chat.player_id("alice")
    state = await chat.tournament()
    match = state.open_matches_of(alice)[0]
    opponent_id = match.opponent_of(alice)
    names_by_id = {await chat.player_id(n): n for n in PLAYERS}
    opponent = names_by_id[opponent_id]
    await chat.say("alice", f"/report 3-1 match:{match.number}")
    first = (await chat.tournament()).matches[match.number].report
    assert first is not None
    async with engine.connect() as conn:
        payloads = (await conn.execute(select(t.outbox.c.payload))).scalars().all()
    commands = [b["command"] for p in payloads for b in p.get("buttons", [])]
    button = f"/accept {match.number} report:{first.seq} club:"
    assert any(c.startswith(button) for c in commands)  # the button names the report
    await chat.say("alice", f"/report 3-0 match:{match.number}")
    answer = await chat.say(opponent, f"/accept {match.number} report:{first.seq}")
    assert "older report" in answer
    now = (await chat.tournament()).matches[match.number]
    assert not now.is_final and now.report is not None and now.report.seq != first.seq
    answer = await chat.say(opponent, f"/accept {match.number} report:{now.report.seq}")
    assert (await chat.tournament()).matches[match.number].is_final


# -- issue 16, A3: look-alike names registered at the same moment were both stored --


@pytest.mark.parametrize(
    ("name", "twin"), [("alice", "\u0430lice"), ("Bob", "B\u043eb"), ("Arnold", "Amold")]
)
async def test_a3_concurrent_look_alike_registrations_make_one_player(
    engine: AsyncEngine, name: str, twin: str
) -> None:
    """The look-alike check and the insert are one step per club (a lock on
    PostgreSQL; SQLite writes one transaction at a time): never both names."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    for attempt in range(5):  # the review saw 5 of 5 (4 of 5 for Amold) both stored
        first, second = await asyncio.gather(
            chat.response(f"a{attempt}", f'/register name:"{name} {attempt}"'),
            chat.response(f"b{attempt}", f'/register name:"{twin} {attempt}"'),
        )
        assert first is not None and second is not None
        assert sorted([first.refused, second.refused]) == [False, True]
    assert await count(engine, t.players) == 5


# -- issue 16, C2: a start in the year 9999 broke the club after a time-zone change --


@pytest.mark.parametrize("zone", ["America/Caracas", "UTC", "Pacific/Kiritimati"])
async def test_c2_a_start_more_than_two_years_ahead_is_refused(
    engine: AsyncEngine, zone: str
) -> None:
    chat = Chat(engine)
    await chat.say("ana", f"/club timezone:{zone}")
    for start in ("9999-12-31 23:59", "2028-03-01 20:00", "0001-01-01 00:00"):
        answer = await chat.say("ana", f'/tournament new name:"Far" start:"{start}"')
        assert "went wrong" not in answer
        assert "is open for entries" not in answer, answer
    answer = await chat.say("ana", '/tournament new name:"Near" start:"2027-12-31 20:00"')
    assert "is open for entries" in answer  # within two years
    answer = await chat.say("ana", '/register born:"2026-01-30"')
    assert "went wrong" not in answer and "birth" in answer.lower()  # born today: no


async def test_c2_a_time_zone_change_never_breaks_a_clubs_commands(engine: AsyncEngine) -> None:
    """A start stored at the edge of the calendar (before the bound) stays usable."""
    chat = Chat(engine)
    await chat.say("ana", "/club timezone:UTC")
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-02-01 20:00" approval:no')
    async with engine.begin() as conn:  # as the review stored it, before the bound
        edge = datetime(9999, 12, 31, 23, 59, tzinfo=UTC)
        await conn.execute(t.tournaments.update().values(start=edge))
    await chat.say("bob", "/register")
    for zone in ("Pacific/Kiritimati", "America/Caracas"):
        assert "went wrong" not in await chat.say("ana", f"/club timezone:{zone}")
        for command in ("/me", "/schedule", "/tournament list", "/rules", "/status"):
            answer = await chat.say("bob" if command == "/me" else "ana", command)
            assert "went wrong" not in answer, (zone, command)
        answer = await chat.say("ana", '/tournament new name:"Next" start:"2026-03-01 20:00"')
        assert "went wrong" not in answer, zone


# -- issue 16, C4: a paced /reinstate lost the director's extra lines --


async def test_c4_a_paced_reply_loses_no_part(engine: AsyncEngine) -> None:
    """/reinstate answers with the club's announcement and lines for the director; the
    chat is paced, so the reply goes through the outbox: all of it, once."""
    from bot.sending.replies import ReplyOutbox
    from commands.dispatch import handle
    from commands.rendering import Renderer
    from commands.replies import from_payload
    from commands.session import Invocation
    from storage.outbox import OutboxStore

    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-02-01 20:00" approval:no')
    await chat.say("bob", "/register")
    await chat.say("bob", "/withdraw confirm")
    chat.at("2026-02-01T19:30")  # check-in open: the director hears "checks in again" too
    inv = Invocation(
        "console", "club", "ana", "ana", '/reinstate bob reason:"by mistake"', chat.now
    )
    response = await handle(inv, uow_factory=chat.uow_factory, config=chat.config)
    assert response is not None and not response.refused and response.held
    said = Renderer("en", "UTC", "plain").reply(response.reply).text
    assert "checks in again" in said  # the director's line, besides the announcement
    outbox = OutboxStore(engine)
    replies = ReplyOutbox("console", chat.uow_factory, outbox, lambda: chat.now)
    await replies.queue("club", response, "paced: the chat's send limit")
    rows = await outbox.claim("console", now=chat.now + timedelta(minutes=5), limit=10)
    texts = [Renderer("en", "UTC", "plain").reply(from_payload(r.payload)).text for r in rows]
    assert texts == [said]  # once, whole
