"""Benchmark: reading FIDE's world rating list with ratings.io.fide_list (issue 12, item 2).

Usage::

    python bench/fide_list.py --players 1100000 --repeats 5 --dir /tmp/fide-bench
    python bench/fide_list.py --players 1100000 --repeats 1 --formats xml,xml.zip

It writes synthetic files of FIDE's size and layout into ``--dir`` (kept there, and reused
when they exist with the same number of players and seed), then reads each of them
``--repeats`` times, every read in a fresh Python process:

* ``players_list_foa.txt`` - the combined TXT list: FIDE's header, 162-character lines,
  CRLF, ASCII; 2 lines whose ``OTit`` overflows into ``FOA`` as in FIDE's own file;
* ``players_list.zip`` - that file zipped, as FIDE ships it;
* ``players_list_xml_foa.xml`` - the combined XML list: ``<playerslist>`` of ``<player>``
  elements with FIDE's 19 children, one element a line, CRLF;
* ``players_list_xml.zip`` - that file zipped;
* and the zipped TXT and XML again with ``--federation`` (the filter pushed into the
  reader; default ``IRL``).

The values follow what FIDE's October 2026 list shows (ratings.io.fide_list's docstring):
about 59% of the players have no rating of any type (0 in all three), titles, other
titles, FOA titles, flags ``i``, ``w``, ``wi`` and unknown birth years in like proportions,
federations from FIDE's list, drawn with a skewed weight so that a few are large.

A read is: open the file, iterate every record (building each FideListPlayer), count them.
Its time is measured inside the worker process around that work (interpreter start and
imports excluded); its peak memory is the worker's ``VmHWM``. The baseline row is a worker
that imports the reader and reads nothing: the interpreter's own peak. Each file also has a
floor row: the standard library alone on the same bytes (TXT lines read and decoded; XML
parsed by ``iterparse`` and cleared), no record built, to show what reading costs before any
of our work. Medians over the
repeats are reported, with the range. The Markdown report goes to stdout (and to
``--report PATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
try:
    import ratings  # noqa: F401 (checks the package is importable)
except ModuleNotFoundError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(BENCH_DIR.parent))

HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
"""FIDE's header of players_list_foa.txt (its columns: ratings/io/fide_list.py)."""
WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4, 3, 6, 4, 3, 6, 4)
"""Column widths of that header, left to right (162 characters in all)."""
XML_TAGS = (
    "fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
    "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k",
    "blitz_rating", "blitz_games", "blitz_k", "birthday", "flag",
)  # fmt: skip
"""FIDE's children of <player>, in FIDE's order."""

FILES = {
    "txt": "players_list_foa.txt",
    "txt.zip": "players_list.zip",
    "xml": "players_list_xml_foa.xml",
    "xml.zip": "players_list_xml.zip",
}

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


# --- the synthetic list --------------------------------------------------------------------


def _name(rnd: random.Random) -> str:
    def word(low: int, high: int) -> str:
        return "".join(rnd.choices(_LETTERS, k=rnd.randint(low, high))).capitalize()

    surname = word(3, 12) if rnd.random() < 0.85 else f"{word(3, 9)} {word(3, 9)}"
    if rnd.random() < 0.03:
        return surname  # some players have one name only
    return f"{surname}, {word(3, 10)}"


def _rating(rnd: random.Random, rated: bool) -> tuple[int, int, int]:
    """(rating, games, K): 0, 0, 0 for an unrated player of this type."""
    if not rated:
        return 0, 0, 0
    rating = max(1400, min(2850, int(rnd.gauss(1750, 280))))
    games = rnd.choice((0, 0, 0, 0, 0, 0, 4, 5, 7, 9, 11, 14))
    k = 10 if rating >= 2400 else rnd.choice((20, 20, 40))
    return rating, games, k


def players(count: int, seed: int) -> list[list[str]]:
    """``count`` players' 19 values as FIDE writes them (TXT and XML share them)."""
    from ratings.federations import FIDE_FEDERATIONS

    rnd = random.Random(seed)
    feds = sorted(FIDE_FEDERATIONS)
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(feds))]
    rnd.shuffle(feds)
    rows: list[list[str]] = []
    overflow = {count // 3, 2 * count // 3}  # FIDE's own file had such lines (3 in 1.93M)
    for index in range(count):
        woman = rnd.random() < 0.12
        unrated = rnd.random() < 0.59
        standard = _rating(rnd, not unrated and rnd.random() < 0.8)
        rapid = _rating(rnd, not unrated and rnd.random() < 0.5)
        blitz = _rating(rnd, not unrated and rnd.random() < 0.4)
        if not unrated and not any(r[0] for r in (standard, rapid, blitz)):
            standard = _rating(rnd, True)
        roll = rnd.random()
        title = ""
        if not unrated and roll < 0.018:
            title = rnd.choice(("GM", "IM", "FM", "FM", "CM", "CM"))
        women_title = rnd.choice(("WGM", "WIM", "WFM", "WCM")) if woman and roll < 0.03 else ""
        if women_title and not title:
            title = women_title
        other = ""
        if index in overflow:
            other = "SI,FI,LSI,SLI,NA"  # 16 characters in a 15-character column
        elif rnd.random() < 0.02:
            other = ",".join(rnd.sample(("IA", "FA", "NA", "IO", "FT", "FST", "DI", "NI"), 2))
        foa = rnd.choice(("AGM", "AIM", "AFM", "ACM")) if rnd.random() < 0.01 else ""
        inactive = not unrated and rnd.random() < 0.45
        flag = ("w" if woman else "") + ("i" if inactive else "")
        birth = 0 if rnd.random() < 0.017 else rnd.randint(1930, 2020)
        rows.append(
            [
                str(1_000_000 + index * 7 + rnd.randint(0, 6)),
                _name(rnd),
                rnd.choices(feds, weights)[0],
                "F" if woman else "M",
                title,
                women_title,
                other,
                foa,
                *(str(v) for v in (*standard, *rapid, *blitz)),
                str(birth),
                flag,
            ]
        )
    return rows


def _txt_line(row: list[str]) -> str:
    cells = [value.ljust(width) for value, width in zip(row, WIDTHS, strict=True)]
    return "".join(cells)


def _xml_player(row: list[str]) -> str:
    pairs = zip(XML_TAGS, row, strict=True)
    children = "".join(f"<{tag}>{value}</{tag}>\r\n" for tag, value in pairs)
    return f"<player>\r\n{children}</player>\r\n"


def generate(folder: Path, count: int, seed: int) -> dict[str, Path]:
    """The four files in ``folder`` (made unless they exist for this count and seed)."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = folder / "generated.json"
    paths = {kind: folder / name for kind, name in FILES.items()}
    wanted = {"players": count, "seed": seed}
    if (
        stamp.exists()
        and json.loads(stamp.read_text()) == wanted
        and all(p.exists() for p in paths.values())
    ):
        return paths
    rows = players(count, seed)
    with open(paths["txt"], "w", encoding="ascii", newline="") as out:
        out.write(HEADER + "\r\n")
        out.writelines(_txt_line(row) + "\r\n" for row in rows)
    with open(paths["xml"], "w", encoding="ascii", newline="") as out:
        out.write("<playerslist>\r\n")
        out.writelines(_xml_player(row) for row in rows)
        out.write("</playerslist>\r\n")
    for plain, zipped in (("txt", "txt.zip"), ("xml", "xml.zip")):
        with zipfile.ZipFile(paths[zipped], "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(paths[plain], FILES[plain])
    stamp.write_text(json.dumps(wanted))
    return paths


# --- one read, inside a worker process -------------------------------------------------------


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


def read(path: str, federation: str | None) -> dict[str, Any]:
    """Read a list (or, for ``path == ""``, nothing): records, seconds, peak MB."""
    from ratings.io.fide_list import open_fide_list

    started = time.perf_counter()
    count = rated = 0
    if path:
        federations = None if federation is None else [federation]
        with open_fide_list(path, federations=federations) as fide_list:
            for player in fide_list:
                count += 1
                rated += player.standard is not None and player.standard.rating is not None
    seconds = time.perf_counter() - started
    return {"players": count, "rated": rated, "seconds": seconds, "peak_mb": _peak_rss_mb()}


def floor(path: str) -> dict[str, Any]:
    """The standard library alone on the same file: every TXT line read and decoded, or
    every XML ``<player>`` parsed by iterparse and cleared; no record built."""
    import io
    import xml.etree.ElementTree as ET

    started = time.perf_counter()
    count = 0
    archive = zipfile.ZipFile(path) if path.endswith(".zip") else None
    raw = archive.open(archive.namelist()[0]) if archive else open(path, "rb")  # noqa: SIM115
    with raw, io.BufferedReader(raw, buffer_size=1 << 20) as stream:  # type: ignore[arg-type]
        if "xml" in Path(path).name:
            events = ET.iterparse(stream, events=("start", "end"))
            _, root = next(events)
            for event, element in events:
                if event == "end" and element.tag == "player":
                    count += 1
                    root.clear()
        else:
            for line in stream:
                line.decode("utf-8")
                count += 1
            count -= 1  # the header
    seconds = time.perf_counter() - started
    return {"players": count, "rated": 0, "seconds": seconds, "peak_mb": _peak_rss_mb()}


def _spawn(path: str, federation: str | None, *, floor: bool = False) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", path]
    if floor:
        command.append("--floor")
    if federation is not None:
        command += ["--federation", federation]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"reading {path} failed ({done.returncode}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


# --- the run ---------------------------------------------------------------------------------


def run(
    folder: Path,
    count: int,
    seed: int,
    repeats: int,
    federation: str,
    formats: tuple[str, ...] = tuple(FILES),
) -> dict[str, Any]:
    """Generate (or reuse) the files and read each of ``formats`` (keys of :data:`FILES`)
    ``repeats`` times; the measurements."""
    started = time.perf_counter()
    paths = generate(folder, count, seed)
    cases: list[tuple[str, str, str | None, bool]] = [("baseline (imports only)", "", None, False)]
    for kind in formats:
        cases.append((kind, str(paths[kind]), None, False))
        cases.append((f"{kind}: floor (stdlib only)", str(paths[kind]), None, True))
    cases += [(f"{kind}, --federation {federation}", str(paths[kind]), federation, False)
              for kind in ("txt.zip", "xml.zip") if kind in formats]  # fmt: skip
    results: dict[str, list[dict[str, Any]]] = {label: [] for label, _, _, _ in cases}
    for _ in range(repeats):  # interleaved, so that machine load spreads over every case
        for label, path, fed, is_floor in cases:
            results[label].append(_spawn(path, fed, floor=is_floor))
    sizes = {kind: paths[kind].stat().st_size for kind in FILES}
    return {
        "players": count,
        "seed": seed,
        "repeats": repeats,
        "federation": federation,
        "sizes": sizes,
        "results": results,
        "minutes": (time.perf_counter() - started) / 60,
    }


def _median(values: list[float]) -> float:
    return statistics.median(values)


def report(measured: dict[str, Any], command: str) -> str:
    """The Markdown section for bench/RESULTS.md."""
    mb = 1024 * 1024
    sizes = measured["sizes"]
    lines = [
        f"Run: `{command}`",
        "",
        f"Machine: {os.cpu_count()} cores (`os.cpu_count()`), Python {platform.python_version()}, "
        f"{platform.machine()}; whole run {measured['minutes']:.1f} min (generation included "
        "when the files were made).",
        "",
        f"Files ({measured['players']:,} players, seed {measured['seed']}): "
        + ", ".join(f"`{FILES[k]}` {sizes[k] / mb:,.0f} MB" for k in FILES)
        + ".",
        "",
        "| read | players read | seconds (median) | range | peak RSS MB (median) | range |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, runs in measured["results"].items():
        seconds = [r["seconds"] for r in runs]
        peaks = [r["peak_mb"] for r in runs]
        lines.append(
            f"| {label} | {runs[0]['players']:,} | {_median(seconds):.1f} | "
            f"{min(seconds):.1f}-{max(seconds):.1f} | {_median(peaks):.0f} | "
            f"{min(peaks):.0f}-{max(peaks):.0f} |"
        )
    lines.append("")
    lines.append(f"Medians of {measured['repeats']} reads per row, each in a fresh process.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--federation", default="IRL")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/fide-list-bench"))
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    parser.add_argument(
        "--formats",
        default=",".join(FILES),
        help="the files to read, comma-separated (default: all of " + ", ".join(FILES) + ")",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        fed = args.federation if "--federation" in (argv or sys.argv) else None
        print(json.dumps(floor(args.worker) if args.floor else read(args.worker, fed)))
        return 0
    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    unknown = [f for f in formats if f not in FILES]
    if unknown or not formats:
        parser.error(f"--formats: unknown {', '.join(unknown) or '(none given)'}")
    measured = run(args.dir, args.players, args.seed, args.repeats, args.federation, formats)
    command = "python bench/fide_list.py " + " ".join(
        f"--{k} {v}" for k, v in (("players", args.players), ("repeats", args.repeats),
                                  ("federation", args.federation), ("seed", args.seed))
    )  # fmt: skip
    if formats != tuple(FILES):
        command += " --formats " + ",".join(formats)
    text = report(measured, command)
    print(text)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
