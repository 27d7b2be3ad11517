"""The interactive console continues a transcript's virtual clock (INTERFACE §3)."""

from __future__ import annotations

from tests.bot.conftest import Clubtd, Script

NIGHT = """\
@club name:"Club" timezone:Europe/Madrid
@director ana
@clock 2026-03-06 19:00
ana: /tournament new name:"Cup" start:"2026-03-06 20:00" approval:no
alice: /register
bob: /register
alice: /confirm
bob: /confirm
@clock 2026-03-06 19:30
alice: /checkin
bob: /checkin
ana: /draw
"""


def test_the_console_continues_on_the_stored_clock(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """No jump to the real time: nothing falls due until the director moves the clock."""
    assert clubtd("console", "--script", script("n.t", NIGHT), "--db", database_url).exit_code == 0
    typed = "/status\n@wait 10m\n/status\n"
    result = clubtd("console", "--db", database_url, "--as", "ana", input=typed)
    assert result.exit_code == 0, result.stderr
    assert "Virtual clock: 2026-03-06 19:30 (club time)" in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("[19:30] ")
    assert not any("forfeit" in line or "late" in line for line in lines)
    assert any(line.startswith("[19:40] ") for line in lines)


def test_the_real_clock_is_said_and_console_help_tells_how_to_direct(
    clubtd: Clubtd, database_url: str
) -> None:
    result = clubtd(
        "console", "--db", database_url, "--as", "ana", "--real-clock", input="/help\n"
    )
    assert result.exit_code == 0, result.stderr
    assert "Real clock: " in result.stderr
    assert "@director ana to make ana a director" in result.stdout


def test_a_clock_ahead_of_the_real_time_is_continued_too(
    clubtd: Clubtd, script: Script, database_url: str
) -> None:
    """A transcript set in the future: the console still runs on its virtual clock."""
    future = "@club timezone:UTC\n@clock 2099-12-04 18:00\n"
    assert (
        clubtd("console", "--script", script("f.t", future), "--db", database_url).exit_code == 0
    )
    result = clubtd("console", "--db", database_url, "--as", "ana", input="/help\n")
    assert result.exit_code == 0, result.stderr
    assert "Virtual clock: 2099-12-04 18:00 (club time)" in result.stderr
    assert result.stdout.startswith("[18:00] ")


def test_wait_works_on_a_new_database_from_the_real_time(
    clubtd: Clubtd, database_url: str
) -> None:
    """INTERFACE §3: a new database's clock starts at the real time; @wait moves it on."""
    result = clubtd("console", "--db", database_url, "--as", "ana", input="@wait 10m\n/help\n")
    assert result.exit_code == 0, result.stderr
    assert "real clock" not in result.stderr.lower()
    assert "Virtual clock: " in result.stderr and "new database" in result.stderr
    assert "@director ana to make ana a director" in result.stdout
