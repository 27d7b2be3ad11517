"""What the club hears of a bracket match that starts afresh after a correction."""

from __future__ import annotations

from datetime import UTC, datetime

from commands import announce
from commands.rendering import Renderer
from tournament import events as ev
from tournament.model import Stage
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out
from tournament.state import TournamentState

T = datetime(2026, 12, 13, 10, 0, tzinfo=UTC)


def said(state: TournamentState, event: ev.Event) -> str:
    names = {p: f"p{p}" for p in state.entries}
    found = announce.notices(state, [event], names)
    return "\n".join(Renderer("en", "UTC", "plain").reply(n.reply).text for n in found).strip()


def test_a_reset_match_is_said_as_the_correction_left_it_HGV_7_4_13() -> None:
    """A correction after the finish re-paired the final in two passes: the club heard
    "Match 8 starts afresh: cruz v ana" (the first pass), though ana was in the play-in
    and the final waits for its winner; and "Match 9 starts afresh: ? v ?" of the Last
    Chance final, whose players were not known yet."""
    state = new_tournament(load_preset("hgv-backgammon"), 12, T, seed=3)
    play_out(state, seed=3)
    final = next(
        m for m in state.matches.values() if m.round_name == "final" and m.stage is Stage.KNOCKOUT
    )
    assert final.black_from is not None and final.white is not None
    stale = final.black
    final.black = None  # as the last pass left it: the winner of its feeder, to come
    feeder = next(m for m in state.matches.values() if m.key == final.black_from)
    text = said(state, ev.MatchReset(at=T, match=final.number, white=final.white, black=stale))
    assert (
        text == f"Match {final.number} starts afresh: p{final.white} v winner of {feeder.number}."
    ), text
    last_chance = next(m for m in state.matches.values() if m.stage is Stage.CONSOLATION)
    last_chance.white = last_chance.black = None
    last_chance.white_from = last_chance.black_from = None
    text = said(state, ev.MatchReset(at=T, match=last_chance.number, white=None, black=None))
    assert text == f"Match {last_chance.number} starts afresh; its players are not known yet."
