"""Benchmark: ``ratings publish`` of two checkouts, interleaved in one run (issue 30).

Usage::

    git worktree add --detach /tmp/publish-before <commit before the change>
    python bench/publish_before_after.py --before /tmp/publish-before --after . \\
        --players 5000 --games 250000 --periods 120 --extra-games 2500 --repeats 5 \\
        --work /tmp/publish-bench

The databases are built once (``bench/publish.py``'s ``build``, cached in ``--work``; rated
with this checkout's code: the data a site shows does not depend on the site's code). Then,
``--repeats`` times, the two checkouts alternate (which goes first alternates too): each
publishes the rated database into an empty folder (``full``), then, over a copy of its own
first full site, the database with one more month (``month``). Each step is
``bench/publish.py``'s worker, a fresh subprocess with ``PYTHONPATH`` set to the checkout,
timed inside it around the work. The report gives medians, ranges and after / before.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import publish  # noqa: E402 (bench/publish.py)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--periods", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--extra-games", type=int, default=2500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--work", type=Path, required=True)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    rated, nexted = publish.build(
        args.players, args.games, args.periods, args.seed, args.extra_games, args.work, False
    )
    checkouts = {"before": args.before.resolve(), "after": args.after.resolve()}
    times: dict[str, dict[str, list[float]]] = {k: {"full": [], "month": []} for k in checkouts}
    sites = args.work / "sites-before-after"
    shutil.rmtree(sites, ignore_errors=True)
    sites.mkdir()
    for i in range(args.repeats):
        order = list(checkouts) if i % 2 == 0 else list(reversed(checkouts))
        for name in order:
            os.environ["PYTHONPATH"] = str(checkouts[name])
            base = sites / f"{name}-base"
            site = sites / f"{name}-full"
            shutil.rmtree(site, ignore_errors=True)
            full: dict[str, Any] = publish._spawn(rated, site)
            if not base.exists():
                site.rename(base)
            else:
                shutil.rmtree(site)
            month_site = sites / f"{name}-month"
            shutil.rmtree(month_site, ignore_errors=True)
            shutil.copytree(base, month_site, symlinks=True)
            month: dict[str, Any] = publish._spawn(nexted, month_site)
            shutil.rmtree(month_site)
            times[name]["full"].append(full["seconds"])
            times[name]["month"].append(month["seconds"])
            print(
                f"{i + 1}/{args.repeats} {name}: full {full['seconds']:.2f} s "
                f"({full['written']} files), month {month['seconds']:.2f} s "
                f"({month['written']} files)",
                file=sys.stderr,
                flush=True,
            )
    shutil.rmtree(sites, ignore_errors=True)
    print(f"Run: `python bench/publish_before_after.py {' '.join(sys.argv[1:])}`\n")
    print("| step | before median (s) | range | after median (s) | range | after / before |")
    print("|---|---:|---:|---:|---:|---:|")
    for step in ("full", "month"):
        b, a = times["before"][step], times["after"][step]
        mb, ma = statistics.median(b), statistics.median(a)
        print(
            f"| {step} | {mb:.2f} | {min(b):.2f}-{max(b):.2f} | {ma:.2f} "
            f"| {min(a):.2f}-{max(a):.2f} | {ma / mb:.3f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
