"""Every import and ``rate`` print the one warning about rated players whose
count of prior rated games is unknown, once, while such players are registered."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.imports.test_fide_list import foa_list
from tests.io.test_fide_list import CARLSEN
from tests.rating.test_real_data_rules import WARNING
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path / "club.db")


def warnings(out: str) -> list[str]:
    return [line + "\n" for line in out.splitlines() if line.startswith("Warning: ")]


def test_import_players_without_a_games_column_warns_once(tmp_path: Path, club: Club) -> None:
    csv = tmp_path / "players.csv"
    csv.write_text("name,birthdate,rating\nAdult,1970,1900\nOther,1980,1850\nNew,1990,\n")
    out = club.ok("import", "players", str(csv))
    assert warnings(out) == [WARNING.format(n=2, s="s")]
    assert club.rows("SELECT name, entry_games FROM players ORDER BY id") == [
        ("Adult", None),
        ("Other", None),
        ("New", None),
    ]


def test_import_games_and_rate_warn_once(tmp_path: Path, club: Club) -> None:
    club.player("Adult", "--birthdate", "1970", "--rating", "1900")
    club.player("Known", "--birthdate", "1970", "--rating", "1900", "--games", "100")
    csv = tmp_path / "games.csv"
    csv.write_text("date,white,black,result\n2025-03-10,Adult,Known,1-0\n")
    assert warnings(club.ok("import", "games", str(csv))) == [WARNING.format(n=1, s="")]
    assert warnings(club.ok("rate")) == [WARNING.format(n=1, s="")]


def test_import_fide_list_warns_while_players_stay_unknown(tmp_path: Path, club: Club) -> None:
    """The list settles the players it holds (FIDE's K); one it does not hold stays unknown."""
    club.player("Carlsen, M.", "--fide-id", "1503014", "--rating", "2800")
    club.player("Adult", "--birthdate", "1970", "--rating", "1900")
    path = foa_list(tmp_path / "players_list_foa.txt", CARLSEN)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10")
    assert warnings(out) == [WARNING.format(n=1, s="")]
    club.ok("player", "edit", "Adult", "--games", "40")
    assert warnings(club.ok("rate")) == []
