"""Modules by concept: no module in ``ratings/`` is over 600 lines unless
its docstring says why, on a line of its own that starts with ``Over 600 lines:``."""

from __future__ import annotations

import ast
from pathlib import Path

import ratings

LIMIT = 600
PACKAGE = Path(ratings.__file__).parent


def long_without_reason(root: Path) -> list[str]:
    """The modules under ``root`` over :data:`LIMIT` lines whose docstring has no line
    ``Over 600 lines: REASON`` (a reason not blank), as ``PATH: N lines``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text("utf-8")
        count = len(text.splitlines())
        if count <= LIMIT:
            continue
        docstring = ast.get_docstring(ast.parse(text, str(path))) or ""
        reasons = [
            line.strip().removeprefix(f"Over {LIMIT} lines:").strip()
            for line in docstring.splitlines()
            if line.strip().startswith(f"Over {LIMIT} lines:")
        ]
        if not any(reasons):
            found.append(f"{path.relative_to(root).as_posix()}: {count} lines")
    return found


def test_no_long_module_without_a_reason() -> None:
    assert long_without_reason(PACKAGE) == []


def test_the_check_finds_a_long_module_and_reads_its_reason(tmp_path: Path) -> None:
    body = "x = 1\n" * LIMIT
    (tmp_path / "short.py").write_text('"""Short."""\n' + "x = 1\n" * (LIMIT - 1), "utf-8")
    (tmp_path / "long.py").write_text('"""Long."""\n' + body, "utf-8")
    (tmp_path / "blank.py").write_text('"""Long.\n\nOver 600 lines:\n"""\n' + body, "utf-8")
    (tmp_path / "comment.py").write_text(
        '"""Long."""\n# Over 600 lines: in a comment, not the docstring\n' + body, "utf-8"
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "why.py").write_text(
        '"""Long.\n\nOver 600 lines: one table, read in one place.\n"""\n' + body, "utf-8"
    )
    assert long_without_reason(tmp_path) == [
        "blank.py: 604 lines",
        "comment.py: 602 lines",
        "long.py: 601 lines",
    ]
