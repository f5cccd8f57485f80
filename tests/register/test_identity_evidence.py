"""Identity by evidence, end to end: the ways an import joined two people, each reproduced
first, through the commands an administrator runs. The later ones (from `add` on) were seen
in an exploratory run against the README: a registered player's own name is his, whatever
the file says of another spelling."""

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


# --- a registered player's own name, whatever the file says of another spelling -------------


def add(db: Path | PgDatabase, name: str, *args: str) -> None:
    code, _, err = invoke(db, "player", "add", name, "--rating", "1800", "--games", "50", *args)
    assert code == 0, err


def pgn(path: Path, *games: tuple[str, str, str, str, dict[str, str]]) -> Path:
    """A PGN file: (round, white, black, result, more tags) a game, all on 2025-03-10."""
    text = ""
    for rnd, white, black, result, tags in games:
        more = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
        text += (
            f'[Event "Family Cup"]\n[Date "2025.03.10"]\n[Round "{rnd}"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n{more}[Result "{result}"]\n\n'
            f"1. e4 e5 {result}\n\n"
        )
    path.write_text(text, encoding="utf-8")
    return path


def games_of(db: Path | PgDatabase) -> list[tuple[object, ...]]:
    return rows(db, "SELECT round, white_id, black_id FROM games ORDER BY round, white_id")


def test_a_name_given_an_id_earlier_in_the_file_takes_no_other_players_own_name(
    tmp_path: Path, db: Path
) -> None:
    """Seen: `Novak, Jan` and `James, Thomas`, each the exact name of a registered player,
    went to `Novák, Jan` and `Thomas, James`, whose FIDE ids earlier games of the file gave
    (the names fold alike), with no line saying so."""
    add(db, "Novák, Jan", "--fide-id", "222222", "--birthdate", "1970")
    add(db, "Novak, Jan", "--birthdate", "2014", "--allow-same-name")
    add(db, "Thomas, James", "--fide-id", "111111", "--birthdate", "1970")
    add(db, "James, Thomas", "--birthdate", "2010")
    add(db, "Brown, Carl")
    add(db, "White, Dan")
    path = pgn(
        tmp_path / "cup.pgn",
        ("1", "Novák, Jan", "Brown, Carl", "1-0", {"WhiteFideId": "222222"}),
        ("1", "Thomas, James", "White, Dan", "1-0", {"WhiteFideId": "111111"}),
        ("2", "White, Dan", "Novak, Jan", "0-1", {}),
        ("2", "Brown, Carl", "James, Thomas", "0-1", {}),
    )
    # `Novak, Jan` is two registered namesakes' name (folded): a question, as in a file
    # that gives no FIDE id; `James, Thomas` is player 4's name as registered
    code, out, err = invoke(db, "import", "pgn", str(path), "--yes")
    assert (code, out) == (1, ""), err
    assert err.splitlines()[0] == (
        f"Error: {path}:21: Black: 'Novak, Jan' is close to 1 Novák, Jan (FIDE 222222, born "
        "1970) [same name], 2 Novak, Jan (born 2014) [same name]"
    )
    assert rows(db, "SELECT count(*) FROM games") == [(0,)]
    # the decision for that spelling leaves line 1's `Novák, Jan`, his FIDE id beside it, alone
    code, out, err = invoke(db, "import", "pgn", str(path), "--match", "Novak, Jan=2")
    assert code == 0, err
    assert games_of(db) == [("1", 1, 5), ("1", 3, 6), ("2", 5, 4), ("2", 6, 2)]


def test_a_swapped_name_is_a_question_though_an_earlier_game_gave_the_id(
    tmp_path: Path, db: Path
) -> None:
    """`James, Thomas` is not `Thomas, James` (a comma on both sides keeps the roles): the
    FIDE id an earlier game gave `Thomas, James` does not make the swapped name his."""
    add(db, "Thomas, James", "--fide-id", "111111", "--birthdate", "1970")
    add(db, "White, Dan")
    path = pgn(
        tmp_path / "cup.pgn",
        ("1", "Thomas, James", "White, Dan", "1-0", {"WhiteFideId": "111111"}),
        ("2", "White, Dan", "James, Thomas", "0-1", {}),
    )
    code, out, err = invoke(db, "import", "pgn", str(path), "--yes")
    assert (code, out) == (1, ""), err
    assert "'James, Thomas' is close to 1 Thomas, James" in err
    assert rows(db, "SELECT count(*) FROM games") == [(0,)]


@pytest.mark.parametrize("spelling", ["Müller, Maria", "Muller, Maria", "Maria Müller"])
def test_a_fide_id_beside_another_players_name_folded_is_an_error(
    tmp_path: Path, db: Path, spelling: str
) -> None:
    """Seen: Mario's FIDE id beside `Muller, Maria` or `Maria Müller` (Maria's name, folded)
    was taken for Mario, `matched by FIDE id`; only `Müller, Maria` as registered stopped."""
    add(db, "Müller, Mario", "--fide-id", "111111", "--birthdate", "1980")
    add(db, "Müller, Maria", "--birthdate", "1982")
    add(db, "Brown, Carl")
    fide = {"WhiteFideId": "111111"}
    path = pgn(tmp_path / "cup.pgn", ("1", spelling, "Brown, Carl", "1-0", fide))
    code, out, err = invoke(db, "import", "pgn", str(path))
    assert (code, out) == (1, ""), err
    assert err.splitlines()[0] == (
        f"Error: {path}:1: WhiteFideId: {spelling!r} does not match FIDE id 111111, which "
        f"belongs to player 1 (Müller, Mario, FIDE 111111); {spelling!r} is player 2 "
        "(Müller, Maria); correct the file or the register"
    )
    assert rows(db, "SELECT count(*) FROM games") == [(0,)]


def test_a_decision_for_one_spelling_leaves_a_players_own_name_alone(
    tmp_path: Path, db: Path
) -> None:
    """Seen (the README's junior namesake): `--new 'Novak, Jan'` also made the father, written
    `Novák, Jan` as registered, a new player, and gave him his game."""
    add(db, "Novák, Jan", "--birthdate", "1970", "--sex", "m", "--federation", "CZE")
    add(db, "Smith, Ann", "--birthdate", "1985")
    path = trf_file(
        tmp_path / "cup.trf",
        player_line(1, "Novák, Jan", ["   2 w 1"], sex="m", fed="CZE", birth="1970/01/01"),
        player_line(2, "Smith, Ann", ["   1 b 0"], birth="1985"),
        player_line(3, "Novak, Jan", ["   4 w 1"], sex="m", fed="CZE", birth="2014/01/01"),
        player_line(4, "Jones, Bob", ["   3 b 0"]),
    )
    code, _, err = invoke(db, "import", "trf", str(path), "--new", "Novak, Jan")
    assert code == 0, err
    assert rows(db, "SELECT id, name, birth_year FROM players ORDER BY id") == [
        (1, "Novák, Jan", 1970),
        (2, "Smith, Ann", 1985),
        (3, "Novak, Jan", 2014),
        (4, "Jones, Bob", None),
    ]
    assert games_of(db) == [("1", 1, 2), ("1", 3, 4)]


def test_a_decision_against_an_alias_is_reported_not_dropped(tmp_path: Path, db: Path) -> None:
    """Seen: `--match 'Novak, J.=2'` where `Novak, J.` was player 1's alias: the game went to
    player 2, but the alias stayed player 1's without a word, so the next file went to 1."""
    add(db, "Novák, Jan", "--birthdate", "1970")
    add(db, "Novák, Josef", "--birthdate", "1975")
    add(db, "Brown, Carl")
    for n, (day, pid) in enumerate([("2025.03.10", "1"), ("2025.04.10", "2")]):
        path = tmp_path / f"m{n}.pgn"
        path.write_text(
            f'[Event "Cup {n}"]\n[Date "{day}"]\n[Round "1"]\n[White "Brown, Carl"]\n'
            '[Black "Novak, J."]\n[Result "0-1"]\n\n1. e4 e5 0-1\n',
            encoding="utf-8",
        )
        code, out, err = invoke(db, "import", "pgn", str(path), "--match", f"Novak, J.={pid}")
        assert code == 0, err
    assert rows(db, "SELECT black_id FROM games ORDER BY played_on") == [(1,), (2,)]
    assert rows(db, "SELECT player_id, name FROM player_aliases") == [(1, "Novak, J.")]
    assert (
        "Not kept: 'Novak, J.' not kept as an alias of player 2: it is an alias of player 1 "
        "(Novák, Jan) already; 'ratings player alias remove' it to have the next file ask"
    ) in out.splitlines()


@pytest.mark.parametrize(
    ("name", "code_point"),
    [
        ("Smith, \u13aann", "U+13AA"),  # CHEROKEE LETTER GO: looks like a Latin A
        ("Zed, Amy\u3164", "U+3164"),  # HANGUL FILLER: a letter that shows nothing
        ("Roe, Al\u034fex", "U+034F"),  # COMBINING GRAPHEME JOINER
        ("Poe, Ed\ufe0f", "U+FE0F"),  # VARIATION SELECTOR-16
    ],
)
def test_look_alike_and_invisible_letters_are_refused(db: Path, name: str, code_point: str) -> None:
    """Seen: these were stored as names (`Ann` with a Cherokee A became a second `Smith, Ann`
    and took her game); the README says invisible characters and look-alike letters are refused."""
    code, out, err = invoke(db, "player", "add", name)
    assert (code, out) == (1, "")
    assert code_point in err or "look-alike" in err, err
    assert rows(db, "SELECT count(*) FROM players") == [(0,)]


def test_a_fide_id_tells_two_namesakes_of_one_name_apart(tmp_path: Path, db: Path) -> None:
    """Seen: with a junior registered under his father's very name, the father's own FIDE id,
    name and birth year in a TRF or PGN file were refused (`'Novák, Jan' is player 2`)."""
    add(db, "Novák, Jan", "--fide-id", "222222", "--birthdate", "1970")
    add(db, "Novák, Jan", "--birthdate", "2014", "--allow-same-name")
    add(db, "Smith, Ann", "--birthdate", "1985")
    path = trf_file(
        tmp_path / "cup.trf",
        player_line(1, "Novák, Jan", ["   2 w 1"], fide_id="222222", birth="1970/01/01"),
        player_line(2, "Smith, Ann", ["   1 b 0"], birth="1985"),
    )
    code, _, err = invoke(db, "import", "trf", str(path))
    assert code == 0, err
    path = pgn(
        tmp_path / "cup.pgn", ("1", "Novák, Jan", "Smith, Ann", "1-0", {"WhiteFideId": "222222"})
    )
    code, _, err = invoke(db, "import", "pgn", str(path))
    assert code == 0, err
    assert rows(db, "SELECT white_id, black_id FROM games ORDER BY id") == [(1, 3), (1, 3)]
