"""PostgreSQL as the second backend: migrations, `alembic check`, and the whole CLI giving the
same output as on SQLite. Each test gets a fresh database on the server named by
``RATINGS_TEST_PG_URL`` (`.ci/run` starts a throwaway cluster and sets it)."""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from pytest_alembic.tests import (
    test_model_definitions_match_ddl,
    test_single_head_revision,
    test_up_down_consistency,
    test_upgrade,
)
from sqlalchemy.engine import Engine

import ratings.db
from ratings import migrate, privileges
from ratings.cli import cli
from ratings.db import PG_LOCK_KEY, database_url, make_engine
from tests.safety_helpers import generate
from tests.support import ok, run

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


def _query_function(url: str) -> str | None:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            found = conn.exec_driver_sql(
                f"SELECT to_regprocedure('{privileges.QUERY_FUNCTION}(text)')::text"
            ).scalar()
            return None if found is None else str(found)
    finally:
        engine.dispose()


def test_migrations_up_down_up_and_check(pg_url: str) -> None:
    migrate.upgrade(pg_url)
    tables, views = _objects(pg_url)
    assert {"players", "games", "rating_history", "settings", "alembic_version"} <= tables
    assert views == set(privileges.PRODUCT_VIEWS)
    migrate.check(pg_url)
    assert _query_function(pg_url) == f"{privileges.QUERY_FUNCTION}(text)"
    migrate.downgrade(pg_url, "base")
    assert _objects(pg_url) == ({"alembic_version"}, set())
    assert _query_function(pg_url) is None  # the reader's function goes with the schema
    migrate.upgrade(pg_url)
    migrate.check(pg_url)
    assert _query_function(pg_url) == f"{privileges.QUERY_FUNCTION}(text)"
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
    transcript = []
    for args in script:
        result = run(db, *args)  # a traceback fails the test
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
    _refresh_after_init(pg_url)
    on_sqlite = _run(str(sqlite_db), script)
    on_postgres = _run(pg_url, script)
    for (args, *expected), (_, *got) in zip(on_sqlite, on_postgres, strict=True):
        assert got == expected, args
    # the script exercised successes and refusals alike
    assert {code for _, code, _ in on_sqlite} == {0, 1}


def _refresh_after_init(url: str) -> None:
    """`ratings db upgrade` after `ratings init`: init builds the schema through
    migrate.run_migrations in its own transaction and does not prepare the reader role yet
    (see test_init_alone_prepares_ratings_sql)."""
    result = CliRunner().invoke(cli, ["--db", url, "db", "upgrade"])
    assert (result.exit_code, result.output) == (0, f"Already at {migrate.head_revision()}\n")


def _init(url: str, *more: list[str]) -> None:
    ok(url, "init")
    _refresh_after_init(url)
    for args in more:
        ok(url, *args)


def _not_allowed(kind: str) -> str:
    return (
        f"ratings sql is read-only: {kind} is not allowed (on PostgreSQL it runs queries: "
        "SELECT, WITH, VALUES, TABLE)"
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("DELETE FROM players", _not_allowed("DELETE")),
        ("DROP TABLE games", _not_allowed("DROP")),
        ("CREATE TEMP TABLE notes (a int)", _not_allowed("CREATE")),
        ("UPDATE settings SET k_factor = 5", _not_allowed("UPDATE")),
        ("WITH d AS (DELETE FROM players RETURNING id) SELECT * FROM d",
         "SELECT is not allowed in a non-volatile function"),  # the reader's function
        ("SELECT nextval('players_id_seq')", "permission denied for sequence players_id_seq"),
        ("COMMIT; DELETE FROM players", "cannot insert multiple commands into a prepared "
         "statement"),
        ("SET default_transaction_read_only = off; DELETE FROM players",
         "cannot insert multiple commands into a prepared statement"),
        ("SELECT 1; DELETE FROM players", "cannot insert multiple commands into a prepared "
         "statement"),
        ("SELECT * INTO stolen FROM players", "cannot open SELECT INTO query as cursor"),
        ("SELEC 1", 'syntax error at or near "SELEC"'),
    ],
)  # fmt: skip
def test_sql_is_read_only(pg_url: str, query: str, message: str) -> None:
    runner = CliRunner()
    _init(pg_url, ["player", "add", "Smith, Ann", "--rating", "1800"])
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
    _init(pg_url)
    result = runner.invoke(cli, ["--db", pg_url, "player", "add", "Nul\x00Name"])
    assert result.exit_code == 1
    assert result.output == (
        "Error: not a usable name: holds a control character (U+0000): 'Nul\\x00Name'\n"
    )
    result = runner.invoke(cli, ["--db", pg_url, "sql", "SELECT 'a\x00b'"])
    assert (result.exit_code, result.output) == (
        1,
        "Error: the query contains a null character\n",
    )


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
    _init(pg_url, ["import", "players", str(players_csv)], ["import", "games", str(games_csv)])
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
    ok(pg_url, "init")
    holder = make_engine(pg_url)  # its transaction takes the advisory lock
    try:
        with holder.connect() as conn:
            # pg_locks is the whole server's: count this database's holder only (a test of
            # another database, run beside this one, takes the same key in its own)
            assert (
                conn.exec_driver_sql(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = "
                    f"{PG_LOCK_KEY & 0xFFFFFFFF} AND database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database())"
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


# --- ratings sql: least privilege, time limit, streaming ----------------------------------
# An attacker holding a superuser URL (as the CI does, and as many administrators connect)
# tries to reach the server's files, programs, password hashes and its own privileges
# through `ratings sql`. Every attempt is refused or harmless; nothing is left behind.

HOSTNAME = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else ""
COPY_REFUSED = (
    "ratings sql does not run COPY (it can run programs and read or write files on the "
    "database server); use --format csv"
)
IN_DEFINER = 'cannot set parameter "{}" within security-definer function'
DENIED = "permission denied for {}"


@pytest.fixture(scope="module")
def target() -> Iterator[str]:
    """One initialised database for the attacks (each checks that nothing changed)."""
    url = _create_database()
    try:
        _init(url, ["player", "add", "Smith, Ann", "--rating", "1800"])
        yield url
    finally:
        _drop_database(url)


@pytest.fixture
def drop_box() -> Iterator[Path]:
    """A folder the server's own OS user could write to, had it been told to (pytest's
    tmp_path is private to the user running the tests, so a COPY there would fail anyway)."""
    box = Path(tempfile.mkdtemp(prefix="ratings-drop-box-"))
    box.chmod(0o777)
    try:
        yield box
    finally:
        shutil.rmtree(box, ignore_errors=True)


def _state(url: str) -> tuple[Any, ...]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return (
                conn.exec_driver_sql("SELECT id, name FROM players ORDER BY id").all(),
                conn.exec_driver_sql("SELECT count(*) FROM pg_largeobject_metadata").scalar(),
                conn.exec_driver_sql(
                    "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace "
                    "ORDER BY relname"
                ).all(),
            )
    finally:
        engine.dispose()


ATTACKS = [
    # the three holes reported: a program, a file written, a file read
    ("COPY players TO PROGRAM 'id > {box}/x'", COPY_REFUSED),
    ("COPY (SELECT 1) TO '{box}/out'", COPY_REFUSED),
    ("SELECT pg_read_file('/etc/hostname')", DENIED.format("function pg_read_file")),
    # COPY in every disguise
    ("COPY players FROM '/etc/hostname'", COPY_REFUSED),
    ("  /* a /* nested */ comment */ -- and a line\n\t CoPy players TO '{box}/y'", COPY_REFUSED),
    ("copy players to stdout", COPY_REFUSED),
    # the server's files
    ("SELECT pg_read_binary_file('/etc/hostname')",
     DENIED.format("function pg_read_binary_file")),
    ("SELECT pg_ls_dir('.')", DENIED.format("function pg_ls_dir")),
    ("SELECT pg_stat_file('PG_VERSION')", DENIED.format("function pg_stat_file")),
    ("SELECT lo_import('/etc/hostname')", DENIED.format("function lo_import")),
    ("SELECT lo_export(1, '{box}/lo')", DENIED.format("function lo_export")),
    ("SELECT current_setting('data_directory')",
     'must be superuser or have privileges of pg_read_all_settings to examine "data_directory"'),
    ("SELECT xmlparse(document '<!DOCTYPE x [<!ENTITY e SYSTEM \"/etc/hostname\">]><x>&e;</x>')",
     None),  # harmless: the entity is not expanded
    # taking the login's privileges back
    ("SET ROLE postgres", _not_allowed("SET")),
    ("RESET ROLE", _not_allowed("RESET")),
    ("SET SESSION AUTHORIZATION postgres", _not_allowed("SET")),
    ("SELECT set_config('role', 'postgres', true), pg_read_file('/etc/hostname')",
     DENIED.format("function pg_read_file")),
    ("WITH s AS MATERIALIZED (SELECT set_config('role', 'postgres', true) AS r) "
     "SELECT (SELECT r FROM s), pg_read_file('/etc/hostname')",
     DENIED.format("function pg_read_file")),
    ("SELECT r, current_setting('data_directory') "
     "FROM (SELECT set_config('role', 'postgres', true) AS r OFFSET 0) AS s",
     IN_DEFINER.format("role")),
    # the hole SET ROLE alone leaves: set_config first, then SQL planned afterwards
    ("SELECT set_config('role', 'postgres', true) AS s, "
     "query_to_xml('SELECT pg_read_file(''/etc/hostname'') AS f', true, true, '') AS x",
     IN_DEFINER.format("role")),
    ("SELECT query_to_xml('SELECT set_config(''role'', ''postgres'', true)', true, true, '')",
     IN_DEFINER.format("role")),
    ("SELECT set_config('session_authorization', 'postgres', true)",
     IN_DEFINER.format("session_authorization")),
    ("SELECT set_config('transaction_read_only', 'off', true)",
     "transaction read-write mode must be set before any query"),
    ("DO $$BEGIN PERFORM set_config('role', 'postgres', true); "
     "RAISE EXCEPTION '%', pg_read_file('/etc/hostname'); END$$", _not_allowed("DO")),
    # password hashes
    ("SELECT * FROM pg_authid", DENIED.format("table pg_authid")),
    ("TABLE pg_authid", DENIED.format("table pg_authid")),
    ("SELECT passwd FROM pg_shadow", DENIED.format("view pg_shadow")),
    ("SELECT query_to_xml('SELECT rolpassword FROM pg_authid', true, true, '')",
     DENIED.format("table pg_authid")),
    # other ways out
    ("SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS t(a int)",
     "function dblink(unknown, unknown) does not exist"),
    ("CREATE EXTENSION dblink", _not_allowed("CREATE")),
    ("EXPLAIN ANALYZE SELECT pg_read_file('/etc/hostname')", _not_allowed("EXPLAIN")),
    ("LOAD 'plpgsql'", _not_allowed("LOAD")),
    ("CALL nothing()", "procedure nothing() does not exist"),
    ("CALL pg_catalog.pg_sleep(0)", "pg_catalog.pg_sleep(integer) is not a procedure"),
    ("SELECT pg_reload_conf()", DENIED.format("function pg_reload_conf")),
    ("VALUES (pg_read_file('/etc/hostname'))", DENIED.format("function pg_read_file")),
    ("SELECT 1) AS q, LATERAL (SELECT pg_read_file('/etc/hostname')) AS z (f",
     'syntax error at or near ")"'),
    # wrote a large object inside the transaction, rolled back; the upgrade now revokes it
    # from PUBLIC
    ("SELECT lo_from_bytea(0, 'x') > 0 AS created", "permission denied for function lo_from_bytea"),
]  # fmt: skip


@pytest.mark.parametrize(("query", "message"), ATTACKS, ids=[q[:60] for q, _ in ATTACKS])
def test_an_attacker_with_a_superuser_login(
    target: str, drop_box: Path, query: str, message: str | None
) -> None:
    before = _state(target)
    result = CliRunner().invoke(cli, ["--db", target, "sql", query.format(box=drop_box)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    if message is None:
        assert result.exit_code == 0
    else:
        assert (result.exit_code, result.output) == (1, f"Error: {message}\n")
    if HOSTNAME:
        assert HOSTNAME not in result.output
    assert list(drop_box.iterdir()) == []
    assert _state(target) == before


def test_other_sessions_queries_stay_hidden(target: str) -> None:
    """pg_stat_activity shows the reader no other session's query text, and it cannot
    end another session."""
    other = sa.create_engine(target)
    try:
        with other.connect() as conn:
            conn.exec_driver_sql("SELECT 'a secret in a query'").all()
            pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            runner = CliRunner()
            result = runner.invoke(
                cli, ["--db", target, "sql", "SELECT query FROM pg_stat_activity"]
            )
            assert result.exit_code == 0
            assert "a secret in a query" not in result.output
            result = runner.invoke(
                cli, ["--db", target, "sql", f"SELECT pg_terminate_backend({pid})"]
            )
            assert (result.exit_code, result.output) == (
                1,
                "Error: must be a superuser to terminate superuser process\n",
            )
            assert conn.exec_driver_sql("SELECT 1").scalar() == 1  # still alive
    finally:
        other.dispose()


def test_the_time_limit_holds(target: str) -> None:
    runner = CliRunner()
    for query in (
        "SELECT pg_sleep(30)",
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n",
        # turning the limit off from inside the query does not stop the running clock
        "SELECT set_config('statement_timeout', '0', true), pg_sleep(30)",
    ):
        start = time.monotonic()
        result = runner.invoke(cli, ["--db", target, "sql", query, "--timeout", "0.5"])
        assert (result.exit_code, result.output) == (
            1,
            "Error: the query ran longer than 0.5 s; allow more with --timeout SECONDS "
            "(0: no limit)\n",
        )
        assert time.monotonic() - start < 10


def test_values_keep_their_types(target: str) -> None:
    """Rows travel as JSON from the reader's function: numbers, NULL, booleans, dates,
    repeated column names and trailing comments or semicolons come out as before."""
    runner = CliRunner()
    query = (
        "SELECT 1 AS a, 'x' AS a, 1.50 AS n, -2 AS m, NULL AS z, true AS t, "
        "date '2026-01-31' AS d, '{\"k\": [1, 2]}'::json AS j; -- the end"
    )
    result = runner.invoke(cli, ["--db", target, "sql", query])
    assert (result.exit_code, result.stdout) == (
        0,
        "a  a     n   m  z  t     d           j\n"
        "-  -  ----  --  -  ----  ----------  -------------\n"
        '1  x  1.50  -2     true  2026-01-31  {"k": [1, 2]}\n',
    )
    result = runner.invoke(cli, ["--db", target, "sql", query, "--format", "json"])
    assert json.loads(result.output) == [
        {"a": 1, "a_2": "x", "n": 1.5, "m": -2, "z": None, "t": True, "d": "2026-01-31",
         "j": {"k": [1, 2]}}
    ]  # fmt: skip
    result = runner.invoke(cli, ["--db", target, "sql", "SELECT name FROM players WHERE false"])
    assert (result.exit_code, result.stdout, result.stderr) == (0, "name\n----\n", "(0 rows)\n")


@pytest.mark.slow
def test_a_million_rows_stream_on_postgresql(target: str, tmp_path: Path) -> None:
    """The server builds the rows (spilling to disk past work_mem); the client holds one
    batch. Peak RSS of the command alone (see test_sql_stream.PEAK_RSS)."""
    from tests.reading.test_sql_stream import PEAK_RSS

    query = (
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000) "
        "SELECT x AS id, 'Player ' || x AS name, 1000 + x % 1800 AS rating, "
        "(x % 41) - 20 AS change, x / 7.0 AS score, date '2026-01-01' + x % 365 AS played_on "
        "FROM n"
    )
    for fmt in ("table", "csv", "json"):
        out_path = tmp_path / f"out.{fmt}"
        start = time.monotonic()
        with out_path.open("wb") as out:
            proc = subprocess.run(
                [sys.executable, "-c", PEAK_RSS, "-m", "ratings", "--db", target, "sql", query,
                 "--format", fmt, "--timeout", "0"],
                stdout=out, stderr=subprocess.PIPE, check=False,
            )  # fmt: skip
        elapsed = time.monotonic() - start
        peak_mb = int(proc.stderr.decode().splitlines()[-1].split("=")[1]) / 1024
        # the figures in docs/RELIABILITY.md (shown with pytest -s)
        print(f"\nPostgreSQL {fmt}: 1,000,000 rows in {elapsed:.1f} s, peak {peak_mb:.0f} MB")  # noqa: T201
        assert proc.returncode == 0, proc.stderr
        assert peak_mb < 100
        with out_path.open("rb") as f:
            assert sum(1 for _ in f) > 1_000_000 if fmt != "json" else json.load(f)[-1]["id"]


# --- the reader role ------------------------------------------------------------------------


def _grants(url: str, role: str) -> dict[str, set[str]]:
    """Every privilege ``role`` holds on a relation of the public schema, and on the schema."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "SELECT c.relname, p.priv FROM pg_class c CROSS JOIN unnest(ARRAY['SELECT', "
                "'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) AS p(priv) "
                "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v', 'm') "
                "AND has_table_privilege(%(r)s, c.oid, p.priv)",
                {"r": role},
            ).all()
            grants: dict[str, set[str]] = {}
            for relation, privilege in rows:
                grants.setdefault(relation, set()).add(privilege)
            for privilege in ("USAGE", "CREATE"):
                if conn.exec_driver_sql(
                    "SELECT has_schema_privilege(%(r)s, 'public', %(p)s)",
                    {"r": role, "p": privilege},
                ).scalar():
                    grants.setdefault("schema public", set()).add(privilege)
            return grants
    finally:
        engine.dispose()


def _role(role: str) -> tuple[Any, ...] | None:
    admin = _admin()
    try:
        with admin.connect() as conn:
            row = conn.exec_driver_sql(
                "SELECT r.rolcanlogin, r.rolsuper, r.rolcreaterole, r.rolcreatedb, "
                "r.rolreplication, r.rolbypassrls, (SELECT count(*) FROM pg_auth_members m "
                "WHERE m.member = r.oid) FROM pg_roles r WHERE r.rolname = %(r)s",
                {"r": role},
            ).one_or_none()
            return None if row is None else tuple(row)
    finally:
        admin.dispose()


def test_init_alone_prepares_ratings_sql(pg_url: str) -> None:
    runner = CliRunner()
    ok(pg_url, "init")
    result = runner.invoke(cli, ["--db", pg_url, "sql", "SELECT count(*) AS n FROM players"])
    assert (result.exit_code, result.stdout) == (0, "n\n-\n0\n")


def test_the_reader_role_holds_select_on_the_product_only(pg_url: str) -> None:
    _init(pg_url)
    assert _role(privileges.READER_ROLE) == (False, False, False, False, False, False, 0)
    product = sorted(privileges.product_relations())
    assert _grants(pg_url, privileges.READER_ROLE) == {
        **{name: {"SELECT"} for name in product},
        "schema public": {"USAGE"},
    }


def test_the_product_list_matches_the_schema(tmp_path: Path) -> None:
    """A new table or view (a later revision) must be added to the reader's list."""
    db = tmp_path / "club.db"
    migrate.upgrade(database_url(str(db)))
    with sqlite3.connect(db) as conn:
        names = {
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                "AND name NOT LIKE 'sqlite_%'"
            )
        }
    assert names == privileges.product_relations()


def test_every_upgrade_refreshes_the_grants(pg_url: str) -> None:
    """A view recreated by hand (or by a migration) loses its grants; other tables in the
    schema are never granted; the next upgrade puts the product's grants right again."""
    _init(pg_url)
    engine = make_engine(pg_url)
    try:
        with engine.begin() as conn:
            definition = conn.exec_driver_sql("SELECT pg_get_viewdef('rating_lists')").scalar()
            conn.exec_driver_sql("DROP VIEW rating_lists")
            conn.exec_driver_sql(f"CREATE VIEW rating_lists AS {definition}")
            conn.exec_driver_sql("CREATE TABLE secrets (s text)")
            conn.exec_driver_sql(f"GRANT SELECT ON secrets TO {privileges.READER_ROLE}")
    finally:
        engine.dispose()
    runner = CliRunner()
    result = runner.invoke(cli, ["--db", pg_url, "sql", "SELECT count(*) FROM rating_lists"])
    assert (result.exit_code, result.output) == (
        1,
        "Error: permission denied for view rating_lists\n",
    )
    _refresh_after_init(pg_url)
    result = runner.invoke(cli, ["--db", pg_url, "sql", "SELECT count(*) AS n FROM rating_lists"])
    assert (result.exit_code, result.stdout) == (0, "n\n-\n0\n")
    result = runner.invoke(cli, ["--db", pg_url, "sql", "SELECT * FROM secrets"])
    assert (result.exit_code, result.output) == (1, "Error: permission denied for table secrets\n")


def test_the_role_is_shared_by_databases_and_kept(pg_url: str) -> None:
    """Roles belong to the cluster: a second database reuses it, and dropping one database
    leaves it to the other."""
    other = _create_database()
    try:
        _init(pg_url)
        _init(other)
        _refresh_after_init(other)  # idempotent
    finally:
        _drop_database(other)
    assert _role(privileges.READER_ROLE) is not None
    result = CliRunner().invoke(cli, ["--db", pg_url, "sql", "SELECT 1 AS one"])
    assert (result.exit_code, result.stdout) == (0, "one\n---\n  1\n")


@pytest.fixture
def scratch_roles(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """A reader role name of this test's own (so that the shared one is never dropped) and
    a login role without CREATEROLE; both dropped afterwards."""
    token = secrets.token_hex(4)
    reader, login = f"ratings_test_reader_{token}", f"ratings_test_login_{token}"
    monkeypatch.setattr(privileges, "READER_ROLE", reader)
    admin = _admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE ROLE {login} LOGIN")
    try:
        yield reader, login
    finally:
        with admin.connect() as conn:
            for name in conn.exec_driver_sql(
                "SELECT datname FROM pg_database WHERE datdba = %(r)s::regrole",
                {"r": login},
            ).scalars():
                conn.exec_driver_sql(f"DROP DATABASE {name} WITH (FORCE)")
            conn.exec_driver_sql(f"DROP ROLE IF EXISTS {reader}")
            conn.exec_driver_sql(f"DROP ROLE IF EXISTS {login}")
        admin.dispose()


def _create_database(owner: str | None = None) -> str:
    """A fresh database (owned by ``owner``, to whom the URL then connects); its URL."""
    assert PG_URL is not None
    name = f"ratings_test_{secrets.token_hex(6)}"
    admin = _admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(
            f"CREATE DATABASE {name}{f' OWNER {owner}' if owner else ''} TEMPLATE template0 "
            "ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
        )
    admin.dispose()
    url = sa.engine.make_url(PG_URL).set(database=name)
    if owner:
        url = url.set(username=owner)
    return url.render_as_string(hide_password=False)


def _drop_database(url: str) -> None:
    admin = _admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(
            f"DROP DATABASE IF EXISTS {sa.engine.make_url(url).database} WITH (FORCE)"
        )
    admin.dispose()


def not_revoked(reader: str, stderr: str) -> str:
    """``stderr`` after the warning of a database whose upgrade (not by a superuser) could
    not revoke the functions that write from PUBLIC."""
    warning, _, rest = stderr.partition("\n")
    assert warning.startswith(
        f"Warning: the role '{reader}' may still run lo_creat, lo_create, lo_from_bytea, "
        "lo_put, lo_truncate, lo_truncate64, lo_unlink, lowrite, pg_logical_emit_message, "
        "which write even in a read-only transaction; a superuser should run 'ratings db "
        "upgrade', or: REVOKE EXECUTE ON FUNCTION lo_creat(integer), "
    ), stderr
    return rest


def test_a_login_without_createrole(scratch_roles: tuple[str, str]) -> None:
    """The upgrade succeeds without the role; ratings sql refuses and says what to run;
    once an administrator has done so, the next upgrade finishes the job."""
    reader, login = scratch_roles
    url = _create_database(login)
    _init(url, ["player", "add", "Smith, Ann"])
    runner = CliRunner()
    result = runner.invoke(cli, ["--db", url, "sql", "SELECT name FROM players"])
    assert (result.exit_code, result.output) == (
        1,
        f"Error: the PostgreSQL role '{reader}' is missing, and ratings sql does not run "
        f"queries with the privileges of '{login}'; run 'ratings db upgrade' as a user with "
        f"CREATEROLE (or a superuser), or have an administrator run: CREATE ROLE {reader} "
        f"NOLOGIN; GRANT {reader} TO \"{login}\"; then 'ratings db upgrade'\n",
    )
    admin = _admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE ROLE {reader} NOLOGIN")
        conn.exec_driver_sql(f"GRANT {reader} TO {login}")
    admin.dispose()
    _refresh_after_init(url)
    result = runner.invoke(cli, ["--db", url, "sql", "SELECT name FROM players", "--format", "csv"])
    assert (result.exit_code, result.stdout) == (0, 'name\n"Smith, Ann"\n')
    assert not_revoked(reader, result.stderr) == ""
    result = runner.invoke(cli, ["--db", url, "sql", "SELECT set_config('role', 'x', true)"])
    assert not_revoked(reader, result.stderr) == f"Error: {IN_DEFINER.format('role')}\n"


def test_a_role_that_cannot_be_entered(scratch_roles: tuple[str, str]) -> None:
    reader, login = scratch_roles
    admin = _admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE ROLE {reader} NOLOGIN")
    admin.dispose()
    url = _create_database(login)
    _init(url)
    result = CliRunner().invoke(cli, ["--db", url, "sql", "SELECT 1"])
    assert (result.exit_code, result.output) == (
        1,
        f"Error: ratings sql cannot switch to the PostgreSQL role '{reader}' (permission "
        f'denied to set role "{reader}"); have an administrator run: GRANT {reader} TO '
        f'"{login}"\n',
    )


@pytest.mark.parametrize(
    ("setup", "has"),
    [
        ("CREATE ROLE {r} NOLOGIN SUPERUSER", "SUPERUSER"),
        ("CREATE ROLE {r} NOLOGIN CREATEROLE BYPASSRLS", "CREATEROLE, BYPASSRLS"),
        ("CREATE ROLE {r} NOLOGIN; GRANT pg_read_server_files TO {r}",
         "member of pg_read_server_files"),
        ("CREATE ROLE {r} NOLOGIN; GRANT pg_execute_server_program TO {r}",
         "member of pg_execute_server_program"),
    ],
)  # fmt: skip
def test_a_reader_role_with_more_than_select_is_refused(
    pg_url: str, scratch_roles: tuple[str, str], setup: str, has: str
) -> None:
    reader, _ = scratch_roles
    admin = _admin()
    with admin.connect() as conn:
        for statement in setup.format(r=reader).split("; "):
            conn.exec_driver_sql(statement)
    admin.dispose()
    _init(pg_url)
    result = CliRunner().invoke(cli, ["--db", pg_url, "sql", "SELECT 1"])
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: the PostgreSQL role '{reader}' must hold SELECT grants only, but has: {has}; "
        "an administrator should run: "
    )
    _drop_database(pg_url)  # the function the role owns goes with it, then the role can


def test_a_login_with_createrole(scratch_roles: tuple[str, str]) -> None:
    """Not a superuser, but allowed to create roles: the upgrade creates the reader role and
    makes the login a member, so that it can SET ROLE to it."""
    reader, login = scratch_roles
    admin = _admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"ALTER ROLE {login} CREATEROLE")
    admin.dispose()
    url = _create_database(login)
    _init(url, ["player", "add", "Smith, Ann"])
    assert _role(reader) == (False, False, False, False, False, False, 0)
    runner = CliRunner()
    result = runner.invoke(cli, ["--db", url, "sql", "SELECT name FROM players", "--format", "csv"])
    assert (result.exit_code, result.stdout) == (0, 'name\n"Smith, Ann"\n')
    assert not_revoked(reader, result.stderr) == ""
    result = runner.invoke(cli, ["--db", url, "sql", "SELECT pg_read_file('/etc/hostname')"])
    assert not_revoked(reader, result.stderr) == (
        f"Error: {DENIED.format('function pg_read_file')}\n"
    )
