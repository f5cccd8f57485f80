"""``game edit`` that changes nothing (seen 2026-11-30 on the demo database): ``game edit 5
--result 0-1`` on a game already 0-1 printed "Changed game 5", marked the rated period 2025-01
for a re-rate ("This touches rated period 2025-01") and logged nothing; ``game edit 5`` with
no option at all printed "Changed game 5" too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import Club, invoke


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db", "--system", "club")
    for name in ("Ann", "Bob"):
        club.player(name, "--rating", "1800", "--games", "40")
    club.game("Ann", "Bob", "0-1", "2025-01-15", "--round", "1")
    club.ok("rate")
    return club


@pytest.mark.parametrize(
    "args",
    [
        ("--result", "0-1"),
        ("--date", "2025-01-15"),
        ("--round", "1"),
        ("--rated",),
        ("--result", "0-1", "--date", "2025-01-15", "--round", "1"),
    ],
)
def test_an_edit_to_the_same_values_changes_and_marks_nothing(
    club: Club, args: tuple[str, ...]
) -> None:
    before = club.state()
    assert invoke(club, "game", "edit", "1", *args, "--reason", "recheck") == (
        0,
        "Game 1 unchanged: it already has these values\n",
        "",
    )
    assert club.state() == before
    assert club.rows("SELECT count(*) FROM corrections") == [(0,)]
    assert club.ok("rate") == "Nothing to rate\n"


def test_an_edit_without_a_change_is_refused(club: Club) -> None:
    before = club.state()
    code, out, err = invoke(club, "game", "edit", "1")
    assert (code, out) == (2, "")
    assert err.endswith(
        "Error: nothing to change: give --result, --date, --round or --rated/--unrated\n"
    )
    assert club.state() == before


def test_a_real_edit_still_marks_and_logs(club: Club) -> None:
    code, out, err = invoke(club, "game", "edit", "1", "--result", "1-0")
    assert (code, out) == (0, "Changed game 1\n  game 1: result 0-1 -> 1-0\n")
    assert err == "This touches rated period 2025-01: 'ratings rate' re-rates from there\n"
    assert club.rows("SELECT field, old_value, new_value FROM corrections") == [
        ("result", "0-1", "1-0")
    ]
