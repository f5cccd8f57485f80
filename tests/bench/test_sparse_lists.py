"""bench/sparse_lists.py at a tiny size (the benchmark's smoke run): the rows that change,
and the query that gives every full list from them, answer every list of a rated pool."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from pathlib import Path

import pytest

from tests.safety_helpers import bench_generate, bench_module
from tests.support import ok

pytestmark = pytest.mark.slow  # a benchmark's smoke run: .ci/run runs it, not the test loop


def test_sparse_lists_smoke(tmp_path: Path) -> None:
    files = bench_generate().generate(200, 700, 14, 4, tmp_path, dt.date(2015, 1, 1))
    db = tmp_path / "pool.db"
    for args in (
        ["init", "--closing-days", "0"],
        ["import", "players", str(files.players_csv)],
        ["import", "games", str(files.games_csv)],
        ["rate"],
    ):
        ok(db, *args)
    module = bench_module("sparse_lists.py", "bench_sparse_lists")
    work = tmp_path / "work"
    work.mkdir()
    figures = module.measure(db, 1, work, size=False)  # keeps the copy's rating_history
    assert figures["full_rows"] == 14 * 200
    assert 200 <= figures["changes"] < figures["full_rows"]  # the first list, then changes
    assert figures["queries"]["the newest standard list (every row)"]["rows"] == 200
    text = module.report(figures, [str(db)])
    assert re.search(r"\| the ten best on the newest list \(10\) \| [\d.]+ \| [\d.]+ \|", text)
    # every period's full list, not only the newest, comes back from the rows that change
    conn = sqlite3.connect(work / "sparse.db")
    # players turn inactive without a game: rows a wrong carry test would drop
    assert conn.execute("SELECT count(*) FROM rating_history WHERE inactive").fetchone()[0] > 0
    for period_id, day in conn.execute("SELECT id, start_date FROM rating_periods"):
        full = conn.execute(
            "SELECT player_id, rating_after, list_status, inactive FROM rating_history "
            "WHERE period_id = ? AND time_control = 'standard'",
            (period_id,),
        ).fetchall()
        assert sorted(conn.execute(module.NEWEST, {"day": day}).fetchall()) == sorted(full)
    conn.close()
    (tmp_path / "sized").mkdir()
    sized = module.measure(db, 1, tmp_path / "sized")
    assert 0 < sized["sparse_mb"] < sized["full_mb"]
    assert "MB with only the rows that change" in module.report(sized, [str(db)])
