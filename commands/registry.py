"""The command registry: every command's parameters, subcommands, role and handler.

One declaration feeds the text parser (console, Telegram, transcripts), /help, Telegram's
command menu, Discord's slash commands and the tests that fuzz every command. Summaries
live in the message catalog under `help.<path>` (`help.tournament.new` for a subcommand),
parameter descriptions under `arg.<name>`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from commands import arguments, directors, lookups, members, players, web
from commands.catalog import LANGUAGES
from commands.params import TOURNAMENT, Args, Param, Signature, bind, suggestions
from commands.parsing import Parsed
from commands.replies import Reply
from commands.session import Session
from tournament.model import Refused

Handler = Callable[[Session, Args], Awaitable[Reply]]
Role = Literal["player", "director"]
Scope = Literal["club", "chat"]


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A command or subcommand; a subcommand's name is its path (`tournament new`)."""

    name: str
    handler: Handler | None  # None only for a "chat" command, which dispatch runs itself
    role: Role
    params: tuple[Param, ...] = ()
    subcommands: tuple[CommandSpec, ...] = ()
    writes: bool = True  # changes state (so it locks the tournament)
    preset_options: bool = False  # takes the preset's keys as options too
    # "chat": acts on the chat itself before any club is opened there (/club join).
    scope: Scope = "club"
    # How /help shows it when one usage line would suggest mixes that do not work:
    # the ways to type it, without the command; options nobody mentions follow them.
    forms: tuple[str, ...] = ()

    @property
    def word(self) -> str:
        """Return the word that names it: the last of its path."""
        return self.name.rsplit(" ", 1)[-1]

    @property
    def summary_key(self) -> str:
        return "help." + self.name.replace(" ", ".")

    @property
    def signature(self) -> Signature:
        """Return its parameters with the `tournament:` option every command accepts."""
        extra = () if any(p.type == "tournament" for p in self.params) else (TOURNAMENT,)
        return Signature(self.name, self.params + extra, self.preset_options)

    def usage(self, *, full: bool = False) -> str:
        return self.signature.usage(full=full)

    def help_usage(self) -> str:
        """Return the command as /help shows it: its forms, or every parameter."""
        if not self.forms:
            return self.usage(full=True)
        said = {word for form in self.forms for word in form.split()}
        rest = [
            f"[{p.usage()}]"
            for p in self.params
            if p.usage() not in said and p.type != "tournament"
        ]
        ways = " · ".join(f"/{self.name} {form}" for form in self.forms)
        return " ".join([ways, *rest])


REASON = Param("reason", "text", required=True, aliases=("why",))
PLAYER = Param("player", "player", required=True, positional=True)
MATCH = Param("match", "match")
MATCH_FIRST = Param("match", "match", required=True, positional=True)
# Which report an Accept or Dispute button answers (its sequence number in the match).
REPORT = Param("report", "integer", example="2")
OPTIONAL_REASON = Param("reason", "text", aliases=("why",))
# `confirm` as a club types it (es, pl, ro).
CONFIRM_WORDS = {w: "confirm" for w in ("confirmar", "confirmo", "confirma", "confirmă")}
CONFIRM_WORDS |= {w: "confirm" for w in ("potwierdź", "potwierdz", "potwierdzam")}
CONFIRM_WORDS |= {"confirmati": "confirm", "confirmați": "confirm"}
# A correction that changes played pairings goes ahead only with this word.
CONFIRM = Param("confirm", "choice", positional=True, choices=("confirm",), synonyms=CONFIRM_WORDS)
# Which state a correction's confirm button was offered for (the button fills it in).
SEEN = Param("seen", "text", example="3f9a1c0b2d")
YES_NO = arguments.YES_NO_SYNONYMS
# A language typed by name, in any of the four: language:romanian, language:polski.
LANGUAGE_NAMES = {
    name: code
    for code, names in {
        "en": ("english", "inglés", "ingles", "engleză", "engleza", "angielski"),
        "es": ("spanish", "español", "espanol", "spaniolă", "spaniola", "hiszpański"),
        "ro": ("romanian", "rumano", "română", "romana", "romanesc", "rumuński"),
        "pl": ("polish", "polaco", "poloneză", "poloneza", "polski", "polska"),
    }.items()
    for name in names
}
# Who won a lot (WAR-V), in the club's words: won/lost is the reporter's side, or on
# /result the first named player's; a colour names a side.
LOT_WON_LOST = {
    word: "won"
    for word in (
        "win",
        "ganó",
        "gano",
        "gané",
        "gane",
        "ganado",
        "ganada",
        "wygrał",
        "wygral",
        "wygrałem",
        "wygralem",
        "wygrałam",
        "wygralam",
        "wygrana",
        "câștigat",
        "castigat",
        "câștig",
        "castig",
    )
} | {
    word: "lost"
    for word in (
        "lose",
        "loss",
        "perdió",
        "perdio",
        "perdí",
        "perdi",
        "perdido",
        "perdida",
        "przegrał",
        "przegral",
        "przegrałem",
        "przegralem",
        "przegrałam",
        "przegralam",
        "przegrana",
        "pierdut",
        "pierdere",
    )
}
LOT_WORDS = (
    LOT_WON_LOST
    | {
        word: "white"
        for word in (
            "blancas",
            "blanco",
            "blancos",
            "białe",
            "biale",
            "biały",
            "bialy",
            "alb",
            "albe",
            "albul",
            "albele",
        )
    }
    | {
        word: "black"
        for word in (
            "negras",
            "negro",
            "negros",
            "czarne",
            "czarny",
            "negru",
            "negre",
            "negrul",
            "negrele",
        )
    }
    | {"primero": "first", "pierwszy": "first", "primul": "first", "segundo": "second"}
)
LOT_WORDS |= {"drugi": "second", "doilea": "second", "al_doilea": "second"}
# The public pages (INTERFACE §6): web:on, web:yes, web:sí, web:tak, web:da ...
ON_OFF = {word: ("on" if meaning == "yes" else "off") for word, meaning in YES_NO.items()}
ON_OFF |= {"yes": "on", "no": "off", "wł": "on", "wył": "off", "pornit": "on", "oprit": "off"}
ON_OFF |= {"encendido": "on", "apagado": "off", "activo": "on", "activ": "on"}
ON_OFF |= {"encender": "on", "apagar": "off", "activar": "on", "desactivar": "off"}
ON_OFF |= {"włącz": "on", "wyłącz": "off", "włączone": "on", "wyłączone": "off"}
ON_OFF |= {"pornește": "on", "oprește": "off", "porneste": "on", "opreste": "off"}
# Commands typed as a club says them (/confirmar, /potwierdz, /raport): not commands of
# their own (INTERFACE §1 keeps one set of words), but the reply names the right one.
SAID_IN_LANGUAGES = {
    word: command
    for command, words in {
        "register": (
            "inscribir",
            "inscribirme",
            "registrar",
            "zapisz",
            "zapis",
            "inscriere",
            "inscrie",
            "inregistrare",
        ),
        "confirm": (
            "confirmar",
            "confirmo",
            "potwierdz",
            "potwierdzam",
            "confirma",
            "confirm",
            "confirmare",
        ),
        "withdraw": (
            "retirar",
            "retirarme",
            "baja",
            "wycofaj",
            "rezygnuje",
            "retrag",
            "retragere",
        ),
        "checkin": (
            "llegada",
            "llegue",
            "estoy",
            "obecnosc",
            "obecny",
            "jestem",
            "sosire",
            "prezent",
            "aici",
        ),
        "report": (
            "reportar",
            "informar",
            "resultado",
            "wynik",
            "zglos",
            "raport",
            "rezultat",
            "scor",
        ),
        "accept": ("aceptar", "acepto", "akceptuj", "zgoda", "accepta", "accept"),
        "dispute": (
            "impugnar",
            "impugno",
            "disputar",
            "sprzeciw",
            "kwestionuje",
            "contest",
            "contesta",
        ),
        "schedule": (
            "horario",
            "partidas",
            "encuentros",
            "harmonogram",
            "mecze",
            "program",
            "partide",
        ),
        "standings": (
            "clasificacion",
            "grupos",
            "tabela",
            "tabele",
            "grupy",
            "clasament",
            "grupe",
        ),
        "bracket": ("cuadro", "eliminatoria", "drabinka", "tablou", "eliminatorii"),
        "rules": ("reglas", "reglamento", "zasady", "regulamin", "reguli", "regulament"),
        "help": ("ayuda", "pomoc", "ajutor"),
        "draw": ("sorteo", "sortear", "losuj", "losowanie", "tragere", "sorti"),
        "result": ("resultat", "wyniki", "rezultate", "resultado", "wynik", "rezultat"),
        "status": ("estado", "stan", "situatie", "stare", "situatia", "situacion"),
        "tournament": ("torneo", "turniej", "turneu", "turnieje", "torneos", "turnee"),
    }.items()
    for word in words
}
# "all" as a club says it: /approve todos, /approve wszystkich, /schedule toate.
ALL_WORDS = {
    word: "all"
    for word in (
        "todos",
        "todas",
        "todo",
        "wszyscy",
        "wszystkich",
        "wszystko",
        "toti",
        "toți",
        "toate",
    )
}
GAME_KINDS = {"simple": "single", "linie": "single", "double": "gammon", "mart": "gammon"}
GAME_KINDS |= {"triple": "backgammon"}


def _withdraw() -> CommandSpec:
    confirm = CommandSpec("withdraw confirm", players.withdraw, "player")
    return CommandSpec("withdraw", players.withdraw, "player", subcommands=(confirm,))


def _report() -> CommandSpec:
    opponent = Param("vs", "player", aliases=("against",))
    game = CommandSpec(
        "report game",
        players.report_game,
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
        players.report,
        "player",
        (
            Param("score", "score", required=True, positional=True, many=True),
            MATCH,
            opponent,
            Param("lot", "choice", choices=("won", "lost"), synonyms=LOT_WON_LOST),
        ),
        subcommands=(game,),
    )


def _club() -> CommandSpec:
    link = CommandSpec("club link", directors.club_link, "director")
    confirm = CommandSpec(
        "club confirm",
        directors.club_confirm,
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
        web.club_web,
        "director",
        (
            Param(
                "web",
                "choice",
                positional=True,
                choices=("on", "off"),
                synonyms=ON_OFF,
                description="arg.web",
            ),
        ),
    )
    return CommandSpec(
        "club",
        directors.club,
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
    add = CommandSpec("director add", directors.director_add, "director", (PLAYER,))
    remove = CommandSpec("director remove", directors.director_remove, "director", (PLAYER,))
    claim = CommandSpec("director claim", directors.director_claim, "director", (PLAYER,))
    return CommandSpec(
        "director",
        directors.director_list,
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
            Param("to", "text", example='"Zofia Kowalska"'),
        ),
    )
    merge = CommandSpec(
        "player merge",
        members.player_merge,
        "director",
        (
            Param("player", "text", required=True, positional=True, example='"Rocío 2"'),
            Param("into", "text", example='"Rocío"'),
        ),
    )
    remove = CommandSpec("player remove", members.player_remove, "director", (PLAYER,))
    return CommandSpec(
        "player",
        members.player_usage,
        "director",
        subcommands=(rename, merge, remove),
        writes=False,
    )


def _tournament() -> CommandSpec:
    new = CommandSpec(
        "tournament new",
        directors.tournament_new,
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
    info = CommandSpec("tournament info", directors.tournament_info, "director", writes=False)
    listed = CommandSpec("tournament list", directors.tournament_list, "director", writes=False)
    cancel = CommandSpec(
        "tournament cancel",
        directors.tournament_cancel,
        "director",
        (
            Param(
                "name",
                "tournament",
                required=True,
                positional=True,
                aliases=("tournament",),
                example='"May Cup"',
            ),
            REASON,
        ),
    )
    return CommandSpec(
        "tournament",
        directors.tournament_info,
        "director",
        subcommands=(new, listed, cancel, info),
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
            Param("claim", "text", example="Xy3kQ9aB1c2d"),
        ),
    ),
    CommandSpec("confirm", players.confirm, "player"),
    _withdraw(),
    CommandSpec("checkin", players.checkin, "player"),
    _report(),
    CommandSpec(
        "accept", players.accept, "player", (Param("match", "match", positional=True), REPORT)
    ),
    CommandSpec(
        "dispute", players.dispute, "player", (Param("match", "match", positional=True), REPORT)
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
                synonyms={"all-time": "alltime", "historic": "alltime", "all": "alltime"},
            ),
            Param("game", "choice", choices=lookups.GAMES),
        ),
        writes=False,
    ),
    CommandSpec(
        "me",
        lookups.me,
        "player",
        (
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
    CommandSpec("web", web.web, "player", writes=False),
    CommandSpec(
        "help",
        lookups.help_,
        "player",
        (Param("command", "text", positional=True, many=True, example="report"),),
        writes=False,
    ),
    _club(),
    _director(),
    _tournament(),
    CommandSpec("draw", directors.draw, "director"),
    CommandSpec(
        "result",
        directors.result,
        "director",
        (
            Param("match", "match", positional=True),
            Param("player", "player", positional=True),
            Param("score", "score", positional=True, many=True),
            Param("opponent", "player", positional=True, example="bob"),
            Param("void", "choice", positional=True, choices=("void",)),
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
        "reopen", directors.reopen, "director", (MATCH_FIRST, OPTIONAL_REASON, CONFIRM, SEEN)
    ),
    CommandSpec("reinstate", directors.reinstate, "director", (PLAYER, REASON)),
    CommandSpec(
        "lot",
        directors.lot,
        "director",
        (
            Param("group", "text", positional=True, example="2"),
            Param("seed", "integer", description="arg.lot_seed"),
        ),
    ),
    CommandSpec("present", directors.present, "director", (PLAYER,)),
    CommandSpec(
        "away", directors.away, "director", (PLAYER, Param("reason", "text", aliases=("why",)))
    ),
    CommandSpec(
        "forfeit",
        directors.forfeit,
        "director",
        (
            PLAYER,
            Param("all", "choice", positional=True, choices=("all",), synonyms=ALL_WORDS),
            MATCH,
            REASON,
        ),
    ),
    CommandSpec("excuse", directors.excuse, "director", (PLAYER, REASON)),
    CommandSpec("sanction", directors.sanction, "director", (PLAYER, REASON)),
    CommandSpec("lift", directors.lift, "director", (PLAYER, REASON)),
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
        directors.approve,
        "director",
        (
            Param(
                "all",
                "choice",
                positional=True,
                choices=("all",),
                synonyms=ALL_WORDS,
                description="arg.all_waiting",
            ),
            Param("player", "player", positional=True, many=True),
        ),
    ),
    CommandSpec("pause", directors.pause, "director", (MATCH_FIRST, REASON)),
    CommandSpec("resume", directors.resume, "director", (MATCH_FIRST,)),
    CommandSpec("cancel", directors.cancel, "director", (MATCH_FIRST, REASON)),
    CommandSpec("status", directors.status, "director", writes=False),
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
        for sub in spec.subcommands:
            if sub.word == first:
                return sub, parsed.args[1:]
    return spec, parsed.args


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
        close = suggestions(words[0], subs)
        raise Refused(
            "unknown_subcommand",
            command=spec.name,
            text=words[0],
            suggestion=close[0] if close else subs[0],
            subcommands=", ".join(subs),
        )
    return bind(spec.signature, parsed, words)
