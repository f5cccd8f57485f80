"""A ``--db`` path that begins with ``file:`` is a file of that name, with every protection a
path has."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import exc as sa_exc

from ratings.db import database_url, make_engine, sqlite_path
from tests.safety_helpers import digest, integrity
from tests.support import run

PLAYERS_CSV = 'name,birthdate,rating,games\n"Smith, Ann",1990,1800,40\n"Jones, Bob",1985,1650,40\n'
GAMES_CSV = (
    "date,white,black,result,event,round\n"
    '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Club Ch,1\n'
    '2026-01-17,"Jones, Bob","Smith, Ann",1/2-1/2,Club Ch,2\n'
)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with two players and one event, rated."""
    folder = tmp_path_factory.mktemp("source")
    db = folder / "club.db"
    (folder / "players.csv").write_text(PLAYERS_CSV)
    (folder / "games.csv").write_text(GAMES_CSV)
    for args in (
        ["init"],
        ["import", "players", str(folder / "players.csv")],
        ["import", "games", str(folder / "games.csv")],
        ["rate", "--through", "2026-01"],
    ):
        assert run(str(db), *args).exit_code == 0
    return db


@pytest.fixture
def here(tmp_path: Path, source: Path) -> Iterator[Path]:
    """The test runs in ``tmp_path``, which holds ``file:club.db`` (a copy of the source)."""
    shutil.copyfile(source, tmp_path / "file:club.db")
    old = Path.cwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(old)


def test_a_file_colon_path_is_a_path() -> None:
    assert sqlite_path(database_url("file:club.db")) == Path("file:club.db")
    assert sqlite_path(database_url("file:/abs/x.db")) == Path("file:/abs/x.db")
    # an explicit URL that asks for URI mode names the file of its URI
    assert sqlite_path("sqlite:///file:x.db?uri=true&mode=ro") == Path("x.db")
    assert sqlite_path("sqlite:///file:%2Ftmp%2Fa%2520b.db?uri=true") == Path("/tmp/a b.db")
    assert sqlite_path("sqlite:///file:mem?uri=true&mode=memory") is None


def test_export_cannot_overwrite_a_file_colon_database(here: Path) -> None:
    """Seen: `--db file:club.db export trf 1 --output file:club.db --force` printed `Wrote
    event 1 ...`, exit 0, and the database became TRF text."""
    before = digest(here / "file:club.db")
    result = run("file:club.db", "export", "trf", "1", "--output", "file:club.db", "--force")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "Error: 'file:club.db' is the database; choose another file\n"
    assert digest(here / "file:club.db") == before
    assert run("file:club.db", "list").exit_code == 0


def test_backup_and_restore_of_a_file_colon_database(here: Path) -> None:
    """Seen: refused with "use pg_dump for PostgreSQL"."""
    result = run("file:club.db", "db", "backup", "file:copy.db")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Backed up file:club.db to file:copy.db (")
    assert digest(here / "file:copy.db") == digest(here / "file:club.db")
    assert run("file:club.db", "player", "add", "Extra, Player").exit_code == 0
    result = run("file:club.db", "db", "restore", "file:copy.db", "--yes")
    assert result.exit_code == 0, result.output
    assert digest(here / "file:club.db") == digest(here / "file:copy.db")
    assert integrity(here / "file:club.db") == "ok"
    assert sorted(p.name for p in here.iterdir()) == [
        "file:club.db",
        "file:club.db.before-restore",
        "file:copy.db",
    ]


def test_sql_opens_a_file_colon_database_read_only(here: Path) -> None:
    """``ratings sql``'s engine opens the file with ``mode=ro`` (it used to open the
    ``file:`` name read-write, as a URI)."""
    engine = make_engine(database_url("file:club.db"), read_only=True)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM players").scalar() == 2
            with pytest.raises(sa_exc.OperationalError, match="readonly database"):
                conn.exec_driver_sql("DELETE FROM players")
    finally:
        engine.dispose()
    result = run("file:club.db", "sql", "SELECT count(*) AS n FROM players")
    assert result.exit_code == 0, result.output
    assert result.stdout == "n\n-\n2\n"
    assert sorted(p.name for p in here.iterdir()) == ["file:club.db"]


def test_init_refuses_an_existing_file_colon_database(here: Path) -> None:
    before = digest(here / "file:club.db")
    result = run("file:club.db", "init")
    assert result.exit_code == 1
    assert result.stderr == "Error: 'file:club.db' already exists; refusing to overwrite it\n"
    assert digest(here / "file:club.db") == before
