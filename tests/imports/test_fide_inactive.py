"""FIDE's ``i`` flag on an imported FIDE list (art. 7.2.2: a player who
plays no rated game in a year is inactive until he plays one) is kept: the standard lists here
show the player inactive from that list until his next rated game here, and an import that
flags a player on a list already published marks that period for a re-rate."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from ratings import rules
from ratings.rules import GameResult, Period, Standing, rate_period, system_config
from tests.imports.test_fide_list import foa_list
from tests.support import Club

# FIDE's combined TXT: id, name, fed, sex, title, wtitle, otitle, foa, standard rating,
# games, K, rapid..., blitz..., birth year, flag
IDLE = ("4100400", "Idle, Ida", "IRL", "F", "", "", "", "",
        1850, 0, 20, 0, 0, 0, 0, 0, 0, 1970, "wi")  # fmt: skip
BUSY = ("4100500", "Busy, Ben", "IRL", "M", "", "", "", "",
        1800, 6, 20, 0, 0, 0, 0, 0, 0, 1970, "")  # fmt: skip

FIDE = system_config("fide")
SEP, OCT, NOV = (Period(dt.date(2026, m, 1)) for m in (9, 10, 11))


def flags(club: Club, period: str) -> dict[str, str | None]:
    data = json.loads(club.ok("list", "--all", "--period", period, "--format", "json"))
    return {p["name"]: p["flag"] for p in data["players"]}


def test_fide_s_flag_holds_until_the_next_game_here(tmp_path: Path) -> None:
    """Added from FIDE's September list, flagged inactive there: inactive on the September
    list here (not active for a year, as the lists' own count would have it), active from
    the list after her first game here (October), and then by the lists' own 12 months."""
    club = Club(tmp_path / "club.db")
    path = foa_list(tmp_path / "players_list_foa.txt", IDLE, BUSY)
    club.ok("import", "fide-list", str(path), "--month", "2026-09", "--add")
    assert club.rows("SELECT name, fide_inactive_list FROM players ORDER BY id") == [
        ("Idle, Ida", "2026-09-01"),
        ("Busy, Ben", None),
    ]
    club.player("Rival", "--rating", "1800", "--games", "100")
    for day in ("2026-09-10", "2026-11-10"):
        club.game("Busy, Ben", "Rival", "1-0", day)
    club.game("Idle, Ida", "Rival", "1/2-1/2", "2026-10-10")
    club.ok("rate")
    assert [flags(club, p)["Idle, Ida"] for p in ("2026-09", "2026-10", "2026-11")] == [
        "wi", "w", "w",
    ]  # fmt: skip
    assert flags(club, "2026-09")["Busy, Ben"] is None


def test_an_import_that_flags_a_listed_player_marks_the_period(tmp_path: Path) -> None:
    """A player registered here, on the September and October lists without a game; FIDE's
    November list flags him: October is marked (its list is the one dated 1 November), and
    its re-rate, which reads only the players whose rows can change (September's list is
    stored), lists him inactive. A player who played in October is not touched."""
    club = Club(tmp_path / "club.db")
    club.player("Idle, Ida", "--fide-id", "4100400", "--rating", "1850", "--games", "100",
                "--sex", "f")  # fmt: skip
    club.player("Busy, Ben", "--fide-id", "4100500", "--rating", "1800", "--games", "100")
    club.player("Rival", "--rating", "1800", "--games", "100")
    club.game("Busy, Ben", "Rival", "1-0", "2026-09-10")
    club.game("Busy, Ben", "Rival", "1-0", "2026-10-10")
    club.ok("rate")
    assert flags(club, "2026-10")["Idle, Ida"] == "w"
    idle_busy = (*BUSY[:-1], "i")
    # no K on the list for her: her row is read for the flag alone (not for FIDE's K)
    idle = (*IDLE[:10], "", *IDLE[11:])
    path = foa_list(tmp_path / "players_list_foa.txt", idle, idle_busy)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-11")
    assert "Player 1 (Idle, Ida): fide_inactive_list (none) -> 2026-11-01\n" in out
    assert out.endswith("This touches rated period 2026-10: 'ratings rate' re-rates from there\n")
    assert (
        club.ok("rate")
        == "Re-rated period 2026-10 after corrections; 0 published ratings changed\n"
    )
    assert flags(club, "2026-09") == {"Idle, Ida": "w", "Busy, Ben": None, "Rival": None}
    assert flags(club, "2026-10") == {"Idle, Ida": "wi", "Busy, Ben": None, "Rival": None}
    # the same flag again on the December list: nothing new, nothing marked
    path = foa_list(tmp_path / "december.txt", IDLE)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-12")
    assert "fide_inactive_list" not in out
    assert "This touches" not in out


def test_the_engine_turns_the_flag_on_once() -> None:
    """The flag of the list dated D makes a quiet rated player inactive on the list of the
    period whose list is the first dated D or later (or on his first list); the flag holds on
    later lists while he does not play, and a game ends it for good."""
    date = dt.date
    standings = {
        1: Standing(1850, 100, last_active=SEP.start, fide_inactive=date(2026, 11, 1)),
        2: Standing(1800, 100, last_active=SEP.start),
    }
    out = rate_period(FIDE, SEP, standings, [])
    assert [r.inactive for r in out.list_rows] == [False, False]  # list of 1 October: not yet
    out = rate_period(FIDE, OCT, out.standings, [])
    assert [r.inactive for r in out.list_rows] == [True, False]  # list of 1 November
    out = rate_period(FIDE, NOV, out.standings, [])
    assert [r.inactive for r in out.list_rows] == [True, False]  # kept
    game = [GameResult(1, 1, NOV.next().start, 1, 2, 1)]
    out = rate_period(FIDE, NOV.next(), out.standings, game)
    assert [r.inactive for r in out.list_rows] == [False, False]
    out = rate_period(FIDE, NOV.next().next(), out.standings, [])
    assert [r.inactive for r in out.list_rows] == [False, False]  # a game here ended it
    # the carry promise: the period whose list turns the flag on reads the player
    bounds = rules.carry_bounds(FIDE, OCT)
    quiet = rate_period(FIDE, SEP, {1: Standing(1850, 100, last_active=SEP.start)}, [])
    assert rules.changes_without_games(bounds, quiet.list_rows[0], None, False, None,
                                       date(2026, 11, 1))  # fmt: skip
    assert not rules.changes_without_games(bounds, quiet.list_rows[0], None, False, None,
                                           date(2026, 12, 1))  # fmt: skip
