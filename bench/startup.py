"""Benchmark: how long a command takes to start and answer, against the floor of what it must
import.

Usage::

    python bench/startup.py [--repeats 7] [--db ratings-demo.db]

Each case runs as a fresh process (``sys.executable``, this checkout's ``ratings`` first on
the path) with its modules' bytecode cached, as an installed package has it
(``PYTHONDONTWRITEBYTECODE`` is dropped for them, so the unmeasured first round writes
``__pycache__``), one after the other, the cases interleaved so that every case sees the same
machine load; the report gives each case's median wall time over ``--repeats`` runs and its
ratio to its floor's median in the same run, and the same for the process's CPU time (user
and system), which a machine busy with other work inflates less than the wall time.

Two floors, each the least its commands can import:

- ``floor: click``: ``python -c "import click"``, the least a click program starts with; the
  commands that open no database through SQLAlchemy are held to it: ``--version`` (target
  1.5x), ``--help``, and ``list`` (target 4x), read with ``sqlite3`` on the demo database,
  and ``list, URL``, the same list given as ``--db sqlite:///DEMO``, which takes the service's
  path through SQLAlchemy;
- ``floor: ORM``: ``python -c "import sqlalchemy.orm"``, which every command reading the
  database through the models needs; the read commands are held to it, each within 1.5x:
  ``card PLAYER``, ``history PLAYER``, ``player show PLAYER``, ``player list``, ``preview``
  and ``check --period P``.

The database is the demo (built once with ``ratings demo`` into a temporary folder unless
``--db`` names one); PLAYER is the player with the most games in its newest period, by name
(as a rating officer types it), and P that period.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FLOOR_CLICK = "floor: click"
FLOOR_ORM = "floor: ORM"


@dataclass(frozen=True)
class Case:
    """One command measured."""

    name: str
    """Its row in the report."""
    argv: tuple[str, ...]
    """The whole command line, interpreter first."""
    floor: str
    """The name of the floor its ratio is taken to (a floor's own is its name)."""
    target: float | None = None
    """The ratio to its floor it should stay within (None: none set)."""


def newest(db: str) -> tuple[str, str]:
    """(the name of the player with the most games in the newest rated period, that period's
    label) in the standard list of ``db``, read with ``sqlite3`` (ties: the lowest id)."""
    conn = sqlite3.connect(Path(db).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        row = conn.execute(
            "SELECT players.name, rating_periods.label FROM rating_history"
            " JOIN rating_periods ON rating_periods.id = rating_history.period_id"
            " JOIN players ON players.id = rating_history.player_id"
            " WHERE rating_history.time_control = 'standard'"
            " ORDER BY rating_periods.start_date DESC, rating_history.period_games DESC,"
            " players.id LIMIT 1"
        ).fetchone()
    finally:
        conn.close()
    if row is None:
        raise SystemExit(f"{db}: no rated period to read")
    return str(row[0]), str(row[1])


def cases(db: str) -> list[Case]:
    """The commands measured, in the report's order (each floor before its commands)."""
    python = sys.executable
    ratings = (python, "-m", "ratings", "--db", db)
    player, period = newest(db)
    return [
        Case(FLOOR_CLICK, (python, "-c", "import click"), FLOOR_CLICK),
        Case("--version", (python, "-m", "ratings", "--version"), FLOOR_CLICK, 1.5),
        Case("--help", (python, "-m", "ratings", "--help"), FLOOR_CLICK),
        Case("list", (*ratings, "list"), FLOOR_CLICK, 4.0),
        # the same list through SQLAlchemy: a URL takes the service's path (ratings.rating_lists)
        Case(
            "list, URL",
            (python, "-m", "ratings", "--db", "sqlite:///" + str(Path(db).resolve()), "list"),
            FLOOR_CLICK,
        ),
        Case(FLOOR_ORM, (python, "-c", "import sqlalchemy.orm"), FLOOR_ORM),
        Case("card PLAYER", (*ratings, "card", player), FLOOR_ORM, 1.5),
        Case("history PLAYER", (*ratings, "history", player), FLOOR_ORM, 1.5),
        Case("player show PLAYER", (*ratings, "player", "show", player), FLOOR_ORM, 1.5),
        Case("player list", (*ratings, "player", "list"), FLOOR_ORM, 1.5),
        Case("preview", (*ratings, "preview"), FLOOR_ORM, 1.5),
        Case(f"check --period {period}", (*ratings, "check", "--period", period), FLOOR_ORM, 1.5),
    ]


def _children_cpu() -> float:
    """CPU time (user and system) of this process's finished children so far, in seconds."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_once(argv: Sequence[str]) -> tuple[float, float]:
    """(wall time, CPU time) of one run, in seconds; a failing command stops the benchmark."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # as an installed package runs: its modules compiled once (the warm-up round writes them)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()}")
    return elapsed, _children_cpu() - cpu


Times = dict[str, list[tuple[float, float]]]
"""Each case's runs: (wall time, CPU time) in seconds."""


def measure(measured: Sequence[Case], repeats: int) -> Times:
    """Every case ``repeats`` times, interleaved (one run of each case per round), after one
    unmeasured round that warms the file cache and writes the bytecode."""
    for case in measured:
        run_once(case.argv)
    times: Times = {case.name: [] for case in measured}
    for _ in range(repeats):
        for case in measured:
            times[case.name].append(run_once(case.argv))
    return times


def report(measured: Sequence[Case], times: Times) -> str:
    """A Markdown table: each case's median wall time, its range, its ratio to its floor's
    median and the target; then the median CPU time and its ratio to the floor's."""
    repeats = len(times[measured[0].name])
    lines = [
        f"{repeats} runs of each case, interleaved; medians; each ratio to its floor's median.",
        "",
        "| case | wall | range | ratio to floor | target | CPU | CPU ratio |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for case in measured:
        wall = [w for w, _ in times[case.name]]
        cpu = statistics.median(c for _, c in times[case.name])
        median = statistics.median(wall)
        ratio = median / statistics.median(w for w, _ in times[case.floor])
        cpu_ratio = cpu / statistics.median(c for _, c in times[case.floor])
        if case.target is None:
            target = ""
        else:
            met = "met" if ratio <= case.target else "**not met**"
            target = f"within {case.target:g}x: {met}"
        shown = f"**{ratio:.2f}x**" if case.target is not None else f"{ratio:.2f}x"
        lines.append(
            f"| `{case.name}` | {median * 1000:.0f} ms | {min(wall) * 1000:.0f}-"
            f"{max(wall) * 1000:.0f} ms | {shown} | {target} | {cpu * 1000:.0f} ms | "
            f"{cpu_ratio:.2f}x |"
        )
    return "\n".join(lines)


def machine() -> str:
    """The machine line of the report: cores, Python, SQLite, load at the start."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}; load average {load:.2f} at the start."
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--db", help="a rated database to read (default: a fresh demo)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    with tempfile.TemporaryDirectory(prefix="ratings-startup-") as folder:
        db = args.db
        if db is not None and not Path(db).is_file():
            parser.error(f"--db: no database file {db!r}")
        if db is None:
            db = str(Path(folder) / "demo.db")
            run_once([sys.executable, "-m", "ratings", "--db", db, "demo"])
        measured = cases(db)
        print(machine())
        print()
        print(report(measured, measure(measured, args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
