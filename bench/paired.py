"""The harness of the benchmarks that time one command on a rated database against ``ratings
rate`` from scratch on the same data (``bench/check.py``, ``bench/whatif.py``): the database
built once from a synthetic federation (``bench/generate.py``; untimed, cached in the work
folder), each step in a fresh subprocess through the command line, the pairs run one after
the other so that each pair runs under the same load, medians and the median of the pairs'
ratios reported in Markdown.

Not a benchmark of its own: each script names its command (:class:`Paired`) and calls
:func:`main`.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
RATE = "1. `rate`: every period from scratch"


@dataclass(frozen=True)
class Paired:
    """What a paired benchmark times against ``rate`` from scratch."""

    script: str
    """The script's file name (``check.py``): its workers run it again."""
    name: str
    """The command's short name, in the report (``check --all``)."""
    title: str
    """Its row in the report's table."""
    args: tuple[str, ...]
    """The command's arguments (``("check", "--all")``)."""
    summary: Callable[[str], str] | None = None
    """What of its output the report quotes under the database line (None: nothing)."""
    summary_label: str = ""
    """The label of that quote (``What-if``)."""


def peak_rss_mb() -> float:
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


def say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, file=sys.stderr, flush=True)


def cli(db: Path, *args: str) -> str:
    """``ratings --db DB ARGS`` in this process; its output (a failure raises)."""
    from click.testing import CliRunner

    from ratings.cli import cli as ratings_cli

    result = CliRunner().invoke(ratings_cli, ["--db", str(db), *args])
    if result.exit_code != 0:
        raise RuntimeError(f"ratings {' '.join(args)} failed:\n{result.output}")
    return result.output


def worker(paired: Paired, step: str, db: Path) -> dict[str, Any]:
    """Run one step on ``db``; its time, memory and what the report quotes of it."""
    import ratings.cli  # noqa: F401 (imported before the clock starts, as for every step)

    args = ("rate",) if step == "rate" else paired.args
    began = time.perf_counter()
    out = cli(db, *args)
    seconds = time.perf_counter() - began
    summary = out.splitlines()[0] if step == "rate" or paired.summary is None else ""
    if step != "rate" and paired.summary is not None:
        summary = paired.summary(out)
    return {"seconds": seconds, "rss_mb": peak_rss_mb(), "summary": summary}


def spawn(script: str, step: str, db: Path) -> dict[str, Any]:
    """One step in a fresh subprocess (``script --worker STEP DB``); what its worker said."""
    done = subprocess.run(
        [sys.executable, str(BENCH_DIR / script), "--worker", step, str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{step} failed ({done.returncode}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


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
        say(quiet, f"generating {players} players, {games} games ...")
        generate(players, games, periods, seed, data, START)
    building = work / f"building-{key}.db"
    building.unlink(missing_ok=True)
    cli(building, "init")
    cli(building, "import", "players", str(data / "players.csv"))
    say(quiet, "importing ...")
    cli(building, "import", "games", str(data / "games.csv"))
    shutil.copyfile(building, imported)
    say(quiet, "rating ...")
    cli(building, "rate")
    building.replace(rated)
    return imported, rated


def counts(db: Path) -> dict[str, int]:
    """Rows of the tables the report names."""
    conn = sqlite3.connect(db)
    try:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("players", "games", "rating_periods", "rating_history",
                          "rating_breakdown")
        }  # fmt: skip
    finally:
        conn.close()


def measure(
    paired: Paired, imported: Path, rated: Path, repeats: int, work: Path, quiet: bool
) -> dict[str, Any]:
    """``repeats`` pairs: ``rate`` on a fresh copy of ``imported``, then the command on
    ``rated``."""
    runs: dict[str, list[dict[str, Any]]] = {"rate": [], "other": []}
    for n in range(repeats):
        copy = work / f"{Path(paired.script).stem}-rate-copy.db"
        shutil.copyfile(imported, copy)
        runs["rate"].append(spawn(paired.script, "rate", copy))
        copy.unlink()
        runs["other"].append(spawn(paired.script, "other", rated))
        say(quiet, f"repeat {n + 1}: rate {runs['rate'][-1]['seconds']:.2f} s, "
                   f"{paired.name} {runs['other'][-1]['seconds']:.2f} s")  # fmt: skip
    ratios = [o["seconds"] / r["seconds"] for r, o in zip(runs["rate"], runs["other"], strict=True)]
    return {"runs": runs, "ratio": statistics.median(ratios), "ratios": ratios}


def report(
    paired: Paired,
    result: dict[str, Any],
    rows: dict[str, int],
    argv: Sequence[str],
    elapsed: float,
) -> str:
    runs = result["runs"]
    database = (
        f"Database: {rows['players']:,} players, {rows['games']:,} games, "
        f"{rows['rating_periods']} periods; {rows['rating_history']:,} list rows, "
        f"{rows['rating_breakdown']:,} breakdown rows."
    )
    if paired.summary is not None:
        database += f" {paired.summary_label}: {runs['other'][0]['summary']}."
    lines = [
        f"Run: `python bench/{paired.script} {' '.join(argv)}`",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}, {platform.machine()}; whole run {elapsed / 60:.1f} min.",
        "",
        database,
        "",
        "| step | median (s) | runs (s) | peak RSS (MB) |",
        "|---|---:|---|---:|",
    ]
    for step, title in (("rate", RATE), ("other", paired.title)):
        seconds = [r["seconds"] for r in runs[step]]
        rss = max(r["rss_mb"] for r in runs[step])
        runs_text = ", ".join(f"{s:.2f}" for s in seconds)
        lines.append(f"| {title} | {statistics.median(seconds):.2f} | {runs_text} | {rss:.0f} |")
    ratios = ", ".join(f"{r:.2f}" for r in result["ratios"])
    lines += [
        "",
        f"`{paired.name}` / `rate` from scratch: **{result['ratio']:.2f}x** (median of the "
        f"pairs: {ratios}).",
        "",
    ]
    return "\n".join(lines)


def main(paired: Paired, description: str, argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--worker"]:
        print(json.dumps(worker(paired, args_list[1], Path(args_list[2]))))
        return 0
    parser = argparse.ArgumentParser(description=description)
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
    result = measure(paired, imported, rated, args.repeats, args.work, args.quiet)
    text = report(paired, result, counts(rated), args_list, time.perf_counter() - began)
    print(text)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    return 0
