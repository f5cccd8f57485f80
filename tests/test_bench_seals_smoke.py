"""A small smoke run of the seal-step benchmark (bench/seals.py); the real ones are run by
hand and quoted in bench/RESULTS.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety_helpers import bench_module


@pytest.mark.slow  # a subprocess importing the package, after a small build: seconds
def test_seals_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = bench_module("seals.py", "bench_seals")
    report = tmp_path / "report.md"
    code = module.main(
        [
            "--players", "40", "--games", "300", "--periods", "3", "--repeats", "1",
            "--work", str(tmp_path / "work"), "--report", str(report), "--quiet",
        ]
    )  # fmt: skip
    assert code == 0
    text = report.read_text()
    assert "Database: 40 players, 300 games, 3 periods" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[1].startswith("| `rate` from scratch |")
    assert rows[2].startswith("| of which the seal step |")
    assert "The seal step's share of the rate: **" in text
    assert capsys.readouterr().out.startswith("Run: `python bench/seals.py")
