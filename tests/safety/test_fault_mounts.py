"""Every command on a read-only file system and on a full disk: one ``Error:`` line or
success, never a traceback, and a database that failed to change unchanged.

Seen: ``ratings demo`` into a read-only folder ended in a traceback (``OSError: [Errno 30]
Read-only file system`` while removing its temporary file, over SQLite's ``unable to open
database file``); ``publish`` into a new folder on a full disk did too
(tests/safety/test_disk_full.py).

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
from tests.support import ok

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


# --- every command, in its own process -------------------------------------------------------


def _ratings(db: Path, *args: str, cwd: Path) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "ratings", "--db", str(db), *args],
        capture_output=True, text=True, cwd=cwd, check=False, timeout=300,
        env={k: v for k, v in os.environ.items() if k != "RATINGS_DB"},
    )  # fmt: skip
    return proc.returncode, proc.stderr


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demonstration club, with a correction waiting to be rated and a backup of it,
    a games CSV and a players CSV, outside any small file system."""
    folder = tmp_path_factory.mktemp("club")
    db = demo(folder)
    code, out = CliRunner().invoke(cli, ["--db", str(db), "game", "void", "14"]).exit_code, ""
    assert code == 0, out
    ok(db, "db", "backup", str(folder / "bk.db"))
    (folder / "games.csv").write_text(
        "date,white,black,result,event,round\n"
        + "".join(
            f'2025-12-{10 + r},"Elard, Carl","Abarov, Ivan",1-0,Late Cup,{r}\n' for r in range(1, 9)
        )
    )
    (folder / "players.csv").write_text(
        "name,rating,games\n" + "".join(f'"Newcomer, No{i}",1500,10\n' for i in range(200))
    )
    return db


# (command, arguments): {in} the club's folder (the files to import, the backup), {out} the
# small file system
COMMANDS: list[tuple[str, tuple[str, ...]]] = [
    ("list", ("list",)),
    ("history", ("history", "1")),
    ("card", ("card", "1")),
    ("sql", ("sql", "SELECT count(*) FROM games")),
    ("check", ("check",)),
    ("db check", ("db", "check")),
    ("player add", ("player", "add", "Added, New", "--rating", "1500")),
    ("player edit", ("player", "edit", "1", "--fide-id", "12345678", "--reason", "x")),
    ("game add", ("game", "add", "1", "2", "1-0", "--date", "2025-12-20")),
    ("import games", ("import", "games", "{in}/games.csv")),
    ("import players", ("import", "players", "{in}/players.csv")),
    ("rate", ("rate",)),
    ("db backup", ("db", "backup", "{out}/bk.db")),
    ("export trf", ("export", "trf", "1", "--output", "{out}/e.trf")),
    ("publish", ("publish", "{out}/site", "--jobs", "1")),
    ("db restore", ("db", "restore", "{in}/bk.db", "--yes")),
]
READING = {"list", "history", "card", "sql", "check", "db check"}


def _args(args: tuple[str, ...], club: Path, out: Path) -> list[str]:
    return [a.replace("{in}", str(club.parent)).replace("{out}", str(out)) for a in args]


@pytest.mark.slow  # every command in a process of its own on a read-only file system
def test_every_command_on_a_read_only_file_system(club: Path, disk: Path) -> None:
    """The database on a file system mounted read-only: the reading commands answer (``check``
    with the correction waiting), every command that writes ends in one ``Error:`` line (exit
    1), the file unchanged."""
    db = disk / "club.db"
    shutil.copyfile(club, db)
    set_read_only(disk)
    before = db.read_bytes()
    for name, args in COMMANDS:
        code, err = _ratings(db, *_args(args, club, disk), cwd=club.parent)
        assert "Traceback" not in err, (name, err)
        if name == "check":
            # the club has a correction waiting: the rebuild (in memory, the file attached
            # read-only) answers with the difference it makes and the fix
            assert code == 1, err
            assert err.endswith("a correction marked period 2025-01 for a re-rate; run "
                                "'ratings rate'\n"), err  # fmt: skip
        elif name in READING:
            assert code == 0, (name, err)
        else:
            assert code == 1, (name, err)
            assert err.startswith("Error: "), err
            assert err.count("Error: ") == err.count("\n"), err
        assert db.read_bytes() == before, name
    for name, args in (("init", ("init",)), ("demo", ("demo",))):
        code, err = _ratings(disk / f"{name}.db", *args, cwd=club.parent)
        assert (code, err) == (
            1,
            f"Error: cannot create '{disk / name}.db': Read-only file system\n",
        ), name


FREE = [0, 16_384, 262_144] + [1_048_576 * k // 4 for k in range(5, 5 + 4 * (SCALE - 1))]
"""Bytes left free on the full disk, per trial of a command."""


@pytest.mark.slow  # every writing command in a process of its own, several times
def test_every_command_on_a_full_disk(club: Path, disk: Path) -> None:
    """The database on a 12 MB file system filled to within a few bytes or KB of full: each
    command succeeds, or ends in ``Error:`` lines (exit 1) with the database unchanged; the
    database passes its integrity check and no temporary file is left either way."""
    db = disk / "club.db"
    tally: Counter[str] = Counter()
    for name, args in COMMANDS:
        if name in READING:
            continue
        for free in FREE:
            for leftover in disk.iterdir():
                (shutil.rmtree if leftover.is_dir() else os.unlink)(leftover)
            shutil.copyfile(club, db)
            before = digest(db)
            fill(disk, free)
            code, err = _ratings(db, *_args(args, club, disk), cwd=club.parent)
            assert "Traceback" not in err, (name, free, err)
            assert code in (0, 1), (name, free, code, err)
            (disk / FILLER).unlink()
            assert integrity(db) == "ok", (name, free)
            if code == 1:
                assert err.startswith("Error: "), (name, free, err)
                assert digest(db) == before, (name, free)
            leftovers = [p.name for p in disk.rglob("*") if ".ratings-tmp-" in p.name]
            assert leftovers == [], (name, free, leftovers)
            tally[f"{name}: {'ok' if code == 0 else 'error'}"] += 1
    print(f"\nfull-disk trials: {dict(sorted(tally.items()))}")  # noqa: T201  # the figures of docs/RELIABILITY.md, with -s
