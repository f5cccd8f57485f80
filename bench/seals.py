"""Benchmark: the share of ``ratings rate`` from scratch that sealing its lists takes.

Usage::

    python bench/seals.py --players 20000 --games 100000 --periods 60 --seed 1 --repeats 5 \\
        --work /tmp/check-bench

The databases are ``bench/check.py``'s (built by it, cached in ``--work``). Then, ``--repeats``
times, ``ratings rate`` runs on a fresh copy of the unrated database in a fresh subprocess,
timed inside it around the command, with the seal step (``service.rating.seals.seal_lists``, called
by the rate once its periods are rated) timed on its own in the same run: so the share is
measured under one load, whatever the machine does meanwhile. Medians; the report (Markdown)
goes to stdout and, with ``--report PATH``, to a file.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

from paired import build, cli, counts, peak_rss_mb, say  # noqa: E402 (bench/ on the path first)


def worker(db: Path) -> dict[str, Any]:
    """Rate ``db`` from scratch; the whole command's time and the seal step's."""
    import importlib

    import ratings.cli  # noqa: F401 (imported before the clock starts)

    # the module (ratings.service.rating.rate is also the name of its use case, the function)
    rate_module = importlib.import_module("ratings.service.rating.rate")

    sealing_seconds: list[float] = []
    seal_lists = rate_module.seal_lists

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return seal_lists(*args, **kwargs)
        finally:
            sealing_seconds.append(time.perf_counter() - began)

    rate_module.seal_lists = timed  # type: ignore[assignment]  # the same function, timed
    began = time.perf_counter()
    cli(db, "rate")
    seconds = time.perf_counter() - began
    return {"seconds": seconds, "seal": sum(sealing_seconds), "rss_mb": peak_rss_mb()}


def _spawn(db: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"rate failed ({done.returncode}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--worker"]:
        print(json.dumps(worker(Path(args_list[1]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--games", type=int, default=250_000)
    parser.add_argument("--periods", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path("/tmp/ratings-check-bench"))
    parser.add_argument("--report", type=Path)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(args_list)
    began = time.perf_counter()
    args.work.mkdir(parents=True, exist_ok=True)
    imported, rated = build(
        args.players, args.games, args.periods, args.seed, args.work, args.quiet
    )
    runs = []
    for n in range(args.repeats):
        copy = args.work / "seals-rate-copy.db"
        shutil.copyfile(imported, copy)
        runs.append(_spawn(copy))
        copy.unlink()
        say(args.quiet, f"repeat {n + 1}: rate {runs[-1]['seconds']:.2f} s, of which "
                        f"sealing {runs[-1]['seal']:.2f} s")  # fmt: skip
    rows = counts(rated)
    total = [r["seconds"] for r in runs]
    seal = [r["seal"] for r in runs]
    shares = [r["seal"] / r["seconds"] for r in runs]
    text = "\n".join(
        [
            f"Run: `python bench/seals.py {' '.join(args_list)}`",
            "",
            f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
            f"{sqlite3.sqlite_version}, {platform.machine()}; whole run "
            f"{(time.perf_counter() - began) / 60:.1f} min.",
            "",
            f"Database: {rows['players']:,} players, {rows['games']:,} games, "
            f"{rows['rating_periods']} periods; {rows['rating_history']:,} list rows.",
            "",
            "| | median (s) | runs (s) |",
            "|---|---:|---|",
            f"| `rate` from scratch | {statistics.median(total):.2f} | "
            + ", ".join(f"{s:.2f}" for s in total)
            + " |",
            f"| of which the seal step | {statistics.median(seal):.2f} | "
            + ", ".join(f"{s:.2f}" for s in seal)
            + " |",
            "",
            f"The seal step's share of the rate: **{statistics.median(shares):.0%}** (median of "
            "the runs: " + ", ".join(f"{s:.0%}" for s in shares) + ").",
            "",
        ]
    )
    print(text)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
