"""A small smoke run of the benchmark (bench/run.py): every step measured, a report made.

The real benchmark (20,000 players, a million games) is run by hand, never by the test suite;
this checks only that the script works end to end, at about 1,000 games.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.safety_helpers import bench_module

pytestmark = pytest.mark.slow  # a benchmark's smoke run: .ci/run runs it, not the test loop

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def bench_run() -> ModuleType:
    """bench/run.py loaded as a module."""
    return bench_module("run.py", "bench_run")


@pytest.fixture(scope="module")
def smoke(bench_run: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One small run through the command line: 200 players, 1,000 games, 3 periods, an extra
    period of 200 games; the report goes to a temporary file."""
    results_md = BENCH / "RESULTS.md"
    before = results_md.read_bytes() if results_md.exists() else None
    report = tmp_path_factory.mktemp("bench") / "RESULTS.md"
    ran: list[Any] = []
    real_run = bench_run.run

    def spy(*args: Any, **kwargs: Any) -> Any:
        ran.append(real_run(*args, **kwargs))
        return ran[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bench_run, "run", spy)
        code = bench_run.main(
            [
                "--players", "200", "--games", "1000", "--periods", "3", "--extra-games", "200",
                "--repeats", "1", "--quiet", "--keep", str(report.parent / "work"),
                "--report", str(report),
            ]
        )  # fmt: skip
    after = results_md.read_bytes() if results_md.exists() else None
    (results, text) = ran[0]
    return code, results, text, report, before, after


def test_smoke_run_measures_every_step(smoke: Any) -> None:
    code, results, _, _, _, _ = smoke
    assert code == 0
    (result,) = results
    assert result.games == 1000
    assert set(result.measures) == {"import", "rate", "next", "rerate"}
    for measure in result.measures.values():
        for kind in ("ours", "floor"):
            assert measure.seconds(kind) > 0
            assert measure.rss(kind) > 0  # step 5: the peak memory of each step
        assert measure.ratio() > 0
    assert result.rows["history_rows"] == 200 * 3
    assert result.rows["final_games"] == 1000 + 200


def test_smoke_run_writes_its_report_where_asked_only(smoke: Any, bench_run: ModuleType) -> None:
    _, _, text, report, before, after = smoke
    assert report.read_text(encoding="utf-8") == text
    assert "cores (`os.cpu_count()`)" in text
    assert "| step | ours (s) | floor (s) | ours / floor | ours peak RSS (MB) " in text
    for title in bench_run.STEP_TITLES.values():
        assert f"| {title} |" in text
    assert before == after  # bench/RESULTS.md is left alone
