"""`ratings init` and `ratings db ...`: exact output and exit codes."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from ratings import migrate
from ratings.cli import cli, load_all
from tests.safety_helpers import invoke
from tests.support import run

HEAD = migrate.head_revision()


def test_init_creates_a_database_at_head(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    assert invoke(db, "init") == (
        0,
        f"Created {db} (fide system, 1-month periods, schema {HEAD})\n",
    )
    assert invoke(db, "db", "current") == (0, f"{HEAD} (newest: {HEAD}; up to date)\n")
    assert invoke(db, "db", "check") == (0, "Schema matches the models\n")


def test_init_with_overrides(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    code, out = invoke(db, "init", "--system", "elo", "--k", "24", "--period-months", "3")
    assert (code, out) == (0, f"Created {db} (elo system, 3-month periods, schema {HEAD})\n")


def test_init_refuses_an_existing_file(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    db.write_bytes(b"precious")
    assert invoke(db, "init") == (
        1,
        f"Error: '{db}' already exists; refusing to overwrite it\n",
    )
    assert db.read_bytes() == b"precious"


def test_init_bad_override_leaves_no_file(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    code, out = invoke(db, "init", "--start-rating", "1500")
    assert code == 1
    assert out.startswith("Error: the fide system computes initial ratings")
    assert not db.exists()


def test_db_in_a_missing_folder(tmp_path: Path) -> None:
    db = tmp_path / "nope" / "club.db"
    assert invoke(db, "init") == (1, f"Error: folder does not exist: '{db.parent}'\n")
    assert invoke(db, "list") == (1, f"Error: folder does not exist: '{db.parent}'\n")
    assert not db.parent.exists()


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("shopping list\n")
    assert invoke(db, "list") == (1, f"Error: '{db}' is not a SQLite database\n")
    assert invoke(db, "db", "upgrade") == (1, f"Error: '{db}' is not a SQLite database\n")
    assert db.read_text() == "shopping list\n"


def test_commands_need_an_existing_database(tmp_path: Path) -> None:
    db = tmp_path / "missing.db"
    assert invoke(db, "player", "list") == (
        1,
        f"Error: no database at '{db}'; create one with 'ratings init', or name an existing "
        "one with --db PATH (or RATINGS_DB)\n",
    )
    assert not db.exists()


def test_downgrade_to_an_unknown_revision(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    invoke(db, "init")
    before = db.read_bytes()
    assert invoke(db, "db", "downgrade", "zzz", "--yes") == (
        1,
        f"Error: unknown revision 'zzz'; known: base, {', '.join(migrate.known_revisions())}\n",
    )
    assert db.read_bytes() == before


def test_commands_refuse_a_schema_that_is_behind(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    invoke(db, "init")
    assert invoke(db, "db", "downgrade", "base", "--yes") == (
        0,
        f"Downgraded {HEAD} -> (empty)\n",
    )
    assert invoke(db, "list") == (
        1,
        "Error: this database has no ratings schema; create one with 'ratings init'\n",
    )
    code, out = invoke(db, "db", "upgrade", "--no-backup")
    assert (code, out) == (0, f"Upgraded (empty) -> {HEAD}\n")


def test_upgrade_backs_up_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "club.db"
    invoke(db, "init")
    monkeypatch.setattr(migrate, "head_revision", lambda: "9999")  # a newer one to go to
    result = run(db, "db", "upgrade")
    assert result.exit_code == 0
    assert result.stdout == f"Already at {HEAD}\n"
    assert (tmp_path / f"club.db.bak-{HEAD}").exists()


def test_help_never_touches_the_database(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    for args in (["--help"], ["player", "add", "--help"], ["db", "--help"], ["rate", "--help"]):
        assert invoke(db, *args)[0] == 0
    assert not db.exists()


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    assert invoke(db, "init", "--system", "uscf")[0] == 2
    assert invoke(db, "frobnicate")[0] == 2


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append((prefix + name, command))
        if isinstance(command, click.Group):
            found.extend(_commands(command, prefix + name + " "))
    return found


load_all()  # every command's module, so that the walk below sees them all


@pytest.mark.parametrize(("name", "command"), _commands(cli))
def test_commands_have_help(name: str, command: click.Command) -> None:
    assert command.help, f"{name} has no docstring"
