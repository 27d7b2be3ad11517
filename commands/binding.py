"""Bind what was typed to a command's declared parameters: options, positional words,
scores, matches, and the friendly refusals when something does not fit."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from commands import arguments
from commands.parsing import Parsed
from commands.replies import Msg, msg
from commands.words import (
    LOT_WON_LOST,
    NUMBER_WORDS,
    SCORE_JOINERS,
    YES_SAID,
    against,
    match_named,
    ranking_phrases,
)
from tournament import folding
from tournament.model import Refused
from tournament.preset import PRESET_NAMES, override_keys

if TYPE_CHECKING:
    pass

from commands.params import (
    NOVICE_WORDS,
    OPTION_ELSE,
    OPTION_WORDS,
    PRESET_OPTION_WORDS,
    Args,
    Param,
    Signature,
    suggestions,
)

# A player's own command typed with someone's name: the refusal that says so, and the
# director's command that does it for that person.
FOR_SOMEONE = {"checkin": ("checkin_for_someone", "/present")}
# Words that say "I am here" after /checkin, in the clubs' languages.
_HERE = frozenset(
    folding.loose(word)
    for word in (
        *("here", "i'm", "im", "arrived", "ya", "estoy", "aquí", "llegué", "presente"),
        *("jestem", "już", "tutaj", "obecny", "obecna", "sunt", "aici", "am", "ajuns", "venit"),
    )
)
_AFFIRMED = {
    "confirm": YES_SAID,
    "accept": YES_SAID,
    "register": YES_SAID,
    "checkin": YES_SAID | _HERE,
}
_INTEGER = re.compile(r"^-?\d{1,9}$")
_MATCH = re.compile(r"^#?\d{1,6}$")
_YEAR = re.compile(r"^(\d\d|\d{4})$")
_SCORE = re.compile(rf"^\d{{1,3}}\s*[{arguments.SCORE_MARKS}]\s*\d{{1,3}}$")


def bind(signature: Signature, parsed: Parsed, words: Sequence[str]) -> Args:
    """Bind the words and options of a line to a command's parameters, or refuse."""
    by_key: dict[str, Param] = {}
    for param in signature.params:
        by_key[param.name] = param
        for alias in param.aliases:
            by_key[alias] = param
    raw: dict[str, str | list[str]] = {}
    extra: dict[str, str] = {}
    for key, value in parsed.options.items():
        mapped = OPTION_WORDS.get(folding.loose(key)) if key not in by_key else None
        if mapped not in by_key and OPTION_ELSE.get(str(mapped)) in by_key:
            mapped = OPTION_ELSE[str(mapped)]  # fecha: on /register: the birth date
        if mapped in by_key or (signature.preset_options and mapped in override_keys()):
            key = str(mapped)  # named in the club's language: idioma:, inicio:, limba:
        known = by_key.get(key)
        if known is None:
            if signature.preset_options:
                key = PRESET_OPTION_WORDS.get(folding.loose(key), key)
            if signature.preset_options and key in override_keys():
                extra[key] = value
                continue
            _unknown_option(signature, key, by_key)
            continue
        raw[known.name] = value
    words = list(words)
    if signature.path == "ranking":
        words = ranking_phrases(words)
        if "year" not in raw:
            # /ranking 2026: the year of an earlier season, whatever else is said.
            at = next((i for i, w in enumerate(words) if _YEAR.match(w)), None)
            if at is not None:
                raw["year"] = words.pop(at)
    if signature.path in ("report", "report game") and "match" not in raw:
        words, number = match_named(words)
        if number is not None:
            raw["match"] = number
    if signature.path in ("report", "report game") and "vs" not in raw:
        words, opponent = against(words)
        if opponent is not None:
            raw["vs"] = opponent
    words = _time_of_day(signature, words, raw)
    if signature.path in _AFFIRMED:
        # "/confirm sí", "/accept ok", "/checkin ya estoy": the command said, and a yes.
        words = [w for w in words if folding.loose(w) not in _AFFIRMED[signature.path]]
    words = _said_outcome(signature, _merge_scores(words))
    leftover = _bind_positional(signature, _two_numbers(signature, words), raw)
    if leftover:
        texts = [p.name for p in signature.params if p.type == "text" and p.name in raw]
        if texts:
            # name:Navodari Cup without quotes: the value ends at the space.
            value = " ".join([str(raw[texts[0]]), *leftover])
            raise Refused("unquoted_value", example=f'{texts[0]}:"{value}"')
        keyed = [
            p
            for p in signature.params
            if p.type == "text" and p.required and not p.positional and p.name not in raw
        ]
        if keyed:
            # /tournament new Dec Cup start:...: the words are the name, typed without name:.
            name, start = _name_and_start(signature, leftover, raw)
            typed = {**raw, **start, keyed[0].name: name}
            raise Refused("value_needs_key", usage=signature.usage(typed=typed))
        if signature.path in FOR_SOMEONE:
            # /checkin José Núñez: a director checking someone in means /present.
            code, director_command = FOR_SOMEONE[signature.path]
            raise Refused(code, command=f"{director_command} {' '.join(leftover)}")
        raise Refused(
            "unexpected_words", words=" ".join(leftover), usage=signature.usage(full=True)
        )
    values: dict[str, Any] = {}
    for param in signature.params:
        given = raw.get(param.name)
        if given is None or (isinstance(given, str) and not given.strip()):
            if param.required:
                _missing(signature, param, raw)
            continue
        values[param.name] = _convert(signature, param, given, raw)
    return Args(signature.path, values, extra, signature.usage(typed=raw))


def _unknown_option(signature: Signature, key: str, by_key: Mapping[str, Param]) -> None:
    known = [p.name for p in signature.params]
    if folding.loose(key) in NOVICE_WORDS:
        raise Refused("novice_by_director", option=key, command=signature.path)
    pool = list(by_key) + (list(override_keys()) if signature.preset_options else [])
    # Option names are short: at 0.6 "born" came out as "torneo" (three letters shared).
    close = suggestions(key, pool, cutoff=0.7)
    allowed = ", ".join(f"{k}:" for k in known)
    if signature.preset_options:
        allowed += ", group_size: ... (/rules)"
    if close:
        raise Refused(
            "unknown_option_close",
            option=key,
            suggestion=" / ".join(f"{c}:" for c in close),
            command=signature.path,
            allowed=allowed,
        )
    raise Refused("unknown_option", option=key, command=signature.path, allowed=allowed)


def _missing(signature: Signature, param: Param, typed: Mapping[str, str | list[str]]) -> None:
    usage = signature.usage(typed=typed)
    specific = {
        "code": "join_code_required",
        "start": "start_required",
        "reason": "reason_required",
        "match": "match_number_required",
        "player": "player_name_required",
    }
    if param.name in specific:
        raise Refused(specific[param.name], usage=usage)
    if signature.path == "tournament new" and param.name == "name":
        raise Refused("tournament_name_required")
    if param.type == "tournament":
        raise Refused("which_tournament_required", usage=usage)
    if param.type == "score":
        raise Refused("score_required", usage=usage)
    raise Refused("missing_arg", arg=param.usage(), usage=usage)


_CLOCK = re.compile(r"^\d{1,2}[:.h]\d{2}$")


def given_values(signature: Signature, parsed: Parsed, words: Sequence[str]) -> dict[str, Any]:
    """Return what a line gives each parameter, as typed (no value checked): its options
    and its positional words, as `bind` shares them out. For showing a line another way
    (Discord's slash form of a hint)."""
    raw: dict[str, str | list[str]] = dict(parsed.options)
    words = _time_of_day(signature, list(words), raw)
    # A hint echoing "perdí 3-1" gets no slash form: only a command is refused for it.
    words = _said_outcome(signature, _merge_scores(words), refuse=False)
    leftover = _bind_positional(signature, _two_numbers(signature, words), raw)
    if leftover:
        raw["..."] = leftover
    return raw


def _time_of_day(
    signature: Signature, words: list[str], raw: dict[str, str | list[str]]
) -> list[str]:
    """Join `start:30/01/2026 20:00` or `born:2 martie 1950`, typed without quotes, into
    one value."""
    for param in signature.params:
        value = raw.get(param.name)
        if param.type == "date" and isinstance(value, str) and " " not in value.strip():
            # born:2 martie 1950 unquoted: the month and the year that finish the date.
            for size in range(min(4, len(words)), 1, -1):
                joined = " ".join([value.strip(), *words[-size:]])
                if arguments.birth_date_reads(joined):
                    raw[param.name], words = joined, words[:-size]
                    break
            continue
        if param.type != "datetime" or not isinstance(value, str) or " " in value.strip():
            continue
        said = _start_said(value, words)
        if said is not None:
            # start:10 kwietnia 10:00 unquoted: the words that finish the start are its.
            raw[param.name], words = said
            continue
        clock = [w for w in words if _CLOCK.match(w)]
        if len(clock) == 1:
            raw[param.name] = f"{value.strip()} {clock[0]}"
            words = [w for w in words if w is not clock[0]]
    return words


def _name_and_start(
    signature: Signature, leftover: list[str], raw: Mapping[str, str | list[str]]
) -> tuple[str, dict[str, str]]:
    """Return words typed without keys as a name and, read off their end, a missing start
    (/tournament new Kwiecień 10 kwietnia 10:00); all of them the name when none ends so."""
    for param in signature.params:
        if param.type != "datetime" or param.name in raw:
            continue
        for cut in range(1, len(leftover) - 1):
            start = " ".join(leftover[cut:])
            if arguments.reads_as_start(start):
                return " ".join(leftover[:cut]), {param.name: start}
    return " ".join(leftover), {}


def _start_said(value: str, words: list[str]) -> tuple[str, list[str]] | None:
    """Return an unquoted start finished by the words after it, as the day and time a
    director says (`start:10 kwietnia 10:00`, `start:sábado 8 pm`), and the other words;
    the words of a name typed before it without name: stay the name's."""
    for cut in range(len(words)):
        start = " ".join([value.strip(), *words[cut:]])
        if arguments.reads_as_start(start):
            return start, words[:cut]
    return None


def _two_numbers(signature: Signature, words: list[str]) -> list[str]:
    """Read `/report 3 1` (a phone keyboard's way) as the score 3-1, where a score is all
    the command takes positionally, and `/result 6 5 2` as match 6 won 5-2."""
    positional = [p for p in signature.params if p.positional]
    if (
        len(positional) == 1
        and positional[0].type == "score"
        and len(words) == 2
        and all(w.isdigit() and len(w) <= 2 for w in words)
    ):
        return [f"{words[0]}-{words[1]}"]
    if (
        positional
        and positional[0].type == "match"
        and any(p.type == "score" for p in positional)
        and len(words) == 3
        and all(w.isdigit() for w in words)
        and all(len(w) <= 2 for w in words[1:])
    ):
        return [words[0], f"{words[1]}-{words[2]}"]  # /result 6 5 2: match 6, 5-2
    bare = [i for i, w in enumerate(words) if w.isdigit() and len(w) <= 2]
    if (
        any(p.type == "player" for p in positional)
        and any(p.type == "score" for p in positional)
        and len(bare) == 2
        and bare[1] == bare[0] + 1
        and bare[0] > 0
        and not any(_SCORE.match(w) for w in words)
    ):
        at = bare[0]  # /result ann 3 1 bob: ann won 3-1 against bob
        return [*words[:at], f"{words[at]}-{words[at + 1]}", *words[at + 2 :]]
    return words


def _number(word: str) -> str | None:
    """Return a score's number typed as digits or said as a word, else None."""
    if word.isdigit():
        return word
    return NUMBER_WORDS.get(folding.loose(word))


def _said_outcome(signature: Signature, words: list[str], *, refuse: bool = True) -> list[str]:
    """Return a report's words without "gané", "perdí", "won"... said around the score,
    or refuse when the word and the score disagree: "perdí 3-1" is Spanish for "I lost
    3-1" (their points first), and taken as typed it would record a win. Not `refuse`:
    the words as they are."""
    if signature.path != "report":
        return words
    scores = [w for w in words if _SCORE.match(w)]
    said = [w for w in words if _outcome(w) is not None]
    if not scores or not said:
        return words
    mine, theirs = _pair(scores[0])
    if mine == theirs:
        return words  # a level draughts match: "won" may be its lot, said as lot:won
    scored = "won" if mine > theirs else "lost"
    for word in said:
        if _outcome(word) != scored:
            if not refuse:
                return words
            flipped = " ".join(f"{b}-{a}" for a, b in (_pair(w) for w in scores))
            raise Refused(
                f"report_said_{_outcome(word)}",
                said=word,
                score=scores[0],
                example=f"/report {flipped}",
            )
    # "am câștigat", "I won", "yo gané": the word before the outcome is part of it.
    before = {i - 1 for i, w in enumerate(words) if w in said and i > 0}
    return [
        w
        for i, w in enumerate(words)
        if w not in said and not (i in before and w.lower() in _OUTCOME_LEADS)
    ]


_OUTCOME_LEADS = frozenset({"am", "i", "yo", "ja"})


def _outcome(word: str) -> str | None:
    """Return "won" or "lost" for a word that says so (the club's words for a lot's)."""
    lowered = word.lower()
    found = LOT_WON_LOST.get(lowered) or LOT_WON_LOST.get(folding.loose(lowered))
    return found or {"won": "won", "lost": "lost"}.get(lowered)


def _pair(score: str) -> tuple[int, int]:
    return arguments.score(score, usage="/report 3-1")  # a word _SCORE matched: never refused


def _merge_scores(words: Sequence[str]) -> list[str]:
    """Join a score typed with spaces (`3 - 1`, `3 a 1`, `three to one`) into one word."""
    out: list[str] = []
    index = 0
    while index < len(words):
        three = words[index : index + 3]
        first, last = (_number(three[0]), _number(three[2])) if len(three) == 3 else (None, None)
        if first is not None and last is not None and three[1].lower() in SCORE_JOINERS:
            out.append(f"{first}-{last}")
            index += 3
            continue
        out.append(words[index])
        index += 1
    return out


def _shape(param: Param, word: str) -> bool:
    """Say whether `word` can only be a value of `param` (for splitting unquoted names)."""
    if param.type == "score":
        return bool(_SCORE.match(word))
    if param.type in ("match", "integer"):
        return bool(_MATCH.match(word))
    if param.type == "choice":
        return param.choice(word) is not None
    return False


def _bind_positional(
    signature: Signature, words: list[str], raw: dict[str, str | list[str]]
) -> list[str]:
    """Give positional words to parameters in order; return words nobody took."""
    positional = [p for p in signature.params if p.positional and p.name not in raw]
    index = 0
    for number, param in enumerate(positional):
        later = positional[number + 1 :]
        if index >= len(words):
            break
        word = words[index]
        if param.type == "score":
            taken = []
            while index < len(words) and _SCORE.match(words[index]):
                taken.append(words[index])
                index += 1
                if not param.many:
                    break
            if taken:
                raw[param.name] = taken
            elif not any(_shape(p, word) for p in later) and not any(
                p.type == "player" for p in later
            ):
                raw[param.name] = word  # not a score: the refusal says what to type
                index += 1
            continue
        if param.type in ("match", "integer", "choice", "date", "preset"):
            if _shape(param, word) or not later:
                raw[param.name] = word  # when it does not fit, the refusal says why
                index += 1
            continue
        # A name or text runs until a word that belongs to a later parameter, so the
        # quotes are optional: /result Alice Moreno 3-1 Gina R.
        end = index
        while end < len(words) and not any(_shape(p, words[end]) for p in later):
            end += 1
        taken = words[index:end]
        if len(taken) == 1 and end == len(words):
            _near_choice(signature, later, taken[0], raw)
        if taken:
            raw[param.name] = taken if param.many else " ".join(taken)
        index = end
    return words[index:]


def _near_choice(
    signature: Signature, later: list[Param], word: str, raw: dict[str, str | list[str]]
) -> None:
    """Refuse a last word that is a near miss of a later choice (`/result 5 viod`), rather
    than read it as a name nobody has."""
    if any(p.type == "score" and p.name in raw for p in signature.params):
        return  # after a score the last word is a name (`/result Vida 3-1 Voids`)
    for param in later:
        if param.type == "choice" and param.choice(word) is None:
            _refuse_near_miss(signature, param, word, raw)


def _refuse_near_miss(
    signature: Signature, param: Param, word: str, raw: Mapping[str, str | list[str]]
) -> None:
    """Refuse `word` as a typo of one of `param`'s choices, if it is close to one."""
    # Short choices ("all") are too near short names ("Al") to guess.
    long_ones = [c for c in param.choices if len(c) >= 4]
    close = difflib.get_close_matches(word.lower(), long_ones, n=1, cutoff=0.74)
    if close:
        usage = signature.usage(typed={**raw, param.name: close[0]})
        raise Refused("did_you_mean_word", text=word, suggestion=close[0], usage=usage)


def _convert(
    signature: Signature,
    param: Param,
    given: str | list[str],
    typed: Mapping[str, str | list[str]] | None = None,
) -> Any:
    usage = signature.usage()
    if isinstance(given, list):
        if param.type == "score":
            return [arguments.score(word, usage=usage) for word in given]
        if param.many:
            return [word.strip() for word in given if word.strip()]
        given = " ".join(given)
    text = given.strip()
    if param.many and param.type == "player":
        return [text]
    match param.type:
        case "text" | "player" | "tournament" | "datetime":
            return text
        case "integer":
            if not _INTEGER.match(text):
                code = param.invalid or "bad_integer"
                raise Refused(code, option=param.name, text=text, usage=usage)
            return int(text)
        case "match":
            return arguments.match_number(text)
        case "score":
            return arguments.scores((text,), usage=usage)[: None if param.many else 1]
        case "date":
            return arguments.birth_date(text)
        case "preset":
            lowered = text.lower()
            if lowered in PRESET_NAMES:
                return lowered
            close = suggestions(lowered, PRESET_NAMES)
            raise Refused(
                "bad_preset_name",
                text=text,
                suggestion=close[0] if close else PRESET_NAMES[0],
                presets=", ".join(PRESET_NAMES),
            )
        case "choice":
            chosen = param.choice(text)
            if chosen is None:
                _refuse_near_miss(signature, param, text, typed or {})  # /reopen 11 confirm
                raise Refused("bad_choice", option=param.name, text=text, choices=_choices(param))
            return chosen
    raise AssertionError(param.type)  # pragma: no cover - every type is handled above


def _choices(param: Param) -> Msg | str:
    """Return a choice's values as the club says them: yes or no in its language."""
    if set(param.choices) <= {"yes", "no", "preset"} and "yes" in param.choices:
        rest = [c for c in param.choices if c not in ("yes", "no")]
        return msg("expect.yes_no_or", others=", ".join(rest)) if rest else msg("expect.yes_no")
    return ", ".join(param.choices)
