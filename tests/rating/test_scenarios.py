"""End-to-end rating scenarios through the CLI, over several periods (docs/RULES.md)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest

from ratings import service
from ratings.cli import App
from tests import rating_reference as ref
from tests.pools import load_pool, random_pool
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path / "club.db")


def test_junior_k_until_the_end_of_the_year_of_the_18th_birthday(club: Club) -> None:
    club.player("Junior", "--birthdate", "2007-06-01", "--rating", "2000", "--games", "100")
    club.player("Adult", "--birthdate", "1980", "--rating", "2000", "--games", "100")
    club.game("Junior", "Adult", "1-0", "2025-12-05")
    club.game("Junior", "Adult", "1-0", "2026-01-05")
    assert club.ok("rate") == "Rated 2 periods 2025-12 .. 2026-01 (2 rated games)\n"
    dec = club.entry("Junior", "2025-12")
    assert (dec["k_used"], dec["change"], dec["rating"]) == (40, 20, 2020)  # 2025 - 2007 = 18
    jan = club.entry("Junior", "2026-01")
    # 2026 - 2007 = 19: K 20; 2020 v 1990: D 30, PD .54, 20 x .46 = 9.2
    assert (jan["k_used"], jan["change"], jan["rating"]) == (20, 9, 2029)


def test_permanent_k10_after_a_drop_below_2400(club: Club) -> None:
    club.player("Master", "--rating", "2405", "--games", "200")
    club.player("Rival", "--rating", "2405", "--games", "200")
    club.game("Master", "Rival", "0-1", "2025-03-01")
    club.game("Master", "Rival", "0-1", "2025-04-01")
    club.ok("rate")
    march = club.entry("Master", "2025-03")
    assert (march["k_used"], march["rating"]) == (10, 2400)
    # ... and after the fall to 2400 - 5 = 2395, K stays 10
    april = club.entry("Master", "2025-04")
    assert april["k_used"] == 10
    assert april["rating_before"] == 2400
    assert club.ratings()["Master"] == 2395
    assert club.entry("Master", "2025-04")["rating"] == 2395


def test_thirty_game_threshold(club: Club) -> None:
    club.player("Newish", "--rating", "1800", "--games", "29", "--birthdate", "1990")
    club.player("Old", "--rating", "1800", "--games", "500", "--birthdate", "1970")
    club.game("Newish", "Old", "1-0", "2025-01-10")
    club.game("Newish", "Old", "1-0", "2025-02-10")
    club.ok("rate")
    assert club.entry("Newish", "2025-01")["k_used"] == 40  # 29 games before the period
    assert club.entry("Newish", "2025-02")["k_used"] == 20  # 30 games before the period
    csv_out = club.ok("list", "--period", "2025-01", "--format", "csv")
    row = next(r for r in csv.DictReader(io.StringIO(csv_out)) if r["name"] == "Newish")
    assert (row["total_games"], row["next_k"]) == ("30", "20")


def test_700_rule(club: Club) -> None:
    club.player("Busy", "--rating", "1800", "--games", "10")
    club.player("Other", "--rating", "1800", "--games", "100")
    for day in range(1, 19):
        club.game("Busy", "Other", "1/2-1/2", f"2025-05-{day:02d}")
    club.game("Busy", "Other", "1-0", "2025-05-20")  # 19 games
    club.ok("rate")
    entry = club.entry("Busy", "2025-05")
    assert entry["k_used"] == 36  # 40 x 19 > 700: floor(700 / 19) = 36
    assert entry["change"] == 18  # 36 x 0.5


@pytest.mark.parametrize(
    ("start", "change"),
    # 2700 beats 2200 twice, K 10: 2 x (1 - .92) = +1.6 -> +2 with the cap (to Sep 2025);
    # 2 x (1 - .96) = +0.8 -> +1 with the true difference 500 (from 1 Oct 2025, 2650+)
    [("2025-09-30", 2), ("2025-10-01", 1)],
)
def test_exemption_from_the_400_point_rule_by_event_start(
    club: Club, start: str, change: int
) -> None:
    club.player("Elite", "--rating", "2700", "--games", "900")
    club.player("Expert", "--rating", "2200", "--games", "900")
    # the event starts on `start` and ends in October: the rule edition goes by the start
    club.game("Elite", "Expert", "1-0", start, "--event", "Open")
    club.game("Expert", "Elite", "0-1", "2025-10-05", "--event", "Open")
    club.ok("rate")
    entry = club.entry("Elite", "2025-10")
    assert (entry["k_used"], entry["period_games"], entry["change"]) == (10, 2, change)
    # the 2200 player is capped either way: D -400, PD .08, 2 x -.08 x 20 = -3.2 -> -3
    assert club.entry("Expert", "2025-10")["change"] == -3


def test_event_spanning_two_periods_uses_the_list_at_its_start(club: Club, tmp_path: Path) -> None:
    club.player("A", "--rating", "2000", "--games", "100")
    club.player("B", "--rating", "2000", "--games", "100")
    club.player("C", "--rating", "1600", "--games", "100")
    club.game("A", "C", "1-0", "2025-01-05")  # A rises in January
    club.game("A", "B", "1-0", "2025-01-30", "--event", "Weekender")
    club.game("B", "A", "1/2-1/2", "2025-02-01", "--event", "Weekender")
    club.ok("rate")
    jan = club.entry("A", "2025-01")
    assert jan["period_games"] == 1
    feb = club.entry("A", "2025-02")
    assert feb["rating_before"] == jan["rating"]
    assert feb["period_games"] == 2
    rows = club.rows(
        "SELECT b.own_rating, b.opponent_rating FROM rating_breakdown b "
        "JOIN rating_periods p ON p.id = b.period_id WHERE p.label = '2025-02' AND b.player_id = 1",
    )
    assert rows == [(2000, 2000), (2000, 2000)]  # the list of 1 January, not A's new rating


def test_games_against_unrated_opponents_do_not_count(club: Club) -> None:
    club.player("Rated", "--rating", "1900", "--games", "100")
    club.player("Newcomer")
    club.game("Rated", "Newcomer", "0-1", "2025-01-05")
    club.ok("rate")
    entry = club.entry("Rated", "2025-01")
    assert (entry["rating"], entry["change"], entry["period_games"]) == (1900, 0, 0)


def test_initial_rating_spec_example(club: Club) -> None:
    # docs/RULES.md#first-rating-art-82: 1902 1/2, 1877 1/2, 1884 1, 2012 0, 1832 1 -> Ra 1872.43,
    # p .57, dp 50 -> 1922
    club.player("Debutant")
    for name, rating in (("P1", 1902), ("P2", 1877), ("P3", 1884), ("P4", 2012), ("P5", 1832)):
        club.player(name, "--rating", str(rating), "--games", "100")
    club.game("Debutant", "P1", "1/2-1/2", "2025-03-01", "--event", "Open")
    club.game("P2", "Debutant", "1/2-1/2", "2025-03-02", "--event", "Open")
    club.game("Debutant", "P3", "1-0", "2025-03-03", "--event", "Open")
    club.game("P4", "Debutant", "1-0", "2025-03-04", "--event", "Open")
    club.game("Debutant", "P5", "1-0", "2025-03-05", "--event", "Open")
    club.ok("rate")
    entry = club.entry("Debutant", "2025-03")
    status, games = entry["list_status"], entry["period_games"]
    assert (entry["rating"], status, games) == (1922, "first_rating", 5)
    # the rated players' ratings do not move against an unrated opponent
    assert club.entry("P4", "2025-03")["change"] == 0


def test_initial_rating_pools_over_periods_and_drops_a_zero_first_event(club: Club) -> None:
    club.player("Rookie")
    club.player("R", "--rating", "1800", "--games", "100")
    # first event ever: a zero score, disregarded
    club.game("Rookie", "R", "0-1", "2025-01-10", "--event", "First")
    club.game("R", "Rookie", "1-0", "2025-01-11", "--event", "First")
    for day in (10, 11, 12):
        club.game("Rookie", "R", "1/2-1/2", f"2025-02-{day}", "--event", "Second")
    club.ok("rate")
    assert club.entry("Rookie", "2025-02")["list_status"] == "unrated"  # 3 games count so far
    club.game("Rookie", "R", "1/2-1/2", "2025-03-10", "--event", "Third")
    club.game("Rookie", "R", "1/2-1/2", "2025-03-11", "--event", "Third")
    club.ok("rate")
    entry = club.entry("Rookie", "2025-03")
    # five draws against 1800 (the two losses disregarded): Ra 1800, p 50% -> 1800
    assert (entry["rating"], entry["list_status"]) == (1800, "first_rating")


def test_rating_floor(club: Club) -> None:
    club.player("Low", "--rating", "1402", "--games", "100")
    club.player("High", "--rating", "1800", "--games", "100")
    club.game("Low", "High", "0-1", "2025-06-01")
    club.game("High", "Low", "1-0", "2025-06-02")
    club.ok("rate")
    entry = club.entry("Low", "2025-06")
    assert (entry["rating"], entry["list_status"]) == (None, "below_floor")
    assert "Low" not in club.ratings() or club.ratings()["Low"] is None
    listed = json.loads(club.ok("list", "--format", "json"))["players"]
    assert [p["name"] for p in listed] == ["High"]


@pytest.mark.parametrize("apart", [False, True], ids=["one rate", "March rated apart"])
def test_below_the_floor_a_new_pool_starts(club: Club, apart: bool) -> None:
    """A player who fell below the floor starts a new pool: the games that gave him his first
    rating do not count again. Rookie's second first rating, from March's games, is Twin's,
    who played the same games in March and none before. Rated in one run the pools are held
    in memory; March rated apart reads them from the database (and the dates of the lists
    that rated each player)."""
    for n in range(1, 6):
        club.player(f"Mid {n}", "--rating", "1500", "--games", "100")
    club.player("Strong", "--rating", "1800", "--games", "100")
    club.player("Rookie")
    club.player("Twin")
    for n in range(1, 6):  # January: a first rating from five draws
        club.game("Rookie", f"Mid {n}", "1/2-1/2", f"2025-01-{10 + n}", "--event", "Jan")
    for day in range(10, 20):  # February: ten losses, below the floor
        club.game(f"Mid {day % 5 + 1}", "Rookie", "1-0", f"2025-02-{day}", "--event", "Feb")
    if apart:
        club.ok("rate")
    for who in ("Rookie", "Twin"):  # March: the same five games each
        for day in range(10, 15):
            club.game(who, "Strong", "1/2-1/2", f"2025-03-{day}", "--event", f"Mar {who}")
    club.ok("rate")
    assert club.entry("Rookie", "2025-01")["list_status"] == "first_rating"
    assert (
        club.entry("Rookie", "2025-02")["rating"],
        club.entry("Rookie", "2025-02")["list_status"],
    ) == (
        None,
        "below_floor",
    )
    rookie, twin = club.entry("Rookie", "2025-03"), club.entry("Twin", "2025-03")
    assert rookie["list_status"] == twin["list_status"] == "first_rating"
    assert rookie["rating"] == twin["rating"] is not None


def test_elo_system_seed_example(tmp_path: Path) -> None:
    club = Club(tmp_path / "elo.db", "--system", "elo")
    club.player("White", "--rating", "1600")
    club.player("Black", "--rating", "1400")
    club.game("White", "Black", "1-0", "2025-01-01")
    club.ok("rate")
    assert club.ratings() == {"White": 1608, "Black": 1392}


def test_club_system_newcomers_start_at_the_start_rating(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db", "--system", "club")
    club.player("Newcomer")
    club.player("Member", "--rating", "1200", "--games", "100")
    club.game("Newcomer", "Member", "1-0", "2025-01-01")
    club.ok("rate")
    entry = club.entry("Newcomer", "2025-01")
    # 1200 v 1200, K 40 (new player): +20; the member (K 20) loses 10; no floor anywhere
    assert (entry["rating"], entry["list_status"], entry["k_used"]) == (1220, "first_rating", 40)
    assert club.ratings()["Member"] == 1190


def test_periods_without_games_still_publish_a_list(club: Club) -> None:
    club.player("A", "--rating", "1500", "--games", "10")
    club.player("B", "--rating", "1500", "--games", "10")
    club.game("A", "B", "1-0", "2025-01-10")
    club.game("A", "B", "1-0", "2025-04-10")
    assert club.ok("rate") == "Rated 4 periods 2025-01 .. 2025-04 (2 rated games)\n"
    assert club.ratings("2025-02") == club.ratings("2025-03") == club.ratings("2025-01")
    assert club.ok("rate") == "Nothing to rate\n"


def test_rate_through(club: Club) -> None:
    club.player("A", "--rating", "1500", "--games", "10")
    club.player("B", "--rating", "1500", "--games", "10")
    club.game("A", "B", "1-0", "2025-01-10")
    club.game("A", "B", "1-0", "2025-03-10")
    assert club.ok("rate", "--through", "2025-02") == (
        "Rated 2 periods 2025-01 .. 2025-02 (1 rated game)\n"
    )
    assert club.ok("rate") == "Rated period 2025-03 (1 rated game)\n"


def test_preview_writes_nothing(club: Club) -> None:
    club.player("A", "--rating", "1500", "--games", "10")
    club.player("B", "--rating", "1500", "--games", "10")
    club.game("A", "B", "1-0", "2025-01-10")
    before = club.state()
    out = club.ok("preview")
    assert out.splitlines()[0] == "Preview of 2025-01 (list dated 2025-02-01; not saved)"
    assert "A" in out
    assert "1520" in out
    assert club.state() == before


def test_card_shows_the_per_game_breakdown(club: Club) -> None:
    club.player("Ann", "--rating", "1500", "--games", "100")
    club.player("Bob", "--rating", "1900", "--games", "100")
    club.game("Ann", "Bob", "1/2-1/2", "2025-01-10", "--event", "Open")
    club.ok("rate")
    assert club.ok("card", "Ann", "--period", "2025-01") == (
        "Ann (id 1), period 2025-01\n"
        "Rating 1500, K used 20, 1 game(s)\n"
        "date       opponent                    Ropp  Rown   S     D     PD      dR K used    K*dR"
        "\n"
        "2025-01-10 Bob                         1900  1500   ½  -400   0.08   +0.42     20   +8.40"
        "\n"
        "Total: score 0.5, expected 0.08, sum dR +0.42, K x sum = +8.40 -> change +8\n"
        "New rating: 1508 (listed)\n"
    )
    perf = club.ok("performance", "Ann", "--period", "2025-01")
    assert perf == "Ann, period 2025-01: 0.5/1, average opponent 1900, performance (fide) 1900\n"


def test_a_junior_who_reached_2300_loses_the_junior_k(club: Club) -> None:
    club.player("Prodigy", "--birthdate", "2012", "--rating", "2310", "--games", "100")
    club.player("Kid", "--birthdate", "2012", "--rating", "2290", "--games", "100")
    club.player("Coach", "--birthdate", "1970", "--rating", "2300", "--games", "100")
    club.game("Prodigy", "Coach", "1/2-1/2", "2025-01-10")
    club.game("Kid", "Coach", "1/2-1/2", "2025-01-11")
    club.ok("rate")
    assert club.entry("Prodigy", "2025-01")["k_used"] == 20  # published >= 2300: no junior K
    assert club.entry("Kid", "2025-01")["k_used"] == 40


def test_performance_methods_and_event_scope(club: Club) -> None:
    club.player("Ann", "--rating", "1600", "--games", "100")
    club.player("B", "--rating", "1500", "--games", "100")
    club.player("C", "--rating", "1700", "--games", "100")
    club.game("Ann", "B", "1-0", "2025-01-10", "--event", "Spring Open")
    club.game("C", "Ann", "1-0", "2025-01-11", "--event", "Spring Open")
    club.game("Ann", "B", "1/2-1/2", "2025-01-20")
    club.ok("rate")
    # docs/RULES.md#performance-ratings: win v 1500 + loss v 1700 -> 1600
    assert club.ok("performance", "Ann", "--event", "Spring Open") == (
        "Ann, event Spring Open: 1/2, average opponent 1600, performance (fide) 1600\n"
    )
    assert club.ok("performance", "Ann", "--event", "Spring Open", "--method", "own") == (
        "Ann, event Spring Open: 1/2, average opponent 1600, performance (own) 1600\n"
    )
    # the whole period: 1.5 / 3 against 1500, 1700, 1500: Ra 1567, p 50% -> 1567
    assert club.ok("performance", "Ann", "--method", "400") == (
        "Ann, period 2025-01: 1.5/3, average opponent 1567, performance (400) 1567\n"
    )
    assert club.run("performance", "Ann", "--event", "Nope") == (
        1,
        "Error: no event named 'Nope'\n",
    )


def test_rate_through_the_far_future_is_refused(club: Club) -> None:
    club.player("A", "--rating", "1500", "--games", "10")
    club.player("B", "--rating", "1500", "--games", "10")
    club.game("A", "B", "1-0", "2025-01-10")
    before = club.state()
    current = f"{dt.datetime.now(dt.UTC):%Y-%m}"
    assert club.run("rate", "--through", "9999-12") == (
        1,
        f"Error: period 9999-12 is after both the current period {current} and the newest "
        f"game's period; rate at most through {current}\n",
    )
    assert club.state() == before


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_elo_curve_is_rounded_once_per_period(tmp_path: Path, seed: int) -> None:
    """A random 70-player, 20-month pool under the elo system, against the
    reference that sums each player's exact curve expectations and rounds once per period.
    With every E rounded to 4 places first, these pools differed from it in 4, 37 and 10
    list entries (seeds 0, 2, 3; one point each, then carried on)."""
    club = Club(tmp_path / "elo.db", "--system", "elo")
    players, games = random_pool(seed, players=70, months=20, first=dt.date(2024, 1, 1))
    app = App(club.db)
    with app.session() as session:
        load_pool(session, players, games)
        service.rate(session)
    app.close()
    ours = {
        (dt.date.fromisoformat(f"{label}-01"), int(str(pid))): rating
        for label, pid, rating in club.rows(
            "SELECT p.label, h.player_id, h.rating_after FROM rating_history h "
            "JOIN rating_periods p ON p.id = h.period_id"
        )
    }
    system = ref.System("elo", k=32, start_rating=1500, curve=True)
    theirs = {
        (period, pid): entry.rating
        for period, entries in ref.rate_history(system, players, games).items()
        for pid, entry in entries.items()
    }
    assert ours == theirs
