"""bench/world.py at a small size (the benchmark's smoke run): a history imported and rated,
then one more month imported and rated on copies, with the rows counted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import PG_URL
from tests.safety_helpers import bench_module, bench_on_path

pytestmark = pytest.mark.slow  # a benchmark's smoke run: .ci/run runs it, not the test loop


def test_world_smoke(tmp_path: Path) -> None:
    with bench_on_path():
        module = bench_module("world.py", "bench_world")
        figures = module.measure(300, 2, 800, 3, 2, tmp_path, quiet=True)
        text = module.report(figures, ["--players", "300"])
    assert figures["history_rows"]["games"] == 1600
    assert figures["history_rate"]["periods"] == 2  # the history's periods, no more
    assert figures["month_rows"]["games"] == 2400
    # every registered player is on every list: one more period adds one row each
    added = figures["month_rows"]["rating_history"] - figures["history_rows"]["rating_history"]
    assert added == 300
    assert len(figures["month_runs"]) == 2
    assert re.search(r"\| one more month: import \+ rate \(median\) \| \d+\.\d \|", text)


def test_world_smoke_with_the_floors(tmp_path: Path) -> None:
    """--floors: the floor imports and rates the history on its own copy of the register,
    then both floors import and rate each month on copies of our rated history."""
    with bench_on_path():
        module = bench_module("world.py", "bench_world")
        figures = module.measure(300, 2, 800, 3, 1, tmp_path, quiet=True, floors=True)
        text = module.report(figures, ["--players", "300", "--floors"])
    assert figures["floor_history_import"]["games"] == 1600
    assert figures["floor_history_rate"]["periods"] == 2
    run = figures["month_runs"][0]
    for kind in ("floor", "minimal"):
        assert run[f"{kind}_import"]["games"] == 800
        assert run[f"{kind}_rate"]["periods"] == 1  # the new month only
    # the minimal floor writes a list row for each player with a game, not the register
    assert 0 < run["minimal_rate"]["history_rows"] < 300
    # the counts are ours, after our month (the floors' copies are not counted)
    assert figures["month_rows"]["rating_history"] == 3 * 300
    assert re.search(r"\| one more month: rate, against the minimal floor \| [\d.]+ \|", text)
    assert re.search(r"\| rate the history \| [\d.]+ \| [\d.]+ \| [\d.]+x \|", text)


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="needs RATINGS_TEST_PG_URL")
def test_world_smoke_with_the_floors_on_postgres(tmp_path: Path) -> None:
    """The same on PostgreSQL, with bench/floor_pg.py (the minimal floor is SQLite's only)."""
    with bench_on_path():
        module = bench_module("world.py", "bench_world_pg")
        figures = module.measure(
            200, 2, 600, 3, 1, tmp_path, quiet=True, db_url=PG_URL, floors=True
        )
        text = module.report(figures, ["--players", "200", "--floors"])
    assert figures["floor_history_rate"]["periods"] == 2
    run = figures["month_runs"][0]
    assert run["floor_rate"]["periods"] == 1
    assert "minimal_rate" not in run
    assert figures["month_rows"]["rating_history"] == 3 * 200
    assert "against the floor floor" not in text
    assert re.search(r"\| one more month: rate, against the floor \| [\d.]+ \|", text)
