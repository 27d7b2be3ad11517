"""Members as a director keeps them (issue 15): members without accounts entered by a
forgiving name, walk-ins, names fixed and merged, a new draw, next month opened on the
night. Each is a transcript on one database, as a club plays it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.bot.conftest import Clubtd, Script

SETUP = '@club name:"HG" timezone:UTC\n@director ana\n@clock 2026-01-30 17:00\n'
RANKING = "Jorge P.;6,40\nRocío;0,49\nMaría José;0,30\nAna P.;0,20\n"
JANUARY = (
    '@clock 2026-01-30 18:00\nana: /tournament new name:"January Cup" start:"2026-01-31 20:00"\n'
)
# January Cup drawn with three imported members entered by the director.
DRAWN = (
    JANUARY
    + 'ana: /addplayer "Jorge P." Rocío "María José"\n'
    + "@clock 2026-01-31 20:00\n"
    + "ana: /draw\n"
)


def _club(clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str) -> None:
    """A club whose ranking was imported: four members, none with a chat account."""
    assert clubtd("console", "--script", script("s.t", SETUP), "--db", database_url).exit_code == 0
    csv = tmp_path / "ranking.csv"
    csv.write_text(RANKING, encoding="utf-8")
    assert clubtd("ranking", "import", str(csv), "--db", database_url).exit_code == 0


# A Polish club's March tournament, opened the day before.
MARCH = '@clock 2026-03-05 18:00\nana: /tournament new name:"Marzec" start:"2026-03-06 10:00"\n'


def _polish_march(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str, ranking: str, night: str
) -> str:
    """Import a Polish club's `ranking` (CSV `name;points` lines), open its March
    tournament and play `night`; return what the console printed."""
    setup = (
        '@club name:"Klub" timezone:Europe/Warsaw language:pl\n'
        "@director ana\n@clock 2026-03-01 12:00\n"
    )
    assert clubtd("console", "--script", script("s.t", setup), "--db", database_url).exit_code == 0
    csv = tmp_path / "ranking.csv"
    csv.write_text(ranking, encoding="utf-8")
    assert clubtd("ranking", "import", str(csv), "--db", database_url).exit_code == 0
    return _play(clubtd, script, database_url, MARCH + night)


def _play(clubtd: Clubtd, script: Script, database_url: str, text: str) -> str:
    result = clubtd("console", "--script", script("n.t", text), "--db", database_url)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stdout
    return str(result.stdout)


def _export(clubtd: Clubtd, database_url: str, *args: str) -> dict[str, Any]:
    result = clubtd("export", "--db", database_url, "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_addplayer_enters_an_imported_member_by_a_forgiving_name(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """`/addplayer "jorge p."` is the imported Jorge P., not a 0-point "Jorge P. 2";
    several at once, quoted or not, and a new name beside them."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        JANUARY
        + 'ana: /addplayer "jorge p."\n'
        + 'ana: /addplayer "Ana P." "zofia kowalska"\n'
        + "ana: /addplayer maria jose\n",
    )
    assert "Jorge P., a member of the club, is entered in January Cup" in out
    assert "Ana P., a member of the club, is entered in January Cup" in out
    assert "zofia kowalska is entered in January Cup (confirmed)." in out
    assert "María José, a member of the club, is entered in January Cup" in out
    assert "is taken" not in out and "Jorge P. 2" not in out
    data = _export(clubtd, database_url)
    assert sorted(p["name"] for p in data["players"]) == [
        "Ana P.",
        "Jorge P.",
        "María José",
        "Rocío",
        "zofia kowalska",
    ]
    entries = data["tournaments"][0]["entries"]
    assert {e["name"] for e in entries} == {"Jorge P.", "Ana P.", "zofia kowalska", "María José"}
    assert all(e["confirmed"] for e in entries)


def test_a_walk_in_after_the_draw_is_entered_for_a_new_draw_or_told_why_not(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Before the first result a walk-in is entered and /redraw (with confirm) puts them in
    a group; after it the reply says why not and nothing changes."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        DRAWN
        + "ana: /addplayer Bob\n"
        + "ana: /redraw\n"
        + "ana: /redraw confirm\n"
        + "ana: /result 1 3-1\n"
        + "ana: /addplayer Dan\n"
        + "ana: /redraw confirm\n",
    )
    assert "Bob is entered in January Cup, but its groups are drawn already" in out
    assert "/redraw confirm" in out
    assert "The groups and the match schedule are replaced. Send /redraw confirm." in out
    assert "Entered since the draw: Bob." in out
    assert "January Cup has results already, so nobody can join its groups now" in out
    assert "its groups can no longer be drawn again" in out
    january = _export(clubtd, database_url)["tournaments"][0]
    in_groups = {p for g in january["groups"] for p in g["players"]}
    assert in_groups == {"Jorge P.", "Rocío", "María José", "Bob"}
    assert "Dan" not in {e["name"] for e in january["entries"]}
    assert len(january["matches"]) == 6  # a round robin of four, drawn once more


def test_a_walk_in_too_late_for_tonight_is_shown_the_command_for_next_month(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Next month is open on the night: a director adding latecomers to tonight's
    tournament, which has results, is told so and given the line that enters them in
    next month's; sent, it does."""
    _club(clubtd, script, tmp_path, database_url)
    before = _export(clubtd, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        DRAWN
        + "ana: /result 1 3-1\n"
        + 'ana: /tournament new name:"February Cup" start:"2026-02-28 20:00"\n'
        + 'ana: /addplayer "dan  kowalski" rocio\n',
    )
    assert (
        "January Cup has results already, so nobody can join its groups now: nothing was "
        'changed. To enter them in February Cup, send /addplayer "dan kowalski" rocio '
        'tournament:"February Cup"'
    ) in out
    refused = _export(clubtd, database_url)
    assert refused["players"] == before["players"]  # no "dan kowalski" made meanwhile
    assert all(not t["entries"] for t in refused["tournaments"][1:])
    _play(
        clubtd,
        script,
        database_url,
        'ana: /addplayer "dan kowalski" rocio tournament:"February Cup"\n',
    )
    february = _export(clubtd, database_url)["tournaments"][1]
    assert february["name"] == "February Cup"
    assert {e["name"] for e in february["entries"]} == {"dan kowalski", "Rocío"}


def test_register_without_accents_finds_the_unclaimed_member(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """ "rocio" is told she may be the imported "Rocío" (with her points) and how to claim
    her; no "Rocío 2" is proposed or made. With the claim code she keeps her points."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        JANUARY + "rocio: /register\n" + 'mj: /register name:"Maria Jose"\n',
    )
    assert "Are you Rocío, 0.49 points in the ranking? Ask a director for your claim code" in out
    assert "Are you María José, 0.30 points in the ranking?" in out
    assert "Rocío 2" not in out
    assert len(_export(clubtd, database_url)["players"]) == 4


def test_player_rename_merge_and_remove(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Names are fixed everywhere; a duplicate's results and points go to the member; a
    player is taken out before the draw. Director-only, logged."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        JANUARY
        + 'ana: /addplayer "zofia kowalska" "Rocío B" Jorge\n'
        + 'ana: /player rename "zofia kowalska" to:"Zofia Kowalska"\n'
        + "ana: /player remove jorge\n"
        + "@clock 2026-01-31 20:00\n"
        + "ana: /draw\n"
        + "ana: /result 1 3-1\n"
        + "ana: /result 2 7-5\n"
        + 'ana: /player merge "Rocío B" into:rocio\n'
        + 'bob: /player rename rocio to:"Rocío A"\n',
    )
    assert "zofia kowalska is now called Zofia Kowalska, in every table." in out
    assert "Jorge P. is taken out of January Cup." in out
    assert "Rocío B is merged into Rocío: 1 tournament with results" in out
    assert "Only directors can use /player rename." in out
    assert "Rocío A" not in out.split("Only directors")[0]
    data = _export(clubtd, database_url)
    january = data["tournaments"][0]
    assert january["status"] == "finished"
    placed = {p["name"] for p in january["placements"]}
    assert placed == {"Zofia Kowalska", "Rocío"}
    assert {e["name"]: e["status"] for e in january["entries"]}["Jorge P."] == "removed"
    names = [p["name"] for p in data["players"]]
    assert "Rocío B" not in names and "zofia kowalska" not in names
    rocio = next(r for r in data["ranking"] if r["name"] == "Rocío")
    won = next(p["points"] for p in january["ranking_points"] if p["name"] == "Rocío")
    assert rocio["points"] == round(0.49 + won, 2)
    assert rocio["carried_over"] == 0.49


def _january_drawn_then_february(before_the_draw: str = "") -> str:
    """January's night drawn (Jorge P. and Rocío), then February opened on it."""
    return (
        JANUARY
        + 'ana: /addplayer "Jorge P." Rocío\n'
        + before_the_draw
        + "@clock 2026-01-31 20:00\n"
        + "ana: /draw\n"
        + 'ana: /tournament new name:"February Cup" start:"2026-02-28 20:00" approval:no\n'
    )


def test_next_month_opens_and_takes_entries_while_this_one_is_played(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """February is created on January's night; /register, /confirm go to February for
    someone not playing tonight, while tonight's players act on January."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        _january_drawn_then_february()
        + "carl: /register\n"
        + "carl: /confirm\n"
        + "ana: /result 1 3-1\n",
    )
    assert "still being played" not in out
    assert "February Cup is open for entries" in out
    assert "carl, you are entered in February Cup" in out
    assert "Match 1: Jorge P. 3-1 Rocío" in out or "Match 1: Rocío 3-1 Jorge P." in out
    tournaments = _export(clubtd, database_url)["tournaments"]
    february = next(t for t in tournaments if t["name"] == "February Cup")
    assert [(e["name"], e["confirmed"]) for e in february["entries"]] == [("carl", True)]


def test_one_out_of_tonights_tournament_confirms_next_month_not_tonight(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Entered in January but never confirmed, dora is out of it once it is drawn: her
    /confirm on January's night means the February entry she just made, not January's
    (she was told "not active (withdrawn)" about January)."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        _january_drawn_then_february(before_the_draw="dora: /register\n")
        + "dora: /register\n"
        + "dora: /confirm\n",
    )
    assert "not active" not in out
    assert "dora, you are entered in February Cup" in out
    tournaments = _export(clubtd, database_url)["tournaments"]
    january = next(t for t in tournaments if t["name"] == "January Cup")
    assert {e["name"]: e["status"] for e in january["entries"]}["dora"] != "active"
    february = next(t for t in tournaments if t["name"] == "February Cup")
    assert [(e["name"], e["confirmed"]) for e in february["entries"]] == [("dora", True)]


def test_a_name_reused_next_season_is_another_tournament(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Next year's "January Cup" neither collides with this year's nor brings its points
    into next season's table; `export --tournament` picks the latest of the name."""
    assert clubtd("console", "--script", script("s.t", SETUP), "--db", database_url).exit_code == 0
    night = (
        JANUARY
        + "ana: /addplayer alice\nana: /addplayer bob\n@clock 2026-01-31 20:00\nana: /draw\n"
        "ana: /result alice 3-1 bob\nana: /result 2 7-1\n"
    )
    _play(clubtd, script, database_url, night)
    out = _play(
        clubtd,
        script,
        database_url,
        night.replace("2026-01-3", "2027-01-3").replace("alice 3-1 bob", "bob 3-1 alice")
        + "ana: /ranking\n",
    )
    assert "already" not in out.split("January Cup is open")[0]
    data = _export(clubtd, database_url)
    assert [t["start"][:4] for t in data["tournaments"]] == ["2026", "2027"]
    season = {r["name"]: r["points"] for r in data["ranking"]}
    latest = data["tournaments"][1]
    assert season == {p["name"]: p["points"] for p in latest["ranking_points"]}
    one = _export(clubtd, database_url, "--tournament", "january cup")
    assert [t["start"][:4] for t in one["tournaments"]] == ["2027"]


def test_names_and_words_as_a_polish_club_types_them(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Typed "lucja", the imported "Łucja" (a stroke is not an accent to NFKD); the colon of
    into:/to: forgotten, `potwierdz` for confirm: understood, in Polish."""
    ranking = "Łucja Wiśniewska;4\nJózef Nowak;3\n"
    night = (
        'lucja: /register name:"Lucja Wisniewska"\n'
        + 'ana: /addplayer "lucja wisniewska" jozef "adam maly"\n'
        + 'ana: /player rename "adam maly" to "Adam Mały"\n'
        + '@clock 2026-03-06 10:00\nana: /draw\nana: /addplayer "Adam M 2"\n'
        + "ana: /redraw potwierdz\n"
        + 'ana: /player merge "Adam M 2" into "Adam Mały"\n'
        + "ana: /player merge jozef\n"
    )
    out = _polish_march(clubtd, script, tmp_path, database_url, ranking, night)
    assert "Czy jesteś Łucja Wiśniewska, 4,00 pkt w rankingu?" in out
    assert "Łucja Wiśniewska (członek klubu): zgłoszenie do turnieju Marzec przyjęte" in out
    assert "adam maly nazywa się teraz Adam Mały" in out
    assert "Adam M 2 i Adam Mały grali obaj w turnieju Marzec" in out
    assert 'Podaj duplikat, a potem członka, z którym go połączyć: /player merge "Rocío 2"' in out
    assert out.count("Losowanie zakończone.") == 2
    assert len(_export(clubtd, database_url)["players"]) == 4


def test_addplayer_under_an_age_rule_says_what_to_type_NAV_ENTRY(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """A minimum age needs a birth date: the director is told which player and the
    command with born:; nobody is entered or made until it fits. A walk-in too."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        "@clock 2026-01-30 18:00\n"
        + 'ana: /tournament new name:"Cupa" start:"2026-01-31 10:00" minimum_age:18\n'
        + 'ana: /addplayer "Jorge P." "Ion Vasile"\n'
        + 'ana: /addplayer "Jorge P." born:1970-03-03\n'
        + 'ana: /addplayer "Ion Vasile" born:2015-02-02\n'
        + 'ana: /addplayer "Ion Vasile" born:1990-02-02\n'
        + "@clock 2026-01-31 10:00\nana: /draw\nana: /addplayer Ana\n",
    )
    assert (
        "Cupa is for players aged 18 or over: add Jorge P.'s birth date, for example "
        '/addplayer "Jorge P." born:1990-05-31. Nobody was entered.'
    ) in out
    assert "Cupa is for players aged 18 or over, and Ion Vasile is younger." in out
    assert "Cupa is for players aged 18 or over: add Ana P.'s birth date" in out
    entries = _export(clubtd, database_url)["tournaments"][0]["entries"]
    assert sorted(e["name"] for e in entries) == ["Ion Vasile", "Jorge P."]


def test_a_claim_code_takes_the_member_typed_without_accents(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """`/register claim:CODE` as "rocio" takes the imported "Rocío": her points stay hers,
    no second player is made."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(clubtd, script, database_url, JANUARY + "ana: /director claim rocío\n")
    code = out.split("claim:")[-1].split(".")[0].strip()
    assert code
    out = _play(clubtd, script, database_url, f"rocio: /register claim:{code}\nrocio: /me\n")
    assert "Are you" not in out
    data = _export(clubtd, database_url)
    assert len(data["players"]) == 4
    assert {r["name"]: r["points"] for r in data["ranking"]}["Rocío"] == 0.49
    january = data["tournaments"][0]
    assert [e["name"] for e in january["entries"]] == ["Rocío"]


def test_a_preset_without_walk_ins_says_so_after_the_draw(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """Navodari's organisers select the entries before the draw (walk_ins = false)."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        "@clock 2026-01-30 18:00\n"
        + 'ana: /tournament new name:"Cupa" preset:navodari-table start:"2026-01-31 10:00"\n'
        + 'ana: /addplayer "Jorge P." Rocío born:1970-03-03\n'
        + "@clock 2026-01-31 10:00\nana: /draw\nana: /addplayer Dan born:1980-01-01\n",
    )
    assert "Cupa takes no entries after its draw (its preset says walk_ins = false)" in out
    data = _export(clubtd, database_url)
    assert "Dan" not in {p["name"] for p in data["players"]}


def test_a_surname_cut_to_its_initial_is_the_member_not_a_new_player(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """The ranking says "Grzegorz Brzęczyszczykiewicz" and "Ana P.": "Grzegorz B." and
    "Ana Pérez" are them (asked to claim, or entered), never a second, 0-point player;
    "Grzegorz B." beside a second Grzegorz B... is asked which."""
    ranking = "Grzegorz Brzęczyszczykiewicz;8\nAna P.;3\nZofia Kowalska;2\n"
    night = (
        'grzes: /register name:"Grzegorz B."\n'
        + 'anita: /register name:"Ana Pérez"\n'
        + 'ana: /addplayer "Zofia K." "ana perez"\n'
    )
    out = _polish_march(clubtd, script, tmp_path, database_url, ranking, night)
    assert "Czy jesteś Grzegorz Brzęczyszczykiewicz, 8,00 pkt w rankingu?" in out, out
    assert "Czy jesteś Ana P., 3,00 pkt w rankingu?" in out, out
    assert "Zofia Kowalska (członek klubu): zgłoszenie do turnieju Marzec przyjęte" in out, out
    assert "Ana P. (członek klubu): zgłoszenie do turnieju Marzec przyjęte" in out, out
    assert len(_export(clubtd, database_url)["players"]) == 3
    out = _play(
        clubtd,
        script,
        database_url,
        'bak: /register name:"Grzegorz Bąk"\nana: /addplayer "Grzegorz B."\n',
    )
    assert "Grzegorz B. to może być Grzegorz Brzęczyszczykiewicz, Grzegorz Bąk" in out, out
    assert len(_export(clubtd, database_url)["players"]) == 4


def test_a_chat_first_name_is_asked_about_the_member_entered_whole(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """The director entered "Andrés Bello" (no chat account); next month "andres" (his
    Telegram first name) types /register: asked whether he is Andrés Bello, never made a
    second player beside him. Another Andrés registers with his whole name."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        JANUARY
        + 'ana: /addplayer "Andrés Bello"\n'
        + "andres: /register\n"
        + 'andres: /register name:"Andrés García"\n',
    )
    assert "Are you Andrés Bello, already on the club list?" in out, out
    assert "Andrés García, you are entered in January Cup" in out, out
    names = sorted(p["name"] for p in _export(clubtd, database_url)["players"])
    assert names == ["Ana P.", "Andrés Bello", "Andrés García", "Jorge P.", "María José", "Rocío"]


def test_a_member_entered_by_the_director_claims_the_account_while_entered(
    clubtd: Clubtd, script: Script, tmp_path: Path, database_url: str
) -> None:
    """The director entered Rocío in January; she claims her account with the code:
    "you registered already" refused the claim it answered (its link rolled back), so
    a member entered in a tournament could not claim until it was over."""
    _club(clubtd, script, tmp_path, database_url)
    out = _play(
        clubtd,
        script,
        database_url,
        JANUARY + "ana: /addplayer rocío\nana (dm): /director claim rocío\n",
    )
    code = out.split("claim:")[-1].split()[0].strip(".")
    out = _play(clubtd, script, database_url, f"rocio (dm): /register claim:{code}\n")
    assert "Rocío, this chat account is yours now, and you are entered in January Cup" in out
    out = _play(clubtd, script, database_url, "rocio (dm): /me\n")
    assert "January Cup: entered; confirmed: yes" in out, out
