"""Alembic environment for SQLite (batch mode, transactional DDL, FKs checked after) and
PostgreSQL. Accepts a Connection or an Engine in ``config.attributes["connection"]``
(ratings.migrate passes a Connection, pytest-alembic an Engine). Importing
``ratings.view_ops`` registers the view operations and makes autogenerate (``alembic check``)
compare the views."""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from ratings import (
    models,  # noqa: F401  (registers every table on Base.metadata)
    view_ops,  # noqa: F401  (op.create_view & co, and the views' comparison)
)
from ratings.db import Base, database_url, make_engine

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    env = os.environ.get("RATINGS_DB")
    return database_url(env) if env else config.get_main_option("sqlalchemy.url", "")


def _run(connection: Connection) -> None:
    is_sqlite = connection.dialect.name == "sqlite"
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,
        compare_type=True,
        transactional_ddl=True if is_sqlite else None,
    )
    with context.begin_transaction():
        if is_sqlite and connection.exec_driver_sql("PRAGMA foreign_keys").scalar():
            raise RuntimeError("migrate with make_engine(url, enforce_foreign_keys=False)")
        context.run_migrations()
        if is_sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first():
            raise RuntimeError("foreign key violations after migration")


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = config.attributes.get("connection")
    if connectable is None:
        connectable = make_engine(_url(), enforce_foreign_keys=False)
    if isinstance(connectable, Connection):
        _run(connectable)
    else:
        with connectable.connect() as connection:
            _run(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
