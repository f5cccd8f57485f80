"""The wheel carries the site's templates and assets (package data), so that an installed
`ratings publish` works."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_has_the_templates_and_assets(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("ratings-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("base", "list", "player", "event"):
        assert f"ratings/site/templates/{name}.html.j2" in names
    for name in ("site.css", "site.js", "chart.js"):
        assert f"ratings/site/static/{name}" in names
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Requires-Dist: jinja2" in requires
    assert "Requires-Dist: vl-convert-python" in requires
