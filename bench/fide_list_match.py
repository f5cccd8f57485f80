"""Benchmark: ``import fide-list --add`` matching a FIDE list against a register of the same
size, two checkouts in one run (issue 27: within 1.5x of the import before the matcher).

Usage::

    git archive 1762f95 | tar -x -C /tmp/bench-before    # the commit before the matcher
    git archive HEAD | tar -x -C /tmp/bench-after
    python bench/fide_list_match.py --before /tmp/bench-before --after /tmp/bench-after \\
        --players 600000 --repeats 3

The list is bench/fide_list.py's synthetic world list (``--players`` players, seed 1, made
once in ``--dir``). The register has as many players: every other player of the list with
its FIDE id, and as many players without one (a club federation's register): the names of
another synthetic list (seed 2; each name once, names of one word left out), and 1 in 100 of
the list's other players written ``Given Surname`` (the list writes ``Surname, Given``).
Each checkout builds its database with its own code (``ratings init`` and ``ratings import
players``, not timed); then, ``--repeats`` times, interleaved, each checkout's
``bench/fide_list_import.py --worker`` runs ``ratings import fide-list LIST --month 2026-10
--add`` on a fresh copy, in a fresh process, timed inside it (interpreter start and imports
excluded; wall and CPU seconds, peak MB).

Before the matcher the re-spelled players are added a second time (a new record each);
with it they are found by their folded names and take their FIDE ids. The report gives
the medians, the ranges and the ratio after / before.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import fide_list as lists  # noqa: E402  bench/fide_list.py: the synthetic files

MONTH = "2026-10"
RESPELLED = 100
"""1 in this many of the list's players not registered by FIDE id is registered without it,
as ``Given Surname``."""


def register_csv(folder: Path, count: int) -> Path:
    """The players file of the register (see the module docstring), made once."""
    path = folder / f"match-register-{count}.csv"
    if path.exists():
        return path
    listed = lists.players(count, 1)
    others = lists.players(count, 2)
    seen: set[str] = set()  # a name once (a file's namesakes must be told apart)
    work = path.with_suffix(".tmp")
    with open(work, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["name", "fide_id", "birthdate"])
        written = 0
        for index, row in enumerate(listed):
            fide_id, name, birth = row[0], row[1], row[17]
            year = birth if birth != "0" else ""
            if index % 2 == 0:
                writer.writerow([name, fide_id, year])
                seen.add(name.lower())
                written += 1
            elif index % (2 * RESPELLED) == 1 and "," in name:
                surname, given = (part.strip() for part in name.split(",", 1))
                if f"{given} {surname}".lower() not in seen:
                    writer.writerow([f"{given} {surname}", "", year])
                    seen.add(f"{given} {surname}".lower())
                    written += 1
        for row in others:
            if written >= count:
                break
            if "," in row[1] and row[1].lower() not in seen:
                writer.writerow([row[1], "", ""])
                seen.add(row[1].lower())
                written += 1
    work.rename(path)
    return path


SETUP = """
import sys
from ratings.cli import cli

db, players = sys.argv[1], sys.argv[2]
cli.main(["--db", db, "init"], standalone_mode=False)
# the list's players of one name are told apart by their FIDE ids
cli.main(["--db", db, "import", "players", players, "--allow-same-name"], standalone_mode=False)
"""


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def prepare(tree: Path, folder: Path, players: Path, label: str) -> Path:
    """The register's database, built by ``tree``'s own code (once per tree and size)."""
    db = folder / f"match-{label}-{players.stem}.db"
    if db.exists():
        return db
    work = db.with_suffix(".tmp")
    work.unlink(missing_ok=True)
    subprocess.run(
        [sys.executable, "-c", SETUP, str(work), str(players)],
        env=_env(tree),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work.rename(db)
    return db


def _count(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM players").fetchone()[0])
    finally:
        conn.close()


def one(tree: Path, db: Path, args: list[str]) -> dict[str, Any]:
    """One import in a fresh process of ``tree``, on a fresh copy of ``db``."""
    with tempfile.TemporaryDirectory(dir=db.parent) as scratch:
        copy = Path(scratch) / "work.db"
        shutil.copyfile(db, copy)
        worker = tree / "bench" / "fide_list_import.py"
        load = os.getloadavg()[0]
        done = subprocess.run(
            [sys.executable, str(worker), "--worker", str(copy), *args],
            capture_output=True,
            text=True,
            check=False,
            env=_env(tree),
        )
        if done.returncode != 0:
            raise RuntimeError(f"{tree}: {args} failed:\n{done.stderr}")
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        if answer["code"] != 0:
            raise RuntimeError(f"{tree}: exit code {answer['code']}")
        answer["players"] = _count(copy)
        answer["load"] = load
    return answer


def run(before: Path, after: Path, folder: Path, count: int, repeats: int) -> dict[str, Any]:
    paths = lists.generate(folder, count, 1)
    players = register_csv(folder, count)
    dbs = {
        "before": prepare(before, folder, players, "before"),
        "after": prepare(after, folder, players, "after"),
    }
    trees = {"before": before, "after": after}
    args = [str(paths["txt"]), "--month", MONTH, "--add"]
    results: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    for repeat in range(repeats):  # interleaved, the order alternating
        order = ("before", "after") if repeat % 2 == 0 else ("after", "before")
        for label in order:
            results[label].append(one(trees[label], dbs[label], args))
    return {"players": count, "register": _count(dbs["after"]), "repeats": repeats,
            "results": results}  # fmt: skip


def report(measured: dict[str, Any], command: str) -> str:
    lines = [
        f"Run: `{command}`",
        "",
        f"List {measured['players']:,} players; register {measured['register']:,} players.",
        "",
        "| checkout | players after | seconds (median) | range | CPU s (median) | "
        "peak MB (median) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    medians = {}
    for label, runs in measured["results"].items():
        seconds = [r["seconds"] for r in runs]
        cpu = statistics.median(r["cpu"] for r in runs)
        medians[label] = (statistics.median(seconds), cpu)
        lines.append(
            f"| {label} | {runs[0]['players']:,} | {statistics.median(seconds):.1f} | "
            f"{min(seconds):.1f}-{max(seconds):.1f} | {cpu:.1f} | "
            f"{statistics.median(r['peak_mb'] for r in runs):.0f} |"
        )
    pairs = [
        a["seconds"] / b["seconds"]
        for a, b in zip(measured["results"]["after"], measured["results"]["before"], strict=True)
    ]
    loads = [r["load"] for runs in measured["results"].values() for r in runs]
    lines += [
        "",
        f"After / before: {medians['after'][0] / medians['before'][0]:.2f} (medians, wall), "
        f"{medians['after'][1] / medians['before'][1]:.2f} (medians, CPU), "
        f"{statistics.median(pairs):.2f} (median of the pairs). Load average (1 min) as "
        f"each run started: {min(loads):.1f}-{max(loads):.1f}.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--players", type=int, default=600_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/fide-list-match-bench"))
    args = parser.parse_args(argv)
    measured = run(args.before, args.after, args.dir, args.players, args.repeats)
    command = (
        f"python bench/fide_list_match.py --before {args.before} --after {args.after} "
        f"--players {args.players} --repeats {args.repeats}"
    )
    print(report(measured, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
