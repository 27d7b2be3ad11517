"""Command parameters, declared once: what a command takes, and text bound to it.

A `Param` says a parameter's name, type, whether it is required, whether it may be typed
without its key (positionally), and the catalog key of its description. `bind` turns a
parsed line into typed values, or refuses with a reply that says what to type. Player
and tournament names are resolved later, inside the command's session (`commands.bound`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from tournament import folding

if TYPE_CHECKING:
    from tournament.club import Player

ParamType = Literal[
    "text",
    "integer",
    "score",
    "player",
    "match",
    "date",
    "datetime",
    "preset",
    "tournament",
    "choice",
]

# A start as the usage lines show it; shown to a person, it becomes a start to come
# (`arguments.dated`): a fixed date in a usage line is one day in the past.
DATETIME_EXAMPLE = '"2026-01-31 20:00"'
_EXAMPLES: Mapping[str, str] = {
    "text": '"..."',
    "integer": "1",
    "score": "3-1",
    "player": "alice",
    "match": "5",
    "date": "1950-03-02",
    "datetime": DATETIME_EXAMPLE,
    "preset": "hgv-backgammon",
    "tournament": '"May Cup"',
    "choice": "",
}


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a command."""

    name: str
    type: ParamType
    required: bool = False
    # Required as it is shown (usage lines, /help, Discord's menu), though binding lets it
    # be missing: the handler also reads it typed without its colon (`... to "Zofia"`).
    expected: bool = False
    positional: bool = False  # may be typed without `name:` (Discord: an option of this name)
    many: bool = False  # several values: players, or a score and its tiebreak phases
    choices: tuple[str, ...] = ()  # for "choice": the canonical values
    synonyms: Mapping[str, str] = field(default_factory=dict)  # other words for a choice
    aliases: tuple[str, ...] = ()  # other option names accepted in text
    description: str = ""  # catalog key; empty means "arg.<name>"
    example: str = ""  # shown in usage lines; empty means one for the type
    invalid: str = ""  # the refusal code for a value that does not fit, if not the type's

    @property
    def description_key(self) -> str:
        return self.description or f"arg.{self.name}"

    @property
    def sample(self) -> str:
        if self.example:
            return self.example
        if self.type == "choice" and self.choices:
            return self.choices[0]
        return _EXAMPLES[self.type]

    def usage(self, typed: str | list[str] | None = None) -> str:
        """Return how this parameter is typed, e.g. `3-1` or `reason:"..."`; with what the
        person `typed` in place of the example, so a hint can be copied as it stands."""
        shown = self.sample if not typed else as_typed(typed)
        if self.positional:
            return shown
        return f"{self.name}:{shown}"

    def choice(self, text: str) -> str | None:
        """Return the canonical choice `text` means, or None."""
        lowered = text.strip().lower()
        if lowered in self.choices:
            return lowered
        # A word said in the club's language, with or without its accents (histórico).
        return self.synonyms.get(lowered) or self.synonyms.get(folding.loose(lowered))


# A preset's options by the names clubs give them (HGV-7.4.13's "Last Chance", "El Último
# Chance", "Ultima Șansă", "Ostatnia szansa"; the third-place match), beside its own keys.
PRESET_OPTION_WORDS: Mapping[str, str] = {
    "last_chance": "consolation",
    "lastchance": "consolation",
    "ultimo_chance": "consolation",
    "ultima_chance": "consolation",
    "el_ultimo_chance": "consolation",
    "ultima_oportunidad": "consolation",
    "ultima_sansa": "consolation",
    "ostatnia_szansa": "consolation",
    "third": "third_place",
    "tercer_puesto": "third_place",
    "locul_3": "third_place",
    "locul_trei": "third_place",
    "trzecie_miejsce": "third_place",
    "mecz_o_trzecie_miejsce": "third_place",
}

# Options named in the club's language (es, pl, ro), for the English names commands take.
OPTION_WORDS: Mapping[str, str] = {
    word: option
    for option, words in {
        # Romanian also says them with the article: numele, motivul, limba, data nașterii.
        "name": ("nombre", "nazwa", "nazwisko", "imie", "nume", "numele", "denumire"),
        "start": ("inicio", "comienzo", "fecha", "poczatek", "data", "inceput", "ora"),
        "language": ("idioma", "lengua", "jezyk", "limba"),
        "year": ("ano", "rok", "an", "anul"),
        "timezone": (
            "zona",
            "zona_horaria",
            "huso",
            "strefa",
            "strefa_czasowa",
            "fus",
            "fus_orar",
        ),
        "reason": ("motivo", "razon", "causa", "powod", "przyczyna", "motiv", "motivul"),
        "official": ("oficial", "oficjalny", "oficjalne", "oficiala"),
        "born": (
            "nacido",
            "nacida",
            "nacimiento",
            "urodzony",
            "urodzona",
            "urodzenie",
            "nascut",
            "nascuta",
            "nastere",
            "data_nasterii",
            "fecha_de_nacimiento",
            "fecha_nacimiento",
            "data_urodzenia",
            "urodziny",
        ),
        "pictures": ("imagenes", "fotos", "obrazki", "zdjecia", "imagini", "poze"),
        "approval": ("aprobacion", "zatwierdzanie", "akceptacja", "aprobare"),
        # The public pages (INTERFACE §6): strona:tak, pagina:sí, pagini:da.
        "web": ("strona", "strony", "pagina", "paginas", "pagini", "sitio"),
        "match": ("encuentro", "partida", "mecz", "meci"),
        "group_size": (
            "grupo",
            "tamano_grupo",
            "jugadores_por_grupo",
            "grupa",
            "wielkosc_grupy",
            "marime_grupa",
        ),
        "qualifiers": ("clasificados", "awans", "calificati"),
        # A draughts lot (WAR-V): sorteo:ganado, los:wygrany, sorti:castigat.
        "lot": ("sorteo", "suerte", "los", "losowanie", "sorti", "tragere"),
        # /player rename "juan" a:"Juan P.", /player merge "Rocío 2" en:"Rocío" (pl na:,
        # do:; ro nou:, cu:).
        "to": ("a", "como", "nuevo", "na", "jako", "nowe", "nou", "noul"),
        "into": ("en", "con", "do", "z", "cu"),
    }.items()
    for word in words
}

# An option word's meaning for a command that has not the first: fecha: and data: are a
# tournament's start, and on /register and /addplayer (no start there) the birth date.
OPTION_ELSE: Mapping[str, str] = {"start": "born"}

# The novice category (HGV-NOVICE) as a player asks for it on /register (nowicjusz:tak,
# novato:sí): a director's to give, with /player novice.
NOVICE_WORDS = frozenset(
    (
        "novice",
        "novato",
        "novata",
        "novicio",
        "principiante",
        "nowicjusz",
        "nowicjuszka",
        "poczatkujacy",
        "poczatkujaca",
        "incepator",
        "incepatoare",
        "debutant",
        "debutanta",
    )
)

TOURNAMENT = Param(
    "tournament", "tournament", aliases=("turniej", "turnieju", "torneo", "turneu", "turneul")
)
"""Every command accepts `tournament:"May Cup"` (INTERFACE §1), in the club's word too
(`turniej:`, `torneo:`, `turneu:`)."""


@dataclass(frozen=True, slots=True)
class Args:
    """A command's bound values; player and tournament names are resolved in a session."""

    command: str  # the command's path, e.g. "tournament new"
    values: Mapping[str, Any]
    extra: Mapping[str, str] = field(default_factory=dict)  # preset overrides
    usage: str = ""  # how the command is typed, for refusals that say what to type
    # What was typed for each player parameter the session resolved (`values` then holds
    # the players): a rights-changing command wants the exact name, not a beginning.
    typed: Mapping[str, Any] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        return name in self.values

    def text(self, name: str) -> str | None:
        value = self.values.get(name)
        return value if isinstance(value, str) else None

    def integer(self, name: str) -> int | None:
        value = self.values.get(name)
        return value if isinstance(value, int) else None

    def match(self, name: str = "match") -> int | None:
        return self.integer(name)

    def scores(self, name: str = "score") -> list[tuple[int, int]]:
        value = self.values.get(name)
        return list(value) if isinstance(value, list) else []

    def date(self, name: str) -> date | None:
        value = self.values.get(name)
        return value if isinstance(value, date) else None

    def choice(self, name: str) -> str | None:
        return self.text(name)

    def player(self, name: str = "player") -> Player | None:
        found = self.players(name)
        return found[0] if found else None

    def players(self, name: str = "player") -> list[Player]:
        value = self.values.get(name)
        return list(value) if isinstance(value, tuple) else []


@dataclass(frozen=True, slots=True)
class Signature:
    """What `bind` needs to know of a command: its path, parameters and extra options."""

    path: str
    params: tuple[Param, ...]
    preset_options: bool = False  # also accepts the preset's keys (/tournament new)

    def usage(
        self, *, full: bool = False, typed: Mapping[str, str | list[str]] | None = None
    ) -> str:
        """Return the command as it is typed: required parameters (and those `typed`), or
        all with `full`; what the person typed stands in for the examples."""
        typed = typed or {}
        words = [f"/{self.path}"]
        for param in self.params:
            if param is TOURNAMENT:
                continue
            given = typed.get(param.name)
            if param.required or param.expected or given:
                words.append(param.usage(given))
            elif full:
                words.append(f"[{param.usage()}]")
        if full and self.preset_options:
            words.append("[group_size:4 ...]")
        return " ".join(words)


def as_typed(value: str | list[str]) -> str:
    """Return a typed value as it would be typed again: quoted when it has a space."""
    if isinstance(value, list):
        return " ".join(as_typed(v) for v in value)
    value = " ".join(value.split())
    return f'"{value}"' if " " in value or not value else value


def scores_typed(pairs: Iterable[tuple[int, int]]) -> str:
    """Return scores as they follow a command in a line to send (" 2-2 3-1"), or nothing."""
    return "".join(f" {x}-{y}" for x, y in pairs)


def lot_typed(a: Args) -> str:
    """Return the lot a line gave, as it follows its scores in a line to send (" lot:won"),
    or nothing."""
    lot = a.choice("lot")
    return f" lot:{lot}" if lot else ""


def suggestions(
    word: str, pool: Sequence[str], *, limit: int = 3, cutoff: float = 0.6
) -> list[str]:
    """Return the entries of `pool` closest to `word`: a unique beginning, else similar."""
    lowered = word.lower()
    unique = list(dict.fromkeys(pool))
    starts = [p for p in unique if p.lower().startswith(lowered) or lowered.startswith(p.lower())]
    if starts:
        return starts[:limit]
    squeezed = {p.lower().replace("_", "").replace("-", ""): p for p in unique}
    if lowered.replace("_", "").replace("-", "") in squeezed:
        return [squeezed[lowered.replace("_", "").replace("-", "")]]
    return difflib.get_close_matches(lowered, unique, n=limit, cutoff=cutoff)
