"""Guarantees the database itself enforces, whatever program writes to it."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.models import Event, Player


def _players(session: Session) -> tuple[int, int, int]:
    a = Player(name="Anand", fide_id=5000017)
    b = Player(name="Kramnik")
    session.add_all([a, b])
    event = Event(name="Match", start_date=dt.date(2025, 1, 1), end_date=dt.date(2025, 1, 2),
                  source="manual")  # fmt: skip
    session.add(event)
    session.flush()
    return a.id, b.id, event.id


def _insert_game(
    session: Session, white: int, black: int, event: int, result: str, rateable: int = 0
) -> None:
    session.execute(
        sa.text(
            "INSERT INTO games (event_id, played_on, white_id, black_id, result, rateable) "
            "VALUES (:e, '2025-01-01', :w, :b, :r, :rateable)"
        ),
        {"e": event, "w": white, "b": black, "r": result, "rateable": rateable},
    )


def test_a_game_against_oneself_is_refused(session: Session) -> None:
    a, _, event = _players(session)
    with pytest.raises(sa.exc.IntegrityError, match="ck_games_not_against_self"):
        _insert_game(session, a, a, event, "1-0")


def test_an_unknown_result_is_refused(session: Session) -> None:
    a, b, event = _players(session)
    with pytest.raises(sa.exc.IntegrityError, match="ck_games_result"):
        _insert_game(session, a, b, event, "2-0")


def test_a_forfeit_cannot_be_rated(session: Session) -> None:
    a, b, event = _players(session)
    with pytest.raises(sa.exc.IntegrityError, match="ck_games_rateable_only_if_played"):
        _insert_game(session, a, b, event, "+/-", rateable=1)


def test_a_duplicate_fide_id_is_refused(session: Session) -> None:
    _players(session)
    session.add(Player(name="Someone else", fide_id=5000017))
    with pytest.raises(sa.exc.IntegrityError, match=r"UNIQUE constraint failed: players\.fide_id"):
        session.flush()


def test_foreign_keys_are_enforced(session: Session) -> None:
    a, _, event = _players(session)
    with pytest.raises(sa.exc.IntegrityError, match="FOREIGN KEY constraint failed"):
        _insert_game(session, a, 999, event, "1-0")


def test_event_dates_in_order(session: Session) -> None:
    session.add(Event(name="Bad", start_date=dt.date(2025, 2, 1), end_date=dt.date(2025, 1, 1),
                      source="manual"))  # fmt: skip
    with pytest.raises(sa.exc.IntegrityError, match="ck_events_dates_in_order"):
        session.flush()


def test_only_one_settings_row(session: Session) -> None:
    with pytest.raises(sa.exc.IntegrityError, match="ck_settings_single_row"):
        session.execute(
            sa.text(
                "INSERT INTO settings (id, system, expected_method, period_months) "
                "VALUES (2, 'fide', 'table', 1)"
            )
        )


def _breakdown_row(session: Session, **values: object) -> None:
    a, b, event = _players(session)
    _insert_game(session, a, b, event, "1-0", rateable=1)
    session.execute(
        sa.text(
            "INSERT INTO rating_periods (label, start_date, end_date, list_date, status, "
            "rated_at) VALUES ('2025-01', '2025-01-01', '2025-01-31', '2025-02-01', "
            "'published', '2025-02-01 00:00:00.000000')"
        )
    )
    # a win at even ratings: S 2 half points, PD .50, dR +.50 (hundredths)
    row: dict[str, object] = {
        "own_rating": 2000,
        "difference": 0,
        "score_half_points": 2,
        "pd_units": 50,
        "dr_units": 50,
        "units_per_point": 100,
        "k_used": 20,
        "counts_for": "change",
    }
    row |= values
    session.execute(
        sa.text(
            "INSERT INTO rating_breakdown (period_id, game_id, player_id, opponent_id, "
            "opponent_rating, own_rating, difference, score_half_points, pd_units, dr_units, "
            "units_per_point, k_used, counts_for) VALUES (1, 1, :a, :b, 2000, :own_rating, "
            ":difference, :score_half_points, :pd_units, :dr_units, :units_per_point, :k_used, "
            ":counts_for)"
        ),
        {"a": a, "b": b, **row},
    )


@pytest.mark.parametrize(
    ("values", "constraint"),
    [
        ({}, None),
        ({"dr_units": 49}, "ck_rating_breakdown_dr_is_score_minus_pd"),
        ({"k_used": None}, "ck_rating_breakdown_dr_is_score_minus_pd"),
        ({"counts_for": "first_rating"}, "ck_rating_breakdown_dr_is_score_minus_pd"),
        ({"counts_for": "first_rating", "own_rating": None, "difference": None,
          "pd_units": None, "dr_units": None, "k_used": None}, None),
        ({"counts_for": "pooled"}, "ck_rating_breakdown_counts_for"),
        ({"score_half_points": 3, "dr_units": 100}, "ck_rating_breakdown_score_half_points"),
        ({"units_per_point": 10000, "pd_units": 5000, "dr_units": 5000},
         "ck_rating_breakdown_units_per_point"),
    ],
)  # fmt: skip
def test_breakdown_rows_are_checked(
    session: Session, values: dict[str, object], constraint: str | None
) -> None:
    """A rated game's line needs own rating, D, PD, dR and K with dR = S - PD in the row's
    unit; a line towards a first rating has none of them (``counts_for``)."""
    if constraint is None:
        _breakdown_row(session, **values)
        return
    with pytest.raises(sa.exc.IntegrityError, match=constraint):
        _breakdown_row(session, **values)


def test_the_partial_index_on_imports_is_partial_on_both_backends() -> None:
    """A file's hash is unique among the imports in force on SQLite and PostgreSQL alike; the
    PostgreSQL half is declared apart (so SQLite commands do not load that dialect) and must
    say the same WHERE as the SQLite half."""
    from sqlalchemy.dialects.postgresql.base import PGDialect
    from sqlalchemy.dialects.sqlite.base import SQLiteDialect
    from sqlalchemy.schema import CreateIndex

    from ratings.db import Base
    from ratings.models import declare_postgresql_options

    declare_postgresql_options()
    declare_postgresql_options()  # twice is once
    indexes = Base.metadata.tables["imports"].indexes
    (index,) = [i for i in indexes if i.name == "ix_imports_content_hash"]
    expected = (
        "CREATE UNIQUE INDEX ix_imports_content_hash ON imports (content_hash) "
        "WHERE undone_by IS NULL"
    )
    # PGDialect's __init__ carries no annotations in SQLAlchemy's own types
    for dialect in (SQLiteDialect(), PGDialect()):  # type: ignore[no-untyped-call]
        assert str(CreateIndex(index).compile(dialect=dialect)) == expected
