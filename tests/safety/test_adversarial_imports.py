"""Importers that accepted broken files.

Seen: a players or games CSV with a 140,000-character header ended in `_csv.Error: field
larger than field limit`; the same game twice, and a player twice in one round, were
imported and rated from a games CSV and from a PGN (the card listed the same opponent twice
in round 1); 4,000 random bytes, a UTF-16 PGN and a PGN cut inside its first tag each gave
`Imported 0 games`, exit 0, and an `imports` row.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.imports.test_pgn import game
from tests.imports.test_trf import db, rows, template
from tests.support import invoke

__all__ = ["db", "template"]  # fixtures shared with tests/imports/test_trf.py


def state(db: Path) -> list[object]:
    return [
        rows(db, f"SELECT count(*) FROM {table}")
        for table in ("players", "events", "games", "imports")
    ]


@pytest.fixture
def club(db: Path, tmp_path: Path) -> Path:
    players = tmp_path / "players.csv"
    players.write_text(
        'name,rating,games\n"Smith, Ann",1800,40\n"Jones, Bob",1700,40\n"Lee, Cho",1600,40\n'
    )
    assert invoke(db, "import", "players", str(players))[0] == 0
    return db


# --- a header longer than the csv module reads ------------------------------------------


@pytest.mark.parametrize("kind", ["players", "games"])
def test_a_huge_header(db: Path, tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"{kind}.csv"
    path.write_text("name," + "x" * 140_000 + "\n")
    before = state(db)
    assert invoke(db, "import", kind, str(path)) == (
        1,
        "",
        f"Error: {path}:1: a value longer than 131,072 characters: not a file to import\n",
    )
    assert state(db) == before


def test_a_huge_value(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_text('name,rating\n"Smith, Ann",' + "1" * 140_000 + "\n")
    code, out, err = invoke(db, "import", "players", str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {path}:2: a value longer than 131,072 characters")


# --- the same game twice, a player twice in one round -----------------------------------

HEADER = "date,white,black,result,event,round\n"


def test_the_same_csv_row_twice_is_an_error(club: Path, tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text(
        HEADER
        + '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Club Ch,1\n'
        + '2026-01-10,"Lee, Cho","Smith, Ann",0-1,Club Ch,2\n'
        + '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Club Ch,1\n'
    )
    before = state(club)
    assert invoke(club, "import", "games", str(path)) == (
        1,
        "",
        f"Error: {path}:4: the same game as line 2 (date, players, result, event and round)\n",
    )
    assert state(club) == before


def test_a_player_twice_in_one_round_is_a_warning(club: Path, tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text(
        HEADER
        + '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Club Ch,1\n'
        + '2026-01-10,"Lee, Cho","Smith, Ann",0-1,Club Ch,1\n'
        + '2026-01-17,"Jones, Bob","Lee, Cho",1/2-1/2,Club Ch,2\n'
    )
    code, out, err = invoke(club, "import", "games", str(path))
    assert code == 0, err
    assert out.startswith("Imported 3 games")
    assert err.splitlines()[0] == (
        f"Warning: {path}:3: round: 'Smith, Ann' plays twice in round 1 of 'Club Ch' "
        "(lines 2 and 3)"
    )


def test_rows_without_a_round_or_an_event_are_not_compared(club: Path, tmp_path: Path) -> None:
    """A match of two games on one day, written without rounds, is two games."""
    path = tmp_path / "games.csv"
    path.write_text(
        HEADER
        + '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Match,\n'
        + '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Match,\n'
        + '2026-01-11,"Smith, Ann","Lee, Cho",1-0,,1\n'
        + '2026-01-11,"Smith, Ann","Lee, Cho",1-0,,1\n'
    )
    code, out, err = invoke(club, "import", "games", str(path))
    assert (code, err) == (0, "")
    assert out.startswith("Imported 4 games")


def pgn(*games: str) -> str:
    return "".join(games)


def test_the_same_pgn_game_twice_is_an_error(db: Path, tmp_path: Path) -> None:
    one = game("Event Club Ch", "Date 2026.01.10", "Round 1", "White Smith, Ann",
               "Black Jones, Bob", "Result 1-0")  # fmt: skip
    other = game("Event Club Ch", "Date 2026.01.10", "Round 2", "White Jones, Bob",
                 "Black Smith, Ann", "Result 0-1", moves="1. e4 0-1")  # fmt: skip
    path = tmp_path / "club.pgn"
    path.write_text(one + other + one)
    before = state(db)
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}:19: the same game as line 1 (date, players, result, event and round)\n",
    )
    assert state(db) == before


def test_a_pgn_player_twice_in_one_round_is_a_warning(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "club.pgn"
    path.write_text(
        game("Event Club Ch", "Date 2026.01.10", "Round 1", "White Smith, Ann",
             "Black Jones, Bob", "Result 1-0")
        + game("Event Club Ch", "Date 2026.01.10", "Round 1", "White Lee, Cho",
               "Black Smith, Ann", "Result 0-1", moves="1. d4 0-1")
    )  # fmt: skip
    code, out, err = invoke(db, "import", "pgn", str(path))
    assert code == 0, err
    assert out.startswith("Imported 2 games")
    assert err.splitlines()[0] == (
        f"Warning: {path}:10: Round: 'Smith, Ann' plays twice in round 1 of 'Club Ch' "
        "(lines 1 and 10)"
    )


# --- a PGN file that holds no game ------------------------------------------------------


def no_game(db: Path, path: Path) -> None:
    before = state(db)
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f'Error: {path}: no PGN game found (no [Tag "value"] line)\n',
    )
    assert invoke(db, "import", "pgn", str(path), "--dry-run")[0] == 1
    assert state(db) == before


def test_random_bytes(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "random.pgn"
    path.write_bytes(random.Random(31).randbytes(4000).replace(b"[", b"("))
    no_game(db, path)


def test_a_file_cut_inside_its_first_tag(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "cut.pgn"
    path.write_text('[Event "Club')
    no_game(db, path)


@pytest.mark.parametrize("text", ["", "\n\n", "1. e4 e5 1-0\n"])
def test_nothing_but_movetext_or_blank(db: Path, tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.pgn"
    path.write_text(text)
    no_game(db, path)


ONE = game("Event Club Ch", "Date 2026.01.10", "Round 1", "White Smith, Ann",
           "Black Jones, Bob", "Result 1-0")  # fmt: skip


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_read_with_its_bom(db: Path, tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "club.pgn"
    data = ONE.replace("Smith", "Öberg").encode(encoding)
    if encoding != "utf-16":  # the codec adds no BOM for a named byte order
        data = ("\ufeff" + ONE.replace("Smith", "Öberg")).encode(encoding)
    path.write_bytes(data)
    code, out, err = invoke(db, "import", "pgn", str(path))
    assert (code, err) == (0, "")
    assert out.startswith("Imported 1 game (1 to rate) in 1 event")
    assert rows(db, "SELECT name FROM players ORDER BY id") == [("Öberg, Ann",), ("Jones, Bob",)]


def test_utf16_without_a_bom_is_refused_by_name(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "club.pgn"
    path.write_bytes(ONE.encode("utf-16-le"))
    before = state(db)
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}: UTF-16 text without a byte order mark; save the file as UTF-8\n",
    )
    assert state(db) == before


def test_only_unfinished_games_is_not_an_empty_file(db: Path, tmp_path: Path) -> None:
    """A file of games not yet finished holds games: they are skipped and counted, as ever."""
    path = tmp_path / "live.pgn"
    path.write_text(ONE.replace("Result 1-0", "Result *").replace("1-0", "*"))
    code, out, err = invoke(db, "import", "pgn", str(path))
    assert code == 0
    assert out.startswith("Imported 0 games")
    assert "Skipped 1 unfinished game" in err
