"""Which period rates an event, said once (:func:`ratings.rules.event_rating_period`,
:func:`ratings.rules.game_rating_period`) and followed everywhere: the rate's SQL selects the
games the rule names, ``game list --period`` too, the website names the period the rate
rated, and a correction to an event the closing date moved into the rated history is
allowed (docs/RULES.md#which-period-rates-an-event-art-713)."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.cli import App
from ratings.models import Event, Game
from ratings.results import Result
from ratings.rules import Period
from ratings.service.rating.games import GameSelection
from ratings.service.rating.plan import first_game_period, latest_game_period
from ratings.service.reading import browse
from ratings.service.shared.config import get_config
from tests.conftest import init_database
from tests.support import ok


def _events(seed: int, months: int) -> list[tuple[dt.date, dt.date, dt.date | None, list[dt.date]]]:
    """Events around period boundaries: one-day events on the last days of a month, events
    across a month end, leagues over 90 days, events given a later period; each with the
    days of its games."""
    rnd = random.Random(seed)
    found = []
    for _ in range(60):
        year, month = 2025, rnd.randrange(1, 13)
        last = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
        end = dt.date(year, month, rnd.choice([1, 2, 15, last - 3, last - 2, last - 1, last]))
        length = rnd.choice([0, 0, 1, 5, 20, 91, 120])
        start = end - dt.timedelta(days=length)
        given = None
        if rnd.random() < 0.2:
            given = rules.latest_rating_period(end, months).start
        days = sorted({start + dt.timedelta(days=rnd.randrange(length + 1)) for _ in range(3)})
        days[-1] = end
        found.append((start, end, given, days))
    return found


@pytest.mark.parametrize(("closing", "months"), [("0", 1), ("3", 1), ("10", 1), ("3", 3)])
def test_the_rate_and_game_list_select_what_the_rule_names(
    tmp_path: Path, closing: str, months: int
) -> None:
    """The rate's game selection (SQL, by ranges of end dates) and ``game list --period``
    (SQLAlchemy) give, for every period, exactly the games the Python rule names."""
    db = init_database(tmp_path / "p.db", "--closing-days", closing, "--period-months",
                       str(months))  # fmt: skip
    ok(db, "player", "add", "A")
    ok(db, "player", "add", "B")
    app_engine = App(db)
    with app_engine.session() as session:
        for i, (start, end, given, days) in enumerate(_events(int(closing) * 10 + months, months)):
            session.execute(
                sa.insert(Event).values(
                    id=i + 1, name=f"E{i + 1}", start_date=start, end_date=end, source="manual",
                    rating_period=given, time_control="standard",
                )
            )  # fmt: skip
            session.execute(
                sa.insert(Game),
                [
                    {"event_id": i + 1, "played_on": day, "white_id": 1, "black_id": 2,
                     "result": Result.WHITE_WIN, "rateable": True}
                    for day in days
                ],
            )  # fmt: skip
    with app_engine.session(commit=False) as session:
        _compare(session, months)
    app_engine.close()


def _compare(session: Session, months: int) -> None:
    config = get_config(session)
    rows = session.execute(
        sa.select(
            Game.id, Event.start_date, Event.end_date, Event.rating_period, Game.played_on
        ).join(Event, Event.id == Game.event_id)
    )
    by_rule: dict[Period, set[int]] = {}
    for game_id, start, end, given, played in rows:
        period = rules.game_rating_period(config, start, end, given, played)
        by_rule.setdefault(period, set()).add(game_id)
    first = min(by_rule)
    last = max(by_rule)
    # the rate's plan: from the oldest game's period to the newest's
    assert (first_game_period(session, config), latest_game_period(session, config)) == (
        first,
        last,
    )
    selection = GameSelection(session, config)
    selection.find_long_events(first)
    period = first
    checked = 0
    while period <= last:
        expected = by_rule.get(period, set())
        assert {g.game_id for g in selection.games_of(period)} == expected, period.label
        listed = browse.list_games(session, period_label=period.label)
        assert {g.id for g in listed} == expected, period.label
        checked += len(expected)
        period = period.next()
    assert checked == sum(len(v) for v in by_rule.values())


def test_the_site_names_the_period_the_closing_date_moves_an_event_to(tmp_path: Path) -> None:
    """Reproduced first: an event ending 29 September is rated in 2026-10 (FIDE's 3 days),
    but events.html and its page said 2026-09 and linked the September list."""
    db = init_database(tmp_path / "c.db")
    ok(db, "player", "add", "Smith, Ann", "--rating", "1800", "--games", "50")
    ok(db, "player", "add", "Jones, Bob", "--rating", "1700", "--games", "50")
    ok(db, "game", "add", "Smith, Ann", "Jones, Bob", "1/2-1/2", "--date", "2026-09-15",
       "--event", "Sept Rapidplay")  # fmt: skip
    ok(db, "game", "add", "Smith, Ann", "Jones, Bob", "1-0", "--date", "2026-09-29", "--event",
       "Club Ch")  # fmt: skip
    ok(db, "rate")
    events = ok(db, "event", "list")
    assert "Club Ch         2026-09-29  2026-09-29  2026-10" in events
    site = tmp_path / "site"
    ok(db, "publish", str(site))
    assert (
        'in period <a href="../lists/2026-09.html">2026-09</a>.'
        in (site / "events" / "1.html").read_text()
    )
    assert (
        'in period <a href="../lists/2026-10.html">2026-10</a>.'
        in (site / "events" / "2.html").read_text()
    )
    index = (site / "events.html").read_text()
    row = index.split('href="events/2.html"', 1)[1].split("</tr>", 1)[0]
    assert '<a href="lists/2026-10.html">2026-10</a>' in row


def test_an_event_rated_after_september_when_september_was_not_rated(tmp_path: Path) -> None:
    """The page said ``rated in period .`` when the calendar month was not rated at all."""
    db = init_database(tmp_path / "c.db")
    ok(db, "player", "add", "Smith, Ann", "--rating", "1800", "--games", "50")
    ok(db, "player", "add", "Jones, Bob", "--rating", "1700", "--games", "50")
    ok(db, "game", "add", "Smith, Ann", "Jones, Bob", "1-0", "--date", "2026-09-29", "--event",
       "Club Ch")  # fmt: skip
    assert ok(db, "rate") == "Rated period 2026-10 (1 rated game)\n"
    site = tmp_path / "site"
    ok(db, "publish", str(site))
    assert (
        'in period <a href="../lists/2026-10.html">2026-10</a>.'
        in (site / "events" / "1.html").read_text()
    )


def test_such_an_event_can_be_corrected_with_old_to_new_lines(tmp_path: Path) -> None:
    """Reproduced first: ``game edit`` and ``game void`` (with ``--dry-run`` too) refused
    the game ("falls in period 2026-09, before the oldest rated period 2026-10") though the
    rated history holds its period; the advised unrate withdrew every list."""
    db = init_database(tmp_path / "c.db")
    ok(db, "player", "add", "Smith, Ann", "--rating", "1800", "--games", "50")
    ok(db, "player", "add", "Jones, Bob", "--rating", "1700", "--games", "50")
    ok(db, "game", "add", "Smith, Ann", "Jones, Bob", "1-0", "--date", "2026-09-29", "--event",
       "Club Ch")  # fmt: skip
    ok(db, "rate")
    dry = ok(db, "game", "void", "1", "--dry-run")
    assert "Would void game 1" in dry
    out = ok(db, "game", "edit", "1", "--result", "0-1", "-y")
    assert out.startswith("Changed game 1\n  game 1: result 1-0 -> 0-1\n")
    rerate = ok(db, "rate")
    assert rerate.splitlines() == [
        "Re-rated period 2026-10 after corrections; 2 published ratings changed",
        "  2026-10  Jones, Bob (id 2): 1693 -> 1713",
        "  2026-10  Smith, Ann (id 1): 1807 -> 1787",
    ]
    ok(db, "check")


def test_a_league_given_a_period_does_not_start_the_rate_early(tmp_path: Path) -> None:
    """Found by the agreement test above: a league (over 90 days) given a later period is
    rated whole in it, but the plan started the first rate at its first game's month and
    published empty lists before any game was rated."""
    db = init_database(tmp_path / "l.db")
    ok(db, "player", "add", "Ann", "--rating", "1800", "--games", "50")
    ok(db, "player", "add", "Ben", "--rating", "1700", "--games", "50")
    for day in ("2024-10-05", "2025-01-20"):
        ok(db, "game", "add", "Ann", "Ben", "1-0", "--date", day, "--event", "League", "-y",
           "--period", "2025-03", "--late-ok")  # fmt: skip
    assert ok(db, "rate") == "Rated period 2025-03 (2 rated games)\n"
