"""bench/fide_list_import.py at a small size: every case of the ``import fide-list`` benchmark
runs to the end and reports (the world-size run is made by hand and quoted in
bench/RESULTS.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety_helpers import bench_module, bench_on_path

pytestmark = pytest.mark.slow  # a benchmark's smoke run: .ci/run runs it, not the test loop


def test_every_case_runs_and_is_reported(tmp_path: Path) -> None:
    with bench_on_path():  # the script imports bench/fide_list.py as fide_list
        module = bench_module("fide_list_import.py", "bench_import")
    measured = module.run(tmp_path, 600, 3, 60, 1)
    players = {label: runs[0]["players"] for label, runs in measured["results"].items()}
    assert players["refresh 60 registered, txt"] == 60
    assert players["--add (whole list, empty database), xml"] == 600
    assert 0 < players["--add --federation IRL (empty database), txt.zip"] < 600
    text = module.report(measured, "python bench/fide_list_import.py")
    assert text.count("\n| ") == 7  # the header and six cases
    assert "Load average (1 min)" in text
