"""PGN ``TimeControl`` tags read into the games: FIDE's list of each game, and the
problems (located, kept apart, never raised)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ratings.errors import InputFileError
from ratings.io.pgn import PgnImport, parse_pgn
from ratings.rules import TimeControl

PGN = Path(__file__).parents[1] / "data" / "pgn"


def game(*tags: str) -> str:
    """One finished game: tag pairs given as 'Name value', then movetext and a blank line."""
    base = ("White A", "Black B", "Result 1-0", "Date 2026.11.01")
    pairs = [f'[{t.split(" ", 1)[0]} "{t.split(" ", 1)[1]}"]' for t in (*base, *tags)]
    return "\n".join([*pairs, "", "1. e4 e5 1-0", "", ""])


def parse(*games: str) -> PgnImport:
    return parse_pgn("".join(games).encode(), "g.pgn")


def located(problems: tuple[InputFileError, ...]) -> list[str]:
    return [str(p) for p in problems]


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("5400+30", TimeControl.STANDARD),  # 90 min + 30 s x 60 = 120 min
        ("40/7200:3600", TimeControl.STANDARD),
        ("3600", TimeControl.STANDARD),  # 60 minutes: standard (rapid is less than 60)
        ("3540", TimeControl.RAPID),
        ("900+10", TimeControl.RAPID),  # 15 min + 10 min
        ("600+1", TimeControl.RAPID),  # 11 minutes: more than 10
        ("600", TimeControl.BLITZ),  # 10 minutes or less
        ("180+2", TimeControl.BLITZ),  # 3 + 2 minutes
        ("181", TimeControl.BLITZ),  # just over 3 minutes
    ],
)
def test_the_tag_gives_the_list(tag: str, expected: TimeControl) -> None:
    imported = parse(game(f"TimeControl {tag}"))
    assert [g.time_control for g in imported.games] == [expected]
    assert imported.time_control_problems == ()


def test_no_tag_is_none_and_no_problem() -> None:
    imported = parse(game())
    assert [g.time_control for g in imported.games] == [None]
    assert imported.time_control_problems == ()


@pytest.mark.parametrize(
    ("tag", "problem"),
    [
        ("?", "time control unknown: '?'"),
        ("-", "no time control (-): '-'"),
        ("", "time control unknown: ''"),
        ("10 minutes", "not a PGN time control: '10 minutes'"),
        (
            "180",
            "180 seconds for 60 moves: rated on no FIDE list (blitz needs more than 3 "
            "minutes, R&B art. 1.1.2): '180'",
        ),
        (
            "60+2",
            "180 seconds for 60 moves: rated on no FIDE list (blitz needs more than 3 "
            "minutes, R&B art. 1.1.2): '60+2'",
        ),
    ],
)
def test_a_tag_that_names_no_list_is_a_located_problem(tag: str, problem: str) -> None:
    """The game is kept without a time control; the problem names file, line and tag."""
    text = game("Event Club") + game("Event Club", f"TimeControl {tag}")
    imported = parse_pgn(text.encode(), "g.pgn")  # not raised
    assert [g.time_control for g in imported.games] == [None, None]
    assert [g.line for g in imported.games] == [1, 9]
    assert located(imported.time_control_problems) == [f"g.pgn:14: TimeControl: {problem}"]
    (only,) = imported.time_control_problems
    assert (only.filename, only.line, only.field) == ("g.pgn", 14, "TimeControl")


def test_problems_are_not_in_the_errors_list_and_not_raised() -> None:
    errors: list[InputFileError] = []
    imported = parse_pgn(game("TimeControl ?").encode(), "g.pgn", errors=errors)
    assert errors == []
    assert len(imported.games) == 1
    assert len(imported.time_control_problems) == 1


def test_a_game_left_out_for_another_problem_is_not_classified() -> None:
    errors: list[InputFileError] = []
    text = game("Event Club", "TimeControl ?").replace("1-0", "2-0", 1)
    imported = parse_pgn(text.encode(), "g.pgn", errors=errors)
    assert (imported.games, imported.time_control_problems) == ((), ())
    assert [e.field for e in errors] == ["Result"]


def test_an_event_mixing_lists_is_reported() -> None:
    imported = parse(
        game("Event Club", "TimeControl 900+10"),  # line 1, rapid
        game("Event Club", "TimeControl 900"),  # line 10, rapid
        game("Event Club", "TimeControl 180+2"),  # line 19 (tag 24), blitz
        game("Event Club", "TimeControl 300"),  # line 28, blitz again: reported once
        game("Event Club", "TimeControl 5400+30"),  # line 37 (tag 42), standard
        game("Event Other", "TimeControl 180+2"),  # another event: its own list
        game("Event Club"),  # no tag: no list, no conflict
    )
    assert [g.time_control for g in imported.games] == [
        TimeControl.RAPID,
        TimeControl.RAPID,
        TimeControl.BLITZ,
        TimeControl.BLITZ,
        TimeControl.STANDARD,
        TimeControl.BLITZ,
        None,
    ]
    assert located(imported.time_control_problems) == [
        "g.pgn:24: TimeControl: event 'Club' mixes time controls: blitz here, rapid in the "
        "game at line 1",
        "g.pgn:42: TimeControl: event 'Club' mixes time controls: standard here, rapid in the "
        "game at line 1",
    ]


def test_games_without_an_event_are_one_event() -> None:
    imported = parse(game("TimeControl 900"), game("Event ?", "TimeControl 600"))
    assert located(imported.time_control_problems) == [
        "g.pgn:14: TimeControl: games without an Event tag mix time controls: blitz here, "
        "rapid in the game at line 1"
    ]


def test_the_sample_files() -> None:
    """0006.pgn: lichess "Classical" games at 10+10, 12+0, 16+6 are FIDE rapid; its blitz
    games (3+1, 5+0) blitz. 0002.pgn (a lichess study) says ``-``: a problem, the game kept."""
    lichess = parse_pgn((PGN / "0006.pgn").read_bytes(), "0006.pgn")
    assert [(g.event, g.time_control) for g in lichess.games] == [
        ("Rated Classical game", TimeControl.RAPID),
        ("Rated Classical game", TimeControl.RAPID),
        ("Rated Classical game", TimeControl.RAPID),
        ("Rated Blitz game", TimeControl.BLITZ),
        ("Rated Blitz game", TimeControl.BLITZ),
    ]
    assert lichess.time_control_problems == ()
    study = parse_pgn((PGN / "0002.pgn").read_bytes(), "0002.pgn")
    assert [g.time_control for g in study.games] == [None]
    assert located(study.time_control_problems) == [
        "0002.pgn:11: TimeControl: no time control (-): '-'"
    ]
