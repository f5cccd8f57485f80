"""CSV formula neutralisation holds for spreadsheets that split on `;` or a tab: a formula
character after a `;`, a tab or a line break inside a cell is neutralised
as one at its start is, since that is where such a spreadsheet starts a cell.

Seen: a player named `Semi;=cmd|' /C calc'!A0` was written unquoted, and a spreadsheet that
splits on `;` (the default separator in many European locales) read `=cmd|' /C calc'!A0` as a
cell; the same from `log`, `event list`, `game list --format csv` and the site's CSVs.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from ratings.io.csv_out import FORMULA_STARTS, CsvWriter, is_formula, neutralise
from tests.support import ok

SEMI = "Semi;=cmd|' /C calc'!A0"
TAB = "Tab\t+cmd|' /C calc'!A0"
SECOND = "Second;+cmd|' /C calc'!A0"
EVENT = "Cup;@SUM(1+1)*cmd|' /C calc'!A0"
REASON = "typo;-2+3+cmd|' /C calc'!A0"


def formula_cells(text: str) -> list[str]:
    """Cells that a spreadsheet reading ``text`` with ``,``, ``;`` or a tab as the
    separator would take for a formula (quotes honoured, as every spreadsheet does)."""
    found = []
    for delimiter in ",;\t":
        for row in csv.reader(io.StringIO(text), delimiter=delimiter):
            found += [cell for cell in row if is_formula(cell)]
    return found


def written(*rows: list[object]) -> str:
    out = io.StringIO()
    CsvWriter(out).writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        (SEMI, "Semi;'=cmd|' /C calc'!A0"),
        (TAB, "Tab\t'+cmd|' /C calc'!A0"),
        ("a;\t=b", "a;'\t'=b"),  # a tab right after the ;
        ('a;"=b', "a;\"'=b"),  # a quote would open a quoted cell
        ("x;@y;+z", "x;'@y;'+z"),
        ("line\n=cmd", "line\n'=cmd"),
        ("=a;=b", "'=a;'=b"),
        # a number too: what follows it in the line belongs to the next cell
        ("a;-12", "a;'-12"),
        ("a;-1.5e3,b", "a;'-1.5e3,b"),
        # everything else stays
        ("-12", "-12"),
        ("a; =b", "a; =b"),
        ("a;b", "a;b"),
    ],
)
def test_a_formula_after_a_separator_is_neutralised(cell: str, expected: str) -> None:
    assert neutralise(cell) == expected
    assert formula_cells(written([1, cell, 2])) == []


def test_every_separator_view_of_a_line() -> None:
    text = written(["1", SEMI, "-12"], [SECOND, TAB, EVENT], ["x", "line\n=cmd", REASON])
    assert formula_cells(text) == []
    # and the cells read back with the quote only
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["1", "Semi;'=cmd|' /C calc'!A0", "-12"]


def test_other_cells_are_written_as_before() -> None:
    rows: list[list[object]] = [
        ["name", "rating"],
        ["Smith, Ann", 1800],
        ['Say "hi"', None],
        ["line\nbreak", "-12"],
        [""],
        ["=x", "+7"],
    ]
    before = io.StringIO()
    csv.writer(before, lineterminator="\n").writerows(
        [[neutralise("" if v is None else str(v)) for v in row] for row in rows]
    )
    assert written(*rows) == before.getvalue()


def test_formula_starts_are_the_documented_ones() -> None:
    assert frozenset("=+-@\t\r") == FORMULA_STARTS


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Players, an event and a correction reason that hold `;` before a formula (names
    may not hold a tab: `sql` makes one)."""
    folder = tmp_path_factory.mktemp("adversarial_csv")
    db = folder / "club.db"
    ok(db, "init")
    ok(db, "player", "add", "--rating", "1800", "--", SEMI)
    ok(db, "player", "add", "--rating", "1700", "--", SECOND)
    games = folder / "games.csv"
    games.write_text(
        "date,white,black,result,event,round\n"
        f'2026-01-10,"{SEMI}","{SECOND}",1-0,"{EVENT}",1\n'
        f'2026-01-17,"{SECOND}","{SEMI}",0-1,"{EVENT}",2\n'
    )
    ok(db, "import", "games", str(games))
    ok(db, "player", "edit", "1", "--birthdate", "1990", "--reason", REASON)
    ok(db, "rate", "--through", "2026-01")
    return db


@pytest.mark.parametrize(
    "args",
    [
        ["list", "--format", "csv"],
        ["preview", "--format", "csv"],
        ["history", "1", "--format", "csv"],
        ["log", "--format", "csv"],
        ["event", "list", "--format", "csv"],
        ["game", "list", "--format", "csv"],
        ["import", "list", "--format", "csv"],
        ["sql", "SELECT name, 1 AS n FROM players", "--format", "csv"],
        ["sql", "SELECT name FROM events", "--format", "csv"],
        ["sql", "SELECT 'Tab' || char(9) || '+cmd' AS t, 2 AS n", "--format", "csv"],
        ["sql", "SELECT 1 AS n, 'x' || char(10) || '=cmd' AS t", "--format", "csv"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_no_command_writes_a_formula_for_any_separator(club: Path, args: list[str]) -> None:
    text = ok(club, *args)
    assert text.count("\n") > 1, text
    assert formula_cells(text) == []


def test_the_names_are_in_the_csv_with_the_quote_only(club: Path) -> None:
    rows = list(csv.reader(io.StringIO(ok(club, "game", "list", "--format", "csv"))))
    cells = {cell for row in rows for cell in row}
    assert {neutralise(SEMI), neutralise(SECOND), neutralise(EVENT)} <= cells
    assert neutralise(EVENT) == "Cup;'@SUM(1+1)*cmd|' /C calc'!A0"
    log = list(csv.reader(io.StringIO(ok(club, "log", "--format", "csv"))))
    assert "typo;'-2+3+cmd|' /C calc'!A0" in {cell for row in log for cell in row}


def test_the_site_csvs(club: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    ok(club, "publish", str(site), "--jobs", "1")
    files = sorted(site.rglob("*.csv"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert formula_cells(text) == [], path
    assert neutralise(SEMI) in (site / "lists" / "2026-01.csv").read_text(encoding="utf-8")
