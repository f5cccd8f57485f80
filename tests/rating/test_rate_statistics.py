"""PostgreSQL plans from statistics that autovacuum gathers only some time after a commit
(a world-sized rate from scratch). A rate analyzes the tables a large import left
without statistics before it starts, and reads the players of a period in plans that do not
depend on statistics of the lists it writes: a join, 500 players a query, hashed a whole
600,000-row list for every 500 players, 408 s of a 727 s rate (bench/RESULTS.md). Checked
here: the rule, what a rate after an import analyzes, that a month on analyzed tables
analyzes nothing, that SQLite is left alone, and that a period's players are read in one
query a table on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from ratings import migrate, service
from ratings.db import SessionFactory, database_url, make_engine
from ratings.io.csv import read_games_csv, read_players_csv
from ratings.rules import Period, system_config
from ratings.service.rating import games as rate_games
from ratings.service.rating import state as rate_state
from ratings.service.rating import supersede as rate_superseded
from ratings.service.rating.rate import stale_statistics
from ratings.service.shared import sql as common
from tests.conftest import BOTH_BACKENDS, new_database
from tests.safety_helpers import bench_generate

START = dt.date(2024, 1, 1)
MONTHS = 6
PLAYERS = 120


@pytest.mark.parametrize(
    ("reltuples", "has_rows", "changed", "stale"),
    [
        (-1, True, 0, True),  # never analyzed, rows written since
        (-1, False, 0, False),  # never analyzed, still empty: nothing to learn
        (0, False, 0, False),
        (0, True, 1, True),  # analyzed empty, then written
        (1000, True, 500, False),  # half: still good enough
        (1000, True, 501, True),
        (8_400_000, True, 600_000, False),  # the world's month on ten periods
    ],
)
def test_the_rule(reltuples: float, has_rows: bool, changed: int, stale: bool) -> None:
    assert stale_statistics(reltuples, has_rows, changed) is stale


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes, bytes]:
    """Players, six months of games, and a seventh month of games."""
    out = tmp_path_factory.mktemp("statistics")
    history = bench_generate().generate(PLAYERS, 1200, MONTHS, 3, out / "history", START)
    month = bench_generate().generate(
        PLAYERS, 200, 1, 3, out / "month", Period(START).next().next().next().next().next()
        .next().start,
    )  # fmt: skip
    return (
        history.players_csv.read_bytes(),
        history.games_csv.read_bytes(),
        month.games_csv.read_bytes(),
    )


@pytest.fixture(params=BOTH_BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path, _template_db: Path) -> Iterator[str]:
    """A new, migrated database of one backend."""
    if request.param == "sqlite":
        path = tmp_path / "statistics.db"
        shutil.copyfile(_template_db, path)
        yield database_url(str(path))
        return
    found = new_database()
    migrate.upgrade(found)
    yield found


def _analyzed(statements: list[str]) -> list[str]:
    return [s.split()[1] for s in statements if s.startswith("ANALYZE")]


def _recording(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements sent, in order: SQLAlchemy's, and the bulk reads' (``fetch_all``)."""
    sent: list[str] = []

    def grab(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement.strip())

    def fetch_all(session: Any, sql: str, params: Any = ()) -> list[Any]:
        sent.append(sql.strip())
        return common.fetch_all(session, sql, params)

    sa.event.listen(engine, "before_cursor_execute", grab)
    for module in (rate_state, rate_games, rate_superseded):  # the modules of a rate that use it
        monkeypatch.setattr(module, "fetch_all", fetch_all)
    return sent


def test_a_rate_after_an_import_analyzes_what_the_import_filled(
    url: str, federation: tuple[bytes, bytes, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    players, games, _month = federation
    # short id lists: a period's players would take several queries if PostgreSQL listed
    # them as SQLite does (the federation is far smaller than the 500 of a real list)
    monkeypatch.setattr(rate_state, "ID_LIST_SIZE", 10)
    engine = make_engine(url)
    sent = _recording(engine, monkeypatch)
    postgres = engine.dialect.name == "postgresql"
    with SessionFactory(bind=engine) as session:
        service.create_settings(session, system_config("fide", closing_days=0))
        service.import_players(session, read_players_csv(players, "p.csv"), "p.csv", "a" * 64)
        service.import_games(session, read_games_csv(games, "g.csv"), "g.csv", "b" * 64)
        sent.clear()
        report = service.rate(session)
        assert len(report.rated) == MONTHS
        analyzed = _analyzed(sent)
        if not postgres:
            assert analyzed == []  # SQLite plans from its indexes
            return
        # before the first period: the tables the import filled, never analyzed; the lists
        # were still empty
        assert sorted(analyzed) == ["events", "games", "players"]
        first_read = next(i for i, s in enumerate(sent) if s.startswith("SELECT id, entry"))
        last_analyze = max(i for i, s in enumerate(sent) if s.startswith("ANALYZE"))
        assert last_analyze < first_read  # before the register is read
        # a period after the first reads its new players' previous rows in one query
        reads = [s for s in sent if s.startswith("SELECT player_id, rating_before")]
        previous = [s.split("period_id = ")[1].split()[0] for s in reads]
        assert reads
        assert len(set(previous)) == len(previous)
    engine.dispose()


def test_a_month_on_analyzed_tables_analyzes_nothing(
    url: str, federation: tuple[bytes, bytes, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    players, games, month = federation
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session, session.begin():
        service.create_settings(session, system_config("fide", closing_days=0))
        service.import_players(session, read_players_csv(players, "p.csv"), "p.csv", "a" * 64)
        service.import_games(session, read_games_csv(games, "g.csv"), "g.csv", "b" * 64)
        service.rate(session)
    if engine.dialect.name == "postgresql":
        engine.dispose()
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            # the server counts a commit's writes when the writer reports them (within a
            # second or so): an ANALYZE before that would be followed by them, as if new
            unreported = (
                "SELECT min(pg_stat_get_mod_since_analyze(to_regclass(t))) = 0 FROM unnest("
                "ARRAY['players', 'events', 'games', 'rating_history', 'rating_breakdown']) t"
            )
            deadline = time.monotonic() + 30
            while conn.exec_driver_sql(unreported).scalar_one() and time.monotonic() < deadline:
                time.sleep(0.2)
            conn.exec_driver_sql("ANALYZE")  # as autovacuum would have, by next month
    sent = _recording(engine, monkeypatch)
    with SessionFactory(bind=engine) as session, session.begin():
        service.import_games(session, read_games_csv(month, "m.csv"), "m.csv", "c" * 64)
        report = service.rate(session)
    assert len(report.rated) == 1
    assert _analyzed(sent) == []
    engine.dispose()
