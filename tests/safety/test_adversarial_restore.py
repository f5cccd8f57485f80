"""What a killed `db restore` leaves beside the database is cleared, or named, by the next
command that opens the database, not only by the next restore.

Seen: a killed restore left a full-size `.<db>.before-restore-pending-PID` and a
`.<db>.ratings-tmp-*` working folder until the next `db restore`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import run


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("restore") / "club.db"
    assert run(db, "init").exit_code == 0
    assert run(db, "player", "add", "Smith, Ann", "--rating", "1800").exit_code == 0
    return db


@pytest.fixture(scope="module")
def dead_pid() -> int:
    """The id of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def db(tmp_path: Path, template: Path) -> Path:
    path = tmp_path / "club.db"
    shutil.copyfile(template, path)
    return path


def leave(db: Path, pid: int, *, same: bool) -> tuple[Path, Path]:
    """What a restore killed mid-way leaves: the pending copy of the replaced database (the
    same bytes as the live one if it was killed before replacing anything) and its working
    folder with the checked copy of the source."""
    pending = db.with_name(f".{db.name}.before-restore-pending-{pid}")
    data = db.read_bytes()
    pending.write_bytes(data if same else data[:-1] + b"x")
    work = db.with_name(f".{db.name}.ratings-tmp-{pid}-0a1b2c3d")
    work.mkdir()
    (work / "source.db").write_bytes(data)
    return pending, work


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize(
    "args",
    [["player", "list"], ["list"], ["sql", "SELECT 1"], ["db", "backup", "{folder}/bk.db"],
     ["player", "add", "Jones, Bob"]],
    ids=lambda a: " ".join(a[:2]),
)  # fmt: skip
def test_any_command_clears_what_a_restore_killed_early_left(
    db: Path, dead_pid: int, args: list[str]
) -> None:
    leave(db, dead_pid, same=True)
    result = run(db, *(a.format(folder=db.parent) for a in args))
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        f"An earlier restore of {db} was interrupted before it replaced anything; its "
        "temporary copy was removed\n"
    )
    assert [n for n in names(db.parent) if n != "bk.db"] == ["club.db"]


def test_a_restore_killed_after_it_replaced_the_database(db: Path, dead_pid: int) -> None:
    pending, _ = leave(db, dead_pid, same=False)
    replaced = pending.read_bytes()
    result = run(db, "player", "list")
    assert result.exit_code == 0, result.output
    kept = db.with_name("club.db.before-restore")
    assert result.stderr == (
        f"An earlier restore of {db} was interrupted after it replaced the database; the "
        f"replaced database is kept as {kept}\n"
    )
    assert names(db.parent) == ["club.db", "club.db.before-restore"]
    assert kept.read_bytes() == replaced


def test_what_cannot_be_cleared_is_named(db: Path, dead_pid: int) -> None:
    pending, _ = leave(db, dead_pid, same=False)
    kept = db.with_name("club.db.before-restore")
    kept.write_bytes(b"an older restore's copy")
    result = run(db, "player", "list")
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"Warning: '{pending}' holds the database an interrupted restore replaced, and "
        f"'{kept}' exists too; move one of them away\n"
    )
    assert kept.read_bytes() == b"an older restore's copy"
    assert pending.exists()


def test_a_restore_still_running_is_left_alone(db: Path) -> None:
    pending, work = leave(db, os.getpid(), same=True)  # this process runs
    result = run(db, "player", "list")
    assert (result.exit_code, result.stderr) == (0, "")
    assert pending.exists()
    assert work.exists()
    shutil.rmtree(work)
    pending.unlink()


def test_nothing_to_clear_says_nothing(db: Path) -> None:
    result = run(db, "player", "list")
    assert (result.exit_code, result.stderr) == (0, "")
    assert names(db.parent) == ["club.db"]
