"""The rules that changed on 1 March 2024 (the rating floor, the first-rating
rule and its 2200 maximum), FIDE's one-time adjustment of the 1 March 2024 list, and the K of
the rapid and blitz lists before the 1 October 2022 list, as dated editions (data, looked up
by the first day of the rating period) through the period engine."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from ratings import rules
from ratings.rules import (
    GameResult,
    InitialMethod,
    ListEntry,
    Period,
    Standing,
    rate_period,
    system_config,
)
from tests.support import Club

FIDE = system_config("fide")
JAN24, FEB24, MAR24 = (Period(dt.date(2024, m, 1)) for m in (1, 2, 3))
D = Decimal


def row(outcome: rules.PeriodOutcome, pid: int) -> ListEntry:
    (found,) = [r for r in outcome.list_rows if r.player_id == pid]
    return found


# --------------------------------------------------------------------------------------------
# The editions are data
# --------------------------------------------------------------------------------------------


def test_the_list_rules_are_a_dated_table() -> None:
    """Art. 7.1.4, 7.2.1 and 8.2 of the regulations effective from 1 July 2017 and 1 January
    2022 (floor 1000, Ru from the rated opponents' average, no maximum) and of 1 March 2024
    (floor 1400, two hypothetical draws against 1800, maximum 2200)."""
    old, new = rules.LIST_RULES
    assert (old.effective_from, old.rating_floor, old.initial_method, old.initial_max) == (
        dt.date(2017, 7, 1), 1000, InitialMethod.PLUS_20, None,
    )  # fmt: skip
    assert (new.effective_from, new.rating_floor, new.initial_method, new.initial_max) == (
        dt.date(2024, 3, 1), 1400, InitialMethod.HYPOTHETICAL_DRAWS, 2200,
    )  # fmt: skip
    assert rules.list_rules_for(dt.date(2024, 2, 1)) is old
    assert rules.list_rules_for(dt.date(2024, 3, 1)) is new
    assert rules.list_rules_for(dt.date(2012, 1, 1)) is old  # older rules are not modelled
    assert (old.fixed_k, new.fixed_k) == (None, None)


def test_the_rapid_and_blitz_k_before_the_1_october_2022_list() -> None:
    """FIDE's rapid and blitz lists used K 20 for every player (the 700 rule aside) until the
    list of 1 October 2022; from it, the K of art. 8.3.3."""
    for tc in ("rapid", "blitz"):
        assert rules.list_rules_for(dt.date(2022, 9, 1), tc).fixed_k == 20
        assert rules.list_rules_for(dt.date(2022, 10, 1), tc).fixed_k is None
        assert rules.list_rules_for(dt.date(2024, 3, 1), tc).rating_floor == 1400
    assert rules.list_rules_for(dt.date(2022, 9, 1)).fixed_k is None  # standard


# --------------------------------------------------------------------------------------------
# The first rating (art. 8.2) of each edition
# --------------------------------------------------------------------------------------------

OLD, NEW = rules.LIST_RULES


def games(opponents: list[int], points: list[str]) -> list[tuple[int, Decimal]]:
    return [(r, D(p)) for r, p in zip(opponents, points, strict=True)]


@pytest.mark.parametrize(
    ("pool", "old_rating", "new_rating"),
    [
        # 4 of 5 against 1600: Ra 1600, 3 half points over 50%, 20 each: 1660; under the
        # 2024 rule Ra (8000 + 3600) / 7 = 1657.14, p 5 / 7 = 71%, dp 158: 1815
        pytest.param(games([1600] * 5, ["1", "1", "1", "1", "0"]), 1660, 1815, id="over-50"),
        # 1 of 5 against 1500: p 20%, dp -240: 1260; 2024: 1585.71, p 2 / 7 = 29%, dp -158
        pytest.param(games([1500] * 5, ["1", "0", "0", "0", "0"]), 1260, 1428, id="under-50"),
        # 3 of 6, Ra 9603 / 6 = 1600.5: Ru = Ra, rounded half up; 2024: 13203 / 8, dp 0
        pytest.param(
            games([1600, 1600, 1600, 1600, 1601, 1602], ["1", "0", "1", "0", "1", "0"]),
            1601,
            1650,
            id="50-percent-rounds-half-up",
        ),
        # 5 of 5 against 2150: no maximum before 2024 (2150 + 20 x 5); 2024: 2200 at most
        pytest.param(games([2150] * 5, ["1"] * 5), 2250, 2200, id="2200-maximum-from-2024"),
    ],
)
def test_first_ratings_by_edition(
    pool: list[tuple[int, Decimal]], old_rating: int, new_rating: int
) -> None:
    old = rules.initial_rating(pool, OLD)
    new = rules.initial_rating(pool, NEW)
    assert old is not None
    assert new is not None
    assert (old.rating, new.rating) == (old_rating, new_rating)
    assert rules.initial_rating(pool) == new  # the edition in force today


def test_the_old_floor_was_1000() -> None:
    """Half a point of 5 against 1100: p 10%, dp -366, Ru 734: not published before 2024 (at
    least 1000, art. 7.1.4 then); 1050 is."""
    low = rules.initial_rating(games([1100] * 5, ["0.5", "0", "0", "0", "0"]), OLD)
    assert low is not None
    assert (low.rating, low.published) == (734, False)
    ok = rules.initial_rating(games([1450] * 5, ["0.5", "0", "0", "0", "0"]), OLD)
    assert ok is not None
    assert (ok.rating, ok.published) == (1084, True)


def test_the_card_explains_the_old_rule() -> None:
    work = rules.explain_first_rating([games([1600] * 5, ["1", "1", "1", "1", "0"])], OLD)
    assert (work.rating_sum, work.points, work.divisor, work.edition) == (8000, D(4), 5, OLD)
    assert work.result is not None
    assert (work.result.ra, work.result.dp, work.result.rating) == (D("1600.00"), 60, 1660)


# --------------------------------------------------------------------------------------------
# FIDE's one-time adjustment of the 1 March 2024 list
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (1000, 1400), (1500, 1700), (1950, 1970), (1997, 1998), (1998, 1999), (1999, 1999),
        (1001, 1401), (1003, 1402), (2000, 2000), (2450, 2450),
    ],
)  # fmt: skip
def test_the_adjustment(before: int, after: int) -> None:
    """R + 0.40 x (2000 - R) below 2000, rounded to the nearest whole number (0.4 x an
    integer never ends in .5, so the rounding of halves never arises)."""
    (adjustment,) = rules.RATING_ADJUSTMENTS
    assert adjustment.list_date == dt.date(2024, 3, 1)
    assert adjustment.apply(before) == after


def test_the_adjustment_applies_to_the_list_of_1_march_2024_only() -> None:
    assert rules.adjustment_for(FEB24.start, FEB24.list_date) is not None
    assert rules.adjustment_for(JAN24.start, JAN24.list_date) is None
    assert rules.adjustment_for(MAR24.start, MAR24.list_date) is None
    assert rules.adjustment_for(FEB24.start, FEB24.list_date, "rapid") is None
    quarter = Period(dt.date(2024, 1, 1), 3)  # lists of 1 January and 1 April
    assert rules.adjustment_for(quarter.start, quarter.list_date) is not None


# --------------------------------------------------------------------------------------------
# Through the engine
# --------------------------------------------------------------------------------------------


def test_a_history_across_1_march_2024() -> None:
    """February 2024 is rated under the rules then in force and its list (1 March 2024) is
    adjusted: the change stays K x sum(dR), the rating gets the adjustment on top; a first
    rating by the old rule is adjusted too. March is rated under the 2024 rules."""
    standings = {
        1: Standing(1500, 100, 1980),
        2: Standing(1900, 100, 1980),
        3: Standing(1200, 100, 1980),  # quiet
        4: Standing(2100, 100, 1980),  # quiet, above 2000
        5: Standing(None, 0),  # newcomer
        **{pid: Standing(1600, 100, 1980) for pid in range(6, 11)},
    }
    played = [GameResult(1, 1, FEB24.start, 1, 2, 2)]  # 1500 beats 1900: D -400, +.92
    played += [GameResult(10 + i, 2, FEB24.start, 5, 6 + i, 2 if i < 4 else 0) for i in range(5)]
    out = rate_period(FIDE, FEB24, standings, played, first_events={5: 2})
    # 1500 + 18 = 1518, + round(0.4 x 482 = 192.8) = 1711; 1900 - 18 = 1882 + 47 = 1929
    assert (row(out, 1).rating_before, row(out, 1).change, row(out, 1).rating_after) == (
        1500, 18, 1711,
    )  # fmt: skip
    assert (row(out, 2).change, row(out, 2).rating_after) == (-18, 1929)
    assert (row(out, 3).change, row(out, 3).rating_after, row(out, 3).list_status) == (
        0, 1520, "listed",
    )  # fmt: skip
    assert row(out, 4).rating_after == 2100
    # the old rule: 4 of 5 against 1600, 1660; adjusted, 1660 + 136 = 1796
    assert (row(out, 5).rating_after, row(out, 5).list_status) == (1796, "first_rating")
    assert out.standings[3].rating == 1520
    assert {out.standings[pid].rating for pid in range(6, 11)} == {1760}
    # March: the 2024 rule (4 of 5 against 1760: (8800 + 3600) / 7 + 158 = 1929)
    march = {pid: out.standings[pid] for pid in range(6, 11)} | {11: Standing(None, 0)}
    more = [GameResult(20 + i, 3, MAR24.start, 11, 6 + i, 2 if i < 4 else 0) for i in range(5)]
    out = rate_period(FIDE, MAR24, march, more, first_events={11: 3})
    assert row(out, 11).rating_after == 1929
    assert row(out, 6).rating_after == 1760  # no second adjustment


@pytest.mark.parametrize(("period", "status"), [(JAN24, "listed"), (MAR24, "below_floor")])
def test_the_floor_of_the_period(period: Period, status: str) -> None:
    """1402 v 1800 twice lost: D -398, PD .08, 20 x -.16 = -3: 1399, listed under the floor
    of 1000 (January 2024), unrated under 1400 (March 2024)."""
    standings = {1: Standing(1402, 100), 2: Standing(1800, 100)}
    games_ = [GameResult(1, 1, period.start, 1, 2, 0), GameResult(2, 1, period.start, 2, 1, 2)]
    out = rate_period(FIDE, period, standings, games_)
    assert (row(out, 1).change, row(out, 1).list_status) == (-3, status)


def test_the_rapid_k_of_september_2022() -> None:
    """A junior's rapid game in September 2022: K 20, as for every player then; his next K,
    on the list of 1 October 2022, is art. 8.3.3's 40, and October rates him at 40. The
    standard list of September 2022 already gave him 40."""
    sep, oct_ = Period(dt.date(2022, 9, 1)), Period(dt.date(2022, 10, 1))
    standings = {1: Standing(1800, 100, 2010), 2: Standing(1800, 100, 1980), 3: Standing(1700, 5)}
    first = [GameResult(1, 1, sep.start, 1, 2, 2)]
    out = rate_period(FIDE, sep, standings, first, list_type="rapid")
    assert (row(out, 1).k_used, row(out, 1).change, row(out, 1).next_k) == (20, 10, 40)
    assert (row(out, 3).next_k, row(out, 2).next_k) == (40, 20)  # quiet: the new list's K
    out = rate_period(FIDE, oct_, out.standings, [GameResult(2, 2, oct_.start, 1, 2, 2)],
                      list_type="rapid")  # fmt: skip
    assert row(out, 1).k_used == 40
    out = rate_period(FIDE, sep, standings, first)
    assert row(out, 1).k_used == 40


def test_quiet_players_are_read_where_an_edition_moves_their_rows() -> None:
    """The carry promise (:func:`ratings.rules.changes_without_games`): on the list of 1 March
    2024 every rated player's row may move (the adjustment), on the rapid list of 1 October
    2022 every rated player's next K."""
    assert rules.carry_bounds(FIDE, FEB24).every_rated
    assert not rules.carry_bounds(FIDE, JAN24).every_rated
    assert not rules.carry_bounds(FIDE, FEB24, "rapid").every_rated
    assert rules.carry_bounds(FIDE, Period(dt.date(2022, 9, 1)), "rapid").every_rated
    assert not rules.carry_bounds(FIDE, Period(dt.date(2022, 9, 1))).every_rated
    assert not rules.carry_bounds(system_config("club"), FEB24).every_rated


# --------------------------------------------------------------------------------------------
# Through the commands
# --------------------------------------------------------------------------------------------


def test_a_club_history_across_1_march_2024(tmp_path: Path) -> None:
    """A database rated from January to February 2024, February on its own (so that it reads
    only the players whose rows can change, the SQL twin of the carry promise): the list of
    1 March 2024 raises every rating below 2000, the quiet players' too; a first rating of
    February follows the old rule and is raised too; the card says so."""
    club = Club(tmp_path / "club.db")
    for name, rating in (("Adams", 1500), ("Baker", 1900), ("Quiet", 1200), ("Strong", 2100)):
        club.player(name, "--rating", str(rating), "--games", "100", "--birthdate", "1980")
    for i in range(1, 6):
        club.player(f"Opp {i}", "--rating", "1600", "--games", "100", "--birthdate", "1980")
    club.player("New")
    club.game("Adams", "Baker", "1-0", "2024-01-10")
    club.ok("rate", "--through", "2024-01")
    # 1882 v 1518: D 364, PD .90; Baker +2, Adams -2
    club.game("Baker", "Adams", "1-0", "2024-02-10")
    for i in range(1, 6):
        club.game("New", f"Opp {i}", "1-0" if i < 5 else "0-1", f"2024-02-1{i}", "--event", "Feb")
    club.ok("rate")
    feb = {name: club.entry(name, "2024-02") for name in ("Adams", "Baker", "Quiet", "Strong")}
    assert [(e["rating_before"], e["change"], e["rating"]) for e in feb.values()] == [
        (1518, -2, 1516 + 194),  # 0.4 x 484 = 193.6
        (1882, 2, 1884 + 46),  # 0.4 x 116 = 46.4
        (1200, 0, 1520),
        (2100, 0, 2100),
    ]
    assert club.entry("Opp 1", "2024-02")["rating"] == 1760
    assert club.entry("New", "2024-02")["rating"] == 1796
    card = club.ok("card", "New", "--period", "2024-02").splitlines()
    assert card[-6:] == [
        "  5 game(s) against rated opponents "
        "(fide 2017-07 and 2022-01: floor 1000, Ra + 20 a half point over 50%)",
        "  Ra = 8000 / 5 = 1600.00",
        "  4 of 5: 3 half point(s) over 50%, 20 each: +60",
        "  Ru = Ra + dp = 1660",
        "FIDE's one-time adjustment of the list of 1 March 2024 (below 2000: + 2/5 x "
        "(2000 - R)): 1660 -> 1796",
        "New rating: 1796 (first_rating)",
    ]
    quiet = club.ok("card", "Quiet", "--period", "2024-02").splitlines()
    assert quiet[-2:] == [
        "FIDE's one-time adjustment of the list of 1 March 2024 (below 2000: + 2/5 x "
        "(2000 - R)): 1200 -> 1520",
        "New rating: 1520 (listed)",
    ]
    assert club.ok("rate") == "Nothing to rate\n"
