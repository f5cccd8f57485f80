"""Players and games CSV columns for the rapid and blitz lists."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest

from ratings.errors import InputFileErrors
from ratings.io.csv import (
    GAME_COLUMNS,
    GAME_LIST_COLUMNS,
    PLAYER_COLUMNS,
    PLAYER_LIST_COLUMNS,
    GameRow,
    PlayerRow,
    read_games_csv,
    read_players_csv,
    write_games_csv,
    write_players_csv,
)
from ratings.results import Result
from ratings.rules import TimeControl

FILE = "tests/x.csv"


def problems(read: Callable[[bytes, str], object], text: str) -> list[str]:
    """The messages of every problem in a file (which must have some)."""
    with pytest.raises(InputFileErrors) as info:
        read(text.encode(), FILE)
    return [str(error) for error in info.value.errors]


# --- players ---------------------------------------------------------------------------------


def test_players_rapid_and_blitz_columns() -> None:
    text = (
        "name,rating,games,rapid_rating,rapid_games,blitz_rating,blitz_games\n"
        "Carlsen,2833,300,2801,120,2860,90\n"
        "Newcomer,,,,,1450,\n"
    )
    carlsen, newcomer = read_players_csv(text.encode(), FILE)
    assert (carlsen.rating, carlsen.games) == (2833, 300)
    assert (carlsen.rapid_rating, carlsen.rapid_games) == (2801, 120)
    assert (carlsen.blitz_rating, carlsen.blitz_games) == (2860, 90)
    assert (newcomer.rapid_rating, newcomer.rapid_games) == (None, None)
    assert (newcomer.blitz_rating, newcomer.blitz_games) == (1450, None)
    assert carlsen.given == frozenset(
        {"name", "rating", "games", "rapid_rating", "rapid_games", "blitz_rating", "blitz_games"}
    )
    assert newcomer.given == frozenset({"name", "blitz_rating"})


def test_columns_in_any_order_and_case_semicolons() -> None:
    (row,) = read_players_csv(b"Blitz_Games;NAME;RAPID_RATING\n7;A;1500\n", FILE)
    assert (row.name, row.rapid_rating, row.blitz_games) == ("A", 1500, 7)


def test_a_file_without_the_columns_reads_as_before() -> None:
    (row,) = read_players_csv(b"name,rating,games\nA,1500,10\n", FILE)
    assert row == PlayerRow(2, "A", None, None, None, 1500, 10, False, None, None, None)
    assert (row.rapid_rating, row.rapid_games, row.blitz_rating, row.blitz_games) == (None,) * 4


def test_the_columns_are_checked_as_rating_and_games() -> None:
    text = (
        "name,rating,games,rapid_rating,rapid_games,blitz_rating,blitz_games\n"
        "A,3501,-1,3501,-1,\u0662\u0660\u0660\u0660,100001\n"
        "B,1500,1,1 500,x,+1500,1.5\n"
    )
    assert problems(read_players_csv, text) == [
        "tests/x.csv:2: rating: not in 0..3500: '3501'",
        "tests/x.csv:2: games: not in 0..100000: '-1'",
        "tests/x.csv:2: rapid_rating: not in 0..3500: '3501'",
        "tests/x.csv:2: rapid_games: not in 0..100000: '-1'",
        "tests/x.csv:2: blitz_rating: not a whole number (digits 0-9): '\u0662\u0660\u0660\u0660'",
        "tests/x.csv:2: blitz_games: not in 0..100000: '100001'",
        "tests/x.csv:3: rapid_rating: not a whole number (digits 0-9): '1 500'",
        "tests/x.csv:3: rapid_games: not a whole number (digits 0-9): 'x'",
        "tests/x.csv:3: blitz_rating: not a whole number (digits 0-9): '+1500'",
        "tests/x.csv:3: blitz_games: not a whole number (digits 0-9): '1.5'",
    ]


def test_players_round_trip_with_lists() -> None:
    rows = [
        PlayerRow(2, "A", None, 1990, 1503014, 2833, 300, True, "m", "NOR", "GM",
                  rapid_rating=2801, rapid_games=120, blitz_rating=2860, blitz_games=None),
        PlayerRow(3, "B", None, None, None, None, None, False, None, None, None),
    ]  # fmt: skip
    text = write_players_csv(rows, lists=True)
    assert text.splitlines()[0] == ",".join(PLAYER_COLUMNS + PLAYER_LIST_COLUMNS)
    assert text.splitlines()[1] == "A,1990,1503014,2833,300,true,m,NOR,GM,2801,120,2860,"
    assert read_players_csv(text.encode(), FILE) == rows
    # without lists=True the writer writes what it always wrote
    assert write_players_csv(rows).splitlines()[0] == ",".join(PLAYER_COLUMNS)
    assert write_players_csv(rows).splitlines()[1] == "A,1990,1503014,2833,300,true,m,NOR,GM"


# --- games -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("standard", TimeControl.STANDARD),
        ("Rapid", TimeControl.RAPID),
        ("BLITZ", TimeControl.BLITZ),
        (" blitz ", TimeControl.BLITZ),
        ("", None),
    ],
)
def test_games_time_control(cell: str, expected: TimeControl | None) -> None:
    text = f"date,white,black,result,time_control\n2026-11-01,A,B,1-0,{cell}\n"
    (row,) = read_games_csv(text.encode(), FILE)
    assert row.time_control is expected


def test_a_games_file_without_the_column_reads_as_before() -> None:
    (row,) = read_games_csv(b"date,white,black,result\n2026-11-01,A,B,1-0\n", FILE)
    assert row == GameRow(2, date(2026, 11, 1), "A", "B", Result.WHITE_WIN, None, None)
    assert row.time_control is None


def test_an_unknown_time_control_names_file_line_and_column() -> None:
    text = (
        "date;white;black;result;time_control\n"
        "2026-11-01;A;B;1-0;rapid\n"
        "2026-11-01;A;C;1-0;classical\n"
        "2026-11-01;B;C;1-0;rápid\n"
        "2026-11-01;B;C;1-0;10+5\n"
    )
    assert problems(read_games_csv, text) == [
        "tests/x.csv:3: time_control: unknown time control (use standard, rapid or blitz): "
        "'classical'",
        "tests/x.csv:4: time_control: unknown time control (use standard, rapid or blitz): 'rápid'",
        "tests/x.csv:5: time_control: unknown time control (use standard, rapid or blitz): '10+5'",
    ]


def test_games_round_trip_with_lists() -> None:
    rows = [
        GameRow(2, date(2026, 11, 1), "A", "B", Result.DRAW, "Club", "1", TimeControl.RAPID),
        GameRow(3, date(2026, 11, 2), "A", "B", Result.WHITE_WIN, None, None),
    ]
    text = write_games_csv(rows, lists=True)
    assert text.splitlines() == [
        ",".join(GAME_COLUMNS + GAME_LIST_COLUMNS),
        "2026-11-01,A,B,1/2-1/2,Club,1,rapid",
        "2026-11-02,A,B,1-0,,,",
    ]
    assert read_games_csv(text.encode(), FILE) == rows
    assert write_games_csv(rows).splitlines()[0] == ",".join(GAME_COLUMNS)
