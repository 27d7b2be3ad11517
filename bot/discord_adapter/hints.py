"""Hints as Discord types them: a command line in its slash-menu form (issue 20).

A reply says what to type in the text form every platform shares (`/result 1 3-1`,
`/report 3-1 [match:5]`). Discord's slash menu takes no positional words: each value
goes in an option of its parameter's name, so the same hint reads `/result match:1
score:3-1` there, `[...]` still marking what may be left out. A line the registry does
not know stays as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.discord_adapter import options
from commands.binding import given_values
from commands.parsing import ParseError, parse
from commands.registry import BY_NAME, select

_OPTIONAL = re.compile(r"\[([^\]]*)\]")


_MORE = re.compile(r"\s\.\.\.(?=\]?$)")  # `[group_size:4 ...]`: and other such options
_OR = " \u00b7 "  # `/result alice 3-1 bob · /result 5 3-1`: one command's forms


@lru_cache(maxsize=1024)
def slash_form(line: str) -> str | None:
    """Return a typed command line as Discord's slash menu takes it, or None when it is
    not a command Discord has (each of its forms, when it gives several)."""
    if _OR in line:
        forms = [slash_form(form) for form in line.split(_OR)]
        return None if None in forms else _OR.join(str(form) for form in forms)
    optional = [_MORE.sub("", found.replace('"', "")) for found in _OPTIONAL.findall(line)]
    more = bool(_MORE.search(line))
    plain = _OPTIONAL.sub(lambda found: found.group(1), _MORE.sub("", line))
    try:
        parsed = parse(plain)
    except ParseError:
        return None
    spec = BY_NAME.get(parsed.name)
    if spec is None:
        return None
    target, rest = select(spec, parsed)
    given = given_values(target.signature, parsed, rest)
    if "..." in given:
        return None
    shape = options.command(spec)
    path = [f"/{spec.name}"]
    known = shape.options
    if shape.subcommands:
        sub = next((s for s in shape.subcommands if s.path == target.name), None)
        if sub is None:
            return None
        path.append(sub.name)
        known = sub.options
    elif target is not spec:
        # A folded subcommand is its flag, or the options only it has.
        flag = next((o for o in known if o.kind == "flag" and o.word == target.word), None)
        if flag is not None:
            given = {flag.name: "True", **given}
        elif not any(o.sub_word == target.word and o.name in given for o in known):
            return None
    # What only a button fills in (which report an Accept answers) is not in the menu.
    given = {k: v for k, v in given.items() if (spec.name, k) not in options.BUTTON_ONLY}
    names = {o.name for o in known}
    if not set(given) <= names:
        return None
    words = path + [_shown(o.name, given[o.name], optional) for o in known if o.name in given]
    return " ".join(words + ["..."] * more)


def _shown(name: str, value: object, optional: list[str]) -> str:
    text = " ".join(value) if isinstance(value, list) else str(value)
    word = f"{name}:{text}"
    return f"[{word}]" if word in optional or text in optional else word
