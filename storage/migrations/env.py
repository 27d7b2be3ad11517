"""Alembic environment: migrations run on the connection `storage.migrate` passes in.

`storage.migrate.upgrade(url)` opens the transaction, checks the revision and hands
its connection over in `config.attributes["connection"]`; the alembic command line
(`python -m storage.migrate ...`) goes through the same code.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from storage.tables import metadata

config = context.config


def run_on(connection: Connection) -> None:
    """Run the migrations on an open connection, inside its transaction."""
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things: later revisions rebuild tables in batches.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("offline (--sql) migrations are not supported: run them on a database")

connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through storage.migrate, which opens the connection")
run_on(connection)
