"""The transcript grammar (INTERFACE §3): directives, durations, comments."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.grammar import (
    ClockStep,
    ClubStep,
    CommandStep,
    DirectorStep,
    NarrationStep,
    TranscriptError,
    WaitStep,
    parse_duration,
    parse_line,
    parse_script,
    strip_comment,
)


def test_club_directive_reads_quoted_name_zone_and_language() -> None:
    step = parse_line('@club name:"HG Backgammon" timezone:America/Caracas language:en', 1)
    assert step == ClubStep("HG Backgammon", "America/Caracas", "en")


def test_club_directive_reads_a_city_as_the_club_writes_it() -> None:
    """As `/club timezone:Warszawa` does: the transcript of a Polish club starts so."""
    assert parse_line("@club timezone:Warszawa", 1) == ClubStep(None, "Europe/Warsaw", None)
    assert parse_line("@club timezone:bucuresti", 1).timezone == "Europe/Bucharest"
    with pytest.raises(TranscriptError, match="did you mean Europe/Warsaw"):
        parse_line("@club timezone:Warszwa", 1)


def test_club_directive_without_options_keeps_the_defaults() -> None:
    assert parse_line("@club", 1) == ClubStep(None, None, None)


def test_director_directive_names_one_person() -> None:
    assert parse_line("@director ana", 1) == DirectorStep("ana")


def test_clock_directive_reads_club_time() -> None:
    assert parse_line("@clock 2026-01-31 19:30", 1) == ClockStep(datetime(2026, 1, 31, 19, 30))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90s", timedelta(seconds=90)),
        ("10m", timedelta(minutes=10)),
        ("2h", timedelta(hours=2)),
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("1h0m15s", timedelta(hours=1, seconds=15)),
        ("1h30", timedelta(hours=1, minutes=30)),  # as people write it
    ],
)
def test_durations(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected
    assert parse_line(f"@wait {text}", 1) == WaitStep(expected)


@pytest.mark.parametrize(
    "text", ["", "10", "m", "10x", "1m1h", "0m", "-5m", "ten minutes", "h30", "1h30x"]
)
def test_bad_durations_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


def test_command_lines_in_the_club_and_in_private() -> None:
    assert parse_line("alice: /register", 1) == CommandStep("alice", False, "/register")
    assert parse_line("alice (dm): /me", 1) == CommandStep("alice", True, "/me")
    assert parse_line("  bob(dm):/accept 3  ", 1) == CommandStep("bob", True, "/accept 3")


def test_blank_lines_and_comments_are_ignored() -> None:
    assert parse_line("", 1) is None
    assert parse_line("   ", 1) is None
    assert parse_line("# a comment", 1) is None
    assert parse_line("#no space after the hash at the start", 1) is None
    assert parse_line("alice: /register   # she is first", 1) == CommandStep(
        "alice", False, "/register"
    )
    assert parse_line("@wait 10m # let lateness fall due", 1) == WaitStep(timedelta(minutes=10))


def test_a_hash_inside_quotes_or_a_match_number_is_not_a_comment() -> None:
    assert parse_line('ana: /addplayer name:"Ana #2"', 1) == CommandStep(
        "ana", False, '/addplayer name:"Ana #2"'
    )
    assert parse_line("ana: /result #12 3-1 # fixed", 1) == CommandStep(
        "ana", False, "/result #12 3-1"
    )
    assert strip_comment('@club name:"Club # 1" # the first') == '@club name:"Club # 1" '


def test_double_hash_lines_are_narration() -> None:
    assert parse_line("## Round 1", 1) == NarrationStep("Round 1")


@pytest.mark.parametrize(
    "line",
    [
        "@clock tomorrow",
        "@clock 2026-01-31",
        "@clock 2026-02-30 10:00",
        "@wait soon",
        "@director",
        "@director ana bob",
        "@club HG",
        "@club colour:red",
        "@club timezone:Mars/Olympus",
        "@club language:xx",
        "@sleep 5m",
        "alice /register",
        "/register",
        "alice:",
    ],
)
def test_malformed_lines_raise_with_their_line_number(line: str) -> None:
    with pytest.raises(TranscriptError) as raised:
        parse_script(f"# header\n\n{line}\n")
    assert raised.value.line == 3
    assert raised.value.message.startswith("line 3: ")


def test_a_script_keeps_line_numbers() -> None:
    steps = parse_script("@director ana\n\n# note\nana: /draw\n")
    assert steps == [(1, DirectorStep("ana")), (4, CommandStep("ana", False, "/draw"))]
