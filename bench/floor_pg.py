"""The PostgreSQL I/O floor of the benchmark: bench/floor.py's reads and writes, on PostgreSQL.

Plain psycopg 3 on a database built by our migrations: the same reads and the same rows as
``bench/floor.py`` (one list row per registered player per period, two breakdown rows per
rated game, placeholder values, no checks, no rating arithmetic), one transaction per step,
and ``COPY ... FROM STDIN`` for the bulk writes (events, games, breakdown and list rows). The
CSV parsing, the rows' columns and placeholder values and the month arithmetic are imported
from ``bench/floor.py``, so that both floors write the same thing.

``run_step(step, url, arg)`` is called by ``bench/run.py`` in a worker subprocess, with the
database's SQLAlchemy URL (``postgresql+psycopg://...``); the steps are floor.py's.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
from floor import (  # bench/floor.py
    BREAKDOWN_COLUMNS,
    BREAKDOWN_PLACEHOLDER,
    HISTORY_COLUMNS,
    HISTORY_PLACEHOLDER,
    _months,
    _next_month,
    _previous_month,
    read_games,
)

RATED_EVENTS = "EXISTS (SELECT 1 FROM games g WHERE g.event_id = e.id AND g.rateable)"


def conninfo(url: str) -> str:
    """A libpq URL for psycopg from a SQLAlchemy one (``postgresql+psycopg://`` -> ``postgresql://``)."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.split("+")[0] not in ("postgresql", "postgres"):
        raise ValueError(f"not a PostgreSQL URL: {scheme}://...")
    return f"postgresql://{rest}"


def run_step(step: str, url: str, arg: str) -> dict[str, Any]:
    """Run one step of the floor on the database at ``url``; returns counts of what it did."""
    with psycopg.connect(conninfo(url)) as conn:  # one transaction, committed on success
        if step == "import":
            info = import_games(conn, Path(arg))
        elif step == "rate":
            first = _one(conn, f"SELECT min(e.end_date) FROM events e WHERE {RATED_EVENTS}")
            info = rate_from(conn, first.replace(day=1))
        elif step == "next":
            last = _one(conn, "SELECT max(start_date) FROM rating_periods")
            info = rate_from(conn, _next_month(last))
        elif step == "rerate":
            game_id = int(arg)
            end = _one(
                conn,
                "SELECT e.end_date FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = %s",
                (game_id,),
            )
            conn.execute(
                "UPDATE games SET result = CASE result WHEN '1-0' THEN '0-1' ELSE '1-0' END "
                "WHERE id = %s",
                (game_id,),
            )
            start = end.replace(day=1)
            conn.execute(
                "UPDATE rating_periods SET status = 'needs_rerate' WHERE start_date = %s",
                (start,),
            )
            info = rate_from(conn, start)
        else:
            raise ValueError(f"unknown step: {step!r}")
    return info


def _one(conn: psycopg.Connection[Any], sql: str, params: tuple[Any, ...] = ()) -> Any:
    row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


def import_games(conn: psycopg.Connection[Any], path: Path) -> dict[str, Any]:
    """Read a games CSV and store its events and games (no checks)."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    conn.execute("SELECT id FROM imports WHERE content_hash = %s", (digest,)).fetchall()
    by_name: dict[str, int] = {}
    by_fide: dict[str, int] = {}
    for pid, name, fide_id in conn.execute(
        "SELECT id, name, fide_id FROM players WHERE merged_into_id IS NULL"
    ):
        by_name[name.lower()] = pid
        if fide_id is not None:
            by_fide[str(fide_id)] = pid
    spans, games = read_games(data, by_name, by_fide)
    now = datetime.now(UTC).replace(tzinfo=None)
    import_id = _one(
        conn,
        "INSERT INTO imports (kind, file_name, content_hash, imported_at, rows) "
        "VALUES ('games_csv', %s, %s, %s, %s) RETURNING id",
        (str(path), digest, now, len(games)),
    )
    with conn.cursor() as cur:
        with cur.copy(
            "COPY events (name, start_date, end_date, source, import_id) FROM STDIN"
        ) as copy:
            for name, (first, last) in spans.items():
                copy.write_row((name, first, last, "csv", import_id))
        event_ids = dict(
            cur.execute("SELECT name, id FROM events WHERE import_id = %s", (import_id,))
        )
        with cur.copy(
            "COPY games (event_id, round, played_on, white_id, black_id, result, rateable) "
            "FROM STDIN"
        ) as copy:
            for g in games:
                copy.write_row((event_ids[g[0]], *g[1:]))
    return {"games": len(games)}


def rate_from(conn: psycopg.Connection[Any], start: date) -> dict[str, Any]:
    """Write every period's rows from ``start`` through the last game's period."""
    last_end = _one(conn, f"SELECT max(e.end_date) FROM events e WHERE {RATED_EVENTS}")
    last_rated = _one(conn, "SELECT max(start_date) FROM rating_periods")
    end = max(last_end.replace(day=1), (last_rated or last_end).replace(day=1))
    existing: dict[date, int] = dict(
        conn.execute(
            "SELECT start_date, id FROM rating_periods WHERE start_date >= %s", (start,)
        ).fetchall()
    )
    old_rows = 0
    if existing:
        ids = list(existing.values())
        # the old published values, read to report what the re-rate changed
        for _ in conn.execute(
            "SELECT period_id, player_id, rating_after, change, k_used FROM rating_history "
            "WHERE period_id = ANY(%s)",
            (ids,),
        ):
            old_rows += 1
        conn.execute("DELETE FROM rating_breakdown WHERE period_id = ANY(%s)", (ids,))
        conn.execute("DELETE FROM rating_history WHERE period_id = ANY(%s)", (ids,))

    state: dict[int, int | None] = {
        pid: rating
        for pid, rating, _games, _k10, _birth in conn.execute(
            "SELECT id, entry_rating, entry_games, k10, birth_year FROM players "
            "WHERE merged_into_id IS NULL ORDER BY id"
        )
    }
    previous = conn.execute(
        "SELECT id FROM rating_periods WHERE start_date = %s", (_previous_month(start),)
    ).fetchone()
    if previous is not None:
        for pid, rating, _total, _k10, _r2300 in conn.execute(
            "SELECT player_id, rating_after, total_games, k10, reached_2300 "
            "FROM rating_history WHERE period_id = %s",
            previous,
        ):
            state[pid] = rating
    now = datetime.now(UTC).replace(tzinfo=None)
    lists: dict[str, dict[int, int | None]] = {}
    periods = games = history_rows = breakdown_rows = 0
    copy_breakdown = f"COPY rating_breakdown ({', '.join(BREAKDOWN_COLUMNS)}) FROM STDIN"
    copy_history = f"COPY rating_history ({', '.join(HISTORY_COLUMNS)}) FROM STDIN"
    cur = conn.cursor()
    for first in _months(start, end):
        following = _next_month(first)
        period_end = following - timedelta(days=1)
        period_id = existing.get(first)
        if period_id is None:
            period_id = _one(
                conn,
                "INSERT INTO rating_periods (label, start_date, end_date, list_date, status, "
                "rated_at) VALUES (%s, %s, %s, %s, 'published', %s) RETURNING id",
                (f"{first:%Y-%m}", first, period_end, following, now),
            )
        else:
            conn.execute(
                "UPDATE rating_periods SET status = 'published', rated_at = %s WHERE id = %s",
                (now, period_id),
            )
        rows = conn.execute(
            "SELECT g.id, g.white_id, g.black_id, g.result, e.id, e.start_date "
            "FROM games g JOIN events e ON e.id = g.event_id "
            "WHERE e.end_date >= %s AND e.end_date <= %s AND g.rateable ORDER BY g.id",
            (first, period_end),
        ).fetchall()
        # events that started in an earlier period use that period's list
        # (docs/RULES.md#which-ratings-a-game-uses)
        for event_start in {f"{row[5]:%Y-%m}" for row in rows}:
            if event_start != f"{first:%Y-%m}" and event_start not in lists:
                lists[event_start] = dict(
                    conn.execute(
                        "SELECT h.player_id, h.rating_after FROM rating_history h "
                        "JOIN rating_periods p ON p.id = h.period_id WHERE p.list_date = %s",
                        (date.fromisoformat(f"{event_start}-01"),),
                    ).fetchall()
                )
        # as ours: the foreign-key check of each row written reads rating_periods by its key
        # (once the table is analyzed, PostgreSQL plans it as a scan of every period)
        conn.execute("SET LOCAL enable_seqscan = off")
        with cur.copy(copy_breakdown) as copy:
            for game_id, white, black, _result, _event, _start in rows:
                copy.write_row((period_id, game_id, white, black, *BREAKDOWN_PLACEHOLDER))
                copy.write_row((period_id, game_id, black, white, *BREAKDOWN_PLACEHOLDER))
        with cur.copy(copy_history) as copy:
            for pid, rating in state.items():
                copy.write_row((period_id, pid, rating, rating, *HISTORY_PLACEHOLDER))
        conn.execute("RESET enable_seqscan")
        periods += 1
        games += len(rows)
        history_rows += len(state)
        breakdown_rows += 2 * len(rows)
    cur.close()
    return {
        "periods": periods,
        "games": games,
        "history_rows": history_rows,
        "breakdown_rows": breakdown_rows,
        "old_rows": old_rows,
    }
