"""``ratings unrate --from YYYY-MM``: rated periods withdrawn, newest
first, their published values kept in ``superseded_ratings``, the withdrawal on record.

Seen: today 2026-11-30, a game dated 2027-12-01 (a year typo) made ``rate`` publish lists up
to 2027-12; after the date was corrected those lists stayed: no command removed a period.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

import ratings.clock
from ratings import service
from ratings.cli.options import NOT_CONFIRMED
from ratings.errors import PeriodError
from ratings.results import Result
from ratings.service.rating import unrate
from ratings.service.shared import audit
from tests.support import Club, invoke

TODAY = dt.date(2026, 11, 30)


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """Games in September and October 2026, and one dated 2027-01-05 by mistake, rated
    through 2027-01 (five lists, 2026-09 .. 2027-01)."""
    club = Club(tmp_path / "club.db", "--system", "club")
    for name in ("Ann", "Bob", "Cat"):
        club.player(name, "--rating", "1800", "--games", "40")
    club.game("Ann", "Bob", "1-0", "2026-09-10")
    club.game("Bob", "Cat", "1-0", "2026-10-10")
    club.game("Cat", "Ann", "1-0", "2027-01-05", "--allow-future")
    club.ok("rate", "--through", "2027-01")
    return club


def test_unrate_withdraws_the_periods_a_typo_published(club: Club) -> None:
    assert club.rows("SELECT label FROM rating_periods ORDER BY label") == [
        ("2026-09",), ("2026-10",), ("2026-11",), ("2026-12",), ("2027-01",),
    ]  # fmt: skip
    published = club.rows(
        "SELECT h.player_id, h.rating_after, h.change, h.k_used FROM rating_history h "
        "JOIN rating_periods p ON p.id = h.period_id WHERE p.label = '2027-01' "
        "ORDER BY h.player_id"
    )
    before = club.state()
    code, out, err = invoke(club, "unrate", "--from", "2026-11", input="n\n")
    assert (code, out) == (1, "")
    assert err == (
        "Withdraw 3 rated periods (2027-01 .. 2026-11, newest first)? [y/N]: n\n"
        f"Error: {NOT_CONFIRMED}\n"
    )
    assert club.state() == before

    code, out, err = invoke(club, "unrate", "--from", "2026-11", "--reason", "year typo",
                            input="y\n")  # fmt: skip
    assert code == 0
    assert out == (
        "Withdrew rated period 2027-01 (list of 2027-02-01, 3 entries; 3 kept in "
        "superseded_ratings)\n"
        "Withdrew rated period 2026-12 (list of 2027-01-01, 3 entries; 3 kept in "
        "superseded_ratings)\n"
        "Withdrew rated period 2026-11 (list of 2026-12-01, 3 entries; 3 kept in "
        "superseded_ratings)\n"
    )
    assert club.rows("SELECT label FROM rating_periods ORDER BY label") == [
        ("2026-09",), ("2026-10",),
    ]  # fmt: skip
    # the withdrawn rows, as a re-rate keeps a row it drops
    assert club.rows(
        "SELECT player_id, kind, old_rating, old_change, old_k_used, new_rating, new_change "
        "FROM superseded_ratings WHERE period = '2027-01' AND period_id IS NULL "
        "ORDER BY player_id"
    ) == [(pid, "withdrawn", after, change, k, None, None) for pid, after, change, k in published]
    assert club.rows(
        "SELECT period, field, old_value, new_value, reason FROM corrections "
        "WHERE action = 'unrate' ORDER BY id"
    ) == [
        ("2027-01", "list", "list of 2027-02-01: 3 entries", None, "year typo"),
        ("2026-12", "list", "list of 2027-01-01: 3 entries", None, "year typo"),
        ("2026-11", "list", "list of 2026-12-01: 3 entries", None, "year typo"),
    ]
    assert club.rows("SELECT count(*) FROM rating_history") == [(6,)]  # 2 lists of 3
    # the date corrected, rate stops at the period that has not ended (2026-11)
    club.ok("game", "edit", "3", "--date", "2026-10-20", "--yes")
    club.ok("rate")
    assert club.rows("SELECT label FROM rating_periods ORDER BY label") == [
        ("2026-09",), ("2026-10",),
    ]  # fmt: skip


def test_unrate_refuses_a_period_that_is_not_rated(club: Club) -> None:
    before = club.state()
    assert invoke(club, "unrate", "--from", "2027-02", "--yes") == (
        1, "", "Error: period 2027-02 is not rated (rated: 2026-09 .. 2027-01); nothing was "
        "withdrawn\n",
    )  # fmt: skip
    assert invoke(club, "unrate", "--from", "2026-13", "--yes")[0] == 1
    assert "Traceback" not in invoke(club, "unrate", "--from", "2026-13", "--yes")[2]
    assert invoke(club, "unrate", "--yes")[0] == 2
    assert club.state() == before


def test_unrate_then_rate_publishes_the_same_lists_again(club: Club) -> None:
    lists = "SELECT p.label, h.player_id, h.rating_after FROM rating_history h JOIN " \
        "rating_periods p ON p.id = h.period_id ORDER BY p.label, h.player_id"  # fmt: skip
    before = club.rows(lists)
    invoke(club, "unrate", "--from", "2026-10", "--yes")
    club.ok("rate", "--through", "2027-01")
    assert club.rows(lists) == before


# --- the service ---------------------------------------------------------------------------


def test_unrate_service(session: Session) -> None:
    service.add_player(session, "Ann", rating=1800, games=40)
    service.add_player(session, "Bob", rating=1800, games=40)
    service.add_game(session, "Ann", "Bob", Result.WHITE_WIN, dt.date(2025, 2, 3))
    service.rate(session, through=service.parse_period(session, "2025-03"))
    with pytest.raises(PeriodError, match=r"period 2025-04 is not rated \(rated: 2025-02"):
        unrate.unrate(session, "2025-04")
    done = unrate.unrate(session, "2025-02")
    assert [p.label for p in done.periods] == ["2025-03", "2025-02"]
    assert [(p.entries, p.kept) for p in done.periods] == [(2, 2), (2, 2)]
    with pytest.raises(PeriodError, match="no period is rated"):
        unrate.periods_from(session, "2025-02")
    (line,) = {c.batch for c in audit.entries(session, action=audit.Action.UNRATE)}
    assert line == 1
