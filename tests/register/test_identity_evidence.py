"""Identity by evidence, end to end: the three ways an import joined two people, each
reproduced first, through the commands an administrator runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import PgDatabase, copy_database, new_test_database
from tests.imports.test_trf import player_line, rows, trf_file
from tests.support import invoke


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    path = new_test_database(tmp_path_factory.mktemp("evidence") / "template.db")
    assert invoke(path, "init")[0] == 0
    return path


@pytest.fixture
def db(tmp_path: Path, template: Path | PgDatabase) -> Path | PgDatabase:
    return copy_database(template, tmp_path / "club.db")


def test_a_fide_id_beside_another_persons_name_is_a_question(tmp_path: Path, db: Path) -> None:
    """Seen: `Sanchez Merino, David`, born 2005, with Christian's FIDE id was taken as
    Christian (`by FIDE id`, exit 0, no warning)."""
    invoke(db, "player", "add", "Sánchez Merino, Christian", "--birthdate", "1996",
        "--fide-id", "22244913")  # fmt: skip
    invoke(db, "player", "add", "Smith, Ann", "--birthdate", "1990")
    path = trf_file(
        tmp_path / "cup.trf",
        player_line(1, "Sanchez Merino, David", ["   2 w 1"], fide_id="22244913",
                    birth="2005/03/04"),
        player_line(2, "Smith, Ann", ["   1 b 0"], birth="1990/01/01"),
    )  # fmt: skip
    code, out, err = invoke(db, "import", "trf", str(path))
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        f"Error: {path}:3: name: 'Sanchez Merino, David' is close to 1 Sánchez Merino, "
        "Christian (FIDE 22244913, born 1996) [FIDE id; the file says born 2005, given name "
        "David]"
    )
    assert rows(db, "SELECT count(*) FROM games") == [(0,)]
    # a new player: created without the FIDE id, which is Christian's, and said so
    code, out, err = invoke(db, "import", "trf", str(path), "--new", "Sanchez Merino, David")
    assert code == 0, err
    assert (
        f"Warning: {path}:3: FIDE id: 'Sanchez Merino, David' is created without FIDE id "
        "22244913, which belongs to player 1 (Sánchez Merino, Christian, FIDE 22244913) "
        "(--new 'Sanchez Merino, David')" in err.splitlines()
    )
    assert rows(db, "SELECT id, name, fide_id, birth_year FROM players ORDER BY id") == [
        (1, "Sánchez Merino, Christian", 22244913, 1996),
        (2, "Smith, Ann", None, 1990),
        (3, "Sanchez Merino, David", None, 2005),
    ]


def test_the_comma_keeps_surname_and_given_name_apart(tmp_path: Path, db: Path) -> None:
    """Seen: `James, Thomas` was taken as the registered `Thomas, James`, and `De, Anna
    Smith` as `Deanna, Smith`."""
    for name in ("Thomas, James", "Deanna, Smith", "Smith, Ann"):
        invoke(db, "player", "add", name)
    games = tmp_path / "league.csv"
    games.write_text(
        "date,white,black,result,event,round\n"
        '2026-11-14,"James, Thomas","Smith, Ann",1-0,Club League,1\n'
        '2026-11-14,"De, Anna Smith","Smith, Ann",0-1,Club League,2\n',
        encoding="utf-8",
    )
    code, out, err = invoke(db, "import", "games", str(games))
    assert (code, out) == (1, "")
    assert err.splitlines()[:2] == [
        f"Error: {games}:2: white: 'James, Thomas' is close to 1 Thomas, James [surname and "
        "given name swapped]",
        f"Error: {games}:3: white: 'De, Anna Smith' is close to 2 Deanna, Smith [initials], "
        "3 Smith, Ann [initials]",
    ]
    # written without the comma the order is free: the same name
    games.write_text(
        "date,white,black,result,event,round\n"
        '2026-11-14,"James Thomas","Smith, Ann",1-0,Club League,1\n',
        encoding="utf-8",
    )
    code, out, err = invoke(db, "import", "games", str(games))
    assert code == 0, err
    assert rows(db, "SELECT white_id FROM games") == [(1,)]


NOVAK_CUP = (
    "012 Junior Cup\n042 2026/11/07\n052 2026/11/07\n"
    + player_line(1, "Novák, Jiří", ["   2 w 1"], fed="CZE", birth="2010/05/05") + "\n"
    + player_line(2, "Smith, Ann", ["   1 b 0"], rating="1700", fed="ENG",
                  birth="1990/01/01") + "\n"
)  # fmt: skip


def test_new_for_a_namesake_never_hands_over_the_registered_name(tmp_path: Path, db: Path) -> None:
    """Seen: after `--new 'Novák, Jiří'` for a junior namesake, the name was stored as the
    junior's alias, and the adult's league game went to the junior."""
    invoke(db, "player", "add", "Novák, Jiří", "--birthdate", "1980-02-05", "--rating", "1800",
        "--games", "50")  # fmt: skip
    invoke(db, "player", "add", "Smith, Ann", "--birthdate", "1990-01-01", "--rating", "1700",
        "--games", "50")  # fmt: skip
    cup = tmp_path / "cup.trf"
    cup.write_text(NOVAK_CUP, encoding="utf-8")
    code, out, err = invoke(db, "import", "trf", str(cup), "--new", "Novák, Jiří")
    assert code == 0, err
    assert rows(db, "SELECT id, name, birth_year FROM players ORDER BY id") == [
        (1, "Novák, Jiří", 1980),
        (2, "Smith, Ann", 1990),
        (3, "Novák, Jiří", 2010),
    ]
    # the decision is kept only with the evidence that told them apart: the birth year
    assert rows(db, "SELECT name, player_id, birth_year, fide_id, federation "
                    "FROM player_aliases") == [("Novák, Jiří", 3, 2010, None, None)]  # fmt: skip
    league = tmp_path / "league.csv"
    league.write_text(
        'date,white,black,result,event,round\n2026-11-14,"Novák, Jiří","Smith, Ann",1-0,'
        "Club League,1\n",
        encoding="utf-8",
    )
    code, out, err = invoke(db, "import", "games", str(league))
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        f"Error: {league}:2: white: 'Novák, Jiří' is close to 3 Novák, Jiří (born 2010, CZE) "
        "[alias 'Novák, Jiří'; the file gives no birth year], 1 Novák, Jiří (born 1980) "
        "[same name]"
    )
    code, out, err = invoke(db, "import", "games", str(league), "--match", "Novák, Jiří=1")
    assert code == 0, err
    assert rows(db, "SELECT white_id, black_id FROM games ORDER BY id DESC LIMIT 1") == [(1, 2)]
    # the adult's own name was not handed over: no alias of player 3 was stored for it
    assert rows(db, "SELECT count(*) FROM player_aliases") == [(1,)]


def test_player_duplicates_lists_likely_pairs_with_the_merge(db: Path) -> None:
    for args in (
        ("Smith, Anthony", "--birthdate", "1990"),
        ("Tony Smith", "--birthdate", "1990"),  # a nickname, the same year
        ("Mirzoev, Azer", "--fide-id", "13400304"),
        ("Mirzoev, Azer", "--fide-id", "13400340", "--allow-same-name"),  # one digit off
        ("Novák, Jiří", "--birthdate", "1980"),
        ("Novak, Jiri", "--birthdate", "2010", "--allow-same-name"),  # told apart
        ("Nepomniachtchi, Ian",),
        ("Ian Nepomnyashchy",),
    ):
        assert invoke(db, "player", "add", *args)[0] == 0, args
    code, out, err = invoke(db, "player", "duplicates", "--format", "csv")
    assert code == 0, err
    assert out.splitlines() == [
        "keep,keep_name,duplicate,duplicate_name,how,evidence_for,merge",
        '3,"Mirzoev, Azer",4,"Mirzoev, Azer",FIDE id one digit off,none,ratings player merge 3 4',
        '1,"Smith, Anthony",2,Tony Smith,nickname,birth year,ratings player merge 1 2',
        '7,"Nepomniachtchi, Ian",8,Ian Nepomnyashchy,transliteration,none,ratings player merge 7 8',
    ]
    assert invoke(db, "player", "merge", "1", "2", "--yes")[0] == 0
    assert "Tony Smith" not in invoke(db, "player", "duplicates")[1]
