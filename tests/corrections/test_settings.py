"""``ratings settings [KEY VALUE]``: the rating system's settings listed and
changed by a logged command (asks, ``--yes``, ``--dry-run``, old -> new in the corrections
log), which marks for a re-rate the first rated period the change affects and says which."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import Club, run

FIDE_SETTINGS = """\
setting        value  what
-------------  -----  ----------------------------------------------------------------
system         fide   the rating system (fixed by 'ratings init')
period-months  1      months in a rating period (fixed once a period is rated)
closing-days   3      a list closes this many days before its date (art. 7.1.3)
k              fide   one K for every player, or fide: the K of art. 8.3.3
start-rating   fide   the rating newcomers enter at, or fide: first ratings (art. 8.2)
expected       table  expected scores: table (table 8.1.2) or curve
"""


def answering(club: Club, answer: str, *args: str) -> tuple[int, str]:
    """A command run with ``answer`` typed at its question."""
    result = run(club, *args, input=answer)
    return result.exit_code, result.output


def _club(path: Path, *init: str) -> Club:
    club = Club(path, *init)
    for name in ("Ashe, Ann", "Birk, Bo", "Cole, Cy"):
        club.player(name, "--rating", "1900", "--games", "100", "--birthdate", "1980")
    return club


def test_settings_are_listed(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db")
    assert club.ok("settings") == FIDE_SETTINGS
    rows = json.loads(club.ok("settings", "--format", "json"))
    assert {r["setting"]: r["value"] for r in rows} == {
        "system": "fide", "period-months": "1", "closing-days": "3", "k": "fide",
        "start-rating": "fide", "expected": "table",
    }  # fmt: skip
    elo = Club(tmp_path / "elo.db", "--system", "elo")
    assert {r["setting"]: r["value"] for r in json.loads(elo.ok("settings", "--format", "json"))}[
        "start-rating"
    ] == "1500"


def test_closing_days_of_an_upgraded_database(tmp_path: Path) -> None:
    """A database upgraded from before the closing date keeps 0 closing days. Set
    to 3, the event that ended on 30 October goes to the November period: October is the
    first period the change affects (September's events end early in the month), it is
    marked and said, the change is logged, and the re-rate moves the event."""
    club = _club(tmp_path / "club.db", "--closing-days", "0")
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-09-15")
    club.game("Birk, Bo", "Cole, Cy", "1-0", "2026-10-30")
    club.game("Cole, Cy", "Ashe, Ann", "1-0", "2026-11-10")
    club.ok("rate")
    assert club.entry("Birk, Bo", "2026-10")["period_games"] == 1
    assert club.ok("settings", "closing-days", "3", "--yes", "--reason", "FIDE's art. 7.1.3") == (
        "closing-days 0 -> 3\n"
        "This touches rated period 2026-10: 'ratings rate' re-rates from there\n"
    )
    assert club.rows("SELECT label, status FROM rating_periods ORDER BY label") == [
        ("2026-09", "published"),
        ("2026-10", "needs_rerate"),
        ("2026-11", "published"),
    ]
    log = json.loads(club.ok("log", "--format", "json"))
    assert [(x["action"], x["what"], x["field"], x["old"], x["new"], x["reason"]) for x in log] == [
        ("settings_edit", "settings", "closing_days", "0", "3", "FIDE's art. 7.1.3")
    ]
    assert club.ok("rate").startswith("Re-rated 2 periods 2026-10 .. 2026-11")
    assert club.entry("Birk, Bo", "2026-10")["period_games"] == 0
    assert club.entry("Birk, Bo", "2026-11")["period_games"] == 1
    assert "closing-days   3" in club.ok("settings")


def test_dry_run_and_confirmation(tmp_path: Path) -> None:
    club = _club(tmp_path / "club.db", "--closing-days", "0")
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-10-30")
    club.ok("rate")
    before = club.state()
    assert club.ok("settings", "closing-days", "3", "--dry-run") == (
        "closing-days 0 -> 3\n"
        "It would touch rated period 2026-10: 'ratings rate' would re-rate from there\n"
        "Dry run: nothing was changed\n"
    )
    assert club.state() == before
    code, out = answering(club, "n\n", "settings", "closing-days", "3")
    assert (code, out) == (
        1,
        "Change closing-days 0 -> 3? This touches rated period 2026-10. [y/N]: n\n"
        "Error: not confirmed; nothing was changed (--yes confirms without asking)\n",
    )
    assert club.state() == before
    code, out = answering(club, "y\n", "settings", "closing-days", "3")
    assert code == 0
    assert out.endswith(
        "closing-days 0 -> 3\n"
        "This touches rated period 2026-10: 'ratings rate' re-rates from there\n"
    )
    # the same value again: nothing to do, nothing logged
    assert (
        club.ok("settings", "closing-days", "3") == "closing-days is 3 already: nothing changed\n"
    )
    assert len(json.loads(club.ok("log", "--format", "json"))) == 1


def test_a_change_that_touches_no_rated_period(tmp_path: Path) -> None:
    """No event ends in the last days of a month: the closing days change which period
    would rate nothing here; no period is marked, and none is named."""
    club = _club(tmp_path / "club.db", "--closing-days", "0")
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-10-10")
    club.ok("rate")
    assert club.ok("settings", "closing-days", "5", "--yes") == (
        "closing-days 0 -> 5\nNo rated period is affected\n"
    )
    assert club.ok("rate") == "Nothing to rate\n"


def test_k_start_rating_and_expected_of_a_club(tmp_path: Path) -> None:
    """A club database: a fixed K marks the first rated period (every K and next K); the
    start rating the first period in which a newcomer played; the expected-score method the
    first rated period (every PD and dR)."""
    club = _club(tmp_path / "club.db", "--system", "club")
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-09-10")
    club.player("New, Nat")
    club.game("New, Nat", "Cole, Cy", "1-0", "2026-10-10")
    club.ok("rate")
    out = club.ok("settings", "start-rating", "1300", "--yes")
    assert out == (
        "start-rating 1200 -> 1300\n"
        "This touches rated period 2026-10: 'ratings rate' re-rates from there\n"
    )
    club.ok("rate")
    assert club.entry("New, Nat", "2026-10")["rating_before"] is None
    assert club.entry("New, Nat", "2026-10")["rating"] > 1300
    assert club.ok("settings", "k", "24", "--yes") == (
        "k fide -> 24\nThis touches rated period 2026-09: 'ratings rate' re-rates from there\n"
    )
    club.ok("rate")
    assert club.entry("Ashe, Ann", "2026-09")["k_used"] == 24
    assert club.ok("settings", "k", "fide", "--yes").startswith("k 24 -> fide\n")
    assert club.ok("settings", "expected", "curve", "--yes").startswith("expected table -> curve\n")
    club.ok("rate")
    assert club.entry("Ashe, Ann", "2026-09")["k_used"] == 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("system", "club"),
         "the rating system is fixed by 'ratings init': it cannot be changed to 'club'"),
        (("k", "0"), "k must be an integer from 1 to 100, or fide: '0'"),
        (("k", "x"), "k must be an integer from 1 to 100, or fide: 'x'"),
        (("start-rating", "1500"),
         "the fide system computes initial ratings (art. 8.2); a start rating is not allowed: "
         "1500"),
        (("closing-days", "28"), "closing days must be an integer from 0 to 27: 28"),
        (("expected", "logistic"),
         "unknown expected-score method (use table or curve): 'logistic'"),
        (("period-months", "3"),
         "period months cannot change once a period is rated (2026-09 is); 'ratings unrate "
         "--from 2026-09' withdraws the rated periods"),
        (("colour", "blue"),
         "unknown setting 'colour' (use system, period-months, closing-days, k, start-rating "
         "or expected)"),
    ],
)  # fmt: skip
def test_refused_settings(tmp_path: Path, args: tuple[str, str], message: str) -> None:
    club = _club(tmp_path / "club.db")
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-09-10")
    club.ok("rate")
    before = club.state()
    assert club.run("settings", *args, "--yes") == (1, f"Error: {message}\n")
    assert club.state() == before


def test_period_months_before_any_period_is_rated(tmp_path: Path) -> None:
    club = _club(tmp_path / "club.db")
    assert club.ok("settings", "period-months", "3", "--yes") == (
        "period-months 1 -> 3\nNo rated period is affected\n"
    )
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-08-10")
    assert club.ok("rate").startswith("Rated period 2026-07")
