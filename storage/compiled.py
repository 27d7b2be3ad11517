"""Core statements compiled once by SQLAlchemy, for a driver to run itself.

SQLAlchemy's execution of a statement (an execution context, a cursor result, events;
on asyncio, greenlet switches and a DB-API adapter) cost more than the statement: ~78 us
against 13 us for a look-up on SQLite, ~360 us against ~110 us on PostgreSQL (issue
17). So the drivers (storage/sqlite_driver, storage/postgres_driver) ask SQLAlchemy only
for what it knows: the SQL from its compiled cache, the values through its bind
processors, the rows through its result processors. What needs more of SQLAlchemy
(Python-side column defaults, text, several parameter sets returning rows, listeners on
executes, execution options) is left to it: `runnable` returns None.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy.engine.result import IteratorResult, SimpleResultMetaData
from sqlalchemy.sql.compiler import SQLCompiler

# An execution option: this connection's transactions only read (see storage.engine.reader).
READ_ONLY = "clubtd_read_only"
# Connection options a driver honours by itself: both act when the transaction begins.
_HARMLESS = frozenset({"isolation_level", READ_ONLY})


class FastResult(IteratorResult[Any]):
    """The rows of one statement run by a driver, and how many rows it touched."""

    def __init__(self, metadata: SimpleResultMetaData, rows: Sequence[Any], rowcount: int):
        super().__init__(metadata, iter(rows))
        self.rowcount = rowcount


NO_ROWS = SimpleResultMetaData([])


class Plan:
    """What running one compiled statement needs, worked out once per compiled form."""

    __slots__ = ("binds", "direct", "expanding", "metadata", "returns_rows", "sql")

    def __init__(self, compiled: SQLCompiler) -> None:
        processors = compiled._bind_processors
        self.sql: str = compiled.string
        self.binds: list[tuple[str, Any]] = [
            (key, processors.get(key)) for key in compiled.positiontup or ()
        ]
        # An IN of a list: the SQL has one parameter per item, rendered for each call.
        self.expanding = bool(compiled.post_compile_params)
        # The names of the values a call passes itself: when every bound value is one of
        # them (named as its own key, no literal SQLAlchemy extracted), they are the
        # values, and `construct_params` (~5 us a statement) is not needed.
        named = {name: bind for bind, name in compiled.bind_names.items()}
        names = frozenset(compiled.positiontup or ())
        direct = not self.expanding and not compiled.escaped_bind_names
        direct = direct and all(n in named and named[n].key == n for n in names)
        self.direct: frozenset[str] | None = names if direct else None
        self.returns_rows = bool(compiled._result_columns)
        self.metadata: SimpleResultMetaData | None = None  # on the first rows' types


# Keyed by the compiled form SQLAlchemy keeps in its own cache: gone when it is evicted.
_PLANS: weakref.WeakKeyDictionary[SQLCompiler, Plan | None] = weakref.WeakKeyDictionary()


def _plan(compiled: SQLCompiler) -> Plan | None:
    """Return the plan of a compiled statement, or None when a driver cannot run it."""
    if compiled in _PLANS:
        return _PLANS[compiled]
    runnable = not (
        compiled.isplaintext
        or compiled.insert_prefetch
        or compiled.update_prefetch
        or compiled.literal_execute_params
        or compiled.schema_translate_map
        or compiled._insertmanyvalues is not None
        or not compiled.positional
        or not all(callable(process) for process in compiled._bind_processors.values())
        or (
            compiled._result_columns
            and (
                not compiled._ordered_columns
                or compiled._textual_ordered_columns
                or compiled._ad_hoc_textual
            )
        )
    )
    plan = _PLANS[compiled] = Plan(compiled) if runnable else None
    return plan


class Ready(NamedTuple):
    """A statement compiled for one set of parameter names, and how to run it."""

    compiled: Any
    plan: Plan
    extracted: Any
    collected: Any


# What `_ready` found for a statement object, by parameter names and executemany, per
# engine: a statement is immutable, and the ones a command runs are built once (module
# level), so SQLAlchemy's cache key (a walk of the whole statement, ~25 us for a match
# row's update) is worked out once per statement object, not at every execution. Keyed
# weakly by the engine (nothing kept refers back to it), an engine's entries go with it
# by reference counting; an entry goes with its statement.
_FOUND: weakref.WeakKeyDictionary[
    Any, weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], Ready | None]]
] = weakref.WeakKeyDictionary()


def _ready(sync: Any, statement: Any, keys: list[str], *, many: bool) -> Ready | None:
    """Return the statement compiled on the (synchronous) connection `sync` for these
    parameter names, or None when SQLAlchemy must run it."""
    dispatch = sync.dispatch
    if (
        sync._dbapi_connection is None
        or dispatch.before_cursor_execute
        or dispatch.after_cursor_execute
        or dispatch.before_execute
        or dispatch.after_execute
        or getattr(statement, "_execution_options", True)
        or not _HARMLESS.issuperset(sync._execution_options)
        or not hasattr(statement, "_compile_w_cache")
    ):
        return None
    dialect = sync.dialect
    engine = sync.engine
    found_by_statement = _FOUND.get(engine)
    if found_by_statement is None:
        found_by_statement = _FOUND[engine] = weakref.WeakKeyDictionary()
    memo = found_by_statement.get(statement)
    if memo is None:
        memo = found_by_statement[statement] = {}
    key = (engine._compiled_cache is None, many, *keys)
    if key in memo:
        return memo[key]
    compiled, extracted, collected, _ = statement._compile_w_cache(
        dialect=dialect,
        compiled_cache=engine._compiled_cache,
        column_keys=keys,
        for_executemany=many,
        schema_translate_map=None,
        linting=dialect.compiler_linting,
    )
    plan = _plan(compiled) if isinstance(compiled, SQLCompiler) else None
    found = memo[key] = None if plan is None else Ready(compiled, plan, extracted, collected)
    return found


def runnable(
    sync: Any, statement: Any, parameters: Any
) -> tuple[Ready, tuple[Mapping[str, Any] | None, ...]] | None:
    """Return the statement ready for a driver to run on the (synchronous) connection
    `sync`, and its parameter sets (several only for a statement that returns no rows and
    has no IN of a list); None when SQLAlchemy must run it."""
    sets = _parameter_sets(parameters)
    if sets is None:
        return None
    many = len(sets) > 1
    found = _ready(sync, statement, sorted(sets[0]) if sets[0] else [], many=many)
    if found is None or (many and (found.plan.returns_rows or found.plan.expanding)):
        return None
    return found, sets


def arguments(found: Ready, parameters: Mapping[str, Any] | None) -> tuple[str, list[Any]]:
    """Return the SQL and its positional values for one set of parameters."""
    compiled, plan = found.compiled, found.plan
    direct = plan.direct
    values: Mapping[str, Any]
    if direct is not None and parameters is not None and parameters.keys() >= direct:
        values = parameters
    else:
        values = compiled.construct_params(
            parameters,
            escape_names=False,
            extracted_parameters=found.extracted,
            _collected_params=found.collected,
        )
    if not plan.expanding:
        return plan.sql, [
            process(values[key]) if process is not None else values[key]
            for key, process in plan.binds
        ]
    expanded = compiled._process_parameters_for_postcompile(values)
    processors: dict[str, Any] = {**compiled._bind_processors, **expanded.processors}
    return expanded.statement, [
        processors[key](values[key]) if key in processors else values[key]
        for key in expanded.positiontup or ()
    ]


def result(found: Ready, rows: Sequence[Any], rowcount: int, types: Sequence[Any]) -> FastResult:
    """Return the statement's result: its rows through SQLAlchemy's result processors for
    the column `types` the driver reported (used the first time only)."""
    plan = found.plan
    if not plan.returns_rows:
        return FastResult(NO_ROWS, (), rowcount)
    if plan.metadata is None:
        columns = found.compiled._result_columns
        dialect = found.compiled.dialect
        plan.metadata = SimpleResultMetaData(
            [column.keyname for column in columns],
            _processors=[
                column.type._cached_result_processor(dialect, kind)
                for column, kind in zip(columns, types, strict=True)
            ],
        )
    return FastResult(plan.metadata, rows, rowcount)


def _parameter_sets(parameters: Any) -> tuple[Mapping[str, Any] | None, ...] | None:
    """Return the parameter sets of an execute (one for None or a mapping), or None when
    they are not all mappings with the same names."""
    if parameters is None or isinstance(parameters, Mapping):
        return (parameters,)
    if not isinstance(parameters, Sequence) or not parameters:
        return None
    first = parameters[0]
    if not isinstance(first, Mapping):
        return None
    names = first.keys()
    if any(not isinstance(one, Mapping) or one.keys() != names for one in parameters):
        return None
    return tuple(parameters)
