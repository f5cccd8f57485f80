"""Benchmark: one more month on a register of FIDE's size (issue 16, item 2).

Usage::

    python bench/world.py --players 600000 --periods 12 --month-games 85000 --repeats 3

It generates a federation of ``--players`` players with ``--periods`` months of
``--month-games`` games each (``bench/generate.py``), imports the players and the games and
rates every period (each step timed once, in a fresh process, as ``bench/run.py`` times its
steps), then measures the monthly routine on top of that history ``--repeats`` times, each
on a fresh copy of the rated database: importing one more month of games, and rating it.

The cost of a month depends on the register's size (every registered player gets a list row
each period), on the month's games, and on the depth of the history too: measured on SQLite,
the same month took about 10 s on 14 months of history and about 22 s on ten years (a 9.7 GB
file, whose B-trees every insert walks; bench/RESULTS.md). The report gives the times, the
peak RSS of each step's process, the database size and its row counts.
``settings.closing_days`` is 0 (as in ``bench/before_after.py``): the month is rated as one
new period.

With ``--floors`` the floor (``bench/floor.py``; ``bench/floor_pg.py`` on PostgreSQL) also
imports and rates the history on its own copy of the register, and each month is also
imported and rated by the floor and by the minimal floor (``bench/floor_minimal.py``, SQLite
only) on fresh copies of our rated history; the report adds their times and the ratios.

With ``--db-url postgresql+psycopg://USER@HOST:PORT/DBNAME`` the databases are made on that
PostgreSQL server instead, as ``bench/run.py --db-url`` makes them (``ratings_bench_<pid>_<n>_
world`` for the rated history, ``..._month`` for the copy a month is added to, copied with
``CREATE DATABASE ... TEMPLATE``); they are dropped at the end unless ``--keep`` is given,
when the report names them (``bench/world_queries.py --db-url`` reads them).
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

START = date(2015, 1, 1)


def _registered(dbs: bench_run.Databases, players_csv: Path) -> str:
    """A database at head with the FIDE settings and the players imported; its target."""
    db = dbs.create("world")
    # closing_days 0: an event ending on a month's last days is rated in that month, so the
    # history is exactly its periods and the new month one new period (with the default 3
    # days, the history's rate would also rate the new month's first days, and the month's
    # rate would re-rate that period)
    bench_run.register_players(db, players_csv, closing_days=0)
    return db


def _counts(dbs: bench_run.Databases, name: str) -> dict[str, int]:
    return {
        table: dbs.query(name, f"SELECT count(*) FROM {table}")[0][0]
        for table in ("players", "games", "rating_history", "rating_breakdown")
    }


def measure(players: int, periods: int, month_games: int, seed: int, repeats: int, work: Path,
            quiet: bool = False, db_url: str | None = None,
            keep_databases: bool = False, floors: bool = False) -> dict[str, Any]:  # fmt: skip
    """Build the history and time the monthly routine; returns every figure. With ``db_url``
    on that PostgreSQL server (its databases dropped at the end unless ``keep_databases``).
    With ``floors``, the floor (``bench/floor.py``, or ``bench/floor_pg.py``) also imports and
    rates the history on a copy of the register, and imports and rates each month on a copy
    of our rated history, as does the minimal floor (``bench/floor_minimal.py``, SQLite
    only)."""
    from generate import generate  # bench/generate.py

    say = bench_run._say
    began = time.perf_counter()
    say(quiet, f"generating {players} players, {periods} x {month_games} games ...")
    history = generate(players, periods * month_games, periods, seed, work / "history", START)
    # the same seed and player count give the same players, one month later
    month = generate(
        players, month_games, 1, seed, work / "month", bench_run._add_months(START, periods)
    )
    dbs: bench_run.Databases = (
        bench_run.SqliteDatabases(work) if db_url is None else bench_run.PgDatabases(db_url)
    )
    try:
        say(quiet, "importing the players ...")
        db = _registered(dbs, history.players_csv)
        if floors:
            dbs.copy("world", "floor")  # the register only: the floor's own history
        say(quiet, "importing the history ...")
        figures: dict[str, Any] = {
            "history_import": bench_run._spawn("ours", "import", db, str(history.games_csv))
        }
        say(quiet, "rating the history ...")
        figures["history_rate"] = bench_run._spawn("ours", "rate", db, "")
        if floors:
            say(quiet, "the floor: importing and rating the history ...")
            floor_db = dbs.target("floor")
            figures["floor_history_import"] = bench_run._spawn(
                "floor", "import", floor_db, str(history.games_csv)
            )
            figures["floor_history_rate"] = bench_run._spawn("floor", "rate", floor_db, "")
        figures["history_rows"] = _counts(dbs, "world")
        figures["history_db_mb"] = dbs.size_mb("world")
        runs: list[dict[str, Any]] = []
        for attempt in range(repeats):
            dbs.copy("world", "month")
            say(quiet, f"one more month, run {attempt + 1} ...")
            copy = dbs.target("month")
            imported = bench_run._spawn("ours", "import", copy, str(month.games_csv))
            rated = bench_run._spawn("ours", "rate", copy, "")
            run: dict[str, Any] = {"import": imported, "rate": rated}
            for kind in ("floor", "minimal") if floors else ():
                if kind == "minimal" and db_url is not None:
                    continue  # the minimal floor is SQLite's only
                dbs.copy("world", "month")
                run[f"{kind}_import"] = bench_run._spawn(kind, "import", copy, str(month.games_csv))
                run[f"{kind}_rate"] = bench_run._spawn(kind, "next", copy, "")
            runs.append(run)
        figures["month_runs"] = runs
        if floors:
            dbs.copy("world", "month")  # the counts and size below are ours
            bench_run._spawn("ours", "import", dbs.target("month"), str(month.games_csv))
            bench_run._spawn("ours", "rate", dbs.target("month"), "")
        figures["month_rows"] = _counts(dbs, "month")
        figures["month_db_mb"] = dbs.size_mb("month")
        figures["server"] = None if db_url is None else bench_run.PgDatabases(db_url).server()
        figures["kept"] = (
            [dbs.target(n) for n in ("world", "month")] if db_url and keep_databases else []
        )
    finally:
        if db_url is None or not keep_databases:
            dbs.close()
    figures["elapsed_min"] = (time.perf_counter() - began) / 60
    return figures


def report(figures: dict[str, Any], argv: Sequence[str]) -> str:
    """The Markdown report."""
    runs = figures["month_runs"]
    imports = [r["import"]["seconds"] for r in runs]
    rates = [r["rate"]["seconds"] for r in runs]
    totals = [i + r for i, r in zip(imports, rates, strict=True)]
    rows = figures["month_rows"]
    return "\n".join(
        [
            f"Run: `python bench/world.py {' '.join(argv)}`",
            "",
            f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, SQLite "
            f"{sqlite3.sqlite_version}; load average at the end {os.getloadavg()[0]:.2f}; "
            f"whole run {figures['elapsed_min']:.1f} min.",
            *_backend(figures),
            "",
            "| step | time (s) | peak RSS (MB) |",
            "|---|---:|---:|",
            f"| import the history ({figures['history_rows']['games']:,} games) | "
            f"{figures['history_import']['seconds']:.1f} | "
            f"{figures['history_import']['rss_mb']:.0f} |",
            f"| rate the history ({figures['history_rate']['periods']} periods) | "
            f"{figures['history_rate']['seconds']:.1f} | "
            f"{figures['history_rate']['rss_mb']:.0f} |",
            f"| one more month: import (median of {len(runs)}; "
            f"{', '.join(f'{t:.1f}' for t in imports)}) | {statistics.median(imports):.1f} | "
            f"{max(r['import']['rss_mb'] for r in runs):.0f} |",
            f"| one more month: rate (median of {len(runs)}; "
            f"{', '.join(f'{t:.1f}' for t in rates)}) | {statistics.median(rates):.1f} | "
            f"{max(r['rate']['rss_mb'] for r in runs):.0f} |",
            f"| one more month: import + rate (median) | {statistics.median(totals):.1f} | |",
            *_floors(figures),
            "",
            f"After the month: {rows['players']:,} players, {rows['games']:,} games, "
            f"{rows['rating_history']:,} list rows, {rows['rating_breakdown']:,} breakdown "
            f"rows; database {figures['month_db_mb']:,.0f} MB "
            f"({figures['history_db_mb']:,.0f} MB before the month).",
            *_kept(figures["kept"]),
        ]
    )


def _floors(figures: dict[str, Any]) -> list[str]:
    """The report's table of the floors' times against ours, if they were run: medians, and
    the median of the ratios of each run's pair."""
    if "floor_history_rate" not in figures:
        return []
    runs = figures["month_runs"]
    lines = [
        "",
        "| step | ours (s) | floor (s) | ours / floor |",
        "|---|---:|---:|---:|",
    ]
    for step in ("import", "rate"):
        ours, theirs = figures[f"history_{step}"], figures[f"floor_history_{step}"]
        lines.append(
            f"| {step} the history | {ours['seconds']:.1f} | {theirs['seconds']:.1f} | "
            f"{ours['seconds'] / theirs['seconds']:.2f}x |"
        )
    for kind in ("floor", "minimal"):
        if f"{kind}_rate" not in runs[0]:
            continue
        for step in ("import", "rate"):
            ours = [r[step]["seconds"] for r in runs]
            theirs = [r[f"{kind}_{step}"]["seconds"] for r in runs]
            ratios = [o / t for o, t in zip(ours, theirs, strict=True)]
            name = "the floor" if kind == "floor" else "the minimal floor"
            lines.append(
                f"| one more month: {step}, against {name} | "
                f"{statistics.median(ours):.2f} | {statistics.median(theirs):.2f} | "
                f"{statistics.median(ratios):.2f}x |"
            )
    return lines


def _kept(urls: Sequence[str]) -> list[str]:
    """The report's line naming the PostgreSQL databases kept, if any (passwords hidden)."""
    from ratings.db import url_for_messages

    return ["", "Databases kept: " + ", ".join(map(url_for_messages, urls))] if urls else []


def _backend(figures: dict[str, Any]) -> list[str]:
    """The report's line on the PostgreSQL server, if the run was on one."""
    if figures.get("server") is None:
        return []
    version, fsync = figures["server"]
    return [
        "",
        f"Backend: PostgreSQL {version} (`SHOW fsync`: {fsync}); peak RSS is of the client "
        "worker process only (the server's memory is not counted); sizes are "
        "`pg_database_size`.",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, required=True, help="registered players")
    parser.add_argument("--periods", type=int, required=True, help="months of history")
    parser.add_argument("--month-games", type=int, required=True, help="games per month")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of the month (default 3)")
    parser.add_argument(
        "--keep", type=Path, help="work folder to keep (and the PostgreSQL databases)"
    )
    parser.add_argument(
        "--db-url",
        help="build on this PostgreSQL server (postgresql+psycopg://USER@HOST:PORT/DBNAME; "
        "databases are created beside DBNAME); default: SQLite files in the work folder",
    )
    parser.add_argument(
        "--floors",
        action="store_true",
        help="also time the floor (history and months) and the minimal floor (months, SQLite)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(args)
    work = ns.keep if ns.keep is not None else Path(tempfile.mkdtemp(prefix="world-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        figures = measure(
            ns.players, ns.periods, ns.month_games, ns.seed, ns.repeats, work, ns.quiet,
            ns.db_url, keep_databases=ns.keep is not None, floors=ns.floors,
        )  # fmt: skip
        print(report(figures, args))
    finally:
        if ns.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
