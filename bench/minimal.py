"""Benchmark: our import and rate against the minimal floor (issue 16, item 3).

Usage::

    python bench/minimal.py --players 6000 --games 118000 --periods 24 --repeats 3

It generates a federation (``bench/generate.py``), builds one database with the players
(``run.register_players``), then ``--repeats`` times, back to back on fresh copies: imports the
games with our code and with the minimal floor (``bench/floor_minimal.py``), and rates every
period with each on its own imported copy. Each step runs in a fresh process, timed inside it
around the work (interpreter start and imports excluded on both sides), as in
``bench/run.py``. The report gives medians and the median of the back-to-back ratios, and
the rows each wrote: ours a list row for every registered player every period, the minimal
floor one per active player-period.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

import run as bench_run  # noqa: E402 (bench/run.py, after the path is set)

KINDS = ("ours", "minimal")


def _rows(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        history = conn.execute("SELECT count(*) FROM rating_history").fetchone()[0]
        breakdown = conn.execute("SELECT count(*) FROM rating_breakdown").fetchone()[0]
    return history, breakdown


def measure(players: int, games: int, periods: int, seed: int, repeats: int, work: Path,
            quiet: bool = False) -> dict[str, Any]:  # fmt: skip
    """Every step of both kinds, ``repeats`` times; returns the runs and the rows written."""
    from generate import generate  # bench/generate.py

    began = time.perf_counter()
    files = generate(players, games, periods, seed, work / "data", date(2015, 1, 1))
    registered = work / "players.db"
    # closing_days 0: the minimal floor puts an event in the calendar month of its end date
    bench_run.register_players(str(registered), files.players_csv, closing_days=0)
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        kind: {"import": [], "rate": []} for kind in KINDS
    }
    rows: dict[str, tuple[int, int]] = {}
    for attempt in range(repeats):
        for kind in KINDS:
            db = work / f"{kind}.db"
            shutil.copyfile(registered, db)
            bench_run._say(quiet, f"  run {attempt + 1}: import ({kind}) ...")
            runs[kind]["import"].append(
                bench_run._spawn(kind, "import", str(db), str(files.games_csv))
            )
            bench_run._say(quiet, f"  run {attempt + 1}: rate ({kind}) ...")
            runs[kind]["rate"].append(bench_run._spawn(kind, "rate", str(db), ""))
            rows[kind] = _rows(db)
    return {"runs": runs, "rows": rows, "elapsed_min": (time.perf_counter() - began) / 60}


def report(figures: dict[str, Any], argv: Sequence[str]) -> str:
    """The Markdown report."""
    runs, rows = figures["runs"], figures["rows"]
    lines = [
        f"Run: `python bench/minimal.py {' '.join(argv)}`",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}; load average at the end {os.getloadavg()[0]:.2f}; whole "
        f"run {figures['elapsed_min']:.1f} min.",
        "",
        "| step | ours (s) | minimal floor (s) | ours / minimal floor (median of pairs) |",
        "|---|---:|---:|---:|",
    ]
    for step in ("import", "rate"):
        ours = [r["seconds"] for r in runs["ours"][step]]
        floor = [r["seconds"] for r in runs["minimal"][step]]
        ratio = statistics.median(o / f for o, f in zip(ours, floor, strict=True))
        lines.append(
            f"| {step} | {statistics.median(ours):.2f} | {statistics.median(floor):.2f} | "
            f"**{ratio:.2f}x** |"
        )
    lines += [
        "",
        f"Rows: ours {rows['ours'][0]:,} list + {rows['ours'][1]:,} breakdown; the minimal "
        f"floor {rows['minimal'][0]:,} list + {rows['minimal'][1]:,} breakdown.",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--games", type=int, required=True, help="number of games")
    parser.add_argument("--periods", type=int, required=True, help="monthly periods")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="pairs of each step")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(args)
    work = Path(tempfile.mkdtemp(prefix="minimal-"))
    try:
        figures = measure(ns.players, ns.games, ns.periods, ns.seed, ns.repeats, work, ns.quiet)
        print(report(figures, args))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
