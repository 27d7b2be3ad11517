"""Issue 16, a button is a capability (A1, B1, A2): it names its club, the object and the
version it acts on and whom it is for; pressed by anyone else it is refused privately
and changes nothing. Each attack is replayed through the real command layer."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.dispatch import Response, handle
from commands.parsing import parse
from commands.registry import BY_NAME, every_command
from commands.rendering import Renderer
from commands.replies import Button, Reply, msg
from commands.session import Invocation
from storage import tables as t
from tests.commands.chat import Chat
from tournament.model import MatchStatus, TournamentStatus


async def in_room(
    chat: Chat, room: str, user: str, text: str, *, dm: bool = False, pressed: bool = False
) -> Response | None:
    """Type (or press) `text` as `user` in another group `room`, or privately."""
    inv = Invocation(
        "console",
        f"user:{user}" if dm else room,
        user,
        user,
        text,
        chat.now,
        private=dm,
        pressed=pressed,
    )
    response = await handle(inv, uow_factory=chat.uow_factory, config=chat.config)
    await chat.drain()
    return response


def text_of(response: Response | None) -> str:
    assert response is not None
    return Renderer("en", "UTC", "plain").reply(response.reply).text


async def club_id(chat: Chat, room: str = "club") -> int:
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", room)
        assert club is not None
        return club.id


async def play_out(chat: Chat) -> None:
    """Let the director enter a winning score for every ready match until the end."""
    for _ in range(200):
        state = await chat.tournament()
        if state.status is TournamentStatus.FINISHED:
            return
        ready = [
            m
            for m in sorted(state.matches.values(), key=lambda m: m.number)
            if m.is_ready and not m.is_final
        ]
        assert ready, "nothing to play"
        match = ready[0]
        await chat.say("ana", f"/result {match.number} {match.length}-0")
    raise AssertionError("the tournament did not finish")


async def wait_until(chat: Chat, moment: str) -> None:
    """Let the clock run to "YYYY-MM-DD HH:MM" UTC, applying what falls due."""
    target = datetime.fromisoformat(moment).replace(tzinfo=UTC)
    await chat.wait(int((target - chat.now).total_seconds() // 60))


async def snapshot(engine: AsyncEngine) -> dict[str, list[Any]]:
    """Every row that says what a club is and how its tournaments stand."""
    tables = [
        t.clubs,
        t.players,
        t.accounts,
        t.directors,
        t.tournaments,
        t.entries,
        t.matches,
        t.sanctions,
    ]
    out: dict[str, list[Any]] = {}
    async with engine.connect() as conn:
        for table in tables:
            rows = (await conn.execute(select(table))).all()
            out[table.name] = sorted((tuple(map(repr, r)) for r in rows), key=repr)
    return out


# -- A1: the private "confirm" of a correction named no club --


async def test_a1_private_confirm_button_names_its_club(engine: AsyncEngine) -> None:
    """A director of Alpha who plays in Beta confirms a correction privately: it acts in
    Alpha, where it was asked, and Beta's finished match 1 stays as it was."""
    chat = Chat(engine)
    await chat.say("ana", '/club name:"Alpha"')
    await chat.night("bob", "cy", "dee", "eli")
    await play_out(chat)
    await in_room(chat, "beta-group", "ana", '/club name:"Beta"')
    await in_room(chat, "beta-group", "ana", '/register name:"Ana B"')
    alpha = await club_id(chat)
    before = await snapshot(engine)
    asked = await chat.response("ana", "/reopen 1")
    assert asked is not None and asked.reply.private and not asked.refused, text_of(asked)
    (button,) = asked.reply.buttons
    assert f"club:{alpha}" in button.command and "for:ana" in button.command
    assert await snapshot(engine) == before  # asking changed nothing
    pressed = await chat.response("ana", button.command, dm=True, pressed=True)
    assert pressed is not None and not pressed.refused, text_of(pressed)
    state = await chat.tournament()
    assert state.matches[1].status is MatchStatus.SCHEDULED  # Alpha's match 1 reopened


# -- B1: buttons posted in the group ran as whoever pressed them --


async def test_b1_a_group_withdraw_button_is_only_for_whoever_asked(engine: AsyncEngine) -> None:
    """Bob pressing Alice's "Yes, withdraw" withdrew Bob: now it is refused, privately."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-02-01 20:00" approval:no')
    for player in ("alice", "bob"):
        await chat.say(player, "/register")
    asked = await chat.response("alice", "/withdraw")
    assert asked is not None and not asked.refused
    (button,) = asked.reply.buttons
    before = await snapshot(engine)
    pressed = await chat.response("bob", button.command, pressed=True)
    assert pressed is not None and pressed.refused and pressed.reply.private
    assert "for someone else" in text_of(pressed)
    assert await snapshot(engine) == before  # bob is still entered, and so is alice
    mine = await chat.response("alice", button.command, pressed=True)
    assert mine is not None and not mine.refused, text_of(mine)
    state = await chat.tournament()
    withdrawn = {p for p, e in state.entries.items() if e.status.value == "withdrawn"}
    assert withdrawn == {await chat.player_id("alice")}


# -- A1 + B1: the rule, once for every button the bot posts --


def kind(command: str) -> str:
    """A button's kind: its command, and whether it is the confirming step."""
    parsed = parse(command)
    return " ".join([parsed.name, *(["confirm"] if "confirm" in parsed.args else [])])


async def posted_buttons(chat: Chat) -> list[tuple[str, str]]:
    """Return (chat, command) of every button in the outbox, sent or not."""
    async with chat.engine.connect() as conn:
        rows = (await conn.execute(select(t.outbox.c.chat, t.outbox.c.payload))).all()
    return [(c, b["command"]) for c, p in rows for b in p.get("buttons", [])]


async def test_a1_b1_every_button_the_bot_posts_is_refused_to_anyone_else(
    engine: AsyncEngine,
) -> None:
    """A night posts each kind of button (replies and messages, in the group and
    privately); each, pressed by a member it was not for, is refused privately and
    changes nothing; a button for the group is one only directors can use."""
    chat = Chat(engine)
    await chat.say("ana", '/club name:"Alpha"')
    await chat.say("zed", "/register")  # a member, not in the tournament, not a director
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:no')
    replies: list[tuple[str, str]] = []  # (the asker, the command of a button)

    async def ask(user: str, text: str, *, dm: bool = False) -> None:
        response = await chat.response(user, text, dm=dm)
        await chat.drain()
        assert response is not None
        replies.extend((user, b.command) for b in response.reply.buttons)

    for player in ("alice", "bob", "cy", "dee"):
        await ask(player, "/register")
    await ask("dee", "/withdraw")
    for player in ("alice", "bob", "cy"):
        await ask(player, "/confirm")  # dee is reminded to confirm, the others to check in
    await wait_until(chat, "2026-01-31 19:30")  # reminders, privately, with buttons
    for player in ("alice", "bob", "cy", "dee"):
        await ask(player, "/checkin")
    await ask("ana", "/draw")
    await wait_until(chat, "2026-01-31 20:00")
    state = await chat.tournament()
    first = min(state.matches.values(), key=lambda m: m.number)
    names = {await chat.player_id(p): p for p in ("alice", "bob", "cy", "dee")}
    assert first.white is not None
    await ask(names[first.white], f"/report {first.length}-0")  # Accept/Dispute to the other
    await play_out(chat)
    await ask("ana", "/reopen 1")  # a private confirmation

    bound = [(f"user:{user}", user, c) for user, c in replies] + [
        (where, where.removeprefix("user:") if where.startswith("user:") else None, c)
        for where, c in await posted_buttons(chat)
    ]
    seen = {kind(c) for _, _, c in bound}
    assert {"confirm", "checkin", "withdraw confirm", "accept", "dispute"} <= seen, seen
    assert "reopen confirm" in seen, seen
    club = await club_id(chat)
    pressed_kinds = set()
    for _, owner, command in bound:
        assert f"club:{club}" in command, command
        if kind(command) in pressed_kinds:
            continue
        pressed_kinds.add(kind(command))
        spec = BY_NAME[parse(command).name]
        if owner is None:  # posted to the club's chat: only for directors
            assert spec.role == "director", command
        else:
            assert f"for:{owner}" in command, command
        before = await snapshot(engine)
        for dm in (False, True):
            response = await chat.response("zed", command, dm=dm, pressed=True)
            assert response is not None and response.refused, (command, text_of(response))
            assert response.reply.private, command
            assert await snapshot(engine) == before, command
    assert pressed_kinds == seen


WRITES = [s.name for s in every_command() if s.writes]


@pytest.mark.parametrize("command", WRITES)
async def test_a1_b1_a_bound_button_of_any_command_refuses_anyone_else(
    engine: AsyncEngine, command: str
) -> None:
    """Every command that changes something, carried by a button bound to alice (as the
    session binds it), is refused to bob in the group and privately, and to a director,
    before it runs."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("bob", "/register")
    club = await club_id(chat)
    button = f"/{command} club:{club} for:alice"
    before = await snapshot(engine)
    for user, dm in (("bob", False), ("bob", True), ("ana", False)):
        response = await chat.response(user, button, dm=dm, pressed=True)
        assert response is not None and response.refused and response.reply.private
        assert "for someone else" in text_of(response)
    assert await snapshot(engine) == before


def test_a1_b1_the_session_binds_a_button_to_its_club_and_its_person() -> None:
    from commands.capabilities import bind  # new with issue 16

    confirm = Button(msg("button.confirm"), "/withdraw confirm")
    look = Button(msg("button.tournament", tournament="Cup"), '/standings tournament:"Cup"', True)
    (mine, anyone) = bind(Reply((), (confirm, look)), 7, "alice").buttons
    assert mine.command == "/withdraw confirm club:7 for:alice"
    assert anyone.command == '/standings tournament:"Cup" club:7'  # a look-up stays open
    (named,) = bind(Reply((), (Button(msg("button.lot"), "/lot 1 club:3"),)), 7, None).buttons
    assert named.command == "/lot 1 club:3"
    broken = Button(msg("button.confirm"), '/director add "Ana')  # an unclosed quote
    assert bind(Reply((), (broken,)), 7, "ana").buttons == ()  # never posted unbound


# -- A2: report numbers restarted at 1 after /reopen --


async def test_a2_report_ids_are_never_reused_within_a_match(engine: AsyncEngine) -> None:
    """An Accept button of a report from before `/reopen` names a report that no longer
    stands: pressed later, it is refused, and the new score waits for its own answer."""
    chat = Chat(engine)
    await chat.night("alice", "bob", "cy", "dee")
    await wait_until(chat, "2026-01-31 20:00")
    alice = await chat.player_id("alice")
    match = (await chat.tournament()).open_matches_of(alice)[0]
    names = {await chat.player_id(n): n for n in ("bob", "cy", "dee")}
    opponent = names[match.opponent_of(alice) or 0]
    await chat.say("alice", f"/report {match.length}-0 match:{match.number}")
    first = (await chat.tournament()).matches[match.number].report
    assert first is not None
    old_button = next(
        c
        for _, c in await posted_buttons(chat)
        if c.startswith(f"/accept {match.number} report:{first.seq} ")
    )
    await chat.say(opponent, old_button)  # accepted: the match is final
    assert (await chat.tournament()).matches[match.number].is_final
    await chat.say("ana", f"/reopen {match.number} confirm")
    await chat.say("alice", f"/report {match.length}-1 match:{match.number}")
    again = (await chat.tournament()).matches[match.number].report
    assert again is not None and again.seq != first.seq
    answer = await chat.say(opponent, old_button, dm=True)
    assert "older report" in answer
    assert not (await chat.tournament()).matches[match.number].is_final


async def test_a1_a_button_naming_another_club_is_refused_in_a_group(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"Alpha" language:pl')
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-02-01 20:00" approval:no')
    await chat.say("bob", "/register")
    alpha = await club_id(chat)
    before = await snapshot(engine)
    pressed = await chat.response("bob", f"/withdraw confirm club:{alpha + 1}", pressed=True)
    assert pressed is not None and pressed.refused and pressed.reply.private
    assert pressed.language == "pl" and "innego klubu" in text_of_in(pressed, "pl")
    theirs = await chat.response("bob", f"/withdraw confirm club:{alpha} for:cy", pressed=True)
    assert theirs is not None and theirs.refused and theirs.language == "pl"
    assert "dla kogoś innego" in text_of_in(theirs, "pl")
    assert await snapshot(engine) == before


def text_of_in(response: Response, language: str) -> str:
    return Renderer(language, "UTC", "plain").reply(response.reply).text


async def test_a1_a_confirm_button_acts_only_on_the_version_it_was_offered_for(
    engine: AsyncEngine,
) -> None:
    """Issue 16 A1: a correction's confirm button names the state it was offered for.
    Asked to reopen the finished final, then the final corrected by a typed command, the
    old button is pressed: nothing changes, and the director is shown what a reopen would
    undo now, with a fresh button."""
    chat = Chat(engine)
    await chat.night("bob", "cy", "dee", "eli")
    await play_out(chat)
    state = await chat.tournament()
    final = max(state.matches.values(), key=lambda m: m.number)
    asked = await chat.response("ana", f"/reopen {final.number}")
    assert asked is not None and not asked.refused, text_of(asked)
    (old,) = asked.reply.buttons
    assert "seen:" in old.command
    # Meanwhile the final's score is corrected (the champion may change with it).
    white, black = final.white_score, final.black_score
    assert white is not None and black is not None
    corrected = f"/result {final.number} {black}-{white} confirm"
    assert not (await chat.response("ana", corrected)).refused  # type: ignore[union-attr]
    before = await snapshot(engine)
    pressed = await chat.response("ana", old.command, dm=True, pressed=True)
    assert pressed is not None, "no answer"
    assert "has changed since this confirmation was asked" in text_of(pressed)
    assert await snapshot(engine) == before  # the stale button changed nothing
    (fresh,) = pressed.reply.buttons
    assert fresh.command != old.command
    again = await chat.response("ana", fresh.command, dm=True, pressed=True)
    assert again is not None and not again.refused, text_of(again)
    assert (await chat.tournament()).matches[final.number].status is MatchStatus.SCHEDULED
