"""`ratings import players|games FILE.csv`: all or nothing, every problem reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import Club

PLAYERS_CSV = """name,birthdate,fide_id,rating,games,k10,federation
"Smith, Ann",2009-03-02,,1850,12,no,ENG
"Jones, Bob",1980,4100011,2010,150,,WLS
"Lee, Cho",,,,,,
"Park, Dae",1975,,2420,400,true,KOR
"""

GAMES_CSV = """date,white,black,result,event,round
2025-01-10,"Smith, Ann","Jones, Bob",1-0,Club Ch,1
2025-01-17,4100011,"Lee, Cho",1/2-1/2,Club Ch,2
2025-01-24,"Lee, Cho","Park, Dae",+/-,Club Ch,3
2025-02-07,"Park, Dae","Smith, Ann",½-½,,
"""


def _club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    (tmp_path / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    assert club.ok("import", "players", str(tmp_path / "players.csv")) == (
        f"Imported 4 players from {tmp_path / 'players.csv'}\n"
    )
    return club


def test_import_and_rate(tmp_path: Path) -> None:
    club = _club(tmp_path)
    games = tmp_path / "games.csv"
    games.write_text(GAMES_CSV, encoding="utf-8")
    assert club.ok("import", "games", str(games)) == (
        f"Imported 4 games (3 to rate, 1 forfeit) in 2 events from {games}\n"
    )
    assert club.rows("SELECT name, start_date, end_date, source FROM events") == [
        ("Club Ch", "2025-01-10", "2025-01-24", "csv"),
        ("Park, Dae - Smith, Ann, 2025-02-07", "2025-02-07", "2025-02-07", "csv"),
    ]
    assert club.ok("rate") == "Rated 2 periods 2025-01 .. 2025-02 (3 rated games)\n"
    # the forfeit is stored, never rated
    assert club.rows("SELECT count(*) FROM rating_breakdown WHERE game_id = 3") == [(0,)]


def test_the_same_file_twice_is_refused(tmp_path: Path) -> None:
    club = _club(tmp_path)
    games = tmp_path / "games.csv"
    games.write_text(GAMES_CSV, encoding="utf-8")
    club.ok("import", "games", str(games))
    before = club.state()
    code, out = club.run("import", "games", str(games))
    assert code == 1
    assert out.startswith(f"Error: {games}: this file was already imported on ")
    assert out.endswith(f"(as {games}, import 2); nothing was imported\n")
    assert club.state() == before


def test_every_bad_row_is_reported_and_nothing_is_stored(tmp_path: Path) -> None:
    club = _club(tmp_path)
    # a second Ann, told apart by her birthdate: her name becomes ambiguous
    club.player("Smith, Ann", "--birthdate", "2011", "--allow-same-name")
    club.game("Jones, Bob", "Park, Dae", "1-0", "2025-01-05")
    club.ok("rate")
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "date,white,black,result\n"
        '2025-02-01,Nobody,"Jones, Bob",1-0\n'
        '2025-02-02,"Smith, Ann","Jones, Bob",1-0\n'
        '2025-02-31,"Lee, Cho","Jones, Bob",1-0\n'
        '2025-02-03,"Lee, Cho","Jones, Bob",2-0\n'
        '2025-02-04,"Lee, Cho","lee, cho",1-0\n'
        '2024-12-20,"Lee, Cho","Jones, Bob",0-1\n',
        encoding="utf-8",
    )
    before = club.state()
    code, out = club.run("import", "games", str(bad))
    assert code == 1
    assert out.splitlines() == [
        f"Error: {bad}:4: date: not a date (YYYY-MM-DD): '2025-02-31'",
        f"Error: {bad}:5: result: unknown result '2-0' "
        "(expected 1-0, 0-1, 1/2-1/2, =, +/-, -/+ or -/-)",
        f"Error: {bad}:6: black: same player as white: 'lee, cho'",
        "Error: 3 problems found; nothing was imported",
    ]
    # the rows that parse are then checked against the register and the history
    bad.write_text(
        "date,white,black,result\n"
        '2025-02-01,Nobody,"Jones, Bob",1-0\n'
        '2025-02-02,"Smith, Ann","Jones, Bob",1-0\n'
        '2024-12-20,"Lee, Cho","Jones, Bob",0-1\n'
        '2025-02-03,9999999,"Jones, Bob",0-1\n',
        encoding="utf-8",
    )
    code, out = club.run("import", "games", str(bad))
    assert code == 1
    assert out.splitlines() == [
        f"Error: {bad}:2: white: unknown player: 'Nobody'",
        f"Error: {bad}:3: white: 'Smith, Ann' is close to 1 Smith, Ann (born 2009, ENG) "
        "[same name], 5 Smith, Ann (born 2011) [same name]",
        f"Error: {bad}:4: date: 2024-12-20 is rated in period 2024-12, before the oldest rated "
        "period 2025-01; the rating history it needs does not exist: withdraw the rated lists "
        "first ('ratings unrate --from 2025-01'), then 'ratings rate' rates again from 2024-12",
        f"Error: {bad}:5: white: unknown fide id: '9999999'",
        "Error: 1 player needs a decision: --match 'NAME=ID' (or --match-file FILE) if it is a "
        "registered player; each decision is kept as an alias",
        "Error: 4 problems found; nothing was imported",
    ]
    assert club.state() == before


def test_players_already_registered(tmp_path: Path) -> None:
    club = _club(tmp_path)
    again = tmp_path / "again.csv"
    again.write_text('name,fide_id\n"jones, bob",\nNew Player,4100011\n', encoding="utf-8")
    code, out = club.run("import", "players", str(again))
    assert code == 1
    assert out.splitlines() == [
        f"Error: {again}:2: name: already registered as player 2 (Jones, Bob, FIDE 4100011, "
        "born 1980): 'jones, bob'; 'import players --update' refreshes registered players",
        f"Error: {again}:3: fide_id: already belongs to player 2 (Jones, Bob, FIDE 4100011, "
        "born 1980): 4100011; 'import players --update' refreshes registered players",
        "Error: 2 problems found; nothing was imported",
    ]


# --- FIDE ids and lengths ------------------------------------------------------------------


def test_fide_ids_in_other_digits_are_names_that_match_nobody(tmp_path: Path) -> None:
    club = _club(tmp_path)
    club.player("Twelve", "--fide-id", "12")
    bad = tmp_path / "games.csv"
    bad.write_text(
        "date,white,black,result\n"
        '2025-02-01,\u0661\u0662,"Jones, Bob",1-0\n'  # Arabic-Indic 12: int() reads it as 12
        '2025-02-02,\uff11\uff12,"Jones, Bob",1-0\n'  # full-width 12
        '2025-02-03,\u00b9\u00b2,"Jones, Bob",1-0\n',  # superscript 12: int() refuses it
        encoding="utf-8",
    )
    before = club.state()
    code, out = club.run("import", "games", str(bad))
    assert (code, out.splitlines()) == (
        1,
        [
            f"Error: {bad}:2: white: unknown player: '\u0661\u0662'",
            f"Error: {bad}:3: white: unknown player: '\uff11\uff12'",
            f"Error: {bad}:4: white: unknown player: '\u00b9\u00b2'",
            "Error: 3 problems found; nothing was imported",
        ],
    )
    assert club.state() == before


def test_the_fide_id_rule_of_the_csv_files(tmp_path: Path) -> None:
    club = _club(tmp_path)
    players = tmp_path / "more.csv"
    players.write_text(
        "name,fide_id\nEleven,99999999999\nTwelve,100000000000\nArabic,\u0661\u0662\n", "utf-8"
    )
    before = club.state()
    code, out = club.run("import", "players", str(players))
    rule = "not a FIDE id (1 to 11 digits 0-9, not 0)"
    assert (code, out.splitlines()) == (
        1,
        [
            f"Error: {players}:3: fide_id: {rule}: '100000000000'",
            f"Error: {players}:4: fide_id: {rule}: '\u0661\u0662'",
            "Error: 2 problems found; nothing was imported",
        ],
    )
    assert club.state() == before
    players.write_text("name,fide_id\nEleven,99999999999\n", "utf-8")
    club.ok("import", "players", str(players))
    games = tmp_path / "games.csv"
    games.write_text(
        "date,white,black,result\n2025-02-01,99999999999,4100011,1-0\n"
        "2025-02-02,4100011,123456789012345,1-0\n",
        "utf-8",
    )
    before = club.state()
    code, out = club.run("import", "games", str(games))
    assert (code, out.splitlines()) == (
        1,
        [
            f"Error: {games}:3: black: {rule}: '123456789012345'",
        ],
    )
    assert club.state() == before
    games.write_text("date,white,black,result\n2025-02-01,99999999999,4100011,1-0\n", "utf-8")
    club.ok("import", "games", str(games))
    assert club.rows(
        "SELECT w.fide_id, b.fide_id FROM games g JOIN players w ON w.id = g.white_id "
        "JOIN players b ON b.id = g.black_id"
    ) == [(99999999999, 4100011)]


@pytest.mark.parametrize(
    ("kind", "header", "row", "field", "limit"),
    [
        ("players", "name", "{}", "name", 200),
        ("games", "date,white,black,result,event", '2025-02-01,"Lee, Cho",4100011,1-0,{}',
         "event", 200),
        ("games", "date,white,black,result,round", '2025-02-01,"Lee, Cho",4100011,1-0,{}',
         "round", 20),
    ],
)  # fmt: skip
def test_csv_values_at_and_one_over_the_limit(
    tmp_path: Path, kind: str, header: str, row: str, field: str, limit: int
) -> None:
    club = _club(tmp_path)
    path = tmp_path / "limit.csv"
    path.write_text(f"{header}\n{row.format('v' * (limit + 1))}\n", "utf-8")
    before = club.state()
    shown = repr("v" * 50) + f"... ({limit + 1} characters)" if limit > 60 else repr("v" * 21)
    assert club.run("import", kind, str(path)) == (
        1,
        f"Error: {path}:2: {field}: longer than {limit} characters: {shown}\n",
    )
    assert club.state() == before
    path.write_text(f"{header}\n{row.format('v' * limit)}\n", "utf-8")
    club.ok("import", kind, str(path))


def path_of_length(tmp_path: Path, length: int, name: str) -> Path:
    """A path of exactly ``length`` characters ending in ``name``, its folders made."""
    room = length - len(str(tmp_path / name))
    folder = tmp_path
    while room > 0:
        part = "d" * min(200, room - 1) if room > 1 else ""
        if not part:  # one character left: lengthen the last folder instead
            folder = folder.with_name(folder.name + "d")
            break
        folder = folder / part
        room -= len(part) + 1
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    assert len(str(path)) == length
    return path


def test_a_file_path_longer_than_the_imports_table_holds(tmp_path: Path) -> None:
    club = _club(tmp_path)
    path = path_of_length(tmp_path / "long", 501, "games.csv")
    path.write_text(GAMES_CSV, "utf-8")
    before = club.state()
    assert club.run("import", "games", str(path)) == (
        1,
        f"Error: {path}: the file's path is longer than 500 characters "
        "(501); import it from a shorter path\n",
    )
    assert club.state() == before
    path = path_of_length(tmp_path / "fits", 500, "games.csv")
    path.write_text(GAMES_CSV, "utf-8")
    club.ok("import", "games", str(path))
    assert club.rows("SELECT length(file_name) FROM imports WHERE kind = 'games_csv'") == [(500,)]


def test_semicolon_and_tab_files_as_spreadsheets_save_them(tmp_path: Path) -> None:
    """The delimiter comes from the header line (was: "unknown column
    'date;white;black;result;event;round'" and four "missing required column" lines)."""
    club = Club(tmp_path / "club.db")
    players = tmp_path / "players.csv"
    players.write_bytes(
        "\ufeffname;birthdate;fide_id;rating;games;k10;federation\r\n"
        "Smith, Ann;2009-03-02;;1850;12;no;ENG\r\n"
        '"Jones, Bob";1980;4100011;2010;150;;WLS\r\n'
        "Lee, Cho;;;;;;\r\n"
        "Park, Dae;1975;;2420;400;true;KOR\r\n".encode()
    )
    assert club.ok("import", "players", str(players)) == f"Imported 4 players from {players}\n"
    games = tmp_path / "games.tsv"
    games.write_text(
        "date\twhite\tblack\tresult\tevent\tround\n"
        "2025-01-10\tSmith, Ann\tJones, Bob\t1-0\tClub Ch\t1\n"
        "2025-01-17\t4100011\tLee, Cho\t1/2-1/2\tClub Ch\t2\n"
        "2025-01-24\tLee, Cho\tPark, Dae\t+/-\tClub Ch\t3\n"
        "2025-02-07\tPark, Dae\tSmith, Ann\t½-½\t\t\n",
        encoding="utf-8",
    )
    assert club.ok("import", "games", str(games)) == (
        f"Imported 4 games (3 to rate, 1 forfeit) in 2 events from {games}\n"
    )
    assert club.rows("SELECT count(*) FROM games") == [(4,)]
