"""Alembic environment: the schema is SQLModel.metadata (the tables in app/storage/tables.py).

`muster migrate` and the server's start pass their own connection (with the locking described
in app/storage/db.py); the plain `alembic` command line connects to the configured database itself.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection
from sqlmodel import SQLModel

import app.storage.tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from app.config import get_settings
from app.storage.db import make_engine, schema_connection

config = context.config
target_metadata = SQLModel.metadata


def run_with(connection: Connection) -> None:
    # render_as_batch: SQLite can only alter a table by rebuilding it.
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    context.configure(url=get_settings().db_url, target_metadata=target_metadata,
                      render_as_batch=True, literal_binds=True,
                      dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_with(connection)
        return
    engine = make_engine(get_settings())
    try:
        # As `muster migrate`: on SQLite a rebuilt table must not cascade (schema_connection).
        with schema_connection(engine) as own:
            run_with(own)
            own.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
