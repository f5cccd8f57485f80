"""``import fide-list --add`` refuses a list that holds one FIDE id twice:
the file is wrong, nothing is imported, and every such line is named."""

from __future__ import annotations

from pathlib import Path

from tests.imports.test_fide_list import foa_list
from tests.io.test_fide_list import ARRIBAS, CARLSEN
from tests.support import Club


def test_a_fide_id_twice_is_refused(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db")
    path = foa_list(tmp_path / "players_list_foa.txt", CARLSEN, ARRIBAS, CARLSEN, CARLSEN)
    before = club.state()
    code, out = club.run("import", "fide-list", str(path), "--month", "2026-10", "--add")
    assert (code, out) == (
        1,
        f"Error: {path}:4: ID: FIDE id 1503014 is on the list twice\n"
        f"Error: {path}:5: ID: FIDE id 1503014 is on the list twice\n"
        "Error: 2 problems found; nothing was imported\n",
    )
    assert club.state() == before
