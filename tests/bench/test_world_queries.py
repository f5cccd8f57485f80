"""bench/world_queries.py at a tiny size (the benchmark's smoke run): every reading command
and every README cookbook query timed, in this process and in a fresh ``python -m ratings``;
SQLite always, PostgreSQL (built by bench/world.py's ``--db-url``) when RATINGS_TEST_PG_URL is
set."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from types import ModuleType

import pytest
import sqlalchemy as sa

from tests.conftest import BOTH_BACKENDS, PG_URL
from tests.rating.test_audit import cookbook_examples
from tests.safety_helpers import bench_generate, bench_module, bench_on_path
from tests.support import ok

pytestmark = pytest.mark.slow  # a benchmark's smoke run: .ci/run runs it, not the test loop


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """bench/world_queries.py loaded as a module."""
    return bench_module("world_queries.py", "bench_world_queries")


@pytest.fixture(scope="module", params=BOTH_BACKENDS)
def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A rated pool of 150 players and 3 months. On PostgreSQL bench/world.py builds it (2
    months of 400 games, then one more month) with ``--db-url``, the databases kept for the
    test; on SQLite (tests/bench/test_world.py runs world.py there) the CLI, in this process,
    from the same generator: faster."""
    work = tmp_path_factory.mktemp("world-queries")
    if request.param == "sqlite":
        files = bench_generate().generate(150, 1200, 3, 5, work, dt.date(2015, 1, 1))
        db = str(work / "pool.db")
        for args in (
            ["init", "--closing-days", "0"],
            ["import", "players", str(files.players_csv)],
            ["import", "games", str(files.games_csv)],
            ["rate"],
        ):
            ok(db, *args)
        yield db
        return
    assert PG_URL is not None
    with bench_on_path():
        world = bench_module("world.py", "bench_world_for_queries")
        figures = world.measure(150, 2, 400, 5, 1, work, True, PG_URL, keep_databases=True)
    assert figures["month_rows"]["players"] == 150
    world_db, month_db = figures["kept"]
    assert world_db.endswith("_world")
    assert month_db.endswith("_month")
    yield month_db
    admin = sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for kept in figures["kept"]:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {sa.engine.make_url(kept).database}")
    admin.dispose()


def test_every_command_and_cookbook_query_is_timed(bench: ModuleType, database: str) -> None:
    picked, timings = bench.measure(database, 2, fresh=False, quiet=True)
    assert picked.period == "2015-03"
    assert picked.active.active_periods == 3
    assert picked.idle.active_periods == 0
    assert picked.active.ref == picked.active.name  # names are unique: given as typed
    labels = [t.command.label for t in timings]
    assert labels[:9] == [
        "start-up only: `--version`",
        "list",
        "list's rows, plain driver (its floor)",
        "history (most active)",
        "history (never active)",
        "card (most active)",
        "card (never active)",
        "player show (most active)",
        "player show (never active)",
    ]
    sql = [t for t in timings if t.command.label.startswith("sql ")]
    assert len(sql) == len(cookbook_examples()) == 9
    for t in sql:  # the cookbook's player and period replaced by the picked ones
        query = t.command.args[1]
        assert "Elard, Carl" not in query
        assert not re.search(r"'2025-\d\d'", query)
    card = next(t for t in sql if "FROM rating_calculations" in t.command.args[1])
    assert f"'{picked.active.name}'" in card.command.args[1]
    assert "'2015-03'" in card.command.args[1]
    for t in timings:
        assert len(t.inside) == 2
        assert t.fresh == []
        assert t.first > 0
        assert t.lines > 0
    listed, floor = timings[1:3]
    assert listed.lines > 50  # the whole list, one line a player
    assert floor.lines == listed.lines - 2  # the same rows, without the title and the header
    text = bench.report(database, picked, timings, ["pool.db"], 1.0)
    assert "| command | as the user sees it: `python -m ratings` | in process (CliRunner) " in text
    assert re.search(r"^\| list \| - \| \d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\) \| ", text, re.M)
    floor_row = r"^\| list's rows, plain driver \(its floor\) \| - \| \d+\.\d\d \("
    assert re.search(floor_row, text, re.M)


def test_the_command_line_times_a_fresh_process(
    bench: ModuleType, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--db-url", database] if "://" in database else [database]
    assert bench.main([*where, "--repeats", "1", "--only", "player show (never", "--quiet"]) == 0
    text = capsys.readouterr().out
    rows = [line for line in text.splitlines() if line.startswith("| player show")]
    assert len(rows) == 1
    for row in rows:  # one run each way: single figures
        assert re.fullmatch(
            r"\| player show \([a-z ]+\) \| (\*\*)?\d+\.\d\d(\*\*)? \| \d+\.\d\d \| .*", row
        )
    if "://" in database:
        assert "Database: PostgreSQL " in text
        assert "Run: `python bench/world_queries.py --db-url postgresql" in text
    else:
        assert "Database: SQLite " in text
