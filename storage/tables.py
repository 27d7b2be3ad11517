"""Every table of clubtd, as SQLModel classes; the repositories map them to core types.

Child tables of a tournament have their own id, so reading them by id gives the order
they were added in (the order of the state's dicts), and a UNIQUE pair that makes each
fact exist once: `(tournament_id, key)` of a done action is what makes an automatic
effect idempotent below the code (ARCHITECTURE idea 1).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import BigInteger, Index, String, Table, UniqueConstraint, true
from sqlmodel import Field, SQLModel

from storage.types import JSONType, UTCDateTime

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = SQLModel.metadata

CASCADE = "CASCADE"
SET_NULL = "SET NULL"
RESTRICT = "RESTRICT"


def _fk(target: str, ondelete: str = CASCADE, *, index: bool = False) -> Any:
    return Field(foreign_key=target, ondelete=ondelete, index=index)  # type: ignore[call-overload]


def _opt_fk(target: str, ondelete: str = SET_NULL) -> Any:
    return Field(default=None, foreign_key=target, ondelete=ondelete)  # type: ignore[call-overload]


def _time() -> Any:
    return Field(sa_type=UTCDateTime)


def _opt_time() -> Any:
    return Field(default=None, sa_type=UTCDateTime)


# -- clubs and people --


class ClubRecord(SQLModel, table=True):
    __tablename__ = "clubs"

    id: int | None = Field(default=None, primary_key=True)
    name: str
    timezone: str
    language: str
    pictures: bool = Field(default=True, sa_column_kwargs={"server_default": true()})
    approval: bool | None = None  # approving members (HGV-1.4); None: each preset says
    # The public pages' secret path (INTERFACE §6): None while the pages are off.
    web_token: str | None = Field(default=None, unique=True)
    created_at: datetime = _time()


class ChatRecord(SQLModel, table=True):
    __tablename__ = "chats"
    __table_args__ = (UniqueConstraint("platform", "chat"),)

    id: int | None = Field(default=None, primary_key=True)
    platform: str
    chat: str
    club_id: int = _fk("clubs.id", index=True)
    # "pending": joined with a link code, not yet confirmed by a director of the club;
    # it gets no announcements and runs no commands until then.
    status: str = "active"


class LinkCodeRecord(SQLModel, table=True):
    __tablename__ = "link_codes"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(unique=True)  # the SHA-256 of the code: the code itself is not kept
    club_id: int = _fk("clubs.id", index=True)
    expires_at: datetime = _time()
    used_at: datetime | None = _opt_time()
    created_by: str = ""  # "platform:user" of the director who asked for it


class DirectorRecord(SQLModel, table=True):
    __tablename__ = "directors"
    __table_args__ = (UniqueConstraint("club_id", "platform", "external_id"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = _fk("clubs.id")
    platform: str
    external_id: str


class PlayerRecord(SQLModel, table=True):
    __tablename__ = "players"
    # Unique: two people registering one name at the same moment get one player, on
    # PostgreSQL too (a check-then-insert alone lets both through).
    __table_args__ = (Index(None, "club_id", "name_key", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = _fk("clubs.id")
    name: str
    name_key: str  # the name folded for look-ups: casefold, single spaces
    born: date | None = None
    member: bool = True
    novice: bool = False
    created_at: datetime = _time()
    language: str | None = None  # of their direct messages; None: the club's


class AccountRecord(SQLModel, table=True):
    __tablename__ = "accounts"
    __table_args__ = (
        UniqueConstraint("club_id", "platform", "external_id"),
        Index(None, "platform", "external_id"),  # the clubs of an account, in any club
    )

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = _fk("players.id", index=True)
    club_id: int = _fk("clubs.id")
    platform: str
    external_id: str


# -- tournaments and their facts --


class TournamentRecord(SQLModel, table=True):
    __tablename__ = "tournaments"
    __table_args__ = (
        Index(None, "club_id", "status", "start"),
        Index(None, "club_id", "name_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = _fk("clubs.id")
    name: str
    name_key: str
    preset_name: str
    overrides: dict[str, str] = Field(default_factory=dict, sa_type=JSONType)
    start: datetime = _time()
    seed: int = Field(sa_type=BigInteger)
    status: str
    official: bool = True
    created_at: datetime | None = _opt_time()
    finished_at: datetime | None = _opt_time()
    draw: dict[str, Any] | None = Field(default=None, sa_type=JSONType)
    groups: list[Any] = Field(default_factory=list, sa_type=JSONType)
    version: int = 1


class EntryRecord(SQLModel, table=True):
    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("tournament_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = _fk("tournaments.id")
    # A player's history must not vanish with the player: RESTRICT, not CASCADE.
    player_id: int = _fk("players.id", RESTRICT, index=True)
    registered_at: datetime = _time()
    status: str
    approved: bool = True
    confirmed_at: datetime | None = _opt_time()
    withdrawn_at: datetime | None = _opt_time()
    seed: int | None = None
    born: date | None = None
    novice: bool = False
    knockout_forfeit: bool = False
    presence: list[Any] = Field(default_factory=list, sa_type=JSONType)


class MatchRecord(SQLModel, table=True):
    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = _fk("tournaments.id")
    number: int
    stage: str
    round: int
    length: int
    white: int | None = None
    black: int | None = None
    start: datetime | None = _opt_time()
    group_name: str | None = None
    bracket_key: str | None = None
    round_name: str | None = None
    bracket_index: int = 0
    white_from: str | None = None
    black_from: str | None = None
    created_at: datetime | None = _opt_time()
    status: str
    white_score: int = 0
    black_score: int = 0
    winner: int | None = None
    forfeited_by: list[int] = Field(default_factory=list, sa_type=JSONType)
    finished_at: datetime | None = _opt_time()
    report: dict[str, Any] | None = Field(default=None, sa_type=JSONType)
    report_seq: int = 0  # the last report number given in the match (0008)
    disputed_by: int | None = None
    games: list[Any] = Field(default_factory=list, sa_type=JSONType)
    tiebreaks: list[Any] = Field(default_factory=list, sa_type=JSONType)
    lot_winner: str | None = None
    pauses: list[Any] = Field(default_factory=list, sa_type=JSONType)


class PenaltyRecord(SQLModel, table=True):
    __tablename__ = "penalties"
    __table_args__ = (UniqueConstraint("tournament_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = _fk("tournaments.id")
    key: str
    match_number: int
    against: int
    points: int
    at: datetime = _time()
    cancelled: bool = False


class DoneRecord(SQLModel, table=True):
    """An automatic effect applied once: its key and when it was due."""

    __tablename__ = "done_actions"
    __table_args__ = (UniqueConstraint("tournament_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = _fk("tournaments.id")
    key: str
    due: datetime = _time()


class PlacementRecord(SQLModel, table=True):
    __tablename__ = "placements"
    __table_args__ = (UniqueConstraint("tournament_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = _fk("tournaments.id")
    player_id: int = _fk("players.id", RESTRICT, index=True)
    ordinal: int  # position in the state's list, which is the order results are shown in
    place: int | None = None
    points: str = Field(sa_type=String(16))  # a decimal string, e.g. "2.30"


# -- club-wide records --


class SanctionRecord(SQLModel, table=True):
    __tablename__ = "sanctions"

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = _fk("clubs.id", index=True)
    player_id: int = _fk("players.id", index=True)
    reason: str
    origin: int | None = _opt_fk("tournaments.id")
    applies_to: int | None = _opt_fk("tournaments.id")
    created_at: datetime = _time()
    note: str = ""
    kind: str = "suspension"
    active: bool = True
    ended_at: datetime | None = _opt_time()
    ended_by: str = ""
    ended_note: str = ""


class RankingImportRecord(SQLModel, table=True):
    __tablename__ = "imported_rankings"
    __table_args__ = (UniqueConstraint("club_id", "game", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = _fk("clubs.id")
    game: str  # each game has its own ranking: "backgammon", "draughts"
    player_id: int = _fk("players.id", index=True)
    position: int
    points: str = Field(sa_type=String(32))  # a decimal string: exact on every database
    imported_at: datetime | None = _opt_time()  # the season it belongs to


class OutboxRecord(SQLModel, table=True):
    __tablename__ = "outbox"
    __table_args__ = (
        Index(None, "platform", "status", "next_attempt_at"),
        Index(None, "platform", "chat", "coalesce_key", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = _fk("clubs.id", index=True)
    platform: str
    chat: str
    payload: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    coalesce_key: str | None = None
    created_at: datetime = _time()
    expires_at: datetime | None = _opt_time()
    status: str = "pending"  # pending | sent | superseded | expired | failed
    attempts: int = 0
    next_attempt_at: datetime = _time()
    leased_until: datetime | None = _opt_time()
    last_attempt_at: datetime | None = _opt_time()
    sent_at: datetime | None = _opt_time()
    platform_message_id: str | None = None
    last_error: str | None = None


class ProcessedUpdateRecord(SQLModel, table=True):
    __tablename__ = "processed_updates"
    __table_args__ = (UniqueConstraint("platform", "update_id"),)

    id: int | None = Field(default=None, primary_key=True)
    platform: str
    update_id: str
    at: datetime = Field(sa_type=UTCDateTime, index=True)


class AuditRecord(SQLModel, table=True):
    __tablename__ = "audit_log"
    __table_args__ = (Index(None, "club_id", "at"), Index(None, "tournament_id"))

    id: int | None = Field(default=None, primary_key=True)
    club_id: int | None = _opt_fk("clubs.id")
    tournament_id: int | None = _opt_fk("tournaments.id")
    actor: str
    action: str
    detail: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    at: datetime = _time()


class ButtonTokenRecord(SQLModel, table=True):
    """A button command too long for Telegram's 64-byte callback data, by its token."""

    __tablename__ = "button_tokens"

    token: str = Field(primary_key=True)
    command: str
    created_at: datetime = Field(sa_type=UTCDateTime, index=True)


class MetaRecord(SQLModel, table=True):
    __tablename__ = "meta"

    key: str = Field(primary_key=True)
    value: str


def table_of(model: type[SQLModel]) -> Table:
    """Return the Core table of a record class."""
    table: Table = model.__table__  # type: ignore[attr-defined]
    return table


clubs = table_of(ClubRecord)
chats = table_of(ChatRecord)
link_codes = table_of(LinkCodeRecord)
directors = table_of(DirectorRecord)
players = table_of(PlayerRecord)
accounts = table_of(AccountRecord)
tournaments = table_of(TournamentRecord)
entries = table_of(EntryRecord)
matches = table_of(MatchRecord)
penalties = table_of(PenaltyRecord)
done_actions = table_of(DoneRecord)
placements = table_of(PlacementRecord)
sanctions = table_of(SanctionRecord)
ranking_imports = table_of(RankingImportRecord)
outbox = table_of(OutboxRecord)
processed_updates = table_of(ProcessedUpdateRecord)
audit_log = table_of(AuditRecord)
button_tokens = table_of(ButtonTokenRecord)
meta = table_of(MetaRecord)
