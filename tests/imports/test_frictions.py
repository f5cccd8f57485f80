"""Faults and frictions of the monthly routine in the imports: each reproduced first.

- ``import pgn --dry-run`` ended in a traceback (``KeyError: 'ask'``) when a player needed a
  decision;
- ``player alias add`` took another live player's exact name; ``player alias list`` refused
  a merged record;
- ``import players --update`` put back the sheet's value over a logged correction unless
  told not to; ``import players`` had no ``--dry-run``;
- re-importing an unchanged register with ``--update`` was refused as already imported;
- the import prompt refused the player's id shown in its candidate line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.conftest import PgDatabase, copy_database, new_test_database
from tests.imports.test_pgn import game
from tests.imports.test_trf import player_line, rows, trf_file
from tests.support import invoke


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    path = new_test_database(tmp_path_factory.mktemp("frictions") / "template.db")
    assert invoke(path, "init")[0] == 0
    for name, year in (("Novák, Jiří", "1984"), ("Novák, Jan", "1990"), ("Smith, Ann", "")):
        args = ["--birthdate", year] if year else []
        assert invoke(path, "player", "add", name, *args)[0] == 0
    return path


@pytest.fixture
def db(tmp_path: Path, template: Path | PgDatabase) -> Path | PgDatabase:
    return copy_database(template, tmp_path / "club.db")


def test_pgn_dry_run_lists_the_player_that_needs_a_decision(tmp_path: Path, db: Path) -> None:
    """Seen: ``KeyError: 'ask'`` from the dry run's list of players."""
    path = tmp_path / "club.pgn"
    path.write_text(
        game("Event Club Ch", "Date 2025.01.10", "Round 1", "White Novak J.",
             "Black Smith, Ann", "Result 1-0"),
        encoding="utf-8",
    )  # fmt: skip
    code, out, err = invoke(db, "import", "pgn", str(path), "--dry-run")
    assert code == 0, err
    assert (
        "  Novak J.: close to 1 Novák, Jiří (born 1984) [initials], 2 Novák, Jan (born 1990)"
    ) in out
    assert err.endswith(
        "The import would stop: 1 player needs a decision (--match 'NAME=ID' for a registered "
        "player, --new 'NAME' for a new one)\n"
    )
    assert rows(db, "SELECT count(*) FROM events") == [(0,)]


def test_alias_add_refuses_another_live_players_name(db: Path) -> None:
    """Seen: ``player alias add "Smith, Ann" "Novák, Jan"`` was stored, and every import then
    gave Novák's games to Smith."""
    for name in ("Novák, Jan", "NOVAK Jan", "Jan Novak"):
        assert invoke(db, "player", "alias", "add", "Smith, Ann", name) == (
            1,
            "",
            f"Error: {name!r} is the name of player 2 (Novák, Jan); an alias never stands for "
            "another registered player's name\n",
        )
    # the player's own name is no alias either, but harmless: said so
    assert invoke(db, "player", "alias", "add", "2", "Novak, Jan")[2] == (
        "Error: 'Novak, Jan' is the name of player 2 (Novák, Jan) already\n"
    )
    assert rows(db, "SELECT count(*) FROM player_aliases") == [(0,)]


def test_alias_list_of_a_merged_record_shows_the_player_kept(db: Path) -> None:
    invoke(db, "player", "alias", "add", "1", "J. Novak Sr")
    assert invoke(db, "player", "merge", "1", "2", "--yes", "--force")[0] == 0
    code, out, err = invoke(db, "player", "alias", "list", "2", "--format", "csv")
    assert code == 0, err
    assert err == "player 2 was merged into 1 (correction 2): showing 1\n"
    assert out.splitlines()[1].startswith('1,1,"Novák, Jiří",J. Novak Sr,hand,,')


def _sheet(tmp_path: Path, text: str, name: str = "sheet.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_update_keeps_a_logged_correction_unless_told_to_take_the_sheet(
    tmp_path: Path, db: Path
) -> None:
    """Seen: next month's sheet (still 1990-01-01) put the corrected birthdate back unless
    --keep-corrected was given."""
    first = _sheet(tmp_path, 'name,birthdate\n"Smith, Ann",1990-01-01\n', "jan.csv")
    assert invoke(db, "import", "players", str(first), "--update")[0] == 0
    invoke(db, "player", "edit", "Smith, Ann", "--birthdate", "1990-01-11", "--reason", "passport")
    batch = rows(db, "SELECT max(batch) FROM corrections")[0][0]
    sheet = _sheet(
        tmp_path, 'name,birthdate\n"Smith, Ann",1990-01-01\n"Lee, Cho",2001\n', "feb.csv"
    )
    saved = copy_database(db, tmp_path / "saved.db")
    code, out, err = invoke(db, "import", "players", str(sheet), "--update")
    assert code == 0, err
    assert out.splitlines() == [
        "Player 3 (Smith, Ann): birth_date 1990-01-11 kept (corrected since the sheet was "
        f"made, correction {batch}; the sheet has 1990-01-01; --take-sheet takes it)",
        f"Imported 1 new player, updated 0 (1 unchanged) from {sheet}",
    ]
    assert rows(db, "SELECT birth_date FROM players WHERE id = 3") == [("1990-01-11",)]
    code, out, err = invoke(saved, "import", "players", str(sheet), "--update", "--take-sheet")
    assert code == 0, err
    assert out.splitlines()[0] == (
        "Player 3 (Smith, Ann): birth_date 1990-01-11 -> 1990-01-01 (the sheet's older value: "
        f"correction {batch} set 1990-01-11 since)"
    )
    assert rows(saved, "SELECT birth_date FROM players WHERE id = 3") == [("1990-01-01",)]
    assert invoke(db, "import", "players", str(sheet), "--take-sheet")[0] == 2


def test_import_players_dry_run_writes_nothing(tmp_path: Path, db: Path) -> None:
    sheet = _sheet(tmp_path, 'name,birthdate\n"Smith, Ann",1991\n"Lee, Cho",2001\n')
    before = rows(db, "SELECT * FROM players ORDER BY id")
    code, out, err = invoke(db, "import", "players", str(sheet), "--update", "--dry-run")
    assert code == 0, err
    assert out.splitlines() == [
        f"Dry run of {sheet}: nothing was written",
        "Player 3 (Smith, Ann): birth_year (none) -> 1991",
        f"Would import 1 new player, update 1 (0 unchanged) from {sheet}",
    ]
    assert rows(db, "SELECT * FROM players ORDER BY id") == before
    assert rows(db, "SELECT count(*) FROM imports") == [(0,)]
    code, out, err = invoke(db, "import", "players", str(sheet), "--dry-run")
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {sheet}:2: name: already registered as player 3 (Smith, Ann)")
    assert rows(db, "SELECT count(*) FROM imports") == [(0,)]


def test_an_unchanged_register_with_update_is_a_no_op(tmp_path: Path, db: Path) -> None:
    """Seen: the same sheet again with --update was refused as already imported, exit 1."""
    sheet = _sheet(tmp_path, 'name,birthdate\n"Smith, Ann",1991\n')
    assert invoke(db, "import", "players", str(sheet), "--update")[0] == 0
    before = rows(db, "SELECT count(*) FROM imports")
    assert invoke(db, "import", "players", str(sheet), "--update") == (
        0,
        f"{sheet}: nothing changed (imported before as import 1, and the register still holds "
        "every value it gives)\n",
        "",
    )
    assert rows(db, "SELECT count(*) FROM imports") == before
    # without --update the same bytes are still refused
    assert invoke(db, "import", "players", str(sheet))[0] == 1
    # a register changed since: the sheet is no longer a no-op
    invoke(db, "player", "edit", "3", "--birthdate", "1992")
    code, out, _ = invoke(db, "import", "players", str(sheet), "--update", "--take-sheet")
    assert code == 0
    assert "birth_year 1992 -> 1991" in out


def test_the_prompt_takes_the_player_id_shown(
    tmp_path: Path, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen: ``Error: '2' is not one of '1', '2', 'n', 'q'`` for the id of the candidate line
    (here the ids 1 and 2 are also the line numbers; player 2 is the second line)."""
    from ratings.cli import decisions

    monkeypatch.setattr(decisions, "is_terminal", lambda: True)
    invoke(db, "player", "add", "Novák, Jakub", "--birthdate", "2001")  # player 4
    path = trf_file(
        tmp_path / "open.trf",
        player_line(1, "Novak J.", ["   2 w 1"]),
        player_line(2, "Smith Ann", ["   1 b 0"]),
    )
    result = CliRunner().invoke(cli, ["--db", str(db), "import", "trf", str(path)], input="4\n")
    assert result.exit_code == 0, result.output
    assert "Which is it? (1, 2, 3, n, q; or a player's id) [q]: " in result.stderr
    assert rows(db, "SELECT white_id FROM games") == [(4,)]
