"""PostgreSQL's planner and statistics around a rate: planner settings switched off for the
statements they mis-plan, and the tables analyzed when their statistics are stale. Nothing
of it runs on SQLite, whose planner works from the indexes it has."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from sqlalchemy.orm import Session

__all__ = [
    "PLANNED_TABLES",
    "keys_checked_by_index",
    "planner_setting_off",
    "refresh_statistics",
    "stale_statistics",
]


@contextmanager
def planner_setting_off(session: Session, setting: str) -> Iterator[None]:
    """PostgreSQL: the statements inside with the planner's ``setting`` (``enable_...``)
    off, then RESET, which puts back the session's own setting (after an error the
    transaction is rolled back, and a SET LOCAL with it). Nothing on SQLite."""
    conn = session.connection()
    if conn.dialect.name != "postgresql":
        yield
        return
    conn.exec_driver_sql(f"SET LOCAL {setting} = off")
    yield
    conn.exec_driver_sql(f"RESET {setting}")


def keys_checked_by_index(session: Session) -> AbstractContextManager[None]:
    """PostgreSQL: a period's bulk writes with sequential scans off, for the foreign-key
    checks they fire, one a row written. Once ``rating_periods`` (a few pages) has
    statistics, as autovacuum soon gives it, the planner checks ``period_id`` by scanning
    the whole table, every period's row compared for every list and breakdown row (4.3
    million in a re-rate of 1M games): a quarter of the re-rate (bench/RESULTS.md). Only
    the writes run so: the rate's reads plan better with the session's setting."""
    return planner_setting_off(session, "enable_seqscan")


PLANNED_TABLES = ("players", "events", "games", "rating_history", "rating_breakdown")
"""The tables a rate reads that an import or a rate can grow many times over."""


def stale_statistics(reltuples: float, has_rows: bool, changed: int) -> bool:
    """Whether PostgreSQL's statistics of a table are too old to plan with: none gathered
    yet (``reltuples`` -1) on a table with rows, or more rows inserted, updated or deleted
    since (``changed``) than half the rows they counted."""
    if reltuples < 0:
        return has_rows
    return changed > reltuples / 2


def refresh_statistics(session: Session) -> None:
    """PostgreSQL: ANALYZE the tables of :data:`PLANNED_TABLES` whose statistics are stale
    (:func:`stale_statistics`), in the session's transaction (which sees its own rows).
    Autovacuum analyzes only some time after a commit: a rate that
    follows a large import planned its reads of ``games`` with no statistics at all.
    (Inside a rate, planning the reads of the lists it writes does not depend on them:
    :meth:`ratings.service.rating.state.ListState._read_players`.) Nothing is done on SQLite,
    whose planner works from the indexes it has."""
    conn = session.connection()
    if conn.dialect.name != "postgresql":
        return
    names = ", ".join(f"'{name}'" for name in PLANNED_TABLES)
    stale = [
        name
        for name, reltuples, has_rows, changed in conn.exec_driver_sql(
            "SELECT t.name, c.reltuples, pg_relation_size(c.oid) > 0, "
            "pg_stat_get_mod_since_analyze(c.oid) + pg_stat_get_xact_tuples_inserted(c.oid) "
            "+ pg_stat_get_xact_tuples_updated(c.oid) + pg_stat_get_xact_tuples_deleted(c.oid) "
            f"FROM unnest(ARRAY[{names}]) AS t(name) JOIN pg_class c "
            "ON c.oid = to_regclass(t.name)"
        )
        if stale_statistics(reltuples, has_rows, changed)
    ]
    for name in stale:
        conn.exec_driver_sql(f"ANALYZE {name}")  # a name of PLANNED_TABLES
