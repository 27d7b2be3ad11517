"""The director's log: who did what in a tournament, when, and why.

Every override is logged with who made it (commands/session.py); this shows it back. An
act is said as the command that does it (`/result 5 3-1 reason:"..."`): command words
are the same in every language, and a director can read and repeat them. A report is
said in words, white's score first, since its numbers are stored white first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from commands.params import Args, as_typed, scores_typed
from commands.replies import Hint, Msg, Name, Reply, When, msg
from commands.session import AUTOMATIC, Session
from commands.views import score as shown_score
from tournament.calendar import local

SHOWN = 20  # the newest acts of `/log`: a phone's screen
SCANNED = 2000  # a match's acts are looked for among the tournament's newest entries

Detail = Mapping[str, Any]


def phases(tiebreaks: tuple[tuple[int, int], ...], lot: str | None) -> dict[str, object]:
    """Return a draughts score's tiebreak phases and lot for its log entry, if it has any."""
    logged: dict[str, object] = {"tiebreaks": [list(p) for p in tiebreaks]} if tiebreaks else {}
    return logged | ({"lot": lot} if lot else {})


def _reason(detail: Detail) -> str:
    reason = str(detail.get("reason") or "").strip()
    return f" reason:{as_typed(reason)}" if reason else ""


def _player(word: str) -> Callable[[Detail], str]:
    """Return the line of a command that names a player, and its reason if it has one."""
    return lambda d: f"/{word} {as_typed(str(d.get('player', '')))}{_reason(d)}"


def _result(d: Detail) -> str:
    """Return a director's result as typed, white's score first, tiebreaks and lot too."""
    phases = scores_typed(d.get("tiebreaks") or ())
    lot = f" lot:{d['lot']}" if d.get("lot") else ""
    return f"/result {d['match']} {d['white']}-{d['black']}{phases}{lot}{_reason(d)}"


def _correction(d: Detail) -> str:
    change = d.get("change")
    if change == "reopen":
        return f"/reopen {d['match']}{_reason(d)}"
    if change == "void":
        return f"/result {d['match']} void{_reason(d)}"
    return _result(d)


def _game(d: Detail) -> str:
    cube = int(d.get("cube") or 1)
    return (
        f"/report game {d['kind']}"
        + (f" cube:{cube}" if cube > 1 else "")
        + (f" match:{d['match']}")
    )


# What a director does, as the command that does it.
DIRECTOR_ACTS: dict[str, Callable[[Detail], str]] = {
    "result": _result,
    "correct": _correction,
    "present": _player("present"),
    "away": _player("away"),
    "forfeit": _player("forfeit"),
    "excuse": _player("excuse"),
    "sanction": _player("sanction"),
    "lift": _player("lift"),
    "reinstate": _player("reinstate"),
    "addplayer": _player("addplayer"),
    "walk_in": _player("addplayer"),
    "approve": _player("approve"),
    "player_remove": lambda d: f"/player remove {as_typed(str(d['player']))}{_reason(d)}",
    "player_rename": lambda d: (
        f"/player rename {as_typed(str(d['player']))} to:{as_typed(str(d['to']))}"
    ),
    "player_merge": lambda d: (
        f"/player merge {as_typed(str(d['player']))} into:{as_typed(str(d['into']))}"
    ),
    "player_novice": lambda d: (
        f"/player novice {as_typed(str(d['player']))}" + ("" if d.get("novice") else " off")
    ),
    "draw": lambda d: "/draw",
    "redraw": lambda d: "/redraw confirm",
    "lot": lambda d: f"/lot {d['group']}",
    "pause": lambda d: f"/pause {d['match']}{_reason(d)}",
    "resume": lambda d: f"/resume {d['match']}",
    "cancel_penalties": lambda d: f"/cancel {d['match']}{_reason(d)}",
    "tournament_new": lambda d: f"/tournament new name:{as_typed(str(d['name']))}",
    "tournament_cancel": lambda d: f"/tournament cancel{_reason(d)}",
    "tournament_rename": lambda d: (
        f"/tournament rename {as_typed(str(d['was']))} to:{as_typed(str(d['name']))}"
    ),
}
# Every director's act, a moved start too (said on the club's clock, in `_said`).
BY_DIRECTORS = frozenset(DIRECTOR_ACTS) | {"tournament_move"}
# What the rules did to a match that its log says (the rest is in the channel).
EFFECTS = frozenset({"LatenessPoint", "MatchForfeited", "MatchFinished"})
# What a player does; a report is said in words (below).
PLAYER_ACTS: dict[str, Callable[[Detail], str]] = {
    "register": lambda d: "/register",
    "register_born": lambda d: f"/register born:{d['born']}",
    "withdraw": lambda d: "/withdraw confirm",
    "checkin": lambda d: "/checkin",
    "report_game": _game,
    "accept": lambda d: f"/accept {d['match']}",
    "dispute": lambda d: f"/dispute {d['match']}{_reason(d)}",
}


async def log(s: Session, a: Args) -> Reply:
    """Show who did what in the tournament, oldest first: /log, /log 5, /log all."""
    state = await s.tournament()
    number = a.match("match")
    everything = a.choice("all") is not None
    if number is not None:
        # A match's story has the rules' part too: lateness points, a forfeit, a report
        # that stood by itself.
        acts = await s.uow.audit.acts(state.id, limit=SCANNED)
        acts = [act for act in acts if act[2].get("match") == number]
    else:
        scanned = SHOWN if everything else SCANNED
        acts = await s.uow.audit.acts(state.id, limit=scanned, not_by=AUTOMATIC)
        if not everything:
            acts = [act for act in acts if act[1] in BY_DIRECTORS]
    acts = acts[-SHOWN:] if number is None else acts
    if number is not None:
        acts = [act for act in acts if act[0] != AUTOMATIC or act[1] in EFFECTS]
    tournament = Name(state.name)
    if not acts:
        if number is not None:
            return Reply(
                (msg("log.empty_match", tournament=tournament, match=number),), private=True
            )
        return Reply((msg("log.empty", tournament=tournament),), private=True)
    names = await s.names(set(state.entries))
    lines = []
    for actor, action, detail, at in acts:
        if actor == AUTOMATIC:
            effect = _effect(action, detail, names)
            if effect is not None:
                lines.append(msg("log.effect", when=_when(s, at), what=effect))
            continue
        what = _said(action, detail, state.matches, names, s.club.timezone)
        if what is not None:
            lines.append(msg("log.line", when=_when(s, at), who=Name(_who(actor)), what=what))
    title = (
        msg("log.title_match", tournament=tournament, match=number)
        if number is not None
        else msg("log.title", tournament=tournament, count=len(lines))
    )
    return Reply((title, *lines), private=True)


def _said(
    action: str, detail: Detail, matches: Mapping[int, Any], names: Mapping[int, str], zone: str
) -> Msg | Hint | None:
    """Return an act as it is shown: its command, or a report in words."""
    if action == "report":
        match = matches.get(int(detail["match"]))
        white = names.get(match.white, "?") if match is not None and match.white else "?"
        black = names.get(match.black, "?") if match is not None and match.black else "?"
        return msg(
            "log.report",
            match=detail["match"],
            white=Name(white),
            black=Name(black),
            score=shown_score(
                int(detail["white"]),
                int(detail["black"]),
                tuple((int(w), int(b)) for w, b in detail.get("tiebreaks") or ()),
                detail.get("lot"),
            ),
        )
    if action == "tournament_move":
        # Stored in UTC; typed, and shown, on the club's clock.
        start = local(datetime.fromisoformat(str(detail["start"])), zone)
        return Hint(f'/tournament move start:"{start:%Y-%m-%d %H:%M}"{_reason(detail)}')
    said = DIRECTOR_ACTS.get(action) or PLAYER_ACTS.get(action)
    return None if said is None else Hint(said(detail))


def _effect(action: str, detail: Detail, names: Mapping[int, str]) -> Msg | None:
    """Return what the rules did to a match, in words, or None for what is not shown."""
    if action == "LatenessPoint":
        return msg(
            "log.late",
            player=Name(names.get(detail["against"], "?")),
            minutes=int(detail["minutes_late"]),
            points=int(detail["points"]),
            opponent=Name(names.get(detail["to"], "?")),
        )
    if action == "MatchForfeited":
        losers = ", ".join(names.get(p, "?") for p in detail["losers"])
        return msg("log.forfeit", players=Name(losers), why=msg(f"log.why.{detail['reason']}"))
    if action == "MatchFinished" and detail.get("how") == "timeout":
        return msg("log.stood")
    return None


def _who(actor: str) -> str:
    """Return the name an actor ("platform:id (name)") went by."""
    _, _, name = actor.partition(" (")
    return name[:-1] if name.endswith(")") else actor


def _when(s: Session, at: datetime) -> When:
    """Return an act's moment: its time tonight, with its day when it was another."""
    zone = s.club.timezone
    same_day = local(at, zone).date() == local(s.now, zone).date()
    return When(at, "time" if same_day else "datetime")
