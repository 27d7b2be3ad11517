"""Offline: the Telegram outbox sender against a recording Bot API."""

from __future__ import annotations

import re
from datetime import timedelta

from bot.sending.outbox import OutboxSender
from bot.telegram_adapter.delivery import Messenger
from bot.telegram_adapter.pacing import Limits, pacer
from bot.telegram_adapter.transport import TelegramTransport
from commands.replies import Button, Msg, Name, Reply, Table, msg, say, to_payload
from storage.outbox import OutboxStore
from tests.telegram.conftest import DIRECTOR, Harness
from tests.telegram.fake import GROUP, message_update, user

BOB = user(2002, "Bob")
NEW_CUP = (
    '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00" approval:no'
)


async def club_with_bob(h: Harness) -> int:
    await h.send(message_update(1, user(DIRECTOR, "Ana"), NEW_CUP))
    await h.send(message_update(2, BOB, "/register"))
    await h.drain()  # the announcements of those commands
    async with h.service.handlers.uow_factory() as uow:
        club = await uow.clubs.for_chat("telegram", str(GROUP))
        assert club is not None
        return club.id


async def queue(
    h: Harness,
    club_id: int,
    chat: str,
    reply: Reply,
    *,
    coalesce: str | None = None,
    expires_in: timedelta | None = None,
) -> None:
    async with h.service.handlers.uow_factory() as uow:
        await uow.outbox.add(
            club_id=club_id,
            platform="telegram",
            chat=chat,
            payload=to_payload(reply),
            created_at=h.clock.now(),
            coalesce=coalesce,
            expires_at=h.clock.now() + expires_in if expires_in else None,
        )
        await uow.commit()


def note(text: str) -> Reply:
    return say("club.checkin_open", tournament=Name(text))


async def row_states(h: Harness) -> list[tuple[str, int, str | None]]:
    return [(r.status, r.attempts, r.last_error) for r in await h.rows()]


async def test_a_dm_to_someone_who_never_started_the_bot_becomes_a_mention(
    harness: Harness,
) -> None:
    h = harness
    club = await club_with_bob(h)
    await queue(h, club, f"user:{BOB['id']}", note("DM cup"))
    h.request.blocked.add(BOB["id"])
    await h.drain()
    mention = h.request.texts(GROUP)[-1]
    assert f'<a href="tg://user?id={BOB["id"]}">Bob</a>' in mention
    assert "https://t.me/clubtd_bot?start=hi" in mention
    status, attempts, error = (await row_states(h))[-1]
    assert (status, attempts) == ("pending", 1) and error is not None and "403" in error
    # Not due again yet; then a second failure does not mention again.
    assert await h.drain() == 0
    h.clock.advance(minutes=2)
    await h.drain()
    assert sum("start=hi" in text for text in h.request.texts(GROUP)) == 1
    # Bob pressed Start: the direct message goes through on the next try.
    h.request.blocked.clear()
    h.clock.advance(minutes=2)
    await h.drain()
    assert "DM cup" in h.request.texts(BOB["id"])[-1]
    assert (await row_states(h))[-1][0] == "sent"


async def test_a_dm_that_never_gets_through_is_given_up_after_a_few_tries(
    harness: Harness,
) -> None:
    h = harness
    club = await club_with_bob(h)
    await queue(h, club, f"user:{BOB['id']}", note("DM cup"))
    h.request.blocked.add(BOB["id"])
    for _ in range(5):
        await h.drain()
        h.clock.advance(minutes=2)
    assert (await row_states(h))[-1][:2] == ("failed", 5)


async def test_429_retries_at_the_servers_retry_after_and_keeps_the_order(
    harness: Harness,
) -> None:
    h = harness
    club = await club_with_bob(h)
    await queue(h, club, str(GROUP), note("first"))
    await queue(h, club, str(GROUP), note("second"))
    h.request.fail("sendMessage", 429, "Too Many Requests: retry after 7", retry_after=7)
    sent_before = len(h.request.texts(GROUP))
    await h.drain()
    assert len(h.request.texts(GROUP)) == sent_before  # nothing went out
    rows = await h.rows()
    assert [r.status for r in rows[-2:]] == ["pending", "pending"]
    assert rows[-2].next_attempt_at.replace(tzinfo=None) == (
        h.clock.now() + timedelta(seconds=7)
    ).replace(tzinfo=None)
    assert "429" in rows[-2].last_error
    h.clock.advance(seconds=6)
    assert await h.drain() == 0
    h.clock.advance(seconds=1)
    await h.drain()
    texts = h.request.texts(GROUP)[sent_before:]
    assert [("first" in x, "second" in x) for x in texts] == [(True, False), (False, True)]
    assert [r.status for r in (await h.rows())[-2:]] == ["sent", "sent"]


async def test_a_network_error_is_retried_with_backoff(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    await queue(h, club, str(GROUP), note("flaky"))
    h.request.fail("sendMessage", 502, "Bad Gateway")
    h.request.fail("sendMessage", 502, "Bad Gateway")
    await h.drain()
    h.clock.advance(seconds=2)
    await h.drain()
    assert [s for s, _, _ in await row_states(h)][-1] == "pending"
    assert await h.drain() == 0  # backing off: 4 s after the second failure
    h.clock.advance(seconds=4)
    await h.drain()
    assert "flaky" in h.request.texts(GROUP)[-1]
    assert (await row_states(h))[-1][:2] == ("sent", 3)


async def test_standings_edit_the_live_message_in_place(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    key = "standings:1:A"
    await queue(h, club, str(GROUP), note("table one"), coalesce=key)
    await h.drain()
    first_id = h.request.next_id
    await queue(h, club, str(GROUP), note("table two"), coalesce=key)
    await h.drain()
    # (Bob's entry edited the opening post, the registration's board: not this message.)
    (edit,) = [c for c in h.request.sent("editMessageText") if "table" in c.params["text"]]
    assert int(edit.params["message_id"]) == first_id and "table two" in edit.params["text"]
    assert h.request.next_id == first_id  # no new message
    # The same table again: "message is not modified" counts as done.
    await queue(h, club, str(GROUP), note("table two"), coalesce=key)
    await h.drain()
    assert (await row_states(h))[-1][0] == "sent"
    assert h.request.next_id == first_id
    # Someone deleted the message: a new one is posted and becomes the live one.
    h.request.messages.pop((GROUP, first_id))
    await queue(h, club, str(GROUP), note("table three"), coalesce=key)
    await h.drain()
    assert h.request.next_id == first_id + 1 and "table three" in h.request.texts(GROUP)[-1]
    assert (await h.rows())[-1].platform_message_id == str(first_id + 1)


async def test_expired_rows_are_not_sent(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    await queue(h, club, str(GROUP), note("stale"), expires_in=timedelta(minutes=5))
    h.clock.advance(minutes=6)
    await h.drain()
    assert not any("stale" in text for text in h.request.texts())
    assert (await row_states(h))[-1][0] == "expired"


async def test_a_long_table_goes_out_as_several_pre_blocks_under_the_limit(
    harness: Harness,
) -> None:
    h = harness
    club = await club_with_bob(h)
    rows = tuple((i, Name(f"<player {i}> & co"), i * 3) for i in range(1, 400))
    table = Table(
        title=msg("club.checkin_open", tournament=Name("Big")),
        header=(Msg("word.white"), Msg("word.black"), Msg("word.white")),
        rows=rows,
    )
    reply = Reply((table,), (Button(msg("button.confirm"), "/confirm"),))
    before = len(h.request.sent(chat_id=GROUP))
    await queue(h, club, str(GROUP), reply)
    await h.drain()
    calls = h.request.sent(chat_id=GROUP)[before:]
    assert len(calls) >= 3
    for call in calls:
        text = call.params["text"]
        assert len(text) <= 4096
        assert text.count("<pre>") == text.count("</pre>") == 1
    assert [bool(c.params.get("reply_markup")) for c in calls] == [False] * (len(calls) - 1) + [
        True
    ]
    body = "".join(re.findall(r"<pre>(.*?)</pre>", "".join(c.params["text"] for c in calls), re.S))
    for i in (1, 200, 399):
        assert f"&lt;player {i}&gt; &amp; co" in body


async def test_the_sender_paces_a_chat_and_a_group(harness: Harness) -> None:
    h = harness
    club = await club_with_bob(h)
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    paced = pacer(Limits(per_chat_seconds=1.0, group_per_minute=20), clock=lambda: now[0])
    messenger = Messenger(h.service.application.bot, h.service.messenger.buttons, paced)
    sender = OutboxSender(
        OutboxStore(h.engine),
        TelegramTransport(messenger, h.service.handlers.uow_factory),
        h.service.handlers.uow_factory,
        h.clock.now,
        batch=50,
        chat_budget=100.0,
        sleep=sleep,
        monotonic=lambda: now[0],
    )
    for i in range(25):
        await queue(h, club, str(GROUP), note(f"n{i}"))
    before = len(h.request.texts(GROUP))
    await sender.run_once()
    assert len(h.request.texts(GROUP)) - before == 20  # 20 a minute in a group
    assert slept == [1.0] * 19  # 1 a second in a chat
    held = [r for r in await h.rows() if r.status == "pending"]
    assert len(held) == 5 and all("paced" in r.last_error for r in held)


async def test_a_retry_after_a_failure_mid_message_does_not_repeat_the_first_parts(
    harness: Harness,
) -> None:
    h = harness
    club = await club_with_bob(h)
    rows = tuple((i, Name(f"player {i}"), i) for i in range(1, 400))
    table = Table(title=msg("title.group", group="A"), header=(Msg("word.white"),) * 3, rows=rows)
    await queue(h, club, str(GROUP), Reply((table,)))
    before = len(h.request.sent(chat_id=GROUP))
    h.request.faults["sendMessage"] = []
    original = h.request._answer
    count = [0]

    def second_part_fails_once(name: str, params: dict) -> tuple[int, bytes]:
        if name == "sendMessage":
            count[0] += 1
            if count[0] == 2:
                h.request.fail("sendMessage", 429, "Too Many Requests", retry_after=3)
        return original(name, params)

    h.request._answer = second_part_fails_once  # type: ignore[method-assign]
    await h.drain()
    assert len(h.request.sent(chat_id=GROUP)) - before == 1
    h.clock.advance(seconds=3)
    await h.drain()
    parts = h.request.sent(chat_id=GROUP)[before:]
    assert len(parts) >= 3
    texts = [c.params["text"] for c in parts]
    assert len(set(texts)) == len(texts)  # no part twice
    row = (await h.rows())[-1]
    assert row.status == "sent"
    assert row.platform_message_id.count(",") == len(parts) - 1
