"""`ratings import fide-list FILE`: registered players refreshed from FIDE's
list by FIDE id (published rating, FIDE's K, birth year, sex, title, federation), --add,
--federation, the list's month, re-imports, and FIDE's K in the rating."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests.io.test_fide_list import (
    ABABIL,
    ARRIBAS,
    CARLSEN,
    FOA_HEADER,
    FOA_WIDTHS,
    SINGLE_HEADER,
    SINGLE_WIDTHS,
    line,
    write,
)
from tests.rating.test_real_data_rules import WARNING as UNKNOWN_GAMES
from tests.support import Club

# an adult FIDE rates with K 40 (fewer than 30 games), a 2350 player with K 10 (reached 2400)
NEWCOMER = ("4100018", "Murphy, Sean", "IRL", "M", "", "", "", "",
            1900, 5, 40, 0, 0, 0, 0, 0, 0, 1980, "")  # fmt: skip
FALLEN = ("2500035", "Kelly, Conor", "IRL", "M", "FM", "", "", "",
          2350, 9, 10, 0, 0, 0, 0, 0, 0, 1975, "i")  # fmt: skip


def foa_list(path: Path, *players: tuple[object, ...]) -> Path:
    return write(path, FOA_HEADER, *(line(FOA_WIDTHS, *p) for p in players))


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    club.player("Carlsen, M.", "--fide-id", "1503014", "--rating", "2800", "--birthdate",
                "1990-11-30", "--games", "900")  # fmt: skip
    club.player("Arribas, Maritza", "--fide-id", "3501418", "--birthdate", "1970-05-01")
    club.player("Local, Lee", "--rating", "1600", "--games", "50")
    return club


def test_registered_players_are_refreshed(tmp_path: Path, club: Club) -> None:
    path = foa_list(tmp_path / "players_list_foa.txt", CARLSEN, ARRIBAS, ABABIL)
    assert club.run("import", "fide-list", str(path), "--month", "2026-10") == (
        0,
        "Player 1 (Carlsen, M.): entry_rating 2800 -> 2823\n"
        "Player 1 (Carlsen, M.): fide_k (none) -> 10\n"
        "Player 1 (Carlsen, M.): k10 false -> true\n"
        "Player 1 (Carlsen, M.): rapid_entry_rating (none) -> 2801\n"
        "Player 1 (Carlsen, M.): rapid_fide_k (none) -> 10\n"
        "Player 1 (Carlsen, M.): rapid_k10 false -> true\n"
        "Player 1 (Carlsen, M.): blitz_entry_rating (none) -> 2860\n"
        "Player 1 (Carlsen, M.): blitz_fide_k (none) -> 10\n"
        "Player 1 (Carlsen, M.): blitz_k10 false -> true\n"
        "Player 1 (Carlsen, M.): sex (none) -> m\n"
        "Player 1 (Carlsen, M.): title (none) -> GM\n"
        "Player 1 (Carlsen, M.): federation (none) -> NOR\n"
        "Player 2 (Arribas, Maritza): entry_rating (none) -> 2235\n"
        "Player 2 (Arribas, Maritza): fide_k (none) -> 20\n"
        "Player 2 (Arribas, Maritza): rapid_entry_rating (none) -> 2191\n"
        "Player 2 (Arribas, Maritza): rapid_fide_k (none) -> 20\n"
        "Player 2 (Arribas, Maritza): blitz_entry_rating (none) -> 2200\n"
        "Player 2 (Arribas, Maritza): blitz_fide_k (none) -> 20\n"
        "Player 2 (Arribas, Maritza): birth_year 1970 -> 1971\n"
        "Player 2 (Arribas, Maritza): birth_date 1970-05-01 -> (none)\n"
        "Player 2 (Arribas, Maritza): sex (none) -> f\n"
        "Player 2 (Arribas, Maritza): title (none) -> WGM\n"
        "Player 2 (Arribas, Maritza): federation (none) -> CUB\n"
        f"Read 3 players from {path} (FIDE's list of 2026-10): 2 registered found by FIDE id, "
        "2 of them updated\n",
    )
    assert club.rows(
        "SELECT name, entry_rating, entry_games, fide_k, fide_k_list, k10, birth_year, "
        "birth_date, sex, title, federation FROM players ORDER BY id"
    ) == [
        ("Carlsen, M.", 2823, 900, 10, "2026-10-01", 1, 1990, "1990-11-30", "m", "GM", "NOR"),
        ("Arribas, Maritza", 2235, None, 20, "2026-10-01", 0, 1971, None, "f", "WGM", "CUB"),
        ("Local, Lee", 1600, 50, None, None, 0, None, None, None, None, None),
    ]
    # FIDE's K settles Arribas's unknown count: no warning; her name is the register's
    assert club.ok("player", "list", "--unknown-games").splitlines()[1:] == []
    # every change in the corrections log, with the import
    assert club.rows(
        "SELECT c.action, c.player_id, c.field, c.old_value, c.new_value, i.kind "
        "FROM corrections c JOIN imports i ON i.id = c.import_id ORDER BY c.id"
    )[:3] == [
        ("player_edit", 1, "entry_rating", "2800", "2823", "fide_list"),
        ("player_edit", 1, "fide_k", None, "10", "fide_list"),
        ("player_edit", 1, "k10", "false", "true", "fide_list"),
    ]
    assert club.rows("SELECT kind, rows FROM imports") == [("fide_list", 3)]
    # the same file again: refused, nothing changed
    before = club.state()
    code, out = club.run("import", "fide-list", str(path), "--month", "2026-10")
    assert (code, out.startswith(f"Error: {path}: this file was already imported on ")) == (1, True)
    assert club.state() == before


def test_the_list_month(tmp_path: Path, club: Club) -> None:
    combined = foa_list(tmp_path / "players_list_foa.txt", CARLSEN)
    assert club.run("import", "fide-list", str(combined)) == (
        1,
        f"Error: {combined}: the file does not say which month's list it is; give it "
        "(--month YYYY-MM)\n",
    )
    assert club.run("import", "fide-list", str(combined), "--month", "2026-13") == (
        1,
        "Error: --month: period must be written yyyy-mm: '2026-13'\n",
    )
    single = write(
        tmp_path / "standard_oct26frl.txt",
        SINGLE_HEADER,
        line(SINGLE_WIDTHS, *CARLSEN[:8], 2823, 0, 10, 1990, ""),
    )
    assert club.run("import", "fide-list", str(single), "--month", "2026-09") == (
        1,
        f"Error: {single}: the file is FIDE's list of 2026-10, not 2026-09\n",
    )
    rapid = write(
        tmp_path / "rapid_oct26frl.txt",
        SINGLE_HEADER,
        line(SINGLE_WIDTHS, *CARLSEN[:8], 2801, 12, 10, 1990, ""),
    )
    assert club.run("import", "fide-list", str(rapid)) == (
        1,
        f"Error: {rapid}: this list holds no standard ratings (a rapid or blitz list); import "
        "the standard or the combined list\n",
    )
    # the single standard list names its month: no --month needed
    out = club.ok("import", "fide-list", str(single))
    assert out.endswith(
        f"Read 1 player from {single} (FIDE's list of 2026-10): 1 registered found by FIDE id, "
        "1 of them updated\n"
    )
    # an older list than one imported is refused
    older = foa_list(tmp_path / "older.txt", CARLSEN)
    assert club.run("import", "fide-list", str(older), "--month", "2026-09") == (
        1,
        f"Error: {older}: the register holds FIDE's K from the list of 2026-10 already; this "
        "list (2026-09) is older; nothing was imported\n",
    )


def test_add_registers_the_others(tmp_path: Path, club: Club) -> None:
    club.player("Ababil")  # no FIDE id: the list's Ababil, found by name
    path = foa_list(tmp_path / "players_list_foa.txt", CARLSEN, ARRIBAS, ABABIL, NEWCOMER)
    with zipfile.ZipFile(tmp_path / "players_list.zip", "w") as archive:
        archive.write(path, "players_list_foa.txt")
    zipped = tmp_path / "players_list.zip"
    code, out = club.run("import", "fide-list", str(zipped), "--month", "2026-10", "--add")
    assert code == 0
    lines = out.splitlines()
    assert "Player 4 (Ababil): fide_id (none) -> 7128762" in lines
    assert lines[-1] == (
        f"Read 4 players from {zipped} (FIDE's list of 2026-10): 2 registered found by FIDE "
        "id, 2 of them updated, 1 registered without a FIDE id found by name (they took "
        "theirs), 1 player added"
    )
    assert club.rows("SELECT fide_id, federation FROM players WHERE id = 4") == [(7128762, "INA")]
    assert club.rows(
        "SELECT id, name, name_key, fide_id, entry_rating, entry_games, fide_k, fide_k_list, "
        "k10, birth_year, sex, federation FROM players WHERE id > 4"
    ) == [
        (5, "Murphy, Sean", "murphy, sean", 4100018, 1900, None, 40, "2026-10-01", 0, 1980,
         "m", "IRL"),
    ]  # fmt: skip


def test_the_federation_filter(tmp_path: Path, club: Club) -> None:
    path = foa_list(tmp_path / "players_list_foa.txt", CARLSEN, ARRIBAS, NEWCOMER, FALLEN)
    out = club.ok(
        "import", "fide-list", str(path), "--month", "2026-10", "--federation", "irl", "--add"
    )
    assert out.splitlines() == [
        f"Read 2 players from {path} (FIDE's list of 2026-10): 0 registered found by FIDE id, "
        "0 of them updated, 2 players added",
    ]
    assert club.rows("SELECT name, k10, title FROM players WHERE id > 3 ORDER BY id") == [
        ("Murphy, Sean", 0, None),
        ("Kelly, Conor", 1, "FM"),
    ]
    assert club.rows("SELECT entry_rating FROM players WHERE id = 1") == [(2800,)]
    november = foa_list(tmp_path / "november.txt", CARLSEN, NEWCOMER)
    assert club.run(
        "import", "fide-list", str(november), "--month", "2026-11", "--federation", "xyz"
    ) == (1, f"Error: {november}: no player on the list of federation XYZ; nothing was imported\n")
    assert club.run(
        "import", "fide-list", str(november), "--month", "2026-11", "--federation", "1"
    ) == (1, "Error: not a federation code (3 letters): '1'\n")


def test_fide_s_k_rates_the_period_its_list_starts(tmp_path: Path) -> None:
    """FIDE's published K is authoritative for the period its list starts (art. 8.3.3 as
    FIDE applied it): an adult with 100 games here is K 40 for FIDE (fewer than 30 rated
    games there), a 2350 player K 10 (a rating of 2400 once)."""
    club = Club(tmp_path / "club.db", "--closing-days", "0")
    club.player("Murphy, Sean", "--fide-id", "4100018", "--rating", "1900", "--games", "100",
                "--birthdate", "1980")  # fmt: skip
    club.player("Kelly, Conor", "--fide-id", "2500035", "--rating", "2350", "--games", "100",
                "--birthdate", "1975")  # fmt: skip
    club.player("Rival", "--rating", "1900", "--games", "100", "--birthdate", "1980")
    club.game("Murphy, Sean", "Rival", "1-0", "2026-09-10")
    club.ok("rate")
    path = foa_list(tmp_path / "players_list_foa.txt", NEWCOMER, FALLEN)
    code, out = club.run("import", "fide-list", str(path), "--month", "2026-10")
    assert code == 0
    assert out.splitlines()[-2:] == [
        "2 players found are on lists here already: their ratings come from the games stored "
        "here, not from FIDE's list (their K, data and titles were taken)",
        # Kelly's K 10: the K=10 flag, which holds on every list (art. 8.3.3)
        "This touches rated period 2026-09: 'ratings rate' re-rates from there",
    ]
    # their ratings here are their lists' (Murphy won in September), not FIDE's
    assert club.rows("SELECT name, entry_rating FROM players WHERE id < 3 ORDER BY id") == [
        ("Murphy, Sean", 1900),
        ("Kelly, Conor", 2350),
    ]
    club.game("Murphy, Sean", "Rival", "1-0", "2026-10-10")
    club.game("Kelly, Conor", "Rival", "1-0", "2026-10-11")
    club.ok("rate")
    assert club.entry("Murphy, Sean", "2026-09")["k_used"] == 20
    assert club.entry("Murphy, Sean", "2026-10")["k_used"] == 40
    assert club.entry("Kelly, Conor", "2026-10")["k_used"] == 10
    # a birth year from FIDE that changes K on published lists: a re-rate from the start
    born = ("4100018", "Murphy, Sean", "IRL", "M", "", "", "", "",
            1900, 5, 40, 0, 0, 0, 0, 0, 0, 2010, "")  # fmt: skip
    later = foa_list(tmp_path / "november.txt", born)
    code, out = club.run("import", "fide-list", str(later), "--month", "2026-11")
    assert "This touches rated period 2026-09: 'ratings rate' re-rates from there" in out
    assert club.rows("SELECT label, status FROM rating_periods ORDER BY label") == [
        ("2026-09", "needs_rerate"),
        ("2026-10", "published"),
    ]
    club.ok("rate")
    assert club.entry("Murphy, Sean", "2026-09")["k_used"] == 40  # a junior now (born 2010)
    assert club.entry("Murphy, Sean", "2026-10")["k_used"] == 40  # FIDE's, still


def test_a_list_for_a_rated_period_marks_it(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db", "--closing-days", "0")
    club.player("Murphy, Sean", "--fide-id", "4100018", "--rating", "1900", "--birthdate", "1980")
    club.player("Rival", "--rating", "1900", "--games", "100", "--birthdate", "1980")
    club.game("Murphy, Sean", "Rival", "1-0", "2026-10-10")
    assert club.ok("rate").endswith(UNKNOWN_GAMES.format(n=1, s=""))
    assert club.entry("Murphy, Sean", "2026-10")["k_used"] == 20  # unknown count: K 20
    path = foa_list(tmp_path / "players_list_foa.txt", NEWCOMER)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10")
    assert "This touches rated period 2026-10: 'ratings rate' re-rates from there\n" in out
    assert "Warning" not in out  # FIDE's K settles the unknown count
    club.ok("rate")
    assert club.entry("Murphy, Sean", "2026-10")["k_used"] == 40


def test_the_xml_list(tmp_path: Path, club: Club) -> None:
    tags = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
            "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
            "blitz_games", "blitz_k", "birthday", "flag")  # fmt: skip
    body = "".join(
        "<player>" + "".join(f"<{t}>{v}</{t}>" for t, v in zip(tags, p, strict=True)) + "</player>"
        for p in (CARLSEN, ARRIBAS)
    )
    path = tmp_path / "players_list_xml_foa.xml"
    path.write_text(f"<playerslist>{body}</playerslist>", encoding="utf-8")
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10")
    assert out.splitlines()[-1] == (
        f"Read 2 players from {path} (FIDE's list of 2026-10): 2 registered found by FIDE id, "
        "2 of them updated"
    )
    assert club.rows("SELECT fide_k, entry_rating FROM players ORDER BY id") == [
        (10, 2823),
        (20, 2235),
        (None, 1600),
    ]
