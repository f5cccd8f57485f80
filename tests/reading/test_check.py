"""``ratings check``: the README cookbook's check of a period's lists against the breakdown,
as a command. Every change must be K x sum(dR) of the player's games on
that list, rounded once (art. 8.3.4), with one K; a player without games on a list keeps his
rating: no change and no K (the carried rows)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import App, cli
from ratings.service.reading.check import check_lists
from tests.conftest import (
    BOTH_BACKENDS,
    PgDatabase,
    copy_database,
    new_database,
    table_rows,
)
from tests.rating.test_audit import RECOMPUTE
from tests.safety_helpers import bench_generate
from tests.support import invoke

README = Path(__file__).resolve().parents[2] / "README.md"

CLUB = [
    ["init"],
    ["player", "add", "Able, Ann", "--rating", "1800", "--games", "40"],
    ["player", "add", "Baker, Bob", "--rating", "1700", "--games", "10"],
    ["player", "add", "Cole, Cid", "--rating", "1900", "--games", "50"],
    ["player", "add", "Dunn, Dee", "--rating", "2000", "--games", "60"],
    ["player", "add", "Eve, New"],
    ["game", "add", "Able, Ann", "Baker, Bob", "1-0", "--date", "2025-01-10"],
    ["game", "add", "Cole, Cid", "Able, Ann", "1/2-1/2", "--date", "2025-01-12"],
    ["game", "add", "Baker, Bob", "Cole, Cid", "0-1", "--date", "2025-02-05"],
    ["game", "add", "Able, Ann", "Eve, New", "1-0", "--date", "2025-02-06"],
    ["game", "add", "Able, Ann", "Baker, Bob", "0-1", "--date", "2025-02-07"],
    ["game", "add", "Cole, Cid", "Baker, Bob", "1-0", "--date", "2025-02-08",
     "--time-control", "rapid"],
    ["rate"],
]  # fmt: skip
"""Five players, two periods: in 2025-02 Dunn is quiet (a carried row) on the standard
list, Eve (unrated) plays Able, whose game against her counts for nobody's change, and Cole
and Baker play one rapid game (the first rapid list)."""

OK = "agree; every change is K x the sum of dR of its games\n"
FIX = (
    "if the lists or the breakdown were edited by hand, 'ratings rate --mark-from {0}' rates "
    "them again from the stored inputs (the replaced values go to superseded_ratings); if the "
    "games or the register were, report this to whoever edited the database\n"
)


def verdict(n: int, scope: str, first: str) -> str:
    """The error line of a check that found ``n`` differences."""
    what = "1 difference" if n == 1 else f"{n} differences"
    return (
        f"Error: {what} between the published lists of {scope} and a rebuild from the stored "
        f"inputs, from period {first} on: " + FIX.format(first)
    )


@pytest.fixture(scope="module", params=BOTH_BACKENDS)
def club_template(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path | PgDatabase:
    if request.param == "sqlite":
        db: Path | PgDatabase = tmp_path_factory.mktemp("check") / "club.db"
    else:
        db = PgDatabase(new_database())
    for args in CLUB:
        code, out, err = invoke(db, *args)
        assert code == 0, out + err
    return db


@pytest.fixture
def club(club_template: Path | PgDatabase, tmp_path: Path) -> Path | PgDatabase:
    """A copy of the club, for a test that tampers with it."""
    return copy_database(club_template, tmp_path / "club.db")


def tamper(db: Path | PgDatabase, statement: str) -> None:
    """Change list rows as a hand edit in SQL would (one row or more)."""
    app = App(str(db))
    with app.session() as session:
        done = session.connection().exec_driver_sql(statement)
        assert done.rowcount >= 1, statement
    app.close()


def player_row(name: str, period: str, list_type: str = "standard") -> str:
    """SQL selecting the id of one player's list row."""
    return (
        "(SELECT h.id FROM rating_history h JOIN players p ON p.id = h.player_id "
        "JOIN rating_periods rp ON rp.id = h.period_id "
        f"WHERE p.name = '{name}' AND rp.label = '{period}' AND h.time_control = '{list_type}')"
    )


def test_the_newest_period_by_default(club_template: Path | PgDatabase) -> None:
    assert invoke(club_template, "check") == (
        0,
        "Checked period 2025-02 (every list) against a rebuild from the stored inputs: 10 list "
        "rows of 5 players and 7 breakdown rows of 4 games " + OK,
        "",
    )


def test_counts_are_the_list_rows_and_the_rated_games(club_template: Path | PgDatabase) -> None:
    """The counts, read independently: the players on the period's lists, and the games
    that count for someone's rating (Able - Eve counts only for Eve's first rating)."""
    ((players, games),) = table_rows(
        club_template if isinstance(club_template, Path) else str(club_template),
        "SELECT (SELECT count(DISTINCT player_id) FROM rating_history h JOIN rating_periods rp "
        "ON rp.id = h.period_id WHERE rp.label = '2025-02'), (SELECT count(DISTINCT game_id) "
        "FROM rating_breakdown b JOIN rating_periods rp ON rp.id = b.period_id "
        "WHERE rp.label = '2025-02')",
    )
    assert (players, games) == (5, 4)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--period", "2025-01"], "period 2025-01 (every list) against a rebuild from the "
         "stored inputs: 5 list rows of 5 players and 4 breakdown rows of 2 games "),
        (["--period", "2025-02", "--list", "standard"], "period 2025-02 (standard list) against "
         "a rebuild from the stored inputs: 5 list rows of 5 players and 5 breakdown rows of 3 "
         "games "),
        (["--list", "rapid"], "period 2025-02 (rapid list) against a rebuild from the stored "
         "inputs: 5 list rows of 5 players and 2 breakdown rows of 1 game "),
        (["--all"], "2 periods 2025-01 .. 2025-02 (every list) against a rebuild from the "
         "stored inputs: 15 list rows of 5 players and 11 breakdown rows of 6 games "),
        (["--all", "--list", "rapid"], "period 2025-02 (rapid list) against a rebuild from the "
         "stored inputs: 5 list rows of 5 players and 2 breakdown rows of 1 game "),
    ],
)  # fmt: skip
def test_a_period_a_list_and_the_whole_history(
    club_template: Path | PgDatabase, args: list[str], line: str
) -> None:
    assert invoke(club_template, "check", *args) == (0, "Checked " + line + OK, "")


def test_a_change_that_disagrees_is_listed(club: Path | PgDatabase) -> None:
    tamper(
        club,
        f"UPDATE rating_history SET change = 6 WHERE id = {player_row('Cole, Cid', '2025-02')}",
    )
    assert invoke(club, "check") == (
        1,
        "2025-02 Cole, Cid (id 3): change published +6, the games give +5; rating 1902 is not "
        "1897 +6; change +6 with K 20 is not K x the sum of dR of its breakdown (+5 with K 20)\n",
        verdict(1, "period 2025-02 (every list)", "2025-02"),
    )
    assert invoke(club, "check", "--list", "rapid")[0] == 0
    assert invoke(club, "check", "--period", "2025-01")[0] == 0
    assert invoke(club, "check", "--all")[0] == 1


def test_a_k_that_disagrees_is_listed(club: Path | PgDatabase) -> None:
    row = player_row("Baker, Bob", "2025-02", "rapid")
    tamper(club, f"UPDATE rating_history SET k_used = 50 WHERE id = {row}")
    assert invoke(club, "check", "--all") == (
        1,
        "2025-02 rapid list Baker, Bob (id 2): K published 50, the games give 40; change -9 "
        "with K 50 is not K x the sum of dR of its breakdown (-9 with K 40)\n",
        verdict(1, "2 periods 2025-01 .. 2025-02 (every list)", "2025-02"),
    )


def test_two_k_in_one_period_are_listed(club: Path | PgDatabase) -> None:
    """K is one number a period (art. 8.3.3): breakdown rows with two K disagree."""
    tamper(club, "UPDATE rating_breakdown SET k_used = 30 WHERE id = (SELECT min(b.id) FROM "
                 "rating_breakdown b JOIN rating_periods rp ON rp.id = b.period_id "
                 "WHERE rp.label = '2025-01' AND b.player_id = 1)")  # fmt: skip
    assert invoke(club, "check", "--period", "2025-01", "--list", "standard") == (
        1,
        "2025-01 Able, Ann (id 1): the breakdown differs; game 1: K 30 in the breakdown, the "
        "games give 20; change +10 with K 20 is not K x the sum of dR of its breakdown (+10 "
        "with K 20..30)\n",
        verdict(1, "period 2025-01 (standard list)", "2025-01"),
    )


def test_a_carried_row_with_a_change_or_a_k_is_listed(club: Path | PgDatabase) -> None:
    """Dunn played nothing in 2025-02 and Eve nothing in 2025-01: a change or a K on their
    rows has no games behind it."""
    tamper(
        club,
        f"UPDATE rating_history SET change = 4, rating_after = rating_after + 4 "
        f"WHERE id = {player_row('Dunn, Dee', '2025-02')}",
    )
    tamper(
        club,
        f"UPDATE rating_history SET k_used = 20 WHERE id = {player_row('Eve, New', '2025-01')}",
    )
    assert invoke(club, "check", "--all") == (
        1,
        "2025-01 Eve, New (id 5): K published 20, the games give none; K 20 with no game behind "
        "it in the breakdown\n"
        "2025-02 Dunn, Dee (id 4): published 2004, the games give 2000; change +4 with no game "
        "behind it in the breakdown\n",
        verdict(2, "2 periods 2025-01 .. 2025-02 (every list)", "2025-01"),
    )


def test_a_player_whose_list_row_is_missing_is_listed(club: Path | PgDatabase) -> None:
    """Games that counted for a player's change, and no row of his on that list."""
    tamper(club, f"DELETE FROM rating_history WHERE id = {player_row('Able, Ann', '2025-01')}")
    assert invoke(club, "check", "--period", "2025-01") == (
        1,
        "2025-01 Able, Ann (id 1): not on the published list; the inputs give a row; no row on "
        "the list, and 2 game(s) count for a change of +10\n",
        verdict(1, "period 2025-01 (every list)", "2025-01"),
    )


def test_nothing_rated_and_a_period_not_rated(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    assert invoke(db, "init")[0] == 0
    assert invoke(db, "check") == (
        1,
        "",
        "Error: nothing to check: no period has been rated yet; run 'ratings rate'\n",
    )
    assert invoke(db, "check", "--all") == (
        1,
        "",
        "Error: nothing to check: no period has been rated yet; run 'ratings rate'\n",
    )


def test_period_and_all_go_alone(club_template: Path | PgDatabase) -> None:
    code, _, err = invoke(club_template, "check", "--all", "--period", "2025-01")
    assert code == 2
    assert err.splitlines()[-1] == "Error: --all checks every period; give --period or --all"
    code, _, err = invoke(club_template, "check", "--period", "2024-12")
    assert code == 1
    assert err.startswith("Error: period 2024-12 has not been rated")
    assert invoke(club_template, "check", "--period", "2025-01", "--list", "blitz") == (
        1,
        "",
        "Error: period 2025-01 published no blitz list\n",
    )


def test_help_says_the_newest_period_is_the_default(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["check", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "default: the newest rated period" in text
    assert "--all" in text


@pytest.fixture(scope="module")
def three_lists(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six months of a generated federation on three lists (as tests/rating/test_audit.py)."""
    out = tmp_path_factory.mktemp("three")
    files = bench_generate().generate(
        120, 1500, 6, 11, out / "data", dt.date(2025, 1, 1), mixed_lists=True
    )
    db = out / "fed.db"
    for args in (
        ["init"],
        ["import", "players", str(files.players_csv)],
        ["import", "games", str(files.games_csv)],
        ["rate"],
    ):
        code, stdout, err = invoke(db, *args)
        assert code == 0, stdout + err
    return db


def test_a_generated_history_agrees_and_its_games_are_the_rated_ones(three_lists: Path) -> None:
    code, out, err = invoke(three_lists, "check", "--all")
    assert (code, err) == (0, "")
    ((games,),) = table_rows(three_lists, "SELECT count(DISTINCT game_id) FROM rating_breakdown")
    ((players,),) = table_rows(three_lists, "SELECT count(DISTINCT player_id) FROM rating_history")
    ((rows, lines),) = table_rows(
        three_lists,
        "SELECT (SELECT count(*) FROM rating_history), (SELECT count(*) FROM rating_breakdown)",
    )
    assert out == f"Checked 6 periods 2025-01 .. 2025-06 (every list) against a rebuild from " \
        f"the stored inputs: {rows:,} list rows of {players:,} players and {lines:,} breakdown " \
        f"rows of {games:,} games {OK}"  # fmt: skip
    rated = invoke(three_lists, "rate", "--dry-run")  # nothing left: the counts come from rate
    assert rated[1] == "Dry run: nothing was written\nNothing to rate\n"


def test_it_finds_what_the_cookbook_query_finds(three_lists: Path, tmp_path: Path) -> None:
    """On three lists, a wrong change, a wrong K and a change and a K on rows without games:
    the command lists the rows the README's whole-history query returns, in its order."""
    db = copy_database(three_lists, tmp_path / "fed.db")
    assert isinstance(db, Path)
    periods = table_rows(db, "SELECT id FROM rating_periods ORDER BY start_date")
    for statement, (period_id,) in zip(
        [
            "UPDATE rating_history SET change = change - 2 WHERE id = (SELECT min(id) FROM "
            "rating_history WHERE k_used IS NOT NULL AND time_control = 'standard' AND "
            "period_id = {})",
            "UPDATE rating_history SET k_used = k_used + 10 WHERE id = (SELECT max(id) FROM "
            "rating_history WHERE k_used IS NOT NULL AND time_control = 'rapid' AND "
            "period_id = {})",
            "UPDATE rating_history SET change = 3 WHERE id = (SELECT min(id) FROM "
            "rating_history WHERE period_games = 0 AND period_id = {})",
            "UPDATE rating_history SET k_used = 20 WHERE id = (SELECT max(id) FROM "
            "rating_history WHERE period_games = 0 AND period_id = {})",
        ],
        periods[2:6],
        strict=True,
    ):
        assert isinstance(period_id, int)
        tamper(db, statement.format(period_id))
    code, out, err = invoke(db, "sql", RECOMPUTE, "--format", "json")
    assert code == 0, err
    expected = [
        (r["period"], r["list"], r["name"], r["k_used"], r["published"], r["recomputed"])
        for r in json.loads(out)
    ]
    assert len(expected) == 4
    app = App(str(db))
    with app.session(commit=False) as session:
        report = check_lists(session, every_period=True)
    app.close()
    got = [
        (d.period, d.time_control, d.name, d.published_k_used, d.published_change,
         d.recomputed_change)
        for d in report.disagreements
    ]  # fmt: skip
    assert got == expected
    assert invoke(db, "check", "--all")[0] == 1
    for label in ("2025-01", "2025-02"):
        assert invoke(db, "check", "--period", label)[0] == 0


def test_the_monthly_routine_checks_after_rate() -> None:
    """The README's monthly routine runs the check right after `ratings rate`, and no longer
    sends the reader to the cookbook for it."""
    routine = README.read_text(encoding="utf-8").split("## The monthly routine", 1)[1]
    routine = routine.split("\n## ", 1)[0]
    commands = [line.split("#")[0].split() for line in routine.splitlines()]
    names = [c[1] for c in commands if len(c) > 1 and c[0] == "ratings"]
    assert names[names.index("rate") + 1] == "check"
    assert "one-period check" not in routine
