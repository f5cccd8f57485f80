"""`ratings demo`: the shipped sample club builds, rates and lists."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ratings.cli import cli
from tests.conftest import table_rows


def test_demo_builds_rates_and_lists(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    result = CliRunner().invoke(cli, ["demo", "--db", str(db)], catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Rating list 2025-12 (list dated 2026-01-01)"
    assert lines[1:3] == [
        "   #  name                           rating total games next K",
        "   1  Elard, Carl                      2444          39     10",
    ]
    assert len(lines) == 2 + 39
    assert result.stderr.startswith(
        f"Built {db}: 39 rated players, 720 games in 15 events, 12 periods rated "
        "(2025-01 .. 2025-12)\n"
    )
    assert table_rows(db, "SELECT count(*) FROM rating_periods") == [(12,)]
    # a 2400+ player (K 10) and juniors (K 40) are in the sample
    ks = table_rows(db, "SELECT DISTINCT k_used FROM rating_history WHERE k_used IS NOT NULL")
    assert {10, 40} <= {k for (k,) in ks}
    juniors = table_rows(db, "SELECT count(*) FROM players WHERE birth_year >= 2007")
    assert isinstance(juniors[0][0], int)
    assert juniors[0][0] >= 3
    # running it again replaces the previous demo database
    again = CliRunner().invoke(cli, ["demo", "--db", str(db)], catch_exceptions=False)
    assert again.stdout == result.stdout


def test_demo_refuses_to_replace_another_file(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    db.write_bytes(b"precious")
    result = CliRunner().invoke(cli, ["demo", "--db", str(db)])
    assert result.exit_code == 1
    assert result.output == f"Error: '{db}' exists and is not a demo database; choose --db\n"
    assert db.read_bytes() == b"precious"


def test_demo_follows_the_global_db_option(tmp_path: Path) -> None:
    db = tmp_path / "global.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "demo"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.startswith(f"Built {db}: ")
    assert db.exists()
