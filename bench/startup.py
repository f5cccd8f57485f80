"""Benchmark: how long a command takes to start, against the floor of any click program.

Usage::

    python bench/startup.py [--repeats 21] [--db ratings-demo.db]

Each case runs as a fresh process (``sys.executable``, this checkout's ``ratings`` first on
the path) with its modules' bytecode cached, as an installed package has it
(``PYTHONDONTWRITEBYTECODE`` is dropped for them, so the unmeasured first round writes
``__pycache__``), one after the other, the cases interleaved so that every case sees the same
machine load; the report gives each case's median wall time over ``--repeats`` runs and its
ratio to the floor's median in the same run:

- ``floor``: ``python -c "import click"``, the least a click program can start with;
- ``--version`` and ``--help``: ``ratings --version``, ``ratings --help``;
- ``list``: ``ratings --db DEMO list`` on the demo database (built once with
  ``ratings demo`` into a temporary folder unless ``--db`` names one): read with ``sqlite3``;
- ``list, URL``: the same list with ``--db sqlite:///DEMO``, which takes the service's path
  through SQLAlchemy (what every ``list`` took before).

The targets (issue 29, item 2): ``--version`` within 1.5x the floor, ``list`` within 4x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cases(db: str) -> dict[str, list[str]]:
    """The commands measured, by name."""
    ratings = [sys.executable, "-m", "ratings"]
    return {
        "floor": [sys.executable, "-c", "import click"],
        "--version": [*ratings, "--version"],
        "--help": [*ratings, "--help"],
        "list": [*ratings, "--db", db, "list"],
        # the same list through SQLAlchemy: a URL takes the service's path (ratings.rating_lists)
        "list, URL": [*ratings, "--db", "sqlite:///" + str(Path(db).resolve()), "list"],
    }


def run_once(argv: Sequence[str]) -> float:
    """Wall time of one run, in seconds; a failing command stops the benchmark."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # as an installed package runs: its modules compiled once (the warm-up round writes them)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()}")
    return elapsed


def measure(db: str, repeats: int) -> dict[str, list[float]]:
    """Every case ``repeats`` times, interleaved (one run of each case per round), after one
    unmeasured round that warms the file cache."""
    measured = cases(db)
    for argv in measured.values():
        run_once(argv)
    times: dict[str, list[float]] = {name: [] for name in measured}
    for _ in range(repeats):
        for name, argv in measured.items():
            times[name].append(run_once(argv))
    return times


def report(times: dict[str, list[float]]) -> str:
    """A Markdown table: each case's median, range and ratio to the floor's median."""
    floor = statistics.median(times["floor"])
    lines = [
        f"{len(times['floor'])} runs of each case, interleaved; medians.",
        "",
        "| case | median | range | ratio to floor |",
        "|---|---:|---:|---:|",
    ]
    for name, values in times.items():
        median = statistics.median(values)
        lines.append(
            f"| `{name}` | {median * 1000:.0f} ms | {min(values) * 1000:.0f}-"
            f"{max(values) * 1000:.0f} ms | {median / floor:.2f}x |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--db", help="a database for `list` (default: a fresh demo)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    with tempfile.TemporaryDirectory(prefix="ratings-startup-") as folder:
        db = args.db
        if db is None:
            db = str(Path(folder) / "demo.db")
            run_once([sys.executable, "-m", "ratings", "--db", db, "demo"])
        print(report(measure(db, args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
