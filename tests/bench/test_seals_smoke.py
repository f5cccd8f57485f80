"""A small smoke run of the seal-step benchmark (bench/seals.py); the real ones are run by
hand and quoted in bench/RESULTS.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety_helpers import small_bench_report


@pytest.mark.slow  # a subprocess importing the package, after a small build: seconds
def test_seals_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, rows = small_bench_report("seals.py", "bench_seals", tmp_path)
    assert rows[1].startswith("| `rate` from scratch |")
    assert rows[2].startswith("| of which the seal step |")
    assert "The seal step's share of the rate: **" in text
    assert capsys.readouterr().out.startswith("Run: `python bench/seals.py")
