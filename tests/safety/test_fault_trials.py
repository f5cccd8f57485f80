"""Fault trials for the commands that write whole files: `db backup`, `db restore` and `init`
killed with SIGKILL at random moments.

After every kill: the database is the old one or the new one (never mixed, integrity ok); a
backup either does not exist or is a complete, checked copy; the command can be run again
and leaves no temporary file behind. Half the kill moments are uniform over the measured
duration of an uninterrupted run (interpreter start-up included); the other half wait for
the command's temporary file to appear and kill after a random part of its measured life.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.safety_helpers import build, digest, generate, integrity, invoke, start

SCALE = int(os.environ.get("RATINGS_SAFETY_SCALE", "1"))
"""Multiplies the trials, for a longer run (the figures in docs/RELIABILITY.md)."""
TRIALS = 8 * SCALE
SEED = 20261130


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A rated club (A) and a backup of it taken before one more player was added (B)."""
    folder = tmp_path_factory.mktemp("club")
    players, games = generate(folder, players=150, games=5000, periods=4, seed=3)
    db = folder / "club.db"
    build(db, players, games)
    assert invoke(db, "rate")[0] == 0
    older = folder / "older.db"
    assert invoke(db, "db", "backup", str(older))[0] == 0
    assert invoke(db, "player", "add", "Later, Lee")[0] == 0
    return db, older


@dataclass
class Tally:
    """What the trials of one command saw."""

    trials: int = 0
    killed: int = 0
    """Kills that hit a running process (the others found it finished)."""
    in_window: int = 0
    """Kills while the command's temporary file existed."""
    outcomes: Counter[str] = field(default_factory=Counter)


def temporaries(folder: Path) -> list[str]:
    """Temporary files and folders of ratings in ``folder``."""
    return sorted(
        p.name for p in folder.iterdir() if ".ratings-tmp-" in p.name or "-pending-" in p.name
    )


def wait_for(proc: subprocess.Popen[str], seen: Callable[[], bool], limit: float = 60) -> bool:
    """Poll until ``seen()`` or the process ends; True if seen while it ran."""
    deadline = time.monotonic() + limit
    while not seen():
        if proc.poll() is not None:
            return False
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing seen after {limit}s")
        time.sleep(0.0005)
    return True


def measure(db: Path, args: tuple[str, ...], seen: Callable[[], bool]) -> tuple[float, float]:
    """An uninterrupted run: (its duration, how long its temporary file existed)."""
    began = time.monotonic()
    proc = start(db, *args)
    assert wait_for(proc, seen), "the command ended before its temporary file was seen"
    opened = time.monotonic()
    while seen() and proc.poll() is None:
        time.sleep(0.0005)
    closed = time.monotonic()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return time.monotonic() - began, closed - opened


def kill_at_random(
    rng: random.Random,
    trial: int,
    proc: subprocess.Popen[str],
    seen: Callable[[], bool],
    duration: float,
    window: float,
    tally: Tally,
) -> None:
    """Kill ``proc`` at a drawn moment (see the module docstring); count what it hit."""
    if trial % 2:
        delay = rng.uniform(0, window) if wait_for(proc, seen) else 0.0
    else:
        delay = rng.uniform(0, duration)
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        in_window = seen()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        tally.killed += 1
        tally.in_window += in_window
    proc.communicate()
    tally.trials += 1


@pytest.mark.slow
def test_backup_killed(club: tuple[Path, Path], tmp_path: Path) -> None:
    db, _ = club
    source = tmp_path / "club.db"
    shutil.copyfile(db, source)
    want = digest(source)
    dest = tmp_path / "bk.db"

    def seen() -> bool:
        return bool(temporaries(tmp_path))

    duration, window = measure(source, ("db", "backup", str(dest)), seen)
    dest.unlink()
    rng = random.Random(SEED)
    tally = Tally()
    for trial in range(TRIALS):
        proc = start(source, "db", "backup", str(dest))
        kill_at_random(rng, trial, proc, seen, duration, window, tally)
        assert digest(source) == want
        if dest.exists():
            tally.outcomes["complete copy"] += 1
            assert integrity(dest) == "ok"
            assert digest(dest) == want
            dest.unlink()
        else:
            tally.outcomes["no copy"] += 1
        code, out = invoke(source, "db", "backup", str(dest))
        assert code == 0, out
        assert digest(dest) == want
        assert temporaries(tmp_path) == [], f"trial {trial}"
        dest.unlink()
    assert tally.killed > 0
    assert tally.in_window > 0
    _report("backup", tally)


@pytest.mark.slow
def test_restore_killed(club: tuple[Path, Path], tmp_path: Path) -> None:
    db, older = club
    live = tmp_path / "live.db"
    shutil.copyfile(db, live)
    old, new = digest(live), digest(older)
    kept = tmp_path / "live.db.before-restore"

    def seen() -> bool:
        return bool(temporaries(tmp_path))

    duration, window = measure(live, ("db", "restore", str(older), "--yes"), seen)
    rng = random.Random(SEED + 1)
    tally = Tally()
    for trial in range(TRIALS):
        shutil.copyfile(db, live)
        kept.unlink(missing_ok=True)
        proc = start(live, "db", "restore", str(older), "--yes")
        kill_at_random(rng, trial, proc, seen, duration, window, tally)
        assert integrity(live) == "ok"
        state = digest(live)
        assert state in (old, new), f"trial {trial}: mixed state"
        left = "a temporary left" if temporaries(tmp_path) else "nothing left"
        # the next restore clears what the killed one left, whatever it was
        code, out = invoke(live, "db", "restore", str(older), "--yes")
        if state == old:
            tally.outcomes[f"old database ({left}), retry restored"] += 1
            assert code == 0, out
        else:
            # it had replaced the database: the old contents are kept, never lost (also
            # when the kill came between the commit and the rename of the kept copy)
            tally.outcomes[f"restored before the kill ({left})"] += 1
            assert code == 1, out
            assert "move it away first" in out
        assert digest(live) == new
        assert digest(kept) == old
        assert temporaries(tmp_path) == [], f"trial {trial}"
    assert tally.killed > 0
    assert tally.in_window > 0
    _report("restore", tally)


@pytest.mark.slow
def test_init_killed(tmp_path: Path) -> None:
    db = tmp_path / "new.db"

    def seen() -> bool:
        return bool(temporaries(tmp_path))

    duration, window = measure(db, ("init",), seen)
    db.unlink()
    rng = random.Random(SEED + 2)
    tally = Tally()
    for trial in range(TRIALS):
        proc = start(db, "init")
        kill_at_random(rng, trial, proc, seen, duration, window, tally)
        if db.exists():
            tally.outcomes["complete database"] += 1
            assert integrity(db) == "ok"
            with sqlite3.connect(db) as conn:
                assert conn.execute("SELECT count(*) FROM settings").fetchone() == (1,)
            conn.close()
            assert invoke(db, "list")[0] == 0
            db.unlink()
        else:
            tally.outcomes["no database"] += 1
        code, out = invoke(db, "init")
        assert code == 0, out
        assert temporaries(tmp_path) == [], f"trial {trial}"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["new.db"]
        db.unlink()
    assert tally.killed > 0
    assert tally.in_window > 0
    _report("init", tally)


def _report(name: str, tally: Tally) -> None:
    """One line for the record (pytest -s shows it; docs/RELIABILITY.md quotes it)."""
    outcomes = ", ".join(f"{k}: {v}" for k, v in sorted(tally.outcomes.items()))
    line = (
        f"{name}: {tally.trials} trials, {tally.killed} kills of a running process, "
        f"{tally.in_window} while its temporary file existed; {outcomes}"
    )
    report = os.environ.get("RATINGS_FAULT_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as f:
            f.write(line + "\n")
