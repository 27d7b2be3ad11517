"""The bracket as text says who meets whom next, who had a bye, and who won."""

from __future__ import annotations

from commands import views
from commands.rendering import Renderer
from tests.pictures.tournaments import player_names, simulated


def test_the_bracket_names_feeds_byes_and_winners_HGV_7_3_1() -> None:
    """12 qualifiers: a play-in, so 4 go straight through; later rounds wait on feeds."""
    state = simulated(12, waves=2)
    text = Renderer("en", "UTC", "plain").table(views.bracket_table(state, player_names(12)))
    assert "winner of " in text
    assert "(bye)" in text
    assert "won by " in text
    assert " ? " not in text


def test_the_bracket_is_told_in_the_club_language() -> None:
    state = simulated(12, waves=2)
    text = Renderer("es", "UTC", "plain").table(views.bracket_table(state, player_names(12)))
    assert "ganador del " in text and "gana " in text


def test_a_round_name_is_never_cut_HGV_7_4_13() -> None:
    """Issue 15 polish: "Ultima Șansă (Semifinal…" in a Romanian bracket."""
    state = simulated(16, qualifiers=2, consolation=True, waves=2)
    text = Renderer("ro", "UTC", "plain").table(views.bracket_table(state, player_names(12)))
    assert "…" not in text, text
    assert "Ultima Șansă (Semifinală)" in text, text


def test_a_replaced_brackets_matches_are_not_in_the_bracket_HGV_7_4_13() -> None:
    """A correction took eva out after the play-ins: the bracket drawn again replaced the
    first. The picture left the first bracket's matches out, the text listed them as void
    beside the new ones, the same players twice."""
    from tests.tournament.test_knockout_forfeits import replaced_bracket

    night, old = replaced_bracket()
    names = {p: night.name(p) for p in night.state.entries}
    table = views.bracket_table(night.state, names)
    numbers = [row[0] for row in table.rows]
    assert old.number not in numbers, numbers
    assert numbers and all(night.state.matches[n].key is not None for n in numbers)
