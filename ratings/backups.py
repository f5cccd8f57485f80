"""``ratings db backup`` and ``ratings db restore`` of a SQLite file, and the tidying of what
a killed restore left that every command does first (docs/RELIABILITY.md).

A backup is SQLite's online backup API into a temporary file, checked (the same tables and
row counts, ``PRAGMA integrity_check``) before it is renamed into place. A restore checks the
backup (:func:`inspect_backup`: a ratings database of a revision this version knows) before
it replaces anything, keeps the replaced database as ``<db>.before-restore``, and leaves the
old or the new database whenever it is killed.
"""

from __future__ import annotations

import filecmp
import glob
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ratings import files
from ratings.db import (
    BUSY_TIMEOUT_MS,
    check_regular_file,
    journal_path,
    sqlite_file_name,
    sqlite_uri,
)
from ratings.dbfile import recover_hot_journal
from ratings.errors import DatabaseError
from ratings.migrate import known_revisions


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What :func:`backup` copied and checked."""

    tables: int
    """Tables in the copy (SQLite's own ``sqlite_*`` tables aside)."""
    rows: int
    """Rows over those tables: the same as in the database at the moment of the copy."""


def backup(source: Path, dest: Path, *, force: bool = False) -> BackupReport:
    """Copy a SQLite database through the online backup API, check the copy, then publish it.

    Consistent even while another process writes: the source is read in one read
    transaction, which also gives the row counts the copy is compared with. The copy goes to
    a temporary file beside ``dest`` and is renamed into place only after it passed: the same
    tables, the same row count in each, ``PRAGMA integrity_check`` ok. A failure (disk full,
    file size limit) or a kill leaves no ``dest``. ``dest`` is never the database, a journal
    name or (without ``force``) an existing file.

    :raises DatabaseError: if the copy fails or differs; OutputFileError for a refused dest.
    """
    if not check_regular_file(source):
        raise DatabaseError(f"no database at '{source}'")
    files.check_destination(dest, database=source, force=force, sqlite=True)
    try:
        with files.temporary_file(dest) as tmp:
            report = _copy_database(source, tmp)
            files.publish(tmp, dest, force=force)
    except OSError as exc:
        raise DatabaseError(f"backup of '{source}' failed: {exc.strerror or exc}") from exc
    return report


def _copy_database(source: Path, dest: Path) -> BackupReport:
    """The backup API copy of ``source`` into the new file ``dest``, compared and checked."""
    recover_hot_journal(source)
    try:
        src = sqlite3.connect(
            sqlite_uri(source, mode="ro"), uri=True, timeout=BUSY_TIMEOUT_MS / 1000
        )
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"backup of '{source}' failed: {exc}") from exc
    try:
        src.execute("BEGIN")  # one snapshot: the counts and the copy see the same rows
        expected = _row_counts(src)
        dst = sqlite3.connect(sqlite_file_name(dest))
        try:
            src.backup(dst)
            verdict = [row[0] for row in dst.execute("PRAGMA integrity_check")]
            copied = _row_counts(dst)
        finally:
            dst.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"backup of '{source}' failed: {exc}") from exc
    finally:
        src.close()
    if verdict != ["ok"]:
        raise DatabaseError(f"backup of '{source}' failed its integrity check: {verdict[:3]}")
    if copied != expected:
        differ = sorted(set(copied.items()) ^ set(expected.items()))
        raise DatabaseError(f"backup of '{source}' differs from the database: {differ[:3]}")
    return BackupReport(len(copied), sum(copied.values()))


def _row_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Rows of every table (SQLite's own ``sqlite_*`` tables aside), by table name."""
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    return {
        name: conn.execute(
            f'SELECT count(*) FROM "{name.replace(chr(34), chr(34) * 2)}"'
        ).fetchone()[0]
        for name in names
    }


def table_row_counts(path: Path) -> dict[str, int]:
    """Rows of every table of the SQLite file ``path``, by table name (opened read-only)."""
    recover_hot_journal(path)
    conn = sqlite3.connect(sqlite_uri(path, mode="ro"), uri=True)
    try:
        return _row_counts(conn)
    finally:
        conn.close()


SQLITE_HEADER = b"SQLite format 3\x00"

RATINGS_TABLES = (
    "alembic_version",
    "settings",
    "players",
    "events",
    "games",
    "rating_periods",
    "rating_history",
    "rating_breakdown",
)
"""Tables every revision of a ratings database has: what ``restore`` requires of a source."""


@dataclass(frozen=True, slots=True)
class RestoreReport:
    """What :func:`restore` did."""

    revision: str
    """Schema revision of the restored database."""
    kept: Path | None
    """Where the replaced database was kept (None: there was no database)."""
    rows: int
    """Rows restored, over all tables."""


def before_restore_path(db_path: Path) -> Path:
    """Where ``restore`` keeps the database it replaces: ``<db>.before-restore``."""
    return db_path.with_name(f"{db_path.name}.before-restore")


def inspect_backup(path: Path, *, shown_as: Path | None = None) -> str:
    """Check that ``path`` is a healthy ratings database; return its schema revision.

    Checks, in order: a SQLite file, ``PRAGMA integrity_check``, the ratings tables, a schema
    revision this version of ratings knows, and the settings row written by ``ratings init``.
    Opens the file read-only. Messages name ``shown_as`` (the original of a copy) if given.
    """
    name = shown_as or path
    if not path.is_file():
        raise DatabaseError(f"no database at '{name}'")
    with path.open("rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise DatabaseError(f"'{name}' is not a SQLite database")
    conn = sqlite3.connect(sqlite_uri(path, mode="ro"), uri=True)
    try:
        verdict = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            raise DatabaseError(
                f"'{name}' fails its integrity check: {'; '.join(map(str, verdict[:3]))}"
            )
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        missing = [t for t in RATINGS_TABLES if t not in tables]
        if missing:
            raise DatabaseError(
                f"'{name}' is not a ratings database (no table {', '.join(missing)})"
            )
        revisions = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]
        if len(revisions) != 1 or revisions[0] not in known_revisions():
            raise DatabaseError(
                f"'{name}' has schema revision {', '.join(revisions) or '(none)'}, which this "
                "version of ratings does not know; upgrade ratings"
            )
        if conn.execute("SELECT count(*) FROM settings").fetchone()[0] != 1:
            raise DatabaseError(f"'{name}' has no settings row; it was not made by 'ratings init'")
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"'{name}' is damaged: {exc}") from exc
    finally:
        conn.close()
    return str(revisions[0])


def _copy_whole(db_path: Path, pending: Path) -> None:
    """Copy the database's bytes to ``pending`` through a temporary file and a rename, so that
    a pending copy is always whole: :func:`recover_interrupted_restore` takes a pending copy
    that differs from the live database for the replaced one (seen in a kill trial: a copy
    cut short by the kill was kept as ``<db>.before-restore`` and the retry refused). A kill
    during the copy leaves a temporary that the next command removes."""
    tmp = files.temporary_path(db_path)
    try:
        with db_path.open("rb") as src, tmp.open("xb") as dst:
            shutil.copyfileobj(src, dst)
            dst.flush()
            os.fsync(dst.fileno())
        os.replace(tmp, pending)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _pending_path(db_path: Path) -> Path:
    return db_path.with_name(f".{db_path.name}{files.PENDING_MARK}{os.getpid()}")


def recover_interrupted_restore(db_path: Path) -> list[str]:
    """Clear what a killed ``restore`` of ``db_path`` left; say what was found.

    A restore writes the replaced database to a pending copy first and gives it its final
    name ``<db>.before-restore`` only after the new contents are committed. A pending copy
    of a process that has ended is compared with the live database (after SQLite rolled back
    any hot journal): the same bytes mean the restore never replaced anything, and the copy
    is removed; different bytes mean the restore committed (or the database changed since),
    and the copy becomes ``<db>.before-restore``, so that nothing is lost. Temporary
    working folders of ended restores are removed.
    """
    notes = []
    files.remove_stale_temporaries(db_path)
    prefix = f".{db_path.name}{files.PENDING_MARK}"
    for pending in sorted(db_path.parent.glob(f"{glob.escape(prefix)}*")):
        pid = pending.name[len(prefix) :]
        if pending.name.endswith("-journal") or not (pid.isascii() and pid.isdigit()):
            continue
        if files.is_running(int(pid)):
            continue
        pending_journal = files.journals_of(pending)[0]
        if _same_contents(db_path, pending):
            if pending_journal.exists() and not journal_path(db_path).exists():
                os.replace(pending_journal, journal_path(db_path))  # it was moved aside
            pending_journal.unlink(missing_ok=True)
            pending.unlink()
            notes.append(
                f"An earlier restore of {db_path} was interrupted before it replaced "
                "anything; its temporary copy was removed"
            )
            continue
        kept = before_restore_path(db_path)
        if os.path.lexists(kept):
            raise DatabaseError(
                f"'{pending}' holds the database an interrupted restore replaced, and "
                f"'{kept}' exists too; move one of them away"
            )
        if pending_journal.exists():
            os.replace(pending_journal, files.journals_of(kept)[0])
        os.replace(pending, kept)
        files.fsync_path(db_path.parent)
        notes.append(
            f"An earlier restore of {db_path} was interrupted after it replaced the "
            f"database; the replaced database is kept as {kept}"
        )
    return notes


def tidy_interrupted_restore(db_path: Path) -> list[str]:
    """For any command that opens ``db_path``: clear what a killed ``restore`` left, as the
    next restore would (:func:`recover_interrupted_restore`), and return what to tell the
    user; what cannot be cleared is named in a warning, and the command goes on. A killed
    restore left a full-size pending copy and its working folder until the next restore.
    The command calls it only when :func:`ratings.files.interrupted_restore_left` finds
    something (one directory listing, without importing this module)."""
    try:
        return recover_interrupted_restore(db_path)
    except DatabaseError as exc:
        return [f"Warning: {exc}"]
    except OSError as exc:
        return [
            f"Warning: cannot clear what an interrupted restore of {db_path} left beside it "
            f"({exc.strerror or exc}); 'ratings db restore' clears it once it can"
        ]


def _same_contents(db_path: Path, copy: Path) -> bool:
    """True if the live database holds exactly the bytes of ``copy``.

    A read-write connection first rolls back a hot journal of a killed writer, and holds
    the write lock while the bytes are compared.
    """
    if not db_path.exists():
        return False
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(
            sqlite_file_name(db_path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
        )
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.DatabaseError:  # a damaged file: compare what is there
        pass
    try:
        return filecmp.cmp(db_path, copy, shallow=False)
    finally:
        if conn is not None:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.close()


def restore(db_path: Path, source: Path) -> RestoreReport:
    """Replace the database at ``db_path`` with a copy of the backup ``source``.

    The source is first copied (online backup API) and checked with :func:`inspect_backup`;
    nothing is replaced if that fails. The current database is kept as
    ``<db>.before-restore`` (never overwritten). A healthy database is replaced in one
    transaction that holds the write lock throughout, so another process sees either the
    old or the restored contents and no write of another process is lost between the two;
    a damaged file is moved aside as a whole. Killed at any moment, a restore leaves the old
    or the new database, and the next restore clears what it left
    (:func:`recover_interrupted_restore`) and can run again.
    """
    kept = before_restore_path(db_path)
    if not check_regular_file(source):
        raise DatabaseError(f"no database at '{source}'")
    if not db_path.parent.is_dir():
        raise DatabaseError(f"folder does not exist: '{db_path.parent}'")
    exists = check_regular_file(db_path)
    if exists and source.resolve() == db_path.resolve():
        raise DatabaseError(f"'{source}' is the database itself; nothing to restore")
    recover_interrupted_restore(db_path)
    if os.path.lexists(kept):
        raise DatabaseError(
            f"'{kept}' exists (the database an earlier restore replaced); move it away first"
        )
    with source.open("rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise DatabaseError(f"'{source}' is not a SQLite database")
    work = files.temporary_path(db_path)
    try:
        work.mkdir()
        copy = work / "source.db"
        _copy_database(source, copy)
        revision = inspect_backup(copy, shown_as=source)
        rows = _count_rows(copy)
        if not db_path.exists():
            if journal_path(db_path).exists():
                # SQLite would roll the restored file back with it
                raise DatabaseError(
                    f"'{journal_path(db_path)}' exists without its database; move it away"
                )
            files.fsync_path(copy)
            os.replace(copy, db_path)
            files.fsync_path(db_path.parent)
            return RestoreReport(revision, None, rows)
        if _is_damaged(db_path):
            _replace_damaged(db_path, copy, kept)
        else:
            _restore_in_place(db_path, copy, kept)
    except OSError as exc:  # a read-only folder, a full disk: nothing was replaced
        raise DatabaseError(f"restore of '{db_path}' failed: {exc.strerror or exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return RestoreReport(revision, kept, rows)


def _replace_damaged(db_path: Path, copy: Path, kept: Path) -> None:
    """Keep a damaged database's bytes (and its hot journal) and put the checked copy in place.

    Nothing to lock or keep consistent; the order of the renames lets
    :func:`recover_interrupted_restore` finish or undo a kill at any point.
    """
    pending = _pending_path(db_path)
    pending_journal = files.journals_of(pending)[0]
    _copy_whole(db_path, pending)
    journal = journal_path(db_path)
    if journal.exists():  # it belongs to the damaged bytes, not to the restored file
        os.replace(journal, pending_journal)
    files.fsync_path(copy)
    os.replace(copy, db_path)
    if pending_journal.exists():
        os.replace(pending_journal, files.journals_of(kept)[0])
    os.replace(pending, kept)
    files.fsync_path(db_path.parent)


def _is_damaged(path: Path) -> bool:
    """True if the SQLite file ``path`` cannot be read or fails ``quick_check``.

    Raises DatabaseError for a file that is not SQLite at all, or a healthy SQLite file that
    is not a ratings database: ``restore`` refuses to replace those (a mistyped ``--db``).
    """
    with path.open("rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise DatabaseError(f"'{path}' is not a SQLite database; refusing to replace it")
    try:
        conn = sqlite3.connect(sqlite_file_name(path), timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            if [row[0] for row in conn.execute("PRAGMA quick_check")] != ["ok"]:
                return True
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            raise DatabaseError(f"'{path}' stayed locked by another process: {exc}") from exc
        return True
    except sqlite3.DatabaseError:
        return True
    if "alembic_version" not in tables:
        raise DatabaseError(f"'{path}' is not a ratings database; refusing to replace it")
    return False


def _restore_in_place(db_path: Path, copy: Path, kept: Path) -> int:
    """Swap the contents of the live database for the checked copy in one transaction.

    The old bytes go to a pending copy, taken while the write lock is held; it gets its final
    name ``kept`` only after the commit (see :func:`recover_interrupted_restore`).
    """
    pending = _pending_path(db_path)
    conn = sqlite3.connect(
        sqlite_file_name(db_path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
    )
    try:
        conn.execute("PRAGMA foreign_keys = OFF")  # tables are dropped and refilled in any order
        conn.execute("ATTACH DATABASE ? AS restore_source", (sqlite_file_name(copy),))
        conn.execute("BEGIN IMMEDIATE")  # waits for other writers, then keeps them out
        try:
            # with the write lock held no other process can change the file and the hot
            # journal of a crashed one has been rolled back, so its bytes are consistent
            # (the backup API cannot read through a connection that holds the write lock)
            _copy_whole(db_path, pending)
            rows = _swap_contents(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            pending.unlink(missing_ok=True)
            raise
        os.replace(pending, kept)
        files.fsync_path(db_path.parent)
        conn.execute("DETACH DATABASE restore_source")
    except sqlite3.OperationalError as exc:
        raise DatabaseError(f"restore of '{db_path}' failed, nothing was changed: {exc}") from exc
    finally:
        conn.close()
    return rows


def _swap_contents(conn: sqlite3.Connection) -> int:
    """Drop every object of ``main``, recreate the source's schema, copy every row, check."""

    def quoted(name: str) -> str:
        return '"' + name.replace('"', '""') + '"'

    old = conn.execute(
        "SELECT type, name FROM main.sqlite_master "
        "WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%' "
        "ORDER BY type = 'table'"
    ).fetchall()
    for kind, name in old:
        conn.execute(f"DROP {kind.upper()} main.{quoted(name)}")
    order = {"table": 0, "index": 1, "view": 2, "trigger": 3}
    new = conn.execute(
        "SELECT type, name, sql FROM restore_source.sqlite_master "
        "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ).fetchall()
    new.sort(key=lambda item: order.get(item[0], 4))
    for _kind, _name, sql in new:
        conn.execute(sql)  # unqualified CREATE statements create in main
    rows = 0
    for kind, name, _sql in new:
        if kind != "table":
            continue
        conn.execute(f"INSERT INTO main.{quoted(name)} SELECT * FROM restore_source.{quoted(name)}")
        source_rows = conn.execute(
            f"SELECT count(*) FROM restore_source.{quoted(name)}"
        ).fetchone()[0]
        if conn.execute(f"SELECT count(*) FROM main.{quoted(name)}").fetchone()[0] != source_rows:
            raise DatabaseError(f"restore: table {name} did not copy completely")
        rows += source_rows
    has_sequence = {
        schema: conn.execute(
            f"SELECT count(*) FROM {schema}.sqlite_master WHERE name = 'sqlite_sequence'"
        ).fetchone()[0]
        for schema in ("main", "restore_source")
    }
    if has_sequence["main"]:
        conn.execute("DELETE FROM main.sqlite_sequence")
        if has_sequence["restore_source"]:
            conn.execute(
                "INSERT INTO main.sqlite_sequence SELECT * FROM restore_source.sqlite_sequence"
            )
    version = conn.execute("PRAGMA restore_source.user_version").fetchone()[0]
    conn.execute(f"PRAGMA main.user_version = {int(version)}")
    if conn.execute("PRAGMA main.foreign_key_check").fetchone() is not None:
        raise DatabaseError("restore: the restored rows break a foreign key")
    verdict = [row[0] for row in conn.execute("PRAGMA main.integrity_check")]
    if verdict != ["ok"]:
        raise DatabaseError(f"restore: integrity check failed: {verdict[:3]}")
    return rows


def _count_rows(path: Path) -> int:
    """Rows over all tables of a SQLite file (for the restore report)."""
    return sum(table_row_counts(path).values())
