"""PGN tag import: the real sample files, skipped games, dates, encodings and refusals."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from ratings.errors import InputFileError, InputFileErrors
from ratings.io.pgn import PgnElo, PgnGame, PgnImport, parse_pgn
from ratings.results import Result

PGN = Path(__file__).parents[1] / "data" / "pgn"


def load(name: str) -> PgnImport:
    return parse_pgn((PGN / name).read_bytes(), name)


def refused(text: str) -> str:
    with pytest.raises(InputFileError) as info:
        parse_pgn(text.encode(), "g.pgn")
    return str(info.value)


def game(*tags: str, moves: str = "1. e4 e5") -> str:
    """One game: tag pairs given as 'Name value', then movetext and a blank line."""
    pairs = [f'[{t.split(" ", 1)[0]} "{t.split(" ", 1)[1]}"]' for t in tags]
    return "\n".join([*pairs, "", moves, "", ""])


# --- sample files --------------------------------------------------------------------------


def test_world_cup_0007() -> None:
    imported = load("0007.pgn")
    assert len(imported.games) == 5
    assert (imported.skipped_unfinished, imported.skipped_phantom) == (0, 0)
    assert Counter(g.result for g in imported.games) == {
        Result.BLACK_WIN: 3,
        Result.WHITE_WIN: 1,
        Result.DRAW: 1,
    }
    assert imported.games[0] == PgnGame(
        white="Giri,A",
        black="Abdusattorov,Nodirbek",
        white_fide_id=24116068,
        black_fide_id=14204118,
        result=Result.BLACK_WIN,
        date=date(2021, 7, 20),
        event="FIDE World Cup 2021",
        round="3.3",
        line=1,
        white_title="GM",
        black_title="GM",
    )
    assert imported.games[2].white == "Vachier Lagrave,M"
    assert [g.line for g in imported.games] == [1, 28, 61, 88, 115]
    assert all(g.white_fide_id and g.black_fide_id for g in imported.games)


def test_kasparov_deep_blue_0002() -> None:
    imported = load("0002.pgn")
    assert imported.games == (
        PgnGame(
            white="Kasparov",  # the file writes "Kasparov (2795)": a rating, not a name
            black="Deep-Blue",
            white_fide_id=None,
            black_fide_id=None,
            result=Result.WHITE_WIN,
            date=date(1997, 5, 3),
            event=None,  # Event "?"
            round=None,
            line=1,
        ),
    )


def test_lichess_0006_dates_from_utc_date() -> None:
    imported = load("0006.pgn")
    assert len(imported.games) == 5
    assert Counter(g.result for g in imported.games) == {Result.BLACK_WIN: 4, Result.WHITE_WIN: 1}
    assert {g.date for g in imported.games} == {date(2013, 1, 31)}
    assert Counter(g.event for g in imported.games) == {
        "Rated Classical game": 3,
        "Rated Blitz game": 2,
    }
    assert [g.line for g in imported.games] == [1, 19, 37, 55, 73]
    assert imported.games[0].white == "Yudhisthira"


# --- skipped games -------------------------------------------------------------------------


def test_unfinished_and_phantom_games_are_counted() -> None:
    text = (
        game("Event E", "White A", "Black B", "Result 1-0", moves="1. e4 e5 1-0")
        + "2. Nf3 Nc6\n\n"  # movetext after a blank line: python-chess yields a tag-less game
        + game("Event F", "White C", "Black D", "Result *", moves="1. d4 *")
        + "stray text at the end\n"
    )
    imported = parse_pgn(text.encode(), "g.pgn")
    assert [g.white for g in imported.games] == ["A"]
    assert imported.skipped_unfinished == 1
    assert imported.skipped_phantom == 2


def test_game_without_result_tag_is_unfinished() -> None:
    imported = parse_pgn(game("White A", "Black B").encode(), "g.pgn")
    assert (imported.games, imported.skipped_unfinished) == ((), 1)


def test_empty_file() -> None:
    assert parse_pgn(b"", "g.pgn") == PgnImport((), 0, 0)


# --- tags ----------------------------------------------------------------------------------


def test_bad_result_tag_names_line_and_field() -> None:
    text = game("Event E", "White A", "Black B", "Result 1-0") + game(
        "Event E", "White C", "Black D", "Result 1-1"
    )
    assert refused(text) == (
        "g.pgn:11: Result: unknown result '1-1' (expected 1-0, 0-1, 1/2-1/2 or *)"
    )


@pytest.mark.parametrize("value", ["+/-", "1/2", "½-½", "0-0", ""])
def test_other_result_values_are_refused(value: str) -> None:
    assert "Result: unknown result" in refused(game("White A", "Black B", f"Result {value}"))


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (["Date 2021.07.20", "EventDate 2021.07.12"], date(2021, 7, 20)),
        (["Date ????.??.??", "EventDate 2021.07.12"], date(2021, 7, 12)),
        (["Date 2021.07.??", "EventDate 2021.07.12"], date(2021, 7, 12)),  # partly known
        (["Date 2021.??.??", "UTCDate 2021.07.14"], date(2021, 7, 14)),
        (["EventDate 2021.??.??", "UTCDate 2021.07.14"], date(2021, 7, 14)),
        (["Date 2021.07.??"], None),
        (["Date ????.??.??"], None),
        ([], None),
        (["Date 2021-07-20"], date(2021, 7, 20)),
    ],
)
def test_date_fallbacks(tags: list[str], expected: date | None) -> None:
    text = game("White A", "Black B", "Result 1/2-1/2", *tags)
    (only,) = parse_pgn(text.encode(), "g.pgn").games
    assert only.date == expected


def test_impossible_date_is_refused() -> None:
    text = game("White A", "Black B", "Result 1-0", "Date 2021.02.30")
    assert refused(text) == "g.pgn:4: Date: impossible date '2021.02.30'"


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (["Event ?", "Round ?"], (None, None)),
        (["Event -", "Round -"], (None, None)),
        (["Event Club night", "Round 4.1"], ("Club night", "4.1")),
        ([], (None, None)),
    ],
)
def test_event_and_round(tags: list[str], expected: tuple[str | None, str | None]) -> None:
    (only,) = parse_pgn(game("White A", "Black B", "Result 0-1", *tags).encode(), "g").games
    assert (only.event, only.round) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1503014", 1503014),
        ("99999999999", 99999999999),  # 11 digits, the most a FIDE id has
        ("0", None),
        ("0" * 5000, None),
        ("?", None),
        ("", None),
    ],
)
def test_fide_ids(value: str, expected: int | None) -> None:
    text = game("White A", "Black B", "Result 1-0", f"WhiteFideId {value}")
    (only,) = parse_pgn(text.encode(), "g.pgn").games
    assert (only.white_fide_id, only.black_fide_id) == (expected, None)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("15O3014", "'15O3014'"),
        ("100000000000", "'100000000000'"),  # 12 digits
        ("99999999999999999999999", "'99999999999999999999999'"),  # was an OverflowError
        ("9" * 5000, repr("9" * 50) + "... (5000 characters)"),  # int() refuses 5000 digits
        ("\u0661\u0665\u0660\u0663", "'\u0661\u0665\u0660\u0663'"),  # Arabic-Indic
        ("\u00b9\u00b2", "'\u00b9\u00b2'"),  # superscript
        ("-5", "'-5'"),
    ],
)
def test_bad_fide_id_is_refused(value: str, shown: str) -> None:
    text = game("White A", "Black B", "Result 1-0", f"BlackFideId {value}")
    assert refused(text) == (
        f"g.pgn:4: BlackFideId: not a FIDE id (1 to 11 digits 0-9, not 0): {shown}"
    )


@pytest.mark.parametrize(
    ("tag", "value", "problem"),
    [
        ("Event", "E" * 201, f"longer than 200 characters: {'E' * 50!r}... (201 characters)"),
        ("Round", "1" * 21, "longer than 20 characters: " + repr("1" * 21)),
        ("White", "W" * 201, f"longer than 200 characters: {'W' * 50!r}... (201 characters)"),
        ("Event", "Open\x1b", "contains a control character: 'Open\\x1b'"),
        ("White", "A\tB", "contains a control character: 'A\\tB'"),
    ],
)  # fmt: skip
def test_limits_of_stored_tags(tag: str, value: str, problem: str) -> None:
    tags = {"White": "A", "Black": "B", "Result": "1-0", tag: value}
    text = game(*(f"{k} {v}" for k, v in tags.items()))
    line = list(tags).index(tag) + 1
    assert refused(text) == f"g.pgn:{line}: {tag}: {problem}"


def test_tags_at_the_limits() -> None:
    text = game("White " + "W" * 200, "Black B", "Result 1-0", "Event " + "E" * 200,
                "Round " + "1" * 20)  # fmt: skip
    (only,) = parse_pgn(text.encode(), "g.pgn").games
    assert (len(only.white), len(only.event or ""), len(only.round or "")) == (200, 200, 20)


@pytest.mark.parametrize("tags", [["Black B"], ["White ?", "Black B"], ["White A", "Black  "]])
def test_missing_player_name_is_refused(tags: list[str]) -> None:
    message = refused(game(*tags, "Result 1-0"))
    assert message.endswith(": missing player name")
    assert message.startswith("g.pgn:")


def test_names_as_written() -> None:
    text = game("White  Carlsen, Magnus ", "Black Ding Liren", "Result 1-0")
    (only,) = parse_pgn(text.encode(), "g.pgn").games
    assert (only.white, only.black) == (" Carlsen, Magnus ", "Ding Liren")


# --- encodings and line endings ------------------------------------------------------------


def test_utf_8_with_bom_and_latin_1() -> None:
    text = game("White Örr, Mârk", "Black Ú Laighléis, Gearoídin", "Result 1/2-1/2")
    for data in (text.encode(), b"\xef\xbb\xbf" + text.encode(), text.encode("latin-1")):
        (only,) = parse_pgn(data, "g.pgn").games
        assert (only.white, only.black) == ("Örr, Mârk", "Ú Laighléis, Gearoídin")
        assert only.line == 1


@pytest.mark.parametrize("ending", ["\r\n", "\r", "\n"])
def test_line_endings(ending: str) -> None:
    data = (PGN / "0007.pgn").read_bytes().replace(b"\n", ending.encode())
    imported = parse_pgn(data, "0007.pgn")
    assert imported == load("0007.pgn")
    assert [g.line for g in imported.games] == [1, 28, 61, 88, 115]
    bad = data.replace(b'[Result "1-0"]', b'[Result "2-0"]')
    with pytest.raises(InputFileError, match=r"^0007\.pgn:67: Result: "):
        parse_pgn(bad, "0007.pgn")


def test_sample_0002_as_utf_8_holds_non_ascii_comments() -> None:
    data = (PGN / "0002.pgn").read_bytes()
    assert "→".encode() in data
    assert len(parse_pgn(data, "0002.pgn").games) == 1


# --- names with ratings, titles, Elo tags --------------------------------------------------


def test_kasparov_deep_blue_0002_with_elo() -> None:
    (only,) = parse_pgn((PGN / "0002.pgn").read_bytes(), "0002.pgn", elo=True).games
    assert (only.white, only.white_elo, only.black, only.black_elo) == (
        "Kasparov",
        PgnElo(2795, "White", 4),  # WhiteElo "?": the rating after the name, line 4
        "Deep-Blue",
        None,
    )


@pytest.mark.parametrize(
    ("name", "expected", "rating"),
    [
        ("Kasparov (2795)", "Kasparov", 2795),
        ("Kasparov, Garry  ( 2795)", "Kasparov, Garry  ( 2795)", None),  # not "(digits)"
        ("Kasparov, Garry(2795) ", "Kasparov, Garry", 2795),
        ("Smith (850)", "Smith", 850),
        ("Smith (3500)", "Smith", 3500),
        ("Smith (3501)", "Smith (3501)", None),  # over any rating: part of the name
        ("Smith (0000)", "Smith (0000)", None),
        ("Smith (12)", "Smith (12)", None),
        ("Smith (ENG)", "Smith (ENG)", None),
        ("(2795)", "(2795)", None),  # nothing before it: the whole name
        ("Smith (2795) Jr", "Smith (2795) Jr", None),
        ("Smith (\u0662\u0667\u0669\u0665)", "Smith (\u0662\u0667\u0669\u0665)", None),
    ],
)
def test_a_rating_after_the_name(name: str, expected: str, rating: int | None) -> None:
    text = game(f"White {name}", "Black B", "Result 1-0")
    (plain,) = parse_pgn(text.encode(), "g.pgn").games
    (with_elo,) = parse_pgn(text.encode(), "g.pgn", elo=True).games
    assert (plain.white, plain.white_elo) == (expected, None)
    assert with_elo.white == expected
    assert with_elo.white_elo == (None if rating is None else PgnElo(rating, "White", 1))


def test_the_elo_tag_wins_over_the_rating_after_the_name() -> None:
    text = game("White A (1500)", "Black B", "Result 1-0", "WhiteElo 1620", "BlackElo 0")
    (only,) = parse_pgn(text.encode(), "g.pgn", elo=True).games
    assert (only.white, only.white_elo, only.black_elo) == ("A", PgnElo(1620, "WhiteElo", 4), None)


@pytest.mark.parametrize("value", ["?", "-", "", "0", "0000"])
def test_no_elo(value: str) -> None:
    text = game("White A", "Black B", "Result 1-0", f"WhiteElo {value}")
    (only,) = parse_pgn(text.encode(), "g.pgn", elo=True).games
    assert only.white_elo is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("2800+", "not a whole number (digits 0-9): '2800+'"),
        ("3501", "not in 0..3500: '3501'"),
        ("\u0662\u0668\u0660\u0660", "not a whole number (digits 0-9): '\u0662\u0668\u0660\u0660'"),
    ],
)
def test_an_elo_that_is_not_a_rating(value: str, problem: str) -> None:
    text = game("White A", "Black B", "Result 1-0", f"BlackElo {value}")
    # without elo=True the tag is not read, so it cannot refuse the file
    assert len(parse_pgn(text.encode(), "g.pgn").games) == 1
    with pytest.raises(InputFileError) as info:
        parse_pgn(text.encode(), "g.pgn", elo=True)
    assert str(info.value) == f"g.pgn:4: BlackElo: not a rating: {problem}"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("GM", "GM"), ("wgm", "WGM"), ("CM", "CM"), ("NM", None), ("BOT", None), ("?", None)],
)
def test_title_tags(value: str, expected: str | None) -> None:
    text = game("White A", "Black B", "Result 1-0", f"WhiteTitle {value}", f"BlackTitle {value}")
    (only,) = parse_pgn(text.encode(), "g.pgn").games
    assert (only.white_title, only.black_title) == (expected, expected)


def test_every_problem_of_a_file_is_reported() -> None:
    text = (
        game("White A", "Black B", "Result 1-1", "Date 2021.02.30")
        + game("White C", "Black D", "Result 1-0")
        + game("White ?", "Black F", "Result 0-1", "WhiteFideId 12x", "WhiteElo high")
    )
    with pytest.raises(InputFileErrors) as info:
        parse_pgn(text.encode(), "g.pgn", elo=True)
    assert [str(e) for e in info.value.errors] == [
        "g.pgn:3: Result: unknown result '1-1' (expected 1-0, 0-1, 1/2-1/2 or *)",
        "g.pgn:4: Date: impossible date '2021.02.30'",
        "g.pgn:14: White: missing player name",
        "g.pgn:17: WhiteFideId: not a FIDE id (1 to 11 digits 0-9, not 0): '12x'",
        "g.pgn:18: WhiteElo: not a rating: not a whole number (digits 0-9): 'high'",
    ]
    found: list[InputFileError] = []
    imported = parse_pgn(text.encode(), "g.pgn", elo=True, errors=found)
    assert ([g.white for g in imported.games], len(found)) == (["C"], 5)
