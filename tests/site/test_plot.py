"""`ratings plot`: rating-history charts as PNG or SVG files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.publish_helpers import copy_demo, demo, ok, run


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_demo(template, tmp_path)


def test_png_of_several_players(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "chart.png"
    result = run("--db", str(db), "plot", "1", "fide:43564097", "-o", str(out))
    assert result.output == "Error: player 'Toreley, Dina' (id 1) is named twice\n"
    result = run("--db", str(db), "plot", "1", "2", "Elard, Carl", "-o", str(out))
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == f"Wrote {out}: 3 player(s)\n"
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 20_000


def test_svg_with_a_period_range(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "chart.svg"
    ok("--db", str(db), "plot", "Toreley, Dina", "--period", "2025-03..2025-06", "--output",
       str(out), "--title", "Dina <3")  # fmt: skip
    svg = out.read_text("utf-8")
    assert svg.startswith("<svg")
    assert "Dina &lt;3" in svg
    assert svg.count("role-mark marktype-symbol") or "path" in svg


def test_a_hostile_name_is_text_in_the_svg(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    ok("--db", str(db), "init")
    ok("--db", str(db), "player", "add", "<script>alert(1)</script>", "--rating", "1800")
    ok("--db", str(db), "player", "add", "B", "--rating", "1700")
    ok("--db", str(db), "game", "add", "1", "2", "1-0", "--date", "2026-01-05")
    ok("--db", str(db), "rate")
    out = tmp_path / "x.svg"
    ok("--db", str(db), "plot", "1", "2", "-o", str(out))
    svg = out.read_text("utf-8")
    assert "<script" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_plot_errors(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "chart.gif"
    result = run("--db", str(db), "plot", "1", "-o", str(out))
    assert result.exit_code == 2
    assert f"'{out}' must end in .png or .svg" in result.output
    png = tmp_path / "chart.png"
    assert run("--db", str(db), "plot", "Nobody", "-o", str(png)).output == (
        "Error: no player 'Nobody'\n"
    )
    assert run("--db", str(db), "plot", "1", "-o", str(png), "--period", "2030-01..").output == (
        "Error: no rated period in 2030-01..\n"
    )
    assert run(
        "--db", str(db), "plot", "1", "-o", str(png), "--period", "2025-06..2025-01"
    ).output == ("Error: the period range 2025-06..2025-01 runs backwards\n")
    ok("--db", str(db), "plot", "1", "-o", str(png))
    assert run("--db", str(db), "plot", "1", "-o", str(png)).output == (
        f"Error: '{png}' already exists; use --force to replace it\n"
    )
    ok("--db", str(db), "plot", "1", "-o", str(png), "--force")
    assert run("--db", str(db), "plot", "1", "1", "-o", str(png), "--force").output == (
        "Error: player 'Toreley, Dina' (id 1) is named twice\n"
    )


def test_plot_never_writes_the_database(db: Path, tmp_path: Path) -> None:
    before = db.read_bytes()
    ok("--db", str(db), "plot", "1", "-o", str(tmp_path / "a.svg"))
    assert db.read_bytes() == before
    result = run("--db", str(db), "plot", "1", "-o", str(db), "--force")
    assert result.exit_code == 2  # not .png or .svg
    copy = tmp_path / "db.svg"
    copy.write_bytes(before)
    result = run("--db", str(copy), "plot", "1", "-o", str(copy), "--force")
    assert result.output == f"Error: '{copy}' is the database; choose another file\n"
    assert copy.read_bytes() == before
