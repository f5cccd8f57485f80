"""Files the product writes: checked destinations, written whole or not at all.

Every file goes to a temporary file in the destination's folder, is flushed to disk and then
renamed into place (a rename within one file system is atomic), so that a failure or a kill
leaves either the old state or the complete new file. Temporary files carry the writing
process's id; a later write to the same destination removes those of processes that have
ended (what a SIGKILL leaves behind).

A destination is refused if it is, or resolves to (symlink, relative path, hard link), the
database or one of its journals, or if its name looks like a SQLite journal: SQLite applies a
file named ``<db>-journal`` to ``<db>`` as a hot journal, and deletes it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from ratings.dbfile import check_path_length
from ratings.errors import InputFileError, OutputFileError

JOURNAL_SUFFIXES = ("-journal", "-wal", "-shm")
"""The names SQLite gives the files beside a database: never written by ratings."""

TEMP_MARK = ".ratings-tmp-"
"""Part of every temporary name: ``.<name>.ratings-tmp-<pid>-<random>``."""

_NAME_PART = 120
"""How much of the destination's name a temporary name repeats (names have 255 bytes)."""


def journals_of(database: Path) -> tuple[Path, ...]:
    """The journal, WAL and shared-memory files SQLite may keep beside ``database``."""
    return tuple(database.with_name(database.name + suffix) for suffix in JOURNAL_SUFFIXES)


def check_destination(
    dest: Path, *, database: Path | None, force: bool, sqlite: bool = False
) -> None:
    """Refuse a destination that must not be written; see the module docstring.

    ``database`` is the database the command works on (None for PostgreSQL). ``sqlite``:
    the file to write is a SQLite database, so a journal already beside it is refused too
    (SQLite would roll the new file back with it).

    :raises OutputFileError: with a message that says what to do.
    """
    for suffix in JOURNAL_SUFFIXES:
        # the name given, and the name it resolves to (a symlink to some db-journal)
        if dest.name.endswith(suffix) or dest.resolve().name.endswith(suffix):
            raise OutputFileError(
                f"'{dest}' is named like a SQLite journal ({suffix}); choose another name"
            )
    if database is not None:
        _check_not_the_database(dest, database)
    if not dest.parent.is_dir():
        raise OutputFileError(f"folder does not exist: '{dest.parent}'")
    if dest.is_dir():
        raise OutputFileError(f"'{dest}' is a folder")
    if os.path.lexists(dest):
        if dest.exists() and not dest.is_file():
            raise OutputFileError(f"'{dest}' is not a regular file")
        if not force:
            raise OutputFileError(f"'{dest}' already exists; use --force to replace it")
    if sqlite:
        check_path_length(dest)
        for journal in journals_of(dest):
            if os.path.lexists(journal):
                raise OutputFileError(
                    f"'{journal}' exists; SQLite would apply it to a new '{dest.name}': "
                    "move it away first"
                )


def _check_not_the_database(dest: Path, database: Path) -> None:
    target = dest.resolve()
    if target == database.resolve() or _same_file(dest, database):
        raise OutputFileError(f"'{dest}' is the database; choose another file")
    # SQLite keeps the journal beside the file a symlinked database resolves to
    for journal in {*journals_of(database), *journals_of(database.resolve())}:
        if target == journal.resolve() or _same_file(dest, journal):
            raise OutputFileError(f"'{dest}' is the database's journal; choose another file")


def _same_file(a: Path, b: Path) -> bool:
    """True if both exist and are one file (a hard link, a bind mount)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def temporary_path(dest: Path) -> Path:
    """A new temporary name for ``dest``, in its folder, marked with this process's id."""
    token = os.urandom(4).hex()  # what secrets.token_hex(4) does, without importing hmac
    return dest.with_name(f".{dest.name[:_NAME_PART]}{TEMP_MARK}{os.getpid()}-{token}")


def is_running(pid: int) -> bool:
    """True if a process with this id runs on this machine."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


def _owner(name: str) -> int | None:
    """The process id in a temporary name, or None if it is not one of ours."""
    _, mark, rest = name.partition(TEMP_MARK)
    if not mark:
        return None
    pid = rest.split("-", 1)[0]
    return int(pid) if pid.isascii() and pid.isdigit() else None


def temporary_owner(name: str) -> int | None:
    """The id of the process that made the temporary file ``name``; None if the name is
    not one of ours."""
    return _owner(name)


def temporary_prefix(dest: Path) -> str:
    """How the names of ``dest``'s temporary files begin."""
    return f".{dest.name[:_NAME_PART]}{TEMP_MARK}"


def remove_stale_temporaries(dest: Path) -> list[Path]:
    """Remove temporary files (and folders) of ``dest`` left by processes that have ended.

    Returns what was removed. Those of running processes are left alone.
    """
    prefix = temporary_prefix(dest)
    removed: list[Path] = []
    try:
        entries = list(dest.parent.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        pid = _owner(entry.name)
        if pid is None or is_running(pid):
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
            removed.append(entry)
    return removed


def remove_stale_in(folder: int, *, own: bool = False) -> None:
    """Remove the temporary files and folders in the folder ``folder`` (a descriptor) of
    processes that have ended, and with ``own`` those of this process."""
    with os.scandir(folder) as entries:
        found = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
    for name, is_dir in found:
        pid = _owner(name)
        if pid is None or (is_running(pid) and not (own and pid == os.getpid())):
            continue
        with contextlib.suppress(OSError):
            if is_dir:
                shutil.rmtree(name, dir_fd=folder)
            else:
                os.unlink(name, dir_fd=folder)


MAX_INPUT_LINE = 1 << 20
"""The longest line of a file to import, in bytes (CSV, TRF, PGN): a valid line holds a few
hundred (a cell at most 131,072 characters, a name 200); a header of 70,000 columns about
500 KB. A longer one is refused as soon as it is met, before the file is read further."""

_READ_CHUNK = MAX_INPUT_LINE
"""Bytes read at a time: a line within one chunk is never too long, so only a line that
crosses from one chunk into the next needs measuring."""


def read_input(path: Path, max_line: int = MAX_INPUT_LINE) -> bytes:
    """The bytes of the file to import at ``path``, refused as soon as a line is longer than
    ``max_line`` bytes: a first pass reads it a chunk at a time and keeps none (one cell of
    100 MB held 350 to 740 MB while the whole file was read, decoded and parsed before any
    check); then the file is read whole.

    :raises InputFileError: ``a line longer than ... bytes``, or the file cannot be read.
    """
    run = 0  # bytes since the last line end
    lines = 1
    try:
        with path.open("rb") as f:
            while chunk := f.read(min(_READ_CHUNK, max_line)):
                first = min((i for i in (chunk.find(b"\n"), chunk.find(b"\r")) if i >= 0),
                            default=len(chunk))  # fmt: skip
                if run + first > max_line:
                    raise InputFileError(
                        str(path), lines, f"a line longer than {max_line:,} bytes: not a file "
                        "to import"
                    )  # fmt: skip
                last = max(chunk.rfind(b"\n"), chunk.rfind(b"\r"))
                run = run + len(chunk) if last < 0 else len(chunk) - last - 1
                lines += chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")
            return path.read_bytes()
    except OSError as exc:
        raise InputFileError(str(path), None, f"cannot read the file: {exc.strerror}") from exc


def fsync_path(path: Path) -> None:
    """Flush a file's (or a folder's) contents to disk."""
    flags = os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0)
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    except OSError as exc:  # some file systems cannot fsync a folder
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def publish(tmp: Path, dest: Path, *, force: bool) -> None:
    """Give the complete file ``tmp`` its final name ``dest`` (atomically; see module doc).

    Without ``force`` an existing ``dest`` is never replaced, not even one that appeared
    while ``tmp`` was written: the hard link fails instead.
    """
    fsync_path(tmp)
    if force:
        os.replace(tmp, dest)
    else:
        try:
            os.link(tmp, dest)
        except FileExistsError:
            raise OutputFileError(f"'{dest}' already exists; use --force to replace it") from None
        except OSError as exc:  # a file system without hard links
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            if os.path.lexists(dest):
                raise OutputFileError(
                    f"'{dest}' already exists; use --force to replace it"
                ) from None
            os.replace(tmp, dest)
        else:
            tmp.unlink()
    fsync_path(dest.parent)


@contextlib.contextmanager
def temporary_file(dest: Path, *, create: bool = False) -> Iterator[Path]:
    """A temporary path beside ``dest``, removed (with any journal) unless renamed.

    ``create``: the file is made now, empty (an empty file is an empty SQLite database), so
    that a folder that cannot take it fails here with the system's reason (``Read-only file
    system``) rather than inside SQLite (``unable to open database file``).

    :raises OSError: when ``create`` and the file cannot be made.
    """
    remove_stale_temporaries(dest)
    tmp = temporary_path(dest)
    try:
        if create:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        yield tmp
    finally:
        for leftover in (tmp, *journals_of(tmp)):
            # one that cannot be removed (a folder made read-only meanwhile) must not hide
            # the error that ended the block; the next write to dest removes it
            with contextlib.suppress(OSError):
                leftover.unlink()


def write_file(
    dest: Path,
    write: Callable[[Path], None],
    *,
    force: bool,
    database: Path | None = None,
    sqlite: bool = False,
) -> None:
    """Check ``dest``, let ``write`` fill a temporary file, then rename it into place.

    :raises OutputFileError: for a refused destination or a failed write (disk full, file
        size limit, permissions); no partial file is left.
    """
    check_destination(dest, database=database, force=force, sqlite=sqlite)
    try:
        with temporary_file(dest) as tmp:
            write(tmp)
            publish(tmp, dest, force=force)
    except OSError as exc:
        raise OutputFileError(f"cannot write '{dest}': {exc.strerror or exc}") from exc


def write_text(dest: Path, text: str, *, force: bool, database: Path | None = None) -> None:
    """Write ``text`` (UTF-8, newlines as given) to ``dest``; see :func:`write_file`."""

    def fill(tmp: Path) -> None:
        with tmp.open("x", encoding="utf-8", newline="") as f:
            f.write(text)

    write_file(dest, fill, force=force, database=database)


PENDING_MARK = ".before-restore-pending-"
"""Part of the name of a kept copy not yet known to be needed:
``.<db>.before-restore-pending-<pid>``; see :func:`ratings.backups.recover_interrupted_restore`."""


def interrupted_restore_left(db_path: Path) -> bool:
    """Whether an ended process left a pending copy or a temporary beside ``db_path`` (a
    look at its folder: cheap enough for every command)."""
    pending = f".{db_path.name}{PENDING_MARK}"
    try:
        names = os.listdir(db_path.parent)
    except OSError:
        return False
    for name in names:
        if name.startswith(pending) and not name.endswith("-journal"):
            pid = name[len(pending) :]
        elif name.startswith(temporary_prefix(db_path)):
            pid = str(temporary_owner(name) or "")
        else:
            continue
        if pid.isascii() and pid.isdigit() and not is_running(int(pid)):
            return True
    return False
