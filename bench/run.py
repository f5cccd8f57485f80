"""Benchmark: our code against a plain ``sqlite3`` I/O floor, at federation scale (issue 7).

Usage::

    python bench/run.py --players 20000 --games 100000,1000000 --periods 120 --seed 1

For each number of games it generates a synthetic federation (``bench/generate.py``) and an
extra period of ``--extra-games`` games (generated separately, the month after the last one),
then measures five things, for our code and for the floor:

1. ``import``: importing all games (CSV -> database);
2. ``rate``: rating every period from scratch;
3. ``next``: rating one more period on top of the full history (median of ``--repeats``);
4. ``rerate``: re-rating after a correction in period 2 (one game's result turned round);
5. peak memory: the peak RSS (``VmHWM``) of the process that ran each step.

Steps 1, 2 and 4 run ``--heavy-repeats`` times (default 1); times are medians over the
repeats, and a step's ratio is the median of the ratios of its back-to-back pairs.

Our code runs through the service functions, one transaction per command, exactly as the CLI
does (``ratings.cli.App.session``: schema check, one session, commit). The floor
(``bench/floor.py``) does the same reads and writes with the stdlib ``sqlite3`` module and
``executemany``, on the same schema (built by our migrations) and the same data, with no
checks and no rating arithmetic. Each step runs in a fresh subprocess (so its peak RSS is its
own); the time is measured inside the subprocess around the work (interpreter start and module
imports excluded for both). Ours and the floor run back to back, so their ratio is measured
under the same machine load.

The report (Markdown) goes to stdout and, with ``--report PATH``, to a file.
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
import tempfile
import time
from collections.abc import Callable, Sequence
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

STEPS = ("import", "rate", "next", "rerate")
"""The measured steps, in order (peak memory is measured for each)."""

STEP_TITLES = {
    "import": "1. import all games (CSV -> db)",
    "rate": "2. rate every period from scratch",
    "next": "3. rate one more period",
    "rerate": "4. re-rate after a correction in period 2",
}


# --- the steps, run inside a worker subprocess ---------------------------------------------


def _peak_rss_mb() -> float:
    """This process's peak resident set size in MB (VmHWM; ru_maxrss where /proc is absent)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _ours(step: str, db: Path, arg: str) -> dict[str, Any]:
    """Run one step with our code, as the CLI does. Returns what it did."""
    from ratings import service
    from ratings.cli import App
    from ratings.io.csv import read_games_csv
    from ratings.results import Result

    app = App(str(db))
    try:
        if step == "import":
            path = Path(arg)
            data = path.read_bytes()
            with app.session() as session:
                digest = service.content_hash(data)
                service.check_not_imported(session, digest, str(path))
                rows = read_games_csv(data, str(path))
                report = service.import_games(session, rows, str(path), digest)
            return {"games": report.games}
        if step == "rerate":
            with app.session() as session:
                game = service.get_game(session, int(arg))
                turned = {Result.WHITE_WIN: Result.BLACK_WIN, Result.BLACK_WIN: Result.WHITE_WIN}
                service.edit_game(session, game.id, result=turned.get(game.result, Result.DRAW))
        with app.session() as session:
            rated = service.rate(session)
        return {
            "periods": len(rated.rated) + len(rated.rerated),
            "games": rated.games,
            "changed": len(rated.changed),
        }
    finally:
        app.close()


def worker(kind: str, step: str, db: Path, arg: str) -> dict[str, Any]:
    """Run one step (ours or the floor's) and return its time, peak RSS and counts."""
    import floor  # bench/floor.py

    if kind == "ours":
        # imported before the clock starts, as the floor's modules are
        import ratings.cli
        import ratings.io.csv
        import ratings.service  # noqa: F401

    run: Callable[[str, Path, str], dict[str, Any]] = _ours if kind == "ours" else floor.run_step
    began = time.perf_counter()
    info = run(step, db, arg)
    seconds = time.perf_counter() - began
    return {"seconds": seconds, "rss_mb": _peak_rss_mb(), **info}


# --- the driver -----------------------------------------------------------------------------


@dataclass(slots=True)
class Measure:
    """One step, measured for ours and the floor (every repeat kept)."""

    step: str
    ours: list[dict[str, Any]] = field(default_factory=list)
    floor: list[dict[str, Any]] = field(default_factory=list)

    def seconds(self, kind: str) -> float:
        """Median time over the repeats."""
        return statistics.median(r["seconds"] for r in getattr(self, kind))

    def rss(self, kind: str) -> float:
        """Largest peak RSS over the repeats."""
        return max(r["rss_mb"] for r in getattr(self, kind))

    def ratio(self) -> float:
        """Median over the repeats of ours / floor, each pair measured back to back."""
        return statistics.median(
            o["seconds"] / f["seconds"] for o, f in zip(self.ours, self.floor, strict=True)
        )


@dataclass(slots=True)
class SizeResult:
    """All steps at one number of games."""

    games: int
    measures: dict[str, Measure]
    rows: dict[str, int]


def _spawn(kind: str, step: str, db: Path, arg: str = "") -> dict[str, Any]:
    """Run one step in a fresh Python process; returns its JSON answer."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", kind, step, str(db), arg],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{kind} {step} failed ({done.returncode}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def _add_months(first: date, months: int) -> date:
    index = first.month - 1 + months
    return date(first.year + index // 12, index % 12 + 1, 1)


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, file=sys.stderr, flush=True)


def _counts(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("players", "events", "games", "rating_history", "rating_breakdown")
        }


def _rows_written(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        history = conn.execute("SELECT count(*) FROM rating_history").fetchone()[0]
        breakdown = conn.execute("SELECT count(*) FROM rating_breakdown").fetchone()[0]
    return history, breakdown


def run_size(
    players: int,
    games: int,
    periods: int,
    seed: int,
    extra_games: int,
    repeats: int,
    work: Path,
    quiet: bool = False,
    heavy_repeats: int = 1,
) -> SizeResult:
    """Generate one federation and measure every step on it."""
    from generate import generate  # bench/generate.py

    from ratings import migrate, service
    from ratings.cli import App
    from ratings.db import SessionFactory, database_url, make_engine
    from ratings.io.csv import read_players_csv
    from ratings.rules import system_config

    start = date(2015, 1, 1)
    data = work / f"data-{players}-{games}-{periods}-{seed}"
    extra = work / f"extra-{players}-{extra_games}-{periods}-{seed}"
    if not (data / "games.csv").exists():
        _say(quiet, f"generating {games} games ...")
        generate(players, games, periods, seed, data, start)
    if not (extra / "games.csv").exists():
        # the same seed and player count give the same players (and references)
        generate(players, extra_games, 1, seed, extra, _add_months(start, periods))
    db_dir = work / f"db-{games}"
    db_dir.mkdir(parents=True, exist_ok=True)

    template = db_dir / "players.db"
    template.unlink(missing_ok=True)
    url = database_url(str(template))
    migrate.upgrade(url)
    engine = make_engine(url)
    with SessionFactory(bind=engine) as session, session.begin():
        service.create_settings(session, system_config("fide"))
    engine.dispose()
    players_csv = data / "players.csv"
    raw = players_csv.read_bytes()
    app = App(str(template))
    with app.session() as session:
        service.import_players(
            session, read_players_csv(raw, str(players_csv)), str(players_csv),
            service.content_hash(raw),
        )  # fmt: skip
    app.close()

    measures = {step: Measure(step) for step in STEPS}
    ours_db = db_dir / "ours.db"
    floor_db = db_dir / "floor.db"

    def pair(step: str, before: Path, arg: str, keep: Path | None = None) -> None:
        """Ours then the floor, each on a fresh copy of ``before``."""
        shutil.copyfile(before, ours_db)
        _say(quiet, f"  {games} games: {step} (ours) ...")
        measures[step].ours.append(_spawn("ours", step, ours_db, arg))
        if keep is not None:
            shutil.copyfile(ours_db, keep)
        shutil.copyfile(before, floor_db)
        _say(quiet, f"  {games} games: {step} (floor) ...")
        measures[step].floor.append(_spawn("floor", step, floor_db, arg))

    imported = db_dir / "imported.db"
    for _ in range(heavy_repeats):
        pair("import", template, str(data / "games.csv"), keep=imported)
    rated = db_dir / "rated.db"
    for _ in range(heavy_repeats):
        pair("rate", imported, "", keep=rated)
    rows = dict(zip(("history_rows", "breakdown_rows"), _rows_written(rated), strict=True))
    floor_history, floor_breakdown = _rows_written(floor_db)
    rows |= {"floor_history_rows": floor_history, "floor_breakdown_rows": floor_breakdown}

    # one more period: its games are imported (not timed), then rated, ``repeats`` times
    with_extra = db_dir / "with-extra.db"
    shutil.copyfile(rated, with_extra)
    _spawn("ours", "import", with_extra, str(extra / "games.csv"))
    nexted = db_dir / "next.db"
    for _ in range(repeats):
        pair("next", with_extra, "", keep=nexted)

    with sqlite3.connect(nexted) as conn:
        game_id = conn.execute(
            "SELECT g.id FROM games g JOIN events e ON e.id = g.event_id "
            "WHERE e.end_date >= ? AND e.end_date < ? AND g.rateable AND g.result <> '1/2-1/2' "
            "ORDER BY g.id LIMIT 1",
            (_add_months(start, 1).isoformat(), _add_months(start, 2).isoformat()),
        ).fetchone()[0]
    for _ in range(heavy_repeats):
        pair("rerate", nexted, str(game_id))
    rows |= {f"final_{k}": v for k, v in _counts(ours_db).items()}
    rows["db_mb"] = ours_db.stat().st_size // 2**20
    return SizeResult(games, measures, rows)


def report(
    results: Sequence[SizeResult],
    players: int,
    periods: int,
    seed: int,
    extra_games: int,
    repeats: int,
    elapsed: float,
    heavy_repeats: int = 1,
) -> str:
    """The Markdown report of one run."""
    import sqlalchemy

    cores = os.cpu_count()
    lines = [
        f"Run: `python bench/run.py --players {players} --games "
        f"{','.join(str(r.games) for r in results)} --periods {periods} --seed {seed} "
        f"--extra-games {extra_games} --repeats {repeats} --heavy-repeats {heavy_repeats}`",
        "",
        f"Machine: {cores} cores (`os.cpu_count()`), Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, SQLAlchemy {sqlalchemy.__version__}, "
        f"{platform.machine()}; whole run {elapsed / 60:.1f} min.",
        "",
    ]
    for result in results:
        lines += [
            f"### {players:,} players, {result.games:,} games, {periods} periods",
            "",
            "| step | ours (s) | floor (s) | ours / floor | ours peak RSS (MB) "
            "| floor peak RSS (MB) | repeats |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for step in STEPS:
            m = result.measures[step]
            lines.append(
                f"| {STEP_TITLES[step]} | {m.seconds('ours'):.2f} | {m.seconds('floor'):.2f} "
                f"| {m.ratio():.2f}x | {m.rss('ours'):.0f} | {m.rss('floor'):.0f} "
                f"| {len(m.ours)} |"
            )
        r = result.rows
        lines += [
            "",
            f"Rows written by rating from scratch: ours {r['history_rows']:,} history + "
            f"{r['breakdown_rows']:,} breakdown; floor {r['floor_history_rows']:,} + "
            f"{r['floor_breakdown_rows']:,} (the floor writes two breakdown rows for every "
            "rated game; ours none for a side whose opponent is unrated). Final database: "
            f"{r['final_games']:,} games, {r['final_rating_history']:,} history rows, "
            f"{r['final_rating_breakdown']:,} breakdown rows, {r['db_mb']:,} MB.",
            "",
        ]
    if len(results) > 1:
        small, large = results[0], results[-1]
        factor = large.games / small.games
        lines += [
            f"### Scaling: {small.games:,} -> {large.games:,} games ({factor:g}x)",
            "",
            "| step | ours time ratio | floor time ratio |",
            "|---|---:|---:|",
        ]
        for step in STEPS:
            a, b = small.measures[step], large.measures[step]
            lines.append(
                f"| {STEP_TITLES[step]} | {b.seconds('ours') / a.seconds('ours'):.2f}x "
                f"| {b.seconds('floor') / a.seconds('floor'):.2f}x |"
            )
        lines.append("")
    return "\n".join(lines)


def run(
    players: int,
    games: Sequence[int],
    periods: int,
    seed: int = 1,
    extra_games: int = 8000,
    repeats: int = 3,
    keep: Path | None = None,
    quiet: bool = False,
    heavy_repeats: int = 1,
) -> tuple[list[SizeResult], str]:
    """Measure every size; returns the results and the Markdown report."""
    began = time.perf_counter()
    work = keep if keep is not None else Path(tempfile.mkdtemp(prefix="ratings-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        results = [
            run_size(players, n, periods, seed, extra_games, repeats, work, quiet, heavy_repeats)
            for n in games
        ]
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    text = report(
        results,
        players,
        periods,
        seed,
        extra_games,
        repeats,
        time.perf_counter() - began,
        heavy_repeats,
    )
    return results, text


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--worker"]:
        kind, step, db, arg = args[1:5]
        print(json.dumps(worker(kind, step, Path(db), arg)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument(
        "--games",
        required=True,
        help="number of games; several comma-separated sizes show the scaling",
    )
    parser.add_argument("--periods", type=int, required=True, help="monthly periods")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--extra-games", type=int, default=8000, help="games of the extra period (default 8000)"
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="repeats of the cheap step 3 (default 3)"
    )
    parser.add_argument(
        "--heavy-repeats",
        type=int,
        default=1,
        help="repeats of steps 1, 2 and 4 (default 1)",
    )
    parser.add_argument("--keep", type=Path, help="work folder to keep (data and databases)")
    parser.add_argument("--report", type=Path, help="also write the Markdown report here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(args)
    sizes = [int(n) for n in ns.games.split(",")]
    _, text = run(
        ns.players,
        sizes,
        ns.periods,
        ns.seed,
        ns.extra_games,
        ns.repeats,
        ns.keep,
        ns.quiet,
        ns.heavy_repeats,
    )
    print(text)
    if ns.report is not None:
        ns.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
