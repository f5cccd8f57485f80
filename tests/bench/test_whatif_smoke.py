"""A small smoke run of the what-if benchmark (bench/whatif.py); the real one (5,000 players,
250,000 games, 120 periods) is run by hand and quoted in bench/RESULTS.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety_helpers import small_bench_report


@pytest.mark.slow  # three subprocesses, each importing the package: seconds
def test_whatif_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, rows = small_bench_report("whatif.py", "bench_whatif", tmp_path)
    assert rows[1].startswith("| 1. `rate`: every period from scratch |")
    assert rows[2].startswith("| 2. `whatif --set junior-k=30`: rebuild every list with the")
    assert "`whatif` / `rate` from scratch: **" in text
    assert capsys.readouterr().out.startswith("Run: `python bench/whatif.py")
