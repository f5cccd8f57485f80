"""`ratings import pgn FILE`: tags only, events by Event tag, matching, skipped games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.imports.test_trf import PGN, db, rows, template
from tests.rating.test_real_data_rules import WARNING as UNKNOWN_GAMES
from tests.support import invoke

__all__ = ["db", "template"]  # fixtures shared with tests/imports/test_trf.py


def game(*tags: str, moves: str = "1. e4 e5 1-0") -> str:
    """One game: tag pairs given as 'Name value', then movetext and a blank line."""
    pairs = [f'[{t.split(" ", 1)[0]} "{t.split(" ", 1)[1]}"]' for t in tags]
    return "\n".join([*pairs, "", moves, "", ""])


CLUB = (
    game("Event Club Ch", "Date 2025.01.10", "Round 1", "White Smith, Ann", "Black Jones, Bob",
         "Result 1-0", "WhiteFideId 4100018", "WhiteElo 2100")
    + game("Event Club Ch", "Date 2025.01.17", "Round 2", "White Jones, Bob", "Black Lee, Cho",
           "Result 1/2-1/2", moves="1. d4 1/2-1/2")
    + game("Event Club Ch", "Date 2025.01.24", "Round 3", "White Lee, Cho",
           "Black Smith, Ann", "Result *", moves="*")
    + game("Event Blitz", "Date 2025.01.31", "White Smith, Ann", "Black Lee, Cho",
           "Result 0-1", moves="0-1")
    + "\n\n1. e4 e5\n\n"  # stray movetext: a tag-less "game"
)  # fmt: skip


def test_world_cup_sample(db: Path) -> None:
    path = PGN / "0007.pgn"
    assert invoke(db, "import", "pgn", str(path)) == (
        0,
        f"Imported 5 games (5 to rate) in 1 event from {path}\n"
        "  event 1 'FIDE World Cup 2021' (2021-07-20 .. 2021-07-20): 5 games\n"
        "Players: 10 created, 0 matched by FIDE id, 0 matched by name\n",
        "",
    )
    assert rows(db, "SELECT name, fide_id, entry_rating FROM players WHERE id <= 2") == [
        ("Giri,A", 24116068, None),
        ("Abdusattorov,Nodirbek", 14204118, None),
    ]
    assert rows(db, "SELECT DISTINCT round, played_on, rateable FROM games") == [
        ("3.3", "2021-07-20", 1)
    ]


def test_lichess_sample_has_two_events_dated_by_utcdate(db: Path) -> None:
    path = PGN / "0006.pgn"
    assert invoke(db, "import", "pgn", str(path)) == (
        0,
        f"Imported 5 games (5 to rate) in 2 events from {path}\n"
        "  event 1 'Rated Classical game' (2013-01-31 .. 2013-01-31): 3 games\n"
        "  event 2 'Rated Blitz game' (2013-01-31 .. 2013-01-31): 2 games\n"
        "Players: 10 created, 0 matched by FIDE id, 0 matched by name\n",
        "",
    )


def test_a_game_without_event_joins_an_event_named_after_the_file(db: Path) -> None:
    path = PGN / "0002.pgn"
    assert invoke(db, "import", "pgn", str(path))[0] == 0
    assert rows(db, "SELECT name, start_date, end_date, source FROM events") == [
        ("0002.pgn", "1997-05-03", "1997-05-03", "pgn")
    ]
    # WhiteElo is "?" here; without --entry-ratings no rating is taken anyway
    assert rows(db, "SELECT name, entry_rating FROM players ORDER BY id") == [
        ("Kasparov", None),
        ("Deep-Blue", None),
    ]


def test_events_matching_and_skipped_games(tmp_path: Path, db: Path) -> None:
    invoke(db, "player", "add", "JONES, BOB", "--rating", "1700")
    invoke(db, "player", "add", "Ann S.", "--fide-id", "4100018", "--rating", "1800")
    path = tmp_path / "club.pgn"
    path.write_text(CLUB, encoding="utf-8")
    assert invoke(db, "import", "pgn", str(path)) == (
        0,
        f"Imported 3 games (3 to rate) in 2 events from {path}\n"
        "  event 1 'Club Ch' (2025-01-10 .. 2025-01-17): 2 games\n"
        "  event 2 'Blitz' (2025-01-31 .. 2025-01-31): 1 game\n"
        "Players: 1 created, 1 matched by FIDE id, 1 matched by name\n",
        "Skipped 1 unfinished game\nSkipped 1 empty game (text without tags)\n"
        # registered with a rating and no count of prior games
        + UNKNOWN_GAMES.format(n=2, s="s"),
    )
    # the Black of game 4 has no FIDE id, but her name finds her too: no duplicates
    assert rows(db, "SELECT id, name, fide_id, entry_rating FROM players ORDER BY id") == [
        (1, "JONES, BOB", None, 1700),
        (2, "Ann S.", 4100018, 1800),
        (3, "Lee, Cho", None, None),
    ]
    assert rows(db, "SELECT event_id, round, played_on, white_id, black_id, result, rateable "
                    "FROM games ORDER BY id") == [
        (1, "1", "2025-01-10", 2, 1, "1-0", 1),
        (1, "2", "2025-01-17", 1, 3, "1/2-1/2", 1),
        (2, None, "2025-01-31", 2, 3, "0-1", 1),
    ]  # fmt: skip


def test_dry_run_writes_nothing(tmp_path: Path, db: Path) -> None:
    invoke(db, "player", "add", "Jones, Bob")
    path = tmp_path / "club.pgn"
    path.write_text(CLUB, encoding="utf-8")
    before = db.read_bytes()
    assert invoke(db, "import", "pgn", str(path), "--dry-run") == (
        0,
        f"Dry run of {path}: nothing was written\n"
        "Games: 3 games (3 to rate) in 2 events\n"
        "  event 'Club Ch' (2025-01-10 .. 2025-01-17): 2 games\n"
        "  event 'Blitz' (2025-01-31 .. 2025-01-31): 1 game\n"
        "Players: 2 to create, 0 matched by FIDE id, 1 matched by name\n"
        "  Smith, Ann: new player\n"
        "  Jones, Bob: player 1 (Jones, Bob) by name\n"
        "  Lee, Cho: new player\n",
        "Skipped 1 unfinished game\nSkipped 1 empty game (text without tags)\n",
    )
    assert db.read_bytes() == before


def test_undated_games_need_date(tmp_path: Path, db: Path) -> None:
    path = tmp_path / "undated.pgn"
    path.write_text(
        game("White A", "Black B", "Result 1-0") + game("White A", "Black C", "Result 0-1"),
        encoding="utf-8",
    )
    before = db.read_bytes()
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}:1: Date: no date (Date, EventDate or UTCDate); give --date YYYY-MM-DD\n"
        f"Error: {path}:7: Date: no date (Date, EventDate or UTCDate); give --date YYYY-MM-DD\n"
        "Error: 2 problems found; nothing was imported\n",
    )
    assert db.read_bytes() == before
    assert invoke(db, "import", "pgn", str(path), "--date", "2025-02-01")[0] == 0
    assert rows(db, "SELECT name, start_date, end_date FROM events") == [
        ("undated.pgn", "2025-02-01", "2025-02-01")
    ]


def test_refusals_name_the_line(tmp_path: Path, db: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text(
        game("Date 2025.01.01", "White A", "Black A", "Result 0-1")
        + game("Date 2025.01.01", "White C", "Black D", "Result 2-0"),
        encoding="utf-8",
    )
    before = db.read_bytes()
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        # every problem of the file at once, in line order
        f"Error: {path}:1: Black: White and Black are the same player: 'A'\n"
        f"Error: {path}:11: Result: unknown result '2-0' (expected 1-0, 0-1, 1/2-1/2 or *)\n"
        "Error: 2 problems found; nothing was imported\n",
    )
    path.write_text(game("Date 2025.01.01", "White A", "Black A", "Result 0-1"), "utf-8")
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}:1: Black: White and Black are the same player: 'A'\n",
    )
    assert db.read_bytes() == before


def test_reimport_is_refused(db: Path) -> None:
    path = PGN / "0007.pgn"
    assert invoke(db, "import", "pgn", str(path))[0] == 0
    before = db.read_bytes()
    code, out, err = invoke(db, "import", "pgn", str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {path}: this file was already imported on ")
    assert db.read_bytes() == before


def test_a_second_file_matches_by_fide_id(tmp_path: Path, db: Path) -> None:
    invoke(db, "import", "pgn", str(PGN / "0007.pgn"))
    path = tmp_path / "rematch.pgn"
    path.write_text(
        game("Event Rematch", "Date 2021.08.01", "White Giri, Anish", "Black Vidit,S",
             "WhiteFideId 24116068", "Result 1/2-1/2", moves="1/2-1/2"),
        encoding="utf-8",
    )  # fmt: skip
    assert invoke(db, "import", "pgn", str(path)) == (
        0,
        f"Imported 1 game (1 to rate) in 1 event from {path}\n"
        "  event 2 'Rematch' (2021-08-01 .. 2021-08-01): 1 game\n"
        "Players: 0 created, 1 matched by FIDE id, 1 matched by name\n",
        "",
    )
    assert rows(db, "SELECT count(*) FROM players") == [(10,)]


# --- FIDE ids and lengths ------------------------------------------------------------------

FIDE_ID_RULE = "not a FIDE id (1 to 11 digits 0-9, not 0)"


@pytest.mark.parametrize(
    "fide_id",
    [
        "99999999999999999999999",  # 23 digits: an OverflowError traceback before
        "100000000000",  # 12 digits
        "123456789012345",  # 15 digits: stored before, refused by player add and CSV
        "999999999999999999",  # 18 digits
        "\u0664\u0661\u0660\u0660\u0660\u0661\u0668",  # Arabic-Indic digits
        "\uff14\uff11\uff10\uff10\uff10\uff11\uff18",  # full-width digits
        "\u2074\u00b9\u2070",  # superscript digits
    ],
)
def test_a_fide_id_outside_the_rule_is_refused(tmp_path: Path, db: Path, fide_id: str) -> None:
    path = tmp_path / "ids.pgn"
    path.write_text(
        game("Event E", "Date 2025.01.10", "White A", "Black B", "Result 1-0",
             f"BlackFideId {fide_id}"),
        encoding="utf-8",
    )  # fmt: skip
    before = db.read_bytes()
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}:6: BlackFideId: {FIDE_ID_RULE}: {fide_id!r}\n",
    )
    assert db.read_bytes() == before


def test_an_eleven_digit_fide_id_is_stored(tmp_path: Path, db: Path) -> None:
    path = tmp_path / "ids.pgn"
    path.write_text(
        game("Event E", "Date 2025.01.10", "White A", "Black B", "Result 1-0",
             "WhiteFideId 99999999999", "BlackFideId 0"),
        encoding="utf-8",
    )  # fmt: skip
    assert invoke(db, "import", "pgn", str(path))[0] == 0
    assert rows(db, "SELECT name, fide_id FROM players ORDER BY id") == [
        ("A", 99999999999),
        ("B", None),
    ]


def test_a_one_megabyte_event_name_is_refused(tmp_path: Path, db: Path) -> None:
    path = tmp_path / "long.pgn"
    event = "E" * 1_000_000
    path.write_text(
        game("Date 2025.01.10", "White A", "Black B", "Result 1-0", f"Event {event}"),
        encoding="utf-8",
    )
    before = db.read_bytes()
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}:5: Event: longer than 200 characters: "
        f"{'E' * 50!r}... (1000000 characters)\n",
    )
    assert db.read_bytes() == before


@pytest.mark.parametrize(
    ("tag", "limit"), [("Event", 200), ("Round", 20), ("White", 200), ("Black", 200)]
)
def test_tags_at_and_one_over_the_limit(tmp_path: Path, db: Path, tag: str, limit: int) -> None:
    tags = {"Event": "E", "Round": "1", "White": "A", "Black": "B"}
    path = tmp_path / "limit.pgn"
    tags[tag] = "x" * (limit + 1)
    path.write_text(
        game("Date 2025.01.10", "Result 1-0", *(f"{k} {v}" for k, v in tags.items())), "utf-8"
    )
    before = db.read_bytes()
    line = 3 + list(tags).index(tag)
    shown = repr("x" * 50) + f"... ({limit + 1} characters)" if limit > 60 else repr("x" * 21)
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}:{line}: {tag}: longer than {limit} characters: {shown}\n",
    )
    assert db.read_bytes() == before
    tags[tag] = "x" * limit
    path.write_text(
        game("Date 2025.01.10", "Result 1-0", *(f"{k} {v}" for k, v in tags.items())), "utf-8"
    )
    assert invoke(db, "import", "pgn", str(path))[0] == 0
    assert rows(db, "SELECT e.name, g.round FROM games g JOIN events e ON e.id = g.event_id") == [
        (tags["Event"], tags["Round"])
    ]
    assert rows(db, "SELECT name FROM players ORDER BY id") == [(tags["White"],), (tags["Black"],)]


# --- names with a rating, title tags, Elo tags as entry ratings ----------------------------


def test_a_rating_in_parentheses_is_not_part_of_the_name(db: Path) -> None:
    """0002.pgn: `Kasparov (2795)` was registered under that name."""
    assert invoke(db, "import", "pgn", str(PGN / "0002.pgn"))[0] == 0
    assert rows(db, "SELECT name, entry_rating FROM players ORDER BY id") == [
        ("Kasparov", None),
        ("Deep-Blue", None),
    ]


def test_the_rating_in_the_name_is_an_entry_rating_when_asked(db: Path) -> None:
    path = PGN / "0002.pgn"  # WhiteElo "?": the name's (2795) is the only rating
    assert invoke(db, "import", "pgn", str(path), "--entry-ratings") == (
        0,
        f"Imported 1 game (1 to rate) in 1 event from {path}\n"
        "  event 1 '0002.pgn' (1997-05-03 .. 1997-05-03): 1 game\n"
        "Players: 2 created, 0 matched by FIDE id, 0 matched by name\n",
        "",
    )
    assert rows(db, "SELECT name, entry_rating FROM players ORDER BY id") == [
        ("Kasparov", 2795),
        ("Deep-Blue", None),
    ]


def test_title_tags_and_elo_tags_of_the_world_cup(db: Path) -> None:
    """0007.pgn: every player has WhiteTitle/BlackTitle GM and a numeric Elo tag."""
    assert invoke(db, "import", "pgn", str(PGN / "0007.pgn"), "--entry-ratings")[0] == 0
    assert rows(db, "SELECT name, fide_id, title, entry_rating FROM players ORDER BY id")[:4] == [
        ("Giri,A", 24116068, "GM", 2776),
        ("Abdusattorov,Nodirbek", 14204118, "GM", 2634),
        ("Mamedyarov,S", 13401319, "GM", 2782),
        ("Martirosyan,Haik M.", 13306553, "GM", 2632),
    ]
    assert rows(db, "SELECT count(*) FROM players WHERE title = 'GM' AND entry_rating > 0") == [
        (10,)
    ]


def test_without_entry_ratings_the_elo_tags_are_not_used(db: Path) -> None:
    assert invoke(db, "import", "pgn", str(PGN / "0007.pgn"))[0] == 0
    assert rows(db, "SELECT count(*), count(title), count(entry_rating) FROM players") == [
        (10, 10, 0)
    ]


def test_entry_ratings_come_from_each_player_s_first_game(tmp_path: Path, db: Path) -> None:
    """Lichess-like files give a player a new Elo every game: the earliest game's is taken,
    with a warning; a matched player's entry rating is never changed."""
    assert invoke(db, "player", "add", "Old, Timer", "--rating", "1600")[0] == 0
    path = tmp_path / "elo.pgn"
    path.write_text(
        game("Date 2025.01.17", "White Ann", "Black Bob (1700)", "Result 1-0",
             "WhiteElo 1830", "WhiteTitle WIM")
        + game("Date 2025.01.10", "White Bob", "Black Ann", "Result 0-1",
               "WhiteElo 1710", "BlackElo 1820", "BlackTitle NM")
        + game("Date 2025.01.24", "White Old, Timer", "Black Ann", "Result 1/2-1/2",
               "WhiteElo 2000", "BlackElo 1840", "WhiteTitle GM"),
        encoding="utf-8",
    )  # fmt: skip
    code, out, err = invoke(db, "import", "pgn", str(path), "--entry-ratings")
    assert (code, out.splitlines()[-1]) == (
        0,
        "Players: 2 created, 0 matched by FIDE id, 1 matched by name",
    )
    assert err == (
        f"Warning: {path}:14: WhiteElo: 'Bob': Elo 1710 taken as the entry rating (first "
        "game, 2025-01-10); other games give 1700 (line 3)\n"
        f"Warning: {path}:15: BlackElo: 'Ann': Elo 1820 taken as the entry rating (first "
        "game, 2025-01-10); other games give 1830 (line 5), 1840 (line 25)\n"
        # entry ratings from Elo tags, no count of prior games
        + UNKNOWN_GAMES.format(n=3, s="s")
    )
    assert rows(db, "SELECT name, title, entry_rating FROM players ORDER BY id") == [
        ("Old, Timer", None, 1600),
        ("Ann", "WIM", 1820),
        ("Bob", None, 1710),
    ]
