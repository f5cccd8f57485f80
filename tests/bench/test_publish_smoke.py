"""A small smoke run of the publish benchmark (bench/publish.py); the real one (20,000 players,
a million games) is run by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety_helpers import bench_module


@pytest.mark.slow
def test_publish_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = bench_module("publish.py", "bench_publish")
    report = tmp_path / "report.md"
    code = module.main(
        [
            "--name", "smoke", "--players", "60", "--games", "600", "--periods", "3",
            "--extra-games", "60", "--repeats", "1", "--work", str(tmp_path / "work"),
            "--report", str(report), "--quiet",
        ]
    )  # fmt: skip
    assert code == 0
    text = report.read_text()
    assert "### smoke: 60 players, 600 games, 3 periods (+1 month of 60 games)" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    full, month, again = rows[1:4]
    assert full.startswith("| 1. publish everything into an empty folder |")
    assert month.startswith("| 2. one more month: publish over the previous site |")
    assert again.split("|")[5].strip() == "0"  # nothing written when nothing changed
    assert capsys.readouterr().out.startswith("Run: `python bench/publish.py")
