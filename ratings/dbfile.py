"""The SQLite file behind a database, without SQLAlchemy: the checks every open makes, the
hot journal a killed writer left, the schema revision this code expects.

:mod:`ratings.db` builds its engines on these; a command that must start fast (``ratings
list``, :mod:`ratings.rating_lists`) reads the file with the standard library's ``sqlite3``
and the same checks. Nothing here imports SQLAlchemy or Alembic.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import urllib.parse
from pathlib import Path

from ratings.errors import DatabaseError

HEAD_REVISION = "0018"
"""The newest revision this version of ratings knows: the head of ``migrations/versions``
(``tests/test_migrations.py`` checks it against Alembic's; a new revision moves it)."""

URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
"""How a ``--db`` value that is a URL begins; any other value is a SQLite file's path."""

BUSY_TIMEOUT_MS = 30_000
"""How long a command waits for another process's write lock before giving up."""


def sqlite_uri(path: Path, *, mode: str = "ro") -> str:
    """A SQLite ``file:`` URI for ``path`` (made absolute), every special character encoded.

    ``f"file:{path}?mode=ro"`` is wrong for a path with ``#`` (the rest is a fragment: the
    mode is lost and a truncated name is created), ``?`` (a query starts) or ``%`` (decoded).
    """
    quoted = urllib.parse.quote(str(path.resolve()), safe="/")
    return f"file:{quoted}?mode={mode}"


def sqlite_file_name(path: Path) -> str:
    """``path`` as a file name for ``sqlite3.connect`` and ``ATTACH``: absolute, so that it
    never begins with ``file:``. This SQLite is built to take such a name for a URI even
    without ``uri=True`` (measured: ``connect("file:zz.db")`` created ``zz.db``)."""
    return os.path.abspath(path)


def journal_path(path: Path) -> Path:
    """The rollback journal SQLite keeps next to ``path`` while it writes."""
    return path.with_name(f"{path.name}-journal")


def recover_hot_journal(path: Path) -> None:
    """Roll back the journal a killed writer left, before a read-only open.

    A read-only connection cannot roll a hot journal back and fails with "attempt to write
    a readonly database". A read-write connection does it when it first reads. A journal
    that belongs to a writer still running is not hot, and reading just waits for it.
    """
    if not journal_path(path).exists():
        return
    try:
        conn = sqlite3.connect(sqlite_file_name(path.resolve()), timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc) or "read-only" in str(exc) or "unable to open" in str(exc):
            raise DatabaseError(
                f"'{path}' holds a write that was interrupted (a crash or a kill left "
                f"'{journal_path(path).name}'), and rolling it back needs write access to the "
                "file and its folder; run any ratings command as a user who may write there"
            ) from exc
        raise DatabaseError(f"database error: {exc}") from exc


def check_regular_file(path: Path) -> bool:
    """True if ``path`` is a regular file, False if nothing is there; refuse anything else.

    A FIFO would hang the first read, a device or socket is never a database.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise DatabaseError(f"cannot use '{path}': {exc.strerror}") from exc
    if stat.S_ISDIR(mode):
        raise DatabaseError(f"'{path}' is a folder, not a database file")
    if not stat.S_ISREG(mode):
        raise DatabaseError(f"'{path}' is not a regular file")
    return True


SQLITE_MAX_PATH = 504
"""The longest database path SQLite opens, in bytes: its SQLITE_MAX_PATHNAME (512) less room
for the ``-journal`` it appends (measured: 504 works, 506 fails with "unable to open")."""


def check_path_length(path: Path) -> None:
    """Refuse a database path SQLite cannot open (it would fail later, halfway)."""
    size = len(os.fsencode(path.resolve()))
    if size > SQLITE_MAX_PATH:
        raise DatabaseError(
            f"'{path}' is too long a path for SQLite ({size} bytes; at most {SQLITE_MAX_PATH})"
        )


def check_sqlite_file(path: Path, *, must_exist: bool) -> None:
    """Refuse a missing folder, a missing file where one is needed, or a non-SQLite file."""
    check_path_length(path)
    if not path.parent.is_dir():
        raise DatabaseError(f"folder does not exist: '{path.parent}'")
    if not check_regular_file(path):
        if must_exist:
            raise DatabaseError(
                f"no database at '{path}'; create one with 'ratings init', or name an "
                "existing one with --db PATH (or RATINGS_DB)"
            )
        return
    with path.open("rb") as f:
        head = f.read(16)
    if head and head != b"SQLite format 3\x00":
        raise DatabaseError(f"'{path}' is not a SQLite database")
