"""End to end: `clubtd run` as a subprocess against the local Discord stand-in.

A small tournament in a Discord server driven only through slash commands,
autocomplete and buttons; a player's director command refused; ephemeral answers; a
name like `@everyone **x**` that pings nobody; buttons that still work after a
restart; a 429 retried; a duplicate interaction applied once; closed DMs turned into
a mention in the club's channel.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from storage import tables as t
from storage.engine import make_engine
from tests.discord.conftest import GENERAL, GUILD, World
from tests.discord.standin import Message, User


def _start() -> str:
    """A start a few minutes ahead (the process runs on the real clock)."""
    at = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(minutes=30)
    return at.strftime("%Y-%m-%d %H:%M")


async def _new_cup(world: World, who: User | None = None) -> str:
    return await world.slash(
        who or world.ana,
        "tournament",
        sub="new",
        name="January Cup",
        start=_start(),
        preset="hgv-backgammon",
        approval="no",
    )


async def _rows(world: World, **where: str) -> list[object]:
    engine = make_engine(world.bot.database_url)
    try:
        async with engine.connect() as conn:
            query = select(t.outbox)
            for key, value in where.items():
                query = query.where(getattr(t.outbox.c, key) == value)
            return list(await conn.execute(query))
    finally:
        await engine.dispose()


async def _settled(world: World, seconds: float = 15) -> bool:
    """Wait until no Discord outbox row is held for an answer (the bot settles them
    just after answering); return whether that happened in time."""
    for _ in range(int(seconds * 10)):
        rows = await _rows(world, platform="discord", status="pending")
        if all(row.leased_until is None for row in rows):  # type: ignore[attr-defined]
            return True
        await asyncio.sleep(0.1)
    return False


async def _quiet(world: World, seconds: float = 15) -> bool:
    """Wait until the Discord outbox has nothing left to send; return whether it came."""
    for _ in range(int(seconds * 10)):
        if not await _rows(world, platform="discord", status="pending"):
            return True
        await asyncio.sleep(0.1)
    return False


PNG = b"\x89PNG\r\n\x1a\n"


def _standings(message: Message) -> bool:
    """Whether a message is the live board (issue 20): the draw's message, in the
    channel for all to see, showing the group's picture."""
    return (
        message.channel_id == GENERAL
        and not message.ephemeral
        and any("group 1" in (e.get("title") or "") for e in message.embeds)
    )


def _png(data: bytes) -> tuple[int, int]:
    """Return a PNG's width and height; fail if the bytes are not a PNG."""
    assert data[:8] == PNG, data[:16]
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


async def test_a_small_tournament_through_slash_commands_and_buttons(world: World) -> None:
    standin = world.standin
    names = {c["name"] for c in standin.commands}
    assert {"register", "report", "result", "tournament", "club", "standings"} <= names
    report = next(c for c in standin.commands if c["name"] == "report")
    assert {o["name"] for o in report["options"]} >= {"score", "match"}
    club = next(c for c in standin.commands if c["name"] == "club")
    assert {o["name"] for o in club["options"]} >= {"settings", "link", "join"}
    assert "es-ES" in report.get("description_localizations", {})

    # The first command of someone with Manage Server makes the server a club.
    assert "January Cup" in await _new_cup(world)

    # A player's director command is refused, privately.
    alice = world.players[0]
    refusal = await standin.answer(
        await standin.slash(alice, "draw", guild_id=GUILD, channel_id=GENERAL)
    )
    assert "Only directors" in refusal.text and refusal.ephemeral

    # Players register, then confirm with the button under the answer.
    for player in world.players:
        interaction = await standin.slash(player, "register", guild_id=GUILD, channel_id=GENERAL)
        answer = await standin.answer(interaction)
        assert player.name in answer.text
        pressed = await standin.press(player, answer, "Confirm")
        confirmed = await standin.answer(pressed)
        assert "confirmed" in confirmed.text

    # Autocomplete offers this tournament's players and the presets.
    offered = await standin.autocomplete(
        world.ana, "present", "player", guild_id=GUILD, channel_id=GENERAL, player="b"
    )
    assert [c["name"] for c in offered] == ["Bob"]
    presets = await standin.autocomplete(
        world.ana,
        "tournament",
        "preset",
        guild_id=GUILD,
        channel_id=GENERAL,
        sub="new",
        name="x",
        start="y",
        preset="hgv",
    )
    assert any(c["value"] == "hgv-backgammon" for c in presets)

    for player in world.players:
        await world.slash(player, "checkin")
    # A member with the configured director role may draw.
    drawn = await world.slash(world.dora, "draw")
    assert "Draw made" in drawn or "groups are drawn" in drawn
    # The answer said the draw's announcement: its row went out with it, and is not
    # left held for the sender to post a second time.
    assert await _settled(world)
    drawn_rows = [
        row
        for row in await _rows(world, platform="discord", status="sent")
        if "draw.done" in str(row.payload)  # type: ignore[attr-defined]
    ]
    assert len(drawn_rows) == 1

    # /me is private; the player's own open matches are offered for /report.
    me = await standin.answer(await standin.slash(alice, "me", guild_id=GUILD, channel_id=GENERAL))
    assert me.ephemeral
    offers = []
    for player in world.players:
        mine = await standin.autocomplete(
            player, "report", "match", guild_id=GUILD, channel_id=GENERAL, match=""
        )
        assert mine and all(player.name in c["name"] for c in mine)
        offers += [(int(c["value"]), player, c["name"]) for c in mine]
    # Before the start only a match both players are ready for may be played early:
    # the first one, the next of each of its players (HGV-2.3.4).
    first, reporter, label = min(offers, key=lambda offer: offer[0])
    number = str(first)
    opponent = next(p for p in world.players if p is not reporter and p.name in label)

    # The reporter reports; the opponent accepts with the button of the private message.
    reported = await world.slash(reporter, "report", score="3-1", match=number)
    assert "recorded" in reported and ("3-1" in reported or "1-3" in reported)
    pending = await standin.wait_for(
        lambda m: (
            m in standin.dms(opponent.id) and any(b["label"] == "Accept" for b in m.buttons())
        )
    )
    accepted = await standin.answer(await standin.press(opponent, pending, "Accept"))
    assert f"{number}" in accepted.text

    # The standings are one live message in the club's channel: the group's picture,
    # a PNG uploaded with the message and shown in its embed.
    live = await standin.wait_for(_standings)
    assert len(live.pngs()) == 1 and live.images() == [live.attachments[0].filename]
    width, height = _png(live.pngs()[0])
    assert width >= 300 and height >= 100 and len(live.pngs()[0]) > 1000
    assert not live.pinged
    first_picture = live.pngs()[0]

    # A director sets another result: the same standings message is edited in place.
    open_ = await standin.autocomplete(
        world.ana, "result", "match", guild_id=GUILD, channel_id=GENERAL, match=""
    )
    assert open_ and all(str(c["value"]) != str(number) for c in open_)
    edits = live.edits
    await world.slash(world.ana, "result", match=open_[0]["value"], score="3-0")
    await standin.wait_for(lambda m: m.id == live.id and m.edits > edits, seconds=30)
    assert [m.id for m in standin.messages.values() if _standings(m)] == [live.id]
    # The edit replaced the picture: one new PNG (the table changed), no old one kept.
    assert len(live.pngs()) == 1 and live.pngs()[0] != first_picture
    _png(live.pngs()[0])
    assert live.images() == [live.attachments[0].filename]


async def test_names_ping_nobody_and_closed_dms_become_a_mention(world: World) -> None:
    standin = world.standin
    await _new_cup(world)
    registered = await world.slash(world.tricky, "register")
    message = next(m for m in standin.messages.values() if m.text == registered)
    assert "\\*\\*x\\*\\*" in message.content  # shown as typed, not bold
    assert not message.pinged  # and nobody is pinged
    assert message.allowed_mentions == {"parse": []}

    # The tricky player's DMs are closed: the private "accept?" message becomes a mention
    # in #general that pings that player only; their name pings nobody.
    bob, tricky = world.players[1], world.tricky
    tricky.dms_closed = True
    await world.slash(bob, "register")
    for player in (tricky, bob):
        await world.slash(player, "checkin")
    await world.slash(world.eli, "draw")  # Eli is in CLUBTD_DIRECTORS
    mine = await standin.autocomplete(
        bob, "report", "match", guild_id=GUILD, channel_id=GENERAL, match=""
    )
    await world.slash(bob, "report", score="3-1", match=mine[0]["value"])
    mention = await standin.wait_for(
        lambda m: m.channel_id == GENERAL and f"<@{tricky.id}>" in m.content
    )
    assert mention.pinged == frozenset({f"user:{tricky.id}"})  # only the tricky player
    allowed = mention.allowed_mentions or {}
    assert allowed["parse"] == [] and [int(u) for u in allowed["users"]] == [tricky.id]
    assert not allowed.get("roles")
    assert "@everyone" not in mention.content and "@\u200beveryone" in mention.content
    assert "\\*\\*x\\*\\*" in mention.content
    assert not standin.dms(tricky.id)
    # What the DM said is in the channel (issue 20), with its buttons, still theirs.
    assert "reports match" in mention.content and "before" in mention.content
    assert [b["label"] for b in mention.buttons()] == ["Accept", "Dispute"]
    pressed = await standin.press(bob, mention, "Accept")
    await asyncio.wait_for(pressed.answered.wait(), timeout=15)
    assert standin.messages[mention.id].buttons()  # not Bob's to press: nothing changed
    pressed = await standin.press(tricky, mention, "Accept")
    await asyncio.wait_for(pressed.answered.wait(), timeout=15)
    accepted = standin.messages[mention.id]
    assert not accepted.buttons() and "\u25b8" in accepted.content


async def test_a_restart_keeps_buttons_and_a_duplicate_interaction_counts_once(
    world: World,
) -> None:
    standin = world.standin
    await _new_cup(world)
    alice = world.players[0]

    # The same interaction delivered twice is applied once.
    first = await standin.slash(alice, "register", guild_id=GUILD, channel_id=GENERAL)
    answer = await standin.answer(first)
    await standin.slash(
        alice, "register", guild_id=GUILD, channel_id=GENERAL, interaction_id=first.id
    )
    # Alice's commands run one at a time, in order: once her next one is answered and
    # nothing waits in the outbox, the duplicate has been dealt with.
    assert await world.slash(alice, "help")
    assert await _quiet(world)
    assert len(first.responses) == 1
    # Her one answer; the registration's board (the opening post, issue 20) lists her too.
    answers = [m for m in standin.in_channel(GENERAL) if "open for entries" not in m.text]
    assert sum("Alice" in m.text for m in answers) == 1

    # The process restarts; the Confirm button under the old answer still works.
    await world.bot.stop()
    await world.bot.start()
    confirmed = await standin.answer(await standin.press(alice, answer, "Confirm"))
    assert "confirmed" in confirmed.text


async def test_a_429_is_retried_with_the_servers_retry_after(world: World) -> None:
    standin = world.standin
    await _new_cup(world)
    alice, bob = world.players[:2]
    for player in (alice, bob):
        await world.slash(player, "register")
        await world.slash(player, "checkin")
    await world.slash(world.ana, "draw")
    # Alice reports; the outbox sender's message to Bob first gets a 429 with retry_after.
    standin.rate_limit("POST", r"/channels/\d+/messages$", times=1, retry_after=0.3)
    mine = await standin.autocomplete(
        alice, "report", "match", guild_id=GUILD, channel_id=GENERAL, match=""
    )
    await world.slash(alice, "report", score="3-1", match=mine[0]["value"])
    await standin.wait_for(lambda m: m in standin.dms(bob.id) and "Alice" in m.text)
    assert len(standin.rate_limited) == 1
