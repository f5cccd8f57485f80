"""A rate reads only the players whose list rows can change in a period (a world-sized
month: 45,000 of 600,000 players play in a month). Everything it stores must be what a rate
that reads every registered player every period stores: checked month by month over 16
months with a new year's list, juniors, players turning inactive, players registered and
merged away between rates, and all three lists; and the SQL that picks the players against
the pure rule it mirrors (``rules.changes_without_games``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import migrate, rules, service
from ratings.db import SessionFactory, database_url, make_engine
from ratings.io.csv import read_games_csv, read_players_csv
from ratings.models import ENTRY_COLUMNS, Player, RatingPeriod
from ratings.rules import ListEntry, Period, system_config
from ratings.service.rating import state as rate_state
from ratings.service.shared.sql import to_date
from tests.conftest import PG_URL, new_database
from tests.rating.test_rate_carried_rows import HISTORY
from tests.safety_helpers import bench_generate

START = dt.date(2023, 7, 1)
MONTHS = 16


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    out = tmp_path_factory.mktemp("quiet")
    files = bench_generate().generate(220, 2600, MONTHS, 7, out, START, mixed_lists=True)
    return files.players_csv.read_bytes(), files.games_csv.read_bytes()


def _monthly(
    session: Session, federation: tuple[bytes, bytes], between: Callable[[int], None]
) -> list[tuple[object, ...]]:
    """Import everything, then rate one month at a time (each rate starts from the stored
    list of the month before), calling ``between(month)`` after each."""
    players, games = federation
    service.create_settings(session, system_config("fide"))
    service.import_players(session, read_players_csv(players, "p.csv"), "p.csv", "a" * 64)
    service.import_games(session, read_games_csv(games, "g.csv"), "g.csv", "b" * 64)
    period = Period(START)
    for month in range(MONTHS):
        service.rate(session, through=period)
        between(month)
        period = period.next()
    return [tuple(row) for row in session.execute(sa.text(HISTORY))]


def _changes(session: Session, month: int) -> None:
    """Register players between rates (they get their first rows on the next list), and
    mark one player merged away without a re-rate (a state only SQL makes, but the copy of
    carried rows must leave that player out as a rate of every player does)."""
    if month == 3:
        service.add_player(session, "Newcomer, Rated", rating=1900, games=40)
        service.add_player(session, "Newcomer, Unrated")
        service.add_player(session, "Newcomer, Junior", rating=1700, birth=_birth(2006))
    if month == 9:
        session.flush()
        session.execute(sa.update(Player).where(Player.id == 5).values(merged_into_id=6))


def _birth(year: int) -> service.Birth:
    return service.Birth.from_string(str(year))


_BACKENDS = [
    "sqlite",
    pytest.param(
        "postgres",
        marks=[
            pytest.mark.postgres,
            pytest.mark.slow,  # a year of three lists on PostgreSQL: seconds; .ci/run has a server
            pytest.mark.skipif(not PG_URL, reason="needs RATINGS_TEST_PG_URL"),
        ],
    ),
]
""":data:`tests.conftest.BOTH_BACKENDS`, with PostgreSQL's runs in the slow pass (the loop
keeps its three minutes; .ci/run starts a server before that pass)."""


@pytest.fixture(params=_BACKENDS)
def fresh(
    request: pytest.FixtureRequest, tmp_path: Path, _template_db: Path
) -> Iterator[Callable[[], Session]]:
    """Sessions on new, migrated databases of one backend (SQLite files; PostgreSQL
    databases where RATINGS_TEST_PG_URL is set), one session each; nothing is committed."""
    engines: list[sa.Engine] = []

    def make() -> Session:
        if request.param == "sqlite":
            path = tmp_path / f"quiet{len(engines)}.db"
            shutil.copyfile(_template_db, path)
            url = database_url(str(path))
        else:
            url = new_database()
            migrate.upgrade(url)
        engines.append(make_engine(url))
        return SessionFactory(bind=engines[-1])

    yield make
    for engine in engines:
        engine.dispose()


def test_month_by_month_equals_reading_every_player(
    federation: tuple[bytes, bytes],
    monkeypatch: pytest.MonkeyPatch,
    fresh: Callable[[], Session],
) -> None:
    read: list[int] = []
    players_for = rate_state.ListState._players_for

    def counting(
        state: rate_state.ListState, period: Period, games: Sequence[rules.GameResult]
    ) -> rate_state.PartialState:
        found = players_for(state, period, games)
        read.append(len(found.standings))
        return found

    monkeypatch.setattr(rate_state.ListState, "_players_for", counting)
    with fresh() as session:
        quiet = _monthly(session, federation, lambda month: _changes(session, month))
    monkeypatch.undo()
    assert read  # the partial path ran
    assert min(read) < 220 // 2  # and left most players unread in some months
    monkeypatch.setattr(rate_state, "SKIP_QUIET_PLAYERS", False)
    with fresh() as session:
        everyone = _monthly(session, federation, lambda month: _changes(session, month))
    assert len({row[0] for row in quiet}) == MONTHS
    assert {row[1] for row in quiet} == {"standard", "rapid", "blitz"}
    assert any(row[16] for row in quiet)  # someone turned inactive
    assert len({row[2] for row in quiet}) == 223  # the newcomers are listed
    assert quiet == everyone


def test_the_sql_picks_what_the_rule_names(
    federation: tuple[bytes, bytes], fresh: Callable[[], Session]
) -> None:
    """``ListState._changing`` (SQL) answers the players ``rules.changes_without_games`` names,
    on a list edited to hold every case: FIDE's K dated around the lists, hand-set K=10 flags,
    entry ratings of 2400, juniors across the new year, inactivity, statuses, a merged player
    and a change of the system's unit."""
    with fresh() as session:
        _monthly(session, federation, lambda month: None)
        last = Period(START)
        for _ in range(MONTHS - 1):
            last = last.next()
        previous_id = session.scalar(
            sa.select(RatingPeriod.id).where(RatingPeriod.start_date == last.start)
        )
        assert previous_id is not None
        ids = list(session.scalars(sa.select(Player.id).order_by(Player.id)))
        days = [None, *(_months(last.start, n) for n in range(-3, 4))]
        for n, pid in enumerate(ids):
            session.execute(
                sa.update(Player)
                .where(Player.id == pid)
                .values(
                    fide_k=None if days[n % 8] is None else 40,
                    fide_k_list=days[n % 8],
                    k10=n % 7 == 0,
                    rapid_k10=n % 5 == 0,
                    entry_rating=2450 if n % 11 == 0 else Player.entry_rating,
                    birth_year=None if n % 13 == 0 else 2000 + n % 9,
                    merged_into_id=ids[0] if n == 3 else None,
                )
            )
        config = service.get_config(session)
        for period in (last.next(), Period(dt.date(2024, 12, 1)), Period(dt.date(2025, 1, 1))):
            bounds = rules.carry_bounds(config, period)
            for tc in ("standard", "rapid"):
                rater = rate_state.ListState(session, config, tc)
                found = rater._changing(period, previous_id)
                expected = _named_by_the_rule(session, bounds, previous_id, tc)
                assert found == expected, (period.label, tc)
                assert 0 < len(found) < len(ids)
        # the system now counts in the curve's units: every row (in hundredths) changes
        curve = dataclasses.replace(config, expected=rules.ExpectedMethod.CURVE)
        assert curve.units_per_point != config.units_per_point
        period = last.next()
        bounds = rules.carry_bounds(curve, period)
        for tc in ("standard", "rapid"):
            found = rate_state.ListState(session, curve, tc)._changing(period, previous_id)
            expected = _named_by_the_rule(session, bounds, previous_id, tc)
            assert found == expected, tc
            assert len(found) == len(ids) - 1  # every player but the merged one


def _named_by_the_rule(
    session: Session, bounds: rules.CarryBounds, previous_id: int, tc: str
) -> set[int]:
    rating, _games, k10, _fide_k = (c.key for c in ENTRY_COLUMNS[tc])
    columns = ", ".join(f"h.{c}" for c in ListEntry._fields)
    named = set()
    for row in session.execute(
        sa.text(
            f"SELECT {columns}, p.birth_year, p.{k10}, p.{rating}, p.fide_k_list "
            "FROM rating_history h JOIN players p ON p.id = h.player_id "
            "WHERE h.period_id = :period AND h.time_control = :tc "
            "AND p.merged_into_id IS NULL"
        ),
        {"period": previous_id, "tc": tc},
    ):
        values = list(row[: len(ListEntry._fields)])
        values[-1] = to_date(values[-1])
        birth_year, hand_k10, entry, fide_k_list = row[len(ListEntry._fields) :]
        entry_k10 = bool(hand_k10) or (entry is not None and entry >= rules.K10_MARK)
        listed = ListEntry(*values)
        day = None if fide_k_list is None else to_date(fide_k_list)
        if rules.changes_without_games(bounds, listed, birth_year, entry_k10, day):
            named.add(listed.player_id)
    return named


def _months(day: dt.date, n: int) -> dt.date:
    index = day.month - 1 + n
    return dt.date(day.year + index // 12, index % 12 + 1, 1)
