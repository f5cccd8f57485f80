"""Files the product writes: never the database or its journal, never an existing file without
--force, always through a temporary file renamed into place."""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings import backups, migrate
from ratings.cli import cli
from tests.safety_helpers import digest, integrity
from tests.support import ok, run


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small rated club with one event."""
    db = tmp_path_factory.mktemp("club") / "club.db"
    for args in (
        ["init"],
        ["player", "add", "Smith, Ann", "--rating", "1800"],
        ["player", "add", "Jones, Bob", "--rating", "1650"],
        ["game", "add", "1", "2", "1-0", "--date", "2026-01-10", "--event", "Club Ch",
         "--round", "1"],
        ["game", "add", "2", "1", "1/2-1/2", "--date", "2026-01-17", "--event", "Club Ch",
         "--round", "2"],
        ["rate"],
    ):  # fmt: skip
        ok(db, *args)
    return db


@pytest.fixture
def db(tmp_path: Path, club: Path) -> Path:
    """A private copy of the club in a folder of its own."""
    path = tmp_path / "club.db"
    shutil.copyfile(club, path)
    return path


def leftovers(folder: Path) -> list[str]:
    """Temporary files a command may have left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if ".ratings-tmp" in p.name)


# --- export never overwrites the database or an existing file -----------------------------


def test_export_onto_the_database_is_refused(db: Path) -> None:
    before = db.read_bytes()
    result = run(db, "export", "trf", "1", "--output", str(db))
    assert result.exit_code == 1
    assert result.stderr == f"Error: '{db}' is the database; choose another file\n"
    assert db.read_bytes() == before


@pytest.mark.parametrize("suffix", ["-journal", "-wal", "-shm"])
def test_export_onto_a_journal_name_is_refused(db: Path, suffix: str) -> None:
    target = db.with_name(db.name + suffix)
    result = run(db, "export", "trf", "1", "--output", str(target))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: '{target}' is named like a SQLite journal ({suffix}); choose another name\n"
    )
    assert not target.exists()


def test_export_onto_the_database_through_a_symlink_or_relative_path(db: Path) -> None:
    before = db.read_bytes()
    link = db.with_name("link.trf")
    link.symlink_to(db)
    for target, cwd in ((str(link), None), ("club.db", db.parent), ("./x/../club.db", db.parent)):
        (db.parent / "x").mkdir(exist_ok=True)
        result = run(db, "export", "trf", "1", "--output", target, "--force", cwd=cwd)
        assert result.exit_code == 1, (target, result.output)
        assert "is the database" in result.stderr
    hard = db.with_name("hard.trf")
    os.link(db, hard)
    result = run(db, "export", "trf", "1", "--output", str(hard), "--force")
    assert result.exit_code == 1
    assert "is the database" in result.stderr
    assert db.read_bytes() == before


def test_export_refuses_an_existing_file_unless_force(db: Path) -> None:
    target = db.with_name("event.trf")
    target.write_text("keep me\n")
    result = run(db, "export", "trf", "1", "--output", str(target))
    assert result.exit_code == 1
    assert result.stderr == f"Error: '{target}' already exists; use --force to replace it\n"
    assert target.read_text() == "keep me\n"
    result = run(db, "export", "trf", "1", "--output", str(target), "--force")
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith("012 Club Ch")
    assert leftovers(db.parent) == []


def test_export_writes_through_a_temporary_file(db: Path) -> None:
    """A write that fails halfway (file size limit) leaves neither the file nor a temporary."""
    target = db.parent / "event.trf"
    code = (
        "import resource, sys; from ratings.cli import cli;"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100));"
        f"sys.argv = ['ratings', '--db', {str(db)!r}, 'export', 'trf', '1', '-o', {str(target)!r}];"
        "cli()"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"Error: cannot write '{target}': ")
    assert "Traceback" not in proc.stderr
    assert not target.exists()
    assert leftovers(db.parent) == []


# --- backups through a temporary file; journal names refused ------------------------------


def test_backup_under_a_file_size_limit_leaves_nothing(db: Path) -> None:
    dest = db.parent / "bk.db"
    size = db.stat().st_size

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size // 2, size // 2))

    proc = subprocess.run(
        [sys.executable, "-m", "ratings", "--db", str(db), "db", "backup", str(dest)],
        capture_output=True,
        text=True,
        preexec_fn=limited,  # the limit applies to the child only
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("Error: backup of ")
    assert "Traceback" not in proc.stderr
    assert not dest.exists()
    assert leftovers(db.parent) == []
    # the retry works
    result = run(db, "db", "backup", str(dest))
    assert result.exit_code == 0, result.output
    assert digest(dest) == digest(db)


@pytest.mark.parametrize("suffix", ["-journal", "-wal", "-shm"])
def test_backup_to_a_journal_name_is_refused(db: Path, suffix: str) -> None:
    dest = db.with_name(db.name + suffix)
    result = run(db, "db", "backup", str(dest))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: '{dest}' is named like a SQLite journal ({suffix}); choose another name\n"
    )
    assert not dest.exists()
    # the next command finds no journal to roll back or delete
    assert run(db, "list").exit_code == 0
    assert integrity(db) == "ok"


def test_backup_onto_the_database_is_refused(db: Path) -> None:
    before = db.read_bytes()
    result = run(db, "db", "backup", str(db), "--force")
    assert result.exit_code == 1
    assert result.stderr == f"Error: '{db}' is the database; choose another file\n"
    assert db.read_bytes() == before


def test_backup_replaces_only_with_force(db: Path) -> None:
    dest = db.with_name("bk.db")
    dest.write_bytes(b"old")
    result = run(db, "db", "backup", str(dest))
    assert result.exit_code == 1
    assert result.stderr == f"Error: '{dest}' already exists; use --force to replace it\n"
    assert dest.read_bytes() == b"old"
    result = run(db, "db", "backup", str(dest), "--force")
    assert result.exit_code == 0, result.output
    assert digest(dest) == digest(db)


def test_backup_reports_what_it_compared(db: Path) -> None:
    dest = db.with_name("bk.db")
    result = run(db, "db", "backup", str(dest))
    assert result.exit_code == 0, result.output
    tables = len(backups.table_row_counts(dest))
    rows = sum(backups.table_row_counts(dest).values())
    assert result.stdout == (
        f"Backed up {db} to {dest} ({tables} tables, {rows} rows, same as the database; "
        "integrity check ok)\n"
    )
    assert backups.table_row_counts(dest) == backups.table_row_counts(db)


# --- init is atomic -----------------------------------------------------------------------


def test_init_failing_halfway_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ratings import service

    def boom(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(service, "create_settings", boom)
    db = tmp_path / "new.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "init"])
    assert result.exit_code != 0
    assert not db.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_init_cleans_up_after_an_earlier_killed_init(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    # what a SIGKILL leaves: a temporary file of a process that no longer runs
    stale = tmp_path / f".new.db.ratings-tmp-{_dead_pid()}-abcd"
    stale.write_bytes(b"partial")
    Path(f"{stale}-journal").write_bytes(b"partial journal")
    result = run(db, "init")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.db"]


def _dead_pid() -> int:
    """The id of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# --- refuse before touching anything ------------------------------------------------------


def test_upgrade_of_a_newer_schema_is_refused_before_any_backup(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.close()
    before = sorted(p.name for p in db.parent.iterdir())
    result = run(db, "db", "upgrade")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: database schema is at 9999, which this version of ratings does not know; "
        "upgrade ratings\n"
    )
    assert sorted(p.name for p in db.parent.iterdir()) == before


def test_upgrade_to_an_unknown_revision_is_refused_before_any_backup(db: Path) -> None:
    before = sorted(p.name for p in db.parent.iterdir())
    result = run(db, "db", "upgrade", "nope")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: unknown revision 'nope'")
    assert sorted(p.name for p in db.parent.iterdir()) == before


def test_upgrade_at_head_writes_no_backup(db: Path) -> None:
    before = sorted(p.name for p in db.parent.iterdir())
    result = run(db, "db", "upgrade")
    assert result.exit_code == 0
    assert result.stdout == f"Already at {migrate.head_revision()}\n"
    assert sorted(p.name for p in db.parent.iterdir()) == before


@pytest.mark.parametrize(
    "args", [["list"], ["sql", "SELECT 1"], ["db", "current"], ["init"], ["db", "backup", "x.db"]]
)
def test_a_fifo_is_refused(tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    proc = subprocess.run(
        [sys.executable, "-m", "ratings", "--db", str(fifo), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert proc.stderr == f"Error: '{fifo}' is not a regular file\n"


def test_sql_after_a_crash_recovers_the_hot_journal(db: Path) -> None:
    """A hot journal (a writer killed mid-transaction): `ratings sql` rolls it back first."""
    expected = run(db, "sql", "SELECT count(*) AS n FROM players").stdout
    _leave_hot_journal(db)
    assert db.with_name(db.name + "-journal").exists()
    result = run(db, "sql", "SELECT count(*) AS n FROM players")
    assert result.exit_code == 0, result.output
    assert result.stdout == expected
    assert integrity(db) == "ok"


def test_sql_on_a_read_only_file_with_a_hot_journal_says_what_to_do(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without write access the journal cannot be rolled back: say so, and what to do."""
    _leave_hot_journal(db)
    real: Callable[..., sqlite3.Connection] = sqlite3.connect

    def no_write_access(database: str, *args: object, **kwargs: object) -> sqlite3.Connection:
        if not kwargs.get("uri"):  # the read-write open that would roll the journal back
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", no_write_access)
    result = run(db, "sql", "SELECT 1")
    monkeypatch.undo()
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: '{db}' holds a write that was interrupted (a crash or a kill left "
        f"'{db.name}-journal'), and rolling it back needs write access to the file and its "
        "folder; run any ratings command as a user who may write there\n"
    )
    assert db.with_name(db.name + "-journal").exists()
    assert integrity(db) == "ok"


def _leave_hot_journal(db: Path) -> None:
    """Start a write in a child process and kill it before the commit."""
    code = (
        "import os, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('PRAGMA cache_size = 1')\n"
        "conn.execute('BEGIN IMMEDIATE')\n"
        'conn.execute("UPDATE players SET name = name || randomblob(3000)")\n'
        "os._exit(9)\n"  # no rollback, no unlock: what a SIGKILL leaves
    )
    subprocess.run([sys.executable, "-c", code, str(db)], check=False)


def test_a_symlink_to_a_journal_name_is_refused(db: Path) -> None:
    target = db.with_name("innocent.trf")
    target.symlink_to(db.with_name(db.name + "-journal"))
    result = run(db, "export", "trf", "1", "--output", str(target), "--force")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: '{target}' is named like a SQLite journal (-journal); choose another name\n"
    )
    assert not db.with_name(db.name + "-journal").exists()
