"""Small file systems for the disk-full and read-only trials: a tmpfs of a few megabytes,
mounted on a folder of the test's own, filled to its last block or remounted read-only.

Mounting needs root (CAP_SYS_ADMIN) and the ``mount`` program; without them the tests that
use these skip with that reason. Every mount is taken away at the end of its test, lazily
if a process still holds it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

FILLER = ".filler"
"""The file that takes a small file system's free space."""


def can_mount() -> str | None:
    """Why this process cannot mount a tmpfs (None: it can)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    if shutil.which("mount") is None or shutil.which("umount") is None:
        return "no mount program"
    return None


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "12m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on the new folder ``where`` for the ``with`` block."""
    reason = can_mount()
    if reason is not None:
        pytest.skip(reason)
    where.mkdir()
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {proc.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(mount: Path, leave: int = 0) -> int:
    """Fill the file system of ``mount`` so that about ``leave`` bytes stay free (0: to the
    last byte, as a disk that is full); return the bytes the filler holds."""
    filler = mount / FILLER
    target = None if leave == 0 else max(0, shutil.disk_usage(mount).free - leave)
    written = 0
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        chunk = 1 << 20
        while chunk:
            want = chunk if target is None else min(chunk, target - written)
            if want <= 0:
                break
            try:
                written += os.write(fd, bytes(want))
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                chunk //= 2
    finally:
        os.close(fd)
    if leave == 0:
        assert shutil.disk_usage(mount).free == 0
    return written


def free_space(mount: Path) -> int:
    """The bytes free on the file system of ``mount``."""
    return shutil.disk_usage(mount).free


def set_read_only(mount: Path, read_only: bool = True) -> None:
    """Remount ``mount`` read-only (or read-write again)."""
    mode = "ro" if read_only else "rw"
    subprocess.run(["mount", "-o", f"remount,{mode}", str(mount)], check=True)
