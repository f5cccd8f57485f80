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
