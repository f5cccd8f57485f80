"""A small smoke run of the benchmark (bench/run.py) on PostgreSQL: every
step measured for ours and the PostgreSQL floor (bench/floor_pg.py), with the same rows as on
SQLite, and no work database left behind. Skipped without a server (RATINGS_TEST_PG_URL)."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import pytest
import sqlalchemy as sa

from tests.conftest import nested_plans
from tests.safety_helpers import bench_module

PG_URL = os.environ.get("RATINGS_TEST_PG_URL")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not PG_URL,
        reason="RATINGS_TEST_PG_URL is not set: no PostgreSQL server to test against "
        "(.ci/run starts one; or: source .ci/postgres.sh && start_postgres)",
    ),
]

# the tests that read the smoke run (17 s on 2 cores): a benchmark's smoke run, so .ci/run's
# slow suite, not the test loop; the two that read no run stay in the loop
SMOKE_RUN = pytest.mark.slow

SIZE: dict[str, Any] = {
    "players": 60,
    "games": [600],
    "periods": 3,
    "extra_games": 100,
    "repeats": 1,
    "quiet": True,
}


@pytest.fixture(scope="module")
def bench_run() -> ModuleType:
    """bench/run.py loaded as a module."""
    return bench_module("run.py", "bench_run_pg")


def _bench_databases() -> list[str]:
    assert PG_URL is not None
    engine = sa.create_engine(PG_URL)
    try:
        with engine.connect() as conn:
            return list(
                conn.scalars(
                    sa.text("SELECT datname FROM pg_database WHERE datname LIKE 'ratings_bench_%'")
                )
            )
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def runs(bench_run: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The same tiny federation measured on SQLite, then on PostgreSQL (the data kept in one
    work folder, so both runs use the same files)."""
    work = tmp_path_factory.mktemp("bench-pg")
    before = _bench_databases()
    sqlite = bench_run.run(**SIZE, keep=work)
    pg = bench_run.run(**SIZE, keep=work, db_url=PG_URL)
    return sqlite, pg, before, _bench_databases()


@SMOKE_RUN
def test_every_step_is_measured_for_ours_and_the_floor(runs: Any) -> None:
    _, (results, _), _, _ = runs
    (result,) = results
    assert set(result.measures) == {"import", "rate", "next", "rerate"}
    for measure in result.measures.values():
        for kind in ("ours", "floor"):
            assert len(getattr(measure, kind)) == 1
            assert measure.seconds(kind) > 0
            assert measure.rss(kind) > 0
        assert measure.ratio() > 0
    import_ = result.measures["import"]
    assert import_.ours[0]["games"] == import_.floor[0]["games"] == 600


@SMOKE_RUN
def test_postgresql_writes_the_same_rows_as_sqlite(runs: Any) -> None:
    (sqlite_results, _), (pg_results, _), _, _ = runs
    (on_sqlite,), (on_pg,) = sqlite_results, pg_results
    rows = {k: v for k, v in on_pg.rows.items() if k != "db_mb"}
    assert rows == {k: v for k, v in on_sqlite.rows.items() if k != "db_mb"}
    assert rows["history_rows"] == rows["floor_history_rows"] == 60 * 3
    assert rows["floor_breakdown_rows"] > 0
    assert rows["final_games"] == 600 + 100
    for step in ("rate", "next", "rerate"):
        for kind in ("ours", "floor"):
            pg, lite = on_pg.measures[step], on_sqlite.measures[step]
            assert getattr(pg, kind)[0]["periods"] == getattr(lite, kind)[0]["periods"]
            assert getattr(pg, kind)[0]["games"] == getattr(lite, kind)[0]["games"]


@SMOKE_RUN
def test_the_report_names_the_backend(runs: Any, bench_run: ModuleType) -> None:
    (_, sqlite_text), (_, pg_text), _, _ = runs
    assert "PostgreSQL" not in sqlite_text
    assert "--db-url postgresql+psycopg://" in pg_text
    assert "Backend: PostgreSQL " in pg_text
    assert "(`SHOW fsync`: " in pg_text
    assert "the server's memory is not counted" in pg_text
    assert "### 60 players, 600 games, 3 periods (PostgreSQL)" in pg_text
    for title in bench_run.STEP_TITLES.values():
        assert f"| {title} |" in pg_text


@SMOKE_RUN
def test_the_work_databases_are_dropped(runs: Any) -> None:
    _, _, before, after = runs
    assert after == before


def test_settle_analyzes_like_autovacuum(bench_run: ModuleType) -> None:
    """Steps 3 and 4 start from a settled database: analyzed, as autovacuum leaves a live
    one (a TEMPLATE copy never is). Before, the table had no statistics at all."""
    import psycopg

    dbs = bench_run.PgDatabases(PG_URL)
    try:
        url = dbs.create("settle")
        conninfo = sa.engine.make_url(url).set(drivername="postgresql")
        with psycopg.connect(conninfo.render_as_string(hide_password=False)) as conn:
            conn.execute("CREATE TABLE t (x integer)")
            conn.execute("INSERT INTO t SELECT generate_series(1, 5000)")
        reltuples = "SELECT reltuples FROM pg_class WHERE relname = 't'"
        assert dbs.query("settle", reltuples) == [(-1.0,)]
        dbs.settle("settle")
        assert dbs.query("settle", reltuples) == [(5000.0,)]
    finally:
        dbs.close()
    assert not [name for name in _bench_databases() if name.startswith(dbs.prefix)]


def test_the_floors_key_checks_read_the_periods_by_index(
    bench_run: ModuleType, tmp_path: Any
) -> None:
    """The floor writes as ours does (tests/rating/test_rate_carried_rows.py): with
    ``rating_periods`` analyzed, the foreign-key check of every row written reads
    ``pk_rating_periods``. Before, the floor paid a scan of the periods for each row once
    autovacuum had analyzed them (bench/RESULTS.md), so it was no floor. Seen in
    ``auto_explain``'s plans of the nested statements, sent to this connection as notices."""
    import datetime as dt

    floor_pg = importlib.import_module("floor_pg")  # bench/ is on the path once run.py is loaded
    import psycopg

    files = bench_module("generate.py", "bench_generate_pg").generate(
        40, 300, 3, 1, tmp_path, dt.date(2015, 1, 1)
    )
    dbs = bench_run.PgDatabases(PG_URL)
    try:
        url = dbs.create("keys")
        bench_run.register_players(url, files.players_csv, closing_days=0)
        bench_run._spawn("floor", "import", url, str(files.games_csv))
        bench_run._spawn("floor", "rate", url, "")
        dbs.settle("keys")
        with psycopg.connect(floor_pg.conninfo(url)) as conn:
            plans = nested_plans(conn)
            info = floor_pg.rate_from(conn, dt.date(2015, 2, 1))  # a re-rate of two periods
            conn.rollback()
        checks = [plan for plan in plans if '"rating_periods" x' in plan]
        assert info["periods"] == 2
        assert len(checks) == info["history_rows"] + info["breakdown_rows"]
        assert all("Index Scan using pk_rating_periods" in plan for plan in checks)
    finally:
        dbs.close()
