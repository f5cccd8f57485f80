"""bench/fide_list.py at a small size: FIDE's layout generated, every file read back whole.

The real run (1.1 million players) is made by hand and quoted in bench/RESULTS.md; this checks
that the synthetic files have FIDE's layout (so the figures measure the right thing) and that
the script works end to end.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from ratings.io.fide_list import RatingType, open_fide_list
from tests.safety_helpers import bench_module


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """bench/fide_list.py loaded as a module."""
    return bench_module("fide_list.py", "bench_fide_list")


@pytest.fixture(scope="module")
def files(bench: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    paths: dict[str, Path] = bench.generate(tmp_path_factory.mktemp("fide"), 3_000, 7)
    return paths


def test_the_txt_file_has_fide_s_layout(bench: ModuleType, files: dict[str, Path]) -> None:
    lines = files["txt"].read_bytes().split(b"\r\n")
    assert lines[0].decode() == bench.HEADER
    assert lines[-1] == b""  # CRLF after the last line
    lengths = sorted({len(line) for line in lines[1:-1]})
    assert lengths == [162, 163]  # 163: the OTit that runs into FOA, as in FIDE's file
    assert sum(len(line) == 163 for line in lines) == 2
    assert len(bench.HEADER) == sum(bench.WIDTHS) == 162


def test_every_file_reads_back_to_the_same_players(files: dict[str, Path]) -> None:
    read = {}
    for kind, path in files.items():
        with open_fide_list(path) as fide_list:
            read[kind] = [p._replace(line=0) for p in fide_list]
            assert fide_list.kinds == tuple(RatingType)
    assert len(read["txt"]) == 3_000
    assert read["txt"] == read["xml"] == read["txt.zip"] == read["xml.zip"]
    players = read["txt"]
    unrated = sum(all(r is not None and r.rating is None for r in (p.standard, p.rapid, p.blitz))
                  for p in players)  # fmt: skip
    assert 0.5 < unrated / len(players) < 0.7  # FIDE's list: 59%
    assert any(p.title == "GM" for p in players)
    assert sum(p.inactive for p in players) > 100
    with zipfile.ZipFile(files["xml.zip"]) as archive:
        assert archive.namelist() == ["players_list_xml_foa.xml"]


def test_a_small_run_reports_every_case(bench: ModuleType, files: dict[str, Path],
                                        tmp_path: Path) -> None:  # fmt: skip
    report = tmp_path / "report.md"
    folder = files["txt"].parent
    assert bench.main(["--players", "3000", "--seed", "7", "--repeats", "1", "--dir", str(folder),
                       "--report", str(report), "--federation", "GER"]) == 0  # fmt: skip
    text = report.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[0] for row in rows[1:]] == [
        "| baseline (imports only)",
        "| txt",
        "| txt: floor (stdlib only)",
        "| txt.zip",
        "| txt.zip: floor (stdlib only)",
        "| xml",
        "| xml: floor (stdlib only)",
        "| xml.zip",
        "| xml.zip: floor (stdlib only)",
        "| txt.zip, --federation GER",
        "| xml.zip, --federation GER",
    ]
    counts = [row.split(" | ")[1] for row in rows[1:]]
    assert counts[:9] == ["0", *["3,000"] * 8]
    assert counts[9] == counts[10] != "0"
