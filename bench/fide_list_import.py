"""Benchmark: the whole ``ratings import fide-list`` of FIDE's world list (issue 12, item 2).

Usage::

    python bench/fide_list_import.py --players 1100000 --register 20000 --repeats 5

The synthetic world list is bench/fide_list.py's (FIDE's size and layout, the same files,
made in ``--dir`` once and reused). Each case runs the command itself (``ratings --db DB
import fide-list FILE --month 2026-10 ...``, through click, its printed changes sent to
/dev/null) on a fresh copy of a prepared database, in a fresh Python process; its time is
measured inside that process around the command (interpreter start and imports excluded),
its peak memory is the process's ``VmHWM``. The cases:

* ``refresh``: a register of ``--register`` players whose FIDE ids are on the list (every
  n-th player of it; half of them with an entry rating that differs from FIDE's, none with
  FIDE's K yet), the default (registered players only): the file is read whole, the
  register matched, every change printed and logged;
* ``--add``: an empty database, the whole list registered (1.1 million new players);
* ``--add --federation IRL``: one federation of the zipped list into an empty database.

Medians over the repeats are reported, with the range; the Markdown report goes to stdout
(and to ``--report PATH``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import platform
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

import fide_list as lists  # noqa: E402  bench/fide_list.py: the synthetic files

MONTH = "2026-10"


def _prepare(folder: Path, paths: dict[str, Path], count: int, register: int) -> dict[str, Path]:
    """The databases the cases start from: empty, and with ``register`` players of the list."""
    from ratings.cli import cli
    from ratings.migrate import head_revision

    # named by schema revision: a database prepared by older code is never reused
    head = head_revision()
    empty = folder / f"empty-{head}.db"
    registered = folder / f"register-{register}-of-{count}-{head}.db"
    for db in (empty, registered):
        if db.exists():
            continue
        work = db.with_suffix(".tmp")
        work.unlink(missing_ok=True)
        cli.main(["--db", str(work), "init"], standalone_mode=False)
        if db is registered:
            ids = []
            with open(paths["txt"], encoding="ascii") as source:
                next(source)
                for number, text in enumerate(source):
                    if number % max(1, count // register) == 0 and len(ids) < register:
                        ids.append((text[:15].strip(), text[15:76].strip(), text[113:119].strip()))
            players = folder / "register.csv"
            with open(players, "w", newline="", encoding="utf-8") as out:
                writer = csv.writer(out)
                writer.writerow(["name", "fide_id", "rating", "games"])
                for index, (fide_id, name, rating) in enumerate(ids):
                    rated = rating not in ("", "0")
                    # half the rated ones registered with another rating than FIDE's
                    shown = int(rating) + (index % 2) * 7 if rated else ""
                    writer.writerow([f"{name} {fide_id}", fide_id, shown, 40 if rated else ""])
            cli.main(["--db", str(work), "import", "players", str(players)], standalone_mode=False)
        work.rename(db)
    return {"empty": empty, "registered": registered}


def one(db: str, args: list[str]) -> dict[str, Any]:
    """Run the command once (inside a worker process): seconds (wall and this process's CPU,
    user + system: the CPU time does not grow when other work shares the machine), peak MB,
    its exit code."""
    from ratings.cli import cli

    started, cpu = time.perf_counter(), time.process_time()
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        try:
            cli.main(["--db", db, "import", "fide-list", *args], standalone_mode=False)
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"seconds": seconds, "cpu": cpu, "peak_mb": lists._peak_rss_mb(), "code": code}


def _spawn(db: Path, args: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=db.parent) as scratch:
        copy = Path(scratch) / "work.db"
        shutil.copyfile(db, copy)
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(copy), *args]
        load = os.getloadavg()[0]  # the machine is shared: what else ran, as the run started
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=_env())
        if done.returncode != 0:
            raise RuntimeError(f"{args} failed ({done.returncode}):\n{done.stderr}")
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        answer["players"] = _count(copy)
        answer["load"] = load
    if answer["code"] != 0:
        raise RuntimeError(f"{args}: exit code {answer['code']}")
    return answer


def _env() -> dict[str, str]:
    """The environment of a worker: it imports the ``ratings`` this process imported (not
    whichever an editable install points at), so that both agree on the schema."""
    import ratings

    package_parent = str(Path(ratings.__file__).resolve().parents[1])
    paths = [package_parent, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def _count(db: Path) -> int:
    import sqlite3

    with contextlib.closing(sqlite3.connect(db)) as conn:
        return int(conn.execute("SELECT count(*) FROM players").fetchone()[0])


def run(folder: Path, count: int, seed: int, register: int, repeats: int) -> dict[str, Any]:
    started = time.perf_counter()
    paths = lists.generate(folder, count, seed)
    dbs = _prepare(folder, paths, count, register)
    month = ["--month", MONTH]
    cases = [
        (f"refresh {register:,} registered, txt", "registered", [str(paths["txt"]), *month]),
        (f"refresh {register:,} registered, txt.zip", "registered",
         [str(paths["txt.zip"]), *month]),
        (f"refresh {register:,} registered, xml", "registered", [str(paths["xml"]), *month]),
        ("--add (whole list, empty database), txt", "empty",
         [str(paths["txt"]), *month, "--add"]),
        ("--add (whole list, empty database), xml", "empty",
         [str(paths["xml"]), *month, "--add"]),
        ("--add --federation IRL (empty database), txt.zip", "empty",
         [str(paths["txt.zip"]), *month, "--add", "--federation", "IRL"]),
    ]  # fmt: skip
    results: dict[str, list[dict[str, Any]]] = {label: [] for label, _, _ in cases}
    for _ in range(repeats):  # interleaved, so that machine load spreads over every case
        for label, db, args in cases:
            results[label].append(_spawn(dbs[db], args))
    return {
        "players": count,
        "seed": seed,
        "register": register,
        "repeats": repeats,
        "results": results,
        "minutes": (time.perf_counter() - started) / 60,
    }


def report(measured: dict[str, Any], command: str) -> str:
    lines = [
        f"Run: `{command}`",
        "",
        f"Machine: {os.cpu_count()} cores (`os.cpu_count()`), Python {platform.python_version()}, "
        f"{platform.machine()}; whole run {measured['minutes']:.1f} min.",
        "",
        "| import | players in the database after | seconds (median) | range | "
        "CPU seconds (median) | peak RSS MB (median) | range |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, runs in measured["results"].items():
        seconds = [r["seconds"] for r in runs]
        peaks = [r["peak_mb"] for r in runs]
        cpu = statistics.median(r["cpu"] for r in runs)
        lines.append(
            f"| {label} | {runs[0]['players']:,} | {statistics.median(seconds):.1f} | "
            f"{min(seconds):.1f}-{max(seconds):.1f} | {cpu:.1f} | {statistics.median(peaks):.0f} | "
            f"{min(peaks):.0f}-{max(peaks):.0f} |"
        )
    loads = [r["load"] for runs in measured["results"].values() for r in runs]
    lines += [
        "",
        f"Medians of {measured['repeats']} runs per row, each in a fresh process. Load average "
        f"(1 min) as each run started: median {statistics.median(loads):.1f}, "
        f"{min(loads):.1f}-{max(loads):.1f}.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--register", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/fide-list-bench"))
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.worker is not None:
        print(json.dumps(one(args.worker, rest)))
        return 0
    measured = run(args.dir, args.players, args.seed, args.register, args.repeats)
    command = (
        f"python bench/fide_list_import.py --players {args.players} --register {args.register} "
        f"--repeats {args.repeats} --seed {args.seed}"
    )
    text = report(measured, command)
    print(text)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
