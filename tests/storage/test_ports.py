"""The storage classes fit the protocols of commands.ports, method for method."""

from __future__ import annotations

import inspect
import typing
from typing import Any

import pytest

from commands import ports
from storage.housekeeping import SqlHousekeeping
from storage.outbox import SqlOutbox
from storage.repositories.club_records import (
    SqlAuditLog,
    SqlMeta,
    SqlProcessedUpdates,
    SqlRankingRepository,
    SqlSanctionRepository,
)
from storage.repositories.clubs import SqlClubRepository
from storage.repositories.players import SqlPlayerRepository
from storage.repositories.tournaments import SqlTournamentRepository
from storage.unit_of_work import SqlUnitOfWork

PAIRS = [
    (ports.ClubRepository, SqlClubRepository),
    (ports.PlayerRepository, SqlPlayerRepository),
    (ports.TournamentRepository, SqlTournamentRepository),
    (ports.SanctionRepository, SqlSanctionRepository),
    (ports.RankingRepository, SqlRankingRepository),
    (ports.Outbox, SqlOutbox),
    (ports.AuditLog, SqlAuditLog),
    (ports.ProcessedUpdates, SqlProcessedUpdates),
    (ports.Meta, SqlMeta),
    (ports.Housekeeping, SqlHousekeeping),
    (ports.UnitOfWork, SqlUnitOfWork),
]


def _methods(protocol: type) -> dict[str, Any]:
    return {
        name: value
        for name, value in vars(protocol).items()
        if inspect.isfunction(value) and (not name.startswith("_") or name.startswith("__a"))
    }


def _text(annotation: Any) -> str:
    # `builtins.list` where a method named `list` shadows the builtin in a class body.
    return " ".join(str(annotation).split()).replace("builtins.", "")


def _shape(function: Any) -> list[tuple[str, Any, Any, str]]:
    signature = inspect.signature(function)
    return [
        (p.name, p.kind, p.default, _text(p.annotation)) for p in signature.parameters.values()
    ] + [("return", None, None, _text(signature.return_annotation))]


@pytest.mark.parametrize("protocol, implementation", PAIRS, ids=[p.__name__ for p, _ in PAIRS])
def test_every_protocol_method_exists_with_the_same_signature(
    protocol: type, implementation: type
) -> None:
    for name, method in _methods(protocol).items():
        ours = getattr(implementation, name, None)
        assert ours is not None, f"{implementation.__name__}.{name} is missing"
        assert inspect.iscoroutinefunction(ours) == inspect.iscoroutinefunction(method), name
        assert _shape(ours) == _shape(method), f"{implementation.__name__}.{name}"


def test_the_unit_of_work_has_every_repository() -> None:
    """Each repository the port promises is there, as the implementation of its port."""
    promised = {
        name: returned
        for name, value in vars(ports.UnitOfWork).items()
        if isinstance(value, property)
        # must_retry_locked is a flag, not a repository
        and (returned := typing.get_type_hints(value.fget)["return"]) is not bool
    }
    assert len(promised) == 10  # clubs, players, tournaments, ... (properties, not fields)
    implemented = typing.get_type_hints(SqlUnitOfWork)
    implementation_of = dict(PAIRS)
    for name, port in promised.items():
        assert name in implemented, f"SqlUnitOfWork.{name} is missing"
        assert implemented[name] is implementation_of[port], name
