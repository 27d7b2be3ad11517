"""A small club night used by the replay and export tests.

Six ranked players (so the snake draw never depends on the lot), two groups of three,
the group winners play a final. p4 is late and plays on from 0-1; p6 confirmed and
never comes (lateness at 20:50 and 21:00, forfeit and no-show at 21:10); p3 disputes
p2's report and the director settles it.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.conftest import Clubtd

SETUP = """\
@club name:"Replay Club" timezone:America/Caracas
@director ana
@clock 2026-03-06 18:00
"""

RANKING = "name,points\np1,6\np2,5\np3,4\np4,3\np5,2\np6,1\n"

NEW_TOURNAMENT = (
    'ana: /tournament new name:"March Cup" start:"2026-03-06 20:00" '
    "approval:no qualifiers:1 consolation:no\n"
)

BEFORE = (
    NEW_TOURNAMENT
    + """\
p1: /register
p2: /register
p3: /register
p4: /register
p5: /register
p6: /register
p1: /confirm
p2: /confirm
p3: /confirm
p4: /confirm
p5: /confirm
p6 (dm): /confirm
@clock 2026-03-06 19:30
p1: /checkin
p2: /checkin
p3: /checkin
p5: /checkin
ana: /draw
@clock 2026-03-06 20:15
p4: /checkin
@clock 2026-03-06 20:35
p1: /report 3-1
p4: /accept
p2: /report 3-1
p3: /dispute
ana: /result p2 3-2 p3 reason:"scoresheet"
"""
)

# The second part starts an hour after the first stopped: lateness, a forfeit, a no-show
# and reminders fall due in between.
AFTER = """\
@clock 2026-03-06 21:35
ana: /result p1 3-2 p5
ana: /result p4 3-1 p5
@wait 5m
p2: /report 7-3
p1: /accept
@wait 1h
ana: /sanction p5 reason:"left without a word"
ana: /tournament new name:"April Cup" start:"2026-04-03 20:00"
"""


def prepare(clubtd: Clubtd, tmp_path: Path, url: str) -> None:
    """Create the club and import its ranking."""
    setup = tmp_path / "setup.transcript"
    setup.write_text(SETUP, encoding="utf-8")
    done = clubtd("console", "--script", str(setup), "--db", url)
    assert done.exit_code == 0, done.stderr
    ranking = tmp_path / "ranking.csv"
    ranking.write_text(RANKING, encoding="utf-8")
    done = clubtd("ranking", "import", str(ranking), "--db", url)
    assert done.exit_code == 0, done.stderr


def play(clubtd: Clubtd, tmp_path: Path, url: str, *parts: str) -> str:
    """Replay transcripts one after the other on one database; return their output."""
    out = []
    for index, text in enumerate(parts):
        path = tmp_path / f"part{index}.transcript"
        path.write_text(text, encoding="utf-8")
        done = clubtd("console", "--script", str(path), "--db", url)
        assert done.exit_code == 0, done.stderr
        out.append(done.stdout)
    return "".join(out)


DRAW_SEED = re.compile(r"\bseed \d+", re.IGNORECASE)


def without_draw(lines: list[str]) -> list[str]:
    """Drop the draw's messages (they name the seed): the seed and the lot tiebreaks of
    unplayed groups change every run."""
    out: list[str] = []
    skipping = False
    for line in lines:
        if line.startswith("[") and DRAW_SEED.search(line):
            skipping = True
            continue
        if skipping and line.startswith("  "):
            continue
        skipping = False
        out.append(line)
    return out
