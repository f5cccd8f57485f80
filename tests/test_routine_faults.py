"""Small faults of the monthly routine that an adversarial run and a new user's first three
months found: each one line of output or one exit code, each reproduced here first."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from ratings.cli import cli
from tests.conftest import init_database

ALLOWED = (
    "allowed: name, birthdate, fide_id, rating, games, k10, sex, federation, title, "
    "rapid_rating, rapid_games, blitz_rating, blitz_games, id"
)


def run(db: Path | str, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args])


# --- a header of 70,000 unknown columns ---------------------------------------------------


def test_an_unknown_column_repeated_70000_times_is_said_once(tmp_path: Path) -> None:
    """Seen: 70,000 identical lines ``unknown column 'x'``."""
    db = init_database(tmp_path / "club.db")
    sheet = tmp_path / "wide.csv"
    sheet.write_text("name," + ",".join(["x"] * 70_000) + "\nSmith, Ann" + "," * 70_000 + "\n")
    result = run(db, "import", "players", str(sheet))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {sheet}:1: unknown column 'x' (70,000 times; {ALLOWED})\n"
        "Error: 1 problem found; nothing was imported\n"
    )


def test_many_unknown_columns_are_counted_past_ten(tmp_path: Path) -> None:
    db = init_database(tmp_path / "club.db")
    sheet = tmp_path / "wide.csv"
    sheet.write_text("name," + ",".join(f"x{i}" for i in range(70_000)) + ",name,name\n")
    result = run(db, "import", "players", str(sheet))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[:10] == [f"Error: {sheet}:1: unknown column 'x{i}' ({ALLOWED})" for i in range(10)]
    assert lines[10:] == [
        f"Error: {sheet}:1: 69,990 more unknown column names",
        f"Error: {sheet}:1: duplicate column 'name' (columns 1 and 70002, and 1 more)",
        "Error: 12 problems found; nothing was imported",
    ]
