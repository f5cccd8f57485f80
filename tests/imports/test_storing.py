"""The import services called directly: what every import shares
(:mod:`ratings.service.imports.storing`), the TRF and CSV imports on top of it, the TRF reader's
record lines, and the number of periods ``rate`` announces."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import service
from ratings.errors import DuplicateImportError, InputFileError
from ratings.io.trf import parse_trf
from ratings.models import Event, Game, Import
from ratings.results import Result
from ratings.rules import Period
from ratings.service.imports import storing
from ratings.service.imports.games import import_games
from ratings.service.imports.trf import import_trf
from ratings.service.rating import marks
from tests.support import game_row, players, trf_file, trf_game

JAN = dt.date(2025, 1, 10)


def test_an_import_is_recorded_once_by_its_bytes(session: Session) -> None:
    digest = storing.content_hash(b"data")
    assert digest == storing.content_hash(b"data") != storing.content_hash(b"other")
    storing.check_not_imported(session, digest, "a.csv")
    import_id = storing.record_import(session, "games_csv", "a.csv", digest, 3)
    assert session.get_one(Import, import_id).rows == 3
    with pytest.raises(DuplicateImportError, match=r"^b\.csv: this file was already imported"):
        storing.check_not_imported(session, digest, "b.csv")


def test_insert_events_returns_their_ids_in_order(session: Session) -> None:
    import_id = storing.record_import(session, "pgn", "e.pgn", "x" * 64, 0)
    ids = storing.insert_events(
        session, [("B", JAN, JAN), ("A", JAN, JAN + dt.timedelta(days=1))], "pgn", import_id
    )
    one = storing.insert_event(session, "C", JAN, JAN, "pgn", import_id)
    names = [session.get_one(Event, i).name for i in [*ids, one]]
    assert names == ["B", "A", "C"]


def test_first_rated_day_is_the_start_of_a_long_event() -> None:
    assert storing.first_rated_day(JAN, JAN + dt.timedelta(days=5)) == JAN + dt.timedelta(days=5)
    assert storing.first_rated_day(JAN, JAN + dt.timedelta(days=120)) == JAN


def test_mark_touched_marks_the_oldest_rated_period_only(session: Session) -> None:
    assert storing.mark_touched(session, [JAN]) is None  # nothing rated yet
    a, b = players(session, "Ann", "Bob")
    service.add_game(session, a.name, b.name, Result.DRAW, JAN)
    service.add_game(session, a.name, b.name, Result.DRAW, dt.date(2025, 2, 10))
    service.rate(session, through=Period.from_string("2025-02"))
    assert marks.history_error(session, dt.date(2024, 12, 31)) is None  # rated in 2025-01
    assert marks.history_error(session, dt.date(2024, 12, 28)) == (
        "2024-12-28 is rated in period 2024-12, before the oldest rated period 2025-01; the "
        "rating history it needs does not exist: withdraw the rated lists first ('ratings "
        "unrate --from 2025-01'), then 'ratings rate' rates again from 2024-12"
    )
    assert marks.history_error(session, JAN) is None
    assert storing.mark_touched(session, [dt.date(2025, 2, 3), JAN]) == "2025-01"
    assert storing.mark_touched(session, []) is None


def test_rate_announces_the_number_of_periods_before_rating(session: Session) -> None:
    a, b = players(session, "Ann", "Bob")
    for month in (1, 2, 3):
        service.add_game(session, a.name, b.name, Result.WHITE_WIN, dt.date(2025, month, 9))
    calls: list[object] = []
    report = service.rate(
        session,
        through=Period.from_string("2025-03"),
        planned=calls.append,
        progress=lambda period: calls.append(period.label),
    )
    assert calls == [3, "2025-01", "2025-02", "2025-03"]
    assert report.rated == ("2025-01", "2025-02", "2025-03")
    calls.clear()
    service.rate(session, through=Period.from_string("2025-03"), planned=calls.append)
    assert calls == [0]


def test_the_trf_reader_carries_the_lines_of_the_date_records() -> None:
    data = trf_file(["Ann", "Bob"], [trf_game(1, 1, 2)])
    lines = data.decode().splitlines()
    parsed = parse_trf(b"\r\n".join(x.encode() for x in ["", *lines]), "t.trf")
    assert parsed.record_lines == {"042": 3, "052": 4}
    no_start = parse_trf(trf_file(["Ann", "Bob"], [trf_game(1, 1, 2)], start=None), "t.trf")
    assert no_start.record_lines == {"052": 2}  # no 042 line written


def test_import_trf_names_the_line_of_a_bad_end_date(session: Session) -> None:
    data = trf_file(
        ["Ann", "Bob"], [trf_game(1, 1, 2)], start=dt.date(2025, 1, 5), end=dt.date(2025, 1, 4)
    )
    with pytest.raises(InputFileError) as caught:
        import_trf(session, b"\n" + data, "cup.trf")
    assert (caught.value.line, caught.value.field) == (4, "end date")


def test_import_trf_creates_the_event_its_players_and_games(session: Session) -> None:
    players(session, "Ann")
    data = trf_file(["Ann", "Bob"], [trf_game(1, 1, 2), trf_game(2, 2, 1, Result.DRAW)])
    report = import_trf(session, data, "cup.trf")
    assert [(m.name, m.how) for m in report.players] == [("Ann", "name"), ("Bob", "new")]
    (event,) = report.events
    assert (event.name, event.start_date, event.end_date, event.games) == (
        "Club Cup", dt.date(2025, 1, 4), dt.date(2025, 1, 5), 2,
    )  # fmt: skip
    count = session.scalar(sa.select(sa.func.count()).where(Game.event_id == event.event_id))
    assert count == report.games == 2
    with pytest.raises(DuplicateImportError):
        import_trf(session, data, "again.trf")


def test_import_games_stores_every_row(session: Session) -> None:
    players(session, "Ann", "Bob")
    rows = [
        game_row(2, JAN, "Ann", "Bob", event="Jan Cup", round="1"),
        game_row(3, JAN + dt.timedelta(days=1), "Bob", "Ann", Result.DRAW, "Jan Cup", "2"),
        game_row(4, JAN, "Bob", "Ann"),
    ]
    report = import_games(session, rows, "g.csv", "h" * 64)
    assert (report.games, report.rated_games, report.events_created) == (3, 3, 2)
    assert report.marked_period is None
