"""Benchmark: ``ratings norms EVENT`` on a large open Swiss (issue 32's target: under 1 s for
a 500-player event).

Usage::

    python bench/norms.py [--players 500] [--rounds 9] [--repeats 7] [--seed 32]

It builds, in a temporary folder, a database through the ordinary commands (``init``,
``import players``, ``import games``, then ``rate`` so that the event's ratings come from a
published list): a register of ``--players`` players with FIDE-like ratings (1400 to 2700,
about one in ten unrated), titles by rating (GM from 2500, IM from 2400, FM from 2300, CM
from 2200, and the women's titles for a woman), federations drawn from twenty codes, and a
warm-up event in the month before; then one event of ``--rounds`` rounds in which every
player plays every round, paired each round by score groups (players of equal score in
rating order, top half against bottom half, no pair twice), results drawn with the
expected score of the rating difference, a few forfeits.

Then it times ``ratings norms EVENT`` (table output, to a pipe) in a fresh process
(``python -m ratings``, bytecode cached), ``--repeats`` times, interleaved with ``ratings
event list`` on the same database (a command that opens the database and reads one table:
what any command costs to start), and reports each one's median and range, the rows
printed and the machine's load. A failing run stops the benchmark. The report (Markdown)
goes to stdout.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FEDERATIONS = (
    "ENG", "GER", "FRA", "NED", "ESP", "ITA", "USA", "IND", "NOR", "SWE",
    "POL", "HUN", "CZE", "AUT", "SUI", "DEN", "BEL", "ISR", "ARM", "FID",
)  # fmt: skip


def _title(rating: int | None, woman: bool, rng: random.Random) -> str:
    if rating is None:
        return ""
    for threshold, open_title, women_title in (
        (2500, "GM", "WGM"),
        (2400, "IM", "WIM"),
        (2300, "FM", "WFM"),
        (2200, "CM", "WCM"),
    ):
        if rating >= threshold and rng.random() < 0.8:
            return women_title if woman and rng.random() < 0.5 else open_title
    return ""


def _expected(a: int, b: int) -> float:
    return 1 / (1 + 10 ** ((b - a) / 400))


def build(folder: Path, players: int, rounds: int, seed: int) -> tuple[str, str]:
    """The database and the event's name."""
    rng = random.Random(seed)
    register = []
    for i in range(players):
        woman = rng.random() < 0.2
        rating = None if rng.random() < 0.1 else int(rng.triangular(1400, 2700, 1900))
        register.append(
            {
                "name": f"Player{i:04d}, Test",
                "birthdate": f"{rng.randint(1950, 2010)}-01-01",
                "fide_id": 100000 + i,
                "rating": "" if rating is None else rating,
                "games": "" if rating is None else rng.randint(30, 500),
                "k10": "false",
                "sex": "f" if woman else "m",
                "federation": rng.choice(FEDERATIONS),
                "title": _title(rating, woman, rng),
            }
        )
    players_csv = folder / "players.csv"
    with players_csv.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(register[0]))
        writer.writeheader()
        writer.writerows(register)

    names = [p["name"] for p in register]
    strength = [int(p["rating"]) if p["rating"] != "" else 1400 for p in register]
    games = []
    warm = list(range(players))
    rng.shuffle(warm)
    for a, b in zip(warm[0::2], warm[1::2], strict=False):  # the month before: one game each
        games.append(("2026-02-14", names[a], names[b], "1/2-1/2", "February Rapidplay", "1"))
    event = f"Grand Open {players}"
    score = [0.0] * players
    met: set[frozenset[int]] = set()
    for r in range(1, rounds + 1):
        order = sorted(range(players), key=lambda i: (-score[i], -strength[i], i))
        waiting = list(order)
        pairs = []
        while len(waiting) > 1:
            a = waiting.pop(0)
            half = max(1, len(waiting) // 2)
            candidates = waiting[half - 1 :] + waiting[: half - 1]
            b = next((c for c in candidates if frozenset((a, c)) not in met), waiting[0])
            waiting.remove(b)
            met.add(frozenset((a, b)))
            pairs.append((a, b) if r % 2 else (b, a))
        day = dt.date(2026, 3, 1) + dt.timedelta(days=r - 1)
        for white, black in pairs:
            if rng.random() < 0.01:
                result = "+/-"
                score[white] += 1
            else:
                e = _expected(strength[white], strength[black])
                x = rng.random()
                if x < e - 0.15:
                    result, sw = "1-0", 1.0
                elif x < e + 0.15:
                    result, sw = "1/2-1/2", 0.5
                else:
                    result, sw = "0-1", 0.0
                score[white] += sw
                score[black] += 1 - sw
            games.append((day.isoformat(), names[white], names[black], result, event, str(r)))
    games_csv = folder / "games.csv"
    with games_csv.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["date", "white", "black", "result", "event", "round"])
        writer.writerows(games)

    db = str(folder / "norms.db")
    for args in (
        ["init"],
        ["import", "players", str(players_csv)],
        ["import", "games", str(games_csv), "--allow-future"],
        ["rate", "--through", "2026-02"],
    ):
        _ratings(db, *args)
    return db, event


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached after one run
    return env


def _ratings(db: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run(
        [sys.executable, "-m", "ratings", "--db", db, *args],
        env=_env(),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"ratings {' '.join(args)} exited {done.returncode}: {done.stderr!r}")
    return done


CASES = {"norms EVENT": ("norms", "{event}"), "event list": ("event", "list")}
"""The commands timed, by name (``{event}``: the event's name)."""


def measure(db: str, event: str, repeats: int) -> tuple[dict[str, list[float]], int]:
    """Wall times of each case, interleaved, after one unmeasured round; and the rows
    ``ratings norms`` printed."""
    argv = {name: [a.format(event=event) for a in args] for name, args in CASES.items()}
    rows = len(_ratings(db, *argv["norms EVENT"]).stdout.decode().splitlines()) - 4
    _ratings(db, *argv["event list"])
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(repeats):
        for name, args in argv.items():
            start = time.perf_counter()
            _ratings(db, *args)
            times[name].append(time.perf_counter() - start)
    return times, rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-norms-") as tmp:
        db, event = build(Path(tmp), args.players, args.rounds, args.seed)
        times, rows = measure(db, event, args.repeats)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"`ratings norms` on a {args.players}-player, {args.rounds}-round Swiss "
        f"(seed {args.seed}), {rows} rows printed; {args.repeats} runs in a fresh process, "
        f"Python {platform.python_version()}, load {load:.1f}:\n"
    )
    print("| command | median (s) | range (s) |")
    print("|---|---:|---|")
    for name, ts in times.items():
        median = statistics.median(ts)
        print(f"| `ratings {name}` | **{median:.2f}** | {min(ts):.2f} - {max(ts):.2f} |")


if __name__ == "__main__":
    main()
