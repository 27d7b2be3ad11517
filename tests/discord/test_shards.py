"""One bot split over two processes by Discord shard (CLUBTD_DISCORD_SHARDS), on one
PostgreSQL: each process connects only its shard, each guild's commands are answered
once by the process of its shard, and the outbox they share sends every post once."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import select

from bot.settings import Settings, Shards, parse_shards
from storage import tables as t
from storage.engine import make_engine
from tests.discord.process import BotProcess, require_discord
from tests.discord.standin import StandIn, User

# Two servers on different shards of two: shard = (guild_id >> 22) % 2.
EVEN_GUILD = 700_000_000_000_000_001 & ~(1 << 22)
ODD_GUILD = EVEN_GUILD | (1 << 22)
CHANNELS = {EVEN_GUILD: 700_000_000_000_100_001, ODD_GUILD: 700_000_000_000_100_002}


@pytest.mark.parametrize(
    ("text", "ids", "count"),
    [("0-1/4", (0, 1), 4), ("2/4", (2,), 4), (" 0,2-3/4 ", (0, 2, 3), 4), ("0/1", (0,), 1)],
)
def test_a_shard_range_reads_as_ids_of_a_count(text: str, ids: tuple[int, ...], count: int):
    assert parse_shards(text) == Shards(ids, count)
    assert Settings(discord_shards=text).discord_shards == Shards(ids, count)  # type: ignore[arg-type]


def test_no_shard_setting_runs_them_all() -> None:
    assert parse_shards(None) is None and parse_shards("  ") is None
    assert Settings().discord_shards is None


@pytest.mark.parametrize("text", ["4/4", "1-0/4", "a/b", "0-1", "0/0", "-1/2", "0-/2"])
def test_a_wrong_shard_range_says_how_to_write_it(text: str) -> None:
    with pytest.raises(ValueError, match="0-1/4"):
        parse_shards(text)


def _start() -> str:
    at = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(minutes=30)
    return at.strftime("%Y-%m-%d %H:%M")


class Split:
    """A stand-in with two shards, two servers, and one `clubtd run` per shard."""

    def __init__(self, standin: StandIn, bots: list[BotProcess]) -> None:
        self.standin = standin
        self.bots = bots
        self.directors: dict[int, User] = {}
        self.players: dict[int, list[User]] = {}

    async def slash(self, who: User, guild: int, name: str, /, **options: object) -> str:
        interaction = await self.standin.slash(
            who, name, guild_id=guild, channel_id=CHANNELS[guild], **options
        )
        return (await self.standin.answer(interaction)).text


@pytest_asyncio.fixture
async def split(tmp_path: Path, database_url: str) -> AsyncIterator[Split]:
    reason = require_discord()
    if reason is not None:
        pytest.skip(reason)
    standin = StandIn()
    standin.shard_count = 2
    world = Split(standin, [])
    for n, guild in enumerate(CHANNELS):
        standin.guild(guild, f"Club {n}", {CHANNELS[guild]: "general"})
        director = standin.user(800_100 + n, f"Director {n}")
        standin.join(guild, director, manage=True)
        world.directors[guild] = director
        world.players[guild] = []
        for i, name in enumerate(["Alice", "Bob", "Cruz", "Dan"]):
            player = standin.user(810_100 + 10 * n + i, f"{name} {n}")
            standin.join(guild, player)
            world.players[guild].append(player)
    await standin.start()
    for shard in (0, 1):
        world.bots.append(
            BotProcess(
                standin,
                database_url,
                tmp_path / f"clubtd-{shard}.log",
                env={"CLUBTD_DISCORD_SHARDS": f"{shard}/2"},
            )
        )
    try:
        for bot in world.bots:
            await bot.start()
        yield world
    finally:
        for bot in world.bots:
            await bot.stop()
        await standin.stop()


# Sent, or given way to a newer version of the same live message (the registration's
# board, edited at each entry: issue 20).
SETTLED = frozenset({"sent", "superseded"})


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_two_processes_split_the_guilds_and_send_each_post_once(split: Split) -> None:
    standin = split.standin
    # Each process identified with its own shard, and only shard 0's published the commands.
    assert sorted(standin.identifies) == [(0, 2), (1, 2)]
    assert (
        standin.requests.count(
            "PUT /api/v10/applications/{}/commands".format(standin.commands[0]["application_id"])
        )
        == 1
    )

    for guild in CHANNELS:
        director = split.directors[guild]
        created = await split.slash(
            director,
            guild,
            "tournament",
            sub="new",
            name="January Cup",
            start=_start(),
            preset="hgv-backgammon",
            approval="no",
        )
        assert "January Cup" in created
        for player in split.players[guild]:
            assert player.name in await split.slash(player, guild, "register")
            await split.slash(player, guild, "confirm")
            await split.slash(player, guild, "checkin")
        await split.slash(director, guild, "draw")
        # A report asks the opponent to accept it: a direct message the outbox sends.
        alice = split.players[guild][0]
        assert alice.name in await split.slash(alice, guild, "report", score="3-1")

    # Every interaction was answered, and answered once: by the process of its shard.
    callbacks = Counter(r.split("/")[4] for r in standin.requests if r.endswith("/callback"))
    assert set(callbacks) == {str(i) for i in standin.interactions}
    assert set(callbacks.values()) == {1}

    # Both servers' news went out through the shared outbox: each row settled, and no post
    # twice though two senders share the rows.
    engine = make_engine(split.bots[0].database_url)
    try:
        for _ in range(150):
            async with engine.connect() as conn:
                rows = list(
                    await conn.execute(select(t.outbox).where(t.outbox.c.platform == "discord"))
                )
            if rows and all(row.status in SETTLED for row in rows):
                break
            await asyncio.sleep(0.1)
    finally:
        await engine.dispose()
    assert rows and all(row.status in SETTLED for row in rows), [r.status for r in rows]
    # The sender's own posts (not answers to a command): the opponents' report notices.
    sent = Counter(
        (m.channel_id, m.text, tuple(a.filename for a in m.attachments))
        for m in standin.messages.values()
        if m.interaction_id is None
    )
    notified = {channel for channel, _, _ in sent}
    assert len(notified) >= 2, sent  # one opponent in each server
    doubled = [post for post, times in sent.items() if times > 1]
    assert not doubled, doubled
