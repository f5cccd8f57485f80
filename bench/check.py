"""Benchmark: ``ratings check --all`` (a rebuild of every list from the stored inputs, and the
comparison) against ``ratings rate`` from scratch, on one database.

Usage::

    python bench/check.py --players 5000 --games 250000 --periods 120 --seed 1 --repeats 5 \\
        --work /tmp/check-bench

It builds, from a synthetic federation (``bench/generate.py``; untimed, cached in ``--work``),
a database with the players and games imported and nothing rated, and a copy of it rated.
Then, ``--repeats`` times, one after the other so that each pair runs under the same load:

1. ``rate``: ``ratings rate`` on a fresh copy of the unrated database (every period from
   scratch, committed);
2. ``check``: ``ratings check --all`` on the rated database (read-only: the rebuild runs in
   memory).

Each step runs in a fresh subprocess through the command line (``ratings.cli``, in-process
there with click's runner), timed inside the subprocess around the command (interpreter start
and imports excluded); its peak memory is that process's ``VmHWM``. The ratio is the median of
the ratios of the pairs. The report (Markdown) goes to stdout and, with ``--report PATH``, to
a file.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

from paired import Paired  # noqa: E402 (bench/ on the path first)
from paired import main as paired_main  # noqa: E402

CHECK = Paired(
    script="check.py",
    name="check --all",
    title="2. `check --all`: rebuild every list and compare",
    args=("check", "--all"),
)


def main(argv: Sequence[str] | None = None) -> int:
    return paired_main(CHECK, __doc__.split("\n", 1)[0], argv)


if __name__ == "__main__":
    sys.exit(main())
