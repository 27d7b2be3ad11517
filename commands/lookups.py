"""Looking things up: /me, /schedule, /standings, /bracket, /ranking, /rules, /help."""

from __future__ import annotations

from decimal import Decimal

from commands import pictures, views
from commands.params import Args
from commands.replies import Msg, Name, Part, Reply, Table, When, msg, say
from commands.session import Session
from tournament import ranking as ranking_rules
from tournament.model import Refused, Stage, TournamentStatus
from tournament.preset import Preset


async def me(s: Session, a: Args) -> Reply:
    """Show your entry, matches, lateness points and sanctions."""
    player = await s.me()
    parts: list[Msg | Table] = [msg("me.player", name=Name(player.name))]
    state = await s.maybe_tournament()
    if state is not None and player.id in state.entries:
        entry = state.entries[player.id]
        parts.append(
            msg(
                "me.entry",
                tournament=Name(state.name),
                status=msg(f"entry.{entry.status.value}"),
                confirmed=msg("word.yes" if entry.confirmed else "word.no"),
                present=msg("word.yes" if entry.present_now() else "word.no"),
            )
        )
        matches = state.matches_of(player.id)
        if matches:
            names = await s.names({q for m in matches for q in m.players})
            parts.append(views.schedule_table(state, matches, names))
        penalties = [
            pen
            for pen in state.penalties.values()
            if pen.against == player.id and not pen.cancelled
        ]
        for penalty in penalties:
            parts.append(
                msg("me.penalty", match=penalty.match, points=penalty.points, at=When(penalty.at))
            )
    for sanction in await s.uow.sanctions.for_club(s.club.id):
        if sanction.player == player.id and sanction.active:
            parts.append(msg("me.sanction", reason=msg(f"reason.{sanction.reason}")))
    return Reply(tuple(parts), private=True)


async def schedule(s: Session, a: Args) -> Reply:
    """Show your matches, or everyone's with /schedule all."""
    state = await s.tournament()
    mine = s.player is not None and a.choice("which") != "all" and s.player.id in state.entries
    if s.player is not None and mine:
        matches = state.matches_of(s.player.id)
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
        return say("standings.none", tournament=Name(state.name))
    wanted = a.text("group")
    groups = [g for g in state.groups if wanted is None or g.name == wanted]
    if not groups:
        raise Refused("no_such_group", group=wanted or "", count=len(state.groups))
    names = await s.names({q for g in groups for q in g.players})
    return Reply(tuple(pictures.group_picture(state, g, names) for g in groups))


async def bracket(s: Session, a: Args) -> Reply:
    """Show the knockout bracket and who plays whom next."""
    state = await s.tournament()
    if not state.stage_matches(Stage.KNOCKOUT, Stage.CONSOLATION):
        return say("bracket.none", tournament=Name(state.name))
    names = await s.names(set(state.entries))
    drawn = pictures.bracket_picture(state, names)
    parts: list[Part] = [drawn if drawn is not None else views.bracket_table(state, names)]
    if state.status is TournamentStatus.FINISHED:
        parts.append(views.placements_table(state, names))
    return Reply(tuple(parts))


async def ranking(s: Session, a: Args) -> Reply:
    """Show the season ranking (HGV-8); /ranking alltime or /ranking novice."""
    which = a.choice("which") or "season"
    records = await s.uow.tournaments.records(s.club.id)
    state = await s.maybe_tournament()
    preset = state.preset if state is not None else None
    season_rules = preset.season if preset else None
    if which == "alltime":
        rows = ranking_rules.all_time_table(records)
        title = msg("title.ranking_all_time", club=Name(s.club.name))
    elif which == "novice":
        if season_rules is None or not season_rules.novice_category:
            raise Refused("no_novice_category")
        rows = ranking_rules.novice_table(records, season_rules)
        title = msg("title.ranking_novice", club=Name(s.club.name))
    else:
        year = await season_year(s)
        records = [r for r in records if r.tournament in year]
        rows = (
            ranking_rules.season_table(records, season_rules)
            if season_rules
            else ranking_rules.all_time_table(records)
        )
        title = msg("title.ranking_season", club=Name(s.club.name))
    imported = await s.uow.rankings.imported(s.club.id)
    if not rows and not imported:
        return say("ranking.empty")
    names = await s.names({r.player for r in rows} | {player for player, _ in imported})
    table_rows = tuple(
        (
            r.rank,
            views.name(names, r.player),
            f"{r.points:.2f}",
            r.tournaments,
            msg("word.yes" if r.prize_eligible else "word.no"),
        )
        for r in rows
    )
    if not rows:
        table_rows = tuple(
            (i, views.name(names, player), f"{points:.2f}", 0, msg("word.no"))
            for i, (player, points) in enumerate(imported, 1)
        )
        title = msg("title.ranking_imported", club=Name(s.club.name))
    header = (
        msg("col.rank"),
        msg("col.player"),
        msg("col.points"),
        msg("col.tournaments"),
        msg("col.prize_eligible"),
    )
    table = Table(title, header, table_rows)
    drawn = [
        (
            r.rank,
            names.get(r.player, f"#{r.player}"),
            f"{r.points:.2f}",
            r.tournaments,
            r.prize_eligible,
        )
        for r in rows
    ] or [
        (i, names.get(player, f"#{player}"), f"{points:.2f}", 0, False)
        for i, (player, points) in enumerate(imported, 1)
    ]
    return Reply((pictures.ranking_picture(f"ranking-{which}", table, drawn),))


async def season_year(s: Session) -> set[str]:
    """Return the names of the club's tournaments in the current season (calendar year)."""
    listed = await s.uow.tournaments.list(s.club.id)
    year = s.now.year
    return {name for _, name, start, _ in listed if start.year == year}


async def seed_order(s: Session) -> tuple[int, ...]:
    """Return the ranking that seeds the next draw (HGV-7.2.1, HGV-8)."""
    records = await s.uow.tournaments.records(s.club.id)
    year = await season_year(s)
    state = await s.tournament()
    season = [r for r in records if r.tournament in year]
    rows = ranking_rules.season_table(season, state.preset.season)
    imported = await s.uow.rankings.imported(s.club.id)
    return ranking_rules.seed_ranking(rows, [(p, Decimal(v)) for p, v in imported])


async def rules(s: Session, a: Args) -> Reply:
    """Summarise the rules of the current tournament's preset."""
    state = await s.maybe_tournament()
    if state is None:
        raise Refused("no_tournament")
    return Reply(rules_summary(state.preset), private=True)


def rules_summary(preset: Preset) -> tuple[Msg, ...]:
    g, k, late = preset.groups, preset.knockout, preset.lateness
    return (
        msg("rules.preset", preset=preset.id),
        msg(
            f"rules.groups_{g.method}", size=g.size, qualifiers=g.qualifiers, length=g.match_length
        ),
        msg("rules.tiebreaks", chain=", ".join(g.tiebreaks)),
        msg(
            "rules.knockout", length=k.match_length, semi=k.semi_final_length, final=k.final_length
        ),
        msg("rules.lateness", step=late.step_minutes, points=late.points_per_step),
        msg("rules.report", minutes=preset.reporting.accept_minutes),
    )


async def help_(s: Session, a: Args) -> Reply:
    """List the commands you may use; /help COMMAND explains one and its options."""
    # The registry lists this very handler, so it is imported when /help runs.
    from commands.registry import BY_NAME, COMMANDS, CommandSpec

    def line(spec: CommandSpec) -> Msg:
        return msg("help.line", usage=spec.usage(full=True), summary=msg(spec.summary_key))

    allowed = [spec for spec in COMMANDS if spec.role == "player" or s.is_director]
    words = [w.lower().lstrip("/") for w in a.values.get("command", [])]
    if words:
        spec = BY_NAME.get(words[0])
        if spec is None or spec not in allowed:
            names = [spec.name for spec in allowed]
            raise Refused("unknown_help", name=words[0], commands=", ".join(names))
        chosen = [spec, *spec.subcommands]
        if len(words) > 1:
            chosen = [sub for sub in spec.subcommands if sub.word == words[1]] or chosen
        parts = []
        for one in chosen:
            parts.append(line(one))
            for param in one.signature.params:
                parts.append(
                    msg("help.param", name=param.usage(), description=msg(param.description_key))
                )
        return Reply(tuple(parts), private=True)
    lines = [msg("help.title")]
    for spec in allowed:
        lines.append(line(spec))
        lines.extend(line(sub) for sub in spec.subcommands)
    lines.append(msg("help.more"))
    return Reply(tuple(lines), private=True)
