"""`ratings db backup`, `db restore` and the backup before `db upgrade`: consistent copies
while another process writes, checked sources, nothing replaced on a refusal."""

from __future__ import annotations

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
from tests.safety_helpers import (
    build,
    digest,
    dump,
    generate,
    integrity,
    invoke,
    start,
    wait_for_journal,
)

HEAD = migrate.head_revision()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A club with players and three months of games, not rated yet."""
    folder = tmp_path_factory.mktemp("club")
    players, games = generate(folder, players=80, games=3000, periods=3, seed=7)
    db = folder / "club.db"
    build(db, players, games)
    return db


@pytest.fixture
def db(tmp_path: Path, club: Path) -> Path:
    """A private copy of the club."""
    path = tmp_path / "club.db"
    shutil.copyfile(club, path)
    return path


def rows(path: Path) -> int:
    """Rows over all tables, as `db restore` reports them."""
    return sum(
        len(v) for k, v in dump(path).items() if k not in ("sqlite_master", "sqlite_sequence")
    )


# --- backup -------------------------------------------------------------------------------


def test_backup_copies_and_checks(db: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copy.db"
    code, out = invoke(db, "db", "backup", str(dest))
    assert code == 0
    tables = len(backups.table_row_counts(db))
    assert out == (
        f"Backed up {db} to {dest} ({tables} tables, {rows(db)} rows, same as the database; "
        "integrity check ok)\n"
    )
    assert dump(dest) == dump(db)


def test_backup_refuses_to_overwrite(db: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copy.db"
    dest.write_bytes(b"older backup")
    assert invoke(db, "db", "backup", str(dest)) == (
        1,
        f"Error: '{dest}' already exists; use --force to replace it\n",
    )
    assert dest.read_bytes() == b"older backup"


def test_backup_of_postgresql_points_to_pg_dump(tmp_path: Path) -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:1/none"
    assert invoke(url, "db", "backup", str(tmp_path / "x.db")) == (
        1,
        "Error: db backup works on SQLite files; use pg_dump for PostgreSQL\n",
    )


@pytest.mark.slow
def test_backup_while_another_process_rates(db: Path, tmp_path: Path) -> None:
    """Every backup taken while `ratings rate` runs in another process is whole: it passes
    its integrity check and holds exactly the state before or after the rate."""
    reference = tmp_path / "reference.db"
    shutil.copyfile(db, reference)
    before = digest(db)
    assert invoke(reference, "rate")[0] == 0
    after = digest(reference)

    proc = start(db, "rate")
    taken: list[Path] = []
    while proc.poll() is None or not taken:
        dest = tmp_path / f"backup-{len(taken)}.db"
        backups.backup(db, dest)  # raises if the copy fails its integrity check
        taken.append(dest)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.startswith("Rated 3 periods")
    states = [digest(path) for path in taken]
    assert set(states) <= {before, after}
    assert all(integrity(path) == "ok" for path in taken)
    assert digest(db) == after


# --- restore ------------------------------------------------------------------------------


def test_restore_round_trip(db: Path, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    invoke(db, "db", "backup", str(saved))
    assert invoke(db, "player", "add", "Late, Comer", "--rating", "1500")[0] == 0
    changed = dump(db)
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "restore", str(saved), "--yes"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Restored {db} from {saved} (schema {HEAD}, {rows(saved)} rows)\n"
    assert result.stderr == f"The replaced database is kept as {db}.before-restore\n"
    assert dump(db) == dump(saved)
    assert dump(Path(f"{db}.before-restore")) == changed
    assert integrity(db) == "ok"
    # the restored database is an ordinary one: the next command works on it
    assert invoke(db, "player", "show", "Late, Comer") == (1, "Error: no player 'Late, Comer'\n")
    assert invoke(db, "player", "add", "Late, Comer")[0] == 0


def test_restore_asks_first(db: Path, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    invoke(db, "db", "backup", str(saved))
    invoke(db, "player", "add", "Late, Comer")
    before = db.read_bytes()
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "restore", str(saved)], input="n\n")
    assert result.exit_code == 1
    assert result.output == (
        f"Replace {db} with {saved} (schema {HEAD})? The current database is kept as "
        f"{db}.before-restore [y/N]: n\n"
        "Error: not confirmed; nothing was changed (--yes confirms without asking)\n"
    )
    assert db.read_bytes() == before
    assert not Path(f"{db}.before-restore").exists()
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "restore", str(saved)], input="y\n")
    assert result.exit_code == 0
    assert dump(db) == dump(saved)


def test_restore_into_a_missing_database(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "new.db"
    result = CliRunner().invoke(cli, ["--db", str(target), "db", "restore", str(db)])
    assert (result.exit_code, result.output) == (
        0,
        f"Restored {target} from {db} (schema {HEAD}, {rows(db)} rows)\n",
    )
    assert dump(target) == dump(db)
    assert not Path(f"{target}.before-restore").exists()


def test_restore_never_overwrites_an_earlier_before_restore(db: Path, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    invoke(db, "db", "backup", str(saved))
    kept = Path(f"{db}.before-restore")
    kept.write_bytes(b"what the first restore replaced")
    before = db.read_bytes()
    assert invoke(db, "db", "restore", str(saved), "--yes") == (
        1,
        f"Error: '{kept}' exists (the database an earlier restore replaced); move it away first\n",
    )
    assert kept.read_bytes() == b"what the first restore replaced"
    assert db.read_bytes() == before


def _no_settings(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM settings")


def _unknown_revision(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'ffff'")


def _other_application(path: Path) -> None:
    path.unlink()
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")


def _damaged(path: Path) -> None:
    data = bytearray(path.read_bytes())
    page = 4096
    data[10 * page : 14 * page] = b"\xff" * (4 * page)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda p: p.unlink(), "no database at '{src}'"),
        (lambda p: p.write_text("name,rating\n"), "'{src}' is not a SQLite database"),
        (_other_application, "'{src}' is not a ratings database (no table alembic_version, "
         "settings, players, events, games, rating_periods, rating_history, rating_breakdown)"),
        (_unknown_revision, "'{src}' has schema revision ffff, which this version of ratings "
         "does not know; upgrade ratings"),
        (_no_settings, "'{src}' has no settings row; it was not made by 'ratings init'"),
    ],
    ids=["missing", "not-sqlite", "not-ratings", "unknown-revision", "no-settings"],
)  # fmt: skip
def test_restore_checks_the_source_first(
    db: Path, tmp_path: Path, spoil: Callable[[Path], None], message: str
) -> None:
    src = tmp_path / "saved.db"
    shutil.copyfile(db, src)
    spoil(src)
    before = db.read_bytes()
    assert invoke(db, "db", "restore", str(src), "--yes") == (
        1,
        "Error: " + message.format(src=src) + "\n",
    )
    assert db.read_bytes() == before
    assert not Path(f"{db}.before-restore").exists()


def test_restore_refuses_a_damaged_source(db: Path, tmp_path: Path) -> None:
    src = tmp_path / "saved.db"
    shutil.copyfile(db, src)
    _damaged(src)
    before = db.read_bytes()
    code, out = invoke(db, "db", "restore", str(src), "--yes")
    assert code == 1
    assert out.startswith(f"Error: '{src}' ")
    assert db.read_bytes() == before
    assert not Path(f"{db}.before-restore").exists()


def test_restore_refuses_to_replace_what_is_not_a_ratings_database(
    db: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.db"
    with sqlite3.connect(notes) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
    before = notes.read_bytes()
    assert invoke(notes, "db", "restore", str(db), "--yes") == (
        1,
        f"Error: '{notes}' is not a ratings database; refusing to replace it\n",
    )
    assert notes.read_bytes() == before
    text = tmp_path / "players.csv"
    text.write_text("name\nAnn\n")
    assert invoke(text, "db", "restore", str(db), "--yes") == (
        1,
        f"Error: '{text}' is not a SQLite database; refusing to replace it\n",
    )
    assert text.read_text() == "name\nAnn\n"


def test_restore_refuses_the_database_itself(db: Path) -> None:
    before = db.read_bytes()
    assert invoke(db, "db", "restore", str(db), "--yes") == (
        1,
        f"Error: '{db}' is the database itself; nothing to restore\n",
    )
    assert db.read_bytes() == before


def test_restore_over_a_damaged_database_keeps_its_bytes(db: Path, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    invoke(db, "db", "backup", str(saved))
    _damaged(db)
    damaged = db.read_bytes()
    assert invoke(db, "db", "restore", str(saved), "--yes")[0] == 0
    assert Path(f"{db}.before-restore").read_bytes() == damaged
    assert integrity(db) == "ok"
    assert dump(db) == dump(saved)


def test_restore_on_postgresql_points_to_pg_restore(tmp_path: Path) -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:1/none"
    assert invoke(url, "db", "restore", str(tmp_path / "x.db"), "--yes") == (
        1,
        "Error: db restore works on SQLite files; use pg_restore for PostgreSQL\n",
    )


@pytest.mark.slow
@pytest.mark.parametrize("when", ["at-start", "while-writing"])
def test_restore_while_another_process_rates(db: Path, tmp_path: Path, when: str) -> None:
    """The restore and a concurrent `ratings rate` serialise: either the rate ran first
    (its result is what the restore keeps) or the restore did (the rate then rates the
    restored contents). No write is lost in between.

    at-start: the restore starts while the rate process is still starting up (the restore
    usually wins); while-writing: it starts once the rate holds the write lock (its journal
    exists), so it must wait for the rate to commit."""
    saved = tmp_path / "saved.db"
    invoke(db, "db", "backup", str(saved))
    invoke(db, "player", "add", "Late, Comer", "--rating", "1500")
    outcomes = {}
    for name, base in (("live", db), ("saved", saved)):
        copy = tmp_path / f"{name}-rated.db"
        shutil.copyfile(base, copy)
        assert invoke(copy, "rate")[0] == 0
        outcomes[name] = (digest(base), digest(copy))
    live_before, live_rated = outcomes["live"]
    saved_before, saved_rated = outcomes["saved"]

    proc = start(db, "rate")
    if when == "while-writing":
        assert wait_for_journal(proc, db) is not None
    code, out = invoke(db, "db", "restore", str(saved), "--yes")
    assert code == 0, out
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    kept = digest(Path(f"{db}.before-restore"))
    outcome = (kept, digest(db))
    assert outcome in {(live_rated, saved_before), (live_before, saved_rated)}
    if when == "while-writing":
        assert outcome == (live_rated, saved_before)
    assert integrity(db) == "ok"


# --- upgrade ------------------------------------------------------------------------------


def test_upgrade_backs_up_first_and_keeps_earlier_backups(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a newer head than the real one is pretended, so that the upgrade backs up
    # (and then finds nothing to run)
    monkeypatch.setattr(migrate, "head_revision", lambda: "9999")
    first = Path(f"{db}.bak-{HEAD}")
    second = Path(f"{db}.bak-{HEAD}-2")
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "upgrade"])
    assert (result.exit_code, result.stdout) == (0, f"Already at {HEAD}\n")
    assert result.stderr == f"Backed up to {first}\n"
    assert dump(first) == dump(db)
    assert integrity(first) == "ok"
    monkeypatch.undo()
    assert invoke(db, "player", "add", "Late, Comer")[0] == 0
    monkeypatch.setattr(migrate, "head_revision", lambda: "9999")
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "upgrade"])
    assert result.stderr == f"Backed up to {second}\n"
    assert dump(second) == dump(db) != dump(first)


def test_upgrade_at_the_newest_revision_writes_no_backup(db: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "upgrade"])
    assert (result.exit_code, result.output) == (0, f"Already at {HEAD}\n")
    assert list(db.parent.glob("*.bak-*")) == []


def test_upgrade_no_backup(db: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "upgrade", "--no-backup"])
    assert (result.exit_code, result.output) == (0, f"Already at {HEAD}\n")
    assert list(db.parent.glob("*.bak-*")) == []


# --- what a killed restore leaves -----------------------------------------------------------


def _dead_pid() -> int:
    """The id of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_pending_copy_of_a_restore_that_replaced_nothing_is_removed(
    db: Path, tmp_path: Path
) -> None:
    """Killed before its commit: the pending copy equals the live file; the retry runs."""
    backup = tmp_path / "bk.db"
    assert invoke(db, "db", "backup", str(backup))[0] == 0
    pending = db.with_name(f".{db.name}.before-restore-pending-{_dead_pid()}")
    shutil.copyfile(db, pending)
    work = db.with_name(f".{db.name}.ratings-tmp-{_dead_pid()}-abcd")
    work.mkdir()
    (work / "source.db").write_bytes(b"a copy of the source")
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "restore", str(backup), "--yes"])
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"An earlier restore of {db} was interrupted before it replaced anything; its "
        "temporary copy was removed\n"
        f"The replaced database is kept as {db}.before-restore\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bk.db",
        "club.db",
        "club.db.before-restore",
    ]


def test_a_pending_copy_of_a_restore_that_committed_is_kept(db: Path, tmp_path: Path) -> None:
    """Killed between its commit and the rename: the pending copy is the only old copy."""
    old = dump(db)
    shutil.copyfile(db, tmp_path / "old.db")
    assert invoke(db, "player", "add", "Restored, Already")[0] == 0  # what it restored
    backup = tmp_path / "bk.db"
    assert invoke(db, "db", "backup", str(backup))[0] == 0
    # left last: any command now clears a pending copy
    pending = db.with_name(f".{db.name}.before-restore-pending-{_dead_pid()}")
    shutil.copyfile(tmp_path / "old.db", pending)
    result = CliRunner().invoke(cli, ["--db", str(db), "db", "restore", str(backup), "--yes"])
    kept = backups.before_restore_path(db)
    assert result.exit_code == 1
    assert result.stderr == (
        f"An earlier restore of {db} was interrupted after it replaced the database; the "
        f"replaced database is kept as {kept}\n"
        f"Error: '{kept}' exists (the database an earlier restore replaced); move it away "
        "first\n"
    )
    assert dump(kept) == old
    assert not pending.exists()


KILLED_MID_COPY = """
import os, shutil, signal, sys
from ratings import backups
from ratings.cli import cli

def half_then_die(src, dst, *args, **kwargs):
    data = src.read()
    dst.write(data[: len(data) // 2])
    dst.flush()
    os.kill(os.getpid(), signal.SIGKILL)

backups.shutil.copyfileobj = half_then_die
cli(sys.argv[1:])
"""


@pytest.mark.slow  # a real process killed mid-copy
@pytest.mark.parametrize("damaged", [False, True])
def test_restore_killed_while_copying_the_old_bytes(
    db: Path, tmp_path: Path, damaged: bool
) -> None:
    """Seen in a kill trial: a restore killed while it copied the live database's bytes aside
    left half a copy under the pending name; the next command took it for the replaced
    database (its bytes differ from the live ones), kept it as ``<db>.before-restore`` and the
    retry refused. The copy now goes through a temporary: the live database is untouched, the
    temporary is removed, the retry restores."""
    saved = tmp_path / "saved.db"
    assert invoke(db, "db", "backup", str(saved))[0] == 0
    assert invoke(db, "player", "add", "Late, Comer", "--rating", "1500")[0] == 0
    if damaged:
        with db.open("r+b") as f:  # a damaged page: the restore replaces the file whole
            f.seek(4096 * 3)
            f.write(b"\xff" * 4096)
    before = db.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", KILLED_MID_COPY, "--db", str(db), "db", "restore", str(saved),
         "--yes"],
        capture_output=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == -9, done.stderr
    assert db.read_bytes() == before
    assert not Path(f"{db}.before-restore").exists()
    code, out = invoke(db, "db", "restore", str(saved), "--yes")
    assert code == 0, out
    assert dump(db) == dump(saved)
    assert Path(f"{db}.before-restore").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
