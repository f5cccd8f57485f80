"""Benchmark: ``import trf`` of a 52-player open against a 20,000-player register (issue
27: it answers in under 1 s).

Usage::

    python bench/trf_match.py --register 20000 --repeats 5

The file is the project's real ``tests/data/trf/javafo_sample2.trf`` (52 players) with 13 of
its players registered, without FIDE ids and with the accents of their names
(``Argandoña Riveiro, Iñigo`` for the file's ``Argandona Riveiro Inigo``), as in
``tests/register/test_identity_walk.py``; two of them the file abbreviates (``Fco.
Javier``). The rest of the register are the names of bench/fide_list.py's synthetic world
list (seed 3), without FIDE ids, so the matcher has ``--register`` players to look through.
Each case runs the command itself (through click) on a fresh copy of the prepared
database, in a fresh process, timed inside it (interpreter start and imports excluded):

* ``asks``: the import without flags: the matcher stops it before writing, naming the two
  abbreviated players and their candidates (exit 1);
* ``decided``: the same with ``--match`` for the two: the event is stored, 11 players found
  by folded name, 2 by the decisions, 39 created.

Medians over the repeats, with the range.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
try:
    import ratings  # noqa: F401 (checks the package is importable)
except ModuleNotFoundError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(BENCH_DIR.parent))

import fide_list as lists  # noqa: E402  bench/fide_list.py: the synthetic names

TRF = BENCH_DIR.parent / "tests" / "data" / "trf" / "javafo_sample2.trf"
MEMBERS = (
    ("Argandoña Riveiro, Iñigo", 1981), ("Hernández, Elvis", 1981),
    ("Guijarro Galán, José Luis", 1972), ("Sanz Pérez, Eduardo", 1976),
    ("Lakunza Oyarbide, Juan Carlos", 1961), ("Ladrón de Guevara Galar, Francisco Javier", 1961),
    ("Alvarado Fernández, Mikel", 1974), ("Segovia Sánchez, Antonio", 1976),
    ("Rodríguez Cabrera, Francisco Javier", 1971), ("Riesco Lecuona, Juan Manuel", 1959),
    ("Fernández Zubitur, Jokin", 1990), ("Bello Castaño, Diego", 1979),
    ("Iglesias González, Verónica", 1985),
)  # fmt: skip
MATCHES = ("Ladron De Guevara Galar Fco J=6", "Rodriguez Cabrera Fco. Javier=9")
"""The two abbreviated members are the register's players 6 and 9 (they come first)."""


def prepare(folder: Path, register: int) -> Path:
    """A database with the 13 members first, then ``register`` - 13 other players."""
    from ratings.cli import cli
    from ratings.migrate import head_revision

    db = folder / f"trf-match-{register}-{head_revision()}.db"
    if db.exists():
        return db
    players = folder / f"trf-match-{register}.csv"
    with open(players, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["name", "birthdate"])
        for name, year in MEMBERS:
            writer.writerow([name, year])
        seen: set[str] = set()
        for row in lists.players(register * 2, 3):
            if len(seen) >= register - len(MEMBERS):
                break
            if row[1].lower() not in seen:
                seen.add(row[1].lower())
                writer.writerow([row[1], ""])
    work = db.with_suffix(".tmp")
    work.unlink(missing_ok=True)
    cli.main(["--db", str(work), "init"], standalone_mode=False)
    cli.main(["--db", str(work), "import", "players", str(players)], standalone_mode=False)
    work.rename(db)
    return db


def one(db: str, args: list[str]) -> dict[str, Any]:
    """Run the command once (inside a worker process): seconds and exit code."""
    import click

    from ratings.cli import cli

    started = time.perf_counter()
    with (
        open(os.devnull, "w") as sink,
        contextlib.redirect_stdout(sink),
        contextlib.redirect_stderr(sink),
    ):
        try:
            cli.main(["--db", db, "import", "trf", *args], standalone_mode=False)
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        except click.ClickException as exc:  # standalone_mode=False: the command's error
            code = exc.exit_code
    return {"seconds": time.perf_counter() - started, "code": code}


def _spawn(db: Path, args: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=db.parent) as scratch:
        copy = Path(scratch) / "work.db"
        shutil.copyfile(db, copy)
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(copy), *args]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        answer["load"] = os.getloadavg()[0]
    return answer


def run(folder: Path, register: int, repeats: int) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    db = prepare(folder, register)
    match = [arg for m in MATCHES for arg in ("--match", m)]
    cases = {"asks": [str(TRF)], "decided": [str(TRF), *match]}
    results: dict[str, list[dict[str, Any]]] = {label: [] for label in cases}
    for _ in range(repeats):
        for label, args in cases.items():
            results[label].append(_spawn(db, args))
    return {"register": register, "repeats": repeats, "results": results}


def report(measured: dict[str, Any], command: str) -> str:
    lines = [
        f"Run: `{command}`",
        "",
        f"Register {measured['register']:,} players; the file 52 players.",
        "",
        "| case | exit code | seconds (median) | range |",
        "|---|---:|---:|---:|",
    ]
    for label, runs in measured["results"].items():
        seconds = [r["seconds"] for r in runs]
        lines.append(
            f"| {label} | {runs[0]['code']} | {statistics.median(seconds):.2f} | "
            f"{min(seconds):.2f}-{max(seconds):.2f} |"
        )
    loads = [r["load"] for runs in measured["results"].values() for r in runs]
    lines += ["", f"Load average (1 min) after each run: {min(loads):.1f}-{max(loads):.1f}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--register", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/trf-match-bench"))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.worker is not None:
        print(json.dumps(one(args.worker, rest)))
        return 0
    measured = run(args.dir, args.register, args.repeats)
    command = f"python bench/trf_match.py --register {args.register} --repeats {args.repeats}"
    print(report(measured, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
