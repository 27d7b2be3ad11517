"""Issue 16, the Discord findings: rights by id only (B2), each attack replayed through
the real adapter against the Discord stand-in, or on the settings it reads."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.settings import Settings
from commands.replies import Name, say, to_payload
from tests.discord.conftest import GENERAL, GUILD
from tests.discord.inprocess import running
from tests.discord.standin import StandIn

TD_ROLE = 700_000_000_000_000_003
EVES_ROLE = 700_000_000_000_000_099
NEW_CUP = {"name": "Cup", "start": "2026-12-31 20:00"}


# -- B2: a role merely named like the configured id made Eve a director --


async def test_b2_a_role_named_like_the_director_role_gives_no_rights(tmp_path: Path) -> None:
    def server(standin: StandIn) -> None:
        guild = standin.guilds[GUILD]
        guild.roles[TD_ROLE] = "Tournament Director"
        guild.roles[EVES_ROLE] = str(TD_ROLE)  # Eve, who manages roles, made this one
        standin.join(GUILD, standin.user(830_001, "Eve"), roles=[EVES_ROLE])
        standin.join(GUILD, standin.user(830_002, "Dora"), roles=[TD_ROLE])

    async with running(tmp_path, server, director_role=str(TD_ROLE)) as adapter:
        eve, dora = adapter.standin.users[830_001], adapter.standin.users[830_002]
        await adapter.slash(adapter.ana, "tournament", sub="new", **NEW_CUP)
        assert "Only directors" in await adapter.slash(eve, "draw")
        assert "Only directors" not in await adapter.slash(dora, "draw")  # the real role


def test_b2_a_director_role_given_by_name_is_a_start_up_error() -> None:
    for name in ("Tournament Director", "TD", "@TD"):
        with pytest.raises(ValueError, match="role id"):
            Settings(discord_director_role=name)
    assert Settings(discord_director_role=f" {TD_ROLE} ").discord_director_role == str(TD_ROLE)


# -- B3: one club's 429 held every club's announcements --

OTHER_GUILD, OTHER_CHANNEL = 900_000_000_000_000_002, 900_000_000_000_000_020


async def test_b3_one_clubs_rate_limit_never_delays_another_club(tmp_path: Path) -> None:
    """Club A's channel answers 429 with a long retry_after; club B's news, queued just
    after A's, goes out first instead of waiting behind it (in a round of its own)."""

    def server(standin: StandIn) -> None:
        standin.guild(OTHER_GUILD, "Other Club", {OTHER_CHANNEL: "general"})

    async with running(tmp_path, server) as adapter:
        standin, transport = adapter.standin, adapter.service.transport
        standin.rate_limit("POST", rf"/channels/{GENERAL}/messages", retry_after=20.0)
        rows = []
        async with adapter.service.handlers.uow_factory() as uow:
            for guild, channel, name in ((GUILD, GENERAL, "A"), (OTHER_GUILD, OTHER_CHANNEL, "B")):
                club = await uow.clubs.add(name, "UTC", "en", adapter.service.sender.clock())
                await uow.clubs.link_chat(club.id, "discord", str(guild))
                await uow.meta.set(f"discord.channel.{guild}", str(channel))
                rows.append((club.id, str(guild), say("club.joined", club=Name(f"Club {name}"))))
            await uow.commit()
        for club_id, guild, reply in rows:  # A's first; B's once A was told to wait
            async with adapter.service.handlers.uow_factory() as uow:
                await uow.outbox.add(
                    club_id=club_id,
                    platform="discord",
                    chat=guild,
                    payload=to_payload(reply),
                    created_at=adapter.service.sender.clock(),
                )
                await uow.commit()
            adapter.service.sender.wake()
            for _ in range(100):
                if standin.rate_limited:
                    break
                await asyncio.sleep(0.05)
        got = await standin.wait_for(lambda m: "Club B" in m.text, seconds=10)
        assert got.channel_id == OTHER_CHANNEL
        assert len(standin.rate_limited) == 1  # A was limited, and B did not wait for it
        assert not [m for m in standin.in_channel(GENERAL) if "Club A" in m.text]
        assert transport.delay(str(GUILD)) > 0  # A waits its turn, paced on its own


# -- C3: Discord cut a table at 4,096 characters --


def test_c3_a_long_table_is_split_within_every_discord_limit() -> None:
    """64 players' whole schedule (the review's 19,373 characters) goes out whole: no
    embed description over 4,096, no message's embeds over 6,000 characters or 10
    embeds, no content over 2,000, and every row is there."""
    from datetime import UTC, datetime

    from bot.discord_adapter.posts import text_posts
    from bot.discord_adapter.rendering import render
    from commands import views
    from commands.replies import Reply
    from tournament.preset import load_preset
    from tournament.simulation import new_tournament, play_out

    state = new_tournament(
        load_preset("hgv-backgammon"), 64, datetime(2026, 3, 6, 20, tzinfo=UTC), seed=1
    )
    play_out(state, seed=1)
    names = {p: f"Player Number {p:02d}" for p in state.entries}
    table = views.schedule_table(
        state, sorted(state.matches.values(), key=lambda m: m.number), names
    )
    assert len(table.rows) > 150
    posts = text_posts(render(Reply((table,)), "en", "UTC"))
    embeds = [e for post in posts for e in post.embeds]
    for post in posts:
        assert len(post.content or "") <= 2000
        assert len(post.embeds) <= 10
        assert sum(len(e.title or "") + len(e.description or "") for e in post.embeds) <= 6000
    assert all(len(e.description or "") <= 4096 for e in embeds)
    assert all((e.description or "").count("```") == 2 for e in embeds)  # whole blocks
    shown = "\n".join(e.description or "" for e in embeds)
    assert sum(len(e.description or "") for e in embeds) > 12_000
    for number in sorted(state.matches):
        assert f" {number} " in f" {shown} ".replace("\n", " "), number


# -- C5: no `club` option in Discord DMs; typed options re-parsed as text --


def test_c5_a_typed_option_reaches_the_handler_as_a_value() -> None:
    """`/report score:"3-1 club:Beta"` acted in Beta: an option's words never become
    another option, whatever they hold."""
    from bot.discord_adapter.options import command_line, commands
    from commands.parsing import parse

    every = [s for c in commands() for s in (c.subcommands or (c,))]
    for shape in every:
        for o in shape.options:
            if o.kind != "text" or o.name == "club":
                continue
            value = "3-1 club:Beta tournament:X"
            parsed = parse(command_line(shape, {o.name: value}))
            assert set(parsed.options) <= {o.name}, (shape.path, parsed)  # no other option
            said = parsed.options.get(o.name) or " ".join(parsed.args)
            assert said.endswith(value), (shape.path, parsed)  # the words, as they came


def test_c5_every_discord_command_has_a_club_option() -> None:
    from bot.discord_adapter.options import commands

    every = [s for c in commands() for s in (c.subcommands or (c,))]
    assert every and all(any(o.name == "club" for o in s.options) for s in every)
    assert all(len(s.options) <= 25 for s in every)


async def test_c5_private_autocomplete_lists_the_persons_clubs_not_the_oldest(
    engine: AsyncEngine,
) -> None:
    from commands.suggest import Asker, suggest
    from tests.commands.chat import Chat
    from tests.security.test_button_findings import in_room

    chat = Chat(engine)
    await chat.say("ana", '/club name:"Alpha"')
    await chat.say("ana", '/tournament new name:"Cup A" start:"2026-02-01 20:00" approval:no')
    await chat.say("bob", "/register")
    await in_room(chat, "beta-group", "ana", '/club name:"Beta"')
    await in_room(
        chat, "beta-group", "ana", '/tournament new name:"Cup B" start:"2026-02-02 20:00"'
    )
    await in_room(chat, "beta-group", "bob", "/register")
    await in_room(chat, "beta-group", "cy", "/register")
    bob = Asker("console", "user:bob", "bob", private=True)
    clubs = await suggest("club", "", bob, uow_factory=chat.uow_factory)
    assert [label for label, _ in clubs] == ["Alpha", "Beta"]
    assert await suggest("player", "", bob, uow_factory=chat.uow_factory) == []  # which?
    beta = dataclasses.replace(bob, club="Beta")
    players = await suggest("player", "", beta, uow_factory=chat.uow_factory)
    assert [label for label, _ in players] == ["bob", "cy"]
