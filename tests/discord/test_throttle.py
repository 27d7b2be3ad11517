"""A player spamming slash commands or buttons is throttled on Discord too (bot/throttle.py):
a burst runs, then one private "slow down" in the chat's language, then no answer until
the bucket refills; other people are not held up."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest_asyncio

from bot.throttle import Rate, Throttle, Verdict
from commands.catalog import template
from tests.discord.conftest import GENERAL, GUILD
from tests.discord.inprocess import Adapter, running
from tests.discord.standin import Interaction, User

BURST = 3


class Watched:
    """The adapter's throttle, telling the test when it let a command go unanswered."""

    def __init__(self, inner: Throttle) -> None:
        self.inner = inner
        self.ignored: dict[str, asyncio.Event] = defaultdict(asyncio.Event)

    def allow(self, key: str) -> Verdict:
        verdict = self.inner.allow(key)
        if verdict is Verdict.IGNORE:
            self.ignored[key].set()
        return verdict


@pytest_asyncio.fixture
async def adapter(tmp_path: Path) -> AsyncIterator[Adapter]:
    # No refill within a test: what is refused does not depend on the machine's speed.
    async with running(tmp_path, throttle=Rate(burst=BURST, per_command=3600.0)) as adapter:
        handlers = adapter.service.handlers
        handlers.throttle = Watched(handlers.throttle)  # type: ignore[assignment]
        start = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
        await adapter.slash(adapter.ana, "tournament", sub="new", name="Cup", start=start)
        await adapter.slash(adapter.ana, "club", sub="settings", language="pl")
        yield adapter


async def _ask(adapter: Adapter, who: User, name: str, **options: object) -> Interaction:
    """`who` runs a slash command in #general, or privately with `private=True`."""
    private = bool(options.pop("private", False))
    where = {} if private else {"guild_id": GUILD, "channel_id": GENERAL}
    return await adapter.standin.slash(who, name, **where, **options)  # type: ignore[arg-type]


async def _unanswered(adapter: Adapter, interaction: Interaction) -> bool:
    """Wait until the throttle let the interaction go unanswered; return whether it was
    (the adapter returns from it without a word right after that verdict)."""
    watched = adapter.service.handlers.throttle
    assert isinstance(watched, Watched)
    await asyncio.wait_for(watched.ignored[str(interaction.user.id)].wait(), timeout=15)
    # discord.py runs each slash command in a task of its own: let them finish (the
    # ignored one among them) before looking at what was answered.
    running = [t for t in asyncio.all_tasks() if t.get_name() == "CommandTree-invoker"]
    if running:
        await asyncio.wait(running, timeout=15)
    return not interaction.responses


async def test_spam_gets_one_private_slow_down_in_the_clubs_language(adapter: Adapter) -> None:
    standin, (alice, bob) = adapter.standin, adapter.players
    slow_down = template("pl", "throttled")
    for _ in range(BURST):
        assert (await standin.answer(await _ask(adapter, alice, "help"))).text != slow_down
    refusal = await standin.answer(await _ask(adapter, alice, "help"))
    assert refusal.text == slow_down
    assert refusal.ephemeral  # only Alice sees it: the channel is not spammed
    ignored = await _ask(adapter, alice, "help")  # told once: then no answer
    assert await adapter.slash(bob, "help") != slow_down  # Bob is not held up
    assert await _unanswered(adapter, ignored)


async def test_buttons_count_too(adapter: Adapter) -> None:
    standin, alice = adapter.standin, adapter.players[0]
    registered = await standin.answer(await _ask(adapter, alice, "register"))
    for _ in range(BURST - 1):
        await standin.answer(await _ask(adapter, alice, "help"))
    label = registered.buttons()[0]["label"]
    refusal = await standin.answer(await standin.press(alice, registered, label))
    assert refusal.text == template("pl", "throttled") and refusal.ephemeral


async def test_privately_the_slow_down_is_in_the_players_own_language(adapter: Adapter) -> None:
    standin, alice = adapter.standin, adapter.players[0]
    await standin.answer(await _ask(adapter, alice, "register"))
    await standin.answer(await _ask(adapter, alice, "me", private=True, language="ro"))
    for _ in range(BURST - 2):  # /register and /me took their share of the burst
        await standin.answer(await _ask(adapter, alice, "help", private=True))
    refusal = await standin.answer(await _ask(adapter, alice, "help", private=True))
    assert refusal.text == template("ro", "throttled")


async def test_autocomplete_takes_nothing_from_the_allowance(adapter: Adapter) -> None:
    # Autocomplete fires on every keystroke: it is not throttled, and must not use up
    # the person's commands either.
    standin, alice = adapter.standin, adapter.players[0]
    for typed in ("h", "hg", "hgv", "hgv-", "hgv-b"):
        await standin.autocomplete(
            alice,
            "tournament",
            "preset",
            guild_id=GUILD,
            channel_id=GENERAL,
            sub="new",
            name="x",
            start="y",
            preset=typed,
        )
    slow_down = template("pl", "throttled")
    for _ in range(BURST):  # her whole burst is still hers
        assert (await standin.answer(await _ask(adapter, alice, "help"))).text != slow_down
