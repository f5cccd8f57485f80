"""Migrations: up to head, down to base and up again, models match the migrations."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from pytest_alembic.tests import (
    test_model_definitions_match_ddl,
    test_single_head_revision,
    test_up_down_consistency,
    test_upgrade,
)

from ratings import migrate
from ratings.db import make_engine
from ratings.errors import DatabaseError

__all__ = [
    "test_model_definitions_match_ddl",
    "test_single_head_revision",
    "test_up_down_consistency",
    "test_upgrade",
]

TABLES = {
    "alembic_version",
    "byes",
    "events",
    "games",
    "imports",
    "players",
    "rating_breakdown",
    "rating_history",
    "rating_periods",
    "settings",
    "superseded_ratings",
}


def _tables(path: Path) -> set[str]:
    engine = make_engine(f"sqlite:///{path}")
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_down_to_base_and_up_again(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    url = f"sqlite:///{path}"
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
    assert views == {"current_ratings", "rating_lists"}


def test_check_reports_no_drift(db_path: Path) -> None:
    migrate.check(f"sqlite:///{db_path}")


def test_unknown_revision_is_refused(db_path: Path) -> None:
    with pytest.raises(DatabaseError, match="unknown revision 'nope'"):
        migrate.downgrade(f"sqlite:///{db_path}", "nope")


def test_failed_migration_leaves_the_file_unchanged(tmp_path: Path) -> None:
    """Transactional DDL: a migration that fails half-way leaves nothing behind."""
    path = tmp_path / "r.db"
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        # a table the initial revision wants to create: the upgrade fails part-way
        conn.exec_driver_sql("CREATE TABLE rating_periods (x INTEGER)")
    engine.dispose()
    with pytest.raises(sa.exc.OperationalError):
        migrate.upgrade(f"sqlite:///{path}")
    assert _tables(path) == {"rating_periods"}
