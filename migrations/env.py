"""Alembic environment for SQLite (batch mode, transactional DDL, FKs checked after) and
PostgreSQL. Accepts a Connection or an Engine in ``config.attributes["connection"]``
(ratings.migrate passes a Connection, pytest-alembic an Engine). Importing
``ratings.view_ops`` registers the view operations and makes autogenerate (``alembic check``)
compare the views."""

from __future__ import annotations

import functools
import os
from logging.config import fileConfig
from typing import Any

from alembic import context
from alembic.operations.batch import ApplyBatchImpl
from sqlalchemy import Connection
from sqlalchemy.util import OrderedSet

from ratings import (
    models,  # registers every table on Base.metadata
    view_ops,  # noqa: F401  (op.create_view & co, and the views' comparison)
)
from ratings.db import Base, database_url, make_engine

models.declare_postgresql_options()

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _in_name_order(grab: Any) -> Any:
    """Alembic's batch mode rebuilds a SQLite table with the constraints and indexes of the
    old one in the order of ``Table.constraints`` and ``Table.indexes``: sets of objects
    hashed by identity, so two ``ratings init`` wrote a table's CHECK and FOREIGN KEY
    constraints in different orders. Copied in the order of their kind and name, the schema
    text is the same every time."""
    if getattr(grab, "in_name_order", False):
        return grab

    def order(item: Any) -> tuple[str, str]:
        return (type(item).__name__, str(item.name or ""))

    @functools.wraps(grab)
    def grab_in_name_order(self: ApplyBatchImpl) -> None:
        table = self.table
        constraints, indexes = table.constraints, table.indexes
        table.constraints = OrderedSet(sorted(constraints, key=order))
        table.indexes = OrderedSet(sorted(indexes, key=order))
        try:
            grab(self)
        finally:
            table.constraints, table.indexes = constraints, indexes

    grab_in_name_order.in_name_order = True
    return grab_in_name_order


ApplyBatchImpl._grab_table_elements = _in_name_order(ApplyBatchImpl._grab_table_elements)


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
