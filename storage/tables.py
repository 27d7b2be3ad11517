"""Every table of clubtd, as SQLAlchemy Core tables; the repositories map them to core
types.

Plain Core, not SQLModel classes: building the pydantic models cost ~0.4 s of every
start-up (`clubtd export`, the console) for columns nobody read as models (issue 17).

Child tables of a tournament have their own id, so reading them by id gives the order
they were added in (the order of the state's dicts), and a UNIQUE pair that makes each
fact exist once: `(tournament_id, key)` of a done action is what makes an automatic
effect idempotent below the code (ARCHITECTURE idea 1).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    text,
    true,
)

from storage.types import JSONType, UTCDateTime

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

# -- clubs and people --

clubs = Table(
    "clubs",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column("name", String(), nullable=False),
    Column("timezone", String(), nullable=False),
    Column("language", String(), nullable=False),
    Column("pictures", Boolean(), nullable=False, default=True, server_default=true()),
    Column(
        "approval", Boolean(), nullable=True
    ),  # approving members (HGV-1.4); None: each preset says
    # The public pages' secret path (INTERFACE §6): None while the pages are off.
    Column("web_token", String(), nullable=True, unique=True),
    Column("created_at", UTCDateTime(), nullable=False),
    # Bumped with every change to the club's players, accounts or directors: a process
    # caches the roster and checks this one number (storage/repositories/roster.py).
    Column("roster_version", Integer(), nullable=False, default=0, server_default=text("0")),
)

chats = Table(
    "chats",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column("platform", String(), nullable=False),
    Column("chat", String(), nullable=False),
    Column(
        "club_id",
        Integer(),
        ForeignKey("clubs.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    # "pending": joined with a link code, not yet confirmed by a director of the club;
    # it gets no announcements and runs no commands until then.
    Column("status", String(), nullable=False, default="active"),
    UniqueConstraint("platform", "chat"),
)

link_codes = Table(
    "link_codes",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "code", String(), nullable=False, unique=True
    ),  # the SHA-256 of the code: the code itself is not kept
    Column(
        "club_id",
        Integer(),
        ForeignKey("clubs.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("expires_at", UTCDateTime(), nullable=False),
    Column("used_at", UTCDateTime(), nullable=True),
    Column(
        "created_by", String(), nullable=False, default=""
    ),  # "platform:user" of the director who asked for it
)

directors = Table(
    "directors",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column("club_id", Integer(), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("platform", String(), nullable=False),
    Column("external_id", String(), nullable=False),
    UniqueConstraint("club_id", "platform", "external_id"),
)

players = Table(
    "players",
    metadata,
    # Unique: two people registering one name at the same moment get one player, on
    # PostgreSQL too (a check-then-insert alone lets both through).
    Column("id", Integer(), primary_key=True),
    Column("club_id", Integer(), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(), nullable=False),
    Column(
        "name_key", String(), nullable=False
    ),  # the name folded for look-ups: casefold, single spaces
    Column("born", Date(), nullable=True),
    Column("member", Boolean(), nullable=False, default=True),
    Column("novice", Boolean(), nullable=False, default=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("language", String(), nullable=True),  # of their direct messages; None: the club's
    Index(None, "club_id", "name_key", unique=True),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "player_id",
        Integer(),
        ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("club_id", Integer(), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("platform", String(), nullable=False),
    Column("external_id", String(), nullable=False),
    UniqueConstraint("club_id", "platform", "external_id"),
    Index(None, "platform", "external_id"),  # the clubs of an account, in any club
)

# -- tournaments and their facts --

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column("club_id", Integer(), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(), nullable=False),
    Column("name_key", String(), nullable=False),
    Column("preset_name", String(), nullable=False),
    Column("overrides", JSONType, nullable=False, default=dict),
    Column("start", UTCDateTime(), nullable=False),
    Column("seed", BigInteger(), nullable=False),
    Column("status", String(), nullable=False),
    Column("official", Boolean(), nullable=False, default=True),
    Column("created_at", UTCDateTime(), nullable=True),
    Column("finished_at", UTCDateTime(), nullable=True),
    Column("draw", JSONType, nullable=True),
    Column("groups", JSONType, nullable=False, default=list),
    Column("version", Integer(), nullable=False, default=1),
    Index(None, "club_id", "status", "start"),
    Index(None, "club_id", "name_key"),
)

entries = Table(
    "entries",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "tournament_id",
        Integer(),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
    ),
    # A player's history must not vanish with the player: RESTRICT, not CASCADE.
    Column(
        "player_id",
        Integer(),
        ForeignKey("players.id", ondelete="RESTRICT"),
        nullable=False,
        index=True,
    ),
    Column("registered_at", UTCDateTime(), nullable=False),
    Column("status", String(), nullable=False),
    Column("approved", Boolean(), nullable=False, default=True),
    Column("confirmed_at", UTCDateTime(), nullable=True),
    Column("withdrawn_at", UTCDateTime(), nullable=True),
    Column("seed", Integer(), nullable=True),
    Column("born", Date(), nullable=True),
    Column("novice", Boolean(), nullable=False, default=False),
    Column("knockout_forfeit", Boolean(), nullable=False, default=False),
    Column("presence", JSONType, nullable=False, default=list),
    UniqueConstraint("tournament_id", "player_id"),
)

matches = Table(
    "matches",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "tournament_id",
        Integer(),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("number", Integer(), nullable=False),
    Column("stage", String(), nullable=False),
    Column("round", Integer(), nullable=False),
    Column("length", Integer(), nullable=False),
    Column("white", Integer(), nullable=True),
    Column("black", Integer(), nullable=True),
    Column("start", UTCDateTime(), nullable=True),
    Column("group_name", String(), nullable=True),
    Column("bracket_key", String(), nullable=True),
    Column("round_name", String(), nullable=True),
    Column("bracket_index", Integer(), nullable=False, default=0),
    Column("white_from", String(), nullable=True),
    Column("black_from", String(), nullable=True),
    Column("created_at", UTCDateTime(), nullable=True),
    Column("status", String(), nullable=False),
    Column("white_score", Integer(), nullable=False, default=0),
    Column("black_score", Integer(), nullable=False, default=0),
    Column("winner", Integer(), nullable=True),
    Column("forfeited_by", JSONType, nullable=False, default=list),
    Column("finished_at", UTCDateTime(), nullable=True),
    Column("report", JSONType, nullable=True),
    Column(
        "report_seq", Integer(), nullable=False, default=0
    ),  # the last report number given in the match (0008)
    Column("disputed_by", Integer(), nullable=True),
    Column("games", JSONType, nullable=False, default=list),
    Column("tiebreaks", JSONType, nullable=False, default=list),
    Column("lot_winner", String(), nullable=True),
    Column("pauses", JSONType, nullable=False, default=list),
    UniqueConstraint("tournament_id", "number"),
)

penalties = Table(
    "penalties",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "tournament_id",
        Integer(),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("key", String(), nullable=False),
    Column("match_number", Integer(), nullable=False),
    Column("against", Integer(), nullable=False),
    Column("points", Integer(), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Column("cancelled", Boolean(), nullable=False, default=False),
    UniqueConstraint("tournament_id", "key"),
)

# An automatic effect applied once: its key and when it was due.
done_actions = Table(
    "done_actions",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "tournament_id",
        Integer(),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("key", String(), nullable=False),
    Column("due", UTCDateTime(), nullable=False),
    UniqueConstraint("tournament_id", "key"),
)

placements = Table(
    "placements",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "tournament_id",
        Integer(),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column(
        "player_id",
        Integer(),
        ForeignKey("players.id", ondelete="RESTRICT"),
        nullable=False,
        index=True,
    ),
    Column(
        "ordinal", Integer(), nullable=False
    ),  # position in the state's list, which is the order results are shown in
    Column("place", Integer(), nullable=True),
    Column("points", String(16), nullable=False),  # a decimal string, e.g. "2.30"
    UniqueConstraint("tournament_id", "player_id"),
)

# -- club-wide records --

sanctions = Table(
    "sanctions",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "club_id",
        Integer(),
        ForeignKey("clubs.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column(
        "player_id",
        Integer(),
        ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("reason", String(), nullable=False),
    Column("origin", Integer(), ForeignKey("tournaments.id", ondelete="SET NULL"), nullable=True),
    Column(
        "applies_to", Integer(), ForeignKey("tournaments.id", ondelete="SET NULL"), nullable=True
    ),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("note", String(), nullable=False, default=""),
    Column("kind", String(), nullable=False, default="suspension"),
    Column("active", Boolean(), nullable=False, default=True),
    Column("ended_at", UTCDateTime(), nullable=True),
    Column("ended_by", String(), nullable=False, default=""),
    Column("ended_note", String(), nullable=False, default=""),
)

ranking_imports = Table(
    "imported_rankings",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column("club_id", Integer(), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column(
        "game", String(), nullable=False
    ),  # each game has its own ranking: "backgammon", "draughts"
    Column(
        "player_id",
        Integer(),
        ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("position", Integer(), nullable=False),
    Column("points", String(32), nullable=False),  # a decimal string: exact on every database
    Column("imported_at", UTCDateTime(), nullable=True),  # the season it belongs to
    UniqueConstraint("club_id", "game", "player_id"),
)

outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column(
        "club_id",
        Integer(),
        ForeignKey("clubs.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("platform", String(), nullable=False),
    Column("chat", String(), nullable=False),
    Column("payload", JSONType, nullable=False, default=dict),
    Column("coalesce_key", String(), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=True),
    Column(
        "status", String(), nullable=False, default="pending"
    ),  # pending | sent | superseded | expired | failed
    Column("attempts", Integer(), nullable=False, default=0),
    Column("next_attempt_at", UTCDateTime(), nullable=False),
    Column("leased_until", UTCDateTime(), nullable=True),
    Column("last_attempt_at", UTCDateTime(), nullable=True),
    Column("sent_at", UTCDateTime(), nullable=True),
    Column("platform_message_id", String(), nullable=True),
    Column("last_error", String(), nullable=True),
    Index(None, "platform", "chat", "coalesce_key", "status"),
    Index(None, "platform", "status", "next_attempt_at"),
)

processed_updates = Table(
    "processed_updates",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column("platform", String(), nullable=False),
    Column("update_id", String(), nullable=False),
    Column("at", UTCDateTime(), nullable=False, index=True),
    UniqueConstraint("platform", "update_id"),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer(), primary_key=True),
    Column("club_id", Integer(), ForeignKey("clubs.id", ondelete="SET NULL"), nullable=True),
    Column(
        "tournament_id",
        Integer(),
        ForeignKey("tournaments.id", ondelete="SET NULL"),
        nullable=True,
    ),
    Column("actor", String(), nullable=False),
    Column("action", String(), nullable=False),
    Column("detail", JSONType, nullable=False, default=dict),
    Column("at", UTCDateTime(), nullable=False),
    Index(None, "club_id", "at"),
    Index(None, "tournament_id"),
)

# A button command too long for Telegram's 64-byte callback data, by its token.
button_tokens = Table(
    "button_tokens",
    metadata,
    Column("token", String(), primary_key=True),
    Column("command", String(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False, index=True),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(), primary_key=True),
    Column("value", String(), nullable=False),
)
