"""The reading commands and the README cookbook use indexes: every query
that ``list``, ``history``, ``card`` and ``player show`` send, and each cookbook query that
picks rows by name or period, is planned without reading a whole large table. Checked with
``EXPLAIN QUERY PLAN`` on SQLite and ``EXPLAIN (FORMAT JSON)`` on PostgreSQL, where
sequential scans, merge and hash joins are turned off so that the planner takes an index
whenever one can serve (on a small table it would otherwise rightly prefer reading it whole).

A test database is small, so this checks the plans, not the times; the times at world size
are the benchmark's (bench/RESULTS.md)."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.db import database_url
from ratings.service.rating.rate import first_event, first_events
from tests.conftest import BOTH_BACKENDS, new_database
from tests.rating.test_audit import cookbook_examples
from tests.safety_helpers import bench_generate
from tests.support import ok

LARGE = frozenset(
    {"players", "events", "games", "byes", "rating_history", "rating_breakdown", "corrections"}
)
"""Tables that grow with the games or the players: never read whole by a reading command."""

Statement = tuple[str, Any]
ALIAS = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)\s+(?:AS\s+)?(?!ON\b|WHERE\b|JOIN\b)(\w+)", re.I)
"""``FROM table alias`` / ``JOIN table AS alias``: the aliases SQLite's plans name."""
READS_ALL_INPUT = frozenset(
    {"Sort", "Incremental Sort", "Aggregate", "Hash", "Materialize", "Unique", "WindowAgg",
     "SetOp", "Append", "Merge Append"}
)  # fmt: skip
"""PostgreSQL plan nodes that read all their input before a LIMIT above them can stop it."""


@pytest.fixture(scope="module", params=BOTH_BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A rated pool on all three lists: 150 players, 1,500 games, 5 months."""
    out = tmp_path_factory.mktemp("plans")
    files = bench_generate().generate(150, 1500, 5, 4, out, dt.date(2025, 1, 1), mixed_lists=True)
    db = str(out / "plans.db") if request.param == "sqlite" else new_database()
    ok(db, "init")
    ok(db, "import", "players", str(files.players_csv))
    ok(db, "import", "games", str(files.games_csv))
    ok(db, "rate")
    return db


def _sent(db: str, *args: str) -> list[Statement]:
    """The queries a command sends (the schema-version check left out): through SQLAlchemy,
    and through the standard library's sqlite3 (``ratings list`` reads a SQLite file so,
    ratings.rating_lists), those with their values written in."""
    sent: list[Statement] = []

    def grab(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            sent.append((statement, parameters))

    connect = sqlite3.connect

    def traced(*a: Any, **k: Any) -> sqlite3.Connection:
        conn: sqlite3.Connection = connect(*a, **k)
        conn.set_trace_callback(lambda statement: grab(None, None, statement, ()))
        return conn

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", grab)
    sqlite3.connect = traced  # type: ignore[assignment]
    try:
        ok(db, *args)
    finally:
        sqlite3.connect = connect
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", grab)
    return [s for s in sent if "alembic_version" not in s[0]]


@pytest.fixture(scope="module")
def explain(database: str) -> Iterator[Any]:
    """A function: statement, parameters -> the names of the large tables the plan reads
    whole (a full scan, or a scan of a whole index)."""
    if not database.startswith("postgresql"):
        conn = sqlite3.connect(database)
        views = " ".join(
            sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'view'")
        )

        def sqlite_scans(statement: str, parameters: Any = ()) -> set[str]:
            plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + statement, parameters)]
            # SQLite names a table by its alias in the query or in a view: map them back
            aliases: dict[str, set[str]] = {}
            for table, alias in ALIAS.findall(statement + " " + views):
                aliases.setdefault(alias, set()).add(table)
            in_order = not any("TEMP B-TREE FOR ORDER BY" in d for d in plan)
            limited = re.search(r"\bLIMIT \d+\s*$", statement) is not None
            tables: set[str] = set()
            for detail in plan:
                found = re.match(r"SCAN (\w+)", detail)
                if not found or (in_order and limited and " USING " not in detail):
                    continue  # a scan in the table's own order that stops at the LIMIT
                name = found.group(1)
                tables |= aliases.get(name, {name})
            return tables

        yield sqlite_scans
        conn.close()
        return
    engine = sa.create_engine(database)
    with engine.connect() as pg:
        pg.exec_driver_sql("ANALYZE")  # the sizes the planner weighs, as autovacuum would
        # a small test database makes whole reads cheap: take them off the table, so that
        # each table is reached through an index where one can serve (as at world size)
        for kind in ("seqscan", "mergejoin", "hashjoin"):
            pg.exec_driver_sql(f"SET enable_{kind} = off")
        raw = pg.connection.dbapi_connection
        assert raw is not None

        def postgres_scans(statement: str, parameters: Any = None) -> set[str]:
            with contextlib.closing(raw.cursor()) as cursor:
                cursor.execute("EXPLAIN (FORMAT JSON) " + statement, parameters)
                row = cursor.fetchone()
            assert row is not None
            (plan,) = row
            tables: set[str] = set()
            root = (plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"]
            stack = [(root, False)]
            while stack:
                node, limited = stack.pop()
                kind = node["Node Type"]
                whole_index = kind in ("Index Scan", "Index Only Scan") and not (
                    "Index Cond" in node or limited
                )  # a whole index read, unless in order up to a LIMIT
                if kind == "Seq Scan" or whole_index:
                    tables.add(node["Relation Name"])
                limited = kind == "Limit" or (limited and kind not in READS_ALL_INPUT)
                stack.extend((child, limited) for child in node.get("Plans", ()))
            return tables

        yield postgres_scans
    engine.dispose()


def _name(database: str) -> str:
    rows = sa.create_engine(database if "://" in database else database_url(database))
    with rows.connect() as conn:
        name: str = conn.exec_driver_sql(
            "SELECT p.name FROM players p JOIN rating_history h ON h.player_id = p.id "
            "WHERE h.period_games > 0 ORDER BY p.id LIMIT 1"
        ).scalar_one()
    rows.dispose()
    return name


EVERY_PLAYER = frozenset({"players"})
"""``list`` shows every player on the list: reading the register whole is its job (the list
rows themselves are found by period and list through the index)."""


@pytest.mark.parametrize(
    ("command", "whole"),
    [
        (("list",), EVERY_PLAYER),
        (("list", "--list", "rapid"), EVERY_PLAYER),
        (("history", "{name}"), frozenset()),
        (("history", "{name}", "--list", "blitz"), frozenset()),
        (("card", "{name}"), frozenset()),
        (("card", "{name}", "--list", "rapid"), frozenset()),
        (("player", "show", "{name}"), frozenset()),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, tuple) else "",
)
def test_reading_commands_use_indexes(
    database: str, explain: Any, command: tuple[str, ...], whole: frozenset[str]
) -> None:
    name = _name(database)
    sent = _sent(database, *(part.format(name=name) for part in command))
    assert sent, "the command sent no query"
    for statement, parameters in sent:
        assert not explain(statement, parameters) & (LARGE - whole), statement


WHOLE_BY_NATURE = {
    "FROM current_ratings": "ranks every player on the current list",
    "GROUP BY b.period_id,": "recomputes every published change from every breakdown row",
}
"""Cookbook queries that read a whole table by what they ask (checked in the benchmark)."""


def test_cookbook_queries_that_pick_rows_use_indexes(database: str, explain: Any) -> None:
    name = _name(database)
    checked = 0
    for query, _options, _shown in cookbook_examples():
        if any(marker in query for marker in WHOLE_BY_NATURE):
            continue
        sql = query.replace("'Elard, Carl'", "'" + name.replace("'", "''") + "'")
        sql = re.sub(r"'2025-\d\d'", "'2025-03'", sql)
        assert not explain(sql) & LARGE, sql
        checked += 1
    # a player's lists, a period's gains, a card, one period's check, the corrections
    assert checked >= 5


def test_a_players_first_event_is_found_through_the_player_indexes(
    database: str, explain: Any
) -> None:
    """``rate`` and ``card`` look up a player's first event (art. 8.2) through the white and
    black indexes, and never walk the events in date order: PostgreSQL did that for an
    ``ORDER BY start_date LIMIT 1``, 18 ms a player at 1,000,000 games (bench/RESULTS.md)."""
    url = database if "://" in database else database_url(database)
    engine = sa.create_engine(url)
    sent: list[Statement] = []

    def grab(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        sent.append((statement, parameters))

    with Session(engine) as session:
        player_id = session.execute(
            sa.text("SELECT min(white_id) FROM games WHERE rateable")
        ).scalar_one()
        sa.event.listen(engine, "before_cursor_execute", grab)
        try:
            first = first_event(session, player_id)
        finally:
            sa.event.remove(engine, "before_cursor_execute", grab)
        earliest = session.execute(
            sa.text(
                "SELECT e.id FROM games g JOIN events e ON e.id = g.event_id "
                "WHERE (g.white_id = :p OR g.black_id = :p) AND g.rateable "
                "AND e.time_control = 'standard' ORDER BY e.start_date, e.id LIMIT 1"
            ),
            {"p": player_id},
        ).scalar_one()
    engine.dispose()
    assert first == earliest
    (statement, parameters), *more = [s for s in sent if "events" in s[0]]
    assert not more
    assert "LIMIT" not in statement.upper()
    assert not explain(statement, parameters) & LARGE, statement


@pytest.mark.parametrize("time_control", ["standard", "rapid"])
def test_first_events_are_looked_up_500_players_a_query(database: str, time_control: str) -> None:
    """``rate`` looks up the first events of a period's unrated players together, 500 a
    query (one query a player cost 102 s of a 727 s rate on the world's register on
    PostgreSQL): the same answers as one player at a time, None for a player without a
    rateable game on that list or not registered at all."""
    url = database if "://" in database else database_url(database)
    engine = sa.create_engine(url)
    ids = range(1, 1201)  # 150 players, and ids nobody has: three chunks
    with Session(engine) as session:
        expected = {
            pid: session.execute(
                sa.text(
                    "SELECT e.id FROM games g JOIN events e ON e.id = g.event_id "
                    "WHERE (g.white_id = :p OR g.black_id = :p) AND g.rateable "
                    "AND e.time_control = :tc ORDER BY e.start_date, e.id LIMIT 1"
                ),
                {"p": pid, "tc": time_control},
            ).scalar()
            for pid in ids
        }
        sent: list[str] = []

        def grab(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            sent.append(statement)

        sa.event.listen(engine, "before_cursor_execute", grab)
        try:
            found = first_events(session, reversed(ids), time_control)
        finally:
            sa.event.remove(engine, "before_cursor_execute", grab)
    engine.dispose()
    assert found == expected
    assert sum(v is not None for v in found.values()) > 100
    assert len([s for s in sent if "events" in s]) == 3
