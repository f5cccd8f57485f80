"""Benchmark: ``ratings whatif`` (a rebuild of every list with a rule changed, and the
comparison with the published lists) against ``ratings rate`` from scratch, on one database.

Usage::

    python bench/whatif.py --players 5000 --games 250000 --periods 120 --seed 1 --repeats 5 \\
        --work /tmp/check-bench

The databases are ``bench/check.py``'s (built by it, cached in ``--work``): the players and
games imported and nothing rated, and a copy of it rated. Then, ``--repeats`` times, one after
the other so that each pair runs under the same load:

1. ``rate``: ``ratings rate`` on a fresh copy of the unrated database (every period from
   scratch, sealed, committed);
2. ``whatif``: ``ratings whatif --set junior-k=30 --format json`` on the rated database
   (read-only: the rebuild runs in memory; every list compared).

Each step runs in a fresh subprocess through the command line, timed inside the subprocess
around the command (interpreter start and imports excluded); its peak memory is that
process's ``VmHWM``. The ratio is the median of the ratios of the pairs. The report (Markdown)
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

from check import _cli, _counts, _peak_rss_mb, _say, build  # noqa: E402 (bench/ on the path first)

STEPS = {
    "rate": "1. `rate`: every period from scratch",
    "whatif": "2. `whatif --set junior-k=30`: rebuild every list with the change and compare",
}
CHANGE = ("--set", "junior-k=30")


def worker(step: str, db: Path) -> dict[str, Any]:
    """Run one step on ``db``; its time and memory."""
    import ratings.cli  # noqa: F401 (imported before the clock starts, as for every step)

    args = ["rate"] if step == "rate" else ["whatif", *CHANGE, "--format", "json"]
    began = time.perf_counter()
    out = _cli(db, *args)
    seconds = time.perf_counter() - began
    if step == "whatif":
        doc = json.loads(out)
        summary = f"{doc['newest']['moved']} moved at {doc['newest']['period']}"
    else:
        summary = out.splitlines()[0]
    return {"seconds": seconds, "rss_mb": _peak_rss_mb(), "summary": summary}


def _spawn(step: str, db: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", step, str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{step} failed ({done.returncode}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def measure(imported: Path, rated: Path, repeats: int, work: Path, quiet: bool) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {"rate": [], "whatif": []}
    for n in range(repeats):
        copy = work / "whatif-rate-copy.db"
        shutil.copyfile(imported, copy)
        runs["rate"].append(_spawn("rate", copy))
        copy.unlink()
        runs["whatif"].append(_spawn("whatif", rated))
        _say(quiet, f"repeat {n + 1}: rate {runs['rate'][-1]['seconds']:.2f} s, "
                    f"whatif {runs['whatif'][-1]['seconds']:.2f} s")  # fmt: skip
    ratios = [
        w["seconds"] / r["seconds"] for r, w in zip(runs["rate"], runs["whatif"], strict=True)
    ]
    return {"runs": runs, "ratio": statistics.median(ratios), "ratios": ratios}


def report(
    result: dict[str, Any], counts: dict[str, int], argv: Sequence[str], elapsed: float
) -> str:
    runs = result["runs"]
    lines = [
        f"Run: `python bench/whatif.py {' '.join(argv)}`",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}, {platform.machine()}; whole run {elapsed / 60:.1f} min.",
        "",
        f"Database: {counts['players']:,} players, {counts['games']:,} games, "
        f"{counts['rating_periods']} periods; {counts['rating_history']:,} list rows, "
        f"{counts['rating_breakdown']:,} breakdown rows. What-if: "
        f"{runs['whatif'][0]['summary']}.",
        "",
        "| step | median (s) | runs (s) | peak RSS (MB) |",
        "|---|---:|---|---:|",
    ]
    for step, title in STEPS.items():
        seconds = [r["seconds"] for r in runs[step]]
        rss = max(r["rss_mb"] for r in runs[step])
        runs_text = ", ".join(f"{s:.2f}" for s in seconds)
        lines.append(f"| {title} | {statistics.median(seconds):.2f} | {runs_text} | {rss:.0f} |")
    ratios = ", ".join(f"{r:.2f}" for r in result["ratios"])
    lines += [
        "",
        f"`whatif` / `rate` from scratch: **{result['ratio']:.2f}x** (median of the pairs: "
        f"{ratios}).",
        "",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--worker"]:
        print(json.dumps(worker(args_list[1], Path(args_list[2]))))
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
    result = measure(imported, rated, args.repeats, args.work, args.quiet)
    text = report(result, _counts(rated), args_list, time.perf_counter() - began)
    print(text)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
