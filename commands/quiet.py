"""A quiet channel on the chat platforms (issue 20): one post per command, one live board.

What one command (or one sweep) tells the club's Discord and Telegram chats becomes one
message: a result, the knockout it starts and the round it calls are said together,
not one post each. The group tables and the bracket live in one board per tournament,
edited in place (its coalesce key): the draw's own message becomes that board, so the
first result edits it instead of posting the tables anew. The console keeps one line
per event (INTERFACE §3); players' own messages are not touched.
"""

from __future__ import annotations

from commands import pictures, views
from commands.notices import Names, Notice
from commands.replies import Msg, Name, Part, Picture, Reply, Table, When, msg
from tournament.model import EntryStatus, Stage, TournamentStatus
from tournament.state import TournamentState

# Platforms whose club chats get the gathered posts; the console keeps its lines.
CHAT_PLATFORMS = frozenset({"discord", "telegram"})
LIVE_PREFIXES = ("standings:", "bracket:")


def board_key(state: TournamentState) -> str:
    return f"board:{state.id}"


def _playing(state: TournamentState, names: Names) -> list[Part]:
    """Return the group matches being played or called next, table by table: the board
    keeps the round's call in view after its post became the board."""
    if state.status is not TournamentStatus.GROUPS:
        return []
    playing = sorted(
        (
            m
            for m in state.matches.values()
            if m.stage in (Stage.GROUP, Stage.TIEBREAK) and m.is_ready and not m.is_final
        ),
        key=lambda m: (m.start or state.start, views.table_number(state, m), m.number),
    )
    if not playing:
        return []
    calls: list[Part] = [msg("board.playing")]
    return calls + [
        msg(
            "call.match",
            table=views.table_number(state, m),
            match=m.number,
            white=views.name(names, m.white),
            black=views.name(names, m.black),
        )
        for m in playing
    ]


def entries_key(state: TournamentState) -> str:
    return f"entries:{state.id}"


def entries_board(state: TournamentState, names: Names) -> Reply:
    """Return the registration's live board: the tournament's opening line, then who is
    entered, confirmed and checked in (the post that opened it, edited in place)."""
    opened = msg(
        "tournament.open",
        tournament=Name(state.name),
        start=When(state.start, "datetime"),
        preset=state.preset.id,
    )
    entries = [e for e in state.entries.values() if e.status is EntryStatus.ACTIVE]
    if not entries:
        return Reply((opened,))
    entries.sort(key=lambda e: e.registered_at)
    mark = {True: "\u2713", False: ""}
    table = Table(
        title=msg("title.entries", count=len(entries)),
        header=(msg("col.player"), msg("col.confirmed"), msg("col.present")),
        rows=tuple(
            (views.name(names, e.player), mark[e.confirmed], mark[e.checked_in]) for e in entries
        ),
    )
    return Reply((opened, table))


def board(state: TournamentState, names: Names) -> Reply:
    """Return the tournament's live board: the draw's line, the group tables, then the
    bracket once the knockout has begun."""
    parts: list[Part] = []
    if state.draw is not None:
        parts.append(
            msg(
                "draw.done",
                groups=len(state.groups),
                matches=len(state.stage_matches(Stage.GROUP)),
                seed=state.draw.seed,
                fingerprint=state.draw.fingerprint,
            )
        )
    parts += _playing(state, names)
    parts += [pictures.group_picture(state, group, names) for group in state.groups]
    knockout = state.status in (TournamentStatus.KNOCKOUT, TournamentStatus.FINISHED)
    if knockout:
        bracket = pictures.bracket_picture(state, names, text=False)
        if bracket is not None:
            parts.append(bracket)
    return Reply(tuple(parts))


def gather(state: TournamentState | None, notices: list[Notice], names: Names) -> list[Notice]:
    """Return the club's notices of one command as the chat platforms get them: one
    message for what happened, and the live board when a table or the bracket changed."""
    club = [n for n in notices if n.player is None]
    if not club and not (state is not None and registering(state) and state.entries):
        return []
    live = [n for n in club if n.coalesce and n.coalesce.startswith(LIVE_PREFIXES)]
    said = [n for n in club if n not in live]
    drawn = state is not None and any(_is_draw(n) for n in said)
    out: list[Notice] = []
    entering = state is not None and registering(state)
    if entering and state is not None:
        # The opening post is the registration's board: each entry edits it.
        opening = [n for n in said if _is_opening(n)]
        board_now = Notice(entries_board(state, names), coalesce=entries_key(state))
        if opening:
            said = [n for n in said if n not in opening]
            board_now.answers = any(n.answers for n in opening)  # /tournament new's reply
            out.append(board_now)
        elif state.entries:
            out.append(board_now)
    if said:
        parts = tuple(p for n in said for p in n.reply.parts if not _live_picture(p, live))
        buttons = tuple(b for n in said for b in n.reply.buttons)
        expiring = [n.expires_at for n in said]
        expires = None if None in expiring else max(e for e in expiring if e is not None)
        coalesce = said[0].coalesce if len(said) == 1 else None
        if drawn and state is not None:
            coalesce = board_key(state)  # the draw's message is the board from now on
        answers = any(n.answers for n in said)  # it says the command's own act
        out.append(
            Notice(Reply(parts, buttons), coalesce=coalesce, expires_at=expires, answers=answers)
        )
    if live and state is not None and not drawn:
        out.append(Notice(board(state, names), coalesce=board_key(state)))
    return out


def registering(state: TournamentState) -> bool:
    """Whether a tournament takes entries: its registration board is live."""
    return state.status is TournamentStatus.REGISTRATION and state.draw is None


def _is_opening(notice: Notice) -> bool:
    first = notice.reply.parts[0] if notice.reply.parts else None
    return isinstance(first, Msg) and first.key == "tournament.open"


def _is_draw(notice: Notice) -> bool:
    first = notice.reply.parts[0] if notice.reply.parts else None
    return isinstance(first, Msg) and first.key == "draw.done"


def _live_picture(part: object, live: list[Notice]) -> bool:
    """A bracket picture in a post, when the board shows the bracket anyway."""
    return bool(live) and isinstance(part, Picture) and part.name.endswith("-bracket")
