"""A group table reads the results `Match.result` gives (HGV-7.2.2, issue 17).

The tables are drawn from the facts they are remembered by (`RESULT_FACTS`), not from a
call of `Match.result` per match: both must give the same results, for every status a
match can have (a void match and an undecided one count for nobody).
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from tournament.model import MatchStatus, Stage
from tournament.stages import RESULT_FACTS, results_from
from tournament.state import Match

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
PLAYER = st.one_of(st.none(), st.integers(1, 4))


@st.composite
def matches(draw: st.DrawFn) -> Match:
    match = Match(1, Stage.GROUP, 1, 5, draw(PLAYER), draw(PLAYER), START, group="1")
    match.status = draw(st.sampled_from(list(MatchStatus)))
    match.white_score = draw(st.integers(0, 9))
    match.black_score = draw(st.integers(0, 9))
    match.winner = draw(PLAYER)
    match.forfeited_by = draw(st.frozensets(st.integers(1, 4), max_size=2))
    return match


@given(st.lists(matches(), max_size=6))
def test_tables_read_the_results_match_result_gives_HGV_7_2_2(played: list[Match]) -> None:
    """Final results count, void and undecided matches do not, as `Match.result` says."""
    expected = [r for m in played if (r := m.result()) is not None]
    assert results_from([RESULT_FACTS(m) for m in played]) == expected
