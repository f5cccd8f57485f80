"""The one import pipeline, end to end through each format's command: the same register, a
file of each format that names one player by his exact name, one by his name folded and one
only close to two registered names (decided by ``--match``), and what every import then says
(``--format json``: who was taken for whom, the decisions, the counts, the questions, the
aliases kept). Then the places where the formats disagreed before they shared the pipeline,
each reproduced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.conftest import PgDatabase, copy_database, new_test_database
from tests.imports.test_fide_list import foa_list
from tests.imports.test_pgn import game
from tests.imports.test_trf import player_line, rows, trf_file
from tests.support import invoke


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    path = new_test_database(tmp_path_factory.mktemp("pipeline") / "template.db")
    assert invoke(path, "init")[0] == 0
    for args in (
        ("Novák, Jiří", "--birthdate", "1984"),
        ("Novák, Jan", "--birthdate", "1990"),
        ("Smith, Ann", "--birthdate", "1991"),
    ):
        assert invoke(path, "player", "add", *args)[0] == 0
    return path


@pytest.fixture
def db(tmp_path: Path, template: Path | PgDatabase) -> Path | PgDatabase:
    return copy_database(template, tmp_path / "club.db")


def _games_csv(folder: Path, month: int = 1) -> Path:
    path = folder / "games.csv"
    path.write_text(
        "date,white,black,result,event,round\n"
        f'2026-0{month}-10,"Novak, Jiri","Smith, Ann",1-0,Club Ch,1\n'
        f'2026-0{month}-17,"Smith, Ann","Novak J.",0-1,Club Ch,2\n',
        encoding="utf-8",
    )
    return path


def _players_csv(folder: Path, month: int = 1) -> Path:
    path = folder / "players.csv"
    path.write_text(
        'name,birthdate\n"Novak, Jiri",1984\n"Novak J.",1990\n"Smith, Ann",1991\n'
        + ('"Lee, Cho",2001\n' if month > 1 else ""),
        encoding="utf-8",
    )
    return path


def _trf(folder: Path, month: int = 1) -> Path:
    return trf_file(
        folder / "cup.trf",
        player_line(1, "Novak, Jiri", ["   3 w 1", "0000 - U"], birth="1984/01/01"),
        player_line(2, "Novak J.", ["0000 - U", "   3 b 1"]),
        player_line(3, "Smith, Ann", ["   1 b 0", "   2 w 0"], birth="1991/01/01"),
        header=(f"042 2025-0{month}-01",),
    )


def _pgn(folder: Path, month: int = 1) -> Path:
    path = folder / "club.pgn"
    path.write_text(
        game("Event Club Ch", f"Date 2026.0{month}.10", "Round 1", "White Novak, Jiri",
             "Black Smith, Ann", "Result 1-0")
        + game("Event Club Ch", f"Date 2026.0{month}.17", "Round 2", "White Smith, Ann",
               "Black Novak J.", "Result 0-1"),
        encoding="utf-8",
    )  # fmt: skip
    return path


FOLDED = "the name folded (accents, word order, punctuation)"
DECIDED = "your decision (--match, --match-file)"

# format: (command, the file, extra options, line of 'Novak, Jiri', line of 'Novak J.')
FORMATS = {
    "games": ("games", _games_csv, (), 2, 3),
    "players": ("players", _players_csv, ("--update",), 2, 3),
    "trf": ("trf", _trf, (), 3, 4),
    "pgn": ("pgn", _pgn, (), 1, 10),
}


def _json(db: Path | PgDatabase, *args: str) -> tuple[int, dict[str, Any], str]:
    code, out, err = invoke(db, *args, "--format", "json")
    return code, (json.loads(out) if out else {}), err


@pytest.mark.parametrize("kind", list(FORMATS))
def test_each_format_through_the_one_pipeline(
    tmp_path: Path, db: Path | PgDatabase, kind: str
) -> None:
    command, make, options, folded_line, close_line = FORMATS[kind]
    path = make(tmp_path)
    # close to both Nováks: the import stops before writing, naming both candidates
    code, out, err = invoke(db, "import", command, str(path), *options)
    assert (code, out) == (1, "")
    field = {"games": "black", "pgn": "Black"}.get(kind, "name")
    assert err.startswith(f"Error: {path}:{close_line}: {field}: 'Novak J.' is close to ")
    assert rows(db, "SELECT count(*) FROM imports") == [(0,)]
    # the dry run lists the question, in JSON too, and writes nothing
    code, report, err = _json(db, "import", command, str(path), *options, "--dry-run")
    assert code == 0, err
    assert report["dry_run"] is True
    assert [(q["line"], q["spelling"], sorted(c["player_id"] for c in q["candidates"]))
            for q in report["questions"]] == [(close_line, "Novak J.", [1, 2])]  # fmt: skip
    assert sorted(c["player"] for c in report["questions"][0]["candidates"]) == [
        "Novák, Jan",
        "Novák, Jiří",
    ]
    new = "" if kind in ("games", "players") else ", --new 'NAME' for a new one"
    assert err.endswith(
        f"The import would stop: 1 player needs a decision (--match 'NAME=ID' for a registered "
        f"player{new})\n"
    )
    assert rows(db, "SELECT count(*) FROM imports") == [(0,)]
    # decided: imported; who was taken for whom, the decision, the counts, the alias kept
    code, report, err = _json(db, "import", command, str(path), *options,
                              "--match", "Novak J.=2")  # fmt: skip
    assert code == 0, err
    assert report["import"] == kind
    assert report["dry_run"] is False
    assert report["taken"] == [
        {"line": folded_line, "spelling": "Novak, Jiri", "player_id": 1, "player": "Novák, Jiří",
         "why": FOLDED},
        {"line": close_line, "spelling": "Novak J.", "player_id": 2, "player": "Novák, Jan",
         "why": DECIDED},
    ]  # fmt: skip
    assert report["decisions"] == [
        {"line": close_line, "spelling": "Novak J.", "player_id": 2, "player": "Novák, Jan",
         "source": "match"},
    ]  # fmt: skip
    assert {how: n for how, n in report["counts"].items() if n} == {
        "name": 1,
        "folded": 1,
        "match": 1,
    }
    assert report["questions"] == []
    assert report["aliases"] == [{"spelling": "Novak J.", "player_id": 2, "player": "Novák, Jan"}]
    assert rows(db, "SELECT name, player_id FROM player_aliases") == [("Novak J.", 2)]
    if kind != "players":
        assert rows(db, "SELECT white_id, black_id FROM games ORDER BY id") == [
            (1, 3),
            (3, 2),
        ]
    # the next file that writes the name so needs no decision: the alias says who
    again = tmp_path / "again"
    again.mkdir()
    code, out, err = invoke(db, "import", command, str(make(again, 2)), *options)
    assert code == 0, err
    if kind == "players":
        # an updating sheet gives the players it finds its names: now their own
        assert rows(db, "SELECT name FROM players WHERE id < 3 ORDER BY id") == [
            ("Novak, Jiri",),
            ("Novak J.",),
        ]
        return
    assert (f"  line {close_line}: 'Novak J.' taken for player 2 (Novák, Jan): alias "
            "'Novak J.'") in out.splitlines()  # fmt: skip


def test_the_fide_list_through_the_one_pipeline(tmp_path: Path, db: Path | PgDatabase) -> None:
    """A list player whose FIDE id is not registered, found by his name folded among the
    registered players without one, named as every import names who it took."""
    novak = ("2300017", "Novak, Jiri", "CZE", "M", "", "", "", "",
             2100, 10, 20, 0, 0, 0, 0, 0, 0, 1984, "")  # fmt: skip
    other = ("2300025", "Svoboda, Petr", "CZE", "M", "", "", "", "",
             1900, 10, 20, 0, 0, 0, 0, 0, 0, 1999, "")  # fmt: skip
    path = foa_list(tmp_path / "list.txt", novak, other)
    code, report, err = _json(db, "import", "fide-list", str(path), "--month", "2026-10",
                              "--add", "--dry-run")  # fmt: skip
    assert code == 0, err
    assert report["dry_run"] is True
    assert rows(db, "SELECT count(*) FROM players WHERE fide_id IS NOT NULL") == [(0,)]
    code, report, err = _json(db, "import", "fide-list", str(path), "--month", "2026-10",
                              "--add")  # fmt: skip
    assert code == 0, err
    assert report["import"] == "fide-list"
    assert report["taken"] == [
        {"line": 2, "spelling": "Novak, Jiri", "player_id": 1, "player": "Novák, Jiří",
         "why": FOLDED},
    ]  # fmt: skip
    assert {how: n for how, n in report["counts"].items() if n} == {"folded": 1, "new": 1}
    assert (report["read"], report["linked"], report["added"]) == (2, 1, 1)
    # (by name: a rolled-back dry run has used an id of PostgreSQL's sequence)
    assert rows(db, "SELECT name, fide_id FROM players ORDER BY id") == [
        ("Novák, Jiří", 2300017),
        ("Novák, Jan", None),
        ("Smith, Ann", None),
        ("Svoboda, Petr", 2300025),
    ]


# --- where the formats disagreed ------------------------------------------------------------


def test_a_pgn_player_decided_new_in_two_games_is_one_player(
    tmp_path: Path, db: Path | PgDatabase
) -> None:
    """Seen: ``--new 'Novak J.'`` for a player of two games created two players."""
    path = tmp_path / "club.pgn"
    path.write_text(
        game("Event Club", "Date 2026.01.10", "Round 1", "White Novak J.", "Black Smith, Ann",
             "Result 1-0")
        + game("Event Club", "Date 2026.01.11", "Round 2", "White Smith, Ann",
               "Black Novak J.", "Result 1-0"),
        encoding="utf-8",
    )  # fmt: skip
    code, _, err = invoke(db, "import", "pgn", str(path), "--new", "Novak J.")
    assert code == 0, err
    assert rows(db, "SELECT id, name FROM players WHERE id > 3") == [(4, "Novak J.")]
    assert rows(db, "SELECT white_id, black_id FROM games ORDER BY id") == [(4, 3), (3, 4)]


def test_a_tournament_file_says_which_alias_and_whose_decision(
    tmp_path: Path, db: Path | PgDatabase
) -> None:
    """Seen: TRF and PGN said 'an alias' and 'your decision' where the CSV imports said
    which alias and which decision; all say it the one way now."""
    assert invoke(db, "player", "alias", "add", "1", "Novak, J. Sr")[0] == 0
    path = trf_file(
        tmp_path / "cup.trf",
        player_line(1, "Novak, J. Sr", ["   2 w 1"]),
        player_line(2, "Smith, Ann", ["   1 b 0"]),
    )
    code, out, err = invoke(db, "import", "trf", str(path))
    assert code == 0, err
    assert "  line 3: 'Novak, J. Sr' taken for player 1 (Novák, Jiří): alias 'Novak, J. Sr'" in (
        out.splitlines()
    )


def test_a_dry_run_of_a_csv_lists_its_questions_and_never_asks(
    tmp_path: Path, db: Path | PgDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen: ``import games --dry-run`` asked on a terminal (or ended in the error) where the
    TRF and PGN dry runs listed the players that need a decision."""
    from ratings.cli import decisions

    monkeypatch.setattr(decisions, "is_terminal", lambda: True)
    path = _games_csv(tmp_path)
    result = CliRunner().invoke(cli, ["--db", str(db), "import", "games", str(path),
                                      "--dry-run"], input="")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"Dry run of {path}: nothing was written",
        "Would import 1 game (1 to rate, 0 forfeits) in 1 event",
        "Players found 1 by the name folded (accents, word order, punctuation)",
        f"  line 2: 'Novak, Jiri' taken for player 1 (Novák, Jiří): {FOLDED}",
        "  line 3: 'Novak J.' is close to 1 Novák, Jiří (born 1984) [initials], 2 Novák, Jan "
        "(born 1990) [initials]; needs a decision",
    ]
    assert "Which is it?" not in result.stderr
    assert rows(db, "SELECT count(*) FROM games") == [(0,)]


def test_a_dry_run_with_questions_and_other_problems_names_both(
    tmp_path: Path, db: Path | PgDatabase
) -> None:
    """Seen: a TRF dry run with another problem said the problem and dropped the question."""
    path = trf_file(
        tmp_path / "cup.trf",
        player_line(1, "Novak J.", ["   2 w 1"]),
        player_line(2, "Smith, Ann", ["   1 b 0"]),
        header=("042 2099-03-01",),
    )
    code, out, err = invoke(db, "import", "trf", str(path), "--dry-run")
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert lines[0].startswith(f"Error: {path}:2: start date: 2099-03-01 is after today")
    assert lines[1].startswith(f"Error: {path}:3: name: 'Novak J.' is close to 1 Novák, Jiří")
    assert lines[-1] == "Error: 2 problems found; nothing was imported"


def test_a_pgn_question_names_the_tag(tmp_path: Path, db: Path | PgDatabase) -> None:
    """Seen: a PGN question said ``name:`` where its other problems name the tag (``White``,
    ``Black``), as the games CSV names its column."""
    path = _pgn(tmp_path)
    code, out, err = invoke(db, "import", "pgn", str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {path}:10: Black: 'Novak J.' is close to")
