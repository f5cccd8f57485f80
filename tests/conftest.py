"""Shared fixtures: databases built by running the real migrations, sessions, the CLI."""

from __future__ import annotations

import datetime as dt
import os
import secrets
import shutil
import sqlite3
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ratings import migrate
from ratings.db import SessionFactory, make_engine

PG_URL = os.environ.get("RATINGS_TEST_PG_URL")
BACKEND = os.environ.get("RATINGS_TEST_BACKEND", "sqlite")
"""Where the end-to-end scenario tests (tests.test_rating_scenarios.Club) keep their data:
``sqlite`` (a file per test) or ``postgres`` (a fresh database per test on RATINGS_TEST_PG_URL;
.ci/run runs those test files a second time that way)."""

if BACKEND not in ("sqlite", "postgres"):
    raise pytest.UsageError(f"RATINGS_TEST_BACKEND must be sqlite or postgres: {BACKEND!r}")
if BACKEND == "postgres" and not PG_URL:
    raise pytest.UsageError("RATINGS_TEST_BACKEND=postgres needs RATINGS_TEST_PG_URL")

_CREATED: list[str] = []


def new_database() -> str:
    """A fresh, empty PostgreSQL database (C collation, so names sort as on SQLite); its URL.

    Dropped at the end of the test session."""
    assert PG_URL is not None
    name = f"ratings_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(
            f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
        )
    admin.dispose()
    _CREATED.append(name)
    return sa.engine.make_url(PG_URL).set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session", autouse=True)
def _drop_created_databases() -> Iterator[None]:
    yield
    if _CREATED and PG_URL:
        admin = sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for name in _CREATED:
                conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


@pytest.fixture(scope="session")
def _template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database at head per test session; tests get copies (migrations run once)."""
    path = tmp_path_factory.mktemp("template") / "ratings.db"
    migrate.upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def alembic_engine(tmp_path: Path) -> Engine:
    """Used by pytest-alembic's built-in tests."""
    return make_engine(f"sqlite:///{tmp_path / 'alembic.db'}", enforce_foreign_keys=False)


@pytest.fixture
def db_path(tmp_path: Path, _template_db: Path) -> Path:
    """A file at head, as `ratings db upgrade` leaves it (no settings row: not initialised)."""
    path = tmp_path / "ratings.db"
    shutil.copyfile(_template_db, path)
    return path


@pytest.fixture
def session(db_path: Path) -> Iterator[Session]:
    """An FK-on session on a migrated file, with fide settings, rolled back after the test."""
    from ratings import service
    from ratings.rules import system_config

    engine = make_engine(f"sqlite:///{db_path}")
    with engine.connect() as conn, conn.begin() as trans:
        with SessionFactory(bind=conn, join_transaction_mode="create_savepoint") as s:
            service.create_settings(s, system_config("fide"))
            yield s
        trans.rollback()
    engine.dispose()


@pytest.fixture
def runner() -> CliRunner:
    """A click runner (stderr kept apart from stdout)."""
    return CliRunner()


def table_rows(target: Path | str, sql: str) -> list[tuple[object, ...]]:
    """Rows of a query on a SQLite file (plain sqlite3 module) or a database URL.

    Values come back as SQLite shows them: dates as ISO text, booleans as 0/1."""
    if "://" not in str(target):
        with sqlite3.connect(target) as conn:
            return conn.execute(sql).fetchall()
    engine = sa.create_engine(str(target))
    try:
        with engine.connect() as conn:
            return [tuple(_as_sqlite(v) for v in row) for row in conn.exec_driver_sql(sql)]
    finally:
        engine.dispose()


def _as_sqlite(value: object) -> object:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return value
