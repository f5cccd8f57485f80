"""Crash safety: `ratings import games` and `ratings rate` killed with SIGKILL at random moments.

After every kill the database must pass `PRAGMA integrity_check`, hold exactly the state
before the command or the state after it (every table's rows, timestamps aside), and running
the command again must give the same contents as a run that was never interrupted.

Half the kill moments are drawn (seeded) uniformly over the command's measured duration, so
they land in Python's start-up, the reading of the input and the write transaction alike.
The write transaction is a small part of that time, so the other half aim at it: the test
polls for the rollback journal, which exists only while the command writes, and kills after
a random part of the measured journal lifetime. A kill during the write leaves a hot
journal, which SQLite rolls back on the next open.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.safety_helpers import (
    build,
    digest,
    generate,
    integrity,
    invoke,
    journal_of,
    start,
    wait_for_journal,
)

PLAYERS = 300
GAMES = 10_000
PERIODS = 6
SCALE = int(os.environ.get("RATINGS_SAFETY_SCALE", "1"))
"""Multiplies the trials, for a longer run (the figures in docs/RELIABILITY.md)."""
IMPORT_TRIALS = 10 * SCALE
RATE_TRIALS = 12 * SCALE
SEED = 20260101


@dataclass(frozen=True)
class Scenario:
    """A command, the database it starts from, and the two acceptable states."""

    name: str
    args: tuple[str, ...]
    before: Path
    before_digest: str
    after_digest: str
    duration: float
    """Seconds an uninterrupted run took as a separate process."""
    write_window: float
    """Seconds the rollback journal existed during that run (the write transaction)."""


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Scenario]:
    """The federation at three stages: players only, games imported, periods rated."""
    folder = tmp_path_factory.mktemp("crash")
    players_csv, games_csv = generate(
        folder, players=PLAYERS, games=GAMES, periods=PERIODS, seed=SEED
    )
    registered = folder / "registered.db"
    build(registered, players_csv)
    imported = folder / "imported.db"
    shutil.copyfile(registered, imported)
    assert invoke(imported, "import", "games", str(games_csv))[0] == 0
    rated = folder / "rated.db"
    shutil.copyfile(imported, rated)
    assert invoke(rated, "rate")[0] == 0
    stages = {
        "import": (("import", "games", str(games_csv)), registered, imported),
        "rate": (("rate",), imported, rated),
    }
    found = {}
    for name, (args, before, after) in stages.items():
        # one uninterrupted run as a process: its duration, and the same result as in-process
        probe = folder / f"probe-{name}.db"
        shutil.copyfile(before, probe)
        began = time.monotonic()
        proc = start(probe, *args)
        opened = wait_for_journal(proc, probe)
        _, err = proc.communicate(timeout=120)
        ended = time.monotonic()
        assert proc.returncode == 0, err
        assert opened is not None, "the command exited before its journal was seen"
        assert digest(probe) == digest(after)
        found[name] = Scenario(
            name, args, before, digest(before), digest(after), ended - began, ended - opened
        )
    return found


@dataclass
class Tally:
    """What the trials of one scenario saw."""

    trials: int = 0
    aimed: int = 0
    """Trials whose kill waited for the journal to appear."""
    killed: int = 0
    """Kills that hit a running process (the others found it finished)."""
    hot_journal: int = 0
    """Kills that left a hot journal: the process was inside its write transaction."""
    states: Counter[str] = field(default_factory=Counter)
    """How many trials ended in the before-state and in the after-state."""


def crash_trials(scenario: Scenario, trials: int, folder: Path, seed: int) -> Tally:
    """Kill the scenario's command ``trials`` times; check each survivor; return the tally."""
    rng = random.Random(seed)
    tally = Tally()
    for trial in range(trials):
        db = folder / f"{scenario.name}-{trial}.db"
        shutil.copyfile(scenario.before, db)
        aimed = trial % 2 == 1
        proc = start(db, *scenario.args)
        if aimed:
            tally.aimed += 1
            delay = rng.uniform(0, scenario.write_window)
            if wait_for_journal(proc, db) is None:
                delay = 0
        else:
            delay = rng.uniform(0, scenario.duration)
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            tally.killed += 1
        proc.communicate()
        journal = journal_of(db)
        if journal.exists() and journal.stat().st_size > 0:
            tally.hot_journal += 1
        tally.trials += 1

        assert integrity(db) == "ok", f"trial {trial}, killed after {delay:.3f}s"
        state = digest(db)
        assert state in (scenario.before_digest, scenario.after_digest), (
            f"trial {trial}: mixed state after a kill at {delay:.3f}s"
        )
        done = state == scenario.after_digest
        tally.states["after" if done else "before"] += 1

        code, out = invoke(db, *scenario.args)
        if scenario.name == "import" and done:
            assert code == 1, out  # the file is recognised as imported: nothing doubles
            assert "this file was already imported" in out
        else:
            assert code == 0, out
        assert digest(db) == scenario.after_digest, f"trial {trial}: re-run differs"
        db.unlink()
    return tally


@pytest.mark.slow
@pytest.mark.parametrize(("name", "trials"), [("import", IMPORT_TRIALS), ("rate", RATE_TRIALS)])
def test_sigkill_leaves_before_or_after(
    scenarios: dict[str, Scenario], tmp_path: Path, name: str, trials: int
) -> None:
    tally = crash_trials(scenarios[name], trials, tmp_path, SEED + len(name))
    assert tally.trials == trials
    assert sum(tally.states.values()) == trials
    # the delays are spread over the run: some kills must hit a live process, and the aimed
    # ones inside the write transaction
    assert tally.killed > 0
    assert tally.hot_journal > 0
