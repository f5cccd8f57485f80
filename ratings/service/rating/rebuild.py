"""The rebuild: every list rated again from the stored inputs alone, in a scratch database
(docs/DESIGN.md#the-rebuild).

A check that compares stored rows with other stored rows proves only that they agree with
each other. :func:`rebuild` reads what a rate reads and nothing it wrote - the register with
its corrections, the events, games and byes, the settings, the imports (FIDE lists among
them), the aliases and the corrections log - into a new in-memory SQLite database made by
the same migrations, and runs :func:`ratings.service.rating.rate.rate` there over the span of
periods the checked database published. One code path rates; the rebuild has no copy of
the rules. The checked database is only read, through the caller's session, on SQLite and
PostgreSQL alike.

:func:`write_rebuild` keeps the rebuilt database as a SQLite file of the same schema
(``ratings check --rebuild-into FILE``), so that two databases can be diffed with SQL.
"""

from __future__ import annotations

import datetime as dt
import decimal
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from ratings import files
from ratings.db import Base, SessionFactory, sqlite_uri
from ratings.errors import DatabaseError
from ratings.models import RatingPeriod
from ratings.rules import Period, RuleVariant
from ratings.service.rating.rate import RateReport, rate
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import BULK_CHUNK, to_date

__all__ = [
    "INPUT_TABLES",
    "OUTPUT_TABLES",
    "Rebuilt",
    "rebuild",
    "write_rebuild",
]

INPUT_TABLES = (
    "settings",
    "imports",
    "players",
    "events",
    "games",
    "byes",
    "player_aliases",
    "corrections",
    "merge_moves",
)
"""The tables a rebuild copies: what the administrator and the files gave, never what a
rate wrote. ``tests/rating/test_check_rebuild.py`` checks that every table of the schema is
here or in :data:`OUTPUT_TABLES`, so that a new table is classed before it is forgotten."""

OUTPUT_TABLES = (
    "rating_periods",
    "rating_history",
    "rating_breakdown",
    "superseded_ratings",
    "list_seals",
)
"""The tables a rate writes (the superseded values are a re-rate's record of what it
replaced, the seals the chain of what it published: a rebuild has neither)."""


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """A rebuilt database, open: its session (the scratch database's only one) and what the
    rate did there."""

    session: Session
    periods: tuple[Period, ...]
    """The span rated: the checked database's published periods, oldest first."""
    report: RateReport
    source_file: Path | None = None
    """The checked SQLite file, when the rebuild copied it whole (nothing uncommitted): a
    comparison may attach it (:func:`ratings.service.reading.list_diff.differing_periods`)."""
    raw: sqlite3.Connection | None = None
    """The scratch database's one driver connection (for SQL outside the session's
    transactions, such as ATTACH)."""


_template_lock = threading.Lock()
_template: bytes | None = None


def _schema_template() -> bytes:
    """An empty database at the newest schema, made by the migrations once a process and kept
    as SQLite's serialised image (a rebuild starts from a copy: milliseconds, not a run of
    every revision)."""
    global _template
    with _template_lock:
        if _template is None:
            from ratings import migrate

            raw = sqlite3.connect(":memory:", check_same_thread=False)
            engine = _engine_on(raw)
            try:
                with engine.begin() as conn:
                    migrate.run_migrations(conn)
                _template = raw.serialize()
            finally:
                engine.dispose()
                raw.close()
        return _template


def _engine_on(raw: sqlite3.Connection) -> Engine:
    """An engine whose one connection is ``raw``, with the product's BEGIN handling
    (docs/DESIGN.md#transactional-ddl-on-sqlite) and foreign keys off: the rows copied are
    a consistent database's, and a merged player may point at a later id."""
    raw.isolation_level = None
    raw.execute("PRAGMA foreign_keys = OFF")
    engine = sa.create_engine("sqlite://", creator=lambda: raw, poolclass=StaticPool)

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        conn.exec_driver_sql("BEGIN")

    return engine


def published_span(session: Session) -> tuple[Period, ...]:
    """The periods the checked database published, oldest first."""
    months = get_config(session).period_months
    starts = session.scalars(sa.select(RatingPeriod.start_date).order_by(RatingPeriod.start_date))
    return tuple(Period(to_date(day), months) for day in starts)


@contextmanager
def rebuild(
    session: Session,
    *,
    through: Period | None = None,
    prepare: Callable[[Session], None] | None = None,
    variant: RuleVariant | None = None,
) -> Iterator[Rebuilt]:
    """Rate the inputs of ``session``'s database again, from scratch, in a new in-memory
    database: every period from the oldest published one through ``through`` (default: the
    newest published). Yields the open rebuild; it is gone when the block ends.

    :param prepare: called with the scratch database's session once the inputs are in it,
        before the rate: a what-if changes them there (``ratings whatif``).
    :param variant: rules that are not FIDE's for the scratch rate (``ratings whatif``).
    :raises DatabaseError: nothing is rated in the checked database.
    """
    span = published_span(session)
    if not span:
        raise DatabaseError("nothing is rated yet: there is nothing to rebuild")
    if through is not None:
        span = tuple(p for p in span if p <= through)
    source = _committed_sqlite_file(session)
    raw = sqlite3.connect("file:rebuild?mode=memory", uri=True, check_same_thread=False)
    if source is not None:
        _copy_sqlite_file(raw, source)
    else:
        raw.deserialize(_schema_template())
    engine = _engine_on(raw)
    try:
        with SessionFactory(bind=engine) as scratch:
            with scratch.begin():
                if source is None:
                    copy_inputs(session, scratch)
                if prepare is not None:
                    prepare(scratch)
                report = rate(scratch, through=span[-1], first=span[0], seal=False, variant=variant)
            # committed: the rebuilt rows are read (and backed up) from here on
            yield Rebuilt(scratch, span, report, source, raw)
    finally:
        engine.dispose()
        raw.close()


def _committed_sqlite_file(session: Session) -> Path | None:
    """The SQLite file behind ``session`` when everything the session sees is committed in it
    (its connection has written nothing): the rebuild then copies it in SQLite's own code
    (:func:`_copy_sqlite_file`). None for PostgreSQL, a database in memory, or a connection
    that wrote (its uncommitted rows are read through the session instead)."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        return None
    raw = conn.connection.dbapi_connection
    if not isinstance(raw, sqlite3.Connection) or raw.total_changes:
        return None
    for _, name, file in raw.execute("PRAGMA database_list"):
        if name == "main":
            return Path(file) if file else None
    return None


def _copy_sqlite_file(raw: sqlite3.Connection, source: Path) -> None:
    """The checked file's schema (made by the same migrations: its revision is this code's)
    and its input tables, into the empty database ``raw``: attached read-only, the tables and
    indexes created from its own SQL, the views and triggers from ratings' own
    (:mod:`ratings.schema_objects`: one planted in the file would act in the rebuild too),
    the rows copied with ``INSERT ... SELECT``. A rate's outputs are not copied. (Seconds
    faster than running every revision and copying row by row through Python:
    bench/RESULTS.md.)"""
    from ratings.schema_objects import SQLITE_TRIGGERS
    from ratings.views import VIEWS

    raw.isolation_level = None
    raw.execute("PRAGMA foreign_keys = OFF")
    raw.execute("ATTACH DATABASE ? AS src", (sqlite_uri(source, mode="ro"),))
    try:
        raw.execute("BEGIN")
        objects = raw.execute(
            "SELECT sql FROM src.sqlite_master WHERE sql IS NOT NULL "
            "AND type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' "
            "ORDER BY CASE type WHEN 'table' THEN 0 ELSE 1 END, rowid"
        ).fetchall()
        for (sql,) in objects:
            raw.execute(sql)
        for view in VIEWS:
            raw.execute(view.create_sql())
        for trigger in SQLITE_TRIGGERS.values():
            raw.execute(trigger)
        for name in (*INPUT_TABLES, "alembic_version"):
            raw.execute(f'INSERT INTO main."{name}" SELECT * FROM src."{name}"')
        raw.execute("COMMIT")
    finally:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raw.execute("DETACH DATABASE src")


def copy_inputs(source: Session, scratch: Session) -> int:
    """Copy every input table (:data:`INPUT_TABLES`) of ``source`` into the empty scratch
    database, column for column, ids kept. Returns the rows copied."""
    to = scratch.connection()
    from_sqlite = source.connection().dialect.name == "sqlite"
    copied = 0
    for name in INPUT_TABLES:
        table = Base.metadata.tables[name]
        columns = [c.name for c in table.columns]
        if name == "settings":
            to.exec_driver_sql("DELETE FROM settings")
        select = f"SELECT {', '.join(columns)} FROM {name} ORDER BY {columns[0]}"
        insert = (
            f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        )
        cursor = source.connection().connection.cursor()
        try:
            cursor.execute(select)
            while rows := cursor.fetchmany(BULK_CHUNK):
                if not from_sqlite:
                    rows = [_as_sqlite_row(row) for row in rows]
                to.exec_driver_sql(insert, rows)
                copied += len(rows)
        finally:
            cursor.close()
    return copied


def _as_sqlite_row(row: Sequence[Any]) -> tuple[Any, ...]:
    """A row read from PostgreSQL as SQLite stores it through SQLAlchemy's types: dates and
    times as ISO text (six digits of microseconds), booleans as 0/1."""
    return tuple(_as_sqlite(value) for value in row)


def _as_sqlite(value: Any) -> Any:
    if value is None or (isinstance(value, (int, str, float)) and not isinstance(value, bool)):
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return int(value)
    return value


def write_rebuild(
    rebuilt: Rebuilt, dest: Path, *, force: bool = False, database: Path | None = None
) -> None:
    """Write the rebuilt database to the SQLite file ``dest`` (the same schema as any ratings
    database): through SQLite's backup API into a temporary file beside it, renamed into
    place (:func:`ratings.files.write_file`). An existing file is replaced only with
    ``force``, and never ``database`` (the checked one) or a journal.

    :raises OutputFileError: a refused destination or a failed write; no file is left.
    """
    raw = rebuilt.session.connection().connection.dbapi_connection
    assert isinstance(raw, sqlite3.Connection)

    def fill(tmp: Path) -> None:
        out = sqlite3.connect(tmp)
        try:
            raw.backup(out)
        finally:
            out.close()

    files.write_file(dest, fill, force=force, database=database, sqlite=True)
