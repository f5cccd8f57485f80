"""Every command on a read-only file system and on a full disk: one ``Error:`` line or
success, never a traceback, and a database that failed to change unchanged.

Seen: ``ratings demo`` into a read-only folder ended in a traceback (``OSError: [Errno 30]
Read-only file system`` while removing its temporary file, over SQLite's ``unable to open
database file``); ``publish`` into a new folder on a full disk did too
(tests/test_disk_full.py).

These mount a tmpfs (tests/mounts.py): they need root, and skip without it. The trials of
every command run real processes and are slow; ``RATINGS_SAFETY_SCALE`` tries more free
spaces on the full disk.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.mounts import FILLER, fill, set_read_only, tmpfs
from tests.publish_helpers import demo
from tests.safety_helpers import digest, integrity

SCALE = int(os.environ.get("RATINGS_SAFETY_SCALE", "1"))


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    with tmpfs(tmp_path / "disk") as mount:
        yield mount


def test_demo_into_a_read_only_folder(disk: Path) -> None:
    set_read_only(disk)
    db = disk / "demo.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "demo"])
    assert result.exit_code == 1
    assert result.stderr == f"Error: cannot create '{db}': Read-only file system\n"
    assert os.listdir(disk) == []


def test_init_into_a_read_only_folder(disk: Path) -> None:
    set_read_only(disk)
    db = disk / "club.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "init"])
    assert result.exit_code == 1
    assert result.stderr == f"Error: cannot create '{db}': Read-only file system\n"
    assert os.listdir(disk) == []
