"""A 16-player night in a Telegram group, offline: how many posts the group sees (issue 20)."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from typing import Any

from commands.binding import given_values
from commands.parsing import ParseError, parse
from commands.registry import BY_NAME, COMMANDS, select
from commands.sweeping import sweep_due
from tests.night import Tally, called_matches, hints, play_night
from tests.telegram.conftest import DIRECTOR, Harness
from tests.telegram.fake import GROUP, callback_update, message_update, user
from tournament.state import TournamentState

START = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
NEW_CUP = (
    '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00" approval:no'
)
SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup"})
EDITS = frozenset({"editMessageText", "editMessageReplyMarkup", "editMessageMedia"})


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _buttons(markup: Any) -> list[tuple[str, str]]:
    if isinstance(markup, str):
        markup = json.loads(markup)
    if not markup:
        return []
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [(b["text"], b.get("callback_data", "")) for row in rows for b in row]


class TelegramTable:
    """The night's moves through the real Telegram adapter on a recording Bot API."""

    def __init__(self, harness: Harness) -> None:
        self.h = harness
        self.people = {str(DIRECTOR): user(DIRECTOR, "Ana")}
        for i in range(16):
            self.people[str(3000 + i)] = user(3000 + i, f"Player{i + 1:02d}")
        self.players = [k for k in self.people if k != str(DIRECTOR)]
        self.director = str(DIRECTOR)
        self.update = 100
        self.pressed: list[tuple[int, int]] = []  # (chat, message) of each button pressed

    def _next(self) -> int:
        self.update += 1
        return self.update

    async def type(self, who: str, text: str) -> None:
        await self.h.send(message_update(self._next(), self.people[who], text))

    async def press(self, who: str, label: str) -> bool:
        for (chat, message_id), message in reversed(self.h.request.messages.items()):
            if chat not in (GROUP, int(who)):
                continue
            data = next((d for t, d in _buttons(message.get("reply_markup")) if t == label), None)
            if data is None:
                continue
            update = callback_update(
                self._next(), self.people[who], data, chat_id=chat, message_id=message_id
            )
            update["callback_query"]["message"]["text"] = message.get("text") or "?"
            await self.h.send(update)
            self.pressed.append((chat, message_id))
            return True
        return False

    async def settle(self) -> None:
        while await self.h.drain():
            pass

    async def state(self) -> TournamentState:
        async with self.h.service.handlers.uow_factory() as uow:
            club = await uow.clubs.for_chat("telegram", str(GROUP))
            assert club is not None
            state = await uow.tournaments.current(club.id)
            assert state is not None
            return state

    async def account(self, player_id: int) -> str:
        async with self.h.service.handlers.uow_factory() as uow:
            accounts = await uow.players.accounts(player_id)
        return next(e for p, e in accounts if p == "telegram")

    def counts(self) -> tuple[int, int, int]:
        calls = [c for c in self.h.request.calls if c.status == 200]
        public = sum(1 for c in calls if c.method in SENDS and int(c.params["chat_id"]) < 0)
        private = sum(1 for c in calls if c.method in SENDS and int(c.params["chat_id"]) > 0)
        edits = sum(1 for c in calls if c.method in EDITS)
        return public, private, edits

    def now(self) -> datetime:
        return self.h.clock.at

    async def poke(self) -> None:
        handlers = self.h.service.handlers
        await sweep_due(uow_factory=handlers.uow_factory, config=handlers.config, now=self.now())

    def set_clock(self, moment: datetime) -> None:
        if moment > self.h.clock.at:
            self.h.clock.at = moment


async def _night(harness: Harness) -> tuple[TelegramTable, Tally]:
    table = TelegramTable(harness)
    harness.request.admins[GROUP] = {DIRECTOR}
    await table.type(table.director, NEW_CUP)
    await table.settle()
    return table, await play_night(table, START)


async def test_a_sixteen_player_night_counts_its_posts(harness: Harness) -> None:
    table, tally = await _night(harness)
    print(f"\nTelegram 16-player night: {tally.summary()}")
    assert not tally.noisy(), tally.noisy()  # at most one public post per event
    state = await table.state()
    assert state.status == "finished"
    # Every pressed button's message was updated: what happened, by whom, no buttons.
    assert table.pressed
    for key in table.pressed:
        message = harness.request.messages[key]
        assert "\u25b8" in message["text"] and not message.get("reply_markup"), message
    await _round_calls_link_their_players(table)
    # The opening post became the registration's board, edited entry by entry.
    shown = [str(m.get("text") or "") for m in harness.request.messages.values()]
    (opening,) = [text for text in shown if "open for entries" in text]
    assert "Entries (16)" in opening and opening.count("\u2713") == 32, opening
    _every_hint_is_typable(table)


async def test_no_director_command_is_in_a_members_menu(harness: Harness) -> None:
    """Telegram's menus by role: the default scope lists players' commands only, in every
    language; the administrators' scope all of them (published when the service opens)."""
    menus = [c for c in harness.request.calls if c.method == "setMyCommands"]
    players = {s.name for s in COMMANDS if s.role == "player"}
    for call in menus:
        scope = _json(call.params["scope"])["type"]
        listed = {c["command"] for c in _json(call.params["commands"])}
        wanted = players if scope == "default" else {s.name for s in COMMANDS}
        assert listed == wanted, (scope, call.params.get("language_code"))
    assert len(menus) == 8  # two scopes, four languages


def _every_hint_is_typable(table: TelegramTable) -> None:
    """Every command a message says to type is read by the shared parser as a command
    of the registry, with options and words it takes (`/result 1 3-0`)."""
    texts = [
        html.unescape(str(c.params.get("text") or c.params.get("caption") or ""))
        for c in table.h.request.calls
        if c.method in SENDS | EDITS
    ]
    said = {hint for text in texts for hint in hints(text)}
    assert any(" " in hint for hint in said), said  # the dispute's and the refusal's
    wrong = [hint for hint in sorted(said) if not _typable(hint)]
    assert not wrong, wrong


def _typable(hint: str) -> bool:
    try:
        parsed = parse(hint)
    except ParseError:
        return False
    spec = BY_NAME.get(parsed.name)
    if spec is None:
        return False
    target, words = select(spec, parsed)
    keys = {k for p in target.signature.params for k in (p.name, *p.aliases)}
    return set(parsed.options) <= keys and "..." not in given_values(
        target.signature, parsed, words
    )


async def _round_calls_link_their_players(table: TelegramTable) -> None:
    """Each round call in the group links exactly its players by id (HTML mentions), a
    dispute the director; nothing else the bot posted links anyone."""
    state = await table.state()
    calls = 0
    for call in table.h.request.calls:
        if call.method != "sendMessage" or int(call.params["chat_id"]) != GROUP:
            continue
        text = str(call.params["text"])
        called = called_matches(text)
        wanted = set()
        for number in called:
            match = state.matches[number]
            for player in (match.white, match.black):
                assert player is not None
                wanted.add(await table.account(player))
        if "needs your decision" in text:
            wanted.add(str(DIRECTOR))  # a dispute calls the club's director (configured)
        assert set(re.findall(r'<a href="tg://user\?id=(\d+)">', text)) == wanted, text
        assert not called or call.params.get("parse_mode") == "HTML"
        calls += bool(called)
    assert calls >= 3 + 4  # the group rounds of four-player groups, the knockout's
