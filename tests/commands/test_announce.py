"""No event is silently dropped: each one the rules return says something (or says why not)."""

from __future__ import annotations

import dataclasses
import inspect
from datetime import UTC, datetime
from typing import Any

import pytest

from commands import announce
from commands.rendering import Renderer
from tournament import events as ev
from tournament.model import MatchStatus
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out

T = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
WORDS = {
    "reason": {
        "MatchForfeited": "late",
        "SanctionRecorded": "no_show",
        "ResultCorrected": "typo",
        "MatchFinished": "checked the scoresheet",
        "ReportDisputed": "it was 2-3",
    },
    "how": "director",
    "round_name": "final",
    "group": "1",
    "groups": ("1",),
    "change": "score",
    "was": MatchStatus.FINISHED,
    "note": "",
    "before_tiebreaks": (),  # a level score's phases (WAR-V): none in a backgammon sample
    "before_lot": None,
}


def event_types() -> list[type[ev.Event]]:
    """Return every concrete event of `tournament.events`."""
    return [
        cls
        for _, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, ev.Event) and cls is not ev.Event
    ]


def sample(cls: type[ev.Event]) -> ev.Event:
    """Return an instance of `cls` with plausible values, by each field's annotation."""
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        kind = str(field.type)
        if field.name in WORDS:
            word = WORDS[field.name]
            values[field.name] = word[cls.__name__] if isinstance(word, dict) else word
        elif kind == "datetime":
            values[field.name] = T
        elif kind in ("int", "PlayerId", "PlayerId | None"):
            values[field.name] = 1
        elif kind in ("tuple[PlayerId, ...]", "tuple[int, ...]"):
            values[field.name] = (1, 2)
        elif kind == "tuple[int, int]":
            values[field.name] = (3, 1)
        elif kind == "bool":
            values[field.name] = True
        else:
            raise AssertionError(f"{cls.__name__}.{field.name}: teach sample() {kind}")
    return cls(**values)


def test_every_event_of_the_core_is_known_here() -> None:
    assert len(event_types()) >= 20
    assert not set(announce.SILENT) - set(event_types())


@pytest.mark.parametrize("cls", event_types(), ids=lambda cls: cls.__name__)
def test_every_event_causes_a_notice_or_is_silent_on_purpose(cls: type[ev.Event]) -> None:
    state = new_tournament(load_preset("hgv-backgammon"), 6, T, seed=3)
    play_out(state, seed=3)
    event = sample(cls)
    names = {p: f"p{p}" for p in state.entries}
    found = announce.notices(state, [event], names)
    if cls in announce.SILENT:
        assert found == [], cls.__name__
        return
    assert found, f"{cls.__name__} causes no message: add it to commands/notices.py SAYS"
    renderer = Renderer("en", "UTC", "plain")
    for notice in found:
        # A picture has no text in plain rendering; every message has some part.
        assert notice.reply.parts, cls.__name__
        text = renderer.reply(notice.reply).text
        assert "{" not in text, (cls.__name__, text)


def test_a_reinstated_player_refreshes_the_live_group_table() -> None:
    """The forfeits a departure caused are undone: the live table must not keep them."""
    from tournament import attendance, progress

    state = new_tournament(load_preset("hgv-backgammon"), 6, T, seed=3)
    progress.draw(state, tuple(sorted(state.entries)), T)
    player = state.groups[0].players[0]
    attendance.leave(state, player, T, reason="left")
    events = attendance.reinstate(state, player, T)
    names = {p: f"p{p}" for p in state.entries}
    live = [n.coalesce for n in announce.notices(state, events, names) if n.coalesce]
    assert live == [f"standings:{state.id}:{state.groups[0].name}"]


def test_a_group_round_about_to_start_is_called_in_the_club_once() -> None:
    """Issue 20: the club hears one call per round (tables, players, colours) beside each
    player's own reminder; a knockout match is called when it is paired, not again."""
    from datetime import timedelta

    from tournament import due, progress

    state = new_tournament(load_preset("hgv-backgammon"), 6, T, seed=3)
    progress.draw(state, tuple(sorted(state.entries)), T - timedelta(hours=1))
    first = min(m.start for m in state.matches.values() if m.start is not None)
    events = due.sweep(state, first - timedelta(minutes=5))
    reminders = [e for e in events if isinstance(e, ev.MatchReminder)]
    assert len(reminders) >= 2
    names = {p: f"p{p}" for p in state.entries}
    found = announce.notices(state, events, names)
    club = [n for n in found if n.player is None and "Round at" in _text(n)]
    assert len(club) == 1 and club[0].expires_at == first
    lines = _text(club[0]).splitlines()
    assert lines[0].startswith("Round at")
    assert len(lines) == 1 + len(reminders)
    for number, line in enumerate(lines[1:], 1):
        assert line.startswith(f"Table {number}: ") and "(white) v" in line
    # Each player still gets their own reminder.
    assert len([n for n in found if n.player is not None]) == 2 * len(reminders)


def _text(notice: announce.Notice) -> str:
    return Renderer("en", "UTC", "plain").reply(notice.reply).text


@pytest.mark.parametrize(
    ("matches", "said"),
    [
        ((12,), "Match 12 waits until group 1 is complete again: it is announced then."),
        ((11, 12), "Matches 11, 12 wait until group 1 is complete again: they are announced"),
    ],
)
def test_matches_a_reopened_group_holds_are_named_in_their_number(
    matches: tuple[int, ...], said: str
) -> None:
    state = new_tournament(load_preset("hgv-backgammon"), 6, T, seed=3)
    (notice,) = announce.notices(state, [ev.MatchesHeld(at=T, matches=matches, groups=("1",))], {})
    text = Renderer("en", "UTC", "plain").reply(notice.reply).text
    assert text.startswith(said), text


@pytest.mark.parametrize(
    ("was", "said"),
    [(MatchStatus.FINISHED, "(was 3-1)."), (MatchStatus.FORFEIT, "(was 3-1, forfeit).")],
)
def test_a_forfeit_corrected_to_a_played_score_says_it_was_a_forfeit(
    was: MatchStatus, said: str
) -> None:
    """ "Match 6 corrected: ... 3-0 (was 3-0)" read as no change: the forfeit is named."""
    state = new_tournament(load_preset("hgv-backgammon"), 6, T, seed=3)
    play_out(state, seed=3)
    event = dataclasses.replace(sample(ev.ResultCorrected), was=was)
    notice = announce.notices(state, [event], {})[0]
    text = Renderer("en", "UTC", "plain").reply(notice.reply).text
    assert text.split("\n")[0].endswith(said), text
