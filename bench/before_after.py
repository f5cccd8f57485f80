"""Benchmark: the rate and re-rate steps of two checkouts of ratings, in one run (issue 13).

Usage::

    git worktree add --detach /tmp/bench-before <commit before the engine rewrite>
    git worktree add --detach /tmp/bench-after HEAD
    python bench/before_after.py --before /tmp/bench-before --after /tmp/bench-after \\
        --players 20000 --games 100000 --periods 120 --seed 1 --repeats 5

Both checkouts get the same generated federation (``bench/generate.py`` of this checkout),
each builds its own database with its own migrations and imports the games with its own code
(not timed); ``settings.closing_days`` (schema 0004, 3 on a new FIDE database) is set to 0, so
that both checkouts rate the same periods. Then, ``--repeats`` times, interleaved (the order
of the two checkouts alternates from one repeat to the next), each checkout's own
``bench/run.py --worker ours`` runs:

- ``rate``: rating every period from scratch, on a fresh copy of that checkout's imported
  database;
- ``rerate``: one result of period 2 turned round, then ``rate`` (every later period re-rated),
  on a fresh copy of that checkout's rated database;
- ``import`` (only when ``--steps`` names it): the games CSV imported, as ``import games``
  does, on a fresh copy of that checkout's database holding the register only.

Each step runs in a fresh subprocess with ``PYTHONPATH`` set to its checkout; its time is
measured inside the subprocess around the work (imports excluded), as in ``bench/run.py``.
The report gives the medians, the ranges and the ratio after / before (median of the ratios of
the pairs measured back to back, and the ratio of the medians).
"""

from __future__ import annotations

import argparse
import json
import os
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

SETUP = """
import sys
from pathlib import Path
from ratings import migrate, service
from ratings.cli import App
from ratings.db import SessionFactory, database_url, make_engine
from ratings.io.csv import read_players_csv
from ratings.rules import system_config

template, players_csv = Path(sys.argv[1]), Path(sys.argv[2])
url = database_url(str(template))
migrate.upgrade(url)
engine = make_engine(url)
with SessionFactory(bind=engine) as session, session.begin():
    service.create_settings(session, system_config("fide"))
engine.dispose()
raw = players_csv.read_bytes()
app = App(str(template))
with app.session() as session:
    service.import_players(
        session, read_players_csv(raw, str(players_csv)), str(players_csv),
        service.content_hash(raw),
    )
app.close()
"""
"""Run in each checkout: a database at its own head revision with the players imported."""


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def _run(tree: Path, args: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        check=False,
        env=_env(tree),
        cwd=tree,  # ``python -c`` puts the working folder first on sys.path
    )
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: {args[:3]} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def _worker(tree: Path, step: str, db: Path, arg: str = "") -> dict[str, Any]:
    """One step of ``tree``'s own ``bench/run.py`` worker; its JSON answer."""
    out = _run(tree, [str(tree / "bench" / "run.py"), "--worker", "ours", step, str(db), arg])
    answer: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return answer


def _same_periods(db: Path) -> None:
    """No closing days (schema 0004 gives new FIDE databases 3): the periods of revision 0001."""
    with sqlite3.connect(db) as conn:
        if any(row[1] == "closing_days" for row in conn.execute("PRAGMA table_info(settings)")):
            conn.execute("UPDATE settings SET closing_days = 0")


def _game_to_turn(db: Path, start: date) -> int:
    """The first decisive rateable game of period 2 (the column's name differs by revision)."""
    with sqlite3.connect(db) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        flag = "rateable" if "rateable" in columns else "rated"
        row = conn.execute(
            "SELECT g.id FROM games g JOIN events e ON e.id = g.event_id "
            f"WHERE e.end_date >= ? AND e.end_date < ? AND g.{flag} "
            "AND g.result <> '1/2-1/2' ORDER BY g.id LIMIT 1",
            (date(start.year, start.month + 1, 1).isoformat(),
             date(start.year, start.month + 2, 1).isoformat()),
        ).fetchone()  # fmt: skip
    return int(row[0])


def _head(tree: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(tree), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip()[:100]


def run(
    before: Path,
    after: Path,
    players: int,
    games: int,
    periods: int,
    seed: int,
    repeats: int,
    work: Path,
    steps: Sequence[str] = ("rate", "rerate"),
    reuse: bool = False,
) -> str:
    """Measure both checkouts; returns the Markdown report."""
    sys.path.insert(0, str(BENCH_DIR))
    from generate import generate  # bench/generate.py

    began = time.perf_counter()
    start = date(2015, 1, 1)
    data = work / f"data-{players}-{games}-{periods}-{seed}"
    if not (data / "games.csv").exists():
        print(f"generating {games} games ...", file=sys.stderr, flush=True)
        generate(players, games, periods, seed, data, start)
    trees = {"before": before, "after": after}
    imported: dict[str, Path] = {}
    rated: dict[str, Path] = {}
    turned: dict[str, int] = {}
    for name, tree in trees.items():
        folder = work / name
        folder.mkdir(parents=True, exist_ok=True)
        imported[name], rated[name] = folder / "imported.db", folder / "rated.db"
        if (
            reuse
            and imported[name].exists()
            and rated[name].exists()
            and (folder / "players.db").exists()
        ):
            turned[name] = _game_to_turn(rated[name], start)
            continue
        template = folder / "players.db"
        template.unlink(missing_ok=True)
        print(f"{name}: database and import ...", file=sys.stderr, flush=True)
        _run(tree, ["-c", SETUP, str(template), str(data / "players.csv")])
        _same_periods(template)
        shutil.copyfile(template, folder / "register.db")
        _worker(tree, "import", template, str(data / "games.csv"))
        shutil.copyfile(template, imported[name])
        shutil.move(folder / "register.db", folder / "players.db")  # the step "import" starts here
        if "import" in steps and len(steps) == 1:
            turned[name] = 0  # only the import is measured: no rated database needed
            continue
        _worker(tree, "rate", template)
        shutil.copyfile(template, rated[name])
        turned[name] = _game_to_turn(rated[name], start)

    results: dict[str, dict[str, list[dict[str, Any]]]] = {
        step: {name: [] for name in trees} for step in steps
    }
    for repeat in range(repeats):
        order = list(trees) if repeat % 2 == 0 else list(reversed(trees))
        for step in steps:
            for name in order:
                db = work / name / "work.db"
                source = {"import": work / name / "players.db", "rate": imported[name]}
                shutil.copyfile(source.get(step, rated[name]), db)
                print(f"repeat {repeat + 1}: {step} ({name}) ...", file=sys.stderr, flush=True)
                arg = {"rate": "", "import": str(data / "games.csv")}.get(step, str(turned[name]))
                done = _worker(trees[name], step, db, arg)
                results[step][name].append({"periods": 0, "changed": 0, **done})
    elapsed = time.perf_counter() - began

    lines = [
        f"Run: `python bench/before_after.py --before {before} --after {after} "
        f"--players {players} --games {games} --periods {periods} --seed {seed} "
        f"--repeats {repeats} --steps {','.join(steps)}{' --reuse' if reuse else ''}`",
        "",
        f"- before: `{_head(before)}`",
        f"- after: `{_head(after)}`",
        f"- machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"SQLite {sqlite3.sqlite_version}; whole run {elapsed / 60:.1f} min",
        "",
        "| step | before (s, median) | range | after (s, median) | range "
        "| after / before (median of pairs) | ratio of medians | periods, games, changed |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for step, by_tree in results.items():
        b = [r["seconds"] for r in by_tree["before"]]
        a = [r["seconds"] for r in by_tree["after"]]
        pairs = statistics.median(x / y for x, y in zip(a, b, strict=True))
        counts = "; ".join(
            f"{name} {r['periods']}, {r['games']}, {r['changed']}"
            for name, r in ((n, by_tree[n][0]) for n in trees)
        )
        lines.append(
            f"| {step} | {statistics.median(b):.2f} | {min(b):.2f}-{max(b):.2f} "
            f"| {statistics.median(a):.2f} | {min(a):.2f}-{max(a):.2f} "
            f"| {pairs:.3f}x | {statistics.median(a) / statistics.median(b):.3f}x | {counts} |"
        )
    lines += ["", "Every time (s): " + json.dumps(
        {step: {n: [round(r["seconds"], 2) for r in rs] for n, rs in bt.items()}
         for step, bt in results.items()}
    )]  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--before", type=Path, required=True, help="checkout before")
    parser.add_argument("--after", type=Path, required=True, help="checkout after")
    parser.add_argument("--players", type=int, default=20000)
    parser.add_argument("--games", type=int, default=100000)
    parser.add_argument("--periods", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path("/tmp/ratings-before-after"))
    parser.add_argument(
        "--steps",
        default="rate,rerate",
        help="comma-separated: import (the games CSV into the register), rate, rerate "
        "(default rate,rerate)",
    )
    parser.add_argument(
        "--reuse", action="store_true", help="keep the databases an earlier run left in --work"
    )
    parser.add_argument("--report", type=Path, help="also write the Markdown report here")
    ns = parser.parse_args(argv)
    ns.work.mkdir(parents=True, exist_ok=True)
    text = run(
        ns.before.resolve(), ns.after.resolve(), ns.players, ns.games, ns.periods, ns.seed,
        ns.repeats, ns.work, ns.steps.split(","), ns.reuse,
    )  # fmt: skip
    print(text)
    if ns.report is not None:
        ns.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
