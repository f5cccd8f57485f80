"""The I/O floor of the benchmark: the reads and writes of each step, and nothing else.

Plain stdlib ``sqlite3`` and ``executemany`` on a database built by our migrations, with the
same connection settings as the product (foreign keys on, one ``BEGIN IMMEDIATE`` transaction
per step). No validation, no rating arithmetic: the rows written have the right shape and
count (one list row per registered player per period, two breakdown rows per rated game) but
placeholder values. What our code does beyond this is its logic; the ratio ours / floor is the
price of that logic.

``run_step(step, db, arg)`` is called by ``bench/run.py`` in a worker subprocess:

- ``import``: read the games CSV at ``arg``, resolve names and FIDE ids, write the import row,
  the events and the games;
- ``rate``: rate every period from the first game's to the last game's;
- ``next``: rate the periods after the last rated one;
- ``rerate``: turn round the result of game ``arg``, then re-rate from its period on: read the
  old list rows (to report changes), delete the period rows, write them again.
"""

from __future__ import annotations

import csv
import hashlib
import io
import sqlite3
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

BREAKDOWN_COLUMNS = (
    "period_id", "game_id", "player_id", "opponent_id", "own_rating", "opponent_rating",
    "difference", "score_half_points", "pd_units", "dr_units", "units_per_point", "k_used",
    "counts_for",
)  # fmt: skip
"""The columns of a breakdown row the floor writes (here and in ``bench/floor_pg.py``)."""
BREAKDOWN_PLACEHOLDER = (1500, 1500, 0, 1, 50, 0, 100, 20, "change")
"""A breakdown row's values after its four ids: a draw between equals (S 1 half point,
PD .50, dR 0, in hundredths)."""
HISTORY_COLUMNS = (
    "period_id", "player_id", "rating_before", "rating_after", "change", "k_used",
    "period_games", "total_games", "score_half_points", "pd_sum_units", "units_per_point",
    "k10", "reached_2300", "next_k", "list_status",
)  # fmt: skip
"""The columns of a list row the floor writes."""
HISTORY_PLACEHOLDER = (0, None, 0, 0, 0, 0, 100, False, False, 20, "listed")
"""A list row's values after (period, player, rating before, rating after): unchanged."""


def run_step(step: str, db: Path, arg: str) -> dict[str, Any]:
    """Run one step of the floor on ``db``; returns counts of what it did."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        if step == "import":
            info = import_games(conn, Path(arg))
        elif step == "rate":
            first = conn.execute(
                "SELECT min(e.end_date) FROM events e "
                "WHERE EXISTS (SELECT 1 FROM games g WHERE g.event_id = e.id AND g.rateable)"
            ).fetchone()[0]
            info = rate_from(conn, _month_start(first))
        elif step == "next":
            last = conn.execute("SELECT max(start_date) FROM rating_periods").fetchone()[0]
            info = rate_from(conn, _next_month(date.fromisoformat(last)))
        elif step == "rerate":
            game_id = int(arg)
            end = conn.execute(
                "SELECT e.end_date FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = ?",
                (game_id,),
            ).fetchone()[0]
            conn.execute(
                "UPDATE games SET result = CASE result WHEN '1-0' THEN '0-1' ELSE '1-0' END "
                "WHERE id = ?",
                (game_id,),
            )
            start = _month_start(end)
            conn.execute(
                "UPDATE rating_periods SET status = 'needs_rerate' WHERE start_date = ?",
                (start.isoformat(),),
            )
            info = rate_from(conn, start)
        else:
            raise ValueError(f"unknown step: {step!r}")
        conn.execute("COMMIT")
    finally:
        conn.close()
    return info


def import_games(conn: sqlite3.Connection, path: Path) -> dict[str, Any]:
    """Read a games CSV and store its events and games (no checks)."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    conn.execute("SELECT id FROM imports WHERE content_hash = ?", (digest,)).fetchall()
    by_name: dict[str, int] = {}
    by_fide: dict[str, int] = {}
    for pid, name, fide_id in conn.execute(
        "SELECT id, name, fide_id FROM players WHERE merged_into_id IS NULL"
    ):
        by_name[name.lower()] = pid
        if fide_id is not None:
            by_fide[str(fide_id)] = pid
    spans, games = read_games(data, by_name, by_fide)
    now = datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" ")
    import_id = conn.execute(
        "INSERT INTO imports (kind, file_name, content_hash, imported_at, rows) "
        "VALUES ('games_csv', ?, ?, ?, ?)",
        (str(path), digest, now, len(games)),
    ).lastrowid
    conn.executemany(
        "INSERT INTO events (name, start_date, end_date, source, import_id) "
        "VALUES (?, ?, ?, 'csv', ?)",
        ((name, first, last, import_id) for name, (first, last) in spans.items()),
    )
    event_ids = dict(
        conn.execute("SELECT name, id FROM events WHERE import_id = ?", (import_id,)).fetchall()
    )
    conn.executemany(
        "INSERT INTO games (event_id, round, played_on, white_id, black_id, result, rateable) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        ((event_ids[g[0]], *g[1:]) for g in games),
    )
    return {"games": len(games)}


def read_games(
    data: bytes, by_name: dict[str, int], by_fide: dict[str, int]
) -> tuple[dict[str, list[str]], list[tuple[str, str, str, int, int, str, bool]]]:
    """Parse a games CSV: each event's first and last day, and each game as (event, round,
    day, white id, black id, result, rateable), names and FIDE ids resolved (no checks)."""
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))
    header = [cell.strip() for cell in next(reader)]
    at = {column: i for i, column in enumerate(header)}
    i_date, i_white, i_black, i_result = at["date"], at["white"], at["black"], at["result"]
    i_event, i_round = at["event"], at["round"]
    spans: dict[str, list[str]] = {}
    games: list[tuple[str, str, str, int, int, str, bool]] = []
    for cells in reader:
        day, event = cells[i_date], cells[i_event]
        span = spans.get(event)
        if span is None:
            spans[event] = [day, day]
        elif day > span[1]:
            span[1] = day
        white, black = cells[i_white], cells[i_black]
        result = cells[i_result]
        games.append(
            (
                event,
                cells[i_round],
                day,
                by_fide[white] if white.isdigit() else by_name[white.lower()],
                by_fide[black] if black.isdigit() else by_name[black.lower()],
                result,
                result in ("1-0", "0-1", "1/2-1/2"),
            )
        )
    return spans, games


def rate_from(conn: sqlite3.Connection, start: date) -> dict[str, Any]:
    """Write every period's rows from ``start`` through the last game's period."""
    last_end = conn.execute(
        "SELECT max(e.end_date) FROM events e "
        "WHERE EXISTS (SELECT 1 FROM games g WHERE g.event_id = e.id AND g.rateable)"
    ).fetchone()[0]
    last_rated = conn.execute("SELECT max(start_date) FROM rating_periods").fetchone()[0]
    end = max(_month_start(last_end), _month_start(last_rated or last_end))
    existing = dict(
        conn.execute(
            "SELECT start_date, id FROM rating_periods WHERE start_date >= ?",
            (start.isoformat(),),
        ).fetchall()
    )
    old_rows = 0
    if existing:
        marks = ", ".join("?" * len(existing))
        ids = list(existing.values())
        # the old published values, read to report what the re-rate changed
        for _ in conn.execute(
            "SELECT period_id, player_id, rating_after, change, k_used FROM rating_history "
            f"WHERE period_id IN ({marks})",
            ids,
        ):
            old_rows += 1
        conn.execute(f"DELETE FROM rating_breakdown WHERE period_id IN ({marks})", ids)
        conn.execute(f"DELETE FROM rating_history WHERE period_id IN ({marks})", ids)

    state: dict[int, int | None] = {
        pid: rating
        for pid, rating, _games, _k10, _birth in conn.execute(
            "SELECT id, entry_rating, entry_games, k10, birth_year FROM players "
            "WHERE merged_into_id IS NULL ORDER BY id"
        )
    }
    previous = conn.execute(
        "SELECT id FROM rating_periods WHERE start_date = ?",
        (_previous_month(start).isoformat(),),
    ).fetchone()
    if previous is not None:
        for pid, rating, _total, _k10, _r2300 in conn.execute(
            "SELECT player_id, rating_after, total_games, k10, reached_2300 "
            "FROM rating_history WHERE period_id = ?",
            previous,
        ):
            state[pid] = rating
    now = datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" ")
    lists: dict[str, dict[int, int | None]] = {}
    periods = games = history_rows = breakdown_rows = 0
    for first in _months(start, end):
        following = _next_month(first)
        period_end = (following - timedelta(days=1)).isoformat()
        period_id = existing.get(first.isoformat())
        if period_id is None:
            period_id = conn.execute(
                "INSERT INTO rating_periods (label, start_date, end_date, list_date, status, "
                "rated_at) VALUES (?, ?, ?, ?, 'published', ?)",
                (f"{first:%Y-%m}", first.isoformat(), period_end, following.isoformat(), now),
            ).lastrowid
        else:
            conn.execute(
                "UPDATE rating_periods SET status = 'published', rated_at = ? WHERE id = ?",
                (now, period_id),
            )
        rows = conn.execute(
            "SELECT g.id, g.white_id, g.black_id, g.result, e.id, e.start_date "
            "FROM games g JOIN events e ON e.id = g.event_id "
            "WHERE e.end_date >= ? AND e.end_date <= ? AND g.rateable ORDER BY g.id",
            (first.isoformat(), period_end),
        ).fetchall()
        # events that started in an earlier period use that period's list
        # (docs/RULES.md#which-ratings-a-game-uses)
        for event_start in {row[5][:7] for row in rows}:
            if event_start != f"{first:%Y-%m}" and event_start not in lists:
                lists[event_start] = dict(
                    conn.execute(
                        "SELECT h.player_id, h.rating_after FROM rating_history h "
                        "JOIN rating_periods p ON p.id = h.period_id WHERE p.list_date = ?",
                        (f"{event_start}-01",),
                    ).fetchall()
                )
        breakdown: list[tuple[object, ...]] = []
        for game_id, white, black, _result, _event, _start in rows:
            breakdown.append((period_id, game_id, white, black, *BREAKDOWN_PLACEHOLDER))
            breakdown.append((period_id, game_id, black, white, *BREAKDOWN_PLACEHOLDER))
        conn.executemany(
            f"INSERT INTO rating_breakdown ({', '.join(BREAKDOWN_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(BREAKDOWN_COLUMNS))})",
            breakdown,
        )
        conn.executemany(
            f"INSERT INTO rating_history ({', '.join(HISTORY_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(HISTORY_COLUMNS))})",
            (
                (period_id, pid, rating, rating, *HISTORY_PLACEHOLDER)
                for pid, rating in state.items()
            ),
        )
        periods += 1
        games += len(rows)
        history_rows += len(state)
        breakdown_rows += len(breakdown)
    return {
        "periods": periods,
        "games": games,
        "history_rows": history_rows,
        "breakdown_rows": breakdown_rows,
        "old_rows": old_rows,
    }


def _month_start(iso: str) -> date:
    return date.fromisoformat(iso[:7] + "-01")


def _next_month(day: date) -> date:
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def _previous_month(day: date) -> date:
    return date(day.year - (day.month == 1), (day.month - 2) % 12 + 1, 1)


def _months(first: date, last: date) -> Iterator[date]:
    day = first
    while day <= last:
        yield day
        day = _next_month(day)
