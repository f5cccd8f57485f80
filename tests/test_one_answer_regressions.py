"""The sequences ``tests/test_one_answer.py``'s state machine found, each written out: after
each, the published lists are what a rebuild from the stored inputs gives
(``ratings check --all`` exits 0)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ratings.cli import cli
from tests.conftest import init_database


def ok(db: str, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def check(db: str) -> None:
    out = ok(db, "check", "--all")
    assert out.startswith("Checked "), out


def two_players(tmp_path: Path) -> str:
    db = init_database(tmp_path / "r.db")
    ok(db, "player", "add", "Ann", "--rating", "1800", "--games", "50")
    ok(db, "player", "add", "Ben", "--rating", "1700", "--games", "50")
    return db


def test_a_rapid_newcomer_joins_the_rapid_list_a_rebuild_gives(tmp_path: Path) -> None:
    """A player registered with a rapid rating after the standard lists began, whose first
    rapid game comes a period after he joins: the incremental rate published the rapid list
    from the period he joins, a rate from scratch (and every re-rate) did not."""
    db = two_players(tmp_path)
    ok(db, "game", "add", "Ann", "Ben", "1-0", "--date", "2025-01-01", "-y")
    ok(db, "rate")
    ok(db, "player", "add", "New", "--rapid-rating", "1600", "--rapid-games", "30")
    ok(db, "game", "add", "New", "Ann", "1/2-1/2", "--date", "2025-03-01", "-y",
       "--time-control", "rapid")  # fmt: skip
    ok(db, "rate")
    check(db)
    listed = ok(db, "list", "--list", "rapid", "--period", "2025-02", "--format", "csv")
    assert "New" in listed


def test_a_rapid_rating_given_to_a_listed_player_publishes_the_rapid_list(
    tmp_path: Path,
) -> None:
    """``player edit --rapid-rating`` for a player of the standard lists marked nothing (he
    had no rapid row to start from), so the rapid list that his rating publishes from his
    first listed period appeared only in a rebuild."""
    db = two_players(tmp_path)
    ok(db, "game", "add", "Ann", "Ben", "1/2-1/2", "--date", "2025-05-31", "-y")
    ok(db, "rate")
    out = ok(db, "player", "edit", "Ann", "--rapid-rating", "1900")
    assert "rapid_entry_rating (none) -> 1900" in out
    assert ok(db, "rate").startswith("Re-rated period 2025-06")
    check(db)


def test_closing_days_changed_with_a_league_stored(tmp_path: Path) -> None:
    """``settings closing-days`` with an event longer than 90 days stored asked SQLAlchemy
    for a column-level DISTINCT, which it warns against (a traceback in the tests' strict
    mode, where warnings are errors)."""
    db = two_players(tmp_path)
    for day in ("2025-01-01", "2025-07-02"):
        ok(db, "game", "add", "Ann", "Ben", "1-0", "--date", day, "--event", "League", "-y")
    ok(db, "rate")
    out = ok(db, "settings", "closing-days", "0", "-y")
    assert "closing-days" in out
    ok(db, "rate")
    check(db)
