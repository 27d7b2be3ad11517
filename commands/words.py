"""Words a club types for a command's choices, in its four languages (es, pl, ro and
English): confirm, yes/no, on/off, languages, lot results, commands and subcommands said
in a language."""

from __future__ import annotations

import re

from commands import arguments
from tournament import folding
from tournament.answers import YES_WORDS

# `confirm` as a club types it (es, pl, ro).
CONFIRM_WORDS = {w: "confirm" for w in ("confirmar", "confirmo", "confirma", "confirmă")}
CONFIRM_WORDS |= {w: "confirm" for w in ("potwierdź", "potwierdz", "potwierdzam")}
CONFIRM_WORDS |= {"confirmati": "confirm", "confirmați": "confirm"}
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
# Words that say yes after a player's own command (/confirm sí, /accept ok) or, alone, to
# the bot's question in a private chat; folded: the yes of every switch (tournament/
# answers.py) as people say it (not y, 1, on, true), and how they say it in a chat.
YES_SAID = frozenset(
    folding.loose(word)
    for word in (
        *(YES_WORDS - {"y", "1", "on", "true"}),
        *("ok", "okay", "okey", "oki", "sure", "vale", "dale", "claro"),
        *("jasne", "oczywiście", "dobrze", "sigur", "desigur", "bine"),
    )
)
# Commands typed as a club says them (/confirmar, /potwierdz, /raport): not commands of
# their own (INTERFACE §1 keeps one set of words), but the reply names the right one.
SAID_IN_LANGUAGES = {
    word: command
    for command, words in {
        "register": (
            "inscribir",
            "inscribirme",
            "inscripcion",
            "registrar",
            "registro",
            "apuntar",
            "apuntarme",
            "anotarme",
            "zarejestruj",
            "zapisz",
            "zapis",
            "zapisy",
            "rejestracja",
            "rejestruj",
            "zgloszenie",
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
            "obecna",
            "obecni",
            "presentes",
            "prezenti",
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
            "reclamo",
            "reclamar",
            "reklamacja",
            "reclamatie",
        ),
        "schedule": (
            "horario",
            "partidas",
            "encuentros",
            "harmonogram",
            "mecze",
            "program",
            "partide",
            "calendario",
            "terminarz",
            "plan",
            "orar",
        ),
        "standings": (
            "clasificacion",
            "grupos",
            "tabela",
            "tabele",
            "grupy",
            "klasyfikacja",
            "clasament",
            "clasamentul",
            "grupe",
            "tabla",
            "tablas",
            "tabelka",
        ),
        "bracket": ("cuadro", "eliminatoria", "drabinka", "tablou", "eliminatorii"),
        "rules": ("reglas", "reglamento", "zasady", "regulamin", "reguli", "regulament"),
        "help": ("ayuda", "pomoc", "ajutor"),
        "draw": ("sorteo", "sortear", "losuj", "losowanie", "tragere", "sorti"),
        "result": ("resultat", "wyniki", "rezultate", "resultado", "wynik", "rezultat"),
        # A director's glance of the night; "resumen" is not /resume (a paused clock).
        "status": (
            "estado",
            "stan",
            "situatie",
            "stare",
            "situatia",
            "situacion",
            "resumen",
            "przeglad",
            "podsumowanie",
            "rezumat",
            "glance",
            "overview",
            "summary",
        ),
        "tournament": ("torneo", "turniej", "turneu", "turnieje", "torneos", "turnee"),
        # Who did what: the director's log of the night.
        "log": ("historial", "historia", "dziennik", "istoric", "jurnal", "history", "audit"),
        # A director's night: the clock, who is here, forfeits, sanctions.
        "pause": ("pausa", "pauza", "wstrzymaj", "opreste"),
        "resume": ("reanudar", "wznow", "wznowienie", "reia", "reluare", "porneste"),
        "present": ("presente", "prezenta"),
        "away": (
            "ausente",
            "ausentes",
            "nieobecny",
            "nieobecna",
            "nieobecni",
            "absent",
            "absenta",
        ),
        "forfeit": ("forfait", "walkower", "walkover", "neprezentare"),
        "excuse": ("excusar", "justificar", "usprawiedliw", "usprawiedliwienie", "scuza"),
        "reopen": ("reabrir", "otworz", "redeschide"),
        "sanction": ("sancion", "sancionar", "kara", "zawieszenie", "sanctiune", "suspendare"),
        "lift": ("perdonar", "levantar", "uchyl", "ridica"),
        # Entering players and keeping the club's list.
        "approve": ("aprobar", "apruebo", "zatwierdz", "zatwierdzam", "aproba", "aprob"),
        "addplayer": ("anadir", "agregar", "dodaj", "adauga"),
        "player": ("jugador", "gracz", "zawodnik", "jucator"),
        # A director's subcommands said as one word: /nuevo is "/tournament new".
        "tournament new": ("nuevo", "nueva", "nowy", "nowa", "noua"),
        "tournament move": (
            "mover",
            "aplazar",
            "trasladar",
            "przenies",
            "przeniesc",
            "przeloz",
            "muta",
            "mutare",
            "amana",
        ),
        "tournament cancel": ("odwolaj", "suspender"),
        "tournament list": ("lista", "listado", "listar"),
        "director": ("arbitro", "arbitru", "sedzia", "sedziowie", "arbitri"),
        "player novice": ("novato", "novata", "novatos", "nowicjusz", "incepator", "debutant"),
        "player rename": ("renombrar", "zmien", "redenumeste"),
        "player merge": ("unir", "fusionar", "polacz", "uneste"),
        "player remove": ("eliminar", "quitar", "usun", "sterge", "scoate"),
        # A member's claim code, as a director asks for it: /claim ana, /kod ana.
        "director claim": ("claim", "kod", "codigo", "cod"),
        "redraw": ("resortear", "przelosuj", "relosuj"),
        # "Me" in the club's words: the player's own card.
        "me": ("yo", "mi", "ja", "moje", "eu", "mine", "fisa"),
        # The export is the command line's (clubtd export); in the chat the club's pages
        # are what gives the data, as JSON too (INTERFACE §6).
        "web": (
            "export",
            "exportar",
            "eksport",
            "eksportuj",
            "exporta",
            "json",
            "pagina",
            "strona",
        ),
    }.items()
    for word in words
}
# "Result" in a club's words (/wynik, /resultado, /rezultat) is a player's report when
# a score comes first (their score, perhaps "z Markiem", the opponent), a director's
# /result when a match or names come before it.
_SCORE_FIRST = re.compile(r"\s*(?:\d+\s*[-:]\s*\d+\b.*)?", re.DOTALL)


# Words that say the group tables and the season's ranking alike ("clasamentul" after a
# night is the ranking): the reply offers both.
ALSO_MEANT = {
    "clasament": "ranking",
    "clasamentul": "ranking",
    "clasificacion": "ranking",
    "klasyfikacja": "ranking",
}


def said_in_languages(word: str, rest: str) -> str | None:
    """Return the command a word typed in a club's language means (`word` folded), the
    rest of the line deciding between a player's /report and a director's /result."""
    meant = SAID_IN_LANGUAGES.get(word)
    if meant in ("report", "result") and word in _RESULT_WORDS:
        return "report" if _SCORE_FIRST.fullmatch(rest) else "result"
    if meant in ("checkin", "present"):
        # "/prezent mihai ana": a director naming who is here; "/presente" alone: a
        # player arriving.
        return "present" if rest.strip() else "checkin"
    return meant


_RESULT_WORDS = frozenset({"resultado", "wynik", "rezultat"})
# The rest of a phrase a club says for a command: /tragere la sorți is the draw, and the
# line it is answered with is /draw, not /draw la sorți.
_PHRASE_TAILS = {"tragere": ("la sorti",), "sorteo": ("de grupos",)}


def without_phrase_tail(word: str, rest: str) -> str:
    """Return the rest of a line after a command said in a club's words (`word` folded),
    less the words that only finish that phrase."""
    words = rest.split()
    for tail in _PHRASE_TAILS.get(word, ()):
        size = len(tail.split())
        if folding.loose(" ".join(words[:size])) == tail:
            return " ".join(words[size:])
    return rest


# `void` as a club types it: /result 5 nulo, /result 5 unieważnij, /result 5 anulat.
VOID_WORDS = {
    word: "void"
    for word in (
        "nulo",
        "nula",
        "anular",
        "anulado",
        "anulada",
        "anulo",
        "unieważnij",
        "uniewaznij",
        "unieważniony",
        "uniewazniony",
        "nieważny",
        "niewazny",
        "anuluj",
        "anulat",
        "anulată",
        "anulata",
        "anulează",
        "anuleaza",
        "nul",
        "nulă",
    )
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
# The same said in the clubs' languages (folded): sencilla, doble, triple; pojedyncza,
# podwójna, mars, potrójna; simplu, dublu, triplu.
GAME_KINDS |= {w: "single" for w in ("sencilla", "sencillo", "pojedyncza", "simplu")}
GAME_KINDS |= {w: "gammon" for w in ("doble", "podwojna", "mars", "dublu", "dubla")}
GAME_KINDS |= {w: "backgammon" for w in ("potrojna", "triplu", "tripla")}
# How people say "three to one" between the numbers: `3 to 1`, `3 a 1` (es), `3 do 1`
# (pl), `3 la 1` (ro), `3 x 1`.
SCORE_JOINERS = ("-", ":", "–", "—", "/", "to", "a", "do", "la", "x")


# Numbers said in words, as a score is said aloud: `three to one`, `tres a uno`,
# `trzy do jednego`, `trei la unu`; folded (no accents, lower case).
NUMBER_WORDS = {
    word: str(number)
    for number, words in enumerate(
        [
            "zero cero",
            "one uno una un jeden jedna jednego unu unul",
            "two dos dwa dwoch doi doua",
            "three tres trzy trzech trei",
            "four cuatro cztery czterech patru",
            "five cinco piec pieciu cinci",
            "six seis szesc szesciu sase",
            "seven siete siedem siedmiu sapte",
            "eight ocho osiem osmiu opt",
            "nine nueve dziewiec dziewieciu noua",
            "ten diez dziesiec dziesieciu zece",
            "eleven once jedenascie unsprezece",
            "twelve doce dwanascie doisprezece douasprezece",
            "thirteen trece trzynascie treisprezece",
        ]
    )
    for word in words.split()
}

# Subcommands as a club says them (/tournament nuevo, /turniej nowy suggested as
# /tournament nowy): taken as the subcommand they mean, like the option words. Folded as
# typed (`folding.loose`): "anulează" is "anuleaza" too, "usuń" "usun".
SUBCOMMAND_WORDS = {
    folding.loose(word): sub
    for sub, words in {
        "new": ("nuevo", "nueva", "nowy", "nowa", "nou", "nouă"),
        "list": ("lista", "listar", "listado", "pokaż"),
        "cancel": ("cancelar", "anular", "anuluj", "odwołaj", "anulează"),
        "move": (
            "mover",
            "aplazar",
            "trasladar",
            "przenieś",
            "przenieść",
            "przełóż",
            "mută",
            "amână",
        ),
        "info": ("información", "informacja", "informații"),
        # /withdraw sí: the answer to "withdraw? to go on: /withdraw confirm".
        "confirm": (*CONFIRM_WORDS, "yes", "sí", "tak", "da"),
        "add": ("añadir", "agregar", "dodaj", "adaugă"),
        "remove": ("quitar", "eliminar", "usuń", "șterge", "elimină"),
        "rename": ("renombrar", "zmień", "redenumește"),
        "merge": ("fusionar", "unir", "połącz", "scal", "unește"),
        "join": ("unirse", "dołącz", "alătură"),
        "novice": (
            "novato",
            "novata",
            "principiante",
            "początkujący",
            "początkująca",
            "nowicjusz",
            "nowicjuszka",
            "începător",
            "începătoare",
            "debutant",
        ),
        # /report partida gammon: one backgammon game, as a club calls it.
        "game": ("partida", "juego", "partia", "gra", "joc", "jocul"),
    }.items()
    for word in words
}
# A match as a player names it before its score (folded): "/report partida 3-1" is the
# match's score, not one game; "mecz 2-0", "meci 5-3".
MATCH_WORDS = frozenset(
    {"match", "partida", "juego", "encuentro", "mecz", "gra", "partia", "meci", "joc"}
)


_NUMBER_MARKS = frozenset({"nr", "no", "n", "numero", "num", "#"})


def match_named(words: list[str]) -> tuple[list[str], str | None]:
    """Return a report's words before a match named at their end, and its number:
    /report 3-1 match 5, /report 3-1 partida 5, /report 3-1 mecz nr 5, /report 3-1 #5."""
    tail = [folding.loose(w).rstrip(".:") for w in words[-3:]]
    if tail and tail[-1].lstrip("#").isdigit() and tail[-1].startswith("#"):
        return words[:-1], tail[-1].lstrip("#")
    for size in (3, 2):
        named = tail[-size:]
        if len(named) < size or not named[-1].isdigit() or named[0] not in MATCH_WORDS:
            continue
        if size == 3 and named[1] not in _NUMBER_MARKS:
            continue
        return words[:-size], named[-1]
    return words, None


# /ranking's tables as a club names them (folded): /ranking temporada, /ranking histórico,
# /ranking nowicjusze, /ranking începători.
RANKING_WORDS = {
    **{w: "season" for w in ("temporada", "sezon", "sezonu", "sezonul", "anual", "roczny")},
    **{
        w: "alltime"
        for w in (
            "all-time",
            "historic",
            "all",
            "historico",
            "historica",
            "historia",
            "total",
            "ogolny",
            "wszechczasow",
            "istoric",
            "istoricul",
            "general",
        )
    },
    **{
        w: "novice"
        for w in (
            "novices",
            "novato",
            "novatos",
            "novata",
            "novatas",
            "nowicjusz",
            "nowicjusze",
            "nowicjuszy",
            "poczatkujacy",
            "incepator",
            "incepatori",
            "incepatorii",
            "debutant",
            "debutanti",
        )
    },
}
# A ranking said in several words (/ranking wszech czasów), as one of RANKING_WORDS.
_RANKING_PHRASES = {
    ("wszech", "czasow"): "wszechczasow",
    ("din", "toate", "timpurile"): "istoric",
    ("de", "todos", "los", "tiempos"): "historico",
    ("de", "siempre"): "historico",
    ("all", "time"): "all-time",
}


def ranking_phrases(words: list[str]) -> list[str]:
    """Return the words of a /ranking line with a ranking said in several words joined."""
    folded = [folding.loose(w) for w in words]
    out: list[str] = []
    i = 0
    while i < len(words):
        for phrase, word in _RANKING_PHRASES.items():
            if tuple(folded[i : i + len(phrase)]) == phrase:
                out.append(word)
                i += len(phrase)
                break
        else:
            out.append(words[i])
            i += 1
    return out


# "Against" before an opponent's name in a report, in the four languages: said, not a name.
_AGAINST = frozenset(
    {"vs", "v", "against", "with", "contra", "con", "przeciw", "przeciwko", "z", "ze"}
    | {"impotriva", "cu"}
)


def against(words: list[str]) -> tuple[list[str], str | None]:
    """Return a report's words before an "against" and the opponent named after it, if
    any: /report 3-1 vs cruz, /report 3-1 contra "Rocío Pérez" (vs:cruz, typed as said)."""
    for i, word in enumerate(words[:-1]):
        if folding.loose(word) in _AGAINST:
            return words[:i], " ".join(words[i + 1 :])
    return words, None


# Games as clubs name them: damas, warcaby, dame (draughts); table, tavla (backgammon).
GAME_WORDS = {
    **{w: "draughts" for w in ("damas", "warcaby", "dame", "checkers", "warcab")},
    **{w: "backgammon" for w in ("table", "tabla", "tavla", "tryktrak", "tric-trac")},
}
