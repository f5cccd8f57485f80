"""bench/norms.py at a small size (the benchmark's smoke run): the generated Swiss is stored
through the ordinary commands and ``ratings norms`` prints a row per player and norm."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import table_rows
from tests.safety_helpers import bench_module

pytestmark = pytest.mark.slow  # a benchmark's smoke run in fresh processes: .ci/run runs it


def test_norms_benchmark_smoke(tmp_path: Path) -> None:
    module = bench_module("norms.py", "bench_norms")
    db, event = module.build(tmp_path, 40, 9, 7)
    assert event == "Grand Open 40"
    assert table_rows(db, "SELECT count(*) FROM games g JOIN events e ON e.id = g.event_id "
                          "WHERE e.name = 'Grand Open 40'") == [(180,)]  # fmt: skip
    times, rows = module.measure(db, event, 1)
    assert set(times) == {"norms EVENT", "event list"}
    assert all(len(t) == 1 and t[0] > 0 for t in times.values())
    assert rows >= 40  # every player has at least one norm title to check
