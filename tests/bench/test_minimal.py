"""bench/minimal.py at a small size (the benchmark's smoke run): our import and rate
against the minimal floor, which writes a list row only for the players who played."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.safety_helpers import bench_module, bench_on_path

pytestmark = pytest.mark.slow  # a benchmark's smoke run: .ci/run runs it, not the test loop


def test_minimal_floor_smoke(tmp_path: Path) -> None:
    with bench_on_path():
        module = bench_module("minimal.py", "bench_minimal")
        figures = module.measure(150, 900, 3, 2, 1, tmp_path, quiet=True)
        text = module.report(figures, ["--players", "150"])
    (ours_import,) = figures["runs"]["ours"]["import"]
    (floor_import,) = figures["runs"]["minimal"]["import"]
    assert ours_import["games"] == floor_import["games"] == 900
    ours_rows, floor_rows = figures["rows"]["ours"], figures["rows"]["minimal"]
    assert ours_rows[0] % 150 == 0  # every registered player on every list
    assert 0 < floor_rows[0] < ours_rows[0]  # the active ones only
    assert re.search(r"\| rate \| \d+\.\d\d \| \d+\.\d\d \| \*\*\d+\.\d\dx\*\* \|", text)
