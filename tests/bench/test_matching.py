"""bench/fide_list_match.py and bench/trf_match.py at a small size: every case runs to the
end with the outcome it is meant to time (the full-size runs are made by hand and quoted in
bench/RESULTS.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety_helpers import ROOT, bench_module, bench_on_path

pytestmark = pytest.mark.slow  # worker processes


def test_the_fide_list_match_compares_two_checkouts(tmp_path: Path) -> None:
    with bench_on_path():
        module = bench_module("fide_list_match.py", "bench_fide_list_match")
    # this checkout on both sides: the register's re-spelled players are found by name
    measured = module.run(ROOT, ROOT, tmp_path, 2000, 1)
    after = measured["results"]["after"][0]
    assert measured["register"] == 2000
    # the list's 1,000 players not registered by FIDE id are added, but for the 10
    # registered as "Given Surname", who take their FIDE ids
    assert after["players"] == 2000 + 1000 - 10
    assert "After / before:" in module.report(measured, "python bench/fide_list_match.py")


def test_the_trf_match_asks_then_imports(tmp_path: Path) -> None:
    with bench_on_path():
        module = bench_module("trf_match.py", "bench_trf_match")
    measured = module.run(tmp_path, 200, 1)
    assert [runs[0]["code"] for runs in measured["results"].values()] == [1, 0]
    assert module.report(measured, "python bench/trf_match.py").count("\n| ") == 3
