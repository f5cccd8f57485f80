"""bench/world.py at a small size (the benchmark's smoke run): a history imported and rated,
then one more month imported and rated on copies, with the rows counted."""

from __future__ import annotations

import re
from pathlib import Path

from tests.safety_helpers import bench_module, bench_on_path


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
