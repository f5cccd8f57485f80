"""Shared fixtures: databases built by running the real migrations, sessions, the CLI."""

from __future__ import annotations

import atexit
import datetime as dt
import os
import secrets
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ratings import migrate
from ratings.db import SessionFactory, database_url, make_engine

PG_URL = os.environ.get("RATINGS_TEST_PG_URL")
BACKEND = os.environ.get("RATINGS_TEST_BACKEND", "sqlite")
"""Where the end-to-end scenario tests (tests.support.Club) keep their data:
``sqlite`` (a file per test) or ``postgres`` (a fresh database per test on RATINGS_TEST_PG_URL;
.ci/run runs those test files a second time that way)."""

BOTH_BACKENDS = [
    "sqlite",
    pytest.param(
        "postgres",
        marks=[
            pytest.mark.postgres,
            pytest.mark.skipif(not PG_URL, reason="needs RATINGS_TEST_PG_URL"),
        ],
    ),
]
"""``params`` for a fixture that builds its database on each backend: SQLite always,
PostgreSQL when RATINGS_TEST_PG_URL is set."""

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


class PgDatabase:
    """A test database on PostgreSQL, used where a test would use a SQLite file's path:
    ``str()`` is its URL (for ``--db``) and ``read_bytes()`` a dump of every table, so that
    "nothing changed" checks compare the stored contents."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __str__(self) -> str:
        return self.url

    @property
    def name(self) -> str:
        """The database name."""
        return str(sa.engine.make_url(self.url).database)

    def read_bytes(self) -> bytes:
        """Every table's rows, in a stable order, as bytes."""
        tables = [
            t
            for (t,) in table_rows(
                self.url,
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
            )
        ]
        dump = {t: sorted(map(repr, table_rows(self.url, f"SELECT * FROM {t}"))) for t in tables}
        return repr(dump).encode()


def copy_database(source: Path | PgDatabase, dest: Path) -> Path | PgDatabase:
    """A copy of a test database: the file copied to ``dest`` on SQLite; on PostgreSQL a new
    database made from ``source`` as its template (``dest`` unused)."""
    if isinstance(source, Path):
        shutil.copyfile(source, dest)
        return dest
    assert PG_URL is not None
    name = f"ratings_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name} TEMPLATE {source.name}")
    admin.dispose()
    _CREATED.append(name)
    return PgDatabase(sa.engine.make_url(PG_URL).set(database=name).render_as_string(False))


def new_test_database(path: Path) -> Path | PgDatabase:
    """Where a test's database lives: ``path`` on SQLite, a fresh PostgreSQL database with
    RATINGS_TEST_BACKEND=postgres (neither initialised yet)."""
    return path if BACKEND == "sqlite" else PgDatabase(new_database())


_INITIALISED: dict[tuple[str, ...], str] = {}
"""Databases as ``ratings init ARGS`` made them, one per set of arguments and test session:
the path of a SQLite file or the URL of a PostgreSQL database, copied by
:func:`init_database`."""


def init_database(path: Path, *init_args: str) -> str:
    """A database as ``ratings init *init_args`` leaves it, for a test that does not test
    ``init`` itself: ``str(path)`` on SQLite (``path`` must not exist), the URL of a fresh
    PostgreSQL database with RATINGS_TEST_BACKEND=postgres.

    The real ``init`` runs once per test session and set of arguments; every test gets a
    copy of what it made (a SQLite file copied, a PostgreSQL database made from it as
    template), which saves the migrations' half second a test."""
    from ratings.cli import cli

    key = (BACKEND, *init_args)
    template = _INITIALISED.get(key)
    if template is None:
        if BACKEND == "sqlite":
            folder = Path(tempfile.mkdtemp(prefix="ratings-init-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            template = str(folder / "template.db")
        else:
            template = new_database()
        result = CliRunner().invoke(cli, ["--db", template, "init", *init_args])
        assert result.exit_code == 0, result.output
        _INITIALISED[key] = template
    if BACKEND == "sqlite":
        assert not path.exists(), path
        shutil.copyfile(template, path)
        return str(path)
    return str(copy_database(PgDatabase(template), path))


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
    migrate.upgrade(database_url(str(path)))
    return path


@pytest.fixture
def alembic_engine(tmp_path: Path) -> Engine:
    """Used by pytest-alembic's built-in tests."""
    return make_engine(database_url(str(tmp_path / "alembic.db")), enforce_foreign_keys=False)


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

    engine = make_engine(database_url(str(db_path)))
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


def nested_plans(conn: Any) -> list[str]:
    """PostgreSQL: from now on, the plan of every statement run on the psycopg connection
    ``conn``, nested ones too (a foreign-key trigger's), as ``auto_explain`` sends them to
    the client as notices; skips the test if the server has no ``auto_explain``. The list
    fills as statements run."""
    import psycopg

    try:
        conn.execute("LOAD 'auto_explain'")
    except psycopg.Error:
        pytest.skip("the server has no auto_explain module")
    for setting in ("log_min_duration = 0", "log_nested_statements = on", "log_level = notice"):
        conn.execute(f"SET auto_explain.{setting}")
    plans: list[str] = []
    conn.add_notice_handler(lambda notice: plans.append(notice.message_primary or ""))
    return plans
