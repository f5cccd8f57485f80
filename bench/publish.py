"""Benchmark: ``ratings publish`` at club and federation scale (issue 14).

Usage::

    python bench/publish.py --players 20000 --games 1000000 --periods 120 --seed 1 \\
        --extra-games 8000 --repeats 3 --work /tmp/publish-bench

It builds a rated database from a synthetic federation (``bench/generate.py``; import and
rating are not timed, and are cached in ``--work``), plus a copy with one more month
(``--extra-games`` games in the month after the last period, imported and rated), then
measures, each step in a fresh subprocess through the command line's own code
(``ratings.cli.publish``: one read-only unit of work, then the files):

1. ``full``: publish into an empty folder;
2. ``month``: one more month rated, publish over the previous site (only changed pages are
   rewritten);
3. ``again``: publish once more with nothing changed.

Times are medians over ``--repeats`` (each repeat starts from a fresh copy of the previous
site), measured inside the subprocess around the work (interpreter start and imports
excluded); peak memory is that process's ``VmHWM``. The report (Markdown) goes to stdout and,
with ``--report PATH``, to a file.
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
from dataclasses import dataclass, field
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

from paired import peak_rss_mb as _peak_rss_mb  # noqa: E402 (bench/ on the path first)

STEPS = ("full", "month", "again")
STEP_TITLES = {
    "full": "1. publish everything into an empty folder",
    "month": "2. one more month: publish over the previous site",
    "again": "3. publish again, nothing changed",
}
START = date(2015, 1, 1)


def worker(db: Path, site: Path) -> dict[str, Any]:
    """Publish ``db`` into ``site`` as ``ratings publish`` does; time, memory, counts."""
    from ratings.cli import App
    from ratings.cli.publish import run_publish

    app = App(str(db))
    began = time.perf_counter()
    try:
        report = run_publish(app, site, force=False)
    finally:
        app.close()
    seconds = time.perf_counter() - began
    return {
        "seconds": seconds,
        "rss_mb": _peak_rss_mb(),
        "written": report.written,
        "unchanged": report.unchanged,
        "deleted": report.deleted,
        "pages": report.pages,
        "bytes": report.bytes_written,
    }


def _spawn(db: Path, site: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", str(db), str(site)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"publish failed ({done.returncode}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, file=sys.stderr, flush=True)


def _add_months(first: date, months: int) -> date:
    index = first.month - 1 + months
    return date(first.year + index // 12, index % 12 + 1, 1)


def _import_and_rate(db: Path, games_csv: Path) -> None:
    from ratings import service
    from ratings.cli import App
    from ratings.io.csv import read_games_csv

    data = games_csv.read_bytes()
    app = App(str(db))
    try:
        with app.session() as session:
            digest = service.content_hash(data)
            rows = read_games_csv(data, str(games_csv))
            service.import_games(session, rows, str(games_csv), digest)
        with app.session() as session:
            service.rate(session)
    finally:
        app.close()


def build(
    players: int, games: int, periods: int, seed: int, extra_games: int, work: Path, quiet: bool
) -> tuple[Path, Path]:
    """The rated database and the one with a month more (cached in ``work``)."""
    from generate import generate  # bench/generate.py

    from ratings import migrate, service
    from ratings.cli import App
    from ratings.db import SessionFactory, database_url, make_engine
    from ratings.io.csv import read_players_csv
    from ratings.rules import system_config

    key = f"{players}-{games}-{periods}-{seed}-{extra_games}"
    rated = work / f"rated-{key}.db"
    nexted = work / f"next-{key}.db"
    if rated.exists() and nexted.exists():
        return rated, nexted
    data = work / f"data-{players}-{games}-{periods}-{seed}"
    extra = work / f"extra-{players}-{extra_games}-{periods}-{seed}"
    if not (data / "games.csv").exists():
        _say(quiet, f"generating {players} players, {games} games ...")
        generate(players, games, periods, seed, data, START)
    if not (extra / "games.csv").exists():
        generate(players, extra_games, 1, seed, extra, _add_months(START, periods))
    building = work / f"building-{key}.db"
    building.unlink(missing_ok=True)
    url = database_url(str(building))
    migrate.upgrade(url)
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session, session.begin():
        service.create_settings(session, system_config("fide"))
    engine.dispose()
    raw = (data / "players.csv").read_bytes()
    app = App(str(building))
    with app.session() as session:
        service.import_players(
            session, read_players_csv(raw, "players.csv"), "players.csv",
            service.content_hash(raw),
        )  # fmt: skip
    app.close()
    _say(quiet, "importing and rating ...")
    _import_and_rate(building, data / "games.csv")
    shutil.copyfile(building, rated)
    _say(quiet, "one more month ...")
    _import_and_rate(building, extra / "games.csv")
    building.replace(nexted)
    return rated, nexted


@dataclass(slots=True)
class Scale:
    """One scale's measurements."""

    name: str
    players: int
    games: int
    periods: int
    extra_games: int
    runs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def median(self, step: str, key: str = "seconds") -> float:
        """Median of ``key`` over the repeats of ``step``."""
        return statistics.median(r[key] for r in self.runs[step])


def _counts(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("players", "events", "games", "rating_periods", "rating_history")
        }


def measure(
    name: str,
    players: int,
    games: int,
    periods: int,
    seed: int,
    extra_games: int,
    repeats: int,
    work: Path,
    quiet: bool = False,
) -> Scale:
    """Build (or reuse) the databases and measure the three steps."""
    work.mkdir(parents=True, exist_ok=True)
    rated, nexted = build(players, games, periods, seed, extra_games, work, quiet)
    scale = Scale(name, players, games, periods, extra_games, {s: [] for s in STEPS})
    scale.counts = _counts(nexted)
    sites = work / f"sites-{name}"
    shutil.rmtree(sites, ignore_errors=True)
    sites.mkdir()
    base = sites / "base"
    for i in range(repeats):
        site = sites / f"full-{i}"
        _say(quiet, f"  {name}: full publish ({i + 1}/{repeats}) ...")
        scale.runs["full"].append(_spawn(rated, site))
        if i == 0:
            site.rename(base)
        else:
            shutil.rmtree(site)
    for i in range(repeats):
        site = sites / f"month-{i}"
        shutil.copytree(base, site, symlinks=True)
        _say(quiet, f"  {name}: one more month ({i + 1}/{repeats}) ...")
        scale.runs["month"].append(_spawn(nexted, site))
        _say(quiet, f"  {name}: again ({i + 1}/{repeats}) ...")
        scale.runs["again"].append(_spawn(nexted, site))
        shutil.rmtree(site)
    shutil.rmtree(sites, ignore_errors=True)
    return scale


def report(scales: Sequence[Scale], argv: Sequence[str], elapsed: float) -> str:
    """The Markdown report of one run."""
    import sqlalchemy

    lines = [
        f"Run: `python bench/publish.py {' '.join(argv)}`",
        "",
        f"Machine: {os.cpu_count()} cores (`os.cpu_count()`), Python "
        f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}, SQLAlchemy "
        f"{sqlalchemy.__version__}, {platform.machine()}; whole run {elapsed / 60:.1f} min.",
        "",
    ]
    for s in scales:
        c = s.counts
        lines += [
            f"### {s.name}: {s.players:,} players, {s.games:,} games, {s.periods} periods "
            f"(+1 month of {s.extra_games:,} games)",
            "",
            f"Database after the extra month: {c['players']:,} players, {c['events']:,} events, "
            f"{c['games']:,} games, {c['rating_periods']} periods, "
            f"{c['rating_history']:,} history rows.",
            "",
            "| step | median (s) | min (s) | max (s) | files written | unchanged | deleted "
            "| MB written | peak RSS (MB) | repeats |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for step in STEPS:
            runs = s.runs[step]
            times = [r["seconds"] for r in runs]
            lines.append(
                f"| {STEP_TITLES[step]} | {statistics.median(times):.2f} | {min(times):.2f} "
                f"| {max(times):.2f} | {runs[0]['written']:,} | {runs[0]['unchanged']:,} "
                f"| {runs[0]['deleted']:,} | {runs[0]['bytes'] / 2**20:,.0f} "
                f"| {max(r['rss_mb'] for r in runs):.0f} | {len(runs)} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--worker"]:
        print(json.dumps(worker(Path(args[1]), Path(args[2]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--name", default="federation", help="label of this scale in the report")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--periods", type=int, required=True, help="monthly periods")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--extra-games", type=int, default=8000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--work", type=Path, required=True, help="work folder (cache kept)")
    parser.add_argument("--report", type=Path, help="also write the Markdown report here")
    parser.add_argument("--quiet", action="store_true")
    ns = parser.parse_args(args)
    began = time.perf_counter()
    scale = measure(
        ns.name, ns.players, ns.games, ns.periods, ns.seed, ns.extra_games, ns.repeats,
        ns.work, ns.quiet,
    )  # fmt: skip
    text = report([scale], args, time.perf_counter() - began)
    print(text)
    if ns.report is not None:
        ns.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
