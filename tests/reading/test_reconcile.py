"""``ratings reconcile`` (docs/DESIGN.md#fides-list-explained) on a hand-made FIDE list with
one case of each class: every difference is classed, with its evidence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.imports.test_fide_list import foa_list
from tests.support import Club


def fide(fide_id: int, name: str, rating: int, games: int, k: int) -> tuple[object, ...]:
    """A line of FIDE's combined list: the standard rating, its games and K; nothing else."""
    return (str(fide_id), name, "IRL", "M", "", "", "", "", rating, games, k,
            0, 0, 0, 0, 0, 0, 1980, "")  # fmt: skip


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """January 2026: seven players with FIDE ids (one case of each class, one that agrees,
    one FIDE does not list) and three opponents without."""
    club = Club(tmp_path / "club.db")
    for fide_id, name, rating in (
        (5000001, "Alpha, Games", 2000), (5000002, "Bravo, Ours", 2000),
        (5000003, "Charlie, Start", 2000), (5000004, "Delta, Round", 2450),
        (5000005, "Echo, Kay", 2000), (5000006, "Foxtrot, Odd", 2000),
        (5000007, "Golf, Same", 2000), (5000008, "Hotel, Gone", 2000),
    ):  # fmt: skip
        club.player(name, "--fide-id", str(fide_id), "--rating", str(rating), "--games", "100",
                    "--birthdate", "1980")  # fmt: skip
    club.player("Opp, One", "--rating", "2000", "--games", "100", "--birthdate", "1980")
    club.player("Strong, Sam", "--rating", "2155", "--games", "100", "--birthdate", "1980")
    club.player("Strong, Sue", "--rating", "2155", "--games", "100", "--birthdate", "1980")
    for white, result, event, day in (
        ("Alpha, Games", "1/2-1/2", "Jan Open", "2026-01-10"),
        ("Bravo, Ours", "1/2-1/2", "Jan Open", "2026-01-10"),
        ("Bravo, Ours", "1-0", "Club Ch", "2026-01-20"),
        ("Charlie, Start", "1/2-1/2", "Jan Open", "2026-01-10"),
        ("Echo, Kay", "1-0", "Jan Open", "2026-01-10"),
        ("Foxtrot, Odd", "1-0", "Jan Open", "2026-01-10"),
        ("Golf, Same", "1/2-1/2", "Jan Open", "2026-01-10"),
        ("Hotel, Gone", "1/2-1/2", "Jan Open", "2026-01-10"),
    ):
        club.game(white, "Opp, One", result, day, "--event", event)
    club.game("Delta, Round", "Strong, Sam", "1-0", "2026-01-10", "--event", "Jan Open")
    club.game("Delta, Round", "Strong, Sue", "1-0", "2026-01-20", "--event", "Club Ch")
    club.ok("rate")
    return club


@pytest.fixture
def lists(tmp_path: Path) -> tuple[Path, Path]:
    """FIDE's January list (its ratings before the period, its K for it) and its February
    list, by hand."""
    for month in ("january", "february"):
        (tmp_path / month).mkdir()
    january = foa_list(
        tmp_path / "january" / "players_list_foa.txt",
        fide(5000001, "Alpha, Games", 2000, 0, 20),
        fide(5000002, "Bravo, Ours", 2000, 0, 20),
        fide(5000003, "Charlie, Start", 2010, 0, 20),  # a base FIDE corrected
        fide(5000004, "Delta, Round", 2450, 0, 10),
        fide(5000005, "Echo, Kay", 2000, 0, 40),  # FIDE counts fewer than 30 games
        fide(5000006, "Foxtrot, Odd", 2000, 0, 20),
        fide(5000007, "Golf, Same", 2000, 0, 20),
        fide(5000008, "Hotel, Gone", 2000, 0, 20),
    )
    february = foa_list(
        tmp_path / "february" / "players_list_foa.txt",
        fide(5000001, "Alpha, Games", 2012, 3, 20),  # two more games, elsewhere
        fide(5000002, "Bravo, Ours", 2000, 1, 20),  # the Club Ch not reported
        fide(5000003, "Charlie, Start", 2010, 1, 20),
        fide(5000004, "Delta, Round", 2454, 2, 10),  # +2 and +2, each event rounded
        fide(5000005, "Echo, Kay", 2020, 1, 40),  # K 40: +20
        fide(5000006, "Foxtrot, Odd", 2003, 1, 20),  # +3: no K, no rounding gives it
        fide(5000007, "Golf, Same", 2000, 1, 20),
        fide(9999999, "Not, Registered", 2100, 4, 20),
    )
    return january, february


def test_each_class_with_its_evidence(club: Club, lists: tuple[Path, Path]) -> None:
    january, february = lists
    out = club.ok("reconcile", str(february), "--month", "2026-02", "--previous", str(january))
    assert out == (
        "FIDE's standard list of 2026-02 against ours of 2026-02-01 (period 2026-01): 7 "
        "players with a FIDE id on both, 1 agree, 6 differ; 1 of ours not on FIDE's list\n"
        "\n"
        "class                            players\n"
        "-------------------------------  -------\n"
        "FIDE rated games we do not hold        1\n"
        "we rated games FIDE did not            1\n"
        "a different start rating               1\n"
        "per-event rounding                     1\n"
        "a K difference                         1\n"
        "unexplained                            1\n"
        "\n"
        "Alpha, Games (id 1, FIDE 5000001): ours 2000 (+0, 1 games), FIDE 2012 (+12, 3 "
        "games): FIDE rated games we do not hold: FIDE rated 3 games in the period, we hold "
        "1: 2 rated elsewhere, in an event not in this database\n"
        "Bravo, Ours (id 2, FIDE 5000002): ours 2010 (+10, 2 games), FIDE 2000 (+0, 1 "
        "games): we rated games FIDE did not: we rated 2 games (Jan Open (1 game); Club Ch "
        "(1 game)), FIDE 1: an event not reported to FIDE, or reported to a later list\n"
        "Charlie, Start (id 3, FIDE 5000003): ours 2000 (+0, 1 games), FIDE 2010 (+0, 1 "
        "games): a different start rating: we started from 2000, FIDE from 2010: a base "
        "corrected on one side; the change is the same\n"
        "Delta, Round (id 4, FIDE 5000004): ours 2453 (+3, 2 games), FIDE 2454 (+4, 2 "
        "games): per-event rounding: FIDE's change +4 is each event's change rounded on its "
        "own (+2 +2); ours, the period's K x sum of dR rounded once, +3\n"
        "Echo, Kay (id 5, FIDE 5000005): ours 2010 (+10, 1 games), FIDE 2020 (+20, 1 "
        "games): a K difference: FIDE's change +20 is K 40 x the sum of dR (+0.50), "
        "rounded; we used K 20 (+10)\n"
        "Foxtrot, Odd (id 6, FIDE 5000006): ours 2010 (+10, 1 games), FIDE 2003 (+3, 1 "
        "games): unexplained: our change +10 (K 20, sum of dR +0.50), FIDE's +3, with the "
        "same 1 games\n"
    )


def test_csv_and_json(club: Club, lists: tuple[Path, Path]) -> None:
    january, february = lists
    args = ("reconcile", str(february), "--month", "2026-02", "--previous", str(january))
    doc = json.loads(club.ok(*args, "--format", "json"))
    assert doc["classes"] == {
        "fide_rated_games_we_do_not_hold": 1, "we_rated_games_fide_did_not": 1,
        "different_start_rating": 1, "per_event_rounding": 1, "k_difference": 1,
        "unexplained": 1,
    }  # fmt: skip
    assert (doc["compared"], doc["agree"], doc["not_on_fide_list"]) == (7, 1, 1)
    assert sorted(d["class"] for d in doc["differences"]) == sorted(doc["classes"])
    csv = club.ok(*args, "--format", "csv").splitlines()
    assert csv[0] == (
        "fide_id,player_id,name,rating,change,games,fide_rating,fide_change,fide_games,class,"
        "evidence"
    )
    assert csv[5].startswith('5000005,5,"Echo, Kay",2010,10,1,2020,20,1,k_difference,')


def test_without_the_previous_list(club: Club, lists: tuple[Path, Path]) -> None:
    """FIDE's change is then its rating minus our rating before: the base FIDE corrected
    cannot be told from the rest."""
    _, february = lists
    doc = json.loads(club.ok("reconcile", str(february), "--month", "2026-02", "--format",
                             "json"))  # fmt: skip
    classes = {d["name"]: d["class"] for d in doc["differences"]}
    assert classes["Charlie, Start"] == "unexplained"
    assert classes["Echo, Kay"] == "k_difference"
    assert classes["Delta, Round"] == "per_event_rounding"


@pytest.mark.parametrize(
    ("month", "error"),
    [
        ("2026-03", "Error: no list of ours is dated 2026-03-01: rate the period before it "
         "first ('ratings list --all' shows the lists)\n"),
        ("March", "Error: month must be written yyyy-mm: 'March'\n"),
    ],
)  # fmt: skip
def test_a_month_we_have_no_list_of(
    club: Club, lists: tuple[Path, Path], month: str, error: str
) -> None:
    result = CliRunner().invoke(
        cli, ["--db", club.db, "reconcile", str(lists[1]), "--month", month]
    )
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", error)


def test_a_file_that_is_not_a_fide_list(club: Club, tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("hello\n", "utf-8")
    result = CliRunner().invoke(cli, ["--db", club.db, "reconcile", str(path), "--month",
                                      "2026-02"])  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {path}")
    assert result.stderr.count("\n") == 1


def test_the_readme_example(club: Club, lists: tuple[Path, Path]) -> None:
    january, february = lists
    out = club.ok("reconcile", str(february), "--month", "2026-02", "--previous", str(january))
    readme = (Path(__file__).parents[2] / "README.md").read_text("utf-8")
    section = readme[readme.index("## FIDE's list explained") :]
    example = section.split("```\n$ ratings reconcile", 1)[1].split("```", 1)[0]
    shown = [line for line in example.splitlines()[1:] if line != "..."]
    assert len(shown) == 3
    for line in shown:
        assert line in out.splitlines(), line
