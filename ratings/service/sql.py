"""Administrators' SQL, run read-only (``ratings sql``).

Three layers keep a query from changing anything on SQLite: the file is opened with
``mode=ro``, ``PRAGMA query_only`` is on, and an authorizer allows only reading statements
(SELECT, reading functions, a list of introspection pragmas), so that ``ATTACH``,
``VACUUM INTO`` (which writes a new file even from a read-only connection), ``CREATE TEMP``
and ``PRAGMA writable_schema=1`` are refused too. On PostgreSQL the query runs in a
``READ ONLY`` transaction as one prepared statement, so that ``COMMIT; DELETE ...`` cannot
smuggle a second statement past it.

This is a guard against accidents, not a sandbox: whoever holds the database URL can write
with other tools. Give untrusted users a PostgreSQL role with SELECT grants only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from ratings.errors import RatingsError

__all__ = ["QueryError", "QueryResult", "run_query"]


class QueryError(RatingsError):
    """A query failed: a syntax error, a missing table, or an attempt to write."""


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Column names and rows of a query, as the driver returned them."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


# pragmas that only read; these may take an argument (a table or index name, a limit)
_PRAGMAS_WITH_ARGUMENT = frozenset(
    {
        "table_info",
        "table_xinfo",
        "index_list",
        "index_info",
        "index_xinfo",
        "foreign_key_list",
        "foreign_key_check",
        "integrity_check",
        "quick_check",
    }
)
# these read without an argument but set something with one (PRAGMA user_version = 5)
_PRAGMAS_QUERY_ONLY = frozenset(
    {
        "application_id",
        "collation_list",
        "compile_options",
        "data_version",
        "database_list",
        "encoding",
        "foreign_keys",
        "freelist_count",
        "function_list",
        "journal_mode",
        "module_list",
        "page_count",
        "page_size",
        "pragma_list",
        "schema_version",
        "table_list",
        "user_version",
    }
)
_READING_ACTIONS = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
)
_ACTION_NAMES = {
    sqlite3.SQLITE_ALTER_TABLE: "ALTER TABLE",
    sqlite3.SQLITE_ANALYZE: "ANALYZE",
    sqlite3.SQLITE_ATTACH: "ATTACH",
    sqlite3.SQLITE_CREATE_INDEX: "CREATE INDEX",
    sqlite3.SQLITE_CREATE_TABLE: "CREATE TABLE",
    sqlite3.SQLITE_CREATE_TEMP_INDEX: "CREATE TEMP INDEX",
    sqlite3.SQLITE_CREATE_TEMP_TABLE: "CREATE TEMP TABLE",
    sqlite3.SQLITE_CREATE_TEMP_TRIGGER: "CREATE TEMP TRIGGER",
    sqlite3.SQLITE_CREATE_TEMP_VIEW: "CREATE TEMP VIEW",
    sqlite3.SQLITE_CREATE_TRIGGER: "CREATE TRIGGER",
    sqlite3.SQLITE_CREATE_VIEW: "CREATE VIEW",
    sqlite3.SQLITE_CREATE_VTABLE: "CREATE VIRTUAL TABLE",
    sqlite3.SQLITE_DELETE: "DELETE",
    sqlite3.SQLITE_DETACH: "DETACH",
    sqlite3.SQLITE_DROP_INDEX: "DROP INDEX",
    sqlite3.SQLITE_DROP_TABLE: "DROP TABLE",
    sqlite3.SQLITE_DROP_TEMP_INDEX: "DROP TEMP INDEX",
    sqlite3.SQLITE_DROP_TEMP_TABLE: "DROP TEMP TABLE",
    sqlite3.SQLITE_DROP_TEMP_TRIGGER: "DROP TEMP TRIGGER",
    sqlite3.SQLITE_DROP_TEMP_VIEW: "DROP TEMP VIEW",
    sqlite3.SQLITE_DROP_TRIGGER: "DROP TRIGGER",
    sqlite3.SQLITE_DROP_VIEW: "DROP VIEW",
    sqlite3.SQLITE_DROP_VTABLE: "DROP VIRTUAL TABLE",
    sqlite3.SQLITE_INSERT: "INSERT",
    sqlite3.SQLITE_REINDEX: "REINDEX",
    sqlite3.SQLITE_SAVEPOINT: "SAVEPOINT",
    sqlite3.SQLITE_TRANSACTION: "BEGIN/COMMIT/ROLLBACK",
    sqlite3.SQLITE_UPDATE: "UPDATE",
}


class _Authorizer:
    """sqlite3 authorizer callback: allow reading, remember the first refused action."""

    def __init__(self) -> None:
        self.armed = False
        self.refused: str | None = None

    def __call__(
        self,
        action: int,
        arg1: str | None,
        arg2: str | None,
        _db: str | None,
        _trigger: str | None,
    ) -> int:
        if not self.armed or action in _READING_ACTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and arg1 is not None:
            name = arg1.lower()
            if name in _PRAGMAS_WITH_ARGUMENT or (name in _PRAGMAS_QUERY_ONLY and arg2 is None):
                return sqlite3.SQLITE_OK
        if self.refused is None:
            self.refused = _describe(action, arg1, arg2)
        return sqlite3.SQLITE_DENY


def _describe(action: int, arg1: str | None, arg2: str | None) -> str:
    """What an authorizer action would have done, for the error message."""
    what = _ACTION_NAMES.get(action, f"action {action}")
    if action == sqlite3.SQLITE_PRAGMA:
        return f"PRAGMA {arg1}" + (f" = {arg2}" if arg2 is not None else "")
    if action == sqlite3.SQLITE_ATTACH:
        return f"ATTACH of {arg1!r}" if arg1 else "ATTACH"
    if action in (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE):
        # CREATE, DROP, ALTER and ANALYZE are first seen as writes to the schema table
        if arg1 in ("sqlite_master", "sqlite_temp_master", "sqlite_schema"):
            return "changing the schema"
        return f"{what} on {arg1}"
    return what


def run_query(engine: Engine, query: str) -> QueryResult:
    """Run one statement on a read-only connection and return every row.

    ``engine`` must come from ``make_engine(url, read_only=True)`` for SQLite files; on
    PostgreSQL the transaction is made read-only here.

    :raises QueryError: for any error the database reports, and for any statement that
        would write.
    """
    if not query.strip():
        raise QueryError("the query is empty")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:  # undecodable bytes on the command line
        raise QueryError(f"the query is not valid UTF-8 text: {query!r}") from exc
    dbapi: Any = engine.dialect.dbapi
    with engine.connect() as conn:
        raw: Any = conn.connection.driver_connection
        if engine.dialect.name == "sqlite":
            raw.execute("PRAGMA query_only = ON")  # before BEGIN: pragmas autobegin in SQLAlchemy
            conn.begin()  # one snapshot for the whole query
            authorizer = _Authorizer()
            raw.set_authorizer(authorizer)
            authorizer.armed = True
            try:
                return _fetch(raw.cursor(), query, None)
            except sqlite3.Error as exc:
                if authorizer.refused is not None or "readonly" in str(exc):
                    what = authorizer.refused or "writing"
                    raise QueryError(f"ratings sql is read-only: {what} is not allowed") from exc
                raise QueryError(str(exc)) from exc
            finally:
                raw.set_authorizer(None)
        conn.exec_driver_sql("SET TRANSACTION READ ONLY")
        try:
            # prepare=True: one statement only, and no client-side placeholders ('%')
            return _fetch(raw.cursor(), query, {"prepare": True})
        except dbapi.Error as exc:
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
            raise QueryError(message) from exc


def _fetch(cursor: Any, query: str, options: dict[str, Any] | None) -> QueryResult:
    """Execute on a raw DBAPI cursor and read every row (no rows: no columns either)."""
    try:
        if options is None:
            cursor.execute(query)
        else:
            cursor.execute(query, **options)
        description: Sequence[Sequence[Any]] | None = cursor.description
        if description is None:
            return QueryResult((), ())
        columns = tuple(str(column[0]) for column in description)
        return QueryResult(columns, tuple(tuple(row) for row in cursor.fetchall()))
    finally:
        cursor.close()
