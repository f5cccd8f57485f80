"""Benchmark: what rating three lists costs (issue 15), against the same games on one list.

Usage::

    python bench/three_lists.py --players 20000 --games 200000 --periods 24 --repeats 3

It generates one federation twice with the same seed (``bench/generate.py``): once with every
event standard, once with ``--mixed-lists`` (about 50% of the events standard, 30% rapid, 20%
blitz; the games themselves are identical). Both get the same players and are imported the
same way; then ``rate`` (every period from scratch) runs on each, alternately, ``--repeats``
times, each run in a fresh process on a fresh copy of the imported database, exactly as
``bench/run.py`` runs its steps (the time is measured inside the process around the work).

The report gives the median time of each, the median of the back-to-back ratios (three lists
/ one list), the peak RSS, and the rows each wrote: with three lists every rated period
publishes up to three lists, each with a row for every registered player, so the list rows,
not the games, are what grows.
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


def _imported(work: Path, name: str, players: int, games: int, periods: int, seed: int,
              mixed: bool) -> Path:  # fmt: skip
    """A database holding the federation's players and games, not rated."""
    from generate import generate  # bench/generate.py

    data = work / f"data-{name}"
    generate(players, games, periods, seed, data, date(2015, 1, 1), mixed_lists=mixed)
    db = work / f"{name}-imported.db"
    bench_run.register_players(str(db), data / "players.csv")
    bench_run._spawn("ours", "import", str(db), str(data / "games.csv"))
    return db


def _rows(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        counts = dict(
            conn.execute(
                "SELECT time_control, count(*) FROM rating_history GROUP BY time_control"
            ).fetchall()
        )
        breakdown = conn.execute("SELECT count(*) FROM rating_breakdown").fetchone()[0]
    return {f"list rows ({tc})": n for tc, n in sorted(counts.items())} | {
        "breakdown rows": breakdown
    }


def _each(runs: list[dict[str, Any]]) -> str:
    return ", ".join(f"{r['seconds']:.2f}" for r in runs)


def run(players: int, games: int, periods: int, seed: int, repeats: int, work: Path,
        quiet: bool = False) -> str:  # fmt: skip
    """Measure and return the Markdown report."""
    began = time.perf_counter()
    sources = {
        name: _imported(work, name, players, games, periods, seed, name == "three")
        for name in ("one", "three")
    }
    times: dict[str, list[dict[str, Any]]] = {"one": [], "three": []}
    rows: dict[str, dict[str, int]] = {}
    for attempt in range(repeats):
        for name, source in sources.items():
            db = work / f"{name}-rated.db"
            shutil.copyfile(source, db)
            bench_run._say(quiet, f"  rate, {name} list(s), run {attempt + 1} ...")
            times[name].append(bench_run._spawn("ours", "rate", str(db), ""))
            rows[name] = _rows(db)
    one = statistics.median(t["seconds"] for t in times["one"])
    three = statistics.median(t["seconds"] for t in times["three"])
    ratio = statistics.median(
        t["seconds"] / o["seconds"] for o, t in zip(times["one"], times["three"], strict=True)
    )
    lines = [
        f"Run: `python bench/three_lists.py --players {players} --games {games} --periods "
        f"{periods} --seed {seed} --repeats {repeats}`",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}; load average at the end "
        f"{os.getloadavg()[0]:.2f}; whole run {(time.perf_counter() - began) / 60:.1f} min.",
        "",
        "| rate every period from scratch | one list | three lists |",
        "|---|---|---|",
        f"| median time (s) | {one:.2f} | {three:.2f} |",
        f"| every run (s) | {_each(times['one'])} | {_each(times['three'])} |",
        f"| peak RSS (MB) | {max(t['rss_mb'] for t in times['one']):.0f} | "
        f"{max(t['rss_mb'] for t in times['three']):.0f} |",
    ]
    for key in sorted(rows["one"].keys() | rows["three"].keys()):
        lines.append(f"| {key} | {rows['one'].get(key, 0):,} | {rows['three'].get(key, 0):,} |")
    lines += ["", f"Three lists / one list: **{ratio:.2f}x** (median of {repeats} pairs)."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--games", type=int, required=True, help="number of games")
    parser.add_argument("--periods", type=int, required=True, help="monthly periods")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="rate runs of each (default 3)")
    parser.add_argument("--keep", type=Path, help="work folder to keep")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(argv)
    work = ns.keep if ns.keep is not None else Path(tempfile.mkdtemp(prefix="three-lists-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        print(run(ns.players, ns.games, ns.periods, ns.seed, ns.repeats, work, ns.quiet))
    finally:
        if ns.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
