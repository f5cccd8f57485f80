"""A published rating list: its rows, and a read of it that needs no SQLAlchemy.

:func:`ratings.service.reading.reports.rating_list` is the list as every backend gives it.
:func:`read_published` is the same list read from a SQLite file with the standard library's
``sqlite3``, for ``ratings list``: importing SQLAlchemy alone took about 5 times a bare click
program's start (bench/RESULTS.md). It answers only where it gives exactly what
``rating_list`` gives (``tests/reading/test_rating_list_read.py`` compares the two field by field)
and returns None wherever the full path has more to do or to say: a URL, a file that is not
a database of this schema revision, a hot journal or an interrupted restore to clear, no
list published yet (the register with its entry ratings), a period that is not a rated
one's label. The caller then takes the full path, whose messages are the only ones.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ratings.dbfile import (
    BUSY_TIMEOUT_MS,
    HEAD_REVISION,
    URL_SCHEME,
    check_sqlite_file,
    journal_path,
    sqlite_uri,
)
from ratings.errors import DatabaseError
from ratings.files import interrupted_restore_left
from ratings.gc_pause import without_cycle_collection

PLAYER_FIELDS = ("id", "name", "fide_id", "federation", "sex", "title", "birth_year")
"""The columns of ``players`` a rating list (``ratings list``) and the website show for each
player, in this order (:data:`ratings.models.PLAYER_COLUMNS` is made of these names)."""

LIST_FIELDS = (
    "rating_after", "change", "period_games", "total_games", "next_k", "k10", "list_status",
)  # fmt: skip
"""The columns of ``rating_history`` a list row shows, in this order, after
:data:`PLAYER_FIELDS` (:data:`ratings.models.LIST_COLUMNS` is made of these names)."""

LISTS = ("standard", "rapid", "blitz")
"""FIDE's three lists, as ``rating_history.time_control`` holds them (``tests`` check them
against ``ratings.rules.TIME_CONTROLS``)."""


@dataclass(frozen=True, slots=True)
class ListRow:
    """One line of a rating list."""

    # a row is made of its selected columns in this order: PLAYER_FIELDS, LIST_FIELDS, inactive
    player_id: int
    name: str
    fide_id: int | None
    federation: str | None
    sex: str | None
    title: str | None
    birth_year: int | None
    rating: int | None
    change: int
    """Whole points (art. 8.3.4)."""
    period_games: int
    """Games that counted in the period."""
    total_games: int | None
    """Rated games completed through the period (entry games included); None: unknown."""
    next_k: int | None
    """K for the next period (before the 700 rule)."""
    k10: bool
    list_status: str = "listed"
    """listed, first_rating (``change`` means nothing: there was no rating before), unrated
    or below_floor."""
    inactive: bool = False
    """No rated game in the 12 months up to the list (FIDE's ``i``)."""

    @property
    def flag(self) -> str | None:
        """FIDE's flag: ``w`` a woman, ``i`` inactive, ``wi`` both; None for none."""
        flag = ("w" if self.sex == "f" else "") + ("i" if self.inactive else "")
        return flag or None


LIST_CSV_COLUMNS = (
    "name", "fide_id", "federation", "title", "birth_year", "rating", "change", "period_games",
    "total_games", "next_k", "k10",
)  # fmt: skip
"""The columns of ``ratings list --format csv`` and of the site's list downloads (which add
``flags``), named as the ``rating_lists`` and ``current_ratings`` views name them."""


@dataclass(frozen=True, slots=True)
class RatingList:
    """A published list (``period`` None: the register before any period was rated)."""

    period: str | None
    list_date: dt.date | None
    rows: tuple[ListRow, ...]
    rerate_pending: str | None = None
    """The oldest period a correction marked, if any: this list may still change."""


def sort_key(row: ListRow) -> tuple[int, int, str, int]:
    """A list's order: rated first, highest first, then by name and id."""
    return (row.rating is None, -(row.rating or 0), row.name.lower(), row.player_id)


def read_published(
    db: str, period_label: str | None, *, include_unrated: bool, time_control: str
) -> RatingList | None:
    """The list ``time_control`` that the rated period ``period_label`` published (None: the
    newest that published it), read from the SQLite file ``db`` (a ``--db`` value) in one
    read-only transaction; None where :func:`ratings.service.reading.reports.rating_list` must
    answer
    (see the module's docstring)."""
    if time_control not in LISTS or not db or db == ":memory:" or URL_SCHEME.match(db):
        return None
    path = Path(db)
    try:
        check_sqlite_file(path, must_exist=True)
    except DatabaseError:
        return None
    if journal_path(path).exists() or interrupted_restore_left(path):
        return None  # a killed writer's journal to roll back, a restore's leftovers to clear
    try:
        conn = sqlite3.connect(
            sqlite_uri(path, mode="ro"),
            uri=True,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
        )
    except sqlite3.Error:
        return None
    try:
        conn.execute("BEGIN")  # one snapshot for the revision, the period and the rows
        return _read(conn, period_label, include_unrated, time_control)
    except sqlite3.Error:
        return None  # the full path opens it again and says what is wrong
    finally:
        conn.close()


_PUBLISHES = (
    " AND EXISTS (SELECT 1 FROM rating_history AS h WHERE h.period_id = rating_periods.id"
    " AND h.time_control = ?)"
)
"""The period published the list (it has rows on it), as ``reports._publishes`` says."""


@without_cycle_collection  # 600,000 rows at FIDE's size, as reports.rating_list
def _read(
    conn: sqlite3.Connection, label: str | None, include_unrated: bool, time_control: str
) -> RatingList | None:
    revision = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]
    if revision != [HEAD_REVISION]:
        return None  # the full path says: no schema, run 'ratings db upgrade', or upgrade
    publishes = _PUBLISHES if time_control != "standard" else ""
    args: tuple[str, ...] = (time_control,) if publishes else ()
    if label is None:
        period = conn.execute(
            f"SELECT id, label, list_date FROM rating_periods WHERE 1 = 1{publishes} "
            "ORDER BY start_date DESC LIMIT 1",
            args,
        ).fetchone()
    else:
        period = conn.execute(
            f"SELECT id, label, list_date FROM rating_periods WHERE label = ?{publishes}",
            (label, *args),
        ).fetchone()
    if period is None:
        return None  # the register, or the message about a period that is not rated
    period_id, period_label, list_date = period
    columns = ", ".join(
        [f"p.{name}" for name in PLAYER_FIELDS] + [f"h.{name}" for name in LIST_FIELDS]
    )
    rated = " AND h.rating_after IS NOT NULL" if not include_unrated else ""
    rows = [
        ListRow(*(*row[:12], bool(row[12]), row[13], bool(row[14])))
        for row in conn.execute(
            f"SELECT {columns}, h.inactive FROM players AS p "
            "JOIN rating_history AS h ON h.player_id = p.id "
            f"WHERE h.period_id = ? AND h.time_control = ?{rated}",
            (period_id, time_control),
        )
    ]
    rows.sort(key=sort_key)
    pending = conn.execute(
        "SELECT label FROM rating_periods WHERE status = 'needs_rerate' ORDER BY start_date LIMIT 1"
    ).fetchone()
    return RatingList(
        period_label,
        dt.date.fromisoformat(list_date),
        tuple(rows),
        pending[0] if pending else None,
    )
