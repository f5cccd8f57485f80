"""bench/three_lists.py at a small size (the benchmark's smoke run): the same games on one
list and on three, rated, and the report's rows counted from the databases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.safety_helpers import bench_module, bench_on_path

pytestmark = pytest.mark.slow  # a benchmark's smoke run: .ci/run runs it, not the test loop


def test_three_lists_smoke(tmp_path: Path) -> None:
    with bench_on_path():
        module = bench_module("three_lists.py", "bench_three_lists")
        text = module.run(120, 900, 3, 5, 1, tmp_path, quiet=True)
    found = re.findall(r"^\| list rows \((\w+)\) \| ([\d,]+) \| ([\d,]+) \|$", text, re.M)
    rows = {tc: (int(a.replace(",", "")), int(b.replace(",", ""))) for tc, a, b in found}
    assert set(rows) == {"standard", "rapid", "blitz"}
    assert rows["rapid"][0] == rows["blitz"][0] == 0  # one list: no rapid or blitz rows
    assert rows["rapid"][1] > 0
    assert rows["blitz"][1] > 0
    assert rows["standard"][0] == rows["standard"][1] > 0  # every player, every period
    assert re.search(r"Three lists / one list: \*\*\d+\.\d\dx\*\* \(median of 1 pairs\)", text)
