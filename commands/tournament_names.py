"""A tournament as people name it: forgivingly (`calendar.named`: any word of its name, by
its beginning), by its month said in another form (`luty` for "Puchar Lutego"), or by a
name it had before `/tournament rename` (a button posted before it). Commands and the
export's `--tournament` find it alike; light to import (the command line's start-up)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from commands.ports import AuditLog
from commands.spoken_dates import MONTHS
from tournament import calendar, folding

fold = folding.loose


async def named(
    audit: AuditLog, club_id: int, listed: Sequence[calendar.Listed], text: str
) -> calendar.Listed | None:
    """Return the club's tournament `text` names, forgivingly (`calendar.named`), by its
    month said in another form, or by a name it had before a rename; None when none or
    several."""
    return (
        calendar.named(listed, text)
        or _named_by_month(listed, text)
        or await _formerly_named(audit, club_id, listed, text)
    )


def _named_by_month(listed: Sequence[calendar.Listed], text: str) -> calendar.Listed | None:
    """Return the tournament `text` names by its month said another way: `luty` (the
    nominative) for "Puchar Lutego", `tournament:february` for "Copa de Febrero"."""
    if not any(_month(word) for word in fold(text).split()):
        return None
    by_month = [replace(t, name=_months_said_alike(t.name)) for t in listed]
    return calendar.named(by_month, _months_said_alike(text))


def _month(word: str) -> int | None:
    """Return the month a whole month's name means, in any club language (not `mar`,
    `sie`, `lip`: words of their own too)."""
    number = MONTHS.get(word)
    return number if number is not None and (len(word) > 3 or word in _SHORT_MONTHS) else None


_SHORT_MONTHS = frozenset({"may", "maj", "mai"})


def _months_said_alike(text: str) -> str:
    """Return `text` folded with each month's name as one word for every language."""
    words = fold(text).split()
    return " ".join(
        f"month{number}" if (number := _month(word)) is not None else word for word in words
    )


async def _formerly_named(
    audit: AuditLog, club_id: int, listed: Sequence[calendar.Listed], text: str
) -> calendar.Listed | None:
    """Return the tournament `text` names by a name it had before `/tournament rename`: a
    button posted before the rename still carries it."""
    by_id = {t.id: t for t in listed}
    renamed = [(tid, was) for tid, was in await audit.former_names(club_id) if tid in by_id]
    # A tournament renamed twice has two former names: each its own row for `named`.
    former = [replace(by_id[tid], id=row, name=was) for row, (tid, was) in enumerate(renamed)]
    found = calendar.named(former, text)
    return by_id[renamed[found.id][0]] if found is not None else None
