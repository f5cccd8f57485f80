"""The sequences ``tests/rating/test_one_answer.py``'s state machine found, each written out: after
each, the published lists are what a rebuild from the stored inputs gives
(``ratings check --all`` exits 0)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ratings.cli import cli
from ratings.db import database_url, make_engine
from tests.conftest import init_database
from tests.support import ok


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


def test_a_rapid_rating_given_after_the_rapid_list_began_later(tmp_path: Path) -> None:
    """The rapid list began with a newcomer's game in 2025-02; Ann, listed since 2025-01, is
    given a rapid rating: the rapid list starts in 2025-01 (she was rated in rapid from the
    start), so the re-rate starts there, not at her first rapid row."""
    db = init_database(tmp_path / "r.db")
    ok(db, "player", "add", "Ann", "--rating", "1800", "--games", "50")
    ok(db, "player", "add", "Cid", "--rating", "1700", "--games", "50")
    ok(db, "game", "add", "Ann", "Cid", "1-0", "--date", "2025-01-01", "-y")
    ok(db, "rate")
    ok(db, "player", "add", "New")
    ok(db, "game", "add", "New", "Ann", "1/2-1/2", "--date", "2025-02-01", "-y",
       "--time-control", "rapid")  # fmt: skip
    ok(db, "rate")
    edit = CliRunner().invoke(cli, ["--db", db, "player", "edit", "Ann", "--rapid-rating", "1900"])
    assert edit.exit_code == 0, edit.output
    assert "This touches rated period 2025-01" in edit.stderr
    ok(db, "rate")
    check(db)


def test_a_game_moved_after_its_events_given_period_is_refused(tmp_path: Path) -> None:
    """An event given period 2025-03 (a late report) whose game was moved to June ended after
    the period that rated it: its games were rated against the list of its new start, which
    a rebuild does not have yet when it rates 2025-03. Now the move is refused, naming the
    way out."""
    db = two_players(tmp_path)
    (tmp_path / "late.csv").write_text(
        "date,white,black,result,event,round\n"
        '2025-01-10,"Ann","Ben",1-0,Late Open,1\n'
        '2025-01-11,"Ben","Ann",1-0,Late Open,2\n',
        encoding="utf-8",
    )
    ok(db, "import", "games", str(tmp_path / "late.csv"), "--period", "2025-03", "--late-ok")
    ok(db, "rate")
    result = CliRunner().invoke(
        cli, ["--db", db, "game", "edit", "2", "--date", "2025-06-02", "-y"]
    )
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: event 'Late Open' would end on 2025-06-02, after the period it is rated in "
        "(2025-03): give it a later period first ('ratings event edit 1 --period 2025-06'), or "
        "keep its games within 2025-03\n"
    )
    ok(db, "event", "edit", "1", "--period", "2025-06", "--late-ok", "-y")
    ok(db, "game", "edit", "2", "--date", "2025-06-02", "-y")
    ok(db, "rate")
    check(db)


def test_a_void_that_moves_a_leagues_end_keeps_the_other_periods_verified(
    tmp_path: Path,
) -> None:
    """A game's sealed line holds its event's dates: voiding the last game of an event
    longer than 90 days (rated game by game) moved its end, which changed the games of the
    earlier periods it does not re-rate; ``verify`` called that a change outside ratings.
    The corrections log explains it, and the rebuild says the lists are still what their
    games give: a note, not a difference."""
    db = init_database(tmp_path / "r.db")
    for name in ("Ann", "Ben", "Cid"):
        ok(db, "player", "add", name, "--rating", "1800", "--games", "50")
    games = tmp_path / "league.csv"
    games.write_text(
        "date,white,black,result,event,round\n"
        "2025-01-05,Ann,Ben,1-0,League,1\n"
        "2025-06-20,Ben,Cid,1/2-1/2,League,2\n"
        "2025-07-28,Cid,Ann,1/2-1/2,League,3\n",
        encoding="utf-8",
    )
    ok(db, "import", "games", str(games), "-y")
    ok(db, "rate")
    assert ok(db, "verify").startswith("Verified")
    last = ok(db, "sql", "SELECT max(id) FROM games", "--format", "csv").splitlines()[-1]
    out = ok(db, "game", "void", last, "-y")
    assert "end_date 2025-07-28 -> 2025-06-20" in out
    ok(db, "rate")
    result = CliRunner().invoke(cli, ["--db", db, "verify"])
    assert result.exit_code == 0, result.output
    assert "standard list 2025-01 (games): its games changed since it was sealed" in result.output
    check(db)
    # a result flipped by hand after that is still found: the rebuild disagrees
    engine = make_engine(database_url(db))
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE games SET result = '0-1' WHERE id = 1")
    engine.dispose()
    result = CliRunner().invoke(cli, ["--db", db, "verify"])
    assert result.exit_code == 1, result.output
    assert "the rebuild says" in result.output
