"""Who is on a published list (docs/DESIGN.md#who-is-on-a-list).

Seen: players registered with an entry rating, then a re-rate, added them to every old list
(the 2025-06 list went from 40 to 49 rows) while `rate` reported `0 published ratings
changed`, and the next `publish` rewrote those old pages. Now a player registered after a
list joins from the next one (`players.listed_from`), and a row that a re-rate still adds
to or withdraws from a published list (a game of a new player in an old period, a merge) is
printed and recorded in `superseded_ratings` like a changed rating.
"""

from __future__ import annotations

import datetime as dt
import importlib
from pathlib import Path

import pytest

import ratings.clock
from tests.support import Club

rate_state = importlib.import_module("ratings.service.rating.state")  # reads SKIP_QUIET_PLAYERS
TODAY = dt.date(2025, 6, 10)
PLAYERS = [
    ("Ann", "--rating", "1850", "--games", "40"),
    ("Bob", "--rating", "1700", "--games", "40"),
    ("Cat", "--rating", "2050", "--games", "100"),
    ("Dan", "--rating", "1600", "--games", "100"),
]
GAMES = [
    ("Ann", "Bob", "1-0", "2025-01-05"),
    ("Cat", "Dan", "1/2-1/2", "2025-01-06"),
    ("Bob", "Cat", "0-1", "2025-02-03"),
    ("Dan", "Ann", "1-0", "2025-03-04"),
]


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)


def build(path: Path, *more: str) -> Club:
    """Four players (and ``more``), a game or two a month from January to March 2025, rated."""
    club = Club(path)
    for name, *args in PLAYERS:
        club.player(name, *args)
    for name in more:
        club.player(name)
    for white, black, result, day in GAMES:
        club.game(white, black, result, day)
    assert club.ok("rate") == "Rated 3 periods 2025-01 .. 2025-03 (4 rated games)\n"
    return club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return build(tmp_path / "club.db")


def members(club: Club) -> list[tuple[object, ...]]:
    return club.rows(
        "SELECT rp.label, count(*) FROM rating_history h "
        "JOIN rating_periods rp ON rp.id = h.period_id GROUP BY rp.label ORDER BY rp.label"
    )


def superseded(club: Club) -> list[tuple[object, ...]]:
    return club.rows(
        "SELECT period, player_id, name, kind, old_rating, new_rating, old_change, new_change "
        "FROM superseded_ratings ORDER BY id"
    )


def pages(site: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((site / "lists").glob("*"))}


def test_players_registered_later_join_from_the_next_list(club: Club, tmp_path: Path) -> None:
    site = tmp_path / "site"
    club.ok("publish", str(site))
    published = pages(site)
    club.player("New, Nia", "--rating", "1700", "--games", "40")
    club.player("New, Ned")
    assert club.rows("SELECT name, listed_from FROM players WHERE id > 4 ORDER BY id") == [
        ("New, Nia", "2025-04-01"),
        ("New, Ned", "2025-04-01"),
    ]
    # a correction that re-rates every list and changes nothing on them
    club.ok("game", "edit", "1", "--round", "1")
    assert club.ok("rate") == (
        "Re-rated 3 periods 2025-01 .. 2025-03 after corrections; 0 published ratings changed\n"
    )
    assert members(club) == [("2025-01", 4), ("2025-02", 4), ("2025-03", 4)]
    assert superseded(club) == []
    # the next publish rewrites no old list: nothing changed on them
    club.ok("publish", str(site))
    assert pages(site) == published
    # they join the next list, Nia rated (and active: her first list), Ned unrated
    club.game("New, Nia", "Ann", "1-0", "2025-04-08")
    assert club.ok("rate") == "Rated period 2025-04 (1 rated game)\n"
    assert members(club)[-1] == ("2025-04", 6)
    assert club.rows(
        "SELECT l.name, h.rating_before, h.list_status, h.inactive FROM rating_lists l "
        "JOIN rating_history h ON h.player_id = l.player_id "
        "AND h.period_id = (SELECT id FROM rating_periods WHERE label = l.period) "
        "WHERE l.period = '2025-04' AND substr(l.name, 1, 4) = 'New,' ORDER BY l.name"
    ) == [("New, Ned", None, "unrated", 0), ("New, Nia", 1700, "listed", 0)]


def test_a_row_added_to_a_published_list_is_printed_and_recorded(club: Club) -> None:
    """A player registered now with a game in February (an event reported late) is rated on
    the February list: the rows he adds to the February and March lists are printed and
    kept, with Bob's ratings that the game changed."""
    club.player("Late, Lou", "--rating", "1800", "--games", "50")
    club.game("Late, Lou", "Bob", "1-0", "2025-02-20")
    out = club.ok("rate")
    assert out == (
        "Re-rated 2 periods 2025-02 .. 2025-03 after corrections; 2 published ratings "
        "changed; 1 player added to published lists\n"
        "  2025-02  Bob (id 2): 1692 -> 1685\n"
        "  2025-03  Bob (id 2): 1692 -> 1685\n"
        "  Late, Lou (id 5): added to lists 2025-02 .. 2025-03\n"
    )
    assert members(club) == [("2025-01", 4), ("2025-02", 5), ("2025-03", 5)]
    assert superseded(club) == [
        ("2025-02", 2, "Bob", "changed", 1692, 1685, -2, -9),
        ("2025-02", 5, "Late, Lou", "added", None, 1807, None, 7),
        ("2025-03", 2, "Bob", "changed", 1692, 1685, 0, 0),
        ("2025-03", 5, "Late, Lou", "added", None, 1807, None, 0),
    ]


def test_a_merged_away_player_is_withdrawn_and_recorded(tmp_path: Path) -> None:
    club = build(tmp_path / "club.db", "Dan Twin")
    club.ok("player", "merge", "Dan", "Dan Twin", "--yes")
    out = club.ok("rate")
    assert out == (
        "Re-rated 3 periods 2025-01 .. 2025-03 after corrections; 0 published ratings "
        "changed; 1 player withdrawn from published lists\n"
        "  Dan Twin (id 5): withdrawn from lists 2025-01 .. 2025-03\n"
    )
    assert superseded(club) == [
        (period, 5, "Dan Twin", "withdrawn", None, None, 0, None)
        for period in ("2025-01", "2025-02", "2025-03")
    ]


@pytest.mark.parametrize("skip_quiet", [True, False])
def test_quiet_and_full_reads_list_the_same_players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, skip_quiet: bool
) -> None:
    """The players registered after a list join it the same way whether a re-rate reads
    only the players whose rows can change or every player every period."""
    monkeypatch.setattr(rate_state, "SKIP_QUIET_PLAYERS", skip_quiet)
    club = build(tmp_path / "club.db")
    club.player("New, Nia", "--rating", "1700", "--games", "40")
    club.player("Late, Lou", "--rating", "1800", "--games", "50")
    club.game("Late, Lou", "Bob", "1-0", "2025-02-20")
    club.game("New, Nia", "Ann", "1-0", "2025-04-08")
    club.ok("player", "edit", "Ann", "--games", "45")
    club.ok("rate")
    assert club.rows(
        "SELECT rp.label, h.player_id, h.rating_after, h.list_status, h.last_active "
        "FROM rating_history h JOIN rating_periods rp ON rp.id = h.period_id "
        "WHERE h.player_id > 4 ORDER BY 1, 2"
    ) == [
        ("2025-02", 6, 1807, "listed", "2025-02-01"),
        ("2025-03", 6, 1807, "listed", "2025-02-01"),
        ("2025-04", 5, 1714, "listed", "2025-04-01"),
        ("2025-04", 6, 1807, "listed", "2025-02-01"),
    ]
