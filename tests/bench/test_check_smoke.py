"""A small smoke run of the check benchmark (bench/check.py); the real one (5,000 players,
250,000 games, 120 periods) is run by hand and quoted in bench/RESULTS.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety_helpers import small_bench_report


@pytest.mark.slow  # three subprocesses, each importing the package: seconds
def test_check_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, rows = small_bench_report("check.py", "bench_check", tmp_path)
    assert rows[1].startswith("| 1. `rate`: every period from scratch |")
    assert rows[2].startswith("| 2. `check --all`: rebuild every list and compare |")
    assert "`check --all` / `rate` from scratch: **" in text
    assert capsys.readouterr().out.startswith("Run: `python bench/check.py")
