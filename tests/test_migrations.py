"""Migrations: up to head, down to base and up again, models match the migrations."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import sqlite3
import unicodedata
from fractions import Fraction
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

from ratings import migrate, service
from ratings import models as service_models
from ratings import views as ratings_views
from ratings.cli import cli
from ratings.db import SessionFactory, database_url, make_engine
from ratings.errors import DatabaseError
from ratings.service.rating import marks as service_common
from tests import rating_reference as ref
from tests.conftest import PG_URL, new_database, table_rows
from tests.support import ok

__all__ = [
    "test_model_definitions_match_ddl",
    "test_single_head_revision",
    "test_up_down_consistency",
    "test_upgrade",
]

BACKENDS = ["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.slow])]
"""Every migration test that can runs on PostgreSQL too (with RATINGS_TEST_PG_URL), in the
slow pass: the loop walks each revision on SQLite, and tests/test_postgres.py checks the
PostgreSQL schema (its DDL against the models, every revision up and down) in the loop."""

TABLES = {
    "alembic_version",
    "byes",
    "corrections",
    "events",
    "games",
    "imports",
    "list_seals",
    "merge_moves",
    "player_aliases",
    "players",
    "rating_breakdown",
    "rating_history",
    "rating_periods",
    "settings",
    "superseded_ratings",
}


def _tables(path: Path) -> set[str]:
    engine = make_engine(database_url(str(path)))
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_down_to_base_and_up_again(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    url = database_url(str(path))
    migrate.upgrade(url)
    assert _tables(path) == TABLES
    migrate.downgrade(url, "base")
    assert _tables(path) == {"alembic_version"}
    migrate.upgrade(url)
    assert _tables(path) == TABLES
    engine = make_engine(url)
    assert migrate.current_revision(engine) == migrate.head_revision()
    views = set(sa.inspect(engine).get_view_names())
    engine.dispose()
    assert views == set(ratings_views.view_names())


def test_the_migrations_make_ratings_own_triggers_and_views(tmp_path: Path) -> None:
    """``ratings.schema_objects`` (what ``check`` holds a database against, and what a
    rebuild creates) is what the migrations make, up from nothing and after a walk down
    below the revisions that made the triggers (0009 and 0017) and up again: a revision
    that adds a trigger or a view adds it there too."""
    from ratings.schema_objects import foreign_sqlite_objects

    path = tmp_path / "r.db"
    url = database_url(str(path))

    def objects() -> list[tuple[str, str, str | None]]:
        conn = sqlite3.connect(path)
        try:
            return conn.execute(
                "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view')"
            ).fetchall()
        finally:
            conn.close()

    migrate.upgrade(url)
    assert len(objects()) == 7
    assert foreign_sqlite_objects(objects()) == []
    migrate.downgrade(url, "0008")
    migrate.upgrade(url)
    assert foreign_sqlite_objects(objects()) == []


def test_head_revision_is_alembics_head() -> None:
    """Commands check the schema version against migrate.HEAD_REVISION without importing
    Alembic: it must be the head Alembic finds in migrations/versions."""
    from alembic.script import ScriptDirectory

    heads = ScriptDirectory.from_config(migrate.alembic_config()).get_heads()
    assert heads == [migrate.HEAD_REVISION]
    assert migrate.known_revisions()[0] == migrate.head_revision() == migrate.HEAD_REVISION


def test_commands_start_without_alembic_and_the_site_builder() -> None:
    """A fresh command imports neither Alembic nor the website's Jinja2 and vl-convert
    (together about half a second of every command's start, bench/RESULTS.md)."""
    import subprocess
    import sys

    probe = (
        "import sys, ratings.cli; "
        "print(sorted(m for m in ('alembic', 'jinja2', 'vl_convert', 'ratings.site') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_check_reports_no_drift(db_path: Path) -> None:
    migrate.check(database_url(str(db_path)))


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_every_view_has_its_columns(tmp_path: Path, backend: str) -> None:
    """Each view at head gives the columns ratings.views declares, in order, and reads."""
    url = _database(tmp_path, backend)
    migrate.upgrade(url)
    engine = make_engine(url)
    try:
        inspector = sa.inspect(engine)
        assert set(inspector.get_view_names()) == set(ratings_views.view_names())
        for view in ratings_views.VIEWS:
            assert tuple(c["name"] for c in inspector.get_columns(view.name)) == view.columns
            with engine.connect() as conn:
                result = conn.exec_driver_sql(f"SELECT * FROM {view.name}")
                assert tuple(result.keys()) == view.columns
    finally:
        engine.dispose()


RELEASED_VIEWS = {
    "CURRENT_RATINGS_0001": "d905eaff907b2b16",
    "CURRENT_RATINGS_0002": "aa890f4e550ac605",
    "CURRENT_RATINGS_0004": "67b25f3ca1a830cc",
    "CURRENT_RATINGS_0006": "925b08356ad0068c",
    "CURRENT_RATINGS_0007": "eaea260b13e9a1fd",
    "RATING_CALCULATIONS_0002": "37ccb52128a0ccb0",
    "RATING_CALCULATIONS_0006": "cbd5de5bf5ae2c30",
    "RATING_LISTS_0001": "9ce595d9d96189c8",
    "RATING_LISTS_0002": "639ec435c76eecb5",
    "RATING_LISTS_0004": "aa33f67b8fd2eaeb",
    "RATING_LISTS_0006": "c49185f9af0839e6",
}
"""The first 16 hex digits of the SHA-256 of each released version's ``CREATE VIEW`` text,
as its migration created it."""


def test_released_view_versions_keep_their_text() -> None:
    """The versions are built from shared pieces (ratings/views.py), and a migration creates
    the version of its revision: an edit to a piece must not change a released version's
    text (a new version writes a new piece). A new version adds its digest here."""
    versions = {
        name: value
        for name, value in vars(ratings_views).items()
        if isinstance(value, ratings_views.View)
    }
    assert sorted(versions) == sorted(RELEASED_VIEWS)
    for name, view in versions.items():
        digest = hashlib.sha256(view.create_sql().encode()).hexdigest()[:16]
        assert digest == RELEASED_VIEWS[name], name


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("DROP VIEW rating_calculations", "('create_view', 'rating_calculations')"),
        (
            "DROP VIEW current_ratings; CREATE VIEW current_ratings AS SELECT id AS player_id "
            "FROM players",
            "('drop_view', 'current_ratings'), ('create_view', 'current_ratings')",
        ),
        ("CREATE VIEW stray AS SELECT 1 AS one", "('drop_view', 'stray')"),
    ],
)
def test_check_reports_a_view_that_drifted(db_path: Path, change: str, message: str) -> None:
    """``alembic check`` (``ratings db check``) sees the views as it sees the tables."""
    with sqlite3.connect(db_path) as conn:
        conn.executescript(change)
    with pytest.raises(DatabaseError, match=re.escape(message)):
        migrate.check(database_url(str(db_path)))


def test_unknown_revision_is_refused(db_path: Path) -> None:
    with pytest.raises(DatabaseError, match="unknown revision 'nope'"):
        migrate.downgrade(database_url(str(db_path)), "nope")


def test_failed_migration_leaves_the_file_unchanged(tmp_path: Path) -> None:
    """Transactional DDL: a migration that fails half-way leaves nothing behind."""
    path = tmp_path / "r.db"
    engine = make_engine(database_url(str(path)))
    with engine.begin() as conn:
        # a table the initial revision wants to create: the upgrade fails part-way
        conn.exec_driver_sql("CREATE TABLE rating_periods (x INTEGER)")
    engine.dispose()
    with pytest.raises(sa.exc.OperationalError):
        migrate.upgrade(database_url(str(path)))
    assert _tables(path) == {"rating_periods"}


# --- 0002: exact audit columns and clear names, on databases made at revision 0001 ---------

Fixture = dict[str, dict[str, list[Any]]]
"""A table name -> {"columns": [...], "rows": [[...], ...]} dump (tests/data/rev0001)."""
REV0001 = Path(__file__).parent / "data" / "rev0001"
"""Databases made and rated by ratings at revision 0001 (``make.py`` there says how)."""
POPULATED = [
    # the demo in the test loop; the other databases' walks only in .ci/run's slow pass
    name if name == "demo" else pytest.param(name, marks=pytest.mark.slow)
    for name in sorted(p.stem for p in REV0001.glob("*.json"))
]
"""The rev0001 databases each data migration's test walks up and down."""
OLD_STATUS = {"rated": "listed", "new": "first_rating"}


def _fixture(name: str) -> Fixture:
    data: Fixture = json.loads((REV0001 / f"{name}.json").read_text())
    return data


def _database(tmp_path: Path, backend: str) -> str:
    if backend == "sqlite":
        return database_url(str(tmp_path / "r.db"))
    if PG_URL is None:
        pytest.skip("needs RATINGS_TEST_PG_URL")
    return new_database()


def _load(url: str, data: Fixture) -> None:
    """Insert the fixture's rows as they were (ids included) into a database at 0001."""
    engine = make_engine(url, enforce_foreign_keys=False)
    try:
        metadata = sa.MetaData()
        metadata.reflect(engine)
        with engine.begin() as conn:
            for name, table in data.items():
                columns, names = metadata.tables[name].c, table["columns"]
                rows = [
                    {c: _python(columns[c].type, v) for c, v in zip(names, row, strict=True)}
                    for row in table["rows"]
                ]
                if rows:
                    conn.execute(metadata.tables[name].insert(), rows)
                if conn.dialect.name == "postgresql" and rows:
                    conn.exec_driver_sql(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                        f"(SELECT max(id) FROM {name}))"
                    )
    finally:
        engine.dispose()


def _python(kind: sa.types.TypeEngine[Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(kind, sa.DateTime):
        return dt.datetime.fromisoformat(value)
    if isinstance(kind, sa.Date):
        return dt.date.fromisoformat(value)
    if isinstance(kind, sa.Boolean):
        return bool(value)
    return value


def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    """Rows as SQLite holds them (dates and timestamps as text, booleans 0/1)."""
    if url.startswith("sqlite"):
        return table_rows(Path(url.removeprefix("sqlite:///")), sql)
    return [
        tuple(v.strftime("%Y-%m-%d %H:%M:%S.%f") if isinstance(v, dt.datetime) else v for v in row)
        for row in table_rows(url, sql)
    ]


def _contents(url: str, data: Fixture) -> dict[str, list[tuple[object, ...]]]:
    """Every table of the fixture as stored now, columns in the fixture's order."""
    return {
        name: _rows(url, f"SELECT {', '.join(table['columns'])} FROM {name} ORDER BY id")
        for name, table in data.items()
    }


def _as_stored(data: Fixture) -> dict[str, list[tuple[object, ...]]]:
    return {name: [tuple(r) for r in table["rows"]] for name, table in data.items()}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", POPULATED)
def test_0002_carries_every_list_and_back(tmp_path: Path, name: str, backend: str) -> None:
    """Upgrade a populated 0001 database: every list, every breakdown line and every other
    row is carried (renamed, in exact units); downgrade: every table is as it was."""
    data = _fixture(name)
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0001")
    _load(url, data)
    assert _contents(url, data) == _as_stored(data)
    old_lists = _rows(url, "SELECT * FROM rating_lists ORDER BY period, player_id")
    old_current = _rows(url, "SELECT * FROM current_ratings ORDER BY player_id")

    migrate.upgrade(url, "0002")
    unit = 10**9 if data["settings"]["rows"][0][4] == "curve" else 100
    lists = _rows(
        url,
        "SELECT period, list_date, player_id, name, fide_id, federation, rating_before, rating, "
        "change, period_games, total_games, k_used, next_k, k10, list_status FROM rating_lists "
        "ORDER BY period, player_id",
    )
    assert lists == [(*r[:14], OLD_STATUS.get(str(r[14]), r[14])) for r in old_lists]
    assert _rows(url, "SELECT * FROM current_ratings ORDER BY player_id") == old_current
    history = data["rating_history"]
    column = {c: i for i, c in enumerate(history["columns"])}
    assert _rows(
        url,
        "SELECT id, k_used, period_games, score_half_points, pd_sum_units, units_per_point, "
        "list_status FROM rating_history ORDER BY id",
    ) == [
        (r[column["id"]], r[column["k"]], r[column["games"]], round(r[column["score"]] * 2),
         round(r[column["expected_sum"]] * unit), unit, OLD_STATUS.get(r[column["state"]],
         r[column["state"]]))
        for r in history["rows"]
    ]  # fmt: skip
    breakdown = data["rating_breakdown"]
    column = {c: i for i, c in enumerate(breakdown["columns"])}

    def units(value: float | None) -> int | None:
        return None if value is None else round(value * unit)

    assert _rows(
        url,
        "SELECT id, score_half_points, pd_units, dr_units, units_per_point, k_used, counts_for "
        "FROM rating_breakdown ORDER BY id",
    ) == [
        (r[column["id"]], round(r[column["score"]] * 2), units(r[column["expected"]]),
         units(r[column["change"]]), unit, r[column["k"]],
         "first_rating" if r[column["k"]] is None else "change")
        for r in breakdown["rows"]
    ]  # fmt: skip
    assert _rows(url, "SELECT DISTINCT status FROM rating_periods") == [("published",)]

    migrate.downgrade(url, "0001")
    assert _contents(url, data) == _as_stored(data)
    assert _rows(url, "SELECT * FROM rating_lists ORDER BY period, player_id") == old_lists
    assert _rows(url, "SELECT * FROM current_ratings ORDER BY player_id") == old_current


SCORES = {"1-0": Fraction(1), "0-1": Fraction(0)}


def _reference(data: Fixture) -> dict[tuple[str, int], int | None]:
    """The fixture's players and games rated by tests/rating_reference.py: (period, player)
    -> rating."""
    settings = dict(zip(data["settings"]["columns"], data["settings"]["rows"][0], strict=True))
    system = ref.System(
        settings["system"],
        k=settings["k_factor"],
        start_rating=settings["start_rating"],
        curve=settings["expected_method"] == "curve",
        months=settings["period_months"],
    )
    players = [
        ref.Player(p["id"], p["entry_rating"], p["entry_games"], p["birth_year"], bool(p["k10"]))
        for p in _records(data, "players")
        if p["merged_into_id"] is None
    ]
    games = [
        ref.Game(
            g["id"], g["event_id"], dt.date.fromisoformat(g["played_on"]), g["white_id"],
            g["black_id"], SCORES.get(g["result"], Fraction(1, 2)),
        )
        for g in _records(data, "games")
        if g["rated"]
    ]  # fmt: skip
    return {
        (f"{period:%Y-%m}", pid): entry.rating
        for period, entries in ref.rate_history(system, players, games).items()
        for pid, entry in entries.items()
    }


def _records(data: Fixture, table: str) -> list[dict[str, Any]]:
    columns = data[table]["columns"]
    return [dict(zip(columns, row, strict=True)) for row in data[table]["rows"]]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", POPULATED)
def test_after_0002_a_rerate_matches_0001_and_the_reference(
    tmp_path: Path, name: str, backend: str
) -> None:
    """Re-rating an upgraded database from its first period with the engine: under the table
    method it publishes the very lists revision 0001's code published; every list equals the
    slow reference's. (Under the curve, 0001 rounded each game's E to 4 places: on the elo
    pool one rating of 2025-08 moves by one point, to the reference's value, E no longer rounded
    game by game.)"""
    data = _fixture(name)
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0001")
    _load(url, data)
    migrate.upgrade(url)
    query = (
        "SELECT p.label, h.player_id, h.rating_before, h.rating_after, h.change, h.k_used, "
        "h.period_games, h.total_games, h.score_half_points, h.next_k, h.k10, h.list_status "
        "FROM rating_history h JOIN rating_periods p ON p.id = h.period_id "
        "ORDER BY p.label, h.player_id"
    )
    before = _rows(url, query)
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session, session.begin():
        service_common.mark_all_for_rerate(session)
        report = service.rate(session)
    engine.dispose()
    assert len(report.rerated) == len(data["rating_periods"]["rows"])
    after = _rows(url, query)
    assert {(r[0], r[1]): r[3] for r in after} == _reference(data)
    if name == "elo":
        assert [(c.period, c.old, c.new) for c in report.changed] == [("2025-08", 1651, 1650)]
        assert after != before
    else:
        assert report.changed == ()
        assert after == before


# --- 0003: name keys, the corrections log, merge moves ------------------------------------


def _snapshot(url: str, skip: tuple[str, ...] = ()) -> dict[str, list[tuple[object, ...]]]:
    """Every table that has an id (but ``skip``), its columns by name (so that a rebuilt table
    whose columns moved compares equal), rows by id; ``table.column`` in ``skip`` leaves a
    column out."""
    engine = make_engine(url)
    try:
        inspector = sa.inspect(engine)
        columns = {
            t: [c["name"] for c in inspector.get_columns(t)]
            for t in inspector.get_table_names()
            if t != "alembic_version" and t not in skip
        }
    finally:
        engine.dispose()
    return {
        t: _rows(
            url,
            f"SELECT {', '.join(sorted(n for n in names if f'{t}.{n}' not in skip))} "
            f"FROM {t} ORDER BY id",
        )
        for t, names in columns.items()
    }


def _sequence(url: str, table: str) -> int | None:
    """SQLite: the highest id ever given in ``table`` (None elsewhere)."""
    if not url.startswith("sqlite"):
        return None
    found = _rows(url, f"SELECT seq FROM sqlite_sequence WHERE name = '{table}'")
    return int(str(found[0][0])) if found else None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", POPULATED)
def test_0003_keys_every_player_and_back(tmp_path: Path, name: str, backend: str) -> None:
    """A populated database made at 0001, upgraded through 0002 to 0003: every player gets
    the key of the rule (computed here independently), nothing else changes, player ids are
    never reused; the log starts empty; downgrade gives every table back."""
    data = _fixture(name)
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0001")
    _load(url, data)
    migrate.upgrade(url, "0002")
    before = _snapshot(url)
    lists = _rows(url, "SELECT * FROM rating_lists ORDER BY period, player_id")
    sequence = _sequence(url, "players")

    migrate.upgrade(url, "0003")
    players = _records(data, "players")
    assert _rows(url, "SELECT id, name_key FROM players ORDER BY id") == [
        (p["id"], unicodedata.normalize("NFC", " ".join(unicodedata.normalize(
            "NFC", p["name"]).split()).casefold())) for p in players
    ]  # fmt: skip
    assert _rows(url, "SELECT count(*) FROM corrections") == [(0,)]
    assert _rows(url, "SELECT count(*) FROM merge_moves") == [(0,)]
    assert _rows(url, "SELECT * FROM rating_lists ORDER BY period, player_id") == lists
    if sequence is not None:
        assert _sequence(url, "players") == sequence

    assert _snapshot(url, ("corrections", "merge_moves", "players.name_key")) == before

    migrate.downgrade(url, "0002")
    assert _snapshot(url) == before
    assert _sequence(url, "players") == sequence
    assert _rows(url, "SELECT * FROM rating_lists ORDER BY period, player_id") == lists


@pytest.mark.parametrize("backend", BACKENDS)
def test_0003_keys_names_stored_before_the_checks(tmp_path: Path, backend: str) -> None:
    """Names that older versions let in (two spaces, NFD, a no-break space, different case)
    are keyed, not refused; same-name rows are kept (the key is not unique)."""
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0002")
    names = ["Elard,  Carl", "Elard, Carl", "Mu\u0308ller, Hans", "M\u00fcller, Hans",
             "Elard,\u00a0Carl", "STRASSE, Max", "Stra\u00dfe, Max"]  # fmt: skip
    engine = make_engine(url, enforce_foreign_keys=False)
    with engine.begin() as conn:
        for name in names:
            conn.execute(sa.text("INSERT INTO players (name) VALUES (:n)"), {"n": name})
        # a deleted row: its id must not come back after the rebuild of players
        conn.execute(sa.text("INSERT INTO players (name) VALUES ('gone')"))
        conn.execute(sa.text("DELETE FROM players WHERE name = 'gone'"))
    engine.dispose()
    migrate.upgrade(url, "0003")
    assert [key for (key,) in _rows(url, "SELECT name_key FROM players ORDER BY id")] == [
        "elard, carl", "elard, carl", "m\u00fcller, hans", "m\u00fcller, hans", "elard, carl",
        "strasse, max", "strasse, max",
    ]  # fmt: skip
    assert [n for (n,) in _rows(url, "SELECT name FROM players ORDER BY id")] == names
    migrate.upgrade(url)  # the models are at head
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session, session.begin():
        player = service_models.Player(name="New, Player")
        session.add(player)
        session.flush()
        assert player.id == len(names) + 2
        assert player.name_key == "new, player"
    engine.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_0003_corrections_are_append_only(tmp_path: Path, backend: str) -> None:
    """UPDATE and DELETE (and TRUNCATE on PostgreSQL) on the log are refused by the database
    itself, whatever program asks; inserting is allowed."""
    url = _database(tmp_path, backend)
    migrate.upgrade(url)
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO corrections (batch, recorded_at, action, game_id, field, "
                "old_value, new_value) VALUES (1, '2026-11-30 12:00:00', 'game_edit', 5, "
                "'result', '1-0', '0-1')"
            )
        statements = ["UPDATE corrections SET new_value = '1-0'", "DELETE FROM corrections"]
        if backend == "postgres":
            statements.append("TRUNCATE corrections")
        for statement in statements:
            with (
                pytest.raises(sa.exc.DBAPIError, match="corrections is append-only"),
                engine.begin() as conn,
            ):
                conn.exec_driver_sql(statement)
        assert _rows(url, "SELECT game_id, old_value, new_value FROM corrections") == [
            (5, "1-0", "0-1")
        ]
    finally:
        engine.dispose()
    migrate.downgrade(url, "0002")
    migrate.upgrade(url)
    assert _rows(url, "SELECT count(*) FROM corrections") == [(0,)]


# --- 0004: unknown game counts, FIDE's K, event rating periods, closing days, inactive ------

NEW_IN_0018 = ("events.tiebreaks",)
"""The column of 0018 (the tie-breaks an event's file names), left out of the earlier
revisions' comparisons."""

NEW_IN_0017 = ("list_seals", *NEW_IN_0018)
"""The table of 0017 (sealed lists) and later, left out of the earlier revisions'
comparisons."""

NEW_IN_0012 = (
    "players.listed_from", "games.import_id", "imports.undone_by", "superseded_ratings.name",
    "superseded_ratings.kind", *NEW_IN_0017,
)  # fmt: skip
"""Columns of 0012 (who is on a list, undone imports), left out of the earlier revisions'
comparisons."""

NEW_IN_0011 = ("events.norm_exemption", *NEW_IN_0012)
"""Columns of 0011 (the norm exemption) and later, left out of the earlier revisions'
comparisons."""

NEW_IN_0009 = (*NEW_IN_0011, "players.fide_inactive_list")
"""Columns of 0009 (FIDE's inactive flag) and later, left out of the earlier revisions'
comparisons."""

NEW_IN_0006 = (
    *NEW_IN_0009,
    "player_aliases",  # 0008's table, at head
    "events.time_control", "rating_history.time_control", "superseded_ratings.time_control",
    *(f"players.{tc}_{c}" for tc in ("rapid", "blitz")
      for c in ("entry_rating", "entry_games", "k10", "fide_k")),
)  # fmt: skip
"""Columns of 0006 (rapid and blitz), left out of the earlier revisions' comparisons at head."""

NEW_IN_0004 = (
    *NEW_IN_0006, "superseded_ratings.period", "players.import_id",  # 0005's, at head
    "settings.closing_days", "players.fide_k", "players.fide_k_list", "events.rating_period",
    "rating_history.inactive", "rating_history.last_active",
)  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", POPULATED)
def test_0004_carries_every_row_and_back(tmp_path: Path, name: str, backend: str) -> None:
    """A populated database made at 0001, upgraded to 0003, then to 0004: every row is kept
    (counts as they were, no event moved, closing days 0), the flags of every list are what a
    re-rate by the 0004 engine computes, player ids are never reused; downgrade gives every
    table back."""
    data = _fixture(name)
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0001")
    _load(url, data)
    migrate.upgrade(url, "0003")
    before = _snapshot(url)
    sequence = _sequence(url, "players")

    migrate.upgrade(url)
    migrate.check(url)
    assert _snapshot(url, NEW_IN_0004) == before
    assert _rows(url, "SELECT closing_days FROM settings") == [(0,)]
    assert _rows(url, "SELECT count(*) FROM events WHERE rating_period IS NOT NULL") == [(0,)]
    if sequence is not None:
        assert _sequence(url, "players") == sequence
    flags = "SELECT period_id, player_id, inactive, last_active FROM rating_history ORDER BY id"
    migrated = _rows(url, flags)
    assert any(last is not None for *_, last in migrated)
    query = "SELECT * FROM rating_history ORDER BY period_id, player_id"
    lists = _rows(url, query)
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session, session.begin():
        service_common.mark_all_for_rerate(session)
        service.rate(session)
    engine.dispose()
    assert sorted(_rows(url, flags)) == sorted(migrated)
    if name != "elo":  # 0001 rounded the curve to 4 places: one elo rating moves (above)
        assert [r[1:] for r in _rows(url, query)] == [r[1:] for r in lists]

    migrate.downgrade(url, "0003")
    after = _snapshot(url)
    assert after["players"] == before["players"]
    assert after["events"] == before["events"]
    assert after["settings"] == before["settings"]
    assert _sequence(url, "players") == sequence


def test_0004_unknown_counts_go_down_as_0(tmp_path: Path) -> None:
    url = database_url(str(tmp_path / "r.db"))
    migrate.upgrade(url)
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO players (name, name_key, entry_rating) VALUES ('A', 'a', 1900)"
        )
    engine.dispose()
    assert _rows(url, "SELECT entry_games FROM players") == [(None,)]
    migrate.downgrade(url, "0003")
    assert _rows(url, "SELECT entry_games FROM players") == [(0,)]


# --- 0005: withdrawn periods' values, the import that registered a player -----------------

NEW_IN_0005 = ("superseded_ratings.period", "players.import_id", *NEW_IN_0006)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", POPULATED)
def test_0005_labels_superseded_values_and_back(tmp_path: Path, name: str, backend: str) -> None:
    """A populated database made at 0001, upgraded to 0004, re-rated after a correction (so
    that superseded values exist), then to 0005: every row is kept, every superseded value
    gets its period's label, no player an import id; downgrade gives every table back."""
    data = _fixture(name)
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0001")
    _load(url, data)
    migrate.upgrade(url, "0004")
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE players SET entry_rating = entry_rating + 100")
        conn.exec_driver_sql("UPDATE rating_periods SET status = 'needs_rerate'")
        conn.exec_driver_sql(
            "INSERT INTO superseded_ratings (period_id, player_id, old_rating, new_rating, "
            "old_change, new_change, old_k_used, superseded_at) SELECT period_id, player_id, "
            "rating_after, rating_after, change, change, k_used, '2026-11-30 12:00:00' "
            "FROM rating_history"
        )
    engine.dispose()
    before = _snapshot(url)
    sequence = _sequence(url, "players")
    assert before["superseded_ratings"]

    migrate.upgrade(url)
    migrate.check(url)
    assert _snapshot(url, NEW_IN_0005) == before
    assert _rows(url, "SELECT count(*) FROM players WHERE import_id IS NOT NULL") == [(0,)]
    assert _rows(
        url,
        "SELECT count(*) FROM superseded_ratings s JOIN rating_periods p ON p.id = s.period_id "
        "WHERE s.period = p.label",
    ) == [(len(before["superseded_ratings"]),)]

    migrate.downgrade(url, "0004")
    assert _snapshot(url) == before
    assert _sequence(url, "players") == sequence


# --- 0006: rapid and blitz, one list per time control -------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", POPULATED)
def test_0006_makes_every_list_standard_and_back(tmp_path: Path, name: str, backend: str) -> None:
    """A populated database made at 0001, upgraded to 0005 (with superseded values), then to
    0006: every row is kept, every event, list row and superseded value is standard, no player
    has rapid or blitz data, every list reads the same through the views; a re-rate at head
    writes the same lists and no rapid or blitz row; downgrade gives every table back."""
    data = _fixture(name)
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0001")
    _load(url, data)
    migrate.upgrade(url, "0005")
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO superseded_ratings (period_id, period, player_id, old_rating, "
            "new_rating, old_change, new_change, old_k_used, superseded_at) SELECT h.period_id, "
            "p.label, h.player_id, h.rating_after, h.rating_after, h.change, h.change, h.k_used, "
            "'2026-11-30 12:00:00' FROM rating_history h JOIN rating_periods p "
            "ON p.id = h.period_id"
        )
    engine.dispose()
    before = _snapshot(url)
    sequence = _sequence(url, "players")
    lists_query = "SELECT * FROM rating_lists ORDER BY period, player_id"
    current_query = "SELECT * FROM current_ratings ORDER BY player_id"
    lists, current = _rows(url, lists_query), _rows(url, current_query)
    assert lists

    migrate.upgrade(url)
    migrate.check(url)
    assert _snapshot(url, NEW_IN_0006) == before
    for table in ("events", "rating_history", "superseded_ratings"):
        assert _rows(url, f"SELECT DISTINCT time_control FROM {table}") in ([("standard",)], [])
    assert _rows(
        url,
        "SELECT count(*) FROM players WHERE rapid_entry_rating IS NOT NULL "
        "OR blitz_entry_rating IS NOT NULL OR rapid_k10 OR blitz_k10",
    ) == [(0,)]
    columns = "period, list_date, player_id, name, fide_id, federation, rating_before, rating, "
    columns += "change, k_used, period_games, total_games, score, pd_sum, next_k, k10, "
    columns += "list_status, flag"
    assert _rows(url, f"SELECT {columns} FROM rating_lists ORDER BY period, player_id") == lists
    assert _rows(url, "SELECT DISTINCT time_control FROM rating_lists") == [("standard",)]
    assert [r[:-1] for r in _rows(url, current_query)] == current
    history = "SELECT * FROM rating_history ORDER BY period_id, player_id"
    stored = _rows(url, history)
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session, session.begin():
        service_common.mark_all_for_rerate(session)
        service.rate(session)
    engine.dispose()
    if name != "elo":  # 0001 rounded the curve to 4 places: one elo rating moves (above)
        assert [r[1:] for r in _rows(url, history)] == [r[1:] for r in stored]
    assert _rows(url, "SELECT DISTINCT time_control FROM rating_history") == [("standard",)]

    migrate.downgrade(url, "0005")
    after = _snapshot(url)
    for table in ("players", "events", "settings", "games"):
        assert after[table] == before[table]
    assert len(after["rating_history"]) == len(before["rating_history"])
    assert _sequence(url, "players") == sequence


# --- 0007: current_ratings through the period's index --------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_0007_current_ratings_gives_0006s_rows_and_back(tmp_path: Path, backend: str) -> None:
    """0007 rewrites ``current_ratings`` only: on three lists, with players known to a list
    only by their entry rating, a player registered after the newest period, a woman flagged
    inactive and a merged record, its rows are 0006's, before any rating and after; downgrade
    gives 0006's view back, and the upgrade again 0007's."""
    from tests.safety_helpers import bench_generate

    url = _database(tmp_path, backend)
    db = str(tmp_path / "r.db") if backend == "sqlite" else url
    files = bench_generate().generate(
        80, 900, 4, 5, tmp_path / "data", dt.date(2025, 1, 1), mixed_lists=True
    )
    ok(db, "init")
    ok(db, "import", "players", str(files.players_csv))
    ok(db, "player", "add", "Entry, Only", "--rapid-rating", "1710", "--blitz-rating", "1650")
    ok(db, "player", "add", "Entry, Blitz", "--sex", "f", "--blitz-rating", "1580")
    every = "SELECT * FROM current_ratings ORDER BY time_control, player_id"

    def both_views() -> list[tuple[object, ...]]:
        """The rows at head, then at 0006 (downgraded), then at head again: all the same."""
        rows = _rows(url, every)
        migrate.downgrade(url, "0006")
        assert _rows(url, every) == rows
        migrate.upgrade(url)
        assert _rows(url, every) == rows
        return rows

    register = both_views()  # no period rated: the register's entry values
    assert {r[-1] for r in register} == {"standard", "rapid", "blitz"}
    assert all(r[12] is None for r in register)  # no period
    ok(db, "import", "games", str(files.games_csv))
    ok(db, "rate")
    ok(db, "player", "add", "Late, Comer", "--rating", "1500")  # after the newest period
    ok(db, "player", "add", "Late, Twin", "--rating", "1510")
    ok(db, "player", "merge", "--yes", "--force", "Late, Comer", "Late, Twin")
    rated = both_views()
    lists = {r[-1] for r in rated}
    assert lists == {"standard", "rapid", "blitz"}
    ((newest,),) = _rows(url, "SELECT label FROM rating_periods ORDER BY start_date DESC LIMIT 1")
    assert {r[12] for r in rated if r[-1] == "standard"} == {newest}
    by_name = {(r[1], r[-1]): r for r in rated}
    assert by_name["Entry, Only", "rapid"][7] == 1710  # an entry rating, no list row
    assert by_name["Entry, Only", "blitz"][7] == 1650
    assert by_name["Late, Comer", "standard"][7:9] == (1500, None)  # registered after it
    assert "Late, Twin" not in {r[1] for r in rated}  # the merged record is left out
    assert any(r[11] in ("w", "wi") for r in rated)


# --- 0008: player aliases, and merges that move them ---------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_0008_adds_aliases_keeps_merge_moves_and_back(tmp_path: Path, backend: str) -> None:
    """0008 adds ``player_aliases`` and lets ``merge_moves`` hold alias moves: a database with
    a merge's game moves (made at head, taken down to 0007) keeps every row through the
    upgrade; at head an alias and its move can be stored; downgrade deletes the alias move
    and the table, and 0007's CHECK refuses an alias move again."""
    url = _database(tmp_path, backend)
    db = str(tmp_path / "r.db") if backend == "sqlite" else url
    ok(db, "init")
    for name in ("Novák, Jiří", "Novak J", "Smith, Ann"):
        ok(db, "player", "add", name)
    ok(db, "game", "add", "Novak J", "Smith, Ann", "1-0", "--date", "2026-01-10")
    ok(db, "player", "merge", "--yes", "Novák, Jiří", "Novak J")
    migrate.downgrade(url, "0007")
    assert "player_aliases" not in _tables_of(url)
    before = _snapshot(url)
    moves = "SELECT moved, row_id, from_player_id, to_player_id FROM merge_moves ORDER BY id"
    assert _rows(url, moves) == [("white", 1, 2, 1)]

    migrate.upgrade(url, "0008")  # (0009 adds a column to players)
    assert _snapshot(url, ("player_aliases",)) == before
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO player_aliases (player_id, name, folded_key, source, created_at) "
            "VALUES (1, 'Novak J.', 'j novak', 'hand', '2026-12-02 10:00:00')"
        )
        conn.exec_driver_sql(
            "INSERT INTO merge_moves (batch, moved, row_id, from_player_id, to_player_id) "
            "VALUES (1, 'alias', 1, 2, 1)"
        )
        with pytest.raises(sa.exc.IntegrityError):
            conn.exec_driver_sql(
                "INSERT INTO player_aliases (player_id, name, folded_key, source, created_at) "
                "VALUES (3, 'Novak J', 'j novak', 'hand', '2026-12-02 10:00:00')"
            )
    engine.dispose()

    migrate.downgrade(url, "0007")
    assert _snapshot(url) == before
    engine = make_engine(url)
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO merge_moves (batch, moved, row_id, from_player_id, to_player_id) "
            "VALUES (1, 'alias', 1, 2, 1)"
        )
    engine.dispose()
    migrate.upgrade(url)
    migrate.check(url)
    assert _rows(url, "SELECT count(*) FROM player_aliases") == [(0,)]


def _tables_of(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


# --- 0009: FIDE's inactive flag, settings changes in the log -------------------------------

LOG_LINE = (
    "INSERT INTO corrections (batch, recorded_at, action, {column}, field, old_value, "
    "new_value) VALUES ({batch}, '2026-12-02 12:00:00', '{action}', {value}, '{field}', "
    "'{old}', '{new}')"
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_0009_keeps_the_log_append_only_and_back(tmp_path: Path, backend: str) -> None:
    """0009 replaces the CHECK on ``corrections.action`` (a rebuild of the table on SQLite):
    every line is kept, the log stays append-only, its ids are never reused, and
    ``settings_edit`` lines may be written; the new column is NULL. Downgrade deletes the
    ``settings_edit`` lines only, and the log is append-only again."""
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0007")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            for batch in (1, 2):
                conn.exec_driver_sql(
                    LOG_LINE.format(column="game_id", batch=batch, action="game_edit",
                                    value=batch, field="result", old="1-0", new="0-1")
                )  # fmt: skip
            conn.exec_driver_sql("INSERT INTO players (name, name_key) VALUES ('Ann', 'ann')")
    finally:
        engine.dispose()
    before = _rows(url, "SELECT * FROM corrections ORDER BY id")
    sequence = _sequence(url, "corrections")
    migrate.upgrade(url)
    assert _rows(url, "SELECT * FROM corrections ORDER BY id") == before
    assert _sequence(url, "corrections") == sequence
    assert _rows(url, "SELECT name, fide_inactive_list FROM players") == [("Ann", None)]
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(
                LOG_LINE.format(column="period", batch=3, action="settings_edit",
                                value="'2026-09'", field="closing_days", old="0", new="3")
            )  # fmt: skip
        for statement in ("UPDATE corrections SET new_value = '1-0'", "DELETE FROM corrections"):
            with (
                pytest.raises(sa.exc.DBAPIError, match="corrections is append-only"),
                engine.begin() as conn,
            ):
                conn.exec_driver_sql(statement)
    finally:
        engine.dispose()
    assert _rows(url, "SELECT id, action FROM corrections ORDER BY id") == [
        (1, "game_edit"), (2, "game_edit"), (3, "settings_edit"),
    ]  # fmt: skip

    migrate.downgrade(url, "0007")
    assert _rows(url, "SELECT * FROM corrections ORDER BY id") == before
    engine = make_engine(url)
    try:
        with (
            pytest.raises(sa.exc.DBAPIError, match="corrections is append-only"),
            engine.begin() as conn,
        ):
            conn.exec_driver_sql("DELETE FROM corrections")
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.exec_driver_sql(
                LOG_LINE.format(column="period", batch=4, action="settings_edit",
                                value="'2026-09'", field="closing_days", old="0", new="3")
            )  # fmt: skip
    finally:
        engine.dispose()
    migrate.upgrade(url)
    assert _rows(url, "SELECT count(*) FROM corrections") == [(2,)]


# --- 0011: an event's norm exemption --------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", POPULATED)
def test_0011_keeps_every_event_with_no_exemption_and_back(
    tmp_path: Path, name: str, backend: str
) -> None:
    """0011 adds ``events.norm_exemption`` (a rebuild of ``events`` on SQLite): every row of
    every table is kept, every event has no exemption, the views read as before, the CHECK
    takes the four kinds of FIDE Title Regulations 1.4.3a-d and refuses anything else;
    downgrade gives every table back without the column."""
    url = _database(tmp_path, backend)
    migrate.upgrade(url, "0001")
    _load(url, _fixture(name))
    migrate.upgrade(url, "0009")
    before = _snapshot(url)
    views_before = {
        v: _rows(url, f"SELECT * FROM {v} ORDER BY 1, 2, 3, 4")
        for v in ("current_ratings", "rating_lists", "rating_calculations")
    }
    assert before["events"]

    migrate.upgrade(url, "0011")  # (0012 changes other tables: not the head's schema)
    assert _snapshot(url, NEW_IN_0011) == before
    assert _rows(url, "SELECT DISTINCT norm_exemption FROM events") == [(None,)]
    for view, rows in views_before.items():
        assert _rows(url, f"SELECT * FROM {view} ORDER BY 1, 2, 3, 4") == rows, view
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            for kind in ("national_championship", "national_team_championship", "zonal"):
                conn.exec_driver_sql(f"UPDATE events SET norm_exemption = '{kind}'")
            conn.exec_driver_sql("UPDATE events SET norm_exemption = 'qualifying_swiss'")
        with (
            pytest.raises(sa.exc.IntegrityError, match="ck_events_norm_exemption"),
            engine.begin() as conn,
        ):
            conn.exec_driver_sql("UPDATE events SET norm_exemption = 'olympiad'")
    finally:
        engine.dispose()

    migrate.downgrade(url, "0009")
    assert _snapshot(url) == before
    for view, rows in views_before.items():
        assert _rows(url, f"SELECT * FROM {view} ORDER BY 1, 2, 3, 4") == rows, view


# --- 0012: who is on a list, rows added and withdrawn, undone imports -----------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_0012_keeps_every_list_and_the_record_and_back(tmp_path: Path, backend: str) -> None:
    """A database made at head (a player registered after the first list, games imported
    and by hand, ratings changed by a re-rate, a merged duplicate withdrawn, an import
    undone) taken down to 0011 and up again: 0012's fill gives back what the code wrote
    (``listed_from``, ``games.import_id``, the kinds and names of the superseded rows); the
    downgrade deletes what 0011 cannot hold (the undone import, the rows of a removed
    player) and nothing else."""
    url = _database(tmp_path, backend)
    db = str(tmp_path / "r.db") if backend == "sqlite" else url
    ok(db, "init", "--system", "club")
    for name in ("Ann", "Bob", "Bob Twin"):
        ok(db, "player", "add", name, "--rating", "1800", "--games", "40")
    ok(db, "game", "add", "Ann", "Bob", "1-0", "--date", "2025-01-05")
    ok(db, "rate")
    ok(db, "player", "add", "Cat", "--rating", "1700", "--games", "40")  # after January
    feb, register = tmp_path / "feb.csv", tmp_path / "register.csv"
    feb.write_text("date,white,black,result,event\n2025-02-03,Bob,Cat,1-0,Feb Cup\n")
    register.write_text("name,rating,games\nNewcomer,1500,10\n")
    ok(db, "import", "games", str(feb))
    ok(db, "import", "players", str(register))  # on the lists from February
    ok(db, "rate")
    ok(db, "game", "edit", "1", "--result", "0-1", "--yes")
    ok(db, "player", "merge", "--yes", "--force", "Bob", "Bob Twin")
    ok(db, "rate")
    ok(db, "import", "undo", "2", "--yes")  # Newcomer goes, his February row withdrawn
    ok(db, "rate")
    players = "SELECT id, name, listed_from FROM players ORDER BY id"
    games = "SELECT id, import_id FROM games ORDER BY id"
    superseded = (
        "SELECT id, period, player_id, name, kind, old_rating, new_rating, old_change, "
        "new_change FROM superseded_ratings ORDER BY id"
    )
    at_head = {q: _rows(url, q) for q in (players, games, superseded)}
    assert at_head[players] == [
        (1, "Ann", None),
        (2, "Bob", None),
        (3, "Bob Twin", None),
        (4, "Cat", "2025-02-01"),
    ]  # fmt: skip (Newcomer, 5, removed)
    assert at_head[games] == [(1, None), (2, 1)]
    kinds = {(kind, name) for _, _, _, name, kind, *_ in at_head[superseded]}
    assert kinds == {
        ("changed", "Ann"), ("changed", "Bob"), ("changed", "Cat"), ("withdrawn", "Bob Twin"),
        ("withdrawn", "Newcomer"),
    }  # fmt: skip
    assert _rows(url, "SELECT id, undone_by FROM imports ORDER BY id") == [(1, None), (2, 3)]

    migrate.downgrade(url, "0011")
    assert _rows(url, "SELECT id FROM imports") == [(1,)]  # 0011 deleted an undone import
    kept = [r for r in at_head[superseded] if r[3] != "Newcomer"]  # no player: no row
    assert _rows(
        url,
        "SELECT id, period, player_id, old_rating, new_rating, old_change, new_change "
        "FROM superseded_ratings ORDER BY id",
    ) == [(i, p, pid, o, n, oc, 0 if nc is None else nc) for i, p, pid, _, _, o, n, oc, nc in kept]

    migrate.upgrade(url)
    migrate.check(url)
    assert _rows(url, players) == at_head[players]
    assert _rows(url, games) == at_head[games]
    assert _rows(url, superseded) == kept
    assert _rows(url, "SELECT id, undone_by FROM imports ORDER BY id") == [(1, None)]


# --- 0017: sealed lists ----------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_0017_lists_published_before_are_sealed_by_the_next_rate(
    tmp_path: Path, backend: str
) -> None:
    """A database rated at 0012 (no seals), upgraded: its lists stay and have no seal; the
    next rate, with nothing to rate, seals them; down to 0012 and up again, the seals are
    gone and the lists as they were, and the table's triggers are back."""
    url = _database(tmp_path, backend)
    db = str(tmp_path / "r.db") if backend == "sqlite" else url
    ok(db, "init", "--system", "club")
    for name in ("Ann", "Bob"):
        ok(db, "player", "add", name, "--rating", "1800", "--games", "40")
    ok(db, "game", "add", "Ann", "Bob", "1-0", "--date", "2025-01-05")
    ok(db, "game", "add", "Bob", "Ann", "1-0", "--date", "2025-02-05")
    ok(db, "rate")
    lists = _rows(url, "SELECT * FROM rating_history ORDER BY id")
    assert len(_rows(url, "SELECT * FROM list_seals")) == 2
    migrate.downgrade(url, "0012")
    assert _rows(url, "SELECT * FROM rating_history ORDER BY id") == lists
    migrate.upgrade(url)
    migrate.check(url)
    assert _rows(url, "SELECT * FROM list_seals") == []
    assert CliRunner().invoke(cli, ["--db", db, "verify"]).exit_code == 1
    # seen: it said "Nothing to rate", and sealed them
    assert ok(db, "rate") == "Sealed 2 lists published before lists were sealed\n"
    assert _rows(url, "SELECT period, version, reason FROM list_seals ORDER BY id") == [
        ("2025-01", 1, "published before lists were sealed"),
        ("2025-02", 1, "published before lists were sealed"),
    ]
    ok(db, "verify")
    engine = make_engine(url)
    try:
        with (
            pytest.raises(sa.exc.DatabaseError, match="list_seals is append-only"),
            engine.begin() as conn,
        ):
            conn.exec_driver_sql("DELETE FROM list_seals")
    finally:
        engine.dispose()
