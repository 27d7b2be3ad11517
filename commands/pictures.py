"""What the pictures show, as neutral data: group tables, brackets, schedule cards, rankings.

The views are built here from the tournament state (facts only: the rules already
decided ranks, winners and qualifiers) and drawn by `bot.pictures`, which knows fonts
and pixels but no rules. Every label is a catalog message, so a picture speaks the
club's language. A view travels through the outbox as JSON (`to_data` / `from_data`).
"""

from __future__ import annotations

import re
import unicodedata

from commands import views
from commands.picture_views import Badge as Badge
from commands.picture_views import BracketMatchView as BracketMatchView
from commands.picture_views import BracketSection as BracketSection
from commands.picture_views import BracketView as BracketView
from commands.picture_views import CardLine as CardLine
from commands.picture_views import CardView as CardView
from commands.picture_views import GroupView as GroupView
from commands.picture_views import MatchState as MatchState
from commands.picture_views import Names as Names
from commands.picture_views import PictureView as PictureView
from commands.picture_views import RankingLine as RankingLine
from commands.picture_views import RankingView as RankingView
from commands.picture_views import Side as Side
from commands.picture_views import StandingLine as StandingLine
from commands.picture_views import from_data as from_data
from commands.picture_views import to_data as to_data
from commands.replies import (
    Msg,
    Name,
    Param,
    Picture,
    Table,
    When,
    msg,
)
from tournament import folding
from tournament.model import EntryStatus, MatchStatus, PlayerId, Stage
from tournament.progress import qualifiers_of, standings_of
from tournament.state import Group, Match, TournamentState


def _name(names: Names, player: PlayerId | None) -> Param | None:
    return None if player is None else Name(names.get(player, f"#{player}"))


# -- group tables --


def group_view(state: TournamentState, group: Group, names: Names) -> GroupView:
    """Return a group's table as a picture shows it (HGV-7.2.2, HGV-7.2.3)."""
    table = standings_of(state, group)
    matches = [
        m
        for m in state.matches.values()
        if m.group == group.name and m.stage in (Stage.GROUP, Stage.TIEBREAK)
    ]
    played = sum(1 for m in matches if m.is_final)
    started = any(row.won or row.lost for row in table.rows)
    complete = bool(matches) and played == len(matches)
    qualifying = set(qualifiers_of(state, table)) if started else set()
    lateness: dict[PlayerId, int] = {}
    for penalty in state.penalties.values():
        match = state.matches.get(penalty.match)
        if not penalty.cancelled and match is not None and match.group == group.name:
            lateness[penalty.against] = lateness.get(penalty.against, 0) + penalty.points
    used: set[str] = set()
    lines = []
    order = (
        [(row.rank, row) for row in table.rows]
        if started
        else [(i, None) for i in range(1, len(group.players) + 1)]
    )
    for position, (rank, row) in enumerate(order):
        player = row.player if row is not None else group.players[position]
        entry = state.entries.get(player)
        badges: list[Badge] = []
        if row is not None and row.forfeits:
            badges.append(Badge("forfeit", msg("picture.badge.forfeit", count=row.forfeits)))
        if lateness.get(player):
            badges.append(Badge("penalty", msg("picture.badge.penalty", points=lateness[player])))
        status = entry.status if entry is not None else EntryStatus.ACTIVE
        if status is not EntryStatus.ACTIVE:
            badges.append(Badge(status.value, msg(f"picture.badge.{status.value}")))
        elif row is not None and row.removed:
            badges.append(Badge("removed", msg("picture.badge.removed")))
        used.update(b.kind for b in badges)
        lines.append(
            StandingLine(
                rank=rank,
                player=Name(names.get(player, f"#{player}")),
                won=row.won if row else 0,
                lost=row.lost if row else 0,
                points_for=row.points_for if row else 0,
                points_against=row.points_against if row else 0,
                badges=tuple(badges),
                qualified=player in qualifying,
                out=status is not EntryStatus.ACTIVE or bool(row and row.removed),
            )
        )
    legend = [msg("picture.legend.qualified" if complete else "picture.legend.qualifying")]
    legend += [
        msg(f"picture.legend.{kind}")
        for kind in ("forfeit", "penalty", "withdrawn", "no_show", "removed")
        if kind in used
    ]
    return GroupView(
        title=msg("title.group", group=group.name),
        subtitle=msg(
            "picture.group_progress",
            tournament=Name(state.name),
            played=played,
            total=len(matches),
        ),
        header=(
            msg("col.rank"),
            msg("col.player"),
            msg("picture.col.won_lost"),
            msg("picture.col.points"),
            msg("picture.col.difference"),
        ),
        lines=tuple(lines),
        legend=tuple(legend) if started else (),
        notes=(
            views.tiebreak_notes(
                table, names, game=state.preset.game, by_lot=views.drawn_by_lot(state, group)
            )
            if complete
            else ()
        ),
    )


# -- brackets --


def bracket_view(state: TournamentState, names: Names) -> BracketView | None:
    """Return the knockout bracket, and the consolation bracket when there is one."""
    sections = []
    main = [m for m in state.stage_matches(Stage.KNOCKOUT) if m.key is not None]
    third = next((m for m in state.stage_matches(Stage.THIRD_PLACE) if m.key), None)
    if main:
        sections.append(
            _section(state, msg("picture.knockout"), main, third, names, Stage.KNOCKOUT)
        )
    consolation = [m for m in state.stage_matches(Stage.CONSOLATION) if m.key is not None]
    if consolation:
        sections.append(
            _section(
                state, msg("picture.consolation"), consolation, None, names, Stage.CONSOLATION
            )
        )
    if not sections:
        return None
    return BracketView(
        title=msg("title.bracket", tournament=Name(state.name)),
        sections=tuple(sections),
        legend=(msg("picture.legend.bracket"),),
    )


def _section(
    state: TournamentState,
    title: Msg,
    matches: list[Match],
    third: Match | None,
    names: Names,
    stage: Stage,
) -> BracketSection:
    by_key = {m.key: m for m in matches}
    rounds = sorted({m.round for m in matches})
    labels = []
    for number in rounds:
        first = next(m for m in matches if m.round == number)
        labels.append(msg(f"round.{first.round_name or 'knockout'}"))
    play_in = any(m.round_name == "play_in" for m in matches)
    views = tuple(
        _match_view(state, m, by_key, names, play_in and m.round == rounds[0] + 1)
        for m in sorted(matches, key=lambda m: (m.round, m.index))
    )
    third_view = _match_view(state, third, by_key, names, False) if third else None
    return BracketSection(title, tuple(labels), rounds[0], views, third_view)


def _match_view(
    state: TournamentState,
    match: Match,
    by_key: dict[str | None, Match],
    names: Names,
    after_play_in: bool,
) -> BracketMatchView:
    decided = match.is_final and match.winner is not None
    shown = match.status not in (MatchStatus.SCHEDULED, MatchStatus.VOID) or decided
    lot_side = match.lot_winner if decided else None

    def side(player: PlayerId | None, source: str | None, colour: str) -> Side:
        feed = None
        if player is None and source is not None:
            feeder = by_key.get(source)
            loser = match.stage is Stage.THIRD_PLACE
            if feeder is not None:
                feed = msg(
                    "picture.loser_of" if loser else "picture.winner_of", match=feeder.number
                )
        score = None
        if shown and player is not None:
            score = match.white_score if colour == "white" else match.black_score
        return Side(
            player=_name(names, player),
            feed=feed,
            score=score,
            won=decided and player is not None and match.winner == player,
            lot=lot_side == colour,
            # A forfeiter's last victim stepping in (HGV-2.3.8) came by no bye.
            bye=after_play_in
            and source is None
            and player is not None
            and views.in_place_of(state, match, player) is None,
        )

    if decided:
        status: MatchState = "done"
        note = (
            msg(f"status.{match.status.value}")
            if match.status is not MatchStatus.FINISHED
            else None
        )
    elif match.is_ready:
        status = "next"
        note = (
            msg(f"status.{match.status.value}")
            if match.status is not MatchStatus.SCHEDULED
            else msg("picture.at", start=When(match.start))
            if match.start
            else None
        )
    else:
        status = "waiting"
        note = msg(f"status.{match.status.value}") if match.is_final else None
    return BracketMatchView(
        number=match.number,
        key=match.key or "",
        round=match.round,
        white=side(match.white, match.white_from, "white"),
        black=side(match.black, match.black_from, "black"),
        state=status,
        white_from=match.white_from,
        black_from=match.black_from,
        note=note,
    )


# -- a player's card and the ranking --


def card_view(
    state: TournamentState, player: PlayerId, matches: list[Match], names: Names
) -> CardView:
    """Return a player's matches as a card: round, time, opponent, colour, result."""
    lines = []
    by_key = views.feeders(state)
    for m in matches:
        # An opponent still to be decided is the match that sends one ("winner of 8").
        if m.white == player:
            opponent = views.fed_side(m, m.black, m.black_from, by_key, names)
        else:
            opponent = views.fed_side(m, m.white, m.white_from, by_key, names)
        if m.is_final and m.winner is not None:
            status: MatchState = "done"
        elif m.is_ready:
            status = "next"
        else:
            status = "waiting"
        mine, theirs = m.score_of(player), (m.black_score if m.white == player else m.white_score)
        said = msg(f"status.{m.status.value}")
        if m.status is MatchStatus.PENDING and m.report is not None:
            # The reported score, and whose answer it awaits: theirs, or this player's.
            report = m.report
            white = m.white == player
            mine, theirs = (report.white, report.black) if white else (report.black, report.white)
            said = msg("status.pending" if report.by == player else "status.to_answer")
        lines.append(
            CardLine(
                number=m.number,
                round=views.round_label(m),
                start=When(m.start) if m.start else "",
                opponent=opponent,
                piece=m.side_of(player),
                score=_card_score(m, player, mine, theirs),
                status=said,
                state=status,
            )
        )
    return CardView(
        title=msg("picture.card_title", player=Name(names.get(player, f"#{player}"))),
        subtitle=msg("title.schedule", tournament=Name(state.name)),
        header=(
            msg("col.match"),
            msg("col.round"),
            msg("col.time"),
            msg("picture.col.opponent"),
            msg("col.score"),
            msg("col.status"),
        ),
        lines=tuple(lines),
    )


def ranking_view(
    title: Msg, rows: list[tuple[int, str, float, int, bool]], *, prizes: bool = True
) -> RankingView:
    """Return a ranking table: (rank, name, points, tournaments, prize-eligible) rows;
    without `prizes` (the all-time table: prizes are a season's) no Prizes column."""
    return RankingView(
        title=title,
        header=(
            msg("col.rank"),
            msg("col.player"),
            msg("col.points"),
            msg("col.tournaments"),
            *((msg("col.prize_eligible"),) if prizes else ()),
        ),
        lines=tuple(
            RankingLine(rank, Name(name), points, played, eligible)
            for rank, name, points, played, eligible in rows
        ),
    )


# -- reply parts: the picture with its text twin --


def file_name(state: TournamentState, *parts: str) -> str:
    """Return a file name stem for a picture of the tournament: "spring-cup-group-1"."""
    return "-".join(_slug(part) for part in (state.name, *parts) if _slug(part)) or "picture"


def _slug(text: str) -> str:
    # ł and the like have no accent to drop: "Łęcki" is "lecki", not "ecki".
    plain = folding.plain(text)
    ascii_text = unicodedata.normalize("NFKD", plain).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40]


def group_picture(state: TournamentState, group: Group, names: Names) -> Picture:
    """Return a group's table as a picture, with the text table as its twin."""
    return Picture(
        name=file_name(state, "group", group.name),
        view=group_view(state, group, names),
        caption=msg("picture.caption.group", tournament=Name(state.name), group=group.name),
        fallback=(views.group_table(state, group, names),),
    )


def bracket_picture(state: TournamentState, names: Names, *, text: bool = True) -> Picture | None:
    """Return the bracket as a picture; its twin is the bracket table (none if not `text`)."""
    view = bracket_view(state, names)
    if view is None:
        return None
    return Picture(
        name=file_name(state, "bracket"),
        view=view,
        caption=msg("title.bracket", tournament=Name(state.name)),
        fallback=(views.bracket_table(state, names),) if text else (),
    )


def _card_score(match: Match, player: PlayerId, mine: int, theirs: int) -> str:
    """Return a card's score from the player's side; a level draughts match's tiebreak
    phases too, which say who won it (WAR-V): "2-2 (3-1)"."""
    if match.status is MatchStatus.SCHEDULED:
        return ""
    said = f"{mine}-{theirs}"
    if match.tiebreaks and match.status is not MatchStatus.PENDING:
        phases = views.tiebreak_phases(match.tiebreaks, black_first=match.white != player)
        said += f" ({phases})"
    return said


def card_picture(
    state: TournamentState, player: PlayerId, matches: list[Match], names: Names
) -> Picture:
    """Return a player's schedule card, with the schedule table as its twin."""
    return Picture(
        name=file_name(state, "matches", names.get(player, str(player))),
        view=card_view(state, player, matches, names),
        caption=msg("title.schedule", tournament=Name(state.name)),
        fallback=(views.schedule_table(state, matches, names, player),),
    )


def ranking_picture(
    name: str, table: Table, rows: list[tuple[int, str, float, int, bool]], *, prizes: bool = True
) -> Picture:
    """Return a ranking as a picture, with its text table as its twin."""
    view = ranking_view(table.title, rows, prizes=prizes)
    return Picture(name=name, view=view, caption=table.title, fallback=(table,))


# -- JSON for the outbox --
