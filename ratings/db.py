"""Engine, declarative base and session factory.

SQLite is the embedded default. Its connections always run with ``PRAGMA foreign_keys=ON``
(except the migration engine, see STYLE.md pitfall 1) and a busy timeout, and the sqlite3
driver's own BEGIN handling is replaced so that DDL is transactional too.
"""

from __future__ import annotations

import enum
import sqlite3
from pathlib import Path
from typing import Annotated, Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, mapped_column, sessionmaker

from ratings.errors import DatabaseError

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

BUSY_TIMEOUT_MS = 30_000
"""How long a command waits for another process's write lock before giving up."""


class Base(DeclarativeBase):
    """Declarative base: naming convention for constraints, enums stored by value."""

    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {  # noqa: RUF012 (SQLAlchemy reads this class attribute as is)
        # store enum *values* ("1/2-1/2") as VARCHAR + a named CHECK, on every backend
        enum.Enum: sa.Enum(
            enum.Enum,
            native_enum=False,
            create_constraint=True,
            length=16,
            values_callable=lambda members: [m.value for m in members],
        ),
    }


int_pk = Annotated[int, mapped_column(primary_key=True)]
bool_false = Annotated[bool, mapped_column(server_default=sa.false())]


def database_url(db: str) -> str:
    """Turn the ``--db`` value into a SQLAlchemy URL: a plain path means a SQLite file."""
    if "://" in db:
        return db
    return f"sqlite:///{db}"


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL, or None for other backends and in-memory databases."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:" or parsed.database.startswith("file:"):
        return None
    return Path(parsed.database)


def make_engine(
    url: str,
    *,
    enforce_foreign_keys: bool = True,
    read_only: bool = False,
    create: bool = True,
    echo: bool = False,
) -> Engine:
    """Create an engine; for SQLite, install the connection and transaction events.

    ``read_only`` opens SQLite files with ``mode=ro`` so that no statement can write, and
    makes every PostgreSQL transaction read-only. Writable engines serialise their
    transactions: BEGIN IMMEDIATE on SQLite, an advisory lock on PostgreSQL; both wait up to
    ``BUSY_TIMEOUT_MS`` for another process.
    ``create=False`` refuses a SQLite file that does not exist yet (instead of creating an
    empty one on first connect).
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_path(url)
        if path is not None:
            _check_sqlite_file(path, must_exist=read_only or not create)
        if read_only and path is not None:
            uri = f"file:{path.resolve().as_posix()}?mode=ro"
            engine = sa.create_engine(
                "sqlite://",
                creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False),
                echo=echo,
            )
        else:
            engine = sa.create_engine(url, echo=echo)
        _install_sqlite_events(
            engine, enforce_foreign_keys=enforce_foreign_keys, immediate=not read_only
        )
        return engine
    engine = sa.create_engine(url, echo=echo)
    if parsed.get_backend_name() == "postgresql":
        _install_postgresql_events(engine, read_only=read_only)
    return engine


PG_LOCK_KEY = 0x726174696E6773
"""Key of the transaction-level advisory lock every writing transaction takes ("ratings")."""


def _install_postgresql_events(engine: Engine, *, read_only: bool) -> None:
    """Lock timeout and read-only sessions on connect; the advisory lock on begin."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # session settings must be committed, or the first rollback undoes them
        autocommit = dbapi_conn.autocommit
        dbapi_conn.autocommit = True
        dbapi_conn.execute(f"SET lock_timeout = {int(BUSY_TIMEOUT_MS)}")
        if read_only:
            dbapi_conn.execute("SET default_transaction_read_only = on")
        dbapi_conn.autocommit = autocommit

    if read_only:
        return

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        # PostgreSQL's BEGIN IMMEDIATE: one writing transaction at a time per database, so
        # that two commands serialise (the second sees the first one's work) instead of
        # both computing a period and one failing on a unique constraint
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_LOCK_KEY})")


def _install_sqlite_events(engine: Engine, *, enforce_foreign_keys: bool, immediate: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # take BEGIN away from the sqlite3 driver ... (STYLE.md pitfall 2)
        dbapi_conn.isolation_level = None
        dbapi_conn.execute(f"PRAGMA foreign_keys = {'ON' if enforce_foreign_keys else 'OFF'}")
        dbapi_conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        # ... and emit it ourselves. IMMEDIATE takes the write lock at the start, so two
        # commands that both write serialise instead of failing halfway with "database is
        # locked" on the upgrade from a read lock.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _check_sqlite_file(path: Path, *, must_exist: bool) -> None:
    """Refuse a missing folder, a missing file where one is needed, or a non-SQLite file."""
    if not path.parent.is_dir():
        raise DatabaseError(f"folder does not exist: '{path.parent}'")
    if path.is_dir():
        raise DatabaseError(f"'{path}' is a folder, not a database file")
    if not path.exists():
        if must_exist:
            raise DatabaseError(f"no database at '{path}'; create one with 'ratings init'")
        return
    with path.open("rb") as f:
        head = f.read(16)
    if head and head != b"SQLite format 3\x00":
        raise DatabaseError(f"'{path}' is not a SQLite database")


SessionFactory = sessionmaker(expire_on_commit=False)
