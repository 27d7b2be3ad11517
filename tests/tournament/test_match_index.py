"""The match index kept with the state answers as a fresh look at the matches (issue 17).

A settle asks the index for the matches of a stage, of several stages merged, and of a
group; matches are added between the questions (extra games, a bracket). Whatever was
asked before, every answer is what sorting the matches afresh gives.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from tournament.model import Stage
from tournament.preset import load_preset
from tournament.state import Match, TournamentState

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
QUERIES = [
    (Stage.GROUP,),
    (Stage.GROUP, Stage.TIEBREAK),
    (Stage.KNOCKOUT, Stage.THIRD_PLACE),
    (Stage.KNOCKOUT, Stage.THIRD_PLACE, Stage.CONSOLATION),
]


def add(state: TournamentState, stage: Stage, group: str | None, gap: int) -> None:
    number = state.next_match_number() + gap  # numbered on from the top, or past a gap
    state.matches[number] = Match(number, stage, 1, 1, 1, 2, START, group=group)


@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(list(Stage)),
            st.sampled_from(["1", "2", None]),
            st.sampled_from(QUERIES),
            st.sampled_from([0, 0, 0, 2]),
        ),
        max_size=30,
    )
)
def test_the_index_answers_as_the_matches_sorted_afresh(
    steps: list[tuple[Stage, str | None, tuple[Stage, ...], int]],
) -> None:
    """Matches added between questions appear in every later answer, in number order."""
    state = TournamentState(1, "Cup", load_preset("navodari-table"), START, seed=1)
    for stage, group, asked, gap in steps:
        add(state, stage, group, gap)
        state.indexed().stage(*asked)  # remembered by the index between additions
        for query in QUERIES:
            expected = sorted(
                (m for m in state.matches.values() if m.stage in query), key=lambda m: m.number
            )
            assert list(state.indexed().stage(*query)) == expected
            for name in ("1", "2", None):
                in_group = [m for m in expected if m.group == name]
                assert list(state.indexed().group(name, *query)) == sorted(
                    in_group, key=lambda m: (query.index(m.stage), m.number)
                )
