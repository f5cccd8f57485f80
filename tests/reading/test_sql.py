"""`ratings sql`: read-only queries, three output formats, and every kind of write refused
with `Error: ...` while the database file stays byte for byte the same."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.support import ok, run


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three players, three games of January 2026, rated."""
    db = tmp_path_factory.mktemp("sql") / "club.db"
    for args in (
        ["init"],
        ["player", "add", "Smith, Ann", "--rating", "1800", "--birthdate", "1990-05-01",
         "--fide-id", "123"],
        ["player", "add", "Jones, Bob", "--rating", "1650"],
        ["player", "add", "O'Hara, Cy"],
        ["game", "add", "1", "2", "1-0", "--date", "2026-01-10", "--event", "Club Ch"],
        ["game", "add", "2", "1", "1/2-1/2", "--date", "2026-01-17", "--event", "Club Ch"],
        ["game", "add", "3", "1", "0-1", "--date", "2026-01-24", "--event", "Club Ch"],
        ["rate"],
    ):  # fmt: skip
        ok(db, *args)
    return db


@pytest.fixture
def db(tmp_path: Path, club: Path) -> Path:
    """A private copy of the club in a folder of its own."""
    path = tmp_path / "club.db"
    shutil.copyfile(club, path)
    return path


RANKING = "SELECT name, rating, next_k AS k FROM current_ratings ORDER BY rating DESC, name"


def test_table(db: Path) -> None:
    result = run(db, "sql", RANKING)
    assert result.exit_code == 0
    assert result.stdout == (
        "name        rating   k\n"
        "----------  ------  --\n"
        "Smith, Ann    1802  20\n"
        "Jones, Bob    1648  20\n"
        "O'Hara, Cy\n"
    )
    assert result.stderr == "(3 rows)\n"


def test_csv(db: Path) -> None:
    result = run(db, "sql", RANKING, "--format", "csv")
    assert (result.exit_code, result.output) == (
        0,
        'name,rating,k\n"Smith, Ann",1802,20\n"Jones, Bob",1648,20\n"O\'Hara, Cy",,\n',
    )


def test_json_is_a_list_of_objects(db: Path) -> None:
    result = run(db, "sql", RANKING, "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.output) == [
        {"name": "Smith, Ann", "rating": 1802, "k": 20},
        {"name": "Jones, Bob", "rating": 1648, "k": 20},
        {"name": "O'Hara, Cy", "rating": None, "k": None},
    ]


def test_json_repeated_column_names_get_a_suffix(db: Path) -> None:
    result = run(
        db,
        "sql",
        "SELECT w.name, b.name, g.result FROM games g JOIN players w ON w.id = g.white_id "
        "JOIN players b ON b.id = g.black_id ORDER BY g.id LIMIT 1",
        "--format",
        "json",
    )
    assert json.loads(result.output) == [
        {"name": "Smith, Ann", "name_2": "Jones, Bob", "result": "1-0"}
    ]


def test_no_rows(db: Path) -> None:
    result = run(db, "sql", "SELECT name FROM players WHERE 0")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "name\n----\n", "(0 rows)\n")
    assert run(db, "sql", "SELECT name FROM players WHERE 0", "--format", "json").output == "[]\n"
    assert run(db, "sql", "SELECT name FROM players WHERE 0", "--format", "csv").output == "name\n"


def test_reading_pragmas_views_and_recursive_queries_work(db: Path) -> None:
    assert run(db, "sql", "PRAGMA table_info(settings)", "--format", "csv").output.startswith(
        "cid,name,type,notnull,dflt_value,pk\n0,id,INTEGER,1,,1\n"
    )
    assert run(db, "sql", "PRAGMA user_version", "--format", "csv").output == "user_version\n0\n"
    assert (
        run(db, "sql", "PRAGMA integrity_check", "--format", "csv").output
        == "integrity_check\nok\n"
    )
    assert (
        run(
            db,
            "sql",
            "SELECT period, count(*) AS n FROM rating_lists GROUP BY period",
            "--format",
            "csv",
        ).output
        == "period,n\n2026-01,3\n"
    )
    assert (
        run(
            db,
            "sql",
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) "
            "SELECT sum(x) AS total FROM n",
            "--format",
            "csv",
        ).output
        == "total\n6\n"
    )


WRITES = [
    ("DELETE FROM players", "DELETE on players"),
    ("UPDATE players SET name = 'x'", "UPDATE on players"),
    ("INSERT INTO settings (id) VALUES (2)", "INSERT on settings"),
    ("REPLACE INTO players (id, name) VALUES (1, 'x')", "INSERT on players"),
    ("DROP TABLE games", "changing the schema"),
    ("DROP VIEW current_ratings", "changing the schema"),
    ("CREATE TABLE notes (a)", "changing the schema"),
    ("CREATE INDEX ix_x ON players (name)", "changing the schema"),
    ("CREATE TEMP TABLE notes (a)", "changing the schema"),
    ("ALTER TABLE players ADD COLUMN x", "ALTER TABLE"),
    ("ATTACH DATABASE 'other.db' AS other", "ATTACH of 'other.db'"),
    ("PRAGMA writable_schema = 1", "PRAGMA writable_schema = 1"),
    ("PRAGMA writable_schema = ON", "PRAGMA writable_schema = ON"),
    ("PRAGMA user_version = 7", "PRAGMA user_version = 7"),
    ("PRAGMA foreign_keys = OFF", "PRAGMA foreign_keys = OFF"),
    ("PRAGMA journal_mode = WAL", "PRAGMA journal_mode = WAL"),
    ("REINDEX", "REINDEX"),
    ("BEGIN", "BEGIN/COMMIT/ROLLBACK"),
    ("SAVEPOINT s", "SAVEPOINT"),
]


@pytest.mark.parametrize(("query", "refused"), WRITES, ids=[q for q, _ in WRITES])
def test_writes_are_refused_and_change_nothing(db: Path, query: str, refused: str) -> None:
    before = db.read_bytes()
    files = sorted(p.name for p in db.parent.iterdir())
    result = run(db, "sql", query)
    assert (result.exit_code, result.output) == (
        1,
        f"Error: ratings sql is read-only: {refused} is not allowed\n",
    )
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == files


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("SELEC 1", 'near "SELEC": syntax error'),
        ("SELECT * FROM nope", "no such table: nope"),
        ("SELECT nope FROM players", "no such column: nope"),
        ("SELECT 1; DELETE FROM players", "You can only execute one statement at a time."),
        ("VACUUM INTO 'copy.db'", "cannot VACUUM from within a transaction"),
        ("SELECT ?", "Incorrect number of bindings supplied. The current statement uses 1, "
         "and there are 0 supplied."),
        ("SELECT 1\x00", "the query contains a null character"),
        ("   ", "the query is empty"),
    ],
)  # fmt: skip
def test_errors(db: Path, query: str, message: str) -> None:
    before = db.read_bytes()
    files = sorted(p.name for p in db.parent.iterdir())
    result = run(db, "sql", query)
    assert (result.exit_code, result.output) == (1, f"Error: {message}\n")
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == files


def test_undecodable_bytes_on_the_command_line(db: Path) -> None:
    result = run(db, "sql", "SELECT '\udcff'")
    assert (result.exit_code, result.output) == (
        1,
        "Error: the query is not valid UTF-8 text: \"SELECT '\\udcff'\"\n",
    )


def test_a_bad_format_is_a_usage_error(db: Path) -> None:
    result = run(db, "sql", "SELECT 1", "--format", "xml")
    assert result.exit_code == 2


def test_a_missing_database_is_not_created(tmp_path: Path) -> None:
    db = tmp_path / "missing.db"
    result = run(db, "sql", "SELECT 1")
    assert (result.exit_code, result.output) == (
        1,
        f"Error: no database at '{db}'; create one with 'ratings init', or name an existing "
        "one with --db PATH (or RATINGS_DB)\n",
    )
    assert not db.exists()


def test_a_database_without_the_schema(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (a)")
    result = run(db, "sql", "SELECT 1")
    assert (result.exit_code, result.output) == (
        1,
        "Error: this database has no ratings schema; create one with 'ratings init'\n",
    )


def test_reads_while_another_process_writes(db: Path) -> None:
    """A query needs no write lock: it runs while a writer holds one."""
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE players SET name = 'Renamed' WHERE id = 1")
        result = run(db, "sql", "SELECT name FROM players WHERE id = 1", "--format", "csv")
        assert (result.exit_code, result.output) == (0, 'name\n"Smith, Ann"\n')
        writer.execute("ROLLBACK")
    finally:
        writer.close()


def test_help() -> None:
    result = CliRunner().invoke(cli, ["sql", "--help"])
    assert result.exit_code == 0
    assert result.output.startswith("Usage: cli sql [OPTIONS] QUERY\n\n  Run one read-only SQL")
