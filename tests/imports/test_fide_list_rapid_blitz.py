"""`ratings import fide-list FILE` fills the rapid and blitz lists too:
each list's published rating as its entry rating for a player no such list here holds yet,
FIDE's K per list (K 10 sets that list's K=10 flag), --add, and a single-list file that
leaves the rapid and blitz fields alone."""

from __future__ import annotations

from pathlib import Path

from tests.imports.test_fide_list import foa_list
from tests.io.test_fide_list import (
    ARRIBAS,
    CARLSEN,
    SINGLE_HEADER,
    SINGLE_WIDTHS,
    line,
    write,
    xml,
    xml_player,
)
from tests.support import Club

LISTS = (
    "SELECT entry_rating, fide_k, k10, rapid_entry_rating, rapid_fide_k, rapid_k10, "
    "blitz_entry_rating, blitz_fide_k, blitz_k10, fide_k_list FROM players "
)
# standard K 20, rapid K 10 (a rapid rating of 2400 once), blitz K 40
MURPHY = ("4100018", "Murphy, Sean", "IRL", "M", "", "", "", "",
          2150, 5, 20, 2350, 7, 10, 1900, 3, 40, 1980, "")  # fmt: skip
# rated on the rapid list only
RAPIDO = ("4100026", "Byrne, Aoife", "IRL", "F", "", "", "", "",
          0, 0, 0, 1700, 9, 40, 0, 0, 0, 2001, "")  # fmt: skip


def _club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db", "--closing-days", "0")
    club.player("Carlsen, M.", "--fide-id", "1503014", "--birthdate", "1990")
    club.player("Arribas, Maritza", "--fide-id", "3501418", "--birthdate", "1971")
    return club


def test_the_combined_txt_list_refreshes_the_three_lists(tmp_path: Path) -> None:
    club = _club(tmp_path)
    club.player("Byrne, Aoife", "--fide-id", "4100026", "--birthdate", "2001", "--blitz-rating",
                "1500")  # fmt: skip
    path = foa_list(tmp_path / "players_list_foa.txt", CARLSEN, ARRIBAS, RAPIDO)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10")
    assert "Player 3 (Byrne, Aoife): rapid_entry_rating (none) -> 1700\n" in out
    # unrated on FIDE's blitz list: the entry rating is FIDE's, as on the standard list
    assert "Player 3 (Byrne, Aoife): blitz_entry_rating 1500 -> (none)\n" in out
    assert club.rows(LISTS + "ORDER BY id") == [
        (2823, 10, 1, 2801, 10, 1, 2860, 10, 1, "2026-10-01"),
        (2235, 20, 0, 2191, 20, 0, 2200, 20, 0, "2026-10-01"),
        # only a rapid K: it dates the list all the same
        (None, None, 0, 1700, 40, 0, None, None, 0, "2026-10-01"),
    ]
    assert club.rows(
        "SELECT field, old_value, new_value FROM corrections WHERE player_id = 2 AND field IN "
        "('rapid_entry_rating', 'rapid_fide_k', 'rapid_k10', 'blitz_entry_rating', "
        "'blitz_fide_k', 'blitz_k10') ORDER BY id"
    ) == [
        ("rapid_entry_rating", None, "2191"),
        ("rapid_fide_k", None, "20"),
        ("blitz_entry_rating", None, "2200"),
        ("blitz_fide_k", None, "20"),
    ]


def test_the_xml_list_refreshes_the_three_lists(tmp_path: Path) -> None:
    club = _club(tmp_path)
    path = tmp_path / "players_list_xml_foa.xml"
    path.write_bytes(xml(xml_player(CARLSEN), xml_player(ARRIBAS)))
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10")
    assert out.splitlines()[-1].endswith("2 registered found by FIDE id, 2 of them updated")
    assert "Player 1 (Carlsen, M.): blitz_k10 false -> true\n" in out
    assert club.rows(LISTS + "ORDER BY id") == [
        (2823, 10, 1, 2801, 10, 1, 2860, 10, 1, "2026-10-01"),
        (2235, 20, 0, 2191, 20, 0, 2200, 20, 0, "2026-10-01"),
    ]


def test_a_player_on_the_rapid_list_here_keeps_its_rapid_rating(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db", "--closing-days", "0")
    club.player("Murphy, Sean", "--fide-id", "4100018", "--rating", "2100", "--games", "100",
                "--rapid-rating", "2000", "--rapid-games", "100",
                "--birthdate", "1980")  # fmt: skip
    club.player("Rival", "--rating", "2000", "--games", "100", "--rapid-rating", "2000",
                "--rapid-games", "100", "--birthdate", "1980")  # fmt: skip
    club.game("Murphy, Sean", "Rival", "1-0", "2026-09-10", "--time-control", "rapid")
    club.ok("rate")
    path = foa_list(tmp_path / "players_list_foa.txt", MURPHY)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10")
    # on the standard and rapid lists here: those ratings stay; no blitz list here: FIDE's
    assert club.rows(LISTS + "WHERE id = 1") == [
        (2100, 20, 0, 2000, 10, 1, 1900, 40, 0, "2026-10-01")
    ]
    assert "rapid_entry_rating" not in out
    assert "Player 1 (Murphy, Sean): blitz_entry_rating (none) -> 1900\n" in out
    # the rapid K=10 flag of a player on the rapid list here: K on every rapid list
    assert "This touches rated period 2026-09: 'ratings rate' re-rates from there" in out
    assert club.rows("SELECT status FROM rating_periods") == [("needs_rerate",)]


def test_a_blitz_k10_off_the_blitz_list_marks_only_the_list_s_period(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db", "--closing-days", "0")
    club.player("Murphy, Sean", "--fide-id", "4100018", "--rating", "2100", "--games", "100",
                "--birthdate", "1980")  # fmt: skip
    club.player("Rival", "--rating", "2000", "--games", "100", "--birthdate", "1980")
    club.game("Murphy, Sean", "Rival", "1-0", "2026-09-10")
    club.ok("rate")
    blitz_k10 = (*MURPHY[:10], 20, 0, 0, 0, 2300, 5, 10, 1980, "")
    path = foa_list(tmp_path / "players_list_foa.txt", blitz_k10)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10")
    assert "Player 1 (Murphy, Sean): blitz_k10 false -> true\n" in out
    assert "This touches" not in out  # no blitz list here; FIDE's K is for 2026-10 on
    assert club.rows("SELECT status FROM rating_periods") == [("published",)]


def test_add_fills_the_three_lists(tmp_path: Path) -> None:
    club = _club(tmp_path)
    path = foa_list(tmp_path / "players_list_foa.txt", CARLSEN, MURPHY, RAPIDO)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10", "--add")
    assert out.splitlines()[-1].endswith(
        "1 registered found by FIDE id, 1 of them updated, 2 players added"
    )
    assert club.rows(
        "SELECT name, entry_games, rapid_entry_games, blitz_entry_games FROM players "
        "WHERE id > 2 ORDER BY id"
    ) == [("Murphy, Sean", None, None, None), ("Byrne, Aoife", None, None, None)]
    assert club.rows(LISTS + "WHERE id > 2 ORDER BY id") == [
        (2150, 20, 0, 2350, 10, 1, 1900, 40, 0, "2026-10-01"),
        (None, None, 0, 1700, 40, 0, None, None, 0, "2026-10-01"),
    ]


def test_a_single_list_file_leaves_rapid_and_blitz_alone(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db")
    club.player("Carlsen, M.", "--fide-id", "1503014", "--rapid-rating", "2700",
                "--blitz-rating", "2750")  # fmt: skip
    single = write(
        tmp_path / "standard_oct26frl.txt",
        SINGLE_HEADER,
        line(SINGLE_WIDTHS, *CARLSEN[:8], 2823, 0, 10, 1990, ""),
    )
    out = club.ok("import", "fide-list", str(single))
    assert "rapid" not in out
    assert "blitz" not in out
    assert club.rows(LISTS) == [(2823, 10, 1, 2700, None, 0, 2750, None, 0, "2026-10-01")]


def test_a_k_the_newer_list_does_not_give_is_not_carried_to_its_date(tmp_path: Path) -> None:
    """Every FIDE K is dated by the one ``fide_k_list``: FIDE's K is the player's K on the
    list of that date (art. 8.3.3). A combined list of October gives Carlsen a rapid K of 10;
    a standard-only list of November moves the date. The October rapid K must not become
    November's (it would override the K rules there): a K the newer list does not give is
    cleared, and said."""
    club = Club(tmp_path / "club.db", "--closing-days", "0")
    club.player("Carlsen, M.", "--fide-id", "1503014", "--birthdate", "1990")
    october = foa_list(tmp_path / "players_list_foa.txt", CARLSEN)
    club.ok("import", "fide-list", str(october), "--month", "2026-10")
    assert club.rows(LISTS) == [(2823, 10, 1, 2801, 10, 1, 2860, 10, 1, "2026-10-01")]
    single = write(
        tmp_path / "standard_nov26frl.txt",
        SINGLE_HEADER.replace("OCT26", "NOV26"),
        line(SINGLE_WIDTHS, *CARLSEN[:8], 2830, 0, 10, 1990, ""),
    )
    out = club.ok("import", "fide-list", str(single))
    assert "Player 1 (Carlsen, M.): rapid_fide_k 10 -> (none)\n" in out
    assert "Player 1 (Carlsen, M.): blitz_fide_k 10 -> (none)\n" in out
    # the K=10 flags stay (FIDE published K 10 on these lists once: art. 8.3.3, for good)
    assert club.rows(LISTS) == [(2830, 10, 1, 2801, None, 1, 2860, None, 1, "2026-11-01")]
