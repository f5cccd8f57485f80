"""Players and games CSV files: parsing, every problem reported, and writer round trips."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.errors import InputFileError, InputFileErrors
from ratings.io.csv import (
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    GameRow,
    PlayerRow,
    read_games_csv,
    read_players_csv,
    write_games_csv,
    write_players_csv,
)
from ratings.results import Result

FILE = "tests/x.csv"
FIDE_ID_RULE = "not a FIDE id (1 to 11 digits 0-9, not 0)"


def player_problems(text: str | bytes) -> list[str]:
    """The messages of every problem in a players file (which must have some)."""
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(InputFileErrors) as info:
        read_players_csv(data, FILE)
    return [str(error) for error in info.value.errors]


def game_problems(text: str | bytes) -> list[str]:
    """The messages of every problem in a games file (which must have some)."""
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(InputFileErrors) as info:
        read_games_csv(data, FILE)
    return [str(error) for error in info.value.errors]


BASE = PlayerRow(
    line=2,
    name="Carlsen, Magnus",
    birth_date=None,
    birth_year=None,
    fide_id=None,
    rating=None,
    games=None,
    k10=False,
    sex=None,
    federation=None,
    title=None,
)


def player(**overrides: Any) -> PlayerRow:
    """A PlayerRow with every optional field empty, changed by ``overrides``."""
    return replace(BASE, **overrides)


# ------------------------------------------------------------------------------------------
# players: good files


def test_players_full_row() -> None:
    data = (
        b"name,birthdate,fide_id,rating,games,k10,sex,federation,title\n"
        b'"Carlsen, Magnus",1990-11-30,1503014,2839,1200,true,M,nor,gm\n'
    )
    assert read_players_csv(data, FILE) == [
        player(
            name="Carlsen, Magnus",
            birth_date=date(1990, 11, 30),
            birth_year=1990,
            fide_id=1503014,
            rating=2839,
            games=1200,
            k10=True,
            sex="m",
            federation="NOR",
            title="GM",
        )
    ]


def test_players_only_name_column_and_defaults() -> None:
    assert read_players_csv(b"name\nAnand\n", FILE) == [player(name="Anand")]


def test_players_blank_optional_values_take_defaults() -> None:
    data = b"name,birthdate,fide_id,rating,games,k10,sex,federation,title\nAnand,,,,,,,,\n"
    assert read_players_csv(data, FILE) == [player(name="Anand")]


def test_columns_in_any_order_and_header_case_and_spaces() -> None:
    data = b" Rating ,K10,NAME,  Birthdate\n1500,yes,Anna,2010\n"
    assert read_players_csv(data, FILE) == [
        player(name="Anna", rating=1500, k10=True, birth_year=2010)
    ]


def test_bom_is_tolerated() -> None:
    assert read_players_csv(b"\xef\xbb\xbfname\nAnand\n", FILE) == [player(name="Anand")]


def test_quoted_names_with_commas_quotes_and_spaces() -> None:
    data = b'name,rating\n"Smith, John ""Jack""",1600\n  "Doe, Jane",1500\n'
    rows = read_players_csv(data, FILE)
    assert [(r.name, r.rating) for r in rows] == [('Smith, John "Jack"', 1600), ("Doe, Jane", 1500)]


def test_crlf_and_blank_lines_and_physical_line_numbers() -> None:
    data = b"name,rating\r\n\r\nAnand,2750\r\n,\r\nTopalov,2700\r\n"
    rows = read_players_csv(data, FILE)
    assert [(r.line, r.name) for r in rows] == [(3, "Anand"), (5, "Topalov")]


def test_line_of_a_record_after_a_multi_line_quoted_value() -> None:
    data = b'name,title\n"Anand",\n"Kasparov, Garry\nKimovich",XX\nTal,IM\nBotvinnik,YY\n'
    assert player_problems(data) == [
        "tests/x.csv:3: name: holds a control character (U+000A): 'Kasparov, Garry\\nKimovich'",
        "tests/x.csv:3: title: not a title (gm, im, fm, cm, wgm, wim, wfm, wcm): 'XX'",
        "tests/x.csv:6: title: not a title (gm, im, fm, cm, wgm, wim, wfm, wcm): 'YY'",
    ]


def test_header_only_is_a_problem() -> None:
    """A header and nothing under it is nothing to import (it was imported as 0 rows)."""
    with pytest.raises(InputFileErrors, match="no player below the header row"):
        read_players_csv(b"name,rating\n", FILE)
    with pytest.raises(InputFileErrors, match="no game below the header row"):
        read_games_csv(b"date,white,black,result\n", FILE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True),
        ("TRUE", True),
        ("Yes", True),
        ("1", True),
        ("false", False),
        ("No", False),
        ("0", False),
        ("", False),
    ],
)
def test_k10_values(text: str, expected: bool) -> None:
    assert read_players_csv(f"name,k10\nA,{text}\n".encode(), FILE)[0].k10 is expected


@pytest.mark.parametrize(
    ("text", "expected"), [("m", "m"), ("M", "m"), ("f", "f"), ("F", "f"), ("w", "f"), ("W", "f")]
)
def test_sex_values(text: str, expected: str) -> None:
    assert read_players_csv(f"name,sex\nA,{text}\n".encode(), FILE)[0].sex == expected


@pytest.mark.parametrize("title", ["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"])
def test_titles_case_insensitive(title: str) -> None:
    rows = read_players_csv(f"name,title\nA,{title.lower()}\n".encode(), FILE)
    assert rows[0].title == title


@pytest.mark.parametrize(
    ("text", "birth_date", "birth_year"),
    [
        ("2008-02-29", date(2008, 2, 29), 2008),
        ("1900-01-01", date(1900, 1, 1), 1900),
        ("2100", None, 2100),
        ("1975", None, 1975),
    ],
)
def test_birthdate_full_or_year(text: str, birth_date: date | None, birth_year: int) -> None:
    row = read_players_csv(f"name,birthdate\nA,{text}\n".encode(), FILE)[0]
    assert (row.birth_date, row.birth_year) == (birth_date, birth_year)


def test_limits_are_inclusive() -> None:
    data = f"name,fide_id,rating,games\n{'x' * 200},9999999999,3500,100000\nB,1,0,0\n".encode()
    rows = read_players_csv(data, FILE)
    assert [(len(r.name), r.fide_id, r.rating, r.games) for r in rows] == [
        (200, 9999999999, 3500, 100000),
        (1, 1, 0, 0),
    ]


# ------------------------------------------------------------------------------------------
# players: every field's bad values


@pytest.mark.parametrize(
    ("column", "value", "problem"),
    [
        ("name", "", "required but blank"),
        ("name", '"   "', "required but blank"),
        (
            "name",
            "x" * 201,
            "longer than 200 characters: " + repr("x" * 50) + "... (201 characters)",
        ),
        ("name", "A\x00B", "holds a control character (U+0000): 'A\\x00B'"),
        ("name", "A\x07B", "holds a control character (U+0007): 'A\\x07B'"),
        ("name", "A\u2028B", "holds a line separator (U+2028): 'A\\u2028B'"),
        ("name", "A\u200bB", "holds an invisible formatting character (U+200B): 'A\\u200bB'"),
        ("name", "\u202eA", "holds an invisible formatting character (U+202E): '\\u202eA'"),
        ("birthdate", "2023-02-30", "not a date (YYYY-MM-DD or YYYY): '2023-02-30'"),
        ("birthdate", "2023-13-01", "not a date (YYYY-MM-DD or YYYY): '2023-13-01'"),
        (
            "birthdate",
            "30.11.1990",
            "not a date (YYYY-MM-DD or YYYY): '30.11.1990' (for DD.MM.YYYY, give --date-format)",
        ),
        ("birthdate", "1990-1-5", "not a date (YYYY-MM-DD or YYYY): '1990-1-5'"),
        ("birthdate", "90", "not a date (YYYY-MM-DD or YYYY): '90'"),
        ("birthdate", "1899", "year not in 1900..2100: '1899'"),
        ("birthdate", "2101-01-01", "year not in 1900..2100: '2101-01-01'"),
        ("fide_id", "0", f"{FIDE_ID_RULE}: '0'"),
        ("fide_id", "-5", f"{FIDE_ID_RULE}: '-5'"),
        ("fide_id", "123456789012", f"{FIDE_ID_RULE}: '123456789012'"),
        ("fide_id", "\u0661\u0662", f"{FIDE_ID_RULE}: '\u0661\u0662'"),
        ("fide_id", "\u00b9\u00b2", f"{FIDE_ID_RULE}: '\u00b9\u00b2'"),
        ("fide_id", "9" * 5000, f"{FIDE_ID_RULE}: " + repr("9" * 50) + "... (5000 characters)"),
        ("fide_id", "12a", f"{FIDE_ID_RULE}: '12a'"),
        ("fide_id", "\uff11\uff12", f"{FIDE_ID_RULE}: '\uff11\uff12'"),
        ("rating", "abc", "not a whole number (digits 0-9): 'abc'"),
        ("rating", "1850.0", "not a whole number (digits 0-9): '1850.0'"),
        ("rating", "1_850", "not a whole number (digits 0-9): '1_850'"),
        ("rating", "-1", "not in 0..3500: '-1'"),
        ("rating", "3501", "not in 0..3500: '3501'"),
        ("rating", "9" * 5000, "not in 0..3500: " + repr("9" * 50) + "... (5000 characters)"),
        ("games", "-1", "not in 0..100000: '-1'"),
        ("games", "100001", "not in 0..100000: '100001'"),
        ("games", "many", "not a whole number (digits 0-9): 'many'"),
        ("k10", "maybe", "not a yes/no value (true, false, yes, no, 1, 0): 'maybe'"),
        ("k10", "2", "not a yes/no value (true, false, yes, no, 1, 0): '2'"),
        ("sex", "x", "not a sex (m, f or w): 'x'"),
        ("sex", "male", "not a sex (m, f or w): 'male'"),
        ("federation", "NO", "not a federation code (3 letters): 'NO'"),
        ("federation", "NORW", "not a federation code (3 letters): 'NORW'"),
        ("federation", "N0R", "not a federation code (3 letters): 'N0R'"),
        ("title", "XX", "not a title (gm, im, fm, cm, wgm, wim, wfm, wcm): 'XX'"),
        ("title", "NM", "not a title (gm, im, fm, cm, wgm, wim, wfm, wcm): 'NM'"),
    ],
)
def test_player_bad_values(column: str, value: str, problem: str) -> None:
    data = f"name,rating\n{value},1500\n" if column == "name" else f"name,{column}\nA,{value}\n"
    assert player_problems(data) == [f"tests/x.csv:2: {column}: {problem}"]


def test_duplicate_name_case_insensitive_on_the_second_line() -> None:
    data = 'name\n"Carlsen, Magnus"\nAnand\n"CARLSEN, magnus"\n'
    assert player_problems(data) == ["tests/x.csv:4: name: same name as line 2: 'CARLSEN, magnus'"]


def test_duplicate_fide_id_on_the_second_line() -> None:
    data = "name,fide_id\nA,1503014\nB,5000017\nC,01503014\n"
    assert player_problems(data) == ["tests/x.csv:4: fide_id: same fide_id as line 2: '01503014'"]


def test_all_problems_are_reported_with_exact_strings() -> None:
    data = (
        "name,rating,birthdate\n"
        "Good,1500,1990\n"
        "Bad rating,15OO,1990\n"
        "Good too,1600,\n"
        "Bad date,1700,1990-02-30\n"
        ",1800,2000\n"
    )
    with pytest.raises(InputFileErrors) as info:
        read_players_csv(data.encode(), FILE)
    assert [str(e) for e in info.value.errors] == [
        "tests/x.csv:3: rating: not a whole number (digits 0-9): '15OO'",
        "tests/x.csv:5: birthdate: not a date (YYYY-MM-DD or YYYY): '1990-02-30'",
        "tests/x.csv:6: name: required but blank",
    ]
    assert str(info.value).endswith("\n3 problems found; nothing was imported")
    first = info.value.errors[0]
    assert (first.filename, first.line, first.field) == (FILE, 3, "rating")


def test_problems_of_one_line_follow_the_file_column_order() -> None:
    assert player_problems("k10,rating,name\nx,y,\n") == [
        "tests/x.csv:2: k10: not a yes/no value (true, false, yes, no, 1, 0): 'x'",
        "tests/x.csv:2: rating: not a whole number (digits 0-9): 'y'",
        "tests/x.csv:2: name: required but blank",
    ]


# ------------------------------------------------------------------------------------------
# file-level problems (shared by both readers)


def test_unknown_column_lists_the_allowed_ones() -> None:
    assert player_problems("name,Elo\nA,1500\n") == [
        "tests/x.csv:1: unknown column 'Elo' (allowed: name, birthdate, fide_id, rating, games, "
        "k10, sex, federation, title, rapid_rating, rapid_games, blitz_rating, blitz_games, id)"
    ]
    assert game_problems("date,white,black,result,board\n") == [
        "tests/x.csv:1: unknown column 'board' (allowed: date, white, black, result, event, round, "
        "time_control)"
    ]


def test_missing_required_columns() -> None:
    assert player_problems("rating\n1500\n") == ["tests/x.csv:1: missing required column 'name'"]
    assert game_problems("white,date\n") == [
        "tests/x.csv:1: missing required column 'black'",
        "tests/x.csv:1: missing required column 'result'",
    ]


def test_duplicate_column() -> None:
    assert player_problems("name,rating,Name\n") == [
        "tests/x.csv:1: duplicate column 'name' (columns 1 and 3)"
    ]


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"\n\n", b" , \r\n"])
def test_empty_file(data: bytes) -> None:
    assert player_problems(data) == [
        "tests/x.csv: empty file; expected a header row (name, birthdate, fide_id, rating, "
        "games, k10, sex, federation, title)"
    ]


def test_not_utf8_names_the_line() -> None:
    data = "name\nAnand\nGr\u00fcnfeld\n".encode("latin-1")
    assert player_problems(data) == [
        "tests/x.csv:3: not utf-8 text, save the file as utf-8: bad byte b'\\xfc'"
    ]


def test_nul_bytes() -> None:
    assert player_problems(b"name,rating\nA\x00,1500\nB,15\x0000\n") == [
        "tests/x.csv:2: name: holds a control character (U+0000): 'A\\x00'",
        "tests/x.csv:3: rating: not a whole number (digits 0-9): '15\\x0000'",
    ]


def test_unclosed_quote_is_an_error_at_its_line() -> None:
    assert player_problems('name\nA\n"B\nC\n') == [
        "tests/x.csv:3: a quoted value that starts here is never closed (a '\"' is missing)"
    ]


def test_text_after_a_closing_quote() -> None:
    assert player_problems('name\nA\n"B"C\n') == [
        "tests/x.csv:3: text after the closing '\"' of a quoted value (write '\"\"' for a quote "
        "inside)"
    ]


def test_too_many_values() -> None:
    assert player_problems("name,rating\nA,1500,x\nB,1500,,\n") == [
        "tests/x.csv:2: 3 values but the header has 2 columns"
    ]


def test_missing_trailing_values_are_blank() -> None:
    rows = read_players_csv(b"name,rating,k10\nA\nB,1500\n", FILE)
    assert [(r.name, r.rating, r.k10) for r in rows] == [("A", None, False), ("B", 1500, False)]


def test_nameless_column_must_stay_blank() -> None:
    assert read_players_csv(b"name,,rating\nA,,1500\n", FILE) == [player(name="A", rating=1500)]
    assert player_problems("name,,rating\nA,oops,1500\n") == [
        "tests/x.csv:2: value in a column with no name: 'oops'"
    ]


def test_header_problems_stop_before_rows() -> None:
    # without a usable header the row checks would only add noise
    assert player_problems("name,elo\n,x\n") == [
        "tests/x.csv:1: unknown column 'elo' (allowed: name, birthdate, fide_id, rating, games, "
        "k10, sex, federation, title, rapid_rating, rapid_games, blitz_rating, blitz_games, id)"
    ]


def test_errors_are_input_file_errors() -> None:
    with pytest.raises(InputFileErrors) as info:
        read_players_csv(b"name,rating\nA,x\n", FILE)
    assert all(isinstance(e, InputFileError) for e in info.value.errors)
    assert isinstance(info.value, ValueError)


# ------------------------------------------------------------------------------------------
# games


def test_games_good_file_in_any_column_order() -> None:
    data = (
        "Result,Black,White,Date,Round,Event\n"
        "1-0,Anand,Carlsen,2025-01-05,1,Tata Steel\n"
        "½-½,1503014,Anand,2025-01-06,,\n"
        "=,Carlsen,5000017,2025-01-07,2.1,\n"
        "+/-,A,B,2025-01-08,,\n"
        "-/+,A,B,2025-01-08,,\n"
        "-/-,A,B,2025-01-08,,\n"
        "0-1,A,B,2025-01-08,,\n"
        "1/2-1/2,A,B,2025-01-08,,\n"
    ).encode()
    rows = read_games_csv(data, FILE)
    assert rows[0] == GameRow(
        line=2,
        date=date(2025, 1, 5),
        white="Carlsen",
        black="Anand",
        result=Result.WHITE_WIN,
        event="Tata Steel",
        round="1",
    )
    assert [r.result for r in rows] == [
        Result.WHITE_WIN,
        Result.DRAW,
        Result.DRAW,
        Result.WHITE_FORFEIT_WIN,
        Result.BLACK_FORFEIT_WIN,
        Result.DOUBLE_FORFEIT,
        Result.BLACK_WIN,
        Result.DRAW,
    ]
    assert (rows[1].event, rows[1].round, rows[2].round) == (None, None, "2.1")
    assert (rows[0].white_fide_id, rows[0].black_fide_id) == (None, None)
    assert (rows[1].white, rows[1].black_fide_id) == ("Anand", 1503014)
    assert (rows[2].white, rows[2].white_fide_id) == ("5000017", 5000017)


@pytest.mark.parametrize(
    ("column", "value", "problem"),
    [
        ("date", "", "required but blank"),
        ("date", "2025-13-01", "not a date (YYYY-MM-DD): '2025-13-01'"),
        ("date", "2025-02-29", "not a date (YYYY-MM-DD): '2025-02-29'"),
        ("date", "2025", "not a date (YYYY-MM-DD): '2025'"),
        (
            "date",
            "05.01.2025",
            "not a date (YYYY-MM-DD): '05.01.2025' (for DD.MM.YYYY, give --date-format)",
        ),
        ("date", "1899-12-31", "year not in 1900..2100: '1899-12-31'"),
        ("date", "2101-01-01", "year not in 1900..2100: '2101-01-01'"),
        ("white", "", "required but blank"),
        ("white", "0", f"{FIDE_ID_RULE}: '0'"),
        ("white", "123456789012", f"{FIDE_ID_RULE}: '123456789012'"),
        ("white", "9" * 30, f"{FIDE_ID_RULE}: '{'9' * 30}'"),
        ("white", "A\x00", "holds a control character (U+0000): 'A\\x00'"),
        ("black", "", "required but blank"),
        (
            "black",
            "y" * 201,
            "longer than 200 characters: " + repr("y" * 50) + "... (201 characters)",
        ),
        ("black", "carlsen", "same player as white: 'carlsen'"),
        ("result", "", "required but blank"),
        (
            "result",
            "1:0:0",
            "unknown result '1:0:0' (expected 1-0, 0-1, 1/2-1/2, =, +/-, -/+ or -/-)",
        ),
        (
            "result",
            "draw",
            "unknown result 'draw' (expected 1-0, 0-1, 1/2-1/2, =, +/-, -/+ or -/-)",
        ),
        (
            "event",
            "e" * 201,
            "longer than 200 characters: " + repr("e" * 50) + "... (201 characters)",
        ),
        ("event", "Open\x1b", "contains a control character: 'Open\\x1b'"),
        ("round", "r" * 21, "longer than 20 characters: " + repr("r" * 21)),
    ],
)
def test_game_bad_values(column: str, value: str, problem: str) -> None:
    values = {
        "date": "2025-01-05",
        "white": "Carlsen",
        "black": "Anand",
        "result": "1-0",
        "event": "",
        "round": "",
    }
    values[column] = value
    data = ",".join(GAME_COLUMNS) + "\n" + ",".join(values[c] for c in GAME_COLUMNS) + "\n"
    assert game_problems(data) == [f"tests/x.csv:2: {column}: {problem}"]


def test_same_player_by_fide_id() -> None:
    data = "date,white,black,result\n2025-01-05,1503014,1503014,1-0\n"
    assert game_problems(data) == ["tests/x.csv:2: black: same player as white: '1503014'"]


def test_games_all_problems_reported() -> None:
    data = (
        "date,white,black,result\n"
        "2025-13-01,A,B,1-0\n"
        "2025-01-02,A,B,1-0\n"
        "2025-01-03,A,a,2-0\n"
        "2025-01-04,,B,0-1\n"
    )
    assert game_problems(data) == [
        "tests/x.csv:2: date: not a date (YYYY-MM-DD): '2025-13-01'",
        "tests/x.csv:4: black: same player as white: 'a'",
        "tests/x.csv:4: result: unknown result '2-0' (expected 1-0, 0-1, 1/2-1/2, =, +/-, "
        "-/+ or -/-)",
        "tests/x.csv:5: white: required but blank",
    ]


# ------------------------------------------------------------------------------------------
# writers


def test_players_round_trip() -> None:
    rows = [
        player(
            line=2,
            name='Smith, John "Jack"',
            birth_date=date(2010, 5, 1),
            birth_year=2010,
            fide_id=123,
            rating=1500,
            games=12,
            k10=True,
            sex="m",
            federation="ENG",
            title="FM",
        ),
        player(line=3, name="Year Only", birth_year=1980, sex="f"),
        player(line=4, name="Nobody"),
    ]
    text = write_players_csv(rows)
    assert text.splitlines()[0] == ",".join(PLAYER_COLUMNS)
    assert text.splitlines()[1] == '"Smith, John ""Jack""",2010-05-01,123,1500,12,true,m,ENG,FM'
    assert read_players_csv(text.encode(), FILE) == rows


def test_games_round_trip_and_chunks() -> None:
    rows = [
        GameRow(2, date(2025, 1, 5), "Carlsen", "1503014", Result.DRAW, "Open, A", "1"),
        GameRow(3, date(2025, 1, 6), "A", "B", Result.BLACK_FORFEIT_WIN, None, None),
    ]
    text = write_games_csv(rows[:1]) + write_games_csv(rows[1:], header=False)
    assert text == (
        "date,white,black,result,event,round\n"
        '2025-01-05,Carlsen,1503014,1/2-1/2,"Open, A",1\n'
        "2025-01-06,A,B,-/+,,\n"
    )
    assert read_games_csv(text.encode(), FILE) == rows


# ------------------------------------------------------------------------------------------
# properties: any input gives rows or InputFileErrors, never another exception


def rows_or_problems(read: Callable[[bytes, str], Sequence[object]], data: bytes) -> None:
    """``read`` returns rows or raises InputFileErrors with at least one problem."""
    try:
        read(data, FILE)
    except InputFileErrors as exc:
        problems = exc.errors
    else:
        return
    assert problems
    assert all(str(problem).startswith(FILE + ":") for problem in problems)


_cell = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "1-0", "=", "2025-01-05", "1990", "1500", "true", "GM", "m", '"', "\n"]),
)


@settings(deadline=None, max_examples=100)
@given(
    header=st.lists(st.sampled_from([*PLAYER_COLUMNS, "Name", "x", ""]), min_size=1, max_size=5),
    rows=st.lists(st.lists(_cell, max_size=6), max_size=5),
)
def test_players_any_rows(header: list[str], rows: list[list[str]]) -> None:
    text = "\n".join(",".join(cells) for cells in [header, *rows])
    rows_or_problems(read_players_csv, text.encode("utf-8", "surrogatepass"))


@settings(deadline=None, max_examples=100)
@given(rows=st.lists(st.lists(_cell, max_size=7), max_size=5), raw=st.binary(max_size=20))
def test_games_any_rows(rows: list[list[str]], raw: bytes) -> None:
    text = "\n".join(",".join(cells) for cells in [list(GAME_COLUMNS), *rows])
    for data in (text.encode("utf-8", "surrogatepass"), text.encode("utf-8", "replace") + raw):
        rows_or_problems(read_games_csv, data)


@settings(deadline=None, max_examples=100)
@given(text=st.text(max_size=200))
def test_any_text_after_a_header(text: str) -> None:
    data = ("name,rating,birthdate,fide_id\n" + text).encode("utf-8", "replace")
    rows_or_problems(read_players_csv, data)


# ------------------------------------------------------------------------------------------
# the delimiter, read from the header line

SEMICOLON_GAMES = (
    "date;white;black;result;event;round\r\n"
    "2025-01-10;Smith, Ann;Jones, Bob;1-0;Club Ch;1\r\n"
    '2025-01-17;"Lee; Cho";4100011;1/2-1/2;;\r\n'
)


def test_a_semicolon_games_file_as_spreadsheets_save_it() -> None:
    # reported: "unknown column 'date;white;black;result;event;round'" and four "missing
    # required column" lines; the header line now tells the delimiter
    rows = read_games_csv(b"\xef\xbb\xbf" + SEMICOLON_GAMES.encode(), FILE)
    assert [(r.line, r.white, r.black, r.result, r.event, r.round) for r in rows] == [
        (2, "Smith, Ann", "Jones, Bob", Result.WHITE_WIN, "Club Ch", "1"),
        (3, "Lee; Cho", "4100011", Result.DRAW, None, None),
    ]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_players_files_with_each_delimiter(delimiter: str) -> None:
    header = delimiter.join(["name", "rating", "federation"])
    row = delimiter.join(['"Smith, Ann; Jr"', "1850", "ENG"])
    data = f"\n{header}\n{row}\n".encode()
    assert read_players_csv(data, FILE) == [
        player(line=3, name="Smith, Ann; Jr", rating=1850, federation="ENG")
    ]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_games_files_with_each_delimiter(delimiter: str) -> None:
    text = "\n".join(
        delimiter.join(cells)
        for cells in [list(GAME_COLUMNS), ["2025-01-10", "A", "B", "0-1", "Open", "2"]]
    )
    rows = read_games_csv(text.encode(), FILE)
    assert [(r.white, r.black, r.result, r.event, r.round) for r in rows] == [
        ("A", "B", Result.BLACK_WIN, "Open", "2")
    ]


def test_the_header_decides_and_values_may_hold_the_other_delimiters() -> None:
    # a comma file whose names hold semicolons, and a one-column file (comma by default)
    assert [r.name for r in read_players_csv(b"name,rating\nA; B,1500\n", FILE)] == ["A; B"]
    assert [r.name for r in read_players_csv(b"name\nSmith; Ann\n", FILE)] == ["Smith; Ann"]
    # a tab file: a comma inside a value is part of the value
    assert [r.name for r in read_players_csv(b"name\tk10\nSmith, Ann\tyes\n", FILE)] == [
        "Smith, Ann"
    ]


def test_problems_of_a_semicolon_file_name_its_columns() -> None:
    assert player_problems("Name;Elo\nA;1500\n") == [
        "tests/x.csv:1: unknown column 'Elo' (allowed: name, birthdate, fide_id, rating, games, "
        "k10, sex, federation, title, rapid_rating, rapid_games, blitz_rating, blitz_games, id)"
    ]
    assert game_problems(";;;;\ndate;white;black;result\n2025-13-01;A;A;2-0\n") == [
        "tests/x.csv:3: date: not a date (YYYY-MM-DD): '2025-13-01'",
        "tests/x.csv:3: black: same player as white: 'A'",
        "tests/x.csv:3: result: unknown result '2-0' (expected 1-0, 0-1, 1/2-1/2, =, +/-, "
        "-/+ or -/-)",
    ]
    assert player_problems("name;rating\nA;1500;x\n") == [
        "tests/x.csv:2: 3 values but the header has 2 columns"
    ]


def test_a_spreadsheets_date_names_the_option_that_reads_it() -> None:
    """Seen: `01/03/2009` was `not a date (YYYY-MM-DD or YYYY)`, with no word of
    `--date-format`."""
    assert player_problems("name,birthdate\nX Y,01/03/2009\n") == [
        "tests/x.csv:2: birthdate: not a date (YYYY-MM-DD or YYYY): '01/03/2009' (for "
        "DD/MM/YYYY or MM/DD/YYYY, give --date-format)"
    ]
    assert game_problems("date,white,black,result\n03.12.2026,A,B,1-0\n") == [
        "tests/x.csv:2: date: not a date (YYYY-MM-DD): '03.12.2026' (for DD.MM.YYYY, give "
        "--date-format)"
    ]
    # a date no format reads gets no hint
    assert game_problems("date,white,black,result\n2025-13-01,A,B,1-0\n") == [
        "tests/x.csv:2: date: not a date (YYYY-MM-DD): '2025-13-01'"
    ]
