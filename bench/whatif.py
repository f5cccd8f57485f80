"""Benchmark: ``ratings whatif`` (a rebuild of every list with a rule changed, and the
comparison with the published lists) against ``ratings rate`` from scratch, on one database.

Usage::

    python bench/whatif.py --players 5000 --games 250000 --periods 120 --seed 1 --repeats 5 \\
        --work /tmp/check-bench

The databases are ``bench/check.py``'s (built by it, cached in ``--work``): the players and
games imported and nothing rated, and a copy of it rated. Then, ``--repeats`` times, one after
the other so that each pair runs under the same load:

1. ``rate``: ``ratings rate`` on a fresh copy of the unrated database (every period from
   scratch, sealed, committed);
2. ``whatif``: ``ratings whatif --set junior-k=30 --format json`` on the rated database
   (read-only: the rebuild runs in memory; every list compared).

Each step runs in a fresh subprocess through the command line, timed inside the subprocess
around the command (interpreter start and imports excluded); its peak memory is that
process's ``VmHWM``. The ratio is the median of the ratios of the pairs. The report (Markdown)
goes to stdout and, with ``--report PATH``, to a file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

from paired import Paired  # noqa: E402 (bench/ on the path first)
from paired import main as paired_main  # noqa: E402


def _moved(out: str) -> str:
    doc = json.loads(out)
    return f"{doc['newest']['moved']} moved at {doc['newest']['period']}"


WHATIF = Paired(
    script="whatif.py",
    name="whatif",
    title="2. `whatif --set junior-k=30`: rebuild every list with the change and compare",
    args=("whatif", "--set", "junior-k=30", "--format", "json"),
    summary=_moved,
    summary_label="What-if",
)


def main(argv: Sequence[str] | None = None) -> int:
    return paired_main(WHATIF, __doc__.split("\n", 1)[0], argv)


if __name__ == "__main__":
    sys.exit(main())
