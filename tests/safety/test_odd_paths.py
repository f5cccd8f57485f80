"""A ``--db`` path is a path: ``#``, ``?``, ``%``, spaces, non-ASCII and long names work in every
command that opens a file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings import backups
from ratings.cli import cli
from ratings.db import database_url, sqlite_path, sqlite_uri
from tests.safety_helpers import digest, integrity
from tests.support import run

PLAYERS_CSV = (
    "name,birthdate,rating,games\n"
    '"Smith, Ann",1990-05-01,1800,40\n'
    '"Jones, Bob",1985,1650,40\n'
    '"Brown, Cy",,1500,40\n'
)
GAMES_CSV = (
    "date,white,black,result,event,round\n"
    '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Club Ch,1\n'
    '2026-01-17,"Jones, Bob","Brown, Cy",1/2-1/2,Club Ch,2\n'
    '2026-01-24,"Brown, Cy","Smith, Ann",0-1,Club Ch,3\n'
)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """players.csv and games.csv in a folder of their own."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "players.csv").write_text(PLAYERS_CSV)
    (folder / "games.csv").write_text(GAMES_CSV)
    return folder


NAMES = [
    "Club #2/club.db",
    "club#1.db",
    "q?x.db",
    "new%41.db",
    "100% sure/a%2Fb.db",
    "with space/and space.db",
    "Ünïcødé ☃/Ålesund sjakk.db",
    "what?#%&=;/x?mode=rw#frag.db",
    f"{'long' * 50}/{'l' * 190}.db",  # about 460 bytes in all: SQLite takes up to 504
]


def files(folder: Path) -> list[str]:
    """Every file under ``folder``, relative."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", NAMES, ids=lambda n: n[:24])
def test_database_url_keeps_the_path(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    assert sqlite_path(database_url(str(path))) == path
    assert sqlite_path(database_url(name)) == Path(name)


@pytest.mark.parametrize("name", NAMES, ids=lambda n: n[:24])
def test_every_command_on_an_odd_path(tmp_path: Path, inputs: Path, name: str) -> None:
    db = tmp_path / name
    db.parent.mkdir(parents=True, exist_ok=True)
    ok = run(db, "init")
    assert ok.exit_code == 0, ok.output
    assert files(tmp_path) == [name]
    for args in (
        ["import", "players", str(inputs / "players.csv")],
        ["import", "games", str(inputs / "games.csv")],
        ["rate"],
        ["list"],
        ["player", "list"],
        ["db", "current"],
        ["db", "check"],
        ["db", "upgrade"],
    ):
        result = run(db, *args)
        assert result.exit_code == 0, (args, result.output)
    result = run(db, "sql", "SELECT count(*) AS n FROM rating_history")
    assert result.exit_code == 0, result.output
    assert int(result.stdout.split()[-1]) > 0
    # a backup beside it, with an odd name too
    backup = db.with_name("bk #?% ü.db")
    result = run(db, "db", "backup", str(backup))
    assert result.exit_code == 0, result.output
    assert digest(backup) == digest(db)
    # an export beside it
    trf = db.with_name("event #1?.trf")
    result = run(db, "export", "trf", "1", "--output", str(trf))
    assert result.exit_code == 0, result.output
    # restore the backup over a changed database
    assert run(db, "player", "add", "Extra, Player").exit_code == 0
    result = run(db, "db", "restore", str(backup), "--yes")
    assert result.exit_code == 0, result.output
    assert digest(db) == digest(backup)
    assert integrity(db) == "ok"
    assert sorted(files(tmp_path)) == sorted(
        [name, str(backup.relative_to(tmp_path)), str(trf.relative_to(tmp_path)),
         str(backups.before_restore_path(db).relative_to(tmp_path))]
    )  # fmt: skip


def test_init_takes_the_name_literally(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    try:
        for name in ("new%41.db", "q?x.db", "h#x.db"):
            assert run(Path(name), "init").exit_code == 0
    finally:
        os.chdir(Path(__file__).parents[1])
    assert files(tmp_path) == ["h#x.db", "new%41.db", "q?x.db"]


def test_demo_on_an_odd_path(tmp_path: Path) -> None:
    db = tmp_path / "demo #1?%.db"
    result = CliRunner().invoke(cli, ["demo", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert files(tmp_path) == [db.name]
    # run again: replaces its own demo database
    result = CliRunner().invoke(cli, ["demo", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert files(tmp_path) == [db.name]


@pytest.mark.parametrize("name", ["a b.db", "x#y?z%41.db", "ü/ß.db"])
def test_sqlite_uri_round_trip(tmp_path: Path, name: str) -> None:
    import sqlite3

    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    sqlite3.connect(path).close()
    before = files(tmp_path)
    with sqlite3.connect(sqlite_uri(path, mode="ro"), uri=True) as conn:
        assert conn.execute("PRAGMA database_list").fetchone()[2] == str(path.resolve())
    conn.close()
    assert files(tmp_path) == before


def test_a_url_is_still_a_url() -> None:
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x%20y.db") == "sqlite:///x%20y.db"
    assert sqlite_path(database_url("sqlite:///x%20y.db")) == Path("x y.db")


@pytest.fixture(autouse=True)
def _cwd() -> object:
    """Tests that chdir get the old folder back."""
    old = Path.cwd()
    yield
    os.chdir(old)


def test_backup_of_a_path_with_hash_is_a_real_copy(tmp_path: Path, inputs: Path) -> None:
    """Seen: `db backup` of `Club #2/club.db` wrote 4,096 bytes with no tables, 'ok'."""
    folder = tmp_path / "Club #2"
    folder.mkdir()
    db = folder / "club.db"
    assert run(db, "init").exit_code == 0
    assert run(db, "import", "players", str(inputs / "players.csv")).exit_code == 0
    dest = tmp_path / "bk.db"
    result = run(db, "db", "backup", str(dest))
    assert result.exit_code == 0, result.output
    assert backups.table_row_counts(dest) == backups.table_row_counts(db)
    assert backups.table_row_counts(dest)["players"] > 0
    assert not (tmp_path / "Club ").exists()
    shutil.rmtree(folder)


def test_a_path_too_long_for_sqlite_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 200) / ("e" * 200)
    folder.mkdir(parents=True)
    db = folder / ("x" * 120 + ".db")
    result = run(db, "init")
    assert result.exit_code == 1
    size = len(str(db).encode())
    assert result.stderr == (
        f"Error: '{db}' is too long a path for SQLite ({size} bytes; at most 504)\n"
    )
    assert files(tmp_path) == []
