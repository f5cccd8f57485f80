"""The folder ``ratings publish`` writes: opened once, written only inside, page by page.

Rules (README, "Publishing"):

- DIR may be missing (it is created), empty, or a site an earlier ``publish`` wrote (it holds
  :data:`MANIFEST`). Anything else is refused unless ``force``; even then only our own file
  names are written, and only files an earlier publish listed in its manifest are deleted.
- Nothing is written outside DIR. DIR itself may be a symlink (to the folder meant); it is
  opened once, and every later operation goes through that folder's file descriptor and
  those of its four subfolders, opened without following symlinks. A subfolder that is a
  symlink is refused, so a planted link cannot steer a write elsewhere; file names come from
  database ids and period labels, never from names.
- Every file is written whole: a temporary file in the same folder (named as
  :mod:`ratings.files` names them), flushed to disk, then renamed over the old one. Writing
  and flushing run on two threads while the pages are rendered on the main one.
- The database and its journals are never written, even when they live inside DIR.
- One publish at a time: the folder is locked (``flock``) while it is written.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ratings import files
from ratings.errors import OutputFileError

MANIFEST = ".ratings-site.json"
"""The manifest: what an earlier publish wrote (file hashes) and from which data."""

MANIFEST_FORMAT = 1
MAX_MANIFEST_BYTES = 256 << 20
"""The largest manifest read (a larger one is damaged)."""
FOLDERS = ("assets", "events", "lists", "players")
"""The subfolders of a site; ``""`` stands for DIR itself."""

_OUR_NAME = re.compile(
    r"(?:index\.html|players\.html|events\.html|seals\.json"
    r"|calculators\.html"
    r"|players/[0-9]{1,19}\.html"
    r"|events/[0-9]{1,19}\.html"
    r"|lists/[0-9]{4}-[0-9]{2}\.(?:html|csv|txt)"
    r"|lists/[0-9]{4}-[0-9]{2}(?:\.json|-top\.(?:html|csv)|-sealed\.csv)"
    r"|players/[0-9]{1,19}\.json"
    r"|assets/[a-z0-9][a-z0-9.-]{0,60}\.(?:css|js|txt))"
)
"""Every name a publish writes (and so may delete); a manifest entry not like these is
ignored, whatever it says."""

_PENDING = 64
"""Files handed to the writer threads and not yet on disk, at most (bounds the memory)."""

_SWITCH_INTERVAL = 0.001
"""Seconds a thread holds the GIL before another that waits for it is let in, while the
writer threads run (Python's default is 0.005). A writer's steps (hash, write, fsync,
rename) each want the GIL back briefly; with the default, a renderer holding it kept them
waiting and then waited on them: the 5,000 player pages and their JSON files took about 9%
longer to publish (bench/RESULTS-publish.md)."""


_HEX = re.compile(r"[0-9a-f]+")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _pairs(value: object, check: Any) -> bool:
    """Whether ``value`` is a list of two items that pass ``check(first, second)``."""
    return isinstance(value, list) and len(value) == 2 and bool(check(*value))


def manifest_problem(data: object) -> str | None:
    """What is wrong with a manifest read as JSON (None: nothing). Every field a publish
    writes is checked for its shape, so that a damaged one is refused by name instead of
    failing half-way (a mask that is not hexadecimal raised ValueError)."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if data.get("generator") != "ratings":
        return "not written by ratings"
    if data.get("format") != MANIFEST_FORMAT:
        return (
            f"written by another version of ratings (format {data.get('format')!r}, this "
            f"one writes {MANIFEST_FORMAT})"
        )
    if not isinstance(data.get("complete", False), bool):
        return "complete: not true or false"
    for key in ("list", "build", "assets"):
        if key in data and not isinstance(data[key], str):
            return f"{key}: not a text"
    if "periods" in data and not (
        isinstance(data["periods"], list)
        and all(
            _pairs(x, lambda a, b: isinstance(a, str) and isinstance(b, str))
            for x in data["periods"]
        )
    ):
        return "periods: not a list of [label, state]"
    checks = {
        "files": (
            "[sha256, size]",
            lambda a, b: isinstance(a, str) and _SHA256.fullmatch(a) and type(b) is int and b >= 0,
        ),
        "players": (
            "[fingerprint, hex mask]",
            lambda a, b: isinstance(a, str) and isinstance(b, str) and _HEX.fullmatch(b),
        ),
    }
    for key in ("files", "players", "events"):
        if key not in data:
            continue
        entries = data[key]
        if not isinstance(entries, dict):
            return f"{key}: not an object"
        for name, value in entries.items():
            if key == "events":
                if not isinstance(value, str):
                    return f"events: {name!r}: not a fingerprint"
            elif not _pairs(value, checks[key][1]):
                return f"{key}: {name!r}: not {checks[key][0]}"
    return None


def is_our_name(key: str) -> bool:
    """Whether ``key`` (``folder/name``) is a file name publish writes."""
    return _OUR_NAME.fullmatch(key) is not None


def digest(data: bytes) -> str:
    """The content hash recorded in the manifest."""
    return hashlib.sha256(data).hexdigest()


class SiteFolder:
    """DIR opened for publishing. Use as a context manager; :meth:`finish` completes it.

    :param path: DIR as given.
    :param force: publish into a folder that holds other things (never deleting them).
    :param database: the SQLite database the site is built from (None for PostgreSQL):
        it and its journals are never written or deleted, wherever they are.
    """

    def __init__(
        self,
        path: Path,
        *,
        force: bool,
        database: Path | None,
        attach: tuple[int, int] | None = None,
    ) -> None:
        self.path = path
        self.force = force
        self._attach = attach
        self._fds: dict[str, int] = {}
        self._forbidden: set[str] = set()
        self._existing: set[str] = set()
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(_PENDING)
        self._pool: ThreadPoolExecutor | None = None
        self._interval: float | None = None
        """The switch interval before the writer threads started (restored by close)."""
        self._jobs: list[Future[None]] = []
        self.old: dict[str, Any] | None = None
        """The previous manifest (None: a new site)."""
        self.files: dict[str, list[Any]] = {}
        """The new manifest's files: ``key -> [sha256, size]`` (the hash of a file being
        written is None until :meth:`flush`)."""
        self.written = 0
        self.unchanged = 0
        self.deleted = 0
        self.bytes_written = 0
        self._database = database
        self.database = database
        """The database (never written), as given."""
        self._old_files: dict[str, list[Any]] = {}
        self.rebuilt = False
        """Whether a damaged manifest was set aside (``force``): every page is rewritten."""

    # --- opening ----------------------------------------------------------------------------

    def __enter__(self) -> SiteFolder:
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> None:
        path = self.path
        if not os.path.lexists(path):
            if not path.parent.is_dir():
                raise OutputFileError(f"folder does not exist: '{path.parent}'")
            try:
                os.mkdir(path)
            except OSError as exc:
                raise OutputFileError(f"cannot create '{path}': {exc.strerror or exc}") from exc
        elif not path.is_dir():
            raise OutputFileError(f"'{path}' is not a folder")
        try:
            root = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            raise OutputFileError(f"cannot open '{path}': {exc.strerror or exc}") from exc
        self._fds[""] = root
        self._forbid_database(Path(os.path.realpath(path)))
        clash = sorted(key for key in self._forbidden if is_our_name(key))
        if clash:
            # before anything is written: it was refused once the page came, 22 files later
            raise OutputFileError(
                f"'{path / clash[0]}' is the database or its journal, and publish would write "
                "a page of that name; publish elsewhere"
            )
        if self._attach is not None:
            # a worker process of a publish that holds the lock: the same folder, or nothing
            if self.identity != self._attach:
                raise OutputFileError(f"'{path}' changed while it was published")
            self.old, _ = self._read_manifest()
            self._load_old_files()
            for folder in FOLDERS:
                self._open_folder(folder)
            for folder, fd in self._fds.items():
                self._scan(folder, fd, clean=False)
            return
        try:
            fcntl.flock(root, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise OutputFileError(
                    f"another 'ratings publish' is writing '{path}'; try again when it is done"
                ) from None
            raise
        self.old, damage = self._read_manifest()
        if damage is not None:
            if not self.force:
                raise OutputFileError(
                    f"'{path / MANIFEST}' is damaged ({damage}); use --force to rebuild the "
                    "site from scratch"
                )
            self.rebuilt = True  # every page is written, as into an empty folder
        self._load_old_files()
        if self.old is None and damage is None:
            others = [n for n in os.listdir(root) if files.TEMP_MARK not in n]
            if others and not self.force:
                raise OutputFileError(
                    f"'{path}' is not empty and holds no ratings site ({MANIFEST} is missing); "
                    "choose an empty or new folder, or use --force to publish into it "
                    "(nothing of what is there is deleted)"
                )
        for folder in FOLDERS:
            self._open_folder(folder)
        for folder, fd in self._fds.items():
            self._scan(folder, fd, clean=True)
        if self.old is None:
            # mark the folder as ours before the first page (it replaces a damaged manifest):
            # a publish that is killed half-way leaves a folder the next publish recognises
            # and completes
            self._write_now("", MANIFEST, self._manifest_bytes({"complete": False}), count=False)

    @property
    def identity(self) -> tuple[int, int]:
        """The opened folder's device and inode: what a worker process checks it opened."""
        st = os.fstat(self._fds[""])
        return (st.st_dev, st.st_ino)

    def _load_old_files(self) -> None:
        listed = (self.old or {}).get("files")
        if isinstance(listed, dict):
            self._old_files = {
                k: v
                for k, v in listed.items()
                if isinstance(k, str) and is_our_name(k) and isinstance(v, list) and len(v) == 2
            }

    def _forbid_database(self, root: Path) -> None:
        if self._database is None:
            return
        for target in {self._database, *files.journals_of(self._database)}:
            real = Path(os.path.realpath(target))
            for candidate in {real, *files.journals_of(real)}:
                if candidate.parent == root:
                    self._forbidden.add(candidate.name)
                elif candidate.parent.parent == root and candidate.parent.name in FOLDERS:
                    self._forbidden.add(f"{candidate.parent.name}/{candidate.name}")

    def _open_folder(self, folder: str) -> None:
        root = self._fds[""]
        if self._attach is None:
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, dir_fd=root)
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=root)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise OutputFileError(
                    f"'{self.path / folder}' is not a folder (a symlink or a file); "
                    "publish writes only inside the folder it is given: move it away"
                ) from None
            raise OutputFileError(
                f"cannot open '{self.path / folder}': {exc.strerror or exc}"
            ) from exc
        self._fds[folder] = fd

    def _scan(self, folder: str, fd: int, *, clean: bool) -> None:
        """Note which files exist; remove the temporary files of publishes that were killed."""
        with os.scandir(fd) as entries:
            for entry in entries:
                name = entry.name
                if files.TEMP_MARK in name:
                    if not clean:
                        continue
                    pid = files.temporary_owner(name)
                    if pid is not None and not files.is_running(pid):
                        with contextlib.suppress(OSError):
                            os.unlink(name, dir_fd=fd)
                elif entry.is_file(follow_symlinks=False):
                    self._existing.add(f"{folder}/{name}" if folder else name)

    def _read_manifest(self) -> tuple[dict[str, Any] | None, str | None]:
        """(the previous manifest, None) for a site; (None, None) without one; (None, what
        is wrong) for a damaged one."""
        try:
            fd = os.open(MANIFEST, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=self._fds[""])
        except FileNotFoundError:
            return None, None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return None, "a symlink, not a file"
            raise OutputFileError(
                f"cannot read '{self.path / MANIFEST}': {exc.strerror or exc}"
            ) from exc
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None, "not a file"
            raw = f.read(MAX_MANIFEST_BYTES + 1)
        if len(raw) > MAX_MANIFEST_BYTES:
            return None, f"larger than {MAX_MANIFEST_BYTES:,} bytes"
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return None, "not valid JSON"
        problem = manifest_problem(data)
        return (None, problem) if problem is not None else (data, None)

    # --- writing ----------------------------------------------------------------------------

    def exists(self, key: str) -> bool:
        """Whether the file ``key`` was in DIR when it was opened."""
        return key in self._existing

    def old_files(self) -> dict[str, list[Any]]:
        """The previous manifest's files that are ours (see :func:`is_our_name`):
        ``key -> [sha256, size]``."""
        return self._old_files

    def put(self, key: str, data: bytes) -> None:
        """Publish ``data`` as ``key`` (``folder/name``) unless the same bytes are there."""
        if not is_our_name(key):
            raise ValueError(f"not a site file name: {key!r}")
        if key in self._forbidden:
            raise OutputFileError(
                f"'{self.path / key}' is the database or its journal; publish elsewhere"
            )
        size = len(data)
        old = self._old_files.get(key)
        entry: list[Any] = [None, size]
        if old is not None and old[1] == size and key in self._existing:
            # the same size as the file there: the same bytes only if the same hash
            entry[0] = digest(data)
            if old[0] == entry[0]:
                self.files[key] = entry
                self.unchanged += 1
                return
        # else the file is written: its hash is taken on a writer thread (hashlib lets go
        # of the GIL), while this one renders on; the manifest reads it after flush()
        self.files[key] = entry
        folder, _, name = key.rpartition("/")
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="publish")
            self._interval = sys.getswitchinterval()
            sys.setswitchinterval(min(self._interval, _SWITCH_INTERVAL))
        self._slots.acquire()
        self._jobs.append(self._pool.submit(self._write_job, folder, name, data, entry))
        if len(self._jobs) > 4 * _PENDING:
            self._reap(wait=False)

    def keep(self, key: str) -> bool:
        """Keep ``key`` as the previous publish wrote it (its data did not change); False
        if there is no such file to keep (then it must be written)."""
        entry = self._old_files.get(key)
        if entry is None or key not in self._existing:
            return False
        self.files[key] = entry
        return True

    def _write_job(self, folder: str, name: str, data: bytes, entry: list[Any]) -> None:
        try:
            if entry[0] is None:
                entry[0] = digest(data)
            self._write_now(folder, name, data)
        finally:
            self._slots.release()

    def _write_now(self, folder: str, name: str, data: bytes, *, count: bool = True) -> None:
        fd_dir = self._fds[folder]
        tmp = files.temporary_path(Path(name)).name
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666, dir_fd=fd_dir
        )
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, name, src_dir_fd=fd_dir, dst_dir_fd=fd_dir)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd_dir)
            raise
        if count:
            with self._lock:
                self.written += 1
                self.bytes_written += len(data)

    def _reap(self, *, wait: bool) -> None:
        remaining: list[Future[None]] = []
        for job in self._jobs:
            if wait or job.done():
                try:
                    job.result()
                except OSError as exc:
                    raise OutputFileError(
                        f"cannot write in '{self.path}': {exc.strerror or exc}"
                    ) from exc
            else:
                remaining.append(job)
        self._jobs = remaining

    def flush(self) -> None:
        """Wait until every file handed to :meth:`put` is on disk (or raise its error)."""
        self._reap(wait=True)

    def absorb(self, files: dict[str, list[Any]], written: int, unchanged: int, size: int) -> None:
        """Count the files a worker process published into this folder."""
        self.files.update(files)
        self.written += written
        self.unchanged += unchanged
        self.bytes_written += size

    def finish(self, manifest: dict[str, Any], *, delete: Iterable[str]) -> None:
        """Wait for every file, delete ``delete`` (previous files no longer published),
        flush the folders, then write the manifest (last: it vouches for the files)."""
        self._reap(wait=True)
        for key in sorted(set(delete)):
            if not is_our_name(key) or key in self._forbidden or key in self.files:
                continue
            folder, _, name = key.rpartition("/")
            try:
                os.unlink(name, dir_fd=self._fds[folder])
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise OutputFileError(
                    f"cannot delete '{self.path / key}': {exc.strerror or exc}"
                ) from exc
            self.deleted += 1
        for fd in self._fds.values():
            with contextlib.suppress(OSError):  # some file systems cannot fsync a folder
                os.fsync(fd)
        body = dict(manifest)
        body["files"] = dict(sorted(self.files.items()))
        try:
            self._write_now("", MANIFEST, self._manifest_bytes(body), count=False)
            os.fsync(self._fds[""])
        except OSError as exc:
            raise OutputFileError(f"cannot write in '{self.path}': {exc.strerror or exc}") from exc

    @staticmethod
    def _manifest_bytes(body: dict[str, Any]) -> bytes:
        head = {"generator": "ratings", "format": MANIFEST_FORMAT}
        return (json.dumps(head | body, separators=(",", ":")) + "\n").encode("utf-8")

    def close(self) -> None:
        """Wait for the writer threads and close every descriptor (releases the lock)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
            if self._interval is not None:
                sys.setswitchinterval(self._interval)
                self._interval = None
        for fd in self._fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds.clear()
