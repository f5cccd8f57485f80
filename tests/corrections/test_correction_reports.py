"""What a correcting command says it did: every one (``game edit|void``,
``player edit|merge|unmerge``, ``event edit|void``, ``import undo``, ``unrate``) prints old
-> new for each field it changes, has ``--dry-run`` (which changes nothing and says what it
would do, as the command would say it), and ``This touches rated period P`` names the
earliest period that command touched.

Seen: a merge of a player with only October games said September, because September was
already marked.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import ratings.clock
from tests.support import Club, invoke

TODAY = dt.date(2026, 11, 30)
DRY = "Dry run: nothing was changed"


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """September rated with Ann, Bob and Cat; Dan and his duplicate Dan Twin registered
    after it (they join the lists from October), each with one October game; October
    rated; a games file of a late October event imported (import 1), October re-rated."""
    club = Club(tmp_path / "club.db", "--system", "club")
    for name in ("Ann", "Bob", "Cat"):
        club.player(name, "--rating", "1800", "--games", "40")
    club.game("Ann", "Bob", "1-0", "2026-09-05", "--event", "Sep Open")
    club.game("Bob", "Cat", "1-0", "2026-09-12", "--event", "Sep Open")
    club.ok("rate")
    club.player("Dan", "--rating", "1700", "--games", "40", "--federation", "NED")
    club.player("Dan Twin", "--birthdate", "1990")
    club.game("Dan", "Ann", "0-1", "2026-10-10", "--event", "Oct Cup")
    club.game("Dan Twin", "Cat", "1-0", "2026-10-11", "--event", "Oct Cup")
    club.ok("rate")
    games = tmp_path / "late.csv"
    games.write_text("date,white,black,result,event\n2026-10-28,Ann,Cat,1-0,Late Cup\n",
                     encoding="utf-8")  # fmt: skip
    club.ok("import", "games", str(games))
    club.ok("rate")  # October again, with it
    assert club.rows("SELECT label, status FROM rating_periods ORDER BY label") == [
        ("2026-09", "published"), ("2026-10", "published"),
    ]  # fmt: skip
    return club


def test_a_merge_names_the_period_it_touched_not_an_earlier_marked_one(club: Club) -> None:
    """September is marked by a game edit; the merge of a player with only October games
    touches October, and says so (it said September)."""
    code, out, err = invoke(club, "game", "edit", "1", "--result", "1/2-1/2")
    assert (code, err) == (
        0, "This touches rated period 2026-09: 'ratings rate' re-rates from there\n",
    )  # fmt: skip
    code, out, err = invoke(club, "player", "merge", "Dan", "Dan Twin", "--yes")
    assert code == 0
    assert out == (
        "Merged Dan Twin (id 5) into Dan (id 4): 1 game and 0 byes moved; "
        "'ratings player unmerge 5' undoes it\n"
        "  player 4 (Dan): birth_year (none) -> 1990\n"
        "  player 5 (Dan Twin): merged_into_id (none) -> 4\n"
    )
    assert err == "This touches rated period 2026-10: 'ratings rate' re-rates from there\n"
    code, out, err = invoke(club, "player", "unmerge", "5", "--yes")
    assert (code, err) == (
        0, "This touches rated period 2026-10: 'ratings rate' re-rates from there\n",
    )  # fmt: skip
    # and a period marked already is named again when the command touches it
    code, out, err = invoke(club, "game", "edit", "3", "--result", "1-0")
    assert (code, out) == (0, "Changed game 3\n  game 3: result 0-1 -> 1-0\n")
    assert err == "This touches rated period 2026-10: 'ratings rate' re-rates from there\n"


def test_an_edit_of_a_player_touches_his_first_listed_period(club: Club) -> None:
    """Dan joined the lists in October: his entry data feeds October on, not September."""
    code, out, err = invoke(club, "player", "edit", "Dan", "--rating", "1750")
    assert (code, out) == (
        0, "Changed entry_rating of Dan (id 4)\n  player 4 (Dan): entry_rating 1700 -> 1750\n",
    )  # fmt: skip
    assert err == "This touches rated period 2026-10: 'ratings rate' re-rates from there\n"


def _would(out: str) -> str:
    """A correction's report as its dry run words it."""
    for done, would in (
        ("Changed ", "Would change "), ("Voided event", "Would void event"),
        ("Voided game", "Would void game"), ("Merged ", "Would merge "),
        ("Unmerged ", "Would unmerge "), ("Undid import", "Would undo import"),
        ("Withdrew ", "Would withdraw "), ("Moved ", "Would move "),
        (" moved; ", " would move; "), (" moved back", " would move back"),
        ("byes removed", "byes would be removed"), ("): removed ", "): remove "),
    ):  # fmt: skip
        out = out.replace(done, would)
    return out


def _touch_would(err: str) -> str:
    return err.replace("This touches", "This would touch").replace("re-rates", "would re-rate")


DRY_RUNS = [
    ("game", "edit", "4", "--result", "1/2-1/2"),
    ("game", "edit", "1", "--date", "2026-09-30"),  # moves the event: asks nothing
    ("game", "void", "2"),
    ("player", "edit", "Cat", "--birthdate", "2012-04-01", "--federation", "GER"),
    ("player", "merge", "Dan", "Dan Twin"),
    ("event", "edit", "Sep Open", "--name", "September Open", "--end", "2026-09-20"),
    ("event", "void", "Oct Cup"),
    ("import", "undo", "1"),
    ("unrate", "--from", "2026-10"),
]


@pytest.mark.parametrize("args", DRY_RUNS, ids=lambda args: " ".join(args[:2]))
def test_a_dry_run_changes_nothing_and_says_what_the_command_would(
    club: Club, args: tuple[str, ...]
) -> None:
    before = club.state()
    code, dry, dry_err = invoke(club, *args, "--dry-run")
    assert code == 0, dry_err
    assert club.state() == before
    yes = () if args[:2] == ("player", "edit") else ("--yes",)
    code, out, err = invoke(club, *args, *yes)
    assert code == 0, err
    assert club.state() != before
    assert dry == f"{DRY}\n{_would(out)}"
    assert dry_err == _touch_would(err)
    if args[0] != "unrate":
        assert "This touches rated period 2026-" in err


def test_a_dry_run_of_an_unmerge(club: Club) -> None:
    club.ok("player", "merge", "Dan", "Dan Twin", "--yes")
    before = club.state()
    code, dry, dry_err = invoke(club, "player", "unmerge", "5", "--dry-run")
    assert (code, club.state()) == (0, before)
    code, out, err = invoke(club, "player", "unmerge", "5", "--yes")
    assert code == 0
    assert out == (
        "Unmerged Dan Twin (id 5) from Dan (id 4): 1 game and 0 byes moved back\n"
        "  player 4 (Dan): birth_year 1990 -> (none)\n"
        "  player 5 (Dan Twin): merged_into_id 4 -> (none)\n"
    )
    assert (dry, dry_err) == (f"{DRY}\n{_would(out)}", _touch_would(err))


def test_the_dry_runs_say_old_to_new(club: Club) -> None:
    code, out, err = invoke(club, "game", "edit", "1", "--date", "2026-09-30", "--dry-run")
    assert (code, out) == (0, "\n".join([
        DRY,
        "Would change game 1",
        "  game 1: played_on 2026-09-05 -> 2026-09-30",
        "  event 1 (Sep Open): start_date 2026-09-05 -> 2026-09-12",
        "  event 1 (Sep Open): end_date 2026-09-12 -> 2026-09-30",
        "Would move event 'Sep Open' (id 1): 2026-09-05 .. 2026-09-12 -> 2026-09-12 .. "
        "2026-09-30",
        "",
    ]))  # fmt: skip
    assert err == "This would touch rated period 2026-09: 'ratings rate' would re-rate from there\n"
    code, out, _ = invoke(club, "event", "void", "Oct Cup", "--dry-run")
    assert out == "\n".join([
        DRY,
        "Would void event 2 (Oct Cup): 2 games and 0 byes would be removed",
        "  event 2 Oct Cup (2026-10-10 .. 2026-10-11)",
        "  game 3: 2026-10-10, Dan (id 4) - Ann (id 1) 0-1",
        "  game 4: 2026-10-11, Dan Twin (id 5) - Cat (id 3) 1-0",
        "",
    ])  # fmt: skip
    code, out, err = invoke(club, "unrate", "--from", "2026-10", "--dry-run")
    assert (code, err) == (0, "")
    assert out.startswith(f"{DRY}\nWould withdraw rated period 2026-10 (list of 2026-11-01, ")
