"""`ratings import trf FILE`: the sample files, encodings, result codes, matching, refusals."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.conftest import PgDatabase, copy_database, new_test_database, table_rows
from tests.rating.test_real_data_rules import WARNING as UNKNOWN_GAMES
from tests.support import invoke

DATA = Path(__file__).parents[1] / "data"
TRF = DATA / "trf"
PGN = DATA / "pgn"


# --- helpers (also used by tests/imports/test_pgn.py and tests/reading/test_export.py) ------------


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    """One database made by `ratings init` per module; tests get copies (on PostgreSQL with
    RATINGS_TEST_BACKEND=postgres: a database, used as a template)."""
    path = new_test_database(tmp_path_factory.mktemp("club") / "template.db")
    assert invoke(path, "init")[0] == 0
    return path


@pytest.fixture
def db(tmp_path: Path, template: Path | PgDatabase) -> Path | PgDatabase:
    """A fresh, initialised database (fide rules, monthly periods)."""
    return copy_database(template, tmp_path / "club.db")


def rows(db: Path | PgDatabase, sql: str) -> list[tuple[object, ...]]:
    """Rows of a query, read outside the CLI (plain sqlite3 for a file)."""
    return table_rows(db if isinstance(db, Path) else str(db), sql)


def counts(db: Path | PgDatabase) -> tuple[int, int, int, dict[str, int]]:
    """Players, rated games, unrated games, byes by code."""
    players = rows(db, "SELECT count(*) FROM players")[0][0]
    rated = rows(db, "SELECT count(*) FROM games WHERE rateable")[0][0]
    unrated = rows(db, "SELECT count(*) FROM games WHERE NOT rateable")[0][0]
    byes = rows(db, "SELECT code, count(*) FROM byes GROUP BY code")
    return (
        int(str(players)),
        int(str(rated)),
        int(str(unrated)),
        {str(k): int(str(v)) for k, v in byes},
    )


def player_line(no: int, name: str, blocks: list[str], *, rating: str = "",
                fide_id: str = "", sex: str = " ", title: str = "", fed: str = "",
                birth: str = "", points: str = "") -> str:  # fmt: skip
    """A ``001`` line in the fixed columns, round blocks from col 92 (a blank points column
    unless given: blank points are not checked against the results)."""
    fixed = (
        f"001 {no:>4} {sex}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide_id:>11} "
        f"{birth:<10} {points:>4} {'':>4}"
    )
    return (fixed + "  " + "".join(f"{b:<10}" for b in blocks)).rstrip()


def trf_file(path: Path, *lines: str, header: tuple[str, ...] = ("042 2025-03-01",)) -> Path:
    """Write a small TRF file (LF) and return its path."""
    path.write_text("\n".join(["012 Spring Open", *header, *lines]) + "\n", encoding="utf-8")
    return path


# --- every sample file ---------------------------------------------------------------------

# file: (extra arguments, players, rated games, unrated games, byes by code); SOURCES.md
SAMPLES = {
    "trf/armstrong_2011.tab": ((), 160, 522, 0, {"+": 6, "-": 2}),
    "trf/armstrong_2012_with_bom.tab": ((), 2, 1, 0, {}),
    "trf/latin-1.tab": ((), 3, 3, 0, {}),
    "trf/utf-8.tab": ((), 3, 3, 0, {}),
    "trf/javafo_sample2.trf": ((), 52, 89, 4, {"H": 16, "Z": 6, "U": 3}),
    "trf/javafo_example.trf": ((), 52, 89, 4, {"H": 15, "Z": 4, "U": 3}),
    "trf/held_swiss_9.trf": ((), 16, 66, 2, {"H": 2, "U": 3, "Z": 3}),
    # no dates in the file: 904 played games, 84 forfeits and 2 double forfeits
    "trf/issue_15.input": (("--date", "2023-02-23"), 180, 904, 86, {}),
    # PGN: every finished game is a played game (rated); no byes
    "pgn/0002.pgn": ((), 2, 1, 0, {}),
    "pgn/0006.pgn": ((), 10, 5, 0, {}),
    "pgn/0007.pgn": ((), 10, 5, 0, {}),
    # written by hand for these tests (SOURCES.md): yy.dd.mm round dates, club codes, blank byes
    "trf/club_codes_yyddmm.tab": ((), 8, 13, 0, {"U": 1, "H": 1, "?": 2, "Z": 1, "F": 1}),
}
WARNINGS = {
    # events over 90 days (leagues) and events across two periods warn, as does every import
    # while rated players without a known count of prior games are registered: TRF creates its
    # players with an unknown count
    "trf/armstrong_2011.tab": 2,
    "trf/armstrong_2012_with_bom.tab": 2,
    "trf/javafo_sample2.trf": 2,
    "trf/javafo_example.trf": 2,
    "trf/held_swiss_9.trf": 1,
    "trf/issue_15.input": 1,
    "trf/club_codes_yyddmm.tab": 10,
}
"""Warnings (on stderr) an import of the sample prints; the others print none."""


def test_every_sample_file_is_listed() -> None:
    on_disk = {f"{p.parent.name}/{p.name}" for p in [*TRF.iterdir(), *PGN.iterdir()]}
    assert on_disk == set(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_file_counts(db: Path, name: str) -> None:
    extra, players, rated, unrated, byes = SAMPLES[name]
    kind = "trf" if name.startswith("trf/") else "pgn"
    code, out, err = invoke(db, "import", kind, str(DATA / name), *extra)
    assert (code, len(err.splitlines())) == (0, WARNINGS.get(name, 0))
    assert all(line.startswith("Warning: ") for line in err.splitlines())
    assert out.startswith("Imported ")
    assert counts(db) == (players, rated, unrated, byes)
    # forfeits are never rated, and every stored game belongs to an event of this import
    assert rows(db, "SELECT count(*) FROM games WHERE rateable AND result NOT IN "
                    "('1-0', '0-1', '1/2-1/2')") == [(0,)]  # fmt: skip
    assert rows(db, "SELECT DISTINCT kind FROM imports") == [(kind,)]


def test_the_club_file_written_for_issue_12(db: Path) -> None:
    """A Krause file as Irish clubs write them: round dates yy.dd.mm, club codes in the
    federation column, blank-result byes worth ½ and 0 (was refused: "impossible date",
    then "not a federation code", one problem per run)."""
    path = TRF / "club_codes_yyddmm.tab"
    before = rows(db, "SELECT count(*) FROM players")
    assert invoke(db, "import", "trf", str(path)) == (
        0,
        "Imported 13 games (13 to rate) and 6 byes in event 1 'Autumn Club Rapid 2011' "
        f"(2011-02-05 .. 2011-02-26) from {path}\n"
        "Players: 8 created, 0 matched by FIDE id, 0 matched by name\n",
        f"Warning: {path}:11: round 1 date: '11.05.02' may be 2011-05-02 (yy.mm.dd) or "
        "2011-02-05 (yy.dd.mm, as other dates of this file are written); not used\n"
        f"Warning: {path}:11: round 2 date: '11.12.02' may be 2011-12-02 (yy.mm.dd) or "
        "2011-02-12 (yy.dd.mm, as other dates of this file are written); not used\n"
        f"Warning: {path}:11: round 3 date: impossible date '11.19.02' (as yy.dd.mm it would "
        "be 2011-02-19); not used\n"
        f"Warning: {path}:11: round 4 date: impossible date '11.26.02' (as yy.dd.mm it would "
        "be 2011-02-26); not used\n"
        f"Warning: {path}:11: round dates: the games of rounds 1, 2, 3, 4 are dated 2011-02-05 "
        "(the start date, 042), as their round dates are not used\n"
        f"Warning: {path}:16: federation: 'C.C' is not a FIDE federation code; kept as written "
        "(3 new players, first on line 16)\n"
        f"Warning: {path}:17: federation: 'RAT' is not a FIDE federation code; kept as written "
        "(2 new players, first on line 17)\n"
        f"Warning: {path}:21: points: player 7 declares 4.5 points, the results add up to 3.0 "
        "and a blank-result bye worth 0 or ½; stored as blank\n"
        f"Warning: {path}:22: points: player 8 declares 1.5 points, the results add up to 1.0\n"
        + UNKNOWN_GAMES.format(n=7, s="s"),
    )
    assert before == [(0,)]
    assert rows(db, "SELECT name, federation, sex, entry_rating FROM players ORDER BY id")[:4] == [
        ("Murphy, Sean", "IRL", "m", 2105),
        ("O'Brien, Aoife", "C.C", "f", 1980),
        ("Kelly, Conor", "RAT", "m", 1875),
        ("Byrne, Niamh", "C.C", "f", 1820),
    ]
    assert rows(db, "SELECT round, p.name, code FROM byes JOIN players p ON p.id = player_id "
                    "ORDER BY byes.round, p.name") == [
        ("2", "Kelly, Conor", "U"),
        ("2", "Walsh, Patrick", "H"),  # blank; the declared 2.0 shows it worth ½
        ("3", "Nolan, Eoin", "Z"),
        ("3", "Ryan, Ciara", "?"),  # blank; the declared 0.5 shows it worth 0
        ("4", "Doyle, Liam", "?"),  # blank; the declared 4.5 cannot be reached
        ("4", "Walsh, Patrick", "F"),
    ]  # fmt: skip
    assert rows(db, "SELECT DISTINCT played_on FROM games") == [("2011-02-05",)]
    assert rows(db, "SELECT start_date, end_date FROM events") == [("2011-02-05", "2011-02-26")]


def test_every_problem_of_a_file_is_listed(tmp_path: Path, db: Path) -> None:
    """Each run reported only the first problem (now the reader's, the
    dates' and the register's problems come together, in line order)."""
    invoke(db, "player", "add", "Anna", "--fide-id", "4100018")
    path = trf_file(
        tmp_path / "bad.trf",
        player_line(1, "Anna", ["   2 w 1"]),
        player_line(2, "Bert", ["   1 b 1"], rating="4000"),
        player_line(3, "Cleo", ["   4 w ="], birth="1990/02/30"),
        player_line(4, "Dirk", ["   3 b ="], fide_id="4100018"),
        player_line(5, "Emil", ["0000 - Q"]),
        header=("042 2025-03-10", "052 2025-03-01"),
    )
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}:3: end date: the end date 2025-03-01 is before the start date "
        "2025-03-10\n"
        f"Error: {path}:4: round 1: players 1 and 2 disagree on the result: line 4 has "
        "'2 w 1', line 5 has '1 b 1'\n"
        f"Error: {path}:5: rating: not in 0..3500: 4000\n"
        f"Error: {path}:6: birth date: impossible date '1990/02/30'\n"
        f"Error: {path}:7: FIDE id: 'Dirk' does not match FIDE id 4100018, which belongs to "
        "player 1 (Anna, FIDE 4100018); correct the file or the register\n"
        f"Error: {path}:8: round 1: unknown result code 'Q'\n"
        "Error: 6 problems found; nothing was imported\n",
    )
    assert db.read_bytes() == before


def test_double_forfeits_and_game_dates(db: Path) -> None:
    invoke(db, "import", "trf", str(TRF / "issue_15.input"), "--date", "2023-02-23")
    assert rows(db, "SELECT round, result, rateable FROM games WHERE result = '-/-'") == [
        ("6", "-/-", 0),
        ("9", "-/-", 0),
    ]
    assert rows(db, "SELECT DISTINCT played_on FROM games") == [("2023-02-23",)]
    assert rows(db, "SELECT start_date, end_date, source FROM events") == [
        ("2023-02-23", "2023-02-23", "trf")
    ]


def test_round_dates_date_the_games(db: Path) -> None:
    """armstrong_2011 has 132 round dates (yy.mm.dd): each game takes its round's date."""
    assert invoke(db, "import", "trf", str(TRF / "armstrong_2011.tab"))[0] == 0
    assert rows(db, "SELECT round, min(played_on), max(played_on) FROM games "
                    "WHERE round IN ('1', '11') GROUP BY round ORDER BY round") == [
        ("1", "2010-09-13", "2010-09-13"),
        ("11", "2011-03-13", "2011-03-13"),
    ]  # fmt: skip
    assert rows(db, "SELECT name, start_date, end_date FROM events") == [
        ("Leinster Chess Union Div 1 Armstrong Cup 2010 - 2011", "2010-09-13", "2011-03-13")
    ]


def test_exact_output(db: Path) -> None:
    path = TRF / "held_swiss_9.trf"
    assert invoke(db, "import", "trf", str(path)) == (
        0,
        "Imported 68 games (66 to rate, 2 not rated) and 8 byes in event 1 "
        f"'FIDE C.07 2023 Tie-Break Exercises' (2024-08-01 .. 2024-08-01) from {path}\n"
        "Players: 16 created, 0 matched by FIDE id, 0 matched by name\n",
        UNKNOWN_GAMES.format(n=16, s="s"),
    )


def test_players_are_created_from_the_file(db: Path) -> None:
    invoke(db, "import", "trf", str(TRF / "javafo_sample2.trf"))
    assert rows(
        db,
        "SELECT name, fide_id, birth_date, birth_year, sex, federation, title, entry_rating, "
        "entry_games FROM players WHERE id IN (1, 2, 40) ORDER BY id",
    ) == [
        # a TRF file does not say how many rated games a player had: unknown
        ("Mirzoev Azer", 13400304, None, 1978, "m", "AZE", "GM", 2527, None),
        ("Argandona Riveiro Inigo", 2212072, None, 1981, "m", "ESP", "IM", 2408, None),
        # rating 0 in the file: unrated
        ("Navarro Armendariz Jose Leon", 22255826, None, 1928, "m", "ESP", None, None, None),
    ]


# --- line endings and encodings ------------------------------------------------------------


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings(tmp_path: Path, db: Path, ending: str) -> None:
    text = (TRF / "utf-8.tab").read_text(encoding="utf-8")
    path = tmp_path / "event.trf"
    path.write_bytes(text.replace("\n", ending).encode("utf-8"))
    assert invoke(db, "import", "trf", str(path)) == (
        0,
        "Imported 3 games (3 to rate) and 0 byes in event 1 "
        f"'Läs Végas National Opeñ' (2008-06-07 .. 2008-06-07) from {path}\n"
        "Players: 3 created, 0 matched by FIDE id, 0 matched by name\n",
        "",
    )
    assert rows(db, "SELECT round, w.name, b.name, result, rateable FROM games "
                    "JOIN players w ON w.id = white_id JOIN players b ON b.id = black_id "
                    "ORDER BY games.id") == [
        ("1", "Örr,Mârk", "Uì Laighlèis,Gearoìdin", "1-0", 1),
        ("2", "Uì Laighlèis,Gearoìdin", "Bologan,Viktor", "1-0", 1),
        ("3", "Bologan,Viktor", "Örr,Mârk", "0-1", 1),
    ]  # fmt: skip


@pytest.mark.parametrize("name", ["latin-1.tab", "utf-8.tab"])
def test_latin_1_and_utf_8_names(db: Path, name: str) -> None:
    invoke(db, "import", "trf", str(TRF / name))
    assert rows(db, "SELECT name, sex, title FROM players ORDER BY id") == [
        ("Uì Laighlèis,Gearoìdin", "f", None),
        ("Örr,Mârk", "m", "IM"),
        ("Bologan,Viktor", "m", "GM"),
    ]
    assert rows(db, "SELECT name FROM events") == [("Läs Végas National Opeñ",)]


def test_utf_8_with_bom(db: Path) -> None:
    path = TRF / "armstrong_2012_with_bom.tab"
    assert invoke(db, "import", "trf", str(path))[0] == 0
    assert rows(db, "SELECT name, start_date, end_date FROM events") == [
        ("Leinster Chess Union Div 1 Armstrong Cup 2011 - 2012", "2011-09-26", "2012-04-01")
    ]
    assert rows(db, "SELECT name, fide_id, entry_rating FROM players ORDER BY id") == [
        ("Griffiths, Ryan-Rhys", 6897, 2322),
        ("Cafolla, Peter", 159, 1982),
    ]


# --- result codes --------------------------------------------------------------------------

EVERY_CODE = (
    # round 1: played and rated; round 2: W/D/L, played but not rated; round 3: forfeits;
    # round 4: a played game without colours (not rated), byes; round 5: the other byes
    player_line(1, "Anna", ["   2 w 1", "   3 w W", "   5 w +", "   2 - =", "0000 - F"]),
    player_line(2, "Bert", ["   1 b 0", "   4 b D", "   6 b -", "   1 - =", "0000 - -"]),
    player_line(3, "Cleo", ["   4 w =", "   1 b L", "0000 - H", "0000 - U", "0000 -  "]),
    player_line(4, "Dirk", ["   3 b =", "   2 w D", "0000 - Z", "0000 - +"]),
    player_line(5, "Emil", ["   6 b 1", "   6 w 0", "   1 b -", "   6 w -"]),
    player_line(6, "Fred", ["   5 w 0", "   5 b 1", "   2 w +", "   5 b -"]),
)


def test_every_result_code(tmp_path: Path, db: Path) -> None:
    path = trf_file(tmp_path / "codes.trf", *EVERY_CODE)
    code, out, err = invoke(db, "import", "trf", str(path))
    assert (code, err) == (0, "")
    assert out == (
        "Imported 10 games (4 to rate, 6 not rated) and 7 byes in event 1 'Spring Open' "
        f"(2025-03-01 .. 2025-03-01) from {path}\n"
        "Players: 6 created, 0 matched by FIDE id, 0 matched by name\n"
    )
    assert rows(db, "SELECT round, w.name, b.name, result, rateable FROM games "
                    "JOIN players w ON w.id = white_id JOIN players b ON b.id = black_id "
                    "ORDER BY games.round, games.id") == [
        ("1", "Anna", "Bert", "1-0", 1),
        ("1", "Cleo", "Dirk", "1/2-1/2", 1),
        ("1", "Fred", "Emil", "0-1", 1),
        ("2", "Anna", "Cleo", "1-0", 0),
        ("2", "Dirk", "Bert", "1/2-1/2", 0),
        ("2", "Emil", "Fred", "0-1", 1),
        ("3", "Anna", "Emil", "+/-", 0),
        ("3", "Fred", "Bert", "+/-", 0),
        ("4", "Anna", "Bert", "1/2-1/2", 0),
        ("4", "Emil", "Fred", "-/-", 0),
    ]  # fmt: skip
    assert rows(db, "SELECT round, p.name, code FROM byes JOIN players p ON p.id = player_id "
                    "ORDER BY byes.round, p.name") == [
        ("3", "Cleo", "H"),
        ("3", "Dirk", "Z"),
        ("4", "Cleo", "U"),
        ("4", "Dirk", "+"),
        ("5", "Anna", "F"),
        ("5", "Bert", "-"),
        ("5", "Cleo", "?"),
    ]  # fmt: skip


# --- refusals: `Error: FILE:LINE: ...`, exit 1, the database unchanged ----------------------

ANNA = player_line(1, "Anna", ["   2 w 1"])
BERT = player_line(2, "Bert", ["   1 b 0"])

REFUSED = {
    "sides disagree": (
        [ANNA, player_line(2, "Bert", ["   1 b 1"])],
        "3: round 1: players 1 and 2 disagree on the result: "
        "line 3 has '2 w 1', line 4 has '1 b 1'",
    ),
    "colours disagree": (
        [ANNA, player_line(2, "Bert", ["   1 w 0"])],
        "3: round 1: players 1 and 2 disagree on the colours: "
        "line 3 has '2 w 1', line 4 has '1 w 0'",
    ),
    "truncated line": (
        [ANNA, "001    2 m"],
        "4: truncated player line (it ends before the name)",
    ),
    "undefined start number": (
        [player_line(1, "Anna", ["   3 w 1"]), player_line(2, "Bert", [])],
        "3: round 1: player 1 plays 3, but start number 3 is not defined (no 001 line)",
    ),
    "pairing not mutual": (
        [ANNA, player_line(2, "Bert", ["0000 - H"])],
        "3: round 1: player 1 plays 2 but line 4 (player 2) has a bye",
    ),
    "same player twice": (
        [ANNA, player_line(2, "anna", ["   1 b 0"])],
        "4: name: player 2 ('anna') is the same player as 1 ('Anna') on line 3",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused(tmp_path: Path, db: Path, case: str) -> None:
    lines, message = REFUSED[case]
    path = trf_file(tmp_path / "bad.trf", *lines)
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (1, "", f"Error: {path}:{message}\n")
    assert db.read_bytes() == before


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (("042 2025-03-10", "052 2025-03-01"),
         "3: end date: the end date 2025-03-01 is before the start date 2025-03-10"),
        (("042 1234-03-10",),
         "2: start date: date out of range 1850-01-01..2199-12-31: 1234-03-10"),
    ],
    ids=["end before start", "out of range"],
)  # fmt: skip
def test_impossible_dates(tmp_path: Path, db: Path, header: tuple[str, ...], message: str) -> None:
    path = trf_file(tmp_path / "bad.trf", ANNA, BERT, header=header)
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (1, "", f"Error: {path}:{message}\n")
    assert db.read_bytes() == before


def test_unreadable_dates_are_warnings(tmp_path: Path, db: Path) -> None:
    """Dates are information; the file is refused only when nothing
    dates the games (and then every problem is listed)."""
    path = trf_file(tmp_path / "bad.trf", ANNA, BERT, header=("042 2025-02-30",))
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}: no event or round dates in the file; give --date YYYY-MM-DD\n",
    )
    assert db.read_bytes() == before
    assert invoke(db, "import", "trf", str(path), "--date", "2025-03-07", "--dry-run")[2] == (
        f"Warning: {path}:2: start date: impossible date '2025-02-30'; not used\n"
    )
    path = trf_file(tmp_path / "month.trf", ANNA, BERT, header=(
        "042 2025-03-01", "132" + " " * 88 + "25/13/08"))  # fmt: skip
    assert invoke(db, "import", "trf", str(path)) == (
        0,
        "Imported 1 game (1 to rate) and 0 byes in event 1 'Spring Open' "
        f"(2025-03-01 .. 2025-03-01) from {path}\n"
        "Players: 2 created, 0 matched by FIDE id, 0 matched by name\n",
        f"Warning: {path}:3: round 1 date: impossible date '25/13/08' (as yy.dd.mm it would "
        "be 2025-08-13); not used\n"
        f"Warning: {path}:3: round dates: the games of round 1 are dated 2025-03-01 (the "
        "start date, 042), as their round dates are not used\n",
    )


@pytest.mark.parametrize("name", ["notes.txt", "0007.pgn"])
def test_not_a_trf_file(tmp_path: Path, db: Path, name: str) -> None:
    path = tmp_path / name
    if name.endswith(".pgn"):
        shutil.copyfile(PGN / name, path)
    else:
        path.write_text("shopping list\neggs\n", encoding="utf-8")
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}:1: not a TRF file: no 001 player line\n",
    )
    assert db.read_bytes() == before


def test_new_players_must_fit_the_register(tmp_path: Path, db: Path) -> None:
    path = trf_file(tmp_path / "bad.trf", player_line(1, "Anna", ["   2 w 1"], rating="4000",
                                                      fed="N\tR", birth="1850"),
                    BERT)  # fmt: skip
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}:3: rating: not in 0..3500: 4000\n"
        f"Error: {path}:3: birth date: not in 1900..2100: 1850\n"
        f"Error: {path}:3: federation: contains a control character: 'N\\tR'\n"
        "Error: 3 problems found; nothing was imported\n",
    )


def test_a_file_without_dates_needs_date(tmp_path: Path, db: Path) -> None:
    path = trf_file(tmp_path / "undated.trf", ANNA, BERT, header=())
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}: no event or round dates in the file; give --date YYYY-MM-DD\n",
    )
    assert db.read_bytes() == before
    assert invoke(db, "import", "trf", str(path), "--date", "2025-13-01") == (
        1,
        "",
        "Error: --date must be YYYY-MM-DD: '2025-13-01'\n",
    )
    assert invoke(db, "import", "trf", str(path), "--date", "2025-04-05")[0] == 0
    assert rows(db, "SELECT played_on FROM games") == [("2025-04-05",)]
    assert rows(db, "SELECT name, start_date, end_date FROM events") == [
        ("Spring Open", "2025-04-05", "2025-04-05")
    ]


def test_reimport_is_refused(db: Path) -> None:
    path = TRF / "utf-8.tab"
    assert invoke(db, "import", "trf", str(path))[0] == 0
    before = db.read_bytes()
    code, out, err = invoke(db, "import", "trf", str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {path}: this file was already imported on ")
    assert err.endswith(f"(as {path}, import 1); nothing was imported\n")
    assert db.read_bytes() == before
    # the same event in another encoding is other bytes, but the same event
    other = TRF / "latin-1.tab"
    code, out, err = invoke(db, "import", "trf", str(other))
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {other}: its event is already stored (same name, dates and ")
    assert db.read_bytes() == before
    assert invoke(db, "import", "trf", str(other), "--allow-duplicates")[0] == 0


def test_dry_run_writes_nothing(tmp_path: Path, db: Path) -> None:
    invoke(db, "player", "add", "Bert")
    path = trf_file(tmp_path / "ok.trf", ANNA, BERT, player_line(3, "Cleo", ["0000 - H"]))
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path), "--dry-run") == (
        0,
        f"Dry run of {path}: nothing was written\n"
        "Would create event 'Spring Open' (2025-03-01 .. 2025-03-01)\n"
        "Players: 2 to create, 0 matched by FIDE id, 1 matched by name\n"
        "     1 Anna: new player\n"
        "     2 Bert: player 1 (Bert) by name\n"
        "     3 Cleo: new player\n"
        "Games: 1 game (1 to rate); byes: 1\n",
        "",
    )
    assert db.read_bytes() == before
    # and the file can be imported for real afterwards
    assert invoke(db, "import", "trf", str(path))[0] == 0


# --- matching players ----------------------------------------------------------------------


def test_matching_by_fide_id_and_by_name(tmp_path: Path, db: Path) -> None:
    invoke(db, "player", "add", "Anna Smith", "--fide-id", "4100018", "--rating", "1500")
    invoke(db, "player", "add", "BERT JONES", "--rating", "1600")
    path = trf_file(
        tmp_path / "event.trf",
        # Anna's name differs in the file: her FIDE id finds her
        player_line(1, "Smith, Anna", ["   2 w 1", "   3 b ="], rating="1950",
                    fide_id="4100018"),
        player_line(2, "Bert  Jones", ["   1 b 0"], rating="2050"),
        player_line(3, "Cleo", ["0000 - H", "   1 w ="], rating="1900", fide_id="123",
                    sex="w", fed="ger", birth="2001/02/03"),
    )  # fmt: skip
    assert invoke(db, "import", "trf", str(path)) == (
        0,
        "Imported 2 games (2 to rate) and 1 bye in event 1 'Spring Open' "
        f"(2025-03-01 .. 2025-03-01) from {path}\n"
        "Players: 1 created, 1 matched by FIDE id, 1 matched by name\n",
        UNKNOWN_GAMES.format(n=3, s="s"),
    )
    # no duplicates; the entry data of matched players is untouched
    assert rows(db, "SELECT id, name, fide_id, entry_rating, birth_date, sex, federation "
                    "FROM players ORDER BY id") == [
        (1, "Anna Smith", 4100018, 1500, None, None, None),
        (2, "BERT JONES", None, 1600, None, None, None),
        (3, "Cleo", 123, 1900, "2001-02-03", "f", "GER"),
    ]  # fmt: skip
    assert rows(db, "SELECT white_id, black_id, result FROM games ORDER BY id") == [
        (1, 2, "1-0"),
        (3, 1, "1/2-1/2"),
    ]


def test_a_name_with_another_fide_id_is_another_player(tmp_path: Path, db: Path) -> None:
    invoke(db, "player", "add", "Anna", "--fide-id", "5")
    path = trf_file(tmp_path / "event.trf", player_line(1, "Anna", ["   2 w 1"], fide_id="78"),
                    BERT)  # fmt: skip
    assert invoke(db, "import", "trf", str(path))[0] == 0
    assert rows(db, "SELECT id, name, fide_id FROM players ORDER BY id") == [
        (1, "Anna", 5),
        (2, "Anna", 78),
        (3, "Bert", None),
    ]


def test_a_mistyped_fide_id_is_a_question_naming_the_registered_player(
    tmp_path: Path, db: Path
) -> None:
    """A line whose FIDE id is one digit off a registered player's, the
    name his, made a namesake without a word; then a namesake with a warning. A different
    FIDE id is never the same person by itself, but one keystroke away beside the same name
    is a question: the import stops until --match or --new says who it is."""
    invoke(db, "player", "add", "Mirzoev, Azer", "--fide-id", "13400304")
    path = trf_file(
        tmp_path / "event.trf",
        player_line(1, "Mirzoev Azer", ["   2 w 1"], fide_id="13400305"),
        BERT,
    )
    code, out, err = invoke(db, "import", "trf", str(path))
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        f"Error: {path}:3: name: 'Mirzoev Azer' is close to 1 Mirzoev, Azer (FIDE 13400304) "
        "[FIDE id one digit off]"
    )
    code, out, err = invoke(db, "import", "trf", str(path), "--new", "Mirzoev Azer")
    assert code == 0, err
    assert rows(db, "SELECT id, name, fide_id FROM players ORDER BY id") == [
        (1, "Mirzoev, Azer", 13400304),
        (2, "Mirzoev Azer", 13400305),
        (3, "Bert", None),
    ]


def test_an_ambiguous_name_needs_a_decision(tmp_path: Path, db: Path) -> None:
    invoke(db, "player", "add", "Bert", "--birthdate", "1990")
    invoke(db, "player", "add", "BERT", "--birthdate", "1991", "--allow-same-name")
    path = trf_file(tmp_path / "event.trf", ANNA, BERT)
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}:4: name: 'Bert' is close to 1 Bert (born 1990) [same name], "
        "2 BERT (born 1991) [same name]\n"
        "Error: 1 player needs a decision: --match 'NAME=ID' (or --match-file FILE) if it is "
        "a registered player, --new 'NAME' if a new one; each decision is kept as an alias; "
        "nothing was imported\n",
    )
    assert db.read_bytes() == before
    code, out, _ = invoke(db, "import", "trf", str(path), "--match", "Bert=2")
    assert code == 0
    # 'Bert' is player 1's name too, and the file gives nothing that tells them apart: the
    # decision holds for this file only (an alias would hand player 1's name to player 2)
    assert (
        "Not kept: 'Bert' not kept as an alias of player 2: it is the name of player 1 "
        "(Bert), and the file gives nothing that tells them apart; the next file that writes "
        "it so asks again\n"
    ) in out
    assert rows(db, "SELECT count(*) FROM player_aliases") == [(0,)]
    assert rows(db, "SELECT white_id, black_id FROM games") == [(3, 2)]


# --- rated periods -------------------------------------------------------------------------


def test_rated_periods_are_protected_and_marked(tmp_path: Path, db: Path) -> None:
    assert invoke(db, "import", "trf", str(TRF / "held_swiss_9.trf"))[0] == 0
    assert invoke(db, "rate")[0] == 0
    assert rows(db, "SELECT label, status FROM rating_periods") == [("2024-08", "published")]
    # before the oldest rated period: refused
    early = trf_file(tmp_path / "early.trf", ANNA, BERT, header=("042 2024-07-20",))
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(early)) == (
        1,
        "",
        f"Error: {early}: 2024-07-20 is rated in period 2024-07, before the oldest rated period "
        "2024-08; the rating history it needs does not exist: withdraw the rated lists first "
        "('ratings unrate --from 2024-08'), then 'ratings rate' rates again from 2024-07; "
        "nothing was imported\n",
    )
    assert db.read_bytes() == before
    # inside it: stored, and the period is marked for re-rating
    late = trf_file(tmp_path / "late.trf", ANNA, BERT, header=("042 2024-08-20",))
    code, _, err = invoke(db, "import", "trf", str(late))
    assert code == 0
    assert err == (
        "This touches rated period 2024-08: 'ratings rate' re-rates from there\n"
        + UNKNOWN_GAMES.format(n=16, s="s")
    )
    assert rows(db, "SELECT label, status FROM rating_periods") == [("2024-08", "needs_rerate")]


# --- damaged files -------------------------------------------------------------------------

VALID = (TRF / "held_swiss_9.trf").read_bytes()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    damage=st.lists(
        st.tuples(st.integers(0, len(VALID) - 1), st.binary(min_size=0, max_size=3)),
        min_size=1,
        max_size=4,
    )
)
def test_damaged_files_import_cleanly_or_name_a_line(
    tmp_path: Path, template: Path, damage: list[tuple[int, bytes]]
) -> None:
    data = bytearray(VALID)
    for offset, replacement in damage:
        data[offset : offset + 1] = replacement
    path = tmp_path / "damaged.trf"
    path.write_bytes(bytes(data))
    db = copy_database(template, tmp_path / "damaged.db")
    before = db.read_bytes()
    code, out, err = invoke(db, "import", "trf", str(path), "--date", "2024-08-01")
    event("imported" if code == 0 else "refused")
    if code == 0:
        assert out.startswith("Imported ")
        return
    assert code == 1
    assert out == ""
    first = err.splitlines()[0]
    assert first.startswith(f"Error: {path}:"), err
    line = first.removeprefix(f"Error: {path}:").split(":")[0]
    assert line.isdigit(), err
    assert db.read_bytes() == before


# --- FIDE ids and lengths ------------------------------------------------------------------


def test_the_fide_id_column_holds_eleven_digits(tmp_path: Path, db: Path) -> None:
    path = trf_file(tmp_path / "ids.trf", player_line(1, "Anna", ["   2 w 1"],
                    fide_id="99999999999"), BERT)  # fmt: skip
    assert invoke(db, "import", "trf", str(path))[0] == 0
    assert rows(db, "SELECT name, fide_id FROM players ORDER BY id") == [
        ("Anna", 99999999999),
        ("Bert", None),
    ]


@pytest.mark.parametrize(
    "fide_id",
    ["\u0664\u0661\u0660\u0660\u0660\u0661\u0668", "\uff14\uff11\uff10\uff10", "\u00b9\u00b2"],
)
def test_a_fide_id_in_other_digits_is_refused(tmp_path: Path, db: Path, fide_id: str) -> None:
    path = trf_file(tmp_path / "ids.trf", player_line(1, "Anna", ["   2 w 1"], fide_id=fide_id),
                    BERT)  # fmt: skip
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}:3: FIDE id: not a FIDE id (1 to 11 digits 0-9, not 0): {fide_id!r}\n",
    )
    assert db.read_bytes() == before


def test_event_name_at_and_one_over_the_limit(tmp_path: Path, db: Path) -> None:
    path = tmp_path / "long.trf"
    path.write_text("\n".join(["012 " + "E" * 201, "042 2025-03-01", ANNA, BERT]) + "\n", "utf-8")
    before = db.read_bytes()
    assert invoke(db, "import", "trf", str(path)) == (
        1,
        "",
        f"Error: {path}:1: event name: longer than 200 characters: "
        f"{'E' * 50!r}... (201 characters)\n",
    )
    assert db.read_bytes() == before
    path.write_text("\n".join(["012 " + "E" * 200, "042 2025-03-01", ANNA, BERT]) + "\n", "utf-8")
    assert invoke(db, "import", "trf", str(path))[0] == 0
    assert rows(db, "SELECT name FROM events") == [("E" * 200,)]


@pytest.mark.parametrize("kind", ["trf", "pgn"])
def test_an_event_named_after_a_long_file_name(tmp_path: Path, db: Path, kind: str) -> None:
    text = (
        "\n".join(["042 2025-03-01", ANNA, BERT]) + "\n"
        if kind == "trf"
        else '[Date "2025.03.01"]\n[White "Anna"]\n[Black "Bert"]\n[Result "1-0"]\n\n1-0\n'
    )
    long = tmp_path / ("f" * (200 - len(kind)) + "." + kind)
    long.write_text(text, "utf-8")
    before = db.read_bytes()
    assert invoke(db, "import", kind, str(long)) == (
        1,
        "",
        f"Error: {long}: event name: the file name is longer than 200 characters and the file "
        "names no event; rename the file\n",
    )
    assert db.read_bytes() == before
    fits = tmp_path / ("f" * (199 - len(kind)) + "." + kind)
    fits.write_text(text, "utf-8")
    assert invoke(db, "import", kind, str(fits))[0] == 0
    assert rows(db, "SELECT name FROM events") == [(fits.name,)]
