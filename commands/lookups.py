"""Looking things up: /schedule, /standings, /bracket, /ranking, /rules (/me: cards)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Literal, get_args, get_origin, get_type_hints

from commands import pictures, views
from commands.params import Args
from commands.replies import Hint, Msg, Name, Param, Part, Reply, Table, When, msg, say
from commands.session import Session
from tournament import calendar
from tournament import ranking as ranking_rules
from tournament.model import MatchStatus, PlayerId, Refused, Stage, TournamentStatus
from tournament.preset import ALIASES, Preset, SeasonRules
from tournament.scoring import example_score
from tournament.state import Group, TournamentState

GAMES = ("backgammon", "draughts")


async def schedule(s: Session, a: Args) -> Reply:
    """Show your matches, or everyone's with /schedule all."""
    state = await s.tournament()
    mine = s.player is not None and a.choice("which") != "all" and s.player.id in state.entries
    if s.player is not None and mine:
        matches = sorted(state.matches_of(s.player.id), key=lambda m: m.number)
    else:
        matches = sorted(state.matches.values(), key=lambda m: m.number)
    if not matches:
        return say(
            "schedule.empty", tournament=Name(state.name), start=When(state.start, "datetime")
        )
    names = await s.names({q for m in matches for q in m.players})
    if s.player is not None and mine:
        names.update(await s.names([s.player.id]))
        return Reply((pictures.card_picture(state, s.player.id, matches, names),))
    return Reply((views.schedule_table(state, matches, names),))


async def standings(s: Session, a: Args) -> Reply:
    """Show the group tables, with the reason for every broken tie."""
    state = await s.tournament()
    if not state.groups:
        # The next tournament is not drawn: the one played last is what people ask for.
        none = msg("standings.none", tournament=Name(state.name))
        previous = await _last_played(s, state)
        if previous is None or not previous.groups:
            return Reply((none,))
        tables = await _group_tables(s, previous, previous.groups)
        return Reply((none, msg("lookup.last_played", tournament=Name(previous.name)), *tables))
    wanted = a.text("group")
    groups = [g for g in state.groups if wanted is None or g.name == wanted]
    if not groups:
        raise Refused("no_such_group", group=wanted or "", count=len(state.groups))
    return Reply(await _group_tables(s, state, groups))


async def _group_tables(
    s: Session, state: TournamentState, groups: Sequence[Group]
) -> tuple[Part, ...]:
    names = await s.names({q for g in groups for q in g.players})
    return tuple(pictures.group_picture(state, g, names) for g in groups)


async def bracket(s: Session, a: Args) -> Reply:
    """Show the knockout bracket and who plays whom next."""
    state = await s.tournament()
    if not state.stage_matches(Stage.KNOCKOUT, Stage.CONSOLATION):
        none = msg("bracket.none", tournament=Name(state.name))
        if state.status is TournamentStatus.GROUPS:
            return Reply((none, *_knockout_waits_for(state)))
        previous = await _last_played(s, state)
        if previous is None or not previous.stage_matches(Stage.KNOCKOUT, Stage.CONSOLATION):
            return Reply((none,))
        shown = await _bracket_parts(s, previous)
        return Reply((none, msg("lookup.last_played", tournament=Name(previous.name)), *shown))
    return Reply(tuple(await _bracket_parts(s, state)))


def _knockout_waits_for(state: TournamentState) -> tuple[Msg, ...]:
    """Return what the knockout waits for in the groups: the matches still open, and
    which of them wait for a director."""
    left = sorted(
        (m for m in state.stage_matches(Stage.GROUP) if not m.is_final), key=lambda m: m.number
    )
    if not left:
        return ()
    said = [msg("bracket.waits_for", matches=", ".join(str(m.number) for m in left))]
    disputed = [str(m.number) for m in left if m.status is MatchStatus.DISPUTED]
    if disputed:
        said.append(msg("bracket.waits_disputed", matches=", ".join(disputed)))
    return tuple(said)


async def _bracket_parts(s: Session, state: TournamentState) -> list[Part]:
    names = await s.names(set(state.entries))
    drawn = pictures.bracket_picture(state, names)
    parts: list[Part] = [drawn if drawn is not None else views.bracket_table(state, names)]
    if state.status is TournamentStatus.FINISHED:
        parts.append(views.placements_table(state, names))
    return parts


async def _last_played(s: Session, state: TournamentState) -> TournamentState | None:
    """Return the tournament played last before `state`, when the command did not name
    its tournament (one named is shown as it is)."""
    if s.chosen:
        return None
    listed = await s.uow.tournaments.list(s.club.id)
    here = next((t for t in listed if t.id == state.id), None)
    found = None if here is None else calendar.last_played(listed, here)
    return None if found is None else await s.uow.tournaments.get(found.id)


async def ranking(s: Session, a: Args) -> Reply:
    """Show a game's season ranking (HGV-8); /ranking alltime, /ranking novice, /ranking 2026
    (an earlier season's final table), game:draughts."""
    which = a.choice("which") or "season"
    try:
        state = await s.maybe_tournament()
    except Refused as asking:
        if asking.code != "which_tournament" or s.chosen:
            raise
        # The club's ranking is no one tournament's: several nights left unfinished must
        # not make it ask which. The latest of them gives the game and season rules.
        state = await _latest_asked_about(s, asking)
    game = await ranked_game(s, a.choice("game"), state)
    several = len(await club_games(s, state) | {game}) > 1
    lead: tuple[Part, ...] = ()
    records = ranking_rules.for_game(await s.uow.tournaments.records(s.club.id), game)
    preset = state.preset if state is not None and state.preset.game == game else None
    season_rules = preset.season if preset else None
    if which == "alltime":
        rows = ranking_rules.all_time_table(
            records, carried=dict(await s.uow.rankings.imported(s.club.id, game))
        )
        title = _title("title.ranking_all_time", s, game, several)
    elif which == "novice":
        if season_rules is None or not season_rules.novice_category:
            raise Refused("no_novice_category")
        rows = ranking_rules.novice_table(records, season_rules)
        title = _title("title.ranking_novice", s, game, several)
    elif (year := _year(a.integer("year"))) is not None and year != season_now(s):
        # A season gone by (or not yet begun): its final table, as the year ended.
        listed = await s.uow.tournaments.list(s.club.id)
        rows = await _season_final(s, listed, records, game, season_rules, year)
        if not rows:
            raise Refused("ranking_no_season", year=year, example="/ranking")
        title = _title("title.ranking_past_season", s, game, several, year=year)
    else:
        listed = await s.uow.tournaments.list(s.club.id)
        now = season_now(s)
        rows = await _season_final(s, listed, records, game, season_rules, now)
        title = _title("title.ranking_season", s, game, several)
        last = None if rows else await _last_season(s, listed, records, game, now)
        if last is not None:
            # January: the new season has nothing yet, and "no ranking" would read as if
            # the club had none; last season's final table is what members look for.
            rows = await _season_final(s, listed, records, game, season_rules, last)
            title = _title("title.ranking_past_season", s, game, several, year=last)
            lead = (msg("ranking.season_not_started", year=now, last=last),)
    if not rows and which == "novice":
        return say("ranking.no_novices", game=msg(f"game.{game}"))
    if not rows:
        return say("ranking.empty", game=msg(f"game.{game}"))
    names = await s.names({r.player for r in rows})
    # Prizes are a season's (HGV-8): the all-time table has no Prizes column or note.
    prizes = which != "alltime"
    table = _ranking_table(title, rows, names, season_rules if prizes else None, prizes=prizes)
    drawn = [
        (
            r.rank,
            names.get(r.player, f"#{r.player}"),
            float(r.points),
            r.tournaments,
            r.prize_eligible,
        )
        for r in rows
    ]
    picture = pictures.ranking_picture(f"ranking-{which}-{game}", table, drawn, prizes=prizes)
    return Reply((*lead, picture))


async def _latest_asked_about(s: Session, asking: Refused) -> TournamentState | None:
    """Return the latest-starting of the tournaments a "which tournament?" named."""
    choices = asking.params.get("_choices", ())
    named = set(choices) if isinstance(choices, tuple) else set()
    listed = [t for t in await s.uow.tournaments.list(s.club.id) if t.live and t.name in named]
    if not listed:
        return None
    return await s.uow.tournaments.get(max(listed, key=lambda t: (t.start, t.id)).id)


def _season_rows(
    records: Sequence[ranking_rules.TournamentRecord], season: set[int]
) -> list[ranking_rules.TournamentRecord]:
    """Return the records of the tournaments of one season."""
    return [r for r in records if r.tournament_id in season]


def _season_table(
    records: Sequence[ranking_rules.TournamentRecord],
    rules: SeasonRules | None,
    carried: Mapping[PlayerId, Decimal],
) -> tuple[ranking_rules.RankingRow, ...]:
    """Return a season's table: by the season's rules when the tournament has them."""
    if rules:
        return ranking_rules.season_table(records, rules, carried=carried)
    return ranking_rules.all_time_table(records, carried=carried)


async def _season_final(
    s: Session,
    listed: Sequence[calendar.Listed],
    records: Sequence[ranking_rules.TournamentRecord],
    game: str,
    rules: SeasonRules | None,
    year: int,
) -> tuple[ranking_rules.RankingRow, ...]:
    """Return season `year`'s table: its tournaments' points and those imported for it."""
    played = _season_rows(records, calendar.in_season(listed, year, s.club.timezone))
    carried = dict(await s.uow.rankings.imported(s.club.id, game, year=year))
    return _season_table(played, rules, carried)


def _year(typed: int | None) -> int | None:
    """Return the season a typed year means: /ranking 26 is 2026's."""
    return typed + 2000 if typed is not None and 0 <= typed < 100 else typed


async def _last_season(
    s: Session,
    listed: Sequence[calendar.Listed],
    records: Sequence[ranking_rules.TournamentRecord],
    game: str,
    now: int,
) -> int | None:
    """Return the latest season before `now` that has `game`'s ranking points, if any
    (HGV-8): played, or imported that year (a club's ranking brought in December is how
    that season ended)."""
    ranked = {r.tournament_id for r in records}
    years = [calendar.season(t.start, s.club.timezone) for t in listed if t.id in ranked]
    imported = await s.uow.rankings.imported_year(s.club.id, game)
    years += [imported] if imported is not None else []
    return max((y for y in years if y < now), default=None)


def _ranking_table(
    title: Msg,
    rows: Sequence[ranking_rules.RankingRow],
    names: Mapping[PlayerId, str],
    season_rules: SeasonRules | None,
    *,
    prizes: bool = True,
) -> Table:
    """Return a ranking as a table: carried-over points and the prize note when they apply."""
    shows_carried = any(r.carried for r in rows)
    table_rows = tuple(
        (
            r.rank,
            views.name(names, r.player),
            float(r.points),
            *((float(r.carried),) if shows_carried else ()),
            r.tournaments,
            *((msg("word.yes" if r.prize_eligible else "word.no"),) if prizes else ()),
        )
        for r in rows
    )
    header = (
        msg("col.rank"),
        msg("col.player"),
        msg("col.points"),
        *((msg("col.carried"),) if shows_carried else ()),
        msg("col.tournaments"),
        *((msg("col.prize_eligible"),) if prizes else ()),
    )
    notes: tuple[Msg, ...] = (msg("ranking.carried_note"),) if shows_carried else ()
    if season_rules is not None:
        # HGV-8: the Prizes column says who has attended enough for the annual prizes.
        needed = math.ceil(season_rules.prize_attendance * season_rules.official_tournaments)
        notes += (msg("ranking.prizes_note", needed=needed, of=season_rules.official_tournaments),)
    return Table(title, header, table_rows, notes)


async def ranked_game(s: Session, wanted: str | None, state: TournamentState | None) -> str:
    """Return the game whose ranking is meant: asked for, the current tournament's, or the
    club's only game (else backgammon)."""
    if wanted is not None:
        game = wanted.strip().lower()
        if game not in GAMES:
            raise Refused("bad_game", text=wanted, games=", ".join(GAMES))
        return game
    if state is not None:
        return state.preset.game
    return ranking_rules.default_game(await club_games(s, state))


async def club_games(s: Session, state: TournamentState | None) -> set[str]:
    """Return the games the club plays: its tournaments' and its imported rankings'."""
    games = {r.game for r in await s.uow.tournaments.records(s.club.id)}
    games |= set(await s.uow.rankings.imported_games(s.club.id))
    if state is not None:
        games.add(state.preset.game)
    return games


def _title(key: str, s: Session, game: str, several: bool, **params: Param) -> Msg:
    """Return a ranking's title, naming the game when the club plays more than one."""
    if several:
        return msg(f"{key}_game", club=Name(s.club.name), game=msg(f"game.{game}"), **params)
    return msg(key, club=Name(s.club.name), **params)


async def season_year(s: Session) -> set[int]:
    """Return the ids of the club's tournaments in the current season (calendar year):
    names repeat across seasons, so a season is never chosen by name."""
    listed = await s.uow.tournaments.list(s.club.id)
    return calendar.in_season(listed, season_now(s), s.club.timezone)


def season_now(s: Session) -> int:
    """Return the club's current season (HGV-8)."""
    return calendar.season(s.now, s.club.timezone)


async def seed_order(s: Session) -> tuple[int, ...]:
    """Return the ranking that seeds the next draw (HGV-7.2.1, HGV-8): the season of the
    tournament's game, points carried over from the imported ranking included; before
    the season's first tournament is played, how the last season ended."""
    state = await s.tournament()
    game = state.preset.game
    records = ranking_rules.for_game(await s.uow.tournaments.records(s.club.id), game)
    listed = await s.uow.tournaments.list(s.club.id)
    now = season_now(s)
    order = await _season_order(s, listed, records, game, now, state.preset.season)
    if order:
        return order
    # Seed 004, 7.2: the groups are always filled by the last official ranking, the one
    # the last tournament played made. In January that is last season's final table,
    # not a lot among "newcomers" that could put its best two in one group.
    last = await _last_season(s, listed, records, game, now)
    if last is None:
        return order
    return await _season_order(s, listed, records, game, last, state.preset.season)


async def _season_order(
    s: Session,
    listed: Sequence[calendar.Listed],
    records: Sequence[ranking_rules.TournamentRecord],
    game: str,
    year: int,
    rules: SeasonRules,
) -> tuple[int, ...]:
    """Return season `year`'s ranking order, its imported points included."""
    season = _season_rows(records, calendar.in_season(listed, year, s.club.timezone))
    rows = ranking_rules.season_table(season, rules)
    imported = await s.uow.rankings.imported(s.club.id, game, year=year)
    return ranking_rules.seed_ranking(rows, [(p, Decimal(v)) for p, v in imported])


async def rules(s: Session, a: Args) -> Reply:
    """Summarise the rules of the current tournament's preset."""
    state = await s.maybe_tournament()
    if state is None:
        raise Refused("no_tournament")
    options = preset_options(state.preset, now=True)
    said = rules_summary(state.preset, official=state.official)
    return Reply((*said, *options), private=True)


def rules_summary(preset: Preset, *, official: bool = True) -> tuple[Msg, ...]:
    """Say the preset's rules in plain words, each from its own numbers (never a fixed
    text that a club's overrides would make untrue); a friendly earns no ranking points
    (HGV-8), and says so instead of what each place is worth."""
    entry, g = preset.entry, preset.groups
    draughts = preset.game == "draughts"
    parts = [msg("rules.preset", preset=preset.id, game=msg(f"game.{preset.game}"))]
    if entry.approval:
        parts.append(msg("rules.approval"))
        if entry.members_only:
            parts.append(msg("rules.guests"))
    if entry.minimum_age:
        parts.append(msg("rules.minimum_age", age=entry.minimum_age))
    if g.method == "snake":
        parts.append(msg("rules.groups_snake", size=g.size))
    else:
        parts.append(msg("rules.groups_random", size=g.size, bigger=g.size + 1))
    parts.append(
        msg("rules.match_draughts")
        if draughts
        else msg("rules.match_points", length=g.match_length)
    )
    if g.qualifiers >= g.size:
        parts.append(msg("rules.everyone_qualifies"))
    else:
        parts.append(msg("rules.qualifiers", qualifiers=g.qualifiers))
    parts.append(msg("rules.ties"))
    parts.extend(
        msg(views.lot_key(f"rules.tie.{name}", preset.game), n=n)
        for n, name in enumerate(g.tiebreaks, 1)
    )
    parts.extend(_knockout_and_lateness(preset))
    parts.extend(_reporting_and_ranking(preset, official=official))
    return tuple(parts)


def _games(games: tuple[str, ...]) -> str:
    """Return shortened games as the rules say them: "2 × 5, 2 × 3"."""
    return ", ".join(game.replace("x", " × ") for game in games)


def _knockout_and_lateness(preset: Preset) -> list[Msg]:
    """Say how the knockout is played and what lateness costs."""
    entry, k, late = preset.entry, preset.knockout, preset.lateness
    draughts = preset.game == "draughts"
    parts: list[Msg] = []
    if draughts:
        group, knockout = (
            preset.scoring.group_tiebreak_games,
            preset.scoring.knockout_tiebreak_games,
        )
        if group and knockout and group != knockout:
            # WAR-V: the knockout may play one more shortened pair than the groups.
            parts.append(
                msg(
                    "rules.draughts_tiebreak_stages",
                    groups=_games(group),
                    knockout=_games(knockout),
                )
            )
        else:
            parts.append(msg("rules.draughts_tiebreak", games=_games(knockout or group)))
    else:
        parts.append(
            msg(
                "rules.knockout",
                length=k.match_length,
                semi=k.semi_final_length,
                final=k.final_length,
            )
        )
    if k.third_place:
        parts.append(msg("rules.third_place"))
    if k.consolation:
        parts.append(msg("rules.consolation"))
    if late.points_per_step:
        parts.append(
            msg("rules.lateness_points", step=late.step_minutes, points=late.points_per_step)
        )
    if late.forfeit_after_minutes:
        parts.append(msg("rules.lateness_forfeit", minutes=late.forfeit_after_minutes))
    elif late.points_per_step:
        parts.append(msg("rules.lateness_forfeit_at_length"))
    if entry.youngest_prize or entry.veteran_prize:
        parts.append(msg("rules.age_prizes"))
    return parts


def _reporting_and_ranking(preset: Preset, *, official: bool) -> list[Msg]:
    """Say how results are reported and what each place is worth in the ranking."""
    parts: list[Msg] = []
    # The example ends a group match of this preset: a match to 5 is not reported 3-1.
    won, lost = example_score(preset.game, preset.groups.match_length)
    parts.append(
        msg(
            "rules.report",
            minutes=preset.reporting.accept_minutes,
            example=Hint(f"/report {won}-{lost}"),
        )
    )
    if not official:
        parts.append(msg("rules.friendly"))
        return parts
    points = preset.ranking
    # Points are numbers the renderer writes as the club's language does (0,25 in es/pl/ro).
    places: Param = ""
    for band in reversed(points.places):
        place = msg(
            "rules.place_points",
            place=views.place_label(band.first, band.last),
            points=float(band.points),
        )
        places = place if places == "" else msg("rules.list_more", first=place, rest=places)
    parts.append(
        msg(
            "rules.ranking_places",
            places=places,
            participation=float(points.participation),
            per_win=float(points.per_match_won),
        )
    )
    parts.append(msg("rules.place_share"))  # PLACE-SHARE
    return parts


def preset_options(preset: Preset, *, now: bool) -> list[Msg]:
    """List the options `/tournament new` takes besides its own, by their short names,
    each with its values in the club's words (`consolation:sí|no`) or, with `now`, the
    value `preset` has."""
    lines = [msg("options.now" if now else "options.title")]
    for short, dotted in ALIASES.items():
        section, _, field = dotted.partition(".")
        value = getattr(getattr(preset, section), field)
        hint = get_type_hints(type(getattr(preset, section)))[field]
        shown: Param
        if isinstance(value, bool):
            shown = msg(f"word.{'yes' if value else 'no'}") if now else msg("options.yes_no")
        elif get_origin(hint) is Literal and not now:
            shown = "|".join(str(choice) for choice in get_args(hint))
        else:
            shown = str(value)
        # A draughts match is so many games (WAR-V), not a race to so many points.
        games = preset.game == "draughts" and short.endswith("_length")
        described = msg(f"opt.{short}.draughts" if games else f"opt.{short}")
        lines.append(msg("options.line", key=short, value=shown, description=described))
    return lines
