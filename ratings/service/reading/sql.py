"""Administrators' SQL, run read-only, with least privilege and a time limit (``ratings sql``).

Three layers keep a query from changing anything on SQLite: the file is opened with
``mode=ro``, ``PRAGMA query_only`` is on, and an authorizer allows only reading statements
(SELECT, reading functions, a list of introspection pragmas), so that ``ATTACH``,
``VACUUM INTO`` (which writes a new file even from a read-only connection), ``CREATE TEMP``
and ``PRAGMA writable_schema=1`` are refused too. A progress handler interrupts the query
once its time is up.

On PostgreSQL a ``READ ONLY`` transaction is not enough for a superuser login (``COPY ... TO
PROGRAM``, ``pg_read_file``), so the query also runs with least privilege: ``SET LOCAL ROLE``
to :data:`ratings.privileges.READER_ROLE` (SELECT on the product's tables and views only),
through a security-definer function owned by that role, so that the query cannot take the
login's privileges back with ``set_config('role', ...)``. Only queries (SELECT, WITH, VALUES,
TABLE) run; COPY is refused outright. ``statement_timeout`` bounds the time. The statement is
parsed on its own first (one statement only: ``COMMIT; DELETE ...`` is refused).

Rows are streamed: :func:`open_query` reads them in batches while the caller writes them out,
so memory does not grow with the result. One value, one row and one batch are bounded too
(:data:`MAX_ROW_BYTES`, :data:`MAX_COLUMNS`, :data:`BATCH_BYTES`): on SQLite by its limits
(``SQLITE_LIMIT_LENGTH``, ``SQLITE_LIMIT_COLUMN``) and a look at each row; on PostgreSQL by
the length of each row's text, checked on the server before the row is sent. The time limit
counts from the start, so time spent waiting for a slow reader of the output counts too (a
held SQLite read lock keeps writers out).

Whoever holds the database URL can still write with other tools: this protects the data from
``ratings sql``, not from its user.

Over 600 lines: one read-only query runner, its bounds and its guards, on both backends.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from itertools import chain
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Engine

from ratings import privileges
from ratings.errors import RatingsError

__all__ = [
    "BATCH_BYTES",
    "DEFAULT_BATCH",
    "HEAP_LIMIT",
    "MAX_COLUMNS",
    "MAX_ROW_BYTES",
    "QueryError",
    "QueryMemoryError",
    "QueryResult",
    "QueryStream",
    "QueryTimeoutError",
    "open_query",
    "run_query",
    "statement_kind",
]

DEFAULT_BATCH = 1000
"""Rows read (and held) at a time, at most."""

MAX_ROW_BYTES = 1_000_000
"""The longest row ``ratings sql`` reads, in bytes: on SQLite the length of its text and
blob values (also the length limit of one value, ``SQLITE_LIMIT_LENGTH``), on PostgreSQL its
text as JSON. A row of a rating list is about 200. Before this limit one
``randomblob(999999999)`` took 12.7 GB."""

BATCH_BYTES = 4_000_000
"""A batch ends once its rows hold this many bytes, however few they are: the writers'
formatted copies of a batch are several times its size."""

MAX_COLUMNS = 100
"""The most columns a SQLite query may have (``SQLITE_LIMIT_COLUMN``; SQLite's own is 2,000):
with :data:`MAX_ROW_BYTES` per value, a row is at most 100 MB while it is read, before it
is refused. The widest table, ``players``, has 24."""

HEAP_LIMIT = 128 << 20
"""The memory SQLite may use for a query of ``ratings sql`` run in a process of its own, in
bytes (``PRAGMA hard_heap_limit``; :func:`open_query`'s ``heap_limit``). The length limit
bounds a value returned, not the text an aggregate builds: twelve ``json_group_array`` over
900 KB texts reached 4.4 GB before the 20 s limit. Sorting and grouping spill to temporary
files past the page cache (2 MB), so an ordinary query needs a few MB."""

_PROGRESS_OPS = 1_000
"""SQLite virtual-machine instructions between two looks at the clock (about 20
microseconds; at 10,000, a query of one 1 MB value a row looked every 2 s)."""

_FETCH_ROWS = 50
"""Rows taken from the driver at a time: at most this many rows past a batch's end are held."""

_PG_CHUNK = 50
"""Rows libpq holds at a time on PostgreSQL (each at most :data:`MAX_ROW_BYTES`)."""

READING_KINDS = frozenset({"SELECT", "WITH", "VALUES", "TABLE"})
"""Statements ``ratings sql`` runs on PostgreSQL (by their first keyword)."""


class QueryError(RatingsError):
    """A query failed: a syntax error, a missing table, or an attempt to write."""


class QueryMemoryError(QueryError):
    """A value or a row longer than ``ratings sql`` reads (:data:`MAX_ROW_BYTES`), or a query
    that needs more memory than it is given (:data:`HEAP_LIMIT`)."""


def _value_too_long() -> QueryMemoryError:
    return QueryMemoryError(
        f"a value is longer than ratings sql reads (at most {MAX_ROW_BYTES:,} bytes); "
        "select a part of it (substr) or its length"
    )


def _row_too_long(size: int) -> QueryMemoryError:
    return QueryMemoryError(
        f"a row is {size:,} bytes long, more than ratings sql reads (at most "
        f"{MAX_ROW_BYTES:,}); select fewer or shorter columns"
    )


def _out_of_memory(limit: int) -> QueryMemoryError:
    return QueryMemoryError(
        f"out of memory while running the query (ratings sql lets SQLite use at most "
        f"{limit >> 20} MiB); aggregate fewer or shorter values, or select fewer rows or "
        "smaller columns"
    )


class QueryTimeoutError(QueryError):
    """A query ran longer than its time limit."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"the query ran longer than {seconds:g} s; allow more with --timeout SECONDS "
            "(0: no limit)"
        )
        self.seconds = seconds


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Column names and rows of a query, as the driver returned them."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


class _Clock:
    """A query's time limit, measured from its start (None: no limit)."""

    def __init__(self, timeout: float | None) -> None:
        self.timeout = timeout if timeout else None
        self.deadline = None if self.timeout is None else time.monotonic() + self.timeout

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def check(self) -> None:
        if self.timeout is not None and self.expired():
            raise QueryTimeoutError(self.timeout)


def _rows_size(rows: Iterable[tuple[Any, ...]]) -> int:
    """What rows' values hold: the length of their texts and blobs (numbers are small)."""
    size = 0
    for row in rows:
        for value in row:
            kind = type(value)
            if kind is str or kind is bytes:
                size += len(value)
    return size


def _bounded(
    chunks: Iterator[list[tuple[Any, ...]]], batch_size: int
) -> Callable[[], list[tuple[Any, ...]]]:
    """A ``fetch`` that cuts the rows of ``chunks`` into batches of at most ``batch_size``
    rows and about :data:`BATCH_BYTES`, and refuses a row longer than :data:`MAX_ROW_BYTES`."""
    pending: list[tuple[Any, ...]] = []
    position = 0

    def fetch() -> list[tuple[Any, ...]]:
        nonlocal pending, position
        batch: list[tuple[Any, ...]] = []
        held = 0
        while len(batch) < batch_size and held < BATCH_BYTES:
            if position >= len(pending):
                pending, position = next(chunks, []), 0
                if not pending:
                    break
                size = _rows_size(pending)
                if size <= min(MAX_ROW_BYTES, BATCH_BYTES - held) and (
                    len(pending) <= batch_size - len(batch)
                ):
                    # the common case: the whole chunk fits, no row needs a look of its own
                    batch.extend(pending)
                    held += size
                    position = len(pending)
                    continue
            row = pending[position]
            size = _rows_size((row,))
            if size > MAX_ROW_BYTES:
                raise _row_too_long(size)
            if batch and held + size > BATCH_BYTES:
                break
            batch.append(row)
            held += size
            position += 1
        return batch

    return fetch


class QueryStream:
    """An open query: its column names, and its rows read batch by batch."""

    def __init__(
        self, columns: tuple[str, ...], fetch: Callable[[], list[tuple[Any, ...]]], clock: _Clock
    ) -> None:
        self.columns = columns
        """Column names, in order (empty for a statement that returns no rows)."""
        self.deadline = clock.deadline
        """When the time limit runs out (``time.monotonic()``), or None."""
        self.warnings: tuple[str, ...] = ()
        """What the caller should tell the user (PostgreSQL: functions that still write)."""
        self._fetch = fetch
        self._clock = clock

    def batches(self) -> Iterator[list[tuple[Any, ...]]]:
        """The rows, at most :data:`DEFAULT_BATCH` at a time.

        :raises QueryTimeoutError: once the time limit has run out, also while the caller
            was busy with the previous batch.
        :raises QueryError: for an error the database reports while reading.
        """
        while True:
            self._clock.check()
            batch = self._fetch()
            if not batch:
                return
            yield batch


def statement_kind(query: str) -> str:
    """The first keyword of a statement, upper case, after white space, comments (nested
    ``/* */`` too, as PostgreSQL reads them) and opening parentheses; "" if there is none."""
    i, n = 0, len(query)
    while i < n:
        if query[i] in " \t\n\r\f\v(":
            i += 1
        elif query.startswith("--", i):
            end = query.find("\n", i)
            i = n if end < 0 else end + 1
        elif query.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if query.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif query.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        else:
            break
    word = re.compile(r"[A-Za-z_]+").match(query, i)
    return word.group(0).upper() if word else ""


def _check_text(query: str) -> None:
    if not query.strip():
        raise QueryError("the query is empty")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:  # undecodable bytes on the command line
        raise QueryError(f"the query is not valid UTF-8 text: {query!r}") from exc
    if "\x00" in query:  # libpq would cut the text there
        raise QueryError("the query contains a null character")
    if statement_kind(query) == "COPY":
        # COPY TO PROGRAM runs a program and COPY TO/FROM a file reads or writes one on the
        # server, even in a read-only transaction
        raise QueryError(
            "ratings sql does not run COPY (it can run programs and read or write files on "
            "the database server); use --format csv"
        )


@contextmanager
def open_query(
    engine: Engine,
    query: str,
    *,
    timeout: float | None = None,
    batch_size: int = DEFAULT_BATCH,
    heap_limit: int | None = None,
) -> Iterator[QueryStream]:
    """Run one statement on a read-only connection and stream its rows.

    ``engine`` must come from ``make_engine(url, read_only=True)`` for SQLite files; on
    PostgreSQL the transaction is made read-only here. The connection stays open until the
    ``with`` block ends; the rows are read by :meth:`QueryStream.batches`.

    :param timeout: seconds from now after which the query is stopped (None or 0: no
        limit), whether it is computing rows or waiting for the caller to take them.
    :param heap_limit: SQLite: the bytes of memory SQLite may use in this process from now
        on (:data:`HEAP_LIMIT`; ``PRAGMA hard_heap_limit``, which holds for every connection
        of the process and can only be lowered): for a process that runs this query and
        ends. PostgreSQL computes the rows on the server and sends them in bounded chunks.
    :raises QueryError: for any error the database reports, and for any statement that
        would write.
    :raises QueryMemoryError: when SQLite needs more than ``heap_limit``.
    :raises QueryTimeoutError: when the time limit runs out.
    :raises ratings.privileges.ReaderRoleError: on PostgreSQL, when the reader role cannot be
        used.
    """
    if timeout is not None and (math.isnan(timeout) or timeout < 0):
        raise ValueError(f"timeout must be a number of seconds >= 0: {timeout!r}")
    _check_text(query)
    clock = _Clock(timeout)
    if engine.dialect.name != "sqlite":
        with _open_postgresql(engine, query, clock, batch_size) as stream:
            yield stream
        return
    with _open_sqlite(engine, query, clock, batch_size, heap_limit) as stream:
        yield stream


def run_query(engine: Engine, query: str, *, timeout: float | None = None) -> QueryResult:
    """Run one statement read-only and return every row (see :func:`open_query`)."""
    with open_query(engine, query, timeout=timeout) as stream:
        rows = [row for batch in stream.batches() for row in batch]
    return QueryResult(stream.columns, tuple(rows))


def _no_rows() -> list[tuple[Any, ...]]:
    return []


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


_SCHEMA_TABLES = frozenset({"sqlite_master", "sqlite_schema", "sqlite_temp_master"})
_SCHEMA_COLUMNS = frozenset({"type", "name", "tbl_name", "rootpage", "sql"})
_REFUSED_FUNCTIONS = {
    # with one argument it answers the address of a tokenizer in the library's memory, with
    # two it installs the one at the address given
    "fts3_tokenizer": "fts3_tokenizer() (it reads and replaces the library's tokenizers)",
}


class _Authorizer:
    """sqlite3 authorizer callback: allow reading, remember the first refused action.

    A table-valued function (``json_each``, ``json_tree``, ``pragma_table_info``) is reported
    while the SELECT that names it is prepared as an UPDATE of the schema table's columns:
    that is allowed in a SELECT only (the connection is read-only and the schema not
    writable anyway); a statement that writes starts with its own write action."""

    def __init__(self) -> None:
        self.armed = False
        self.refused: str | None = None
        self.selecting = False

    def __call__(
        self,
        action: int,
        arg1: str | None,
        arg2: str | None,
        _db: str | None,
        _trigger: str | None,
    ) -> int:
        if not self.armed:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION and arg2 is not None:
            refused = _REFUSED_FUNCTIONS.get(arg2.lower())
            if refused is not None:
                self.refused = self.refused or refused
                return sqlite3.SQLITE_DENY
        if action in _READING_ACTIONS:
            if action == sqlite3.SQLITE_SELECT and self.refused is None:
                self.selecting = True
            return sqlite3.SQLITE_OK
        if (
            action == sqlite3.SQLITE_UPDATE
            and self.selecting
            and arg1 in _SCHEMA_TABLES
            and arg2 in _SCHEMA_COLUMNS
        ):
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


_CONVERSION = re.compile(r"%[-+ 0#,!]*(\*|\d+)?(?:\.(\*|\d+)?)?l*(.)?", re.DOTALL)
_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _number(value: Any) -> float:
    """An argument as SQLite's printf reads a width or precision: its leading number."""
    if isinstance(value, int | float):
        return abs(float(value))
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    found = _NUMBER.match(value) if isinstance(value, str) else None
    return abs(float(found.group(0))) if found else 0.0


class _Printf:
    """SQLite's ``printf``/``format``, refusing a width or precision over
    :data:`MAX_ROW_BYTES` before it formats: ``printf('%.*c', 999999999, 'x')`` ran 11 s
    inside one instruction (so no time limit could stop it) to give an empty text. Within
    the limit the built-in function formats, on a connection of its own."""

    def __init__(self) -> None:
        self.refused = False
        self._builtin = sqlite3.connect(":memory:", check_same_thread=False)
        self._builtin.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_ROW_BYTES)

    def __call__(self, *args: Any) -> Any:
        if not args or not isinstance(args[0], str):
            return self._format(args)
        rest = iter(args[1:])
        for match in _CONVERSION.finditer(args[0]):
            width, precision, kind = match.groups()
            for part in (width, precision):
                size = _number(next(rest, 0)) if part == "*" else float(part or 0)
                if size > MAX_ROW_BYTES:
                    self.refused = True
                    raise ValueError("too big")
            if kind != "%":
                next(rest, None)
        return self._format(args)

    def _format(self, args: tuple[Any, ...]) -> Any:
        marks = ", ".join("?" * len(args))
        text = self._builtin.execute(f"SELECT printf({marks})", args).fetchone()[0]
        if text is None and args and args[0] is not None:
            # the built-in answers NULL, silently, for a text over the length limit
            self.refused = True
            raise ValueError("too big")
        return text

    def close(self) -> None:
        self._builtin.close()


@contextmanager
def _open_sqlite(  # noqa: C901 (the guards a read-only query runs under, set up and torn down together)
    engine: Engine, query: str, clock: _Clock, batch_size: int, heap_limit: int | None
) -> Iterator[QueryStream]:
    with engine.connect() as conn:
        raw: Any = conn.connection.driver_connection
        raw.execute("PRAGMA query_only = ON")  # before BEGIN: pragmas autobegin in SQLAlchemy
        if heap_limit is not None:
            raw.execute(f"PRAGMA hard_heap_limit = {int(heap_limit)}")
        conn.begin()  # one snapshot for the whole query
        authorizer = _Authorizer()
        raw.set_authorizer(authorizer)
        # one value at most MAX_ROW_BYTES: randomblob, zeroblob, printf, replace and
        # group_concat fail with "string or blob too big" instead of allocating gigabytes;
        # and at most MAX_COLUMNS of them in a row
        raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_ROW_BYTES)
        raw.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, MAX_COLUMNS)
        printf = _Printf()
        for name in ("printf", "format") if sqlite3.sqlite_version_info >= (3, 38) else ("printf",):
            raw.create_function(name, -1, printf, deterministic=True)
        if clock.deadline is not None:
            # also runs while rows are fetched, so the time the caller spends writing the
            # previous batch counts; a non-zero answer interrupts the statement
            raw.set_progress_handler(clock.expired, _PROGRESS_OPS)
        cursor = raw.cursor()
        authorizer.armed = True

        def error(exc: sqlite3.Error) -> QueryError:
            text = str(exc)
            if clock.timeout is not None and clock.expired() and "interrupt" in text:
                return QueryTimeoutError(clock.timeout)
            if authorizer.refused is not None or "readonly" in text:
                what = authorizer.refused or "writing"
                return QueryError(f"ratings sql is read-only: {what} is not allowed")
            if "too big" in text or printf.refused:
                return _value_too_long()
            if "too many columns" in text:
                return QueryError(f"{text} (ratings sql reads at most {MAX_COLUMNS})")
            return QueryError(text)

        def out_of_memory(exc: MemoryError) -> MemoryError | QueryMemoryError:
            # SQLite's SQLITE_NOMEM is Python's MemoryError, as is the process's own: with
            # the heap limit set, the error names it
            if heap_limit is None:
                return exc
            return _out_of_memory(heap_limit)

        def chunks() -> Iterator[list[tuple[Any, ...]]]:
            while True:
                try:
                    chunk = cursor.fetchmany(_FETCH_ROWS)
                except sqlite3.Error as exc:
                    raise error(exc) from exc
                except MemoryError as exc:
                    raise out_of_memory(exc) from None
                if not chunk:
                    return
                yield chunk

        try:
            try:
                cursor.execute(query)
            except sqlite3.Error as exc:
                raise error(exc) from exc
            except MemoryError as exc:
                raise out_of_memory(exc) from None
            if cursor.description is None:
                yield QueryStream((), _no_rows, clock)
            else:
                columns = tuple(str(column[0]) for column in cursor.description)
                yield QueryStream(columns, _bounded(chunks(), batch_size), clock)
        finally:
            cursor.close()
            raw.set_authorizer(None)
            raw.set_progress_handler(None, 0)
            printf.close()
            # the connection keeps those limits and functions: it is closed, not pooled
            conn.invalidate()


@contextmanager
def _open_postgresql(
    engine: Engine, query: str, clock: _Clock, batch_size: int
) -> Iterator[QueryStream]:
    import psycopg
    from psycopg import pq

    with engine.connect() as conn:
        raw: Any = conn.connection.driver_connection
        try:
            conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            warning = privileges.writing_functions_warning(conn)
            function = privileges.enter_reader_role(conn)
            if clock.timeout is not None:
                ms = max(1, math.ceil(clock.timeout * 1000))
                conn.exec_driver_sql(f"SET LOCAL statement_timeout = {ms}")
        except sa_exc.DBAPIError as exc:
            raise QueryError(_first_line(exc.orig or exc)) from exc
        columns = _columns_of(raw, query)
        kind = statement_kind(query)
        if kind not in READING_KINDS:
            raise QueryError(
                f"ratings sql is read-only: {kind or 'this statement'} is not allowed "
                "(on PostgreSQL it runs queries: SELECT, WITH, VALUES, TABLE)"
            )
        cursor = raw.cursor()
        # chunks need libpq 17; an older one sends row by row. A row longer than
        # MAX_ROW_BYTES is not sent: the server sends its length instead (repeat('x',
        # 500000000) took 4 GB here before)
        size = _PG_CHUNK if pq.version() >= 170000 else 1
        rows = cursor.stream(
            "SELECT CASE WHEN octet_length(r) <= %s THEN r END, octet_length(r) "
            f"FROM {function}(%s) AS q(r)",
            [MAX_ROW_BYTES, query],
            size=size,
        )

        carry: list[tuple[str | None, int]] = []

        def fetch() -> list[tuple[Any, ...]]:
            # batches as _bounded cuts them, by the lengths the server sent
            nonlocal carry
            batch: list[tuple[Any, ...]] = []
            held = 0
            source, carry = chain(carry, rows), []
            try:
                for text, length in source:
                    if text is None:
                        raise _row_too_long(length)
                    if batch and held + length > BATCH_BYTES:
                        carry = [(text, length)]
                        break
                    batch.append(_json_row(text))
                    held += length
                    if len(batch) >= batch_size:
                        break
            except psycopg.Error as exc:
                if exc.sqlstate == "57014" and clock.timeout is not None:  # query_canceled
                    raise QueryTimeoutError(clock.timeout) from exc
                raise QueryError(_first_line(exc)) from exc
            return batch

        stream = QueryStream(columns, fetch, clock)
        stream.warnings = (warning,) if warning else ()
        try:
            yield stream
        finally:
            rows.close()  # cancels the query if it is still sending
            cursor.close()


def _columns_of(raw: Any, query: str) -> tuple[str, ...]:
    """Parse ``query`` as one statement (nothing runs) and return its column names."""
    from psycopg import pq

    encoding = raw.info.encoding
    result = raw.pgconn.prepare(b"", query.encode(encoding))
    if result.status != pq.ExecStatus.COMMAND_OK:
        raise QueryError(_result_message(result, encoding))
    result = raw.pgconn.describe_prepared(b"")
    if result.status != pq.ExecStatus.COMMAND_OK:
        raise QueryError(_result_message(result, encoding))
    return tuple(result.fname(i).decode(encoding) for i in range(result.nfields))


def _result_message(result: Any, encoding: str) -> str:
    from psycopg import pq

    message = result.error_field(pq.DiagnosticField.MESSAGE_PRIMARY)
    if message:
        return str(message.decode(encoding, "replace"))
    return str(result.error_message.decode(encoding, "replace")).strip() or "the query failed"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else repr(exc)


class _Pairs(list[tuple[str, Any]]):
    """A JSON object's members in order, repeated names included."""


_JSON = json.JSONDecoder(object_pairs_hook=_Pairs, parse_float=Decimal)


def _json_row(text: str) -> tuple[Any, ...]:
    """A row from the query function: numbers stay numbers (Decimal for fractions)."""
    return tuple(_plain(value) for _, value in _JSON.decode(text))


def _plain(value: Any) -> Any:
    """A JSON value inside a column (a json column's object) as plain dicts and lists."""
    if isinstance(value, _Pairs):
        return {name: _plain(item) for name, item in value}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
