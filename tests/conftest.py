"""Shared fixtures: databases built by running the real migrations, sessions, the CLI."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ratings import migrate
from ratings.db import SessionFactory, make_engine

PG_URL = os.environ.get("RATINGS_TEST_PG_URL")


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


def table_rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Rows of a query on a SQLite file, read with the plain sqlite3 module."""
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()
