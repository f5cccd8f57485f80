"""The minimal floor (issue 16, item 3): what a rating must write, and nothing else.

``bench/floor.py`` writes what our code writes: a full list row for every registered player
in every period. This floor writes only one list row per *active* player-period (a player
with a rated game in the period) and one breakdown row per rated game side; the players
without games keep their last row. Plain stdlib ``sqlite3`` on a database built by our
migrations, placeholder values, no checks, no rating arithmetic, one ``BEGIN IMMEDIATE``
transaction per step, as ``bench/floor.py``.

``run_step(step, db, arg)`` is called by ``bench/run.py``'s worker (kind ``minimal``):
``import`` is ``bench/floor.py``'s (storing events and games is already minimal); ``rate``
rates every period from the first game's, keeping each player's rating in memory; ``next``
rates the periods after the last rated one (``bench/world.py``'s month), reading each active
player's newest list row, one indexed lookup each.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import floor  # bench/floor.py


def run_step(step: str, db: Path, arg: str) -> dict[str, Any]:
    """Run one step of the minimal floor on ``db``; returns counts of what it did."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        if step == "import":
            info = floor.import_games(conn, Path(arg))
        elif step == "rate":
            info = _rate(conn)
        elif step == "next":
            last = conn.execute("SELECT max(start_date) FROM rating_periods").fetchone()[0]
            info = _rate(conn, floor._next_month(date.fromisoformat(last)))
        else:
            raise ValueError(f"the minimal floor has no step {step!r}")
        conn.execute("COMMIT")
    finally:
        conn.close()
    return info


def _rate(conn: sqlite3.Connection, start: date | None = None) -> dict[str, Any]:
    """Rate from the first game's period, or from ``start`` (after a rated history)."""
    first_end, last_end = conn.execute(
        "SELECT min(e.end_date), max(e.end_date) FROM events e "
        "WHERE EXISTS (SELECT 1 FROM games g WHERE g.event_id = e.id AND g.rateable)"
        + ("" if start is None else " AND e.end_date >= ?"),
        () if start is None else (start.isoformat(),),
    ).fetchone()
    rating: dict[int, int | None] = {}
    if start is None:
        rating = dict(
            conn.execute("SELECT id, entry_rating FROM players WHERE merged_into_id IS NULL")
        )
    now = datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" ")
    periods = games = history_rows = breakdown_rows = 0
    first = floor._month_start(first_end) if start is None else start
    for start in floor._months(first, floor._month_start(last_end)):
        following = floor._next_month(start)
        period_end = (following - timedelta(days=1)).isoformat()
        period_id = conn.execute(
            "INSERT INTO rating_periods (label, start_date, end_date, list_date, status, "
            "rated_at) VALUES (?, ?, ?, ?, 'published', ?)",
            (f"{start:%Y-%m}", start.isoformat(), period_end, following.isoformat(), now),
        ).lastrowid
        rows = conn.execute(
            "SELECT g.id, g.white_id, g.black_id FROM games g JOIN events e "
            "ON e.id = g.event_id WHERE e.end_date >= ? AND e.end_date <= ? AND g.rateable",
            (start.isoformat(), period_end),
        ).fetchall()
        breakdown: list[tuple[object, ...]] = []
        active: set[int] = set()
        for game_id, white, black in rows:
            breakdown.append((period_id, game_id, white, black, *floor.BREAKDOWN_PLACEHOLDER))
            breakdown.append((period_id, game_id, black, white, *floor.BREAKDOWN_PLACEHOLDER))
            active.add(white)
            active.add(black)
        for pid in active - rating.keys():  # after a history: the newest row of each
            found = conn.execute(
                "SELECT rating_after FROM rating_history WHERE player_id = ? "
                "AND time_control = 'standard' ORDER BY period_id DESC LIMIT 1",
                (pid,),
            ).fetchone()
            rating[pid] = None if found is None else found[0]
        conn.executemany(
            f"INSERT INTO rating_breakdown ({', '.join(floor.BREAKDOWN_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(floor.BREAKDOWN_COLUMNS))})",
            breakdown,
        )
        conn.executemany(
            f"INSERT INTO rating_history ({', '.join(floor.HISTORY_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(floor.HISTORY_COLUMNS))})",
            (
                (period_id, pid, rating.get(pid), rating.get(pid), *floor.HISTORY_PLACEHOLDER)
                for pid in sorted(active)
            ),
        )
        periods += 1
        games += len(rows)
        history_rows += len(active)
        breakdown_rows += len(breakdown)
    return {
        "periods": periods,
        "games": games,
        "history_rows": history_rows,
        "breakdown_rows": breakdown_rows,
        "first": date.isoformat(first),
    }
