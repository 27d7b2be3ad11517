"""Pictures: golden images of fixed tournaments, a tolerance for anti-aliasing noise.

Set CLUBTD_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change, then
look at them (tests/pictures/golden/*.png) before committing.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import tomllib
from datetime import timedelta
from fnmatch import fnmatch
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.pictures import draw, render
from bot.pictures.canvas import ELLIPSIS, MIN_FONT, fit, font
from commands import views
from commands.pictures import (
    CardView,
    GroupView,
    bracket_view,
    card_view,
    file_name,
    group_view,
    ranking_view,
)
from commands.rendering import Renderer
from commands.replies import Picture, Reply, from_payload, msg, to_payload
from tests.pictures.tournaments import EVERY_DIACRITIC, player_names, simulated
from tournament import attendance
from tournament.model import EntryStatus, Stage
from tournament.state import Penalty, TournamentState

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parents[2]
ZONE = "Europe/Madrid"


def assert_like_golden(name: str, png: bytes, tmp_path: Path) -> None:
    """Compare with the golden picture: same size, and only anti-aliasing may differ."""
    path = GOLDEN / f"{name}.png"
    if os.environ.get("CLUBTD_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        Image.open(io.BytesIO(png)).save(path, optimize=True)
    assert path.exists(), f"no golden picture {path}: run with CLUBTD_UPDATE_GOLDEN=1"
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    expected = Image.open(path).convert("RGB")
    (tmp_path / f"{name}.png").write_bytes(png)
    assert actual.size == expected.size, f"{name}: {actual.size} != {expected.size}"
    diff = ImageChops.difference(actual, expected).convert("L")
    histogram = diff.histogram()
    pixels = actual.width * actual.height
    different = sum(histogram[48:])
    mean = sum(value * count for value, count in enumerate(histogram)) / pixels
    assert different / pixels < 0.002 and mean < 1.0, (
        f"{name} differs from its golden picture: {different} pixels, mean {mean:.2f}; "
        f"see {tmp_path / (name + '.png')}"
    )


def group_png(state: TournamentState, language: str = "en", group: int = 0) -> bytes:
    names = player_names(len(state.entries))
    view = group_view(state, state.groups[group], names)
    return draw(view, language, ZONE).png()


def bracket_png(state: TournamentState, language: str = "en") -> bytes:
    view = bracket_view(state, player_names(len(state.entries)))
    assert view is not None
    return draw(view, language, ZONE).png()


# qualifiers -> (players, qualifiers per group, results played)
TABLES = {
    2: (6, 1, 2),
    3: (3, 3, 1),
    5: (15, 1, 2),
    12: (12, 3, 2),
    39: (39, 3, 3),
}


@pytest.mark.parametrize("qualifiers", sorted(TABLES))
def test_group_tables_look_as_they_did(qualifiers: int, tmp_path: Path) -> None:
    """HGV-7.2.2: a group table, qualifying places in green (HGV-7.1)."""
    players, per_group, waves = TABLES[qualifiers]
    state = simulated(players, qualifiers=per_group, waves=waves)
    assert_like_golden(f"table-{qualifiers}", group_png(state), tmp_path)


BRACKETS = {
    "bracket-2": (dict(players=6, qualifiers=1), None, "en"),
    "bracket-3": (dict(players=3, qualifiers=3), 4, "es"),
    "bracket-5-third-place": (dict(players=15, qualifiers=1, third_place=True), None, "en"),
    "bracket-12": (dict(players=12), 4, "en"),
    "bracket-12-consolation": (dict(players=12, consolation=True), 4, "pl"),
    "bracket-39-third-place-consolation": (
        dict(players=39, third_place=True, consolation=True),
        5,
        "ro",
    ),
}


@pytest.mark.parametrize("name", sorted(BRACKETS))
def test_brackets_look_as_they_did(name: str, tmp_path: Path) -> None:
    """HGV-7.3.1 play-in and byes, NAV-IV third place, HGV-7.4.13 Last Chance."""
    options, waves, language = BRACKETS[name]
    players = options.pop("players")
    state = simulated(players, waves=waves, **options)  # type: ignore[arg-type]
    options["players"] = players
    if name == "bracket-12":
        # A draughts-style lot decided the first play-in (WAR-V): it is marked.
        first = state.stage_matches(Stage.KNOCKOUT)[0]
        first.lot_winner = "white" if first.winner == first.white else "black"
    assert_like_golden(name, bracket_png(state, language), tmp_path)


def marked_group() -> TournamentState:
    """A group with a forfeit, lateness points, a withdrawal and hard names."""
    state = simulated(16, size=4, qualifiers=2, waves=0)
    group = state.groups[0]
    match = next(m for m in state.matches.values() if m.group == group.name and not m.is_final)
    assert match.white is not None
    state.penalties["late"] = Penalty("late", match.number, match.white, 2, state.start)
    attendance.director_forfeit(state, match.white, state.start + timedelta(hours=1))
    leaving, absent = (p for p in group.players if p not in match.players)
    attendance.leave(state, leaving, state.start + timedelta(hours=1), reason="left")
    assert state.entries[leaving].status is EntryStatus.WITHDRAWN
    state.entries[absent].status = EntryStatus.NO_SHOW  # as forfeits.no_show records it
    return state


def test_markers_and_every_diacritic(tmp_path: Path) -> None:
    """HGV-2.3.1 lateness points, HGV-2.3.2 forfeits, HGV-2.3.5 leaving, no-shows marked."""
    state = marked_group()
    names = player_names(16)
    first, second = state.groups[0].players[:2]
    names[first] = EVERY_DIACRITIC
    names[second] = "Maria-Magdalena Constantinescu-Brâncoveanu Wójcik"
    view = group_view(state, state.groups[0], names)
    kinds = {badge.kind for line in view.lines for badge in line.badges}
    assert {"forfeit", "penalty", "withdrawn", "no_show"} <= kinds
    canvas = draw(view, "pl", ZONE)
    assert canvas.metrics.smallest >= MIN_FONT
    assert_like_golden("table-markers-diacritics", canvas.png(), tmp_path)


def test_every_diacritic_has_a_glyph_in_the_bundled_font() -> None:
    face = font(24)

    def glyph(letter: str) -> bytes:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((4, 4), letter, font=face, fill=255)
        return image.tobytes()

    missing = glyph("\U0010fffd")  # no font has this: the "missing glyph" box
    for letter in EVERY_DIACRITIC.replace(" ", ""):
        assert glyph(letter) != missing, letter


def test_a_64_player_bracket_fits_and_stays_legible() -> None:
    state = simulated(96, qualifiers=2, waves=8)
    assert len(state.stage_matches(Stage.KNOCKOUT)) == 63
    drawn = render(picture_of(state), "en", ZONE)
    # Telegram takes a photo up to 10,000 px in width plus height and a 1:20 ratio.
    assert drawn.width + drawn.height <= 10_000
    assert drawn.height / drawn.width <= 20
    assert drawn.width <= 1300
    assert drawn.metrics.smallest >= MIN_FONT
    # Names are shortened to a first name and initials, never cut to a stub.
    for _, shown in drawn.metrics.shortened:
        assert not shown.endswith(ELLIPSIS), shown
    assert len(drawn.png) < 5 * 1024 * 1024


def picture_of(state: TournamentState) -> Picture:
    view = bracket_view(state, player_names(len(state.entries)))
    assert view is not None
    return Picture("bracket", view, msg("title.bracket", tournament="Spring Cup"), ())


def test_long_names_are_shortened_gracefully() -> None:
    face = font(20)
    assert fit("Ana Pop", face, 500) == "Ana Pop"
    width = face.getlength("Alexandru C. P.")
    assert fit("Alexandru Constantin Popescu", face, width + 1) == "Alexandru C. P."
    assert fit("Alexandru Constantin Popescu", face, face.getlength("Alexandru P.") + 1) == (
        "Alexandru P."
    )
    assert fit("Maximiliano", face, 40).endswith(ELLIPSIS)


def test_a_schedule_card_and_the_ranking(tmp_path: Path) -> None:
    state = simulated(12, waves=2)
    player = state.groups[0].players[0]
    card = card_view(state, player, state.matches_of(player), player_names(12))
    assert isinstance(card, CardView)
    assert_like_golden("card", draw(card, "es", ZONE).png(), tmp_path)
    ranking = ranking_view(
        msg("title.ranking_season", club="Club Navodari"),
        [(i, n, 3 - i * 0.25, 4 - i % 3, i % 2 == 1) for i, n in player_names(8).items()],
    )
    assert_like_golden("ranking", draw(ranking, "ro", ZONE).png(), tmp_path)


def test_a_cards_scores_and_states_are_drawn_whole_WAR_V() -> None:
    state = simulated(12, waves=2)
    player = state.groups[0].players[0]
    card = card_view(state, player, state.matches_of(player), player_names(12))
    # A level draughts match shows its tiebreak, a Polish state is long: neither is cut.
    lines = tuple(
        dataclasses.replace(line, score="2-2 (3-1)", status=msg("status.scheduled"))
        for line in card.lines
    )
    drawn = draw(dataclasses.replace(card, lines=lines), "pl", ZONE)
    cut = [text for text, _ in drawn.metrics.shortened]
    assert "2-2 (3-1)" not in cut and "do rozegrania" not in cut, cut
    assert "2-2 (3-1)" in drawn.metrics.drawn and "do rozegrania" in drawn.metrics.drawn


def test_a_picture_travels_through_the_outbox_as_json() -> None:
    state = simulated(12, waves=4, consolation=True)
    names = player_names(12)
    table = views.group_table(state, state.groups[0], names)
    group = group_view(state, state.groups[0], names)
    bracket = bracket_view(state, names)
    assert isinstance(group, GroupView) and bracket is not None
    reply = Reply(
        (
            Picture("group-1", group, msg("title.group", group="1"), (table,)),
            Picture("bracket", bracket, msg("title.bracket", tournament="Cup"), ()),
        )
    )
    again = from_payload(json.loads(json.dumps(to_payload(reply))))
    assert again == reply


def test_where_pictures_cannot_be_shown_the_text_twin_is() -> None:
    state = simulated(12, waves=2)
    names = player_names(12)
    table = views.group_table(state, state.groups[0], names)
    picture = Picture("group-1", group_view(state, state.groups[0], names), table.title, (table,))
    renderer = Renderer("en", ZONE, "plain")
    assert renderer.reply(Reply((picture,))).text == renderer.reply(Reply((table,))).text


def test_the_font_ships_in_the_package_data() -> None:
    """An installed package finds the font: pyproject's package-data names the files."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["bot"]
    fonts = sorted((ROOT / "bot" / "pictures" / "fonts").iterdir())
    assert any(f.suffix == ".ttf" for f in fonts)
    for path in fonts:
        relative = path.relative_to(ROOT / "bot").as_posix()
        assert any(fnmatch(relative, pattern) for pattern in patterns), relative


def test_ranking_points_are_written_as_the_club_language_writes_decimals() -> None:
    ranking = ranking_view(
        msg("title.ranking_season", club="Club Navodari"),
        [(1, "Ana Popescu", 2.3, 4, True), (2, "Bogdan Ionescu", 12.75, 3, False)],
    )
    drawn_ro = draw(ranking, "ro", ZONE).metrics.drawn
    drawn_en = draw(ranking, "en", ZONE).metrics.drawn
    assert "2,30" in drawn_ro and "12,75" in drawn_ro
    assert "2.30" in drawn_en and "12.75" in drawn_en


def test_the_all_time_ranking_is_drawn_without_a_prizes_column() -> None:
    """Prizes are a season's (HGV-8): the all-time table drew "Prizes: no" for everyone."""
    rows = [(1, "Ana Popescu", 2.3, 4, True), (2, "Bogdan Ionescu", 12.75, 3, False)]
    title = msg("title.ranking_all_time", club="Club Navodari")
    season = draw(ranking_view(title, rows), "en", ZONE).metrics.drawn
    all_time = draw(ranking_view(title, rows, prizes=False), "en", ZONE).metrics.drawn
    assert "Prizes" in season and "yes" in season
    assert "Prizes" not in all_time and "yes" not in all_time and "no" not in all_time
    assert "Bogdan Ionescu" in all_time and "12.75" in all_time


def test_a_pictures_file_name_keeps_letters_without_an_accent_to_drop() -> None:
    state = simulated(12, waves=2)
    state.name = "Puchar Łodzi"
    assert file_name(state, "matches", "Tomasz Łęcki") == "puchar-lodzi-matches-tomasz-lecki"
