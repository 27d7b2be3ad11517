"""The command line (INTERFACE §2): help, demo, run, ranking import."""

from __future__ import annotations

import asyncio
import gc
import io
import json
from pathlib import Path

import pytest

from bot.bootstrap import App
from bot.runner import serve
from bot.settings import Settings
from tests.bot.conftest import Clubtd, Script


def test_help_lists_every_command(clubtd: Clubtd) -> None:
    result = clubtd("--help")
    assert result.exit_code == 0
    for command in ("demo", "run", "console", "export", "ranking"):
        assert command in result.stdout
    assert "import" in clubtd("ranking", "--help").stdout


def test_demo_runs_a_whole_night(clubtd: Clubtd, tmp_path: Path) -> None:
    (tmp_path / "clubtd-demo.db").write_text("an old demo", encoding="utf-8")
    result = clubtd("demo")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "The final, to 7: the tournament finishes and ranking points are posted" in out
    assert "Sorry, something went wrong" not in out
    # The night as the export contract sees it: the file was replaced, not appended to.
    exported = clubtd("export", "--db", "sqlite:///clubtd-demo.db")
    assert exported.exit_code == 0, exported.stderr
    data = json.loads(exported.stdout)
    (cup,) = data["tournaments"]
    assert cup["status"] == "finished"
    assert len(cup["entries"]) == 12
    assert cup["placements"][0] == {"place": 1, "name": "grace", "places": "1"}
    assert {e["name"]: e["status"] for e in cup["entries"]}["heidi"] == "no_show"
    late = {p["against"] for m in cup["matches"] for p in m["penalties"]}
    assert late == {"erin", "grace", "heidi"}
    # grace came 24 minutes late, was 0-2 down and won her first match 3-2 (HGV-2.3.1).
    assert cup["matches"][1]["score"] == [2, 3] and cup["matches"][1]["winner"] == "grace"
    assert [m["status"] for m in cup["matches"]].count("forfeit") == 2
    # The imported points are the season so far: grace's cup adds to her 1.70.
    grace = next(row for row in data["ranking"] if row["name"] == "grace")
    assert grace["carried_over"] == 1.7 and grace["points"] > 1.7 + 2


def test_run_without_tokens_says_which_settings_enable_which_adapter(clubtd: Clubtd) -> None:
    result = clubtd("run")
    assert result.exit_code == 2
    assert "CLUBTD_TELEGRAM_TOKEN" in result.stderr
    assert "CLUBTD_DISCORD_TOKEN" in result.stderr


def test_run_with_a_discord_token_starts_the_discord_adapter(
    clubtd: Clubtd, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Discord adapter exists now: a Discord token alone makes `run` try Discord
    (here an address where nothing listens, so it fails instead of pretending)."""
    monkeypatch.setenv("CLUBTD_DISCORD_TOKEN", "abc")
    monkeypatch.setenv("CLUBTD_DISCORD_API_URL", "http://127.0.0.1:9/api/v10")
    result = clubtd("run")
    assert result.exit_code != 0
    assert "no Discord adapter yet" not in result.stderr


class FakeAdapter:
    platform = "telegram"

    def __init__(self, app: App, log: list[str], stop: asyncio.Event) -> None:
        self.app, self.log, self.stop_event = app, log, stop

    async def start(self) -> None:
        self.log.append(f"start, scheduler running: {self.app.scheduler.running}")
        self.stop_event.set()

    async def stop(self) -> None:
        # Once started, what start-up made is out of the collector's sight (gc.freeze).
        self.log.append(f"stop, frozen: {gc.get_freeze_count() > 0}")


def test_run_starts_configured_adapters_with_the_scheduler(tmp_path: Path) -> None:
    log: list[str] = []
    stop = asyncio.Event()
    settings = Settings(telegram_token="123:abc", database_url=f"sqlite:///{tmp_path / 'run.db'}")
    status = serve(
        settings,
        adapters={"telegram": lambda app: FakeAdapter(app, log, stop)},
        stop=stop,
        err=io.StringIO(),
    )
    assert status == 0
    assert log == ["start, scheduler running: True", "stop, frozen: True"]
    assert gc.get_freeze_count() == 0  # and back in sight once it stopped


def test_ranking_import_matches_names_and_adds_newcomers(
    clubtd: Clubtd,
    script: Script,
    tmp_path: Path,
) -> None:
    url = "sqlite:///rank.db"
    setup = '@club name:"Club"\n@director ana\n@clock 2026-03-06 19:00\nbob: /register\n'
    assert clubtd("console", "--script", script("s.t", setup), "--db", url).exit_code == 0
    csv = tmp_path / "ranking.csv"
    csv.write_text("name,points\nAlice  Smith,10.5\nBOB,7\ncarol,7\n", encoding="utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", url)
    assert result.exit_code == 0, result.stderr
    assert "2 new players without a chat account" in result.stdout
    shown = clubtd("console", "--script", script("r.t", "bob: /ranking\n"), "--db", url)
    assert shown.stdout.splitlines() == [
        "[19:00] #club: [picture: ranking-season-backgammon.png]",
        "  Club: season ranking",
        "  #  Player       Points  Carried  Played  Prizes",
        "  1  Alice Smith   10.50    10.50       0  no",
        "  2  bob            7.00     7.00       0  no",
        "  2  carol          7.00     7.00       0  no",
        "  Carried: points of this season from before the bot (the imported ranking), "
        "included in Points.",
    ]
    # A newcomer claims the imported name when they register.
    claimed = clubtd("console", "--script", script("c.t", "carol: /register\n"), "--db", url)
    assert "carol, you are now a player of Club." in claimed.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,points\nalice,ten\n", "line 2: 'ten' is not a number of points"),
        ("alice,3\nbob\n", "line 2: expected two columns, name,points (found 1)"),
        ("alice,3\nAlice,2\n", "line 2: 'Alice' is listed twice (also line 1)"),
        ("alice,-1\n", "line 1: '-1' is not a number of points"),
        ("name,points\n", "the file lists nobody"),
        ("alice,6,40\n", "(a decimal comma needs ; between the columns, or the number in quotes)"),
    ],
)
def test_ranking_import_refuses_a_bad_file(
    clubtd: Clubtd, tmp_path: Path, text: str, message: str
) -> None:
    csv = tmp_path / "bad.csv"
    csv.write_text(text, encoding="utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", "sqlite:///bad.db")
    assert result.exit_code == 2
    assert message in result.stderr


def test_ranking_import_creates_the_club_of_a_new_database(clubtd: Clubtd, tmp_path: Path) -> None:
    csv = tmp_path / "r.csv"
    csv.write_text("alice,3\n", encoding="utf-8")
    result = clubtd("ranking", "import", str(csv), "--db", "sqlite:///none.db")
    assert result.exit_code == 0, result.stderr
    assert "Created the club Club" in result.stdout


def test_bad_settings_are_reported_not_raised(
    clubtd: Clubtd, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLUBTD_DIRECTORS", "nobody")
    result = clubtd("export")
    assert result.exit_code == 2
    assert "CLUBTD_DIRECTORS" in result.stderr


def test_ctrl_c_stops_a_command_quietly_with_status_130(
    clubtd: Clubtd, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot import cli

    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "export", interrupted)
    result = clubtd("export")
    assert (result.exit_code, result.stdout, result.stderr) == (130, "", "")


def test_usage_errors_and_help_exit_as_they_did(clubtd: Clubtd, tmp_path: Path) -> None:
    assert clubtd("export", "--help").exit_code == 0
    for args in (
        (),
        ("bogus",),
        ("ranking",),
        ("export", "--format", "xml"),
        ("console", "--script", str(tmp_path / "missing.t")),
        ("console", "--script", str(tmp_path)),
    ):
        result = clubtd(*args)
        assert result.exit_code == 2, args
        assert "usage: clubtd" in result.stderr, args
