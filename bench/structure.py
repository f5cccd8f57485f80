"""The structure figures docs/DESIGN.md#the-service-by-domain quotes, measured from the
source (not a timing): the service's domains with their modules and lines, the import arrows
between the service's modules and between its domains, the import circles of the package
(the walk of tests/test_architecture.py, ``TYPE_CHECKING`` imports included), the modules over
600 lines and the functions over McCabe 10 and 15 (ruff's C901).

    python bench/structure.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_architecture import (  # noqa: E402 (the repository's root on the path first)
    DOMAINS,
    PACKAGE,
    circles,
    domain_of,
    import_graph,
    without_packages,
)


def over_mccabe(limit: int, marked_too: bool = True) -> int:
    """Functions in ``ratings/`` whose McCabe complexity is over ``limit`` (ruff's C901);
    without ``marked_too``, only those whose ``def`` line gives no reason (``noqa: C901``)."""
    done = subprocess.run(
        [
            sys.executable, "-m", "ruff", "check", str(PACKAGE), "--select", "C901",
            "--config", f"lint.mccabe.max-complexity = {limit}", "--output-format", "json",
            "--exit-zero", "--no-cache", *(["--ignore-noqa"] if marked_too else []),
        ],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return len(json.loads(done.stdout))


def main() -> None:
    graph = import_graph(PACKAGE, type_checking=True)
    service = {m: e for m, e in graph.items() if m.startswith("ratings.service.")}
    print("| domain | modules | lines |")
    print("|---|---:|---:|")
    for domain in DOMAINS:
        files = sorted((PACKAGE / "service" / domain).glob("*.py"))
        lines = sum(len(p.read_text("utf-8").splitlines()) for p in files)
        print(f"| {domain} | {len(files)} | {lines:,} |")
    arrows = sum(
        1 for edges in service.values() for target in edges if target.startswith("ratings.service.")
    )
    between: Counter[tuple[str, str]] = Counter()
    for module, edges in service.items():
        for target in edges:
            a, b = domain_of(module), domain_of(target)
            if a and b and a != b:
                between[(a, b)] += 1
    print()
    print(f"import arrows between the service's modules: {arrows}")
    print(f"pairs of domains joined by an arrow: {len(between)} (none against the order)")
    print(f"import circles in ratings/: {len(circles(without_packages(graph)))}")
    long = [p for p in PACKAGE.rglob("*.py") if len(p.read_text("utf-8").splitlines()) > 600]
    print(f"modules over 600 lines: {len(long)}")
    print(
        f"functions over McCabe 10: {over_mccabe(10)}; over 15: {over_mccabe(15)}, "
        f"{over_mccabe(15, marked_too=False)} of them without a reason on their def line"
    )


if __name__ == "__main__":
    main()
