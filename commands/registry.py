"""The command registry: every command's parameters, subcommands, role and handler.

One declaration feeds the text parser (console, Telegram, transcripts), /help, Telegram's
command menu, Discord's slash commands and the tests that fuzz every command. Summaries
live in the message catalog under `help.<path>` (`help.tournament.new` for a subcommand),
parameter descriptions under `arg.<name>`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from commands import (
    cards,
    clubs,
    discipline,
    glance,
    helping,
    history,
    lookups,
    members,
    players,
    public_pages,
    reporting,
    results,
    tournaments,
)
from commands.binding import bind
from commands.catalog import LANGUAGES
from commands.params import Args, Param, suggestions
from commands.parsing import Parsed
from commands.replies import Reply
from commands.session import Session
from commands.specs import CommandSpec as CommandSpec
from commands.specs import Handler as Handler
from commands.specs import Role as Role
from commands.specs import Scope as Scope
from commands.words import (
    ALL_WORDS,
    CONFIRM_WORDS,
    GAME_KINDS,
    GAME_WORDS,
    LANGUAGE_NAMES,
    LOT_WON_LOST,
    LOT_WORDS,
    MATCH_WORDS,
    ON_OFF,
    RANKING_WORDS,
    SUBCOMMAND_WORDS,
    VOID_WORDS,
    YES_NO,
)
from commands.words import SAID_IN_LANGUAGES as SAID_IN_LANGUAGES
from tournament import folding
from tournament.model import Refused

REASON = Param("reason", "text", required=True, aliases=("why",))
PLAYER = Param("player", "player", required=True, positional=True)
MATCH = Param("match", "match")
MATCH_FIRST = Param("match", "match", required=True, positional=True)
# Which report an Accept or Dispute button answers (its sequence number in the match).
REPORT = Param("report", "integer", example="2")
OPTIONAL_REASON = Param("reason", "text", aliases=("why",))
# `all`, in the club's words: every remaining match, everyone waiting, every act.
ALL = Param("all", "choice", positional=True, choices=("all",), synonyms=ALL_WORDS)
# The tournament a /tournament subcommand acts on, typed first: /tournament cancel "May Cup".
NAMED_TOURNAMENT = Param(
    "name",
    "tournament",
    required=True,
    positional=True,
    aliases=("tournament",),
    example='"May Cup"',
)
# A correction that changes played pairings goes ahead only with this word.
CONFIRM = Param("confirm", "choice", positional=True, choices=("confirm",), synonyms=CONFIRM_WORDS)
# Which state a correction's confirm button was offered for (the button fills it in).
SEEN = Param("seen", "text", example="3f9a1c0b2d")


async def _help(s: Session, a: Args) -> Reply:
    """Answer /help from this registry (helping never imports the registry)."""
    return await helping.help_(s, a, BY_NAME, shown_to(director=s.is_director))


def _switch(name: str, description: str) -> Param:
    """Return an on/off word typed after the command (`/club web on`, `... off`), in the
    club's words too (tak, sí, da, wył, ...)."""
    return Param(
        name,
        "choice",
        positional=True,
        choices=("on", "off"),
        synonyms=ON_OFF,
        description=description,
    )


def _withdraw() -> CommandSpec:
    confirm = CommandSpec("withdraw confirm", players.withdraw, "player")
    return CommandSpec("withdraw", players.withdraw, "player", subcommands=(confirm,))


def _report() -> CommandSpec:
    opponent = Param("vs", "player", aliases=("against",))
    game = CommandSpec(
        "report game",
        reporting.report_game,
        "player",
        (
            Param(
                "kind",
                "choice",
                positional=True,
                choices=("single", "gammon", "backgammon"),
                synonyms=GAME_KINDS,
            ),
            Param("cube", "integer", example="2", invalid="bad_cube"),
            MATCH,
            opponent,
        ),
    )
    return CommandSpec(
        "report",
        reporting.report,
        "player",
        (
            Param("score", "score", required=True, positional=True, many=True),
            MATCH,
            opponent,
            Param("lot", "choice", choices=("won", "lost"), synonyms=LOT_WON_LOST),
        ),
        subcommands=(game,),
        lock_free=True,  # a report is its match's row: one statement, no locks
    )


def _club() -> CommandSpec:
    link = CommandSpec("club link", clubs.club_link, "director")
    confirm = CommandSpec(
        "club confirm",
        clubs.club_confirm,
        "director",
        (Param("link", "integer", required=True, positional=True, example="2"),),
    )
    join = CommandSpec(
        "club join",
        None,
        "director",
        (Param("code", "text", required=True, positional=True, example="A1B2C3"),),
        scope="chat",
    )
    # `/club web` (its link, or that the pages are off), `/club web on`: as web:on.
    pages = CommandSpec(
        "club web",
        public_pages.club_web,
        "director",
        (_switch("web", "arg.web"),),
    )
    return CommandSpec(
        "club",
        clubs.club,
        "director",
        (
            Param("name", "text", example='"HG Backgammon"'),
            Param("timezone", "text", aliases=("tz",), example="Europe/Madrid"),
            Param(
                "language",
                "choice",
                aliases=("lang",),
                choices=LANGUAGES,
                synonyms=LANGUAGE_NAMES,
            ),
            Param("pictures", "choice", choices=("yes", "no"), synonyms=YES_NO),
            Param("approval", "choice", choices=("yes", "no", "preset"), synonyms=YES_NO),
            Param("web", "choice", choices=("on", "off"), synonyms=ON_OFF),
        ),
        subcommands=(link, join, confirm, pages),
    )


def _director() -> CommandSpec:
    add = CommandSpec("director add", clubs.director_add, "director", (PLAYER,))
    remove = CommandSpec("director remove", clubs.director_remove, "director", (PLAYER,))
    claim = CommandSpec("director claim", clubs.director_claim, "director", (PLAYER,))
    return CommandSpec(
        "director",
        clubs.director_list,
        "director",
        subcommands=(add, remove, claim),
        writes=False,
    )


def _player() -> CommandSpec:
    rename = CommandSpec(
        "player rename",
        members.player_rename,
        "director",
        # Text, resolved by the handler: `/player rename zofia to "Zofia K."` (the colon
        # forgotten) still reads as two names.
        (
            Param("player", "text", required=True, positional=True, example='"zofia kowalska"'),
            Param("to", "text", expected=True, example='"Zofia Kowalska"'),
        ),
    )
    merge = CommandSpec(
        "player merge",
        members.player_merge,
        "director",
        (
            Param("player", "text", required=True, positional=True, example='"Rocío 2"'),
            Param("into", "text", expected=True, example='"Rocío"'),
        ),
    )
    remove = CommandSpec(
        "player remove",
        members.player_remove,
        "director",
        (PLAYER, Param("reason", "text", aliases=("why",))),  # logged, as every override
    )
    novice = CommandSpec(
        "player novice",
        members.player_novice,
        "director",
        (PLAYER, _switch("state", "arg.novice_state")),
    )
    return CommandSpec(
        "player",
        members.player_usage,
        "director",
        subcommands=(rename, merge, remove, novice),
        writes=False,
    )


def _tournament() -> CommandSpec:
    new = CommandSpec(
        "tournament new",
        tournaments.tournament_new,
        "director",
        (
            Param("name", "text", required=True, example='"January Cup"'),
            Param("preset", "preset"),
            Param("start", "datetime", required=True),
            Param("official", "choice", choices=("yes", "no"), synonyms=YES_NO),
            Param("seed", "integer", example="4711", invalid="bad_seed"),
        ),
        preset_options=True,
    )
    info = CommandSpec("tournament info", tournaments.tournament_info, "director", writes=False)
    listed = CommandSpec("tournament list", tournaments.tournament_list, "director", writes=False)
    cancel = CommandSpec(
        "tournament cancel",
        tournaments.tournament_cancel,
        "director",
        (
            NAMED_TOURNAMENT,
            REASON,
        ),
    )
    move = CommandSpec(
        "tournament move",
        tournaments.tournament_move,
        "director",
        (
            NAMED_TOURNAMENT,
            Param("start", "datetime", required=True),
            REASON,
        ),
    )
    rename = CommandSpec(
        "tournament rename",
        tournaments.tournament_rename,
        "director",
        (NAMED_TOURNAMENT, Param("to", "text", required=True, example='"Spring Cup"')),
    )
    return CommandSpec(
        "tournament",
        tournaments.tournament_info,
        "director",
        subcommands=(new, listed, move, rename, cancel, info),
        writes=False,
    )


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "register",
        players.register,
        "player",
        (
            Param("name", "text", example='"Ana P."'),
            Param("born", "date"),
            Param("claim", "text", example="1-mcdrb-sydyr-ftpt7"),
        ),
    ),
    # An entry's row (and on a chat platform the registration board): one statement.
    CommandSpec("confirm", players.confirm, "player", lock_free=True),
    _withdraw(),
    CommandSpec("checkin", players.checkin, "player", lock_free=True),
    _report(),
    CommandSpec(
        "accept",
        reporting.accept,
        "player",
        (Param("match", "match", positional=True), REPORT),
        lock_free=True,  # its match's row, and the match it lets start: one statement
    ),
    CommandSpec(
        "dispute",
        reporting.dispute,
        "player",
        (
            Param("match", "match", positional=True),
            REPORT,
            Param("reason", "text", aliases=("why",)),
        ),
    ),
    CommandSpec(
        "schedule",
        lookups.schedule,
        "player",
        (
            Param(
                "which",
                "choice",
                positional=True,
                choices=("mine", "all"),
                synonyms=ALL_WORDS | {"mis": "mine", "moje": "mine", "mele": "mine"},
                description="arg.schedule_which",
                example="all",
            ),
        ),
        writes=False,
    ),
    CommandSpec(
        "standings",
        lookups.standings,
        "player",
        (Param("group", "text", positional=True, example="1"),),
        writes=False,
    ),
    CommandSpec("bracket", lookups.bracket, "player", writes=False),
    CommandSpec(
        "ranking",
        lookups.ranking,
        "player",
        (
            Param(
                "which",
                "choice",
                positional=True,
                choices=("season", "alltime", "novice"),
                description="arg.ranking_which",
                synonyms=RANKING_WORDS,
            ),
            # An earlier season's final table: /ranking 2026 (year:2026).
            Param("year", "integer", example="2026"),
            Param("game", "choice", choices=lookups.GAMES, synonyms=GAME_WORDS),
        ),
        writes=False,
    ),
    CommandSpec(
        "me",
        cards.me,
        "player",
        (
            Param("player", "player", positional=True, description="arg.me_player"),
            Param(
                "language",
                "choice",
                choices=(*LANGUAGES, "club"),
                synonyms=LANGUAGE_NAMES,
                aliases=("lang",),
                description="arg.my_language",
            ),
        ),
        writes=False,
    ),
    CommandSpec("rules", lookups.rules, "player", writes=False),
    CommandSpec("web", public_pages.web, "player", writes=False),
    CommandSpec(
        "help",
        _help,
        "player",
        (Param("command", "text", positional=True, many=True, example="report"),),
        writes=False,
    ),
    _club(),
    _director(),
    _tournament(),
    CommandSpec("draw", tournaments.draw, "director"),
    CommandSpec(
        "result",
        results.result,
        "director",
        (
            Param("match", "match", positional=True),
            Param("player", "player", positional=True),
            # The director's: the named player's score first, else white's (not "yours").
            Param("score", "score", positional=True, many=True, description="arg.result_score"),
            Param("opponent", "player", positional=True, example="bob"),
            Param("void", "choice", positional=True, choices=("void",), synonyms=VOID_WORDS),
            Param(
                "lot",
                "choice",
                choices=("won", "lost", "white", "black", "first", "second"),
                synonyms=LOT_WORDS,
            ),
            Param("reason", "text", aliases=("why",)),
            CONFIRM,
            SEEN,
        ),
        forms=("alice 3-1 bob", "5 3-1", "5 void"),
    ),
    CommandSpec(
        "reopen", results.reopen, "director", (MATCH_FIRST, OPTIONAL_REASON, CONFIRM, SEEN)
    ),
    CommandSpec("reinstate", discipline.reinstate, "director", (PLAYER, REASON)),
    CommandSpec(
        "lot",
        results.lot,
        "director",
        (
            Param("group", "text", positional=True, example="2"),
            Param("seed", "integer", description="arg.lot_seed"),
        ),
    ),
    # Several at once, as a director types arrivals: /present ana bob "Rosa Núñez".
    CommandSpec(
        "present",
        discipline.present,
        "director",
        (replace(PLAYER, many=True),),
        forms=("alice", "alice bob"),
    ),
    CommandSpec(
        "away", discipline.away, "director", (PLAYER, Param("reason", "text", aliases=("why",)))
    ),
    CommandSpec(
        "forfeit",
        discipline.forfeit,
        "director",
        (
            PLAYER,
            ALL,
            MATCH,
            REASON,
        ),
    ),
    CommandSpec("excuse", discipline.excuse, "director", (PLAYER, REASON)),
    CommandSpec("sanction", discipline.sanction, "director", (PLAYER, REASON)),
    CommandSpec("lift", discipline.lift, "director", (PLAYER, REASON)),
    CommandSpec(
        "addplayer",
        members.addplayer,
        "director",
        (
            # Several at once: /addplayer "Ana P." "Jorge P." (members matched forgivingly).
            Param("name", "text", required=True, positional=True, many=True, example='"Ana P."'),
            Param("born", "date"),
        ),
    ),
    _player(),
    CommandSpec(
        "redraw",
        members.redraw,
        "director",
        (
            Param(
                "confirm",
                "choice",
                positional=True,
                choices=("confirm",),
                synonyms=CONFIRM_WORDS,
                description="arg.redraw_confirm",
            ),
        ),
    ),
    CommandSpec(
        "approve",
        discipline.approve,
        "director",
        (
            replace(ALL, description="arg.all_waiting"),
            Param("player", "player", positional=True, many=True),
        ),
    ),
    CommandSpec("pause", discipline.pause, "director", (MATCH_FIRST, REASON)),
    CommandSpec("resume", discipline.resume, "director", (MATCH_FIRST,)),
    CommandSpec("cancel", discipline.cancel, "director", (MATCH_FIRST, REASON)),
    CommandSpec("status", glance.status, "director", writes=False),
    CommandSpec(
        "log",
        history.log,
        "director",
        (
            Param("match", "match", positional=True),
            replace(ALL, description="arg.log_all"),
        ),
        writes=False,
    ),
)

BY_NAME: dict[str, CommandSpec] = {spec.name: spec for spec in COMMANDS}


def shown_to(*, director: bool) -> tuple[CommandSpec, ...]:
    """Return the commands a player (or a director) is shown: /help and chat menus."""
    return tuple(spec for spec in COMMANDS if director or spec.role == "player")


def every_command() -> Iterator[CommandSpec]:
    """Yield every command and subcommand, each command before its subcommands."""
    for spec in COMMANDS:
        yield spec
        yield from spec.subcommands


BY_PATH: dict[str, CommandSpec] = {spec.name: spec for spec in every_command()}


def select(spec: CommandSpec, parsed: Parsed) -> tuple[CommandSpec, tuple[str, ...]]:
    """Return the subcommand a line names (its first word), and the words after it."""
    if parsed.args and spec.subcommands:
        first = parsed.args[0].lower()
        said = SUBCOMMAND_WORDS.get(folding.loose(first))
        scored = parsed.args[1:2] and parsed.args[1][:1].isdigit()
        if spec.name == "report" and scored and folding.loose(first) in MATCH_WORDS:
            # "/report partida 3-1": the match named, then its score (not one game).
            return spec, parsed.args[1:]
        first = said or first
        for sub in spec.subcommands:
            if sub.word == first:
                return sub, parsed.args[1:]
    return spec, parsed.args


def _subcommand_elsewhere(spec: CommandSpec, words: tuple[str, ...]) -> str | None:
    """Return the line a subcommand of another command means (/player claim ana: the
    claim code is /director claim ana), or None."""
    word = folding.loose(words[0])
    for path in BY_PATH:
        parent, _, sub = path.partition(" ")
        if sub == word and parent != spec.name:
            rest = (f'"{w}"' if " " in w else w for w in words[1:])
            return " ".join([f"/{path}", *rest])
    return None


def bind_line(spec: CommandSpec, words: tuple[str, ...], parsed: Parsed) -> Args:
    """Bind a line's words and options to `spec`; refuse a mistyped subcommand helpfully."""
    positional = any(p.positional for p in spec.params)
    # /club name:Navodari Club: "Club" is the rest of an unquoted value, not a subcommand.
    unquoted = any(
        p.type == "text" and not {p.name, *p.aliases}.isdisjoint(parsed.options)
        for p in spec.params
    )
    if spec.subcommands and words and not positional and not unquoted:
        subs = [s.word for s in spec.subcommands]
        elsewhere = _subcommand_elsewhere(spec, words)
        if elsewhere is not None:
            raise Refused(
                "subcommand_elsewhere", command=spec.name, text=words[0], suggestion=elsewhere
            )
        close = suggestions(words[0], subs)
        raise Refused(
            "unknown_subcommand",
            command=spec.name,
            text=words[0],
            suggestion=close[0] if close else subs[0],
            subcommands=", ".join(subs),
        )
    return bind(spec.signature, parsed, words)
