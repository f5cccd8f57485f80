"""The list rows of players without games are copied in SQL from the previous period's
(``ratings.service.rating.write.split_carried`` / ``copy_carried``, for speed): the
database must hold exactly the rows the engine computed, as when every row is inserted one
by one. Checked on a synthetic pool with all three lists, from scratch and in a re-rate."""

from __future__ import annotations

import datetime as dt
import importlib
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import migrate, service
from ratings.db import SessionFactory, database_url, make_engine
from ratings.io.csv import read_games_csv, read_players_csv
from ratings.models import Game
from ratings.rules import ListEntry, system_config
from ratings.service.rating import state as rate_state
from ratings.service.rating import write as rate_write
from tests.conftest import PG_URL, nested_plans, new_database
from tests.safety_helpers import bench_generate

HISTORY = (
    "SELECT p.label, h.time_control, h.player_id, h.rating_before, h.rating_after, h.change, "
    "h.k_used, h.period_games, h.total_games, h.score_half_points, h.pd_sum_units, "
    "h.units_per_point, h.k10, h.reached_2300, h.next_k, h.list_status, h.inactive, "
    "h.last_active FROM rating_history h JOIN rating_periods p ON p.id = h.period_id "
    "ORDER BY p.label, h.time_control, h.player_id"
)


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    out = tmp_path_factory.mktemp("carried")
    files = bench_generate().generate(160, 1500, 8, 3, out, dt.date(2024, 1, 1), mixed_lists=True)
    return files.players_csv.read_bytes(), files.games_csv.read_bytes()


@pytest.fixture
def open_session(tmp_path: Path, _template_db: Path) -> Iterator[Session]:
    path = tmp_path / "copy.db"
    shutil.copyfile(_template_db, path)
    engine = make_engine(database_url(str(path)))
    with SessionFactory(bind=engine) as session:
        service.create_settings(session, system_config("fide"))
        yield session
    engine.dispose()


def _rated(
    session: Session,
    federation: tuple[bytes, bytes],
    before_rerate: Callable[[Session], object] | None = None,
) -> list[tuple[object, ...]]:
    players, games = federation
    service.import_players(session, read_players_csv(players, "p.csv"), "p.csv", "a" * 64)
    service.import_games(session, read_games_csv(games, "g.csv"), "g.csv", "b" * 64)
    service.rate(session)
    if before_rerate is not None:
        before_rerate(session)
    first = session.scalars(sa.select(Game).order_by(Game.played_on, Game.id)).all()
    turned = next(g for g in first if g.played_on >= dt.date(2024, 2, 1) and g.result.is_played)
    service.edit_game(session, turned.id, rated=False)
    rerated = service.rate(session)
    assert rerated.rerated  # the correction re-rated every period from February
    return [tuple(row) for row in session.execute(sa.text(HISTORY))]


def test_carried_rows_are_the_engines_rows(
    session: Session,
    open_session: Session,
    federation: tuple[bytes, bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Copying the carried rows, and reading only the players whose rows can change (the
    default), store exactly the rows of a rate that reads every player every period and
    inserts every row one by one."""
    copy = rate_write.copy_carried
    carried: list[int] = []

    def counting(
        session: Session,
        previous_id: int,
        period_id: int,
        tc_sql: str,
        expected: int,
        *,
        leave: frozenset[int] = frozenset(),
    ) -> None:
        carried.append(expected)
        copy(session, previous_id, period_id, tc_sql, expected, leave=leave)

    monkeypatch.setattr(rate_write, "copy_carried", counting)
    fast = _rated(session, federation)
    assert sum(carried) > len(fast) // 2  # most rows were copied in SQL
    monkeypatch.setattr(rate_state, "SKIP_QUIET_PLAYERS", False)
    monkeypatch.setattr(rate_write, "split_carried", lambda rows, previous: (rows, 0))
    slow = _rated(open_session, federation)
    assert {row[1] for row in slow} == {"standard", "rapid", "blitz"}
    assert fast == slow


def test_the_carry_test_reads_the_columns_it_names() -> None:
    """split_carried compares list rows by position: the positions of ListEntry's fields."""
    assert ListEntry._fields[:10] == (
        "player_id", "rating_before", "rating_after", "change", "k_used", "period_games",
        "total_games", "score_half_points", "pd_sum_units", "units_per_point",
    )  # fmt: skip
    assert set(rate_write.CARRY_SELECT) <= set(ListEntry._fields)


@pytest.mark.postgres
@pytest.mark.slow  # a federation-sized database on PostgreSQL: seconds; .ci/run has a server
@pytest.mark.skipif(not PG_URL, reason="needs RATINGS_TEST_PG_URL")
def test_postgres_plan_setting_is_put_back(
    session: Session, federation: tuple[bytes, bytes]
) -> None:
    """On PostgreSQL the copy runs without nested loops (its plan from stale statistics read
    the whole new period once per old row); the session's setting is back after the rate,
    and the rows are those of the same run on SQLite."""
    on_sqlite = _rated(session, federation)
    url = new_database()
    migrate.upgrade(url)
    engine = make_engine(url)
    with SessionFactory(bind=engine) as pg:
        service.create_settings(pg, system_config("fide"))
        on_postgres = _rated(pg, federation)
        shown = pg.connection().exec_driver_sql
        assert shown("SHOW enable_nestloop").scalar() == "on"
        assert shown("SHOW enable_seqscan").scalar() == "on"
    engine.dispose()

    def plain(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
        return [tuple(str(v) if isinstance(v, dt.date) else v for v in row) for row in rows]

    assert plain(on_postgres) == plain(on_sqlite)


@pytest.mark.postgres
@pytest.mark.slow  # a federation-sized database on PostgreSQL: seconds; .ci/run has a server
@pytest.mark.skipif(not PG_URL, reason="needs RATINGS_TEST_PG_URL")
def test_postgres_key_checks_read_the_periods_by_index(federation: tuple[bytes, bytes]) -> None:
    """Every list and breakdown row written fires a foreign-key check of its period. Once
    ``rating_periods`` has statistics (autovacuum gives them), PostgreSQL plans that check
    as a scan of every period: a quarter of a re-rate of 1M games (bench/RESULTS.md). The
    rate writes with sequential scans off, so the check reads the primary key. Seen in
    ``auto_explain``'s plans of the nested statements, sent to the client as notices."""
    import psycopg

    url = new_database()
    migrate.upgrade(url)
    engine = make_engine(url)
    watched: list[list[str]] = []

    def analyze_and_watch(pg: Session) -> None:
        pg.commit()
        conn = pg.connection()
        conn.exec_driver_sql("ANALYZE rating_periods")
        raw = conn.connection.dbapi_connection
        assert isinstance(raw, psycopg.Connection)
        watched.append(nested_plans(raw))

    with SessionFactory(bind=engine) as pg:
        service.create_settings(pg, system_config("fide"))
        _rated(pg, federation, before_rerate=analyze_and_watch)  # asserts it re-rated
        conn = pg.connection()
        conn.exec_driver_sql("SET auto_explain.log_min_duration = -1")
        checks = [plan for plan in watched[0] if '"rating_periods" x' in plan]
        assert len(checks) > 1000  # one a row written: the list and breakdown rows
        assert not [plan for plan in checks if "Seq Scan" in plan]
        assert all("Index Scan using pk_rating_periods" in plan for plan in checks)
        assert conn.exec_driver_sql("SHOW enable_seqscan").scalar() == "on"
    engine.dispose()


def test_rate_pauses_the_cycle_collector_and_restores_it() -> None:
    """service.rate runs with the cyclic collector paused (bench/RESULTS.md: 135 full passes
    over millions of tuples at 1,000,000 games) and puts it back as it was, also on error."""
    import gc

    rate_module = importlib.import_module("ratings.service.rating.rate")
    seen: list[bool] = []

    def fake(*_args: object, **_kwargs: object) -> None:
        seen.append(gc.isenabled())
        raise RuntimeError("stop")

    wrapped = rate_module.without_cycle_collection(fake)
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        with pytest.raises(RuntimeError, match="stop"):
            wrapped()
        assert gc.isenabled() is enabled
    gc.enable()
    assert seen == [False, False]
    assert hasattr(rate_module.rate, "__wrapped__")  # rate itself runs so
