"""Tables and summaries built from a tournament: standings, schedule, bracket, results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from commands.params import scores_typed
from commands.replies import Hint, Mention, Msg, Name, Param, Table, When, msg
from tournament.calendar import Listed
from tournament.events import GroupsDrawn
from tournament.model import MatchStatus, PlayerId, Stage
from tournament.placements import shared_ranges
from tournament.preset import Game, Preset
from tournament.progress import standings_of
from tournament.scoring import ScoreError, draughts_points_of_games, example_score
from tournament.standings import Standings, TiebreakNote
from tournament.state import Group, Match, Report, TournamentState

Names = Mapping[PlayerId, str]
_STANDINGS_HEADER = tuple(
    msg(key)
    for key in (
        "col.rank",
        "col.player",
        "col.won",
        "col.lost",
        "col.for",
        "col.against",
        "col.note",
    )
)
# The schedule and the bracket list matches under the same columns.
_MATCH_HEADER = tuple(
    msg(key)
    for key in (
        "col.match",
        "col.round",
        "col.time",
        "col.white",
        "col.black",
        "col.score",
        "col.status",
    )
)


def tournament_status(t: Listed | TournamentState, night_passed: bool) -> Msg:
    """Return a tournament's status as the club reads it: one whose day passed undrawn
    (`night_passed`) is no longer "open for entries"."""
    return msg("tstatus.overdue" if night_passed else f"tstatus.{t.status.value}")


def name(names: Names, player: PlayerId | None) -> Param:
    if player is None:
        return msg("word.to_be_decided")
    return Name(names.get(player, f"#{player}"))


def called(names: Names, player: PlayerId) -> Param:
    """Return a player as a message that calls them names them: a ping where they have
    an account on the platform (commands/mentions.py), their name elsewhere."""
    return Mention(names.get(player, f"#{player}"), player)


def name_list(names: Names, players: Iterable[PlayerId]) -> str:
    """Return players' names joined for a sentence: "ana, bob, cruz"."""
    return ", ".join(names.get(p, f"#{p}") for p in players)


def group_table(state: TournamentState, group: Group, names: Names) -> Table:
    """Return a group's standings, tiebreak explanations as notes (HGV-7.2.3)."""
    table = standings_of(state, group)
    if not any(row.won or row.lost for row in table.rows):
        # Nothing played yet: show the group in its drawn order, each player's seed as
        # the note (HGV-7.2.1), without lot notes.
        return Table(
            title=msg("title.group", group=group.name),
            header=_STANDINGS_HEADER,
            rows=tuple(
                (i, name(names, p), 0, 0, 0, 0, _seed(state, p))
                for i, p in enumerate(group.players, 1)
            ),
        )
    rows = tuple(
        (
            row.rank,
            name(names, row.player),
            row.won,
            row.lost,
            row.points_for,
            row.points_against,
            msg("word.removed") if row.removed else "",
        )
        for row in table.rows
    )
    return Table(
        title=msg("title.group", group=group.name),
        header=_STANDINGS_HEADER,
        rows=rows,
        # Mid-group ties are provisional: explain them once the group is complete.
        notes=(
            tiebreak_notes(table, names, game=state.preset.game, by_lot=drawn_by_lot(state, group))
            if group_complete(state, group)
            else ()
        ),
    )


def lot_key(key: str, game: Game) -> str:
    """A lot is drawn with dice in backgammon only: other games draw lots (WAR-V)."""
    return f"{key}_drawn" if key.endswith(".lot") and game != "backgammon" else key


def _seed(state: TournamentState, player: PlayerId) -> Msg | str:
    entry = state.entries.get(player)
    return msg("word.seed", seed=entry.seed) if entry and entry.seed else ""


def group_complete(state: TournamentState, group: Group) -> bool:
    """Return whether every match of the group (extra games too) is final."""
    return all(
        m.is_final
        for m in state.matches.values()
        if m.group == group.name and m.stage in (Stage.GROUP, Stage.TIEBREAK)
    )


def drawn_by_lot(state: TournamentState, group: Group) -> frozenset[PlayerId]:
    """Return the players of a group's extra games a director's lot decided (NAV-TIE)."""
    return frozenset(
        p
        for m in state.stage_matches(Stage.TIEBREAK)
        if m.group == group.name and m.lot_winner is not None and m.status is not MatchStatus.VOID
        for p in m.players
    )


def tiebreak_notes(
    table: Standings,
    names: Names,
    *,
    game: Game = "backgammon",
    by_lot: frozenset[PlayerId] = frozenset(),
) -> tuple[Msg, ...]:
    """Explain every tie the standings broke: "ana above dora: more wins among ...".

    Extra games a lot decided (`by_lot`: their players) broke the tie by that lot, and
    say so: "won the extra game" named games nobody played.
    """
    waiting = {p for need in table.extra_games for p in need.players}

    def criterion(note: TiebreakNote) -> str:
        lot = note.criterion == "extra_game" and {note.above, note.below} <= by_lot
        return "lot" if lot else note.criterion

    return tuple(
        msg(
            lot_key(f"tiebreak.{criterion(note)}", game),
            above=name(names, note.above),
            below=name(names, note.below),
            a=note.values[0],
            b=note.values[1],
        )
        for note in table.notes
        # A provisional lot among players who still play extra games explains nothing.
        if not (note.criterion == "lot" and {note.above, note.below} <= waiting)
    ) + tuple(
        msg(
            "tiebreak.extra_games_needed",
            players=name_list(names, need.players),
        )
        for need in table.extra_games
    )


# The tiebreak phase a line to send shows when one is needed and none was typed.
SAMPLE_PHASE = (3, 1)


def in_points(
    typed: tuple[int, int],
    games: int,
    command: str,
    usage: str = "score.usage",
    then: str = "",
    *,
    if_level: str = "",
) -> ScoreError | None:
    """Return the refusal of a draughts score typed in games (/report 2-0, both games won)
    that gives it in points (/report 4-0), said with `usage`; None when it is not one.
    `then` follows the score in the line to send (`/result 1 jan 4-0 łukasz`); `if_level`
    too, before it, when the points are level (what a level tiebreak phase needs next)."""
    points = draughts_points_of_games(*typed, games)
    if points is None:
        return None
    shown = f"{points[0]}-{points[1]}"
    level = if_level if points[0] == points[1] else ""
    return ScoreError(
        "draughts_games",
        typed=f"{typed[0]}-{typed[1]}",
        points=shown,
        example=f"{command} {shown}{level}{then}",
        _usage=usage,
    )


def phase_in_points(
    phases: Sequence[tuple[int, int]],
    phase: int,
    total: int,
    command: str,
    usage: str = "score.usage",
    then: str = "",
    *,
    last: bool = False,
) -> ScoreError | None:
    """Return the refusal of a draughts tiebreak `phase` (1-based) typed in games
    (`/report 2-2 2-0`: both tiebreak games won) that gives it in points (`2-2 4-0`);
    None when it is not one. `total` is the phase's points, 2 a game; `then` is what
    was typed after the scores (a lot), kept in the line to send. A phase level in
    points (`1-1` in games is `2-2`) is sent with what follows it: a sample next phase,
    or a lot when it is the `last` one the rules allow."""
    if not 0 < phase < len(phases):
        return None
    before = scores_typed(phases[:phase])
    after = scores_typed(phases[phase + 1 :]) + then
    if_level = "" if after else (" lot:won" if last else scores_typed((SAMPLE_PHASE,)))
    return in_points(
        phases[phase], total // 2, command + before, usage, then=after, if_level=if_level
    )


def last_tiebreak(preset: Preset, match: Match, phase: int) -> bool:
    """Return whether tiebreak `phase` (1-based) is the last the rules allow `match`
    (WAR-V: a level last phase goes to a lot)."""
    rules = preset.scoring
    allowed = (
        rules.group_tiebreak_games if match.stage is Stage.GROUP else rules.knockout_tiebreak_games
    )
    return phase >= len(allowed)


def with_tiebreak(command: str, phases: Sequence[tuple[int, int]]) -> str:
    """Return `command` with the scores typed and a sample tiebreak added: what to send
    when a level match needs its tiebreak (the same command, one score longer)."""
    return command + scores_typed((*phases, SAMPLE_PHASE))


def shown_score(match: Match) -> Msg:
    """Return the score a match shows: the one reported while it awaits the opponent (not
    "0-0, awaiting opponent" of a match reported 4-0), else the match's own."""
    report = match.report
    if match.status is MatchStatus.PENDING and report is not None:
        return score(report.white, report.black, report.tiebreaks, report.lot_winner)
    return score(match.white_score, match.black_score, match.tiebreaks, match.lot_winner)


def tiebreak_phases(tiebreaks: Sequence[tuple[int, int]], *, black_first: bool = False) -> str:
    """Return a level match's tiebreak phases as numbers, white's first (or black's):
    "3-1, 2-2"."""
    return ", ".join(f"{b}-{w}" if black_first else f"{w}-{b}" for w, b in tiebreaks)


def score(
    white: int, black: int, tiebreaks: tuple[tuple[int, int], ...] = (), lot: str | None = None
) -> Msg:
    """Return a score as shown, white first, with draughts tiebreak phases (WAR-V)."""
    if not tiebreaks and lot is None:
        return msg("score.plain", white=white, black=black)
    phases = tiebreak_phases(tiebreaks)
    key = "score.with_lot" if lot is not None else "score.with_tiebreaks"
    if lot is not None and not tiebreaks:
        key = "score.lot_only"  # an extra game a director's /lot decided (NAV-TIE)
    return msg(
        key, white=white, black=black, phases=phases, side=msg(f"word.{lot}") if lot else ""
    )


def result_command(match: Match, report: Report | None = None, *, game: Game) -> str:
    """Return the `/result` a director copies to settle `match`: the score `report` gave,
    white's first, else a winning score of the match's own length (HGV-5.3)."""
    if report is None:
        won, lost = example_score(game, match.length)
        return f"/result {match.number} {won}-{lost}"
    words = [f"/result {match.number}", *(f"{w}-{b}" for w, b in _phases(report))]
    if report.lot_winner is not None:
        words.append(f"lot:{report.lot_winner}")
    return " ".join(words)


def _phases(report: Report) -> list[tuple[int, int]]:
    return [(report.white, report.black), *report.tiebreaks]


def disputed_line(match: Match, names: Names, *, by: PlayerId, game: Game) -> Msg:
    """Return a disputed match as the director must settle it: each player's score, and
    the `/result` that sets each (CLUB-REPORT)."""
    report = match.report
    assert report is not None
    params: dict[str, Param] = {
        "match": match.number,
        "white": name(names, match.white),
        "black": name(names, match.black),
        "by": name(names, by),
        "reporter": name(names, report.by),
        "score": score(report.white, report.black, report.tiebreaks, report.lot_winner),
        "command": Hint(result_command(match, report, game=game)),
        "length": match.length,
    }
    counter = report.counter
    if counter is None:
        # A draughts match's length is games: "(2 games)", not "(a match to 2)".
        return msg("report.disputed_games" if game == "draughts" else "report.disputed", **params)
    return msg(
        "report.disputed_both",
        other=name(names, counter.by),
        other_score=score(counter.white, counter.black, counter.tiebreaks, counter.lot_winner),
        other_command=Hint(result_command(match, counter, game=game)),
        **params,
    )


def match_line(match: Match, names: Names, game: Game) -> Msg:
    """Return one line describing a match and its state (a draughts match's length is
    games: "(2 games)", not "(to 2)")."""
    params: dict[str, Param] = {
        "number": match.number,
        "white": name(names, match.white),
        "black": name(names, match.black),
        "ws": match.white_score,
        "bs": match.black_score,
        "score": score(match.white_score, match.black_score, match.tiebreaks, match.lot_winner),
        "length": match.length,
    }
    if match.status in (MatchStatus.FINISHED, MatchStatus.FORFEIT):
        return msg(f"line.{match.status.value}", winner=name(names, match.winner), **params)
    if match.status is MatchStatus.DOUBLE_FORFEIT:
        return msg("line.double_forfeit", **params)
    if match.start is None:
        return msg("line.waiting", **params)
    if match.report is not None:
        report = match.report
        params["ws"], params["bs"] = report.white, report.black
        params["score"] = score(report.white, report.black, report.tiebreaks, report.lot_winner)
    key = f"line.{match.status.value}"
    if game == "draughts" and match.status is MatchStatus.SCHEDULED:
        key = "line.scheduled_games"
    return msg(key, start=When(match.start), **params)


def schedule_table(
    state: TournamentState, matches: list[Match], names: Names, viewer: PlayerId | None = None
) -> Table:
    """Return matches as a table: number, round, start, white, black, score, status; a
    side nobody holds yet is the match that sends one ("winner of 8"), not "?". The
    `viewer`'s own reports read as theirs: "to accept", not "awaiting <their name>"."""
    by_key = feeders(state)
    rows = tuple(
        (
            m.number,
            round_label(m),
            When(m.start) if m.start else "",
            fed_side(m, m.white, m.white_from, by_key, names),
            fed_side(m, m.black, m.black_from, by_key, names),
            *_score_and_status(m, names, viewer),
        )
        for m in matches
    )
    return Table(
        title=msg("title.schedule", tournament=Name(state.name)), header=_MATCH_HEADER, rows=rows
    )


def _score_and_status(
    match: Match, names: Names, viewer: PlayerId | None = None
) -> tuple[str | Msg, Msg]:
    """Return a schedule row's score and status: a reported score awaiting the opponent
    is shown, with whose answer it awaits (a player read "0-0, awaiting opponent" of the
    match they were asked to accept)."""
    report = match.report
    if match.status is MatchStatus.PENDING and report is not None:
        reported = shown_score(match)
        if viewer is not None and match.involves(viewer):
            return reported, msg("status.pending" if report.by == viewer else "status.to_answer")
        answers = name(names, match.opponent_of(report.by))
        return reported, msg("status.pending_for", name=answers)
    status = msg(f"status.{match.status.value}")
    if match.tiebreaks or match.lot_winner is not None:
        # A level draughts match: its tiebreak or lot says who won it (WAR-V), "2-2" not.
        phases = tiebreak_phases(match.tiebreaks)
        plain = f"{match.white_score}-{match.black_score}"
        if match.lot_winner is None:
            return f"{plain} ({phases})", status
        side = msg(f"word.{match.lot_winner}")
        # An extra game the director's /lot decided has no tiebreak phases of its own.
        phases = f"{phases}; " if phases else ""
        return msg("score.cell_lot", score=plain, phases=phases, side=side), status
    return f"{match.white_score}-{match.black_score}", status


def table_number(state: TournamentState, match: Match) -> int:
    """Return the board a match is played on: its place among the matches of its time."""
    same_time = sorted(
        m.number for m in state.matches.values() if m.start == match.start and m.is_ready
    )
    return same_time.index(match.number) + 1 if match.number in same_time else 1


def round_label(match: Match) -> Msg:
    if match.stage is Stage.GROUP:
        return msg("round.group", group=match.group or "", round=match.round)
    if match.stage is Stage.TIEBREAK:
        return msg("round.tiebreak", group=match.group or "")
    if match.stage is Stage.CONSOLATION:
        return msg("round.consolation", name=msg(f"round.{match.round_name}"))
    return msg(f"round.{match.round_name or 'knockout'}")


def feeders(state: TournamentState) -> dict[str, Match]:
    """Return the bracket's matches by key, for `fed_side`."""
    return {m.key: m for m in state.matches.values() if m.key is not None}


def fed_side(
    match: Match,
    player: PlayerId | None,
    source: str | None,
    by_key: Mapping[str, Match],
    names: Names,
) -> Param:
    """Return a bracket side as a club reads it: its player, or while undecided the match
    (found in `by_key`, the bracket by key) that sends one ("winner of 6"; the third
    place's, "loser of 6")."""
    feeder = by_key.get(source) if source is not None else None
    if player is None and feeder is not None:
        key = "word.loser_of" if match.stage is Stage.THIRD_PLACE else "word.winner_of"
        return msg(key, match=feeder.number)
    return name(names, player)


def in_place_of(state: TournamentState, match: Match, player: PlayerId) -> PlayerId | None:
    """Return the knockout forfeiter whose place `player` took in `match` (HGV-2.3.8): the
    winner of an earlier match of its bracket that `player` lost. None: no such match (a
    side without a feeding match is then a bye)."""
    for earlier in state.stage_matches(match.stage):
        if (
            earlier.round < match.round
            and earlier.is_final
            and player in earlier.players
            and earlier.winner not in (None, player)
        ):
            return earlier.winner
    return None


def bracket_table(state: TournamentState, names: Names) -> Table:
    """Return the knockout by round: who meets whom next ("winner of 13"), who had a bye,
    and who won each match (the lot winner too, WAR-V)."""
    # A match of a bracket the results replaced has no place in it any more (its key
    # went): the picture leaves it out, and so does the table; /schedule all keeps it.
    by_key = {
        m.key: m
        for m in state.stage_matches(Stage.KNOCKOUT, Stage.THIRD_PLACE, Stage.CONSOLATION)
        if m.key is not None
    }
    matches = list(by_key.values())
    first_round = {
        stage: min((m.round for m in matches if m.stage is stage), default=0)
        for stage in (Stage.KNOCKOUT, Stage.CONSOLATION)
    }

    def side(match: Match, player: PlayerId | None, source: str | None) -> Param:
        if (
            player is not None
            and source is None
            and match.stage in first_round
            and match.round > first_round[match.stage]
        ):
            forfeiter = in_place_of(state, match, player)
            if forfeiter is not None:
                return msg(
                    "word.in_place_of", name=name(names, player), forfeiter=name(names, forfeiter)
                )
            return msg("word.after_bye", name=name(names, player))  # straight into round 2
        return fed_side(match, player, source, by_key, names)

    def outcome(match: Match) -> Param:
        if match.is_final and match.winner is not None:
            return msg("status.won_by", name=name(names, match.winner))
        return msg(f"status.{match.status.value}")

    rows = tuple(
        (
            m.number,
            round_label(m),
            When(m.start) if m.start else "",
            side(m, m.white, m.white_from),
            side(m, m.black, m.black_from),
            score(m.white_score, m.black_score, m.tiebreaks, m.lot_winner)
            if m.status is not MatchStatus.SCHEDULED
            else "",
            outcome(m),
        )
        for m in matches
    )
    return Table(
        title=msg("title.bracket", tournament=Name(state.name)), header=_MATCH_HEADER, rows=rows
    )


def place_label(first: int, last: int) -> str:
    """Return a place as a table shows it: "5", or a shared range "5–9" (PLACE-SHARE)."""
    return str(first) if first == last else f"{first}–{last}"


def placements_table(state: TournamentState, names: Names) -> Table:
    """Return the final places, with each one's ranking points; a friendly's without
    (HGV-8: it earns none, and a column of points would say it did)."""
    ranges = shared_ranges([p.place for p in state.placements])
    placed = [
        (place_label(*ranges[p.place]) if p.place is not None else "-", name(names, p.player))
        for p in state.placements
    ]
    if not state.official:
        return Table(
            title=msg("title.placements_friendly", tournament=Name(state.name)),
            header=(msg("col.place"), msg("col.player")),
            rows=tuple(placed),
        )
    # Points as a number, written as the club's language writes it (2,30 in es/pl/ro),
    # like the season ranking beside it.
    rows = tuple((*row, float(p.points)) for row, p in zip(placed, state.placements, strict=True))
    return Table(
        title=msg("title.placements", tournament=Name(state.name)),
        header=(msg("col.place"), msg("col.player"), msg("col.points")),
        rows=rows,
    )


def draw_line(state: TournamentState, drawn: GroupsDrawn) -> Msg:
    """Return the line that says a draw was made, with what lets anyone check it."""
    return msg(
        "draw.done",
        groups=drawn.groups,
        matches=drawn.matches,
        seed=drawn.seed,
        fingerprint=state.draw.fingerprint if state.draw else "",
    )


def still_playing(
    state: TournamentState, player: PlayerId, match: int, start: datetime
) -> list[int]:
    """Return the player's earlier match not final yet, that `match` (at `start`) waits
    for: none, or one. One with a score reported or contested was played: it holds
    nobody up, as a report's own match finding counts it (`reports.on_the_board`)."""
    return [
        m.number
        for m in state.open_matches_of(player)
        if m.number != match
        and m.start is not None
        and m.start < start
        and m.report is None
        and m.status is not MatchStatus.DISPUTED
    ][:1]
