"""Bulk writes on PostgreSQL go through COPY (``ratings.service.shared.sql.copy_rows``): the
values arrive as written (NULLs, dates, flags, text with tabs, backslashes and newlines), and
a driver error comes out as SQLAlchemy's, as from any statement."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import migrate, service
from ratings.db import SessionFactory, make_engine
from ratings.rules import system_config
from ratings.service.shared.sql import bulk_insert
from tests.conftest import PG_URL, new_database

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG_URL, reason="needs RATINGS_TEST_PG_URL"),
]


@pytest.fixture
def pg() -> Iterator[Session]:
    url = new_database()
    migrate.upgrade(url)
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session:
        service.create_settings(session, system_config("fide"))
        yield session
    engine.dispose()


NASTY = "Tab\there, back\\slash, new\nline, \\N, quote ' and \" \u00e9"


def test_values_arrive_as_written(pg: Session) -> None:
    bulk_insert(
        pg,
        "players",
        ("name", "name_key", "birth_date", "birth_year", "k10", "rapid_k10", "blitz_k10"),
        [(NASTY, "nasty", dt.date(2001, 2, 3), 2001, True, False, False),
         ("Plain", "plain", None, None, False, False, False)],
    )  # fmt: skip
    rows = pg.execute(
        sa.text("SELECT name, birth_date, birth_year, k10 FROM players ORDER BY id")
    ).all()
    assert [tuple(r) for r in rows] == [
        (NASTY, dt.date(2001, 2, 3), 2001, True),
        ("Plain", None, None, False),
    ]


def test_a_driver_error_is_sqlalchemys(pg: Session) -> None:
    with pytest.raises(sa.exc.IntegrityError, match="players_entry_rating_range"):
        bulk_insert(
            pg,
            "players",
            ("name", "name_key", "entry_rating", "k10", "rapid_k10", "blitz_k10"),
            [("Too high", "too high", 9999, False, False, False)],
        )
