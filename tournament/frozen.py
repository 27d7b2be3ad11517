"""The core's many small immutable records (events, scores, brackets, standings).

`@frozen` makes a slotted dataclass compared and hashed by its fields, as
`@dataclass(frozen=True, slots=True)` does, and read-only to the type checker
(`frozen_default`, mypy strict on `tournament/`): assigning a field is a type error.

Why not `frozen=True`: a frozen dataclass's `__init__` sets each field through
`object.__setattr__`, ~2 us for an event of eight fields against ~0.3 us, and a
46-player tournament makes ~300 such records (a result's score and event, each bracket
match, each table): 14% of a whole simulated tournament (bench.core, issue 17). What is
given up is the run-time guard only; nothing in the core assigns to a record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def frozen(cls: type[_T]) -> type[_T]:
    """Make `cls` an immutable record: slotted, equal and hashed by its fields."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
