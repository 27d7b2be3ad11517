"""Column types: aware-UTC datetimes on every database, JSON, and JSON helpers."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine


class NaiveDatetimeError(ValueError):
    """A naive datetime reached storage; every stored time must be aware."""


def to_utc(value: datetime) -> datetime:
    """Return `value` in UTC; refuse a naive datetime."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise NaiveDatetimeError(f"naive datetime {value!r}: pass an aware (UTC) time")
    return value.astimezone(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always returned aware (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        utc = to_utc(value)
        # SQLite's DATETIME text has no offset: store the UTC wall time, add UTC on the way out.
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class JSONDocument(TypeDecorator[Any]):
    """JSONB on PostgreSQL (indexable, compact); JSON text elsewhere. None is SQL NULL."""

    impl = JSON(none_as_null=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        # Chosen per dialect rather than with_variant(JSONB): importing the PostgreSQL
        # dialect costs ~20 ms of every command on SQLite (issue 17, start-up).
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            return dialect.type_descriptor(JSONB(none_as_null=True))
        return dialect.type_descriptor(JSON(none_as_null=True))


JSONType: TypeEngine[Any] = JSONDocument()


def time_to_json(value: datetime | None) -> str | None:
    """Return an ISO 8601 UTC text for a JSON document."""
    return None if value is None else to_utc(value).isoformat()


def time_from_json(value: str | None) -> datetime | None:
    """Return the aware UTC datetime of an ISO 8601 text."""
    return None if value is None else datetime.fromisoformat(value).astimezone(UTC)


def required_time_from_json(value: str) -> datetime:
    """Return the aware UTC datetime of an ISO 8601 text that must be there."""
    return datetime.fromisoformat(value).astimezone(UTC)
