"""`ratings export trf EVENT` (round trip through `import trf`) and `list --format fide-txt`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import copy_database
from tests.imports.test_trf import EVERY_CODE, TRF, db, rows, template, trf_file
from tests.support import invoke

__all__ = ["db", "template"]  # fixtures shared with tests/imports/test_trf.py

GAMES = (
    "SELECT g.round, g.played_on, w.name, b.name, g.result, g.rateable FROM games g "
    "JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id "
    "ORDER BY g.round, w.name, b.name"
)
BYES = (
    "SELECT y.round, p.name, y.code FROM byes y JOIN players p ON p.id = y.player_id "
    "ORDER BY y.round, p.name"
)
PLAYERS = (
    "SELECT name, fide_id, birth_date, birth_year, sex, federation, title, entry_rating "
    "FROM players ORDER BY name"
)
EVENTS = "SELECT name, start_date, end_date FROM events"


@pytest.mark.parametrize(
    "name",
    ["held_swiss_9.trf", "javafo_sample2.trf", "armstrong_2011.tab", "club_codes_yyddmm.tab",
     "codes"],
)  # fmt: skip
def test_round_trip(tmp_path: Path, db: Path, template: Path, name: str) -> None:
    """Export an imported event and import the file into a fresh database: the same games,
    byes, players and event."""
    source = TRF / name if name != "codes" else trf_file(tmp_path / "codes.trf", *EVERY_CODE)
    assert invoke(db, "import", "trf", str(source))[0] == 0
    exported = tmp_path / "exported.trf"
    code, out, err = invoke(db, "export", "trf", "1", "--output", str(exported))
    assert (code, out) == (0, "")
    assert err.startswith("Wrote event 1 '")
    # to standard output: the same text
    assert invoke(db, "export", "trf", "1") == (0, exported.read_text(encoding="utf-8"), "")

    fresh = copy_database(template, tmp_path / "fresh.db")
    assert invoke(fresh, "import", "trf", str(exported))[0] == 0
    for query in (GAMES, BYES, PLAYERS, EVENTS):
        assert rows(fresh, query) == rows(db, query)
    assert rows(db, GAMES)


def test_round_trip_into_a_register_with_the_same_players(tmp_path: Path, db: Path,
                                                          template: Path) -> None:  # fmt: skip
    """The other database knows the players (under FIDE ids or names): none is created,
    and their entry data stays as it is."""
    path = trf_file(tmp_path / "codes.trf", *EVERY_CODE)
    invoke(db, "import", "trf", str(path))
    exported = tmp_path / "exported.trf"
    invoke(db, "export", "trf", "Spring Open", "-o", str(exported))
    other = copy_database(template, tmp_path / "other.db")
    for name in ("Anna", "Bert", "Cleo", "Dirk", "Emil", "Fred"):
        invoke(other, "player", "add", name, "--rating", "1500")
    code, out, _ = invoke(other, "import", "trf", str(exported))
    assert code == 0
    assert out.endswith("Players: 0 created, 0 matched by FIDE id, 6 matched by name\n")
    assert rows(other, GAMES) == rows(db, GAMES)
    assert rows(other, BYES) == rows(db, BYES)
    assert rows(other, "SELECT DISTINCT entry_rating FROM players") == [(1500,)]


def test_exact_file(tmp_path: Path, db: Path) -> None:
    invoke(
        db,
        "player",
        "add",
        "Smith, Ann",
        "--fide-id",
        "4100018",
        "--rating",
        "2150",
        "--birthdate",
        "2009-03-02",
        "--sex",
        "f",
        "--federation",
        "ENG",
        "--title",
        "WIM",
    )
    invoke(db, "player", "add", "Jones, Bob", "--rating", "1890", "--birthdate", "1980")
    invoke(db, "player", "add", "Lee, Cho")
    invoke(
        db,
        "game",
        "add",
        "Jones, Bob",
        "Smith, Ann",
        "0-1",
        "--date",
        "2025-01-10",
        "--event",
        "Club Ch",
        "--round",
        "1",
    )
    invoke(
        db,
        "game",
        "add",
        "Lee, Cho",
        "Jones, Bob",
        "=",
        "--date",
        "2025-01-17",
        "--event",
        "Club Ch",
        "--round",
        "2",
    )
    invoke(db, "game", "add", "Smith, Ann", "Lee, Cho", "+/-", "--date", "2025-01-24",
        "--event", "Club Ch", "--round", "3")  # fmt: skip
    assert rows(db, "SELECT count(*) FROM games") == [(3,)]
    # start numbers follow the ratings; the forfeit has no colours that count
    assert invoke(db, "export", "trf", "club ch") == (
        0,
        "012 Club Ch\n"
        "042 2025/01/10\n"
        "052 2025/01/24\n"
        "062 3\n"
        "132" + " " * 88 + "25/01/10  25/01/17  25/01/24\n"
        "001    1 wWIM Smith, Ann                        2150 ENG     4100018 2009/03/02  2.0"
        "    1     2 b 1               3 w +\n"
        "001    2      Jones, Bob                        1890                 1980/00/00  0.5"
        "    2     1 w 0     3 b =\n"
        "001    3      Lee, Cho                                                           0.5"
        "    3               2 w =     1 b -\n",
        "",
    )


def test_event_references(tmp_path: Path, db: Path) -> None:
    path = trf_file(tmp_path / "a.trf", *EVERY_CODE)
    invoke(db, "import", "trf", str(path))
    path = trf_file(tmp_path / "b.trf", *EVERY_CODE, header=("042 2025-04-01",))
    invoke(db, "import", "trf", str(path))
    assert invoke(db, "export", "trf", "spring open") == (
        1,
        "",
        "Error: 'spring open' matches 2 events: 1 (2025-03-01), 2 (2025-04-01); use the id\n",
    )
    assert invoke(db, "export", "trf", "Autumn Open") == (1, "", "Error: no event 'Autumn Open'\n")
    assert invoke(db, "export", "trf", "9") == (1, "", "Error: no event '9'\n")
    assert invoke(db, "export", "trf", "2")[0] == 0


def test_games_need_round_numbers(db: Path) -> None:
    invoke(db, "player", "add", "A")
    invoke(db, "player", "add", "B")
    invoke(db, "game", "add", "A", "B", "1-0", "--date", "2025-01-10")
    assert invoke(db, "export", "trf", "1") == (
        1,
        "",
        "Error: game 1 has no round; a TRF file needs round numbers 1, 2, 3...: 'ratings game "
        "edit 1 --round N'\n",
    )
    # the command the error names makes the event exportable
    assert invoke(db, "game", "edit", "1", "--round", "1", "--yes")[0] == 0
    code, out, err = invoke(db, "export", "trf", "1")
    assert code == 0, err
    assert "001    1" in out


# --- list --format fide-txt ----------------------------------------------------------------

HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA {} Gms K  B-day Flag\n"
)


def test_fide_txt_list_of_the_register(db: Path) -> None:
    invoke(
        db,
        "player",
        "add",
        "Smith, Ann",
        "--fide-id",
        "4100018",
        "--rating",
        "2150",
        "--birthdate",
        "2009-03-02",
        "--sex",
        "f",
        "--federation",
        "ENG",
        "--title",
        "WIM",
    )
    invoke(
        db, "player", "add", "Jones, Bob", "--rating", "1890", "--birthdate", "1980", "--sex", "m"
    )
    invoke(db, "player", "add", "Lee, Cho")  # fmt: skip
    assert invoke(db, "list", "--format", "fide-txt") == (
        0,
        HEADER.format("SRtng")
        + "4100018        Smith, Ann" + " " * 51
        + "ENG F   WIM  WIM                     2150  0   0  2009  w   \n"
        + " " * 15 + "Jones, Bob" + " " * 51
        + "    M                                1890  0   0  1980      \n",
        "",
    )  # fmt: skip
    _, out, _ = invoke(db, "list", "--all", "--format", "fide-txt")
    assert out.splitlines()[-1] == " " * 15 + "Lee, Cho" + " " * 53 + " " * 37 + (
        "0     0   0  0         "
    )


def test_fide_txt_list_of_a_rated_period(db: Path) -> None:
    invoke(db, "import", "trf", str(TRF / "held_swiss_9.trf"))
    invoke(db, "rate")
    code, out, err = invoke(db, "list", "--format", "fide-txt")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] + "\n" == HEADER.format("SEP24")
    assert len(lines) == 17
    # rated games of the period, K for the next one, birth year; 136 characters a line
    assert lines[1] == " " * 15 + "Charline" + " " * 53 + "NOR M" + " " * 32 + (
        "2194  9   20 1990      "  # K 20: game count unknown (TRF)
    )
    assert {len(line) for line in lines[1:]} == {136}


def test_a_value_that_does_not_fit_a_column(db: Path) -> None:
    name = "Wolfeschlegelsteinhausenbergerdorff, Hubert"
    invoke(db, "player", "add", name)
    invoke(db, "player", "add", "B")
    invoke(db, "game", "add", name, "B", "1-0", "--date", "2025-01-10", "--round", "1")
    assert invoke(db, "export", "trf", "1") == (
        1,
        "",
        f"Error: event 1 cannot be written as TRF: name does not fit in 33 characters: {name!r}\n",
    )
