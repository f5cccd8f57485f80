"""The installed wheel (not only an editable checkout) can create and upgrade a database."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installs_and_upgrades_a_database(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("ratings-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "ratings/_migrations/env.py" in names
    assert any(n.startswith("ratings/_migrations/versions/") for n in names)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", str(wheel)], check=True, capture_output=True)
    ratings = venv / "bin" / "ratings"
    db = tmp_path / "club.db"
    # run from a folder without the checkout, so only the installed package is found
    work = tmp_path / "elsewhere"
    work.mkdir()

    def cli(*args: str) -> str:
        done = subprocess.run(
            [str(ratings), "--db", str(db), *args], cwd=work, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert cli("init").startswith(f"Created {db}")
    assert cli("db", "downgrade", "base", "--yes").endswith("-> (empty)\n")
    assert cli("db", "upgrade", "--no-backup").startswith("Upgraded (empty) -> ")
    assert cli("db", "check") == "Schema matches the models\n"
    done = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import ratings.migrate as m; print(m.script_location())",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "_migrations" in done.stdout
    assert str(ROOT) not in done.stdout
