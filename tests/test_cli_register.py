"""The register and single games through the CLI: exact output, exit codes, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_rating_scenarios import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    club.player(
        "Carlsen, Magnus", "--fide-id", "1503014", "--rating", "2830", "--games", "900",
        "--birthdate", "1990-11-30", "--sex", "m", "--federation", "nor", "--title", "gm",
    )  # fmt: skip
    club.player("Hou, Yifan", "--rating", "2630", "--birthdate", "1994")
    return club


def test_player_list_and_show(club: Club) -> None:
    assert club.ok("player", "list") == (
        "   id  name                              fide id       born entry k10\n"
        "    1  Carlsen, Magnus                   1503014 1990-11-30  2830    \n"
        "    2  Hou, Yifan                                      1994  2630    \n"
    )
    assert club.ok("player", "show", "fide:1503014") == (
        "id:            1\n"
        "name:          Carlsen, Magnus\n"
        "fide id:       1503014\n"
        "born:          1990-11-30\n"
        "sex:           m\n"
        "federation:    NOR\n"
        "title:         GM\n"
        "entry rating:  2830\n"
        "entry games:   900\n"
        "k10 (by hand): no\n"
        "games stored:  0\n"
    )


def test_list_before_any_period_shows_the_register(club: Club) -> None:
    club.player("Newcomer")
    assert club.ok("list") == (
        "Register (no period rated yet): entry ratings\n"
        "   #  name                              fide id rating   chg  games   k\n"
        "   1  Carlsen, Magnus                   1503014   2830          900    \n"
        "   2  Hou, Yifan                                  2630            0    \n"
    )
    assert "Newcomer" in club.ok("list", "--all")


def test_player_errors(club: Club) -> None:
    club.player("Hou, Yifan")
    assert club.run("player", "show", "hou, yifan") == (
        1,
        "Error: 'hou, yifan' matches 2 players: 2 (Hou, Yifan), 3 (Hou, Yifan); use the id\n",
    )
    assert club.run("player", "show", "99") == (1, "Error: no player '99'\n")
    assert club.run("player", "add", "X", "--fide-id", "1503014") == (
        1,
        "Error: fide id 1503014 already belongs to Carlsen, Magnus (id 1)\n",
    )
    assert club.run("player", "add", "X", "--birthdate", "1990-02-30") == (
        1,
        "Error: birthdate must be YYYY-MM-DD or YYYY: '1990-02-30'\n",
    )
    assert club.run("player", "add", "X", "--rating", "9000") == (
        1,
        "Error: rating must be from 0 to 3500: 9000\n",
    )
    assert club.run("player", "add", "   ") == (1, "Error: a player needs a name: '   '\n")
    assert club.run("player", "add", "X", "--rating", "abc")[0] == 2


def test_player_edit(club: Club) -> None:
    assert club.ok("player", "edit", "1", "--title", "GM", "--federation", "NOR") == (
        "Nothing changed for Carlsen, Magnus (id 1)\n"
    )
    assert club.ok("player", "edit", "2", "--fide-id", "8603006", "--k10") == (
        "Changed fide_id, k10 of Hou, Yifan (id 2)\n"
    )
    assert (
        club.ok("player", "edit", "2", "--fide-id", "") == "Changed fide_id of Hou, Yifan (id 2)\n"
    )


def test_game_add_edit_void(club: Club) -> None:
    assert club.ok("game", "add", "1", "2", "1-0", "--date", "2025-04-01") == "Added game 1\n"
    assert club.ok("game", "edit", "1", "--result", "=") == "Changed game 1\n"
    assert club.ok("game", "void", "1") == "Voided game 1\n"
    assert club.run("game", "void", "1") == (1, "Error: no game with id 1\n")


def test_game_errors(club: Club) -> None:
    assert club.run("game", "add", "1", "fide:1503014", "1-0", "--date", "2025-04-01") == (
        1,
        "Error: a player cannot play themself: Carlsen, Magnus (id 1)\n",
    )
    assert club.run("game", "add", "1", "2", "2-0", "--date", "2025-04-01") == (
        1,
        "Error: unknown result '2-0' (expected 1-0, 0-1, 1/2-1/2, +/-, -/+ or -/-)\n",
    )
    assert club.run("game", "add", "1", "2", "1-0", "--date", "2025-4-1") == (
        1,
        "Error: date must be YYYY-MM-DD: '2025-4-1'\n",
    )
    assert club.run("game", "add", "1", "Nobody", "1-0", "--date", "2025-04-01") == (
        1,
        "Error: no player 'Nobody'\n",
    )
    assert club.run("game", "add", "1", "2", "1-0")[0] == 2  # --date is required
    club.ok("game", "add", "1", "2", "+/-", "--date", "2025-04-01")
    assert club.run("game", "edit", "1", "--rated") == (
        1,
        "Error: a forfeit (+/-) cannot be rated\n",
    )


def test_history_and_performance_errors(club: Club) -> None:
    assert club.run("card", "1", "--period", "2025-01") == (
        1,
        "Error: period 2025-01 has not been rated; run 'ratings rate'\n",
    )
    assert club.run("list", "--period", "2025-13") == (
        1,
        "Error: period must be written yyyy-mm: '2025-13'\n",
    )
    assert club.ok("rate") == "Nothing to rate\n"
