"""PostgreSQL as the second backend: migrations, `alembic check`, and the whole CLI giving the
same output as on SQLite. Each test gets a fresh database on the server named by
``RATINGS_TEST_PG_URL`` (`.ci/run` starts a throwaway cluster and sets it)."""

from __future__ import annotations

import datetime as dt
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from pytest_alembic.tests import (
    test_model_definitions_match_ddl,
    test_single_head_revision,
    test_up_down_consistency,
    test_upgrade,
)
from safety_helpers import generate
from sqlalchemy.engine import Engine

import ratings.db
from ratings import migrate
from ratings.cli import cli
from ratings.db import PG_LOCK_KEY, make_engine

PG_URL = os.environ.get("RATINGS_TEST_PG_URL")
DATA = Path(__file__).parent / "data"

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not PG_URL,
        reason="RATINGS_TEST_PG_URL is not set: no PostgreSQL server to test against "
        "(.ci/run starts one; or: source .ci/postgres.sh && start_postgres)",
    ),
]

__all__ = [
    "test_model_definitions_match_ddl",
    "test_single_head_revision",
    "test_up_down_consistency",
    "test_upgrade",
]


def _admin() -> Engine:
    assert PG_URL is not None
    return sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty database (C collation, so that ORDER BY name sorts as on SQLite),
    dropped after the test."""
    assert PG_URL is not None
    name = f"ratings_test_{secrets.token_hex(6)}"
    admin = _admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(
            f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
        )
    try:
        yield sa.engine.make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


@pytest.fixture
def alembic_engine(pg_url: str) -> Iterator[Engine]:
    """pytest-alembic's built-in tests, run against PostgreSQL (overrides conftest's)."""
    engine = make_engine(pg_url, enforce_foreign_keys=False)
    yield engine
    engine.dispose()


def _objects(url: str) -> tuple[set[str], set[str]]:
    engine = make_engine(url)
    try:
        inspector = sa.inspect(engine)
        return set(inspector.get_table_names()), set(inspector.get_view_names())
    finally:
        engine.dispose()


def test_migrations_up_down_up_and_check(pg_url: str) -> None:
    migrate.upgrade(pg_url)
    tables, views = _objects(pg_url)
    assert {"players", "games", "rating_history", "settings", "alembic_version"} <= tables
    assert views == {"current_ratings", "rating_lists"}
    migrate.check(pg_url)
    migrate.downgrade(pg_url, "base")
    assert _objects(pg_url) == ({"alembic_version"}, set())
    migrate.upgrade(pg_url)
    migrate.check(pg_url)
    engine = make_engine(pg_url)
    try:
        assert migrate.current_revision(engine) == migrate.head_revision()
    finally:
        engine.dispose()


# --- the CLI, end to end, against the same commands on SQLite --------------------------


def _script(players_csv: Path, games_csv: Path) -> list[list[str]]:
    """Every command path, in the order an administrator would run them."""
    sql_name = "O'Brien; DROP TABLE players;--"
    return [
        ["player", "add", "Smith, Ann", "--rating", "1800", "--birthdate", "2010-03-02",
         "--fide-id", "99000001"],
        ["player", "add", sql_name, "--rating", "1500", "--sex", "m", "--federation", "IRL"],
        ["import", "pgn", str(DATA / "pgn" / "0006.pgn")],
        ["import", "trf", str(DATA / "trf" / "held_swiss_9.trf")],
        ["import", "players", str(players_csv)],
        ["import", "games", str(games_csv)],
        ["game", "add", "Smith, Ann", sql_name, "1-0", "--date", "2024-07-20", "--event", "Duel"],
        ["game", "add", "fide:99000001", sql_name, "1/2-1/2", "--date", "2024-08-03"],
        ["preview", "--format", "csv"],
        ["rate", "--through", "2024-08"],
        ["rate"],
        ["rate"],
        ["list", "--format", "csv"],
        ["list", "--period", "2024-07"],
        ["list", "--all", "--format", "json"],
        ["history", "Smith, Ann"],
        ["history", sql_name, "--format", "csv"],
        ["card", "Smith, Ann", "--period", "2024-07"],
        ["card", "3", "--period", "2024-08"],
        ["performance", "Smith, Ann", "--period", "2024-07"],
        ["performance", "Smith, Ann", "--event", "Duel", "--method", "400"],
        ["performance", "3", "--event", "Duel"],
        ["game", "edit", "10", "--result", "0-1"],
        ["game", "void", "20"],
        ["player", "edit", "3", "--birthdate", "2011"],
        ["rate"],
        ["list", "--format", "csv"],
        ["history", "3", "--format", "json"],
        ["player", "merge", "4", "5"],
        ["player", "add", "Smith, A.", "--birthdate", "2010", "--fide-id", "99000002"],
        ["game", "add", "Smith, A.", "3", "0-1", "--date", "2024-09-05"],
        ["player", "merge", "Smith, Ann", "Smith, A."],
        ["rate"],
        ["player", "list"],
        ["player", "show", sql_name],
        ["list", "--period", "1999-01"],
        ["card", "nobody", "--period", "2024-07"],
        ["game", "add", "Smith, Ann", "Smith, Ann", "1-0", "--date", "2024-09-01"],
        ["sql", "SELECT period, count(*) AS n, sum(change) AS total FROM rating_lists "
         "GROUP BY period ORDER BY period", "--format", "csv"],
        ["sql", "SELECT name, rating FROM current_ratings WHERE rating IS NOT NULL "
         "ORDER BY rating DESC, name LIMIT 5"],
        ["export", "trf", "FIDE C.07 2023 Tie-Break Exercises"],
        ["db", "current"],
        ["db", "check"],
    ]  # fmt: skip


def _run(db: str, script: list[list[str]]) -> list[tuple[list[str], int, str]]:
    runner = CliRunner()
    transcript = []
    for args in script:
        result = runner.invoke(cli, ["--db", db, *args])
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            result.output,
        )
        transcript.append((args, result.exit_code, result.output))
    return transcript


@pytest.mark.slow
def test_the_cli_gives_the_same_output_as_on_sqlite(pg_url: str, tmp_path: Path) -> None:
    players_csv, games_csv = generate(
        tmp_path, players=40, games=900, periods=3, seed=5, start=dt.date(2024, 7, 1)
    )
    script = _script(players_csv, games_csv)
    runner = CliRunner()
    sqlite_db = tmp_path / "club.db"
    for db in (str(sqlite_db), pg_url):
        result = runner.invoke(cli, ["--db", db, "init"])
        assert (result.exit_code, result.output) == (
            0,
            f"Created {db} (fide system, 1-month periods, schema {migrate.head_revision()})\n",
        )
    on_sqlite = _run(str(sqlite_db), script)
    on_postgres = _run(pg_url, script)
    for (args, *expected), (_, *got) in zip(on_sqlite, on_postgres, strict=True):
        assert got == expected, args
    # the script exercised successes and refusals alike
    assert {code for _, code, _ in on_sqlite} == {0, 1}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("DELETE FROM players", "cannot execute DELETE in a read-only transaction"),
        ("DROP TABLE games", "cannot execute DROP TABLE in a read-only transaction"),
        ("CREATE TEMP TABLE notes (a int)", "cannot execute CREATE TABLE in a read-only "
         "transaction"),
        ("UPDATE settings SET k_factor = 5", "cannot execute UPDATE in a read-only transaction"),
        ("SELECT nextval('players_id_seq')", "cannot execute nextval() in a read-only "
         "transaction"),
        ("COMMIT; DELETE FROM players", "cannot insert multiple commands into a prepared "
         "statement"),
        ("SET default_transaction_read_only = off; DELETE FROM players",
         "cannot insert multiple commands into a prepared statement"),
        ("SELEC 1", 'syntax error at or near "SELEC"'),
    ],
)  # fmt: skip
def test_sql_is_read_only(pg_url: str, query: str, message: str) -> None:
    runner = CliRunner()
    for args in (["init"], ["player", "add", "Smith, Ann", "--rating", "1800"]):
        assert runner.invoke(cli, ["--db", pg_url, *args]).exit_code == 0
    result = runner.invoke(cli, ["--db", pg_url, "sql", query])
    assert (result.exit_code, result.output) == (1, f"Error: {message}\n")
    result = runner.invoke(
        cli, ["--db", pg_url, "sql", "SELECT count(*) AS n FROM players", "--format", "csv"]
    )
    assert result.output == "n\n1\n"
    assert (
        runner.invoke(cli, ["--db", pg_url, "sql", "SELECT '100%' AS p", "--format", "json"]).output
        == '[\n  {\n    "p": "100%"\n  }\n]\n'
    )


def test_a_nul_byte_never_reaches_the_server(pg_url: str) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", pg_url, "init"]).exit_code == 0
    result = runner.invoke(cli, ["--db", pg_url, "player", "add", "Nul\x00Name"])
    assert result.exit_code == 1
    assert result.output == "Error: not a usable name: 'Nul\\x00Name'\n"
    result = runner.invoke(cli, ["--db", pg_url, "sql", "SELECT 'a\x00b'"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")


# --- concurrency: the advisory lock plays BEGIN IMMEDIATE's part -------------------------


def _start(db: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ratings", "--db", db, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_two_rates_at_once(pg_url: str, tmp_path: Path) -> None:
    players_csv, games_csv = generate(tmp_path, players=60, games=1500, periods=3, seed=8)
    runner = CliRunner()
    for args in (["init"], ["import", "players", str(players_csv)],
                 ["import", "games", str(games_csv)]):  # fmt: skip
        assert runner.invoke(cli, ["--db", pg_url, *args]).exit_code == 0
    procs = [_start(pg_url, "rate"), _start(pg_url, "rate")]
    results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    assert [code for code, _, _ in results] == [0, 0], results
    outputs = sorted(out for _, out, _ in results)
    assert outputs[0] == "Nothing to rate\n"
    assert outputs[1].startswith("Rated 3 periods ")
    counts = runner.invoke(
        cli,
        ["--db", pg_url, "sql", "SELECT (SELECT count(*) FROM rating_periods) AS periods, "
         "(SELECT count(*) FROM rating_history) AS entries", "--format", "csv"],
    )  # fmt: skip
    assert counts.output == "periods,entries\n3,180\n"


def test_a_held_lock_ends_in_a_clean_error(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", pg_url, "init"]).exit_code == 0
    holder = make_engine(pg_url)  # its transaction takes the advisory lock
    try:
        with holder.connect() as conn:
            assert (
                conn.exec_driver_sql(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = "
                    f"{PG_LOCK_KEY & 0xFFFFFFFF}"
                ).scalar_one()
                == 1
            )
            monkeypatch.setattr(ratings.db, "BUSY_TIMEOUT_MS", 100)
            result = runner.invoke(cli, ["--db", pg_url, "player", "add", "Late, Comer"])
            assert result.exit_code == 1
            assert result.output.startswith(
                "Error: database error: canceling statement due to lock timeout\n"
            )
    finally:
        holder.dispose()
    result = runner.invoke(cli, ["--db", pg_url, "player", "list"])
    assert "Late, Comer" not in result.output
