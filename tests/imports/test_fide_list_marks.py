"""``import fide-list`` marks for a re-rate only the rated periods whose
inputs its changes alter, and says which; a list that changes nothing rated marks nothing."""

from __future__ import annotations

from pathlib import Path

from tests.imports.test_fide_list import foa_list
from tests.support import Club

# FIDE's combined TXT columns: id, name, fed, sex, title, wtitle, otitle, foa, standard
# rating, games, K, rapid..., blitz..., birth year, flag
ADAMS = ("4100100", "Adams, Al", "IRL", "M", "", "", "", "",
         1950, 4, 20, 0, 0, 0, 0, 0, 0, 1975, "")  # fmt: skip
BAKER = ("4100200", "Baker, Bo", "IRL", "M", "IM", "", "", "",
         2440, 4, 10, 0, 0, 0, 0, 0, 0, 1970, "")  # fmt: skip
LATE = ("4100300", "Late, Lu", "IRL", "M", "", "", "", "",
        2380, 4, 10, 0, 0, 0, 0, 0, 0, 1980, "")  # fmt: skip


def _club(path: Path) -> Club:
    club = Club(path)
    club.player("Adams, Al", "--fide-id", "4100100", "--rating", "1900", "--games", "100")
    club.player("Baker, Bo", "--fide-id", "4100200", "--rating", "2450", "--games", "200",
                "--birthdate", "1970")  # fmt: skip
    club.player("Rival", "--rating", "1900", "--games", "100", "--birthdate", "1980")
    return club


def _statuses(club: Club) -> list[tuple[object, ...]]:
    return club.rows("SELECT label, status FROM rating_periods ORDER BY label")


def test_a_december_list_that_changes_nothing_rated_marks_nothing(tmp_path: Path) -> None:
    """The walk that found it: the December list gave a birth year to an adult (K 20 on every
    list either way), the K=10 flag to a player whose 2450 entry rating already made him K 10,
    FIDE's K for December and a title. It marked September for a re-rate of September to
    November that changed nothing; now it marks nothing."""
    club = _club(tmp_path / "club.db")
    for month in ("09", "10", "11"):
        club.game("Adams, Al", "Rival", "1-0", f"2026-{month}-10")
        club.game("Baker, Bo", "Rival", "1/2-1/2", f"2026-{month}-11")
    club.ok("rate")
    december = foa_list(tmp_path / "players_list_foa.txt", ADAMS, BAKER)
    out = club.ok("import", "fide-list", str(december), "--month", "2026-12")
    assert "Player 1 (Adams, Al): birth_year (none) -> 1975\n" in out
    assert "Player 2 (Baker, Bo): k10 false -> true\n" in out
    assert "This touches rated period" not in out
    assert _statuses(club) == [
        ("2026-09", "published"),
        ("2026-10", "published"),
        ("2026-11", "published"),
    ]
    assert club.ok("rate") == "Nothing to rate\n"


def test_only_the_periods_whose_inputs_changed_are_marked(tmp_path: Path) -> None:
    """A player first listed in October whom FIDE's list gives the K=10 flag: K 10 from the
    October list on, so October is marked, not September; a birth year that makes a junior
    of a player listed since September marks September."""
    club = _club(tmp_path / "club.db")
    club.game("Adams, Al", "Rival", "1-0", "2026-09-10")
    club.ok("rate")
    club.player("Late, Lu", "--fide-id", "4100300", "--rating", "2380", "--games", "100",
                "--birthdate", "1980")  # fmt: skip
    club.game("Late, Lu", "Rival", "1-0", "2026-10-10")
    club.game("Late, Lu", "Rival", "1-0", "2026-11-10")
    club.ok("rate")
    assert club.entry("Late, Lu", "2026-10")["k_used"] == 20
    december = foa_list(tmp_path / "players_list_foa.txt", LATE)
    out = club.ok("import", "fide-list", str(december), "--month", "2026-12")
    assert out.endswith("This touches rated period 2026-10: 'ratings rate' re-rates from there\n")
    assert _statuses(club) == [
        ("2026-09", "published"),
        ("2026-10", "needs_rerate"),
        ("2026-11", "published"),
    ]
    assert club.ok("rate").startswith("Re-rated 2 periods 2026-10 .. 2026-11")
    assert club.entry("Late, Lu", "2026-10")["k_used"] == 10
    # a junior now: born 2010, K 40 on the 2026 lists, September's included
    young = ("4100100", "Adams, Al", "IRL", "M", "", "", "", "",
             1950, 4, 40, 0, 0, 0, 0, 0, 0, 2010, "")  # fmt: skip
    january = foa_list(tmp_path / "january.txt", young)
    out = club.ok("import", "fide-list", str(january), "--month", "2027-01")
    assert out.endswith("This touches rated period 2026-09: 'ratings rate' re-rates from there\n")
