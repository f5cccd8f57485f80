"""Benchmark: ``ratings check --all`` (a rebuild of every list from the stored inputs, and the
comparison) against ``ratings rate`` from scratch, on one database.

Usage::

    python bench/check.py --players 5000 --games 250000 --periods 120 --seed 1 --repeats 5 \\
        --work /tmp/check-bench

It builds, from a synthetic federation (``bench/generate.py``; untimed, cached in ``--work``),
a database with the players and games imported and nothing rated, and a copy of it rated.
Then, ``--repeats`` times, one after the other so that each pair runs under the same load:

1. ``rate``: ``ratings rate`` on a fresh copy of the unrated database (every period from
   scratch, committed);
2. ``check``: ``ratings check --all`` on the rated database (read-only: the rebuild runs in
   memory).

Each step runs in a fresh subprocess through the command line (``ratings.cli``, in-process
there with click's runner), timed inside the subprocess around the command (interpreter start
and imports excluded); its peak memory is that process's ``VmHWM``. The ratio is the median of
the ratios of the pairs. The report (Markdown) goes to stdout and, with ``--report PATH``, to
a file.
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
from datetime import date
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))
try:
    import ratings  # noqa: F401 (checks the package is importable)
except ModuleNotFoundError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(BENCH_DIR.parent))

START = date(2015, 1, 1)
STEPS = {
    "rate": "1. `rate`: every period from scratch",
    "check": "2. `check --all`: rebuild every list and compare",
}


def _peak_rss_mb() -> float:
    """This process's peak resident set size in MB (VmHWM)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cli(db: Path, *args: str) -> str:
    from click.testing import CliRunner

    from ratings.cli import cli

    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    if result.exit_code != 0:
        raise RuntimeError(f"ratings {' '.join(args)} failed:\n{result.output}")
    return result.output


def worker(step: str, db: Path) -> dict[str, Any]:
    """Run one step on ``db``; its time and memory."""
    import ratings.cli  # noqa: F401 (imported before the clock starts, as for every step)

    args = ["rate"] if step == "rate" else ["check", "--all"]
    began = time.perf_counter()
    out = _cli(db, *args)
    seconds = time.perf_counter() - began
    return {"seconds": seconds, "rss_mb": _peak_rss_mb(), "first_line": out.splitlines()[0]}


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


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, file=sys.stderr, flush=True)


def build(
    players: int, games: int, periods: int, seed: int, work: Path, quiet: bool
) -> tuple[Path, Path]:
    """The imported database (nothing rated) and its rated copy (cached in ``work``)."""
    from generate import generate  # bench/generate.py

    key = f"{players}-{games}-{periods}-{seed}"
    imported = work / f"imported-{key}.db"
    rated = work / f"rated-{key}.db"
    if imported.exists() and rated.exists():
        return imported, rated
    data = work / f"data-{key}"
    if not (data / "games.csv").exists():
        _say(quiet, f"generating {players} players, {games} games ...")
        generate(players, games, periods, seed, data, START)
    building = work / f"building-{key}.db"
    building.unlink(missing_ok=True)
    _cli(building, "init")
    _cli(building, "import", "players", str(data / "players.csv"))
    _say(quiet, "importing ...")
    _cli(building, "import", "games", str(data / "games.csv"))
    shutil.copyfile(building, imported)
    _say(quiet, "rating ...")
    _cli(building, "rate")
    building.replace(rated)
    return imported, rated


def _counts(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("players", "games", "rating_periods", "rating_history",
                          "rating_breakdown")
        }  # fmt: skip
    finally:
        conn.close()


def measure(imported: Path, rated: Path, repeats: int, work: Path, quiet: bool) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {"rate": [], "check": []}
    for n in range(repeats):
        copy = work / "rate-copy.db"
        shutil.copyfile(imported, copy)
        runs["rate"].append(_spawn("rate", copy))
        copy.unlink()
        runs["check"].append(_spawn("check", rated))
        _say(quiet, f"repeat {n + 1}: rate {runs['rate'][-1]['seconds']:.2f} s, "
                    f"check {runs['check'][-1]['seconds']:.2f} s")  # fmt: skip
    ratios = [c["seconds"] / r["seconds"] for r, c in zip(runs["rate"], runs["check"], strict=True)]
    return {"runs": runs, "ratio": statistics.median(ratios), "ratios": ratios}


def report(
    result: dict[str, Any], counts: dict[str, int], argv: Sequence[str], elapsed: float
) -> str:
    runs = result["runs"]
    lines = [
        f"Run: `python bench/check.py {' '.join(argv)}`",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}, {platform.machine()}; whole run {elapsed / 60:.1f} min.",
        "",
        f"Database: {counts['players']:,} players, {counts['games']:,} games, "
        f"{counts['rating_periods']} periods; {counts['rating_history']:,} list rows, "
        f"{counts['rating_breakdown']:,} breakdown rows.",
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
        f"`check --all` / `rate` from scratch: **{result['ratio']:.2f}x** (median of the pairs: "
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
