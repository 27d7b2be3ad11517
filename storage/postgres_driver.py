"""PostgreSQL statements sent straight to asyncpg, compiled once by SQLAlchemy.

Through SQLAlchemy's asyncio layer one statement cost ~360 us here, of which asyncpg's
round trip is ~110 us: greenlet switches, an execution context, the DB-API cursor adapter
(issue 17; a /report is six statements). So a Core statement is compiled by SQLAlchemy
(its compiled cache, bind and result processors: the same SQL, the same values in and
out) and run on the pooled asyncpg connection from the event loop, inside the
transaction SQLAlchemy's adapter begins and ends as before; several parameter sets
are pipelined by asyncpg. What this path does not take on (rows returned for several
parameter sets, Python-side column defaults, text, anyone listening for cursor
executes, errors) goes through SQLAlchemy as before.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine.result import IteratorResult, SimpleResultMetaData
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.util.concurrency import greenlet_spawn

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection, AsyncTransaction

# Connection options this path honours: the isolation level lives on the connection itself.
_HARMLESS = frozenset({"isolation_level"})
_ROWCOUNT = re.compile(r"(?:SELECT|UPDATE|DELETE|INSERT \d+) (\d+)")


class FastResult(IteratorResult[Any]):
    """The rows of one statement, with the row count its status message gave."""

    def __init__(self, metadata: SimpleResultMetaData, rows: Sequence[Any], status: str):
        super().__init__(metadata, iter(rows))
        self._status = status

    @property
    def rowcount(self) -> int:
        found = _ROWCOUNT.match(self._status or "")
        return int(found.group(1)) if found else -1


class _Plan:
    """What running one compiled statement needs, worked out once per compiled form."""

    __slots__ = ("binds", "expanding", "metadata", "returns_rows", "sql")

    def __init__(self, compiled: SQLCompiler) -> None:
        processors = compiled._bind_processors
        self.sql: str = compiled.string
        self.binds: list[tuple[str, Any]] = [
            (key, processors.get(key)) for key in compiled.positiontup or ()
        ]
        # An IN of a list: the SQL has one parameter per item, rendered for each call.
        self.expanding = bool(compiled.post_compile_params)
        self.returns_rows = bool(compiled._result_columns)
        self.metadata: SimpleResultMetaData | None = None  # on the first rows' types

    def result_metadata(self, compiled: SQLCompiler, attributes: Any, dialect: Any) -> Any:
        if self.metadata is None:
            columns = compiled._result_columns
            self.metadata = SimpleResultMetaData(
                [column.keyname for column in columns],
                _processors=[
                    column.type._cached_result_processor(dialect, attribute.type.oid)
                    for column, attribute in zip(columns, attributes, strict=True)
                ],
            )
        return self.metadata


# Keyed by the compiled form SQLAlchemy keeps in its own cache: gone when it is evicted.
_PLANS: weakref.WeakKeyDictionary[SQLCompiler, _Plan] = weakref.WeakKeyDictionary()


def _plan(compiled: SQLCompiler) -> _Plan | None:
    """Return the plan of a compiled statement, or None when this path cannot run it."""
    plan = _PLANS.get(compiled)
    if plan is not None:
        return plan
    if (
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
    ):
        return None
    plan = _PLANS[compiled] = _Plan(compiled)
    return plan


class PostgresConnection:
    """An AsyncConnection whose `execute` of a Core statement goes straight to asyncpg."""

    def __init__(self, conn: AsyncConnection) -> None:
        self.wrapped = conn
        # SQLAlchemy's internals this path leans on are untyped: Any, not a guess.
        self.dialect: Any = conn.dialect
        self.sync_connection: Any = conn.sync_connection

    async def execute(
        self,
        statement: Any,
        parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    ) -> Any:
        """Run one statement: on asyncpg directly when it can, else through SQLAlchemy."""
        if isinstance(statement, ClauseElement):
            if parameters is None or isinstance(parameters, Mapping):
                done = await self._execute_fast(statement, parameters)
            elif len(parameters) == 1 and isinstance(parameters[0], Mapping):
                done = await self._execute_fast(statement, parameters[0])
            else:
                done = await self._execute_many_fast(statement, parameters)
            if done is not None:
                return done
        return await self.wrapped.execute(statement, parameters)

    def _compiled(
        self, statement: Any, keys: list[str], *, many: bool = False
    ) -> tuple[SQLCompiler, _Plan, Any, Any] | None:
        """Return the statement compiled for these parameter names, and its plan; None when
        this path cannot run it."""
        sync = self.sync_connection
        if (
            sync._dbapi_connection is None
            or sync._has_events
            or sync.engine._has_events
            or statement._execution_options
            or not _HARMLESS.issuperset(sync._execution_options)
        ):
            return None
        dialect = self.dialect
        compiled, extracted, collected, _ = statement._compile_w_cache(
            dialect=dialect,
            compiled_cache=sync.engine._compiled_cache,
            column_keys=keys,
            for_executemany=many,
            schema_translate_map=None,
            linting=dialect.compiler_linting,
        )
        plan = _plan(compiled) if isinstance(compiled, SQLCompiler) else None
        return None if plan is None else (compiled, plan, extracted, collected)

    def _arguments(
        self, found: tuple[SQLCompiler, _Plan, Any, Any], parameters: Mapping[str, Any] | None
    ) -> tuple[str, list[Any]]:
        """Return the SQL and its positional values for one set of parameters."""
        compiled, plan, extracted, collected = found
        values = compiled.construct_params(
            parameters,
            escape_names=False,
            extracted_parameters=extracted,
            _collected_params=collected,
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

    async def _execute_fast(
        self, statement: ClauseElement, parameters: Mapping[str, Any] | None
    ) -> FastResult | None:
        found = self._compiled(statement, sorted(parameters) if parameters else [])
        if found is None:
            return None
        compiled, plan = found[0], found[1]
        sql, args = self._arguments(found, parameters)
        adapted = self._adapted()
        async with adapted._execute_mutex:
            if adapted._transaction is None:
                await adapted._start_transaction()
            try:
                prepared, attributes = await adapted._prepare(
                    sql, self.dialect._invalidate_schema_cache_asof
                )
                rows = await prepared.fetch(*args)
            except Exception as error:
                await greenlet_spawn(self._raise, error, sql, args)
                raise  # _raise always raises
            status = prepared.get_statusmsg()
        if not plan.returns_rows:
            return FastResult(_NO_ROWS, (), status)
        metadata = plan.result_metadata(compiled, attributes, self.dialect)
        return FastResult(metadata, rows, status)

    async def _execute_many_fast(
        self, statement: ClauseElement, parameters: Sequence[Mapping[str, Any]]
    ) -> FastResult | None:
        """Run one statement for several parameter sets, pipelined by asyncpg (no rows)."""
        if not parameters or not all(isinstance(one, Mapping) for one in parameters):
            return None
        keys = sorted(parameters[0])
        if any(sorted(one) != keys for one in parameters):
            return None
        found = self._compiled(statement, keys, many=True)
        if found is None or found[1].returns_rows or found[1].expanding:
            return None
        plan = found[1]
        many = [self._arguments(found, one)[1] for one in parameters]
        adapted = self._adapted()
        async with adapted._execute_mutex:
            if adapted._transaction is None:
                await adapted._start_transaction()
            try:
                prepared, _ = await adapted._prepare(
                    plan.sql, self.dialect._invalidate_schema_cache_asof
                )
                await prepared.executemany(many)
            except Exception as error:
                await greenlet_spawn(self._raise, error, plan.sql, many)
                raise  # _raise always raises
        return FastResult(_NO_ROWS, (), "")

    def _adapted(self) -> Any:
        """Return SQLAlchemy's adapter of the asyncpg connection (its transaction, its
        prepared statements)."""
        return self.sync_connection._dbapi_connection.dbapi_connection

    def _raise(self, error: Exception, sql: str, args: list[Any]) -> None:
        """Raise `error` as SQLAlchemy would have (a disconnect invalidates the connection)."""
        try:
            self._adapted()._handle_exception(error)
        except Exception as translated:
            self.sync_connection._handle_dbapi_exception(translated, sql, tuple(args), None, None)
        raise error

    async def begin(self) -> AsyncTransaction:
        return await self.wrapped.begin()

    async def close(self) -> None:
        await self.wrapped.close()

    async def invalidate(self, exception: BaseException | None = None) -> None:
        await self.wrapped.invalidate(exception)

    async def run_sync(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await self.wrapped.run_sync(fn, *args, **kwargs)

    async def exec_driver_sql(self, statement: str, parameters: Any = None) -> Any:
        return await self.wrapped.exec_driver_sql(statement, parameters)


_NO_ROWS = SimpleResultMetaData([])
