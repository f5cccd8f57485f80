"""Engine, declarative base and session factory.

SQLite is the embedded default. Its connections always run with ``PRAGMA foreign_keys=ON``
(except the migration engine, see docs/DESIGN.md#foreign-keys-off-while-migrating) and a busy
timeout, and the sqlite3 driver's own BEGIN handling is replaced so that DDL is transactional
too.
"""

from __future__ import annotations

import enum
import sqlite3
import urllib.parse
from pathlib import Path
from typing import Annotated, Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, mapped_column, sessionmaker

# the file checks live in ratings.dbfile (no SQLAlchemy there: `ratings list` reads without
# it); named here too, where the engines' callers have always found them
from ratings.dbfile import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from ratings.dbfile import SQLITE_MAX_PATH as SQLITE_MAX_PATH
from ratings.dbfile import URL_SCHEME, check_sqlite_file, recover_hot_journal
from ratings.dbfile import check_path_length as check_path_length
from ratings.dbfile import check_regular_file as check_regular_file
from ratings.dbfile import journal_path as journal_path
from ratings.dbfile import sqlite_file_name as sqlite_file_name
from ratings.dbfile import sqlite_uri as sqlite_uri
from ratings.errors import DatabaseError

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


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
    """Turn the ``--db`` value into a SQLAlchemy URL: a plain path means a SQLite file.

    A path is taken literally: ``#``, ``?`` and ``%`` are percent-encoded in the URL, so
    that ``club#1.db`` or ``new%41.db`` name exactly that file (``sqlite:///new%41.db``
    would be ``newA.db``). A value that starts with ``scheme://`` is a URL already.
    """
    if URL_SCHEME.match(db):
        return db
    return sa.engine.URL.create("sqlite", database=db).render_as_string(hide_password=False)


def url_for_messages(url: str) -> str:
    """A URL as messages show it: the password hidden."""
    return sa.engine.make_url(url).render_as_string(hide_password=True)


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL, or None for other backends and in-memory databases.

    A database name that begins with ``file:`` is a SQLite URI only when the URL says
    ``uri=true`` (as the driver reads it); otherwise it is a file of that name, as a
    ``--db file:club.db`` path is (it used to be taken for a URI here, and so lost every
    check on files: an export could overwrite the database).
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:":
        return None
    if str(parsed.query.get("uri", "")).lower() in ("true", "1") and parsed.database.startswith(
        "file:"
    ):
        return _uri_file(parsed.database, parsed.query)
    return Path(parsed.database)


def _uri_file(uri: str, query: Any) -> Path | None:
    """The file a SQLite ``file:`` URI names (the URL's other query values are the URI's
    parameters), or None for an in-memory one."""
    split = urllib.parse.urlsplit(uri)
    params = dict(urllib.parse.parse_qsl(split.query))
    params.update({k: str(v) for k, v in query.items()})
    name = urllib.parse.unquote(split.path)
    if params.get("mode") == "memory" or name in ("", ":memory:"):
        return None
    return Path(name)


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
            check_sqlite_file(path, must_exist=read_only or not create)
        if read_only and path is not None:
            recover_hot_journal(path)
            uri = sqlite_uri(path, mode="ro")
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
    engine = _create_server_engine(parsed, echo=echo)
    if parsed.get_backend_name() == "postgresql":
        _install_postgresql_events(engine, read_only=read_only)
    return engine


POSTGRES_EXTRA = "pip install 'ratings[postgres]'"
"""How to install the PostgreSQL driver (the ``postgres`` extra: psycopg)."""


def _create_server_engine(parsed: sa.engine.URL, *, echo: bool) -> Engine:
    """The engine of a database URL, or a one-line error where its driver is missing or
    the kind of database is unknown (SQLAlchemy imports the driver here)."""
    scheme = f"{parsed.drivername}://"
    try:
        return sa.create_engine(parsed, echo=echo)
    except sa.exc.NoSuchModuleError:
        raise DatabaseError(
            f"unknown kind of database URL {scheme!r}: give a SQLite file path or a "
            "postgresql+psycopg://USER@HOST/DATABASE URL"
        ) from None
    except ImportError as exc:
        if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() == "psycopg":
            raise DatabaseError(
                f"PostgreSQL needs the psycopg driver, which is not installed: {POSTGRES_EXTRA}"
            ) from None
        raise DatabaseError(
            f"the database driver for {scheme!r} is not installed ({exc}); ratings uses a "
            "SQLite file or PostgreSQL (postgresql+psycopg://...)"
        ) from None


BEGIN_OPTION = "ratings_begin"
"""The execution option that makes a SQLite write transaction begin EXCLUSIVE (value
``"exclusive"``): it waits for the readers once, at the start, instead of at every cache
spill of a large write (each of which waited the whole busy timeout again)."""

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
        # take BEGIN away from the sqlite3 driver ... (docs/DESIGN.md#transactional-ddl-on-sqlite)
        dbapi_conn.isolation_level = None
        dbapi_conn.execute(f"PRAGMA foreign_keys = {'ON' if enforce_foreign_keys else 'OFF'}")
        dbapi_conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        # ... and emit it ourselves. IMMEDIATE takes the write lock at the start, so two
        # commands that both write serialise instead of failing halfway with "database is
        # locked" on the upgrade from a read lock. EXCLUSIVE (BEGIN_OPTION) also waits for
        # the readers at the start, for a bulk write: see App.session
        if not immediate:
            conn.exec_driver_sql("BEGIN")
        elif conn.get_execution_options().get(BEGIN_OPTION) == "exclusive":
            conn.exec_driver_sql("BEGIN EXCLUSIVE")
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")


def has_import(path: Path, file_name: str) -> bool:
    """True when ``path`` is a SQLite database (opened read-only) whose ``imports`` table
    records a file of this name; False for anything else (``ratings demo`` replaces only
    a database it built)."""
    try:
        recover_hot_journal(path)
        conn = sqlite3.connect(sqlite_uri(path, mode="ro"), uri=True)
        try:
            found = conn.execute(
                "SELECT 1 FROM imports WHERE file_name = ? LIMIT 1", (file_name,)
            ).fetchone()
        finally:
            conn.close()
    except (sqlite3.DatabaseError, DatabaseError):
        return False
    return found is not None


SessionFactory = sessionmaker(expire_on_commit=False)
