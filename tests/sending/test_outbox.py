"""The shared outbox sender against a fake transport, on a real database.

What a transport's neutral errors mean for a row: `RetryLater` holds the chat's later
rows behind it, `Unreachable` tells the person in the club's chat (once an hour) and
tries again, `Rejected` fails the row, or marks it sent when some parts went out; a
live message key edits the message it replaced; a bug in a transport loses no row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sending.outbox import OutboxSender
from bot.sending.transport import Progress, Rejected, RetryLater, Unreachable
from commands.replies import Reply, say, to_payload
from storage import tables as t
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory
from tournament.club import Club

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
GOES = None  # in a fail script: this part goes out


@dataclass
class FakeTransport:
    """Records deliveries of `parts` messages a reply; `fail` scripts a chat's next parts.

    Each entry of `fail[chat]` is used by one part: an exception is raised, `GOES` lets
    the part out. `delays` is what `delay` answers per chat.
    """

    platform: str = "fake"
    parts: int = 1
    sent: list[tuple[str, str, str | None]] = field(default_factory=list)
    languages: dict[str, str] = field(default_factory=dict)  # chat -> rendered in
    told: list[str] = field(default_factory=list)
    tell_fails: list[Exception] = field(default_factory=list)
    paused: dict[str, float] = field(default_factory=dict)
    fail: dict[str, list[Exception | None]] = field(default_factory=dict)
    delays: dict[str, float] = field(default_factory=dict)
    ids: int = 0
    says_missed: bool = False  # a closed DM is said in the club's chat (Discord)
    missed: list[tuple[str, str]] = field(default_factory=list)  # (user, catalog key)

    def delay(self, chat: str) -> float:
        return self.delays.get(chat, 0.0)

    def pause(self, chat: str, seconds: float) -> None:
        self.paused[chat] = seconds

    async def deliver(
        self, chat: str, reply: Reply, club: Club, live: str | None, progress: Progress
    ) -> str:
        self.languages[chat] = club.language
        key = reply.parts[0].key  # type: ignore[union-attr]
        progress.parts = self.parts
        for index in range(len(progress.sent), self.parts):
            script = self.fail.get(chat)
            error = script.pop(0) if script else None
            if error is not None:
                raise error
            self.ids += 1
            self.sent.append((chat, key if self.parts == 1 else f"{key}/{index}", live))
            if live:
                return live
            progress.sent.append(f"m{self.ids}")
        return ",".join(progress.sent)

    async def deliver_missed(
        self, club_id: int, club: Club, user: str, reply: Reply
    ) -> str | None:
        if not self.says_missed:
            return None
        self.missed.append((user, reply.parts[0].key))  # type: ignore[union-attr]
        return "m-club"

    async def tell_unreachable(self, club_id: int, club: Club, user: str) -> None:
        if self.tell_fails:
            raise self.tell_fails.pop(0)
        self.told.append(user)


@dataclass
class Clock:
    at: datetime = NOW

    def now(self) -> datetime:
        return self.at

    def monotonic(self) -> float:
        return self.at.timestamp()

    async def sleep(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


Row = tuple[str, str] | tuple[str, str, str | None] | tuple[str, dict[str, Any]]


async def _setup(engine: AsyncEngine, rows: list[Row]) -> None:
    """Queue rows: (chat, catalog key[, coalesce]) or (chat, raw payload)."""
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.add("Club", "UTC", "en", NOW)
        for chat, what, *rest in rows:
            await uow.outbox.add(
                club_id=club.id,
                platform="fake",
                chat=chat,
                payload=what if isinstance(what, dict) else to_payload(say(what)),
                created_at=NOW,
                coalesce=rest[0] if rest else None,
            )
        await uow.commit()


async def _rows(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list(await conn.execute(select(t.outbox).order_by(t.outbox.c.id)))


async def _statuses(engine: AsyncEngine) -> list[tuple[str, str]]:
    return [(r.chat, r.status) for r in await _rows(engine)]


def _sender(
    engine: AsyncEngine, transport: FakeTransport, clock: Clock | None = None, **options: Any
) -> OutboxSender:
    clock = clock or Clock()
    return OutboxSender(
        OutboxStore(engine),
        transport,
        unit_of_work_factory(engine),
        clock.now,
        sleep=clock.sleep,
        monotonic=clock.monotonic,
        **options,
    )


async def test_retry_later_holds_the_chats_later_rows_in_order(engine: AsyncEngine) -> None:
    transport = FakeTransport(fail={"g": [RetryLater(7.0, "429")]})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title"), ("g", "help.me"), ("h", "help.me")])
    await sender.run_once()
    assert transport.sent == [("h", "help.me", None)]  # another chat is not held
    assert transport.paused == {"g": 7.0}
    assert await _statuses(engine) == [("g", "pending"), ("g", "pending"), ("h", "sent")]
    clock.at += timedelta(seconds=6)
    assert await sender.run_once() == 0  # not before the server's retry-after
    clock.at += timedelta(seconds=1)
    await sender.run_once()
    assert transport.sent[1:] == [("g", "help.title", None), ("g", "help.me", None)]
    assert await _statuses(engine) == [("g", "sent"), ("g", "sent"), ("h", "sent")]


async def test_a_passing_fault_is_retried_with_backoff_without_pausing_the_chat(
    engine: AsyncEngine,
) -> None:
    transport = FakeTransport(fail={"g": [RetryLater(0.0, "502"), RetryLater(0.0, "502")]})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title")])
    await sender.run_once()
    clock.at += timedelta(seconds=2)
    await sender.run_once()
    assert transport.paused == {}  # only the platform's own retry-after pauses a chat
    clock.at += timedelta(seconds=3)
    assert await sender.run_once() == 0  # backing off: 4 s after the second failure
    clock.at += timedelta(seconds=1)
    await sender.run_once()
    (row,) = await _rows(engine)
    assert (row.status, row.attempts) == ("sent", 3)


async def test_unreachable_person_is_told_and_rejected_rows_fail(engine: AsyncEngine) -> None:
    transport = FakeTransport(fail={"user:5": [Unreachable("50007")], "g": [Rejected("400")]})
    await _setup(engine, [("user:5", "help.me"), ("g", "help.title")])
    await _sender(engine, transport).run_once()
    assert transport.told == ["5"]
    assert await _statuses(engine) == [("user:5", "pending"), ("g", "failed")]


async def test_a_closed_dm_is_said_in_the_clubs_chat_where_the_platform_does(
    engine: AsyncEngine,
) -> None:
    transport = FakeTransport(fail={"user:5": [Unreachable("50007")]}, says_missed=True)
    await _setup(engine, [("user:5", "help.me")])
    await _sender(engine, transport).run_once()
    assert transport.missed == [("5", "help.me")] and transport.told == []
    (row,) = await _rows(engine)
    assert row.status == "sent" and "said in the club's chat" in row.last_error


async def test_an_unreachable_person_is_told_once_an_hour_and_given_up_on(
    engine: AsyncEngine,
) -> None:
    transport = FakeTransport(fail={"user:5": [Unreachable("403")] * 9})
    clock = Clock()
    sender = _sender(engine, transport, clock, dm_attempts=4)
    await _setup(engine, [("user:5", "help.me")])
    # The club's chat must wait: nobody was told, so the next try tells them.
    transport.tell_fails.append(RetryLater(30.0, "paced"))
    await sender.run_once()
    assert transport.told == []
    for _ in range(2):
        clock.at += timedelta(minutes=2)
        await sender.run_once()
    assert transport.told == ["5"]  # told on the second try, not again on the third
    (row,) = await _rows(engine)
    assert (row.status, row.attempts) == ("pending", 3) and "unreachable" in row.last_error
    clock.at += timedelta(hours=1)
    await sender.run_once()
    assert transport.told == ["5", "5"]  # an hour later: once more
    (row,) = await _rows(engine)
    assert (row.status, row.attempts) == ("failed", 4)


async def test_a_live_message_is_edited_in_place(engine: AsyncEngine) -> None:
    transport = FakeTransport()
    sender = _sender(engine, transport)
    await _setup(engine, [("g", "help.title", "standings:1")])
    await sender.run_once()
    await _setup(engine, [("g", "help.me", "standings:1")])
    await sender.run_once()
    assert transport.sent == [("g", "help.title", None), ("g", "help.me", "m1")]


async def test_a_retry_sends_only_the_parts_that_did_not_go_out(engine: AsyncEngine) -> None:
    transport = FakeTransport(parts=3, fail={"g": [GOES, RetryLater(5.0, "429")]})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title")])
    await sender.run_once()
    assert [key for _, key, _ in transport.sent] == ["help.title/0"]
    clock.at += timedelta(seconds=5)
    await sender.run_once()
    assert [key for _, key, _ in transport.sent] == [
        "help.title/0",
        "help.title/1",
        "help.title/2",
    ]
    (row,) = await _rows(engine)
    assert (row.status, row.platform_message_id) == ("sent", "m1,m2,m3")


async def test_a_refusal_after_some_parts_marks_the_row_sent_with_the_error(
    engine: AsyncEngine,
) -> None:
    transport = FakeTransport(parts=3, fail={"g": [GOES, Rejected("400: too long")]})
    await _setup(engine, [("g", "help.title"), ("g", "help.me")])
    await _sender(engine, transport).run_once()
    first, second = await _rows(engine)
    assert (first.status, first.platform_message_id) == ("sent", "m1")
    assert first.last_error == "rejected after 1 of 3 parts: 400: too long"
    assert second.status == "sent"  # a refusal does not hold the chat


async def test_a_chat_gets_only_its_budget_of_a_round(engine: AsyncEngine) -> None:
    transport = FakeTransport(delays={"g": 1.0})
    await _setup(engine, [("g", "help.me")] * 5 + [("h", "help.me")])
    await _sender(engine, transport, chat_budget=2.5).run_once()
    # Two waits of 1 s fit in 2.5 s; the third would not: the rest wait for the next round.
    assert sorted(chat for chat, _, _ in transport.sent) == ["g", "g", "h"]
    rows = await _rows(engine)
    held = [r for r in rows if r.status == "pending"]
    assert len(held) == 3 and all("paced" in r.last_error for r in held)


async def test_a_bad_payload_fails_its_row_and_the_chat_goes_on(engine: AsyncEngine) -> None:
    transport = FakeTransport()
    await _setup(engine, [("g", {"nothing": "useful"}), ("g", "help.me")])
    await _sender(engine, transport).run_once()
    first, second = await _rows(engine)
    assert first.status == "failed" and first.last_error.startswith("bad payload")
    assert second.status == "sent" and transport.sent == [("g", "help.me", None)]


async def test_a_bug_in_the_transport_loses_no_row(engine: AsyncEngine) -> None:
    transport = FakeTransport(fail={"g": [RuntimeError("a bug")]})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title"), ("g", "help.me")])
    await sender.run_once()
    rows = await _rows(engine)
    assert [r.status for r in rows] == ["pending", "pending"]
    assert "a bug" in rows[0].last_error and "behind row" in rows[1].last_error
    clock.at += timedelta(seconds=2)  # the first backoff
    await sender.run_once()
    assert [key for _, key, _ in transport.sent] == ["help.title", "help.me"]
    assert await _statuses(engine) == [("g", "sent"), ("g", "sent")]


async def test_a_direct_message_is_rendered_in_its_players_language(
    engine: AsyncEngine,
) -> None:
    transport = FakeTransport()
    payload = {**to_payload(say("help.me")), "language": "pl"}
    await _setup(engine, [("user:5", payload), ("user:6", "help.me")])
    await _sender(engine, transport).run_once()
    # The two chats are sent concurrently: which goes first is not fixed.
    assert transport.languages == {"user:5": "pl", "user:6": "en"}


async def _queue(engine: AsyncEngine, chat: str, key: str) -> None:
    """Queue one more row for the club the first rows were queued for."""
    club_id = (await _rows(engine))[0].club_id
    async with unit_of_work_factory(engine)() as uow:
        await uow.outbox.add(
            club_id=club_id,
            platform="fake",
            chat=chat,
            payload=to_payload(say(key)),
            created_at=NOW,
        )
        await uow.commit()


async def test_a_row_that_keeps_failing_is_given_up_and_the_chat_goes_on(
    engine: AsyncEngine,
) -> None:
    """A poison row must not hold the chat's later rows for the rest of the night."""
    transport = FakeTransport(fail={"g": [RuntimeError("a bug")] * 3})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title"), ("g", "help.me")])
    for _ in range(4):
        await sender.run_once()
        clock.at += timedelta(seconds=10)
    first, second = await _rows(engine)
    assert first.status == "failed" and "given up after 3 tries" in first.last_error
    assert second.status == "sent" and transport.sent == [("g", "help.me", None)]


async def test_a_row_queued_behind_a_failing_one_waits_for_it(engine: AsyncEngine) -> None:
    """Per-chat order holds even for a row that was not claimed with the failing one."""
    transport = FakeTransport(fail={"g": [RetryLater(0.0, "502")]})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title"), ("g", "help.me")])
    await sender.run_once()  # help.title fails: 2 s of backoff, help.me held behind it
    clock.at += timedelta(seconds=1)
    await _queue(engine, "g", "help.line")
    await sender.run_once()  # only help.line is due: it must not overtake
    assert transport.sent == []
    clock.at += timedelta(seconds=2)
    for _ in range(3):
        await sender.run_once()
        clock.at += timedelta(seconds=2)
    assert [key for _, key, _ in transport.sent] == ["help.title", "help.me", "help.line"]


async def test_a_paced_hold_is_not_overtaken_by_a_newer_row(engine: AsyncEngine) -> None:
    transport = FakeTransport(delays={"g": 3.0})  # the chat's window is full for 3 s
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title"), ("g", "help.me")])
    await sender.run_once()
    clock.at += timedelta(seconds=1.6)
    transport.delays["g"] = 1.4
    await _queue(engine, "g", "help.line")
    await sender.run_once()  # only the newest is due: it waits for the older two
    clock.at += timedelta(seconds=5)
    transport.delays["g"] = 0.0
    for _ in range(2):
        await sender.run_once()
        clock.at += timedelta(seconds=5)
    assert [key for _, key, _ in transport.sent] == ["help.title", "help.me", "help.line"]


async def test_an_outage_gives_nothing_up(engine: AsyncEngine) -> None:
    """Every chat failing alike is the network, not the rows: they wait it out."""
    down = [RetryLater(0.0, "NetworkError")] * 12
    transport = FakeTransport(fail={"g": list(down), "h": list(down)})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title"), ("h", "help.me")])
    for _ in range(200):
        await sender.run_once()
        clock.at += timedelta(seconds=20)
    assert await _statuses(engine) == [("g", "sent"), ("h", "sent")]


async def test_a_fault_only_one_row_meets_is_given_up_while_others_go(
    engine: AsyncEngine,
) -> None:
    transport = FakeTransport(fail={"g": [RetryLater(0.0, "502")] * 10})
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("g", "help.title"), ("h", "help.me")])
    for _ in range(120):
        await sender.run_once()
        clock.at += timedelta(seconds=20)
        if len(await _rows(engine)) < 6:
            await _queue(engine, "h", "help.line")  # the platform takes other chats' rows
    first = (await _rows(engine))[0]
    assert first.status == "failed" and "given up after 10 tries" in first.last_error


async def test_a_database_hiccup_is_a_passing_fault_not_a_bug(engine: AsyncEngine) -> None:
    from sqlalchemy.exc import OperationalError

    class Locked:
        def __init__(self, store: OutboxStore, times: int) -> None:
            self.store, self.times = store, times

        def __getattr__(self, name: str) -> Any:
            return getattr(self.store, name)

        async def mark_sent(self, *args: Any, **kwargs: Any) -> None:
            if self.times:
                self.times -= 1
                raise OperationalError("UPDATE", {}, Exception("database is locked"))
            return await self.store.mark_sent(*args, **kwargs)

    transport = FakeTransport()
    clock = Clock()
    sender = _sender(engine, transport, clock)
    sender.store = Locked(sender.store, 4)  # type: ignore[assignment]
    await _setup(engine, [("g", "help.title", "standings:1")])
    for _ in range(8):
        await sender.run_once()
        clock.at += timedelta(seconds=20)
    (row,) = await _rows(engine)
    assert row.status == "sent" and transport.sent == [("g", "help.title", None)]


async def test_holds_do_not_use_up_a_direct_messages_tries(engine: AsyncEngine) -> None:
    """A DM held back behind another is not a DM tried: its 403s get their own tries."""
    transport = FakeTransport(
        fail={"user:5": [RetryLater(0.0, "502")] * 4 + [Unreachable("403")] * 9}
    )
    clock = Clock()
    sender = _sender(engine, transport, clock)
    await _setup(engine, [("user:5", "help.title"), ("user:5", "help.me")])
    for _ in range(6):
        await sender.run_once()
        clock.at += timedelta(seconds=40)
    second = (await _rows(engine))[1]
    assert second.status == "pending" and second.attempts == 1  # one real try, a 403
