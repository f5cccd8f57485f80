"""The folder ``ratings publish`` writes: opened once, written only inside, page by page.

Rules (README, "Publishing"):

- DIR may be missing (it is created), empty, or a site an earlier ``publish`` wrote (it holds
  :data:`MANIFEST`). Anything else is refused unless ``force``; even then only our own file
  names are written, and only files an earlier publish listed in its manifest are deleted.
- Nothing is written outside DIR but a new site's own folder. DIR itself may be a symlink
  (to the folder meant); it is opened once, and every later operation goes through that
  folder's file descriptor and those of its four subfolders, opened without following
  symlinks. A subfolder that is a symlink is refused, so a planted link cannot steer a
  write elsewhere; file names come from database ids and period labels, never from names.
- Every file is written whole: a temporary file in the same folder (named as
  :mod:`ratings.files` names them), flushed to disk. Writing and flushing run on two
  threads while the pages are rendered on the main one.
- At every moment every link of the site resolves, so that whatever copies the folder
  (a cron job to the web host) never copies a page that links to one not written yet, and
  a publish that fails or is killed leaves the site as it was. A new site (DIR missing or
  empty) is built in a folder of its own beside DIR (``.DIR.ratings-tmp-<pid>-<random>``)
  and renamed onto DIR when it is complete. Into an existing site the pages stay
  temporary files until every one is written; then they are renamed into place in an
  order that keeps every link whole (:func:`commit`): the new pages first (nothing links
  to them yet), then the pages that change, then the pages a visitor starts from,
  ``index.html`` last; the files no longer published are deleted after that, and the
  manifest comes last of all. The site of a list no longer published, in a site of every
  list, is taken away then (:meth:`SiteFolder.withdraw`): its files, its manifest and its
  folder, each only if nothing not ours is left in it.
- The database and its journals are never written, even when they live inside DIR.
- One publish at a time: the folder is locked (``flock``) while it is written.

Over 600 lines: one class holds the folder's descriptors, its lock and its manifest, and
every write, rename and delete goes through them; split, each part would be handed them all.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import stat
import sys
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ratings import files
from ratings.errors import OutputFileError
from ratings.site import placing
from ratings.site.manifest import (  # the manifest's names, used from here too
    FOLDERS,
    MANIFEST,
    digest,
    is_our_name,
    manifest_bytes,
    our_files,
    read_manifest,
)
from ratings.site.placing import Staged

__all__ = ["FOLDERS", "MANIFEST", "SiteFolder", "digest", "is_our_name"]

_PENDING = 64
"""Files handed to the writer threads and not yet on disk, at most (bounds the memory)."""

_SWITCH_INTERVAL = 0.001
"""Seconds a thread holds the GIL before another that waits for it is let in, while the
writer threads run (Python's default is 0.005). A writer's steps (hash, write, fsync,
rename) each want the GIL back briefly; with the default, a renderer holding it kept them
waiting and then waited on them: the 5,000 player pages and their JSON files took about 9%
longer to publish (bench/RESULTS-publish.md)."""


@contextlib.contextmanager
def _refused(numbers: tuple[int, ...], message: str) -> Iterator[None]:
    """An ``OSError`` of the block with one of these ``errno`` numbers is ``message`` (all the
    error says, so it is not chained); any other goes on as it is."""
    try:
        yield
    except OSError as exc:
        if exc.errno in numbers:
            raise OutputFileError(message) from None
        raise


class SiteFolder:
    """DIR opened for publishing. Use as a context manager; :meth:`finish` completes it
    (without it, closing takes away what this publish wrote: the site stays as it was).

    :param path: DIR as given.
    :param force: publish into a folder that holds other things (never deleting them).
    :param database: the SQLite database the site is built from (None for PostgreSQL):
        it and its journals are never written or deleted, wherever they are.
    :param attach: a worker process's view of the folder a publish holds: the device and
        inode it must be.
    :param shown: DIR as messages name it, when ``path`` is another way to it.
    :param hold: :meth:`finish` leaves the site to be put in place by the caller, with the
        sites of the other lists of one publish (:func:`placing.commit`).
    """

    def __init__(
        self,
        path: Path,
        *,
        force: bool,
        database: Path | None,
        attach: tuple[int, int] | None = None,
        shown: Path | None = None,
        hold: bool = False,
    ) -> None:
        self.path = path
        self.hold = hold
        self.shown = shown if shown is not None else path
        """DIR as messages name it."""
        self.workdir = path
        """The folder the pages go to: DIR, or the new site's folder beside it."""
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
        self._staged = Staged()
        self._created = False
        """Whether this publish created DIR."""
        self._made: list[str] = []
        """The subfolders this publish created."""
        self._marked = False
        """Whether this publish wrote the manifest of a site not yet complete."""
        self._lock_fd: int | None = None
        """DIR while a new site is built beside it (the lock is on it)."""
        self._beside: tuple[int, str, str] | None = None
        """A new site's folder: (DIR's parent folder, its name there, DIR's name)."""
        self._manifest_tmp: str | None = None
        self._delete: list[str] = []
        self._withdrawn = False
        """Whether :meth:`withdraw` takes the site away."""
        self.state = "open"
        """open, prepared (every page written), committing (being put in place), done."""
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

    def _open(self) -> None:  # noqa: C901 (every check on the target folder, made in order before anything is written)
        path = self.path
        if not os.path.lexists(path):
            if not path.parent.is_dir():
                raise OutputFileError(f"folder does not exist: '{self.shown.parent}'")
            try:
                os.mkdir(path)
            except OSError as exc:
                raise self.cannot(exc, "create") from exc
            self._created = True
        elif not path.is_dir():
            raise OutputFileError(f"'{self.shown}' is not a folder")
        try:
            root = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            raise OutputFileError(f"cannot open '{self.shown}': {exc.strerror or exc}") from exc
        self._fds[""] = root
        self._forbid_database(Path(os.path.realpath(path)))
        clash = sorted(key for key in self._forbidden if is_our_name(key))
        if clash:
            # before anything is written: it was refused once the page came, 22 files later
            raise OutputFileError(
                f"'{self.shown / clash[0]}' is the database or its journal, and publish would "
                "write a page of that name; publish elsewhere"
            )
        if self._attach is not None:
            # a worker process of a publish that holds the lock: the same folder, or nothing
            if self.identity != self._attach:
                raise OutputFileError(f"'{self.shown}' changed while it was published")
            self.old, _ = read_manifest(self._fds[""], self.shown)
            self._old_files = our_files(self.old)
            for folder in FOLDERS:
                self._open_folder(folder)
            for folder, fd in self._fds.items():
                self._scan(folder, fd, clean=False)
            return
        with _refused(
            (errno.EWOULDBLOCK, errno.EAGAIN),
            f"another 'ratings publish' is writing '{self.shown}'; try again when it is done",
        ):
            fcntl.flock(root, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self.old, damage = read_manifest(self._fds[""], self.shown)
        if damage is not None:
            if not self.force:
                raise OutputFileError(
                    f"'{self.shown / MANIFEST}' is damaged ({damage}); use --force to rebuild "
                    "the site from scratch"
                )
            self.rebuilt = True  # every page is written, as into an empty folder
        self._old_files = our_files(self.old)
        if self.old is None and damage is None:
            others = [n for n in os.listdir(root) if files.TEMP_MARK not in n]
            if others and not self.force:
                raise OutputFileError(
                    f"'{self.shown}' is not empty and holds no ratings site ({MANIFEST} is "
                    "missing); choose an empty or new folder, or use --force to publish into "
                    "it (nothing of what is there is deleted)"
                )
            if not others:
                self._build_beside()
        for folder in FOLDERS:
            self._open_folder(folder)
        for folder, fd in self._fds.items():
            self._scan(folder, fd, clean=True)
        if self.old is None:
            # mark the folder as ours before the first page (it replaces a damaged manifest):
            # a publish that is killed half-way leaves a folder the next publish recognises
            # and completes
            try:
                self._write_now("", MANIFEST, manifest_bytes({"complete": False}))
            except OSError as exc:
                raise self.cannot(exc) from exc
            self._marked = True

    def cannot(self, exc: OSError, verb: str = "write in") -> OutputFileError:
        """The error of a failed write (or ``verb``) in DIR."""
        return OutputFileError(f"cannot {verb} '{self.shown}': {exc.strerror or exc}")

    def _build_beside(self) -> None:
        """Build the new site in a folder of its own beside the empty DIR, to be renamed
        onto it when complete (:func:`commit`), where DIR can be replaced so: not a mount
        point, in a folder this process may write. Otherwise the pages go into DIR."""
        real = Path(os.path.realpath(self.path))
        target = self._fds[""]
        # the temporaries of killed publishes; anything else left keeps the site in DIR
        files.remove_stale_in(target)
        try:
            if os.listdir(target) or real.parent == real:
                return
            parent = os.open(real.parent, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            return
        try:
            held = os.fstat(target)
            if os.fstat(parent).st_dev != held.st_dev:
                raise OSError(errno.EXDEV, "a mount point")  # rename(2) cannot replace it
            files.remove_stale_temporaries(real)  # the new sites of killed publishes
            name = files.temporary_path(real).name
            os.mkdir(name, 0o700, dir_fd=parent)
        except OSError:
            os.close(parent)
            return
        try:
            fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent)
        except OSError:
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=parent)
            os.close(parent)
            return
        self._beside = (parent, name, real.name)
        self._lock_fd = target
        self._fds[""] = fd
        self.workdir = real.parent / name
        # the folder DIR becomes keeps DIR's owner and mode
        with contextlib.suppress(OSError):
            if (held.st_uid, held.st_gid) != (os.geteuid(), os.getegid()):
                os.fchown(fd, held.st_uid, held.st_gid)
        with contextlib.suppress(OSError):
            os.fchmod(fd, stat.S_IMODE(held.st_mode))

    @property
    def identity(self) -> tuple[int, int]:
        """The opened folder's device and inode: what a worker process checks it opened."""
        st = os.fstat(self._fds[""])
        return (st.st_dev, st.st_ino)

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
            try:
                os.mkdir(folder, dir_fd=root)
            except FileExistsError:
                pass
            except OSError as exc:
                raise self.cannot(exc) from exc
            else:
                self._made.append(folder)
        try:
            with _refused(
                (errno.ELOOP, errno.ENOTDIR),
                f"'{self.shown / folder}' is not a folder (a symlink or a file); "
                "publish writes only inside the folder it is given: move it away",
            ):
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=root)
        except OSError as exc:
            raise OutputFileError(
                f"cannot open '{self.shown / folder}': {exc.strerror or exc}"
            ) from exc
        self._fds[folder] = fd

    def _scan(self, folder: str, fd: int, *, clean: bool) -> None:
        """Note which files exist; remove the temporary files of publishes that were killed."""
        if clean:
            files.remove_stale_in(fd)
        with os.scandir(fd) as entries:
            for entry in entries:
                name = entry.name
                if files.TEMP_MARK not in name and entry.is_file(follow_symlinks=False):
                    self._existing.add(f"{folder}/{name}" if folder else name)

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
                f"'{self.shown / key}' is the database or its journal; publish elsewhere"
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
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="publish")
            self._interval = sys.getswitchinterval()
            sys.setswitchinterval(min(self._interval, _SWITCH_INTERVAL))
        self._slots.acquire()
        order = self._staged.next_order()
        self._jobs.append(self._pool.submit(self._write_job, key, data, entry, order))
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

    def _write_job(self, key: str, data: bytes, entry: list[Any], order: int) -> None:
        try:
            if entry[0] is None:
                entry[0] = digest(data)
            folder, _, name = key.rpartition("/")
            tmp = self._write_temporary(folder, name, data)
            self._unlink(key, self._staged.add(key, tmp, order))
            with self._lock:
                self.written += 1
                self.bytes_written += len(data)
        finally:
            self._slots.release()

    def _unlink(self, key: str, tmp: str | None) -> None:
        """Remove the temporary file ``tmp`` of the page ``key`` (if any)."""
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=self._fds[key.rpartition("/")[0]])

    def _write_temporary(self, folder: str, name: str, data: bytes) -> str:
        """Write ``data`` to a new temporary file for ``name`` in ``folder``, flushed to
        disk; its name."""
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
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd_dir)
            raise
        return tmp

    def _write_now(self, folder: str, name: str, data: bytes) -> None:
        """Write ``name`` whole, renamed into place at once."""
        fd_dir = self._fds[folder]
        tmp = self._write_temporary(folder, name, data)
        try:
            os.replace(tmp, name, src_dir_fd=fd_dir, dst_dir_fd=fd_dir)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd_dir)
            raise

    def _reap(self, *, wait: bool) -> None:
        remaining: list[Future[None]] = []
        for job in self._jobs:
            if wait or job.done():
                try:
                    job.result()
                except OSError as exc:
                    raise self.cannot(exc) from exc
            else:
                remaining.append(job)
        self._jobs = remaining

    def flush(self) -> None:
        """Wait until every file handed to :meth:`put` is on disk (or raise its error)."""
        self._reap(wait=True)

    def take_staged(self) -> dict[str, str]:
        """The pages written since the last call and not renamed (``key -> temporary
        name``), handed over to the process that holds the folder: a worker's."""
        return self._staged.take()

    def absorb(
        self,
        files: dict[str, list[Any]],
        written: int,
        unchanged: int,
        size: int,
        staged: dict[str, str],
    ) -> None:
        """Count the files a worker process published into this folder, and take over its
        pages written and not yet renamed (``staged``)."""
        self.files.update(files)
        self.written += written
        self.unchanged += unchanged
        self.bytes_written += size
        for key, tmp in staged.items():
            self._unlink(key, self._staged.add(key, tmp))

    def finish(self, manifest: dict[str, Any], *, delete: Iterable[str]) -> None:
        """Wait for every file and write the new manifest (to a temporary file); then,
        unless ``hold``, put the new site in place (:func:`placing.commit`: the pages, then
        the files ``delete`` lists removed, then the manifest)."""
        self._reap(wait=True)
        self._delete = sorted(
            key
            for key in set(delete)
            if is_our_name(key)
            and key not in self._forbidden
            and key not in self.files
            and key in self._existing
        )
        self.deleted = len(self._delete)
        body = dict(manifest)
        body["files"] = dict(sorted(self.files.items()))
        try:
            self._manifest_tmp = self._write_temporary("", MANIFEST, manifest_bytes(body))
        except OSError as exc:
            raise self.cannot(exc) from exc
        self.state = "prepared"
        if not self.hold:
            placing.commit([self])

    def withdraw(self) -> None:
        """Take the whole site away: the site of a list no longer published, in a site of
        every list (``DIR/rapid`` once no period publishes a rapid list). Every file its
        manifest lists is deleted, the pages a visitor starts from first, then its
        subfolders, the manifest and the folder itself (:meth:`_take_away`); unless
        ``hold``, at once (else :func:`placing.commit` does it, after the pages that linked
        to it are replaced)."""
        self._reap(wait=True)
        self._withdrawn = True
        self.files.clear()
        gone = {key for key in self._old_files if key in self._existing} - self._forbidden
        # the pages a visitor starts from first, index.html first
        first = [key for key in reversed(placing.ENTRY_PAGES) if key in gone]
        self._delete = first + sorted(gone.difference(first))
        self.deleted = len(self._delete)
        self.state = "prepared"
        if not self.hold:
            placing.commit([self])

    # --- putting the site in place ---------------------------------------------------------

    @property
    def built_beside(self) -> bool:
        """Whether this is a new site built beside DIR, to be renamed onto it."""
        return self._beside is not None

    def rename(self, phase: int) -> None:
        """Rename the staged pages of ``phase`` into place (:func:`placing.commit`)."""
        for key in self._staged.phase(phase, self._existing):
            folder, _, name = key.rpartition("/")
            fd = self._fds[folder]
            os.replace(self._staged.pop(key), name, src_dir_fd=fd, dst_dir_fd=fd)

    def complete(self) -> None:
        """Rename every page left, delete what is no longer published, flush the folders,
        rename the manifest into place; a new site built beside DIR then becomes DIR."""
        for phase in (0, 1, 2):
            self.rename(phase)
        for key in self._delete:
            folder, _, name = key.rpartition("/")
            try:
                os.unlink(name, dir_fd=self._fds[folder])
            except FileNotFoundError:
                continue
        if self._withdrawn:
            self._take_away()
            self.state = "done"
            return
        for fd in self._fds.values():
            with contextlib.suppress(OSError):  # some file systems cannot fsync a folder
                os.fsync(fd)
        assert self._manifest_tmp is not None
        root = self._fds[""]
        os.replace(self._manifest_tmp, MANIFEST, src_dir_fd=root, dst_dir_fd=root)
        self._manifest_tmp = None
        os.fsync(root)
        if self._beside is not None:
            parent, name, target = self._beside
            with _refused(
                (errno.ENOTEMPTY, errno.EEXIST),
                f"'{self.shown}' was written by something else while the site was built; "
                "nothing was published",
            ):
                os.rename(name, target, src_dir_fd=parent, dst_dir_fd=parent)
            self._beside = None
            with contextlib.suppress(OSError):
                os.fsync(parent)
            os.close(parent)
        self.state = "done"

    def _take_away(self) -> None:
        """The end of :meth:`withdraw`: its pages are deleted; the subfolders, the manifest
        and the folder follow, each only if nothing else is left in it. A folder that keeps
        a file not ours keeps the mark of a site not complete instead of the manifest (no
        site now; the list's next publish completes it, as it would a killed one's)."""
        root = self._fds[""]
        for folder in FOLDERS:
            with contextlib.suppress(OSError):  # not empty: a file not ours stays
                os.rmdir(folder, dir_fd=root)
        if any(name != MANIFEST for name in os.listdir(root)):
            self._write_now("", MANIFEST, manifest_bytes({"complete": False}))
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(MANIFEST, dir_fd=root)
        with contextlib.suppress(OSError):
            os.fsync(root)
        with contextlib.suppress(OSError):  # not empty, or not a folder of its own
            os.rmdir(self.path)

    # --- closing ----------------------------------------------------------------------------

    def close(self) -> None:
        """Wait for the writer threads and close every descriptor (releases the lock). A
        publish not put in place takes away what it wrote (its temporary files; a new site
        entirely, DIR too if it made it)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
            if self._interval is not None:
                sys.setswitchinterval(self._interval)
                self._interval = None
        if self._attach is None and self.state != "done" and self._fds:
            self._take_back()
        for fd in {*self._fds.values(), self._lock_fd}:
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._fds.clear()
        self._lock_fd = None
        if self._beside is not None:
            parent, name, _ = self._beside
            with contextlib.suppress(OSError):
                shutil.rmtree(name, dir_fd=parent)
            os.close(parent)
            self._beside = None
        if self._created and self.state != "done":
            with contextlib.suppress(OSError):
                os.rmdir(self.path)

    def _take_back(self) -> None:
        """Remove what a publish that did not complete wrote (see :meth:`close`)."""
        for key, tmp in self._staged.take().items():
            self._unlink(key, tmp)
        if self._manifest_tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._manifest_tmp, dir_fd=self._fds[""])
        for fd in self._fds.values():  # a worker's pages not handed over yet
            with contextlib.suppress(OSError):
                files.remove_stale_in(fd, own=True)
        if self.state == "committing" or not self._marked or self._beside is not None:
            return
        # a new site in DIR itself: nothing of it is in place yet
        with contextlib.suppress(OSError):
            os.unlink(MANIFEST, dir_fd=self._fds[""])
        for folder in self._made:
            with contextlib.suppress(OSError):
                os.rmdir(folder, dir_fd=self._fds[""])
