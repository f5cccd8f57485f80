"""Writing a period's rows (:class:`RowWriter`): the engine's list and breakdown rows in bulk
(executemany, COPY on PostgreSQL), and the carried copy: the rows of players whose row is the
previous one carried (:data:`ratings.rules.CARRIED`) are not bound one by one but copied in one
``INSERT ... SELECT`` from the previous period's list."""

from __future__ import annotations

import datetime as dt
import itertools
import sqlite3
from collections.abc import Iterable, Mapping, Sequence

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.models import RatingBreakdown
from ratings.service.rating.postgres import keys_checked_by_index, planner_setting_off
from ratings.service.shared.sql import BULK_CHUNK, copy_rows

__all__ = [
    "BREAKDOWN_COLUMNS",
    "CARRY_SELECT",
    "HISTORY_COLUMNS",
    "RowWriter",
    "copy_carried",
    "delete_breakdown",
    "insert_rows",
    "split_carried",
    "split_partial",
]


# list rows carry a date (last_active) to executemany: bound as ISO text, as SQLAlchemy's Date
# type stores it on SQLite (explicit: the sqlite3 module's default date adapter is deprecated)
sqlite3.register_adapter(dt.date, dt.date.isoformat)

BREAKDOWN_COLUMNS = rules.BreakdownLine._fields
HISTORY_COLUMNS = rules.ListEntry._fields


def insert_rows(
    session: Session,
    table: str,
    period_id: int,
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    time_control: str | None = None,
) -> None:
    """The engine's rows (named tuples in column order) through executemany, with the
    period's id (and the list's time control) written into the statement, or through COPY
    on PostgreSQL: no ORM object, no SQLAlchemy processing."""
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        head: tuple[object, ...] = (int(period_id),)
        if time_control is not None:
            head += (rules.time_control(time_control).value,)
        names = ("period_id", "time_control")[: len(head)]
        copy_rows(session, table, (*names, *columns), ((*head, *row) for row in rows))
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    fixed, values = "period_id", str(int(period_id))
    if time_control is not None:
        fixed += ", time_control"
        values += f", '{rules.time_control(time_control).value}'"
    sql = (
        f"INSERT INTO {table} ({fixed}, {', '.join(columns)}) "
        f"VALUES ({values}, {', '.join([mark] * len(columns))})"
    )
    # plain tuples: the sqlite3 module binds an exact tuple on its fast path (a named tuple
    # took about 10% longer to insert)
    chunks = map(tuple, rows)
    while batch := list(itertools.islice(chunks, BULK_CHUNK)):
        conn.exec_driver_sql(sql, batch)


def split_carried(
    rows: Sequence[rules.ListEntry], previous: tuple[int, dict[int, rules.ListEntry]] | None
) -> tuple[Sequence[rules.ListEntry], int]:
    """The rows to insert one by one, and how many rows are plain carries of the previous
    period's: a player without games whose row is the previous row with the rating after as
    the rating before and nothing counted (:data:`CARRY_SELECT`), every other value equal.
    Most players, most periods; :func:`copy_carried` writes those in one INSERT ... SELECT,
    twice as fast as binding them (bench/RESULTS.md). When a player on the previous
    list is missing from this one, nothing is carried (the copy takes every player not
    inserted)."""
    if previous is None:
        return rows, 0
    before = previous[1]
    explicit: list[rules.ListEntry] = []
    on_both = 0
    for row in rows:
        old = before.get(row.player_id)
        if old is not None:
            on_both += 1
            if rules.is_carried(row, old):
                continue
        explicit.append(row)
    if on_both != len(before):
        return rows, 0
    return explicit, len(rows) - len(explicit)


def split_partial(
    rows: Sequence[rules.ListEntry], before: Mapping[int, rules.ListEntry], listed: int
) -> tuple[list[rules.ListEntry], int]:
    """:func:`split_carried` for the rows of some players only
    (:meth:`ratings.service.rating.state.ListState._players_for`): the rows to insert, and how
    many rows to copy from the previous list, of the ``listed`` players on it still
    registered: every one but those inserted."""
    explicit: list[rules.ListEntry] = []
    replaced = 0
    for row in rows:
        old = before.get(row.player_id)
        if old is None:
            explicit.append(row)  # not on the previous list
            continue
        if not rules.is_carried(row, old):
            explicit.append(row)
            replaced += 1
    return explicit, listed - replaced


CARRY_SELECT = {
    field: value if isinstance(value, str) else "NULL" if value is None else str(int(value))
    for field, value in rules.CARRIED.items()
}
"""How a carried row's columns come from the previous row, in SQL (the others are copied as
they are): :data:`ratings.rules.CARRIED`, the one definition, as column names and literals."""


def copy_carried(
    session: Session,
    previous_id: int,
    period_id: int,
    tc_sql: str,
    expected: int,
    *,
    leave: frozenset[int] = frozenset(),
) -> None:
    """Copy the carried rows of the previous period into ``period_id``: every player of the
    previous list who has no row yet in this one (but those in ``leave``: merged away)."""
    columns = ", ".join(HISTORY_COLUMNS)
    select = ", ".join(CARRY_SELECT.get(c, f"p.{c}") for c in HISTORY_COLUMNS)
    conn = session.connection()
    # PostgreSQL plans the anti-join from statistics that a rate outruns (the new period's
    # rows are never in them): it expected one row a side and took a nested loop that read
    # the whole new period for every old row, 17-25 s a period at 20,000 players
    # (bench/RESULTS.md). Without nested loops it hashes one side: linear whatever the
    # statistics say.
    left = ""
    if leave:
        left = f" AND p.player_id NOT IN ({', '.join(str(int(pid)) for pid in sorted(leave))})"
    with planner_setting_off(session, "enable_nestloop"):
        done = conn.exec_driver_sql(
            f"INSERT INTO rating_history (period_id, time_control, {columns}) "
            f"SELECT {int(period_id)}, p.time_control, {select} FROM rating_history p "
            f"WHERE p.period_id = {int(previous_id)} AND p.time_control = {tc_sql} "
            "AND NOT EXISTS (SELECT 1 FROM rating_history c "
            f"WHERE c.period_id = {int(period_id)} AND c.time_control = {tc_sql} "
            "AND c.player_id = p.player_id)" + left
        )
    if done.rowcount != expected:  # the previous rows in the database are not the engine's
        raise RuntimeError(
            f"rating_history: {done.rowcount} rows carried over into period {period_id}, "
            f"{expected} expected"
        )


class RowWriter:
    """Writes one list's rows (standard, rapid or blitz), period after period: the breakdown
    rows and the list rows the engine answered, the carried ones copied from the previous
    period's list in SQL."""

    def __init__(self, session: Session, time_control: str = "standard") -> None:
        self.session = session
        self.time_control = rules.time_control(time_control).value
        self.tc_sql = f"'{self.time_control}'"  # one of three fixed words, never user text

    def write(
        self,
        period_id: int,
        outcome: rules.PeriodOutcome,
        previous: tuple[int, dict[int, rules.ListEntry]] | None,
        *,
        listed: int | None = None,
        gone: frozenset[int] = frozenset(),
    ) -> int:
        """Store the rows of the period ``period_id``; returns the rows its list holds.

        :param previous: the id and rows of the previous period's list, the rows carried
            are copied from (:func:`split_carried`).
        :param listed: when the engine rated only the players whose rows can change, how
            many players of the previous list are still registered (:func:`split_partial`);
            ``previous`` then holds the rows of those read.
        :param gone: players of the previous list merged away since (no row now).
        """
        if listed is None:
            explicit, carried = split_carried(outcome.list_rows, previous)
        else:
            assert previous is not None
            explicit, carried = split_partial(outcome.list_rows, previous[1], listed)
        session = self.session
        with keys_checked_by_index(session):
            insert_rows(
                session, "rating_breakdown", period_id, BREAKDOWN_COLUMNS, outcome.breakdown
            )
            insert_rows(
                session,
                "rating_history",
                period_id,
                HISTORY_COLUMNS,
                explicit,
                time_control=self.time_control,
            )
            if carried:
                assert previous is not None  # split_carried carries only from one
                copy_carried(session, previous[0], period_id, self.tc_sql, carried, leave=gone)
        return len(explicit) + carried


def delete_breakdown(session: Session, period_ids: Sequence[int]) -> None:
    """Delete the breakdown rows of the periods ``period_ids`` (a re-rate writes them
    again)."""
    if period_ids:
        session.execute(sa.delete(RatingBreakdown).where(RatingBreakdown.period_id.in_(period_ids)))
