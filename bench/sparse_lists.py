"""Prototype for issue 16's storage decision: a list row for every player in every period
(today's ``rating_history``), or only the rows that change, with every full list given by a
query that takes each player's newest row at or before a period.

Usage::

    python bench/sparse_lists.py /tmp/world/month.db --repeats 3

On a copy of a rated SQLite database with monthly periods (the file given is only read;
the copy and its compacted twin are made in a temporary folder beside it), it builds the table
``rating_changes``: the list rows that are not a plain carry of the same player's row on the
previous period's list (the carry test of ``ratings.service.rating.write.split_carried``: no game,
rating before and after the previous rating after, nothing counted, every other value equal),
with their period's start date, indexed by (player, list, start date). Then it times, each
``--repeats`` times (medians), on both storages:

* the newest standard list, every player's row (what ``ratings list`` reads);
* one player's rating in every period (what ``ratings history`` reads): the player with the
  most list rows in ``rating_changes``;
* the ten best ratings on the newest list.

Both storages must answer the same rows (checked on every run: a prototype that answers
differently measures nothing). Sizes: the database as it is, and a ``VACUUM INTO`` copy with
``rating_changes`` instead of ``rating_history`` (``--no-size`` skips that copy). Nothing of
the product changes: this measures what the change would give. The report (Markdown) goes to
stdout.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_SAME = (
    "units_per_point", "k10", "reached_2300", "next_k", "list_status", "inactive", "last_active",
)  # fmt: skip
CARRY_TEST = " AND ".join(
    [
        "h.period_games = 0",
        "h.rating_before IS o.rating_after",
        "h.rating_after IS o.rating_after",
        "h.change = 0",
        "h.k_used IS NULL",
        "h.total_games IS o.total_games",
        "h.score_half_points = 0",
        "h.pd_sum_units = 0",
        *(f"h.{column} IS o.{column}" for column in _SAME),
    ]
)
"""A row that is the previous row carried (``service.rating.write.split_carried``'s test)."""

NEWEST = (
    "SELECT c.player_id, c.rating_after, c.list_status, c.inactive FROM players pl "
    "JOIN rating_changes c ON c.rowid = (SELECT c2.rowid FROM rating_changes c2 "
    "WHERE c2.player_id = pl.id AND c2.time_control = 'standard' AND c2.start_date <= :day "
    "ORDER BY c2.start_date DESC LIMIT 1)"
)
"""Sparse: each player's newest standard row at or before ``:day``, one index seek per
registered player (only players who have one: the players a full list holds). Driven by the
players, not by the rows: a first version that probed every row of ``rating_changes`` took
7.0 s at ten years (bench/RESULTS.md)."""


def build(db: Path) -> int:
    """Create and fill ``rating_changes`` in ``db``; returns its row count."""
    conn = sqlite3.connect(db)
    try:
        conn.executescript(
            """
            DROP TABLE IF EXISTS previous_period;
            CREATE TEMP TABLE previous_period AS
                SELECT p.id AS period_id, o.id AS previous_id FROM rating_periods p
                LEFT JOIN rating_periods o ON o.start_date = date(p.start_date, '-1 month');
            DROP TABLE IF EXISTS rating_changes;
            """
        )
        conn.execute(
            "CREATE TABLE rating_changes AS SELECT h.*, p.start_date FROM rating_history h "
            "JOIN rating_periods p ON p.id = h.period_id "
            "JOIN temp.previous_period pp ON pp.period_id = h.period_id "
            "WHERE NOT EXISTS (SELECT 1 FROM rating_history o "
            "WHERE o.period_id = pp.previous_id AND o.time_control = h.time_control "
            f"AND o.player_id = h.player_id AND {CARRY_TEST})"
        )
        conn.execute(
            "CREATE INDEX ix_rating_changes_player ON rating_changes "
            "(player_id, time_control, start_date)"
        )
        conn.commit()
        count: int = conn.execute("SELECT count(*) FROM rating_changes").fetchone()[0]
        return count
    finally:
        conn.close()


def queries(conn: sqlite3.Connection) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Each timed question: (full storage's SQL, sparse storage's SQL, parameters)."""
    period_id, day = conn.execute(
        "SELECT id, start_date FROM rating_periods ORDER BY start_date DESC LIMIT 1"
    ).fetchone()
    player = conn.execute(
        "SELECT player_id FROM rating_changes WHERE time_control = 'standard' "
        "GROUP BY player_id ORDER BY count(*) DESC, player_id LIMIT 1"
    ).fetchone()[0]
    full_list = (
        "SELECT player_id, rating_after, list_status, inactive FROM rating_history "
        "WHERE period_id = :period AND time_control = 'standard'"
    )
    history = (
        "SELECT p.start_date, h.rating_after FROM rating_history h "
        "JOIN rating_periods p ON p.id = h.period_id "
        "WHERE h.player_id = :player AND h.time_control = 'standard'"
    )
    sparse_history = (
        "SELECT p.start_date, c.rating_after FROM rating_periods p JOIN rating_changes c "
        "ON c.rowid = (SELECT c2.rowid FROM rating_changes c2 WHERE c2.player_id = :player "
        "AND c2.time_control = 'standard' AND c2.start_date <= p.start_date "
        "ORDER BY c2.start_date DESC LIMIT 1)"
    )
    top = " ORDER BY 2 DESC, 1 LIMIT 10"
    params = {"period": period_id, "day": day, "player": player}
    return {
        "the newest standard list (every row)": (full_list, NEWEST, params),
        "one player's rating in every period": (history, sparse_history, params),
        "the ten best on the newest list": (
            f"SELECT player_id, rating_after FROM ({full_list}){top}",
            f"SELECT player_id, rating_after FROM ({NEWEST}){top}",
            params,
        ),
    }


def _timed(
    conn: sqlite3.Connection, sql: str, params: dict[str, Any], repeats: int
) -> tuple[list[float], list[Any]]:
    """Run one query ``repeats`` times: its times and its rows."""
    times: list[float] = []
    rows: list[Any] = []
    for _ in range(repeats):
        began = time.perf_counter()
        rows = conn.execute(sql, params).fetchall()
        times.append(time.perf_counter() - began)
    return times, rows


def measure(db: Path, repeats: int, work: Path, size: bool = True) -> dict[str, Any]:
    """Copy ``db`` into ``work``, build the sparse table, time both storages; every figure."""
    copy = work / "sparse.db"
    shutil.copyfile(db, copy)
    began = time.perf_counter()
    changes = build(copy)
    figures: dict[str, Any] = {"build_s": time.perf_counter() - began, "changes": changes}
    conn = sqlite3.connect(copy)
    try:
        figures["full_rows"] = conn.execute("SELECT count(*) FROM rating_history").fetchone()[0]
        timed: dict[str, Any] = {}
        for name, (full, sparse, params) in queries(conn).items():
            full_times, full_rows = _timed(conn, full, params, repeats)
            sparse_times, sparse_rows = _timed(conn, sparse, params, repeats)
            if sorted(full_rows) != sorted(sparse_rows):
                raise AssertionError(f"{name}: the sparse storage answers other rows")
            timed[name] = {"full": full_times, "sparse": sparse_times, "rows": len(full_rows)}
        figures["queries"] = timed
    finally:
        conn.close()
    figures["full_mb"] = db.stat().st_size / 2**20
    if size:
        small = work / "small.db"
        conn = sqlite3.connect(copy)
        try:
            conn.execute("DROP TABLE rating_history")
            conn.commit()
            conn.execute("VACUUM INTO ?", (str(small),))
        finally:
            conn.close()
        figures["sparse_mb"] = small.stat().st_size / 2**20
    return figures


def report(figures: dict[str, Any], argv: Sequence[str]) -> str:
    """The Markdown report."""
    lines = [
        f"Run: `python bench/sparse_lists.py {' '.join(argv)}`",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}; load average at the end {os.getloadavg()[0]:.2f}.",
        "",
        f"List rows: {figures['full_rows']:,} stored today; {figures['changes']:,} that are "
        f"not a carry of the previous row ({figures['changes'] / figures['full_rows']:.1%}); "
        f"building them took {figures['build_s']:.1f} s.",
    ]
    if "sparse_mb" in figures:
        lines.append(
            f"Database: {figures['full_mb']:,.0f} MB today, {figures['sparse_mb']:,.0f} MB "
            "with only the rows that change (VACUUM INTO)."
        )
    lines += [
        "",
        "| question (rows) | every row (s, median) | rows that change (s, median) |",
        "|---|---:|---:|",
    ]
    for name, timed in figures["queries"].items():
        lines.append(
            f"| {name} ({timed['rows']:,}) | {statistics.median(timed['full']):.3f} | "
            f"{statistics.median(timed['sparse']):.3f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("db", type=Path, help="a rated SQLite database (only read)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each query")
    parser.add_argument("--no-size", action="store_true", help="skip the VACUUM INTO copy")
    ns = parser.parse_args(args)
    work = Path(tempfile.mkdtemp(prefix="sparse-", dir=ns.db.resolve().parent))
    try:
        figures = measure(ns.db, ns.repeats, work, size=not ns.no_size)
        print(report(figures, args))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
