"""The register and single games through the CLI: exact output, exit codes, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import Club


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
        "rating:        2830 (entry, no list yet)\n"
        "next K:        \n"
        "total games:   900\n"
    )


def test_list_before_any_period_shows_the_register(club: Club) -> None:
    club.player("Newcomer")
    assert club.ok("list") == (
        "Register (no period rated yet): entry ratings\n"
        "   #  name                              fide id rating   chg total games next K  flag\n"
        "   1  Carlsen, Magnus                   1503014   2830               900       \n"
        "   2  Hou, Yifan                                  2630                         \n"
    )
    assert "Newcomer" in club.ok("list", "--all")


def test_player_errors(club: Club) -> None:
    club.player("Hou, Yifan", "--birthdate", "1995", "--allow-same-name")
    assert club.run("player", "show", "hou, yifan") == (
        1,
        "Error: 'hou, yifan' matches 2 players: 2 (Hou, Yifan, born 1994), "
        "3 (Hou, Yifan, born 1995); use the id\n",
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
        "Error: --rating: not in 0..3500: '9000'\n",
    )
    assert club.run("player", "add", "   ") == (1, "Error: a player needs a name: '   '\n")
    assert club.run("player", "add", "X", "--rating", "abc") == (
        1,
        "Error: --rating: not a whole number (digits 0-9): 'abc'\n",
    )
    assert club.run("player", "add", "X", "--federation", "NEDX") == (
        1,
        "Error: federation: not a federation code (3 letters): 'NEDX'\n",
    )
    assert club.run("player", "add", "X", "--title", "XM") == (
        1,
        "Error: title: not a title (gm, im, fm, cm, wgm, wim, wfm, wcm): 'XM'\n",
    )


def test_player_edit(club: Club) -> None:
    assert club.ok("player", "edit", "1", "--title", "GM", "--federation", "NOR") == (
        "Nothing changed for Carlsen, Magnus (id 1)\n"
    )
    assert club.ok("player", "edit", "2", "--fide-id", "8603006", "--k10") == (
        "Changed fide_id, k10 of Hou, Yifan (id 2)\n"
        "  player 2 (Hou, Yifan): fide_id (none) -> 8603006\n"
        "  player 2 (Hou, Yifan): k10 false -> true\n"
    )
    assert club.ok("player", "edit", "2", "--fide-id", "") == (
        "Changed fide_id of Hou, Yifan (id 2)\n  player 2 (Hou, Yifan): fide_id 8603006 -> (none)\n"
    )


def test_game_add_edit_void(club: Club) -> None:
    assert club.ok("game", "add", "1", "2", "1-0", "--date", "2025-04-01") == "Added game 1\n"
    assert club.ok("game", "edit", "1", "--result", "=") == (
        "Changed game 1\n  game 1: result 1-0 -> 1/2-1/2\n"
    )
    assert club.ok("game", "void", "1") == (
        "Voided game 1\n"
        "  game 1: 2025-04-01, Carlsen, Magnus (id 1) - Hou, Yifan (id 2) 1/2-1/2 -> removed\n"
    )
    code, out = club.run("game", "void", "1")  # twice: it says so
    assert (code, out.split(" (batch ")[0]) == (1, "Error: game 1 was voided")


def test_game_errors(club: Club) -> None:
    assert club.run("game", "add", "1", "fide:1503014", "1-0", "--date", "2025-04-01") == (
        1,
        "Error: a player cannot play themself: Carlsen, Magnus (id 1)\n",
    )
    assert club.run("game", "add", "1", "2", "2-0", "--date", "2025-04-01") == (
        1,
        "Error: unknown result '2-0' (expected 1-0, 0-1, 1/2-1/2, =, +/-, -/+ or -/-)\n",
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


# --- FIDE ids, numbers and lengths ----------------------------------------------------------

NOT_ASCII_DIGITS = [
    "\u0661\u0662\u0663",  # Arabic-Indic 123: int() accepts it
    "\u06f1\u06f2\u06f3",  # Extended Arabic-Indic 123
    "\uff11\uff12\uff13",  # full-width 123
    "\u00b9\u00b2\u00b3",  # superscript 123: isdigit() is true, int() refuses it
    "\u0967\u0968\u0969",  # Devanagari 123
]
FIDE_ID_RULE = "not a FIDE id (1 to 11 digits 0-9, not 0)"


@pytest.mark.parametrize("digits", NOT_ASCII_DIGITS)
def test_fide_id_option_takes_ascii_digits_only(club: Club, digits: str) -> None:
    before = club.state()
    assert club.run("player", "add", "X", "--fide-id", digits) == (
        1,
        f"Error: --fide-id: {FIDE_ID_RULE}: {digits!r}\n",
    )
    assert club.run("player", "edit", "2", "--fide-id", digits) == (
        1,
        f"Error: --fide-id: {FIDE_ID_RULE}: {digits!r}\n",
    )
    assert club.run("player", "show", f"fide:{digits}") == (
        1,
        f"Error: player 'fide:{digits}': {FIDE_ID_RULE}: {digits!r}\n",
    )
    assert club.state() == before


@pytest.mark.parametrize("digits", NOT_ASCII_DIGITS)
def test_numbers_take_ascii_digits_only(club: Club, digits: str) -> None:
    club.ok("game", "add", "1", "2", "1-0", "--date", "2025-04-01")
    before = club.state()
    for args, option in (
        (("player", "add", "X", "--rating", digits), "--rating"),
        (("player", "add", "X", "--games", digits), "--games"),
        (("player", "edit", "2", "--rating", digits), "--rating"),
        (("player", "edit", "2", "--games", digits), "--games"),
    ):
        assert club.run(*args) == (
            1,
            f"Error: {option}: not a whole number (digits 0-9): {digits!r}\n",
        ), args
    for command in ("edit", "void"):
        assert club.run("game", command, digits) == (
            1,
            f"Error: GAME_ID: not a game id (digits 0-9): {digits!r}\n",
        )
    year = digits[0] * 4
    assert club.run("player", "add", "X", "--birthdate", year) == (
        1,
        f"Error: birthdate must be YYYY-MM-DD or YYYY: {year!r}\n",
    )
    assert club.state() == before


@pytest.mark.parametrize(
    ("fide_id", "ok"),
    [
        ("1", True),
        ("99999999999", True),  # 11 digits: the most the TRF column holds
        ("00000000042", True),
        ("0", False),
        ("100000000000", False),  # 12 digits
        ("123456789012345", False),  # 15 digits, as PGN used to store
        ("999999999999999999", False),  # 18 digits
        ("99999999999999999999999", False),  # 23 digits
        ("000000000042", False),  # 12 characters: more than the TRF column holds
        ("1_000", False),
        (" 5", False),
        ("+5", False),
        ("-5", False),
        ("5.0", False),
    ],
)
def test_one_fide_id_rule_for_add_edit_and_references(club: Club, fide_id: str, ok: bool) -> None:
    if ok:
        club.ok("player", "add", "X", "--fide-id", fide_id)
        assert club.rows("SELECT fide_id FROM players WHERE name = 'X'") == [(int(fide_id),)]
        club.ok("player", "show", f"fide:{fide_id}")
        club.ok("player", "edit", "X", "--fide-id", "")
        club.ok("player", "edit", "X", "--fide-id", fide_id)
        return
    before = club.state()
    message = f"Error: --fide-id: {FIDE_ID_RULE}: {fide_id!r}\n"
    assert club.run("player", "add", "X", "--fide-id", fide_id) == (1, message)
    assert club.run("player", "edit", "2", "--fide-id", fide_id) == (1, message)
    assert club.run("player", "show", f"fide:{fide_id}") == (
        1,
        f"Error: player 'fide:{fide_id}': {FIDE_ID_RULE}: {fide_id!r}\n",
    )
    assert club.state() == before


def test_game_add_refuses_a_long_round_and_event(club: Club) -> None:
    before = club.state()
    round_ = "r" * 100_000
    event = "e" * 5_000
    base = ("game", "add", "1", "2", "1-0", "--date", "2025-04-01")
    assert club.run(*base, "--round", round_) == (
        1,
        f"Error: --round: longer than 20 characters: {'r' * 50!r}... (100000 characters)\n",
    )
    assert club.run(*base, "--event", event) == (
        1,
        f"Error: --event: longer than 200 characters: {'e' * 50!r}... (5000 characters)\n",
    )
    assert club.state() == before


def test_lengths_at_and_one_over_the_limit(club: Club) -> None:
    base = ("game", "add", "1", "2", "1-0", "--date", "2025-04-01")
    assert club.run(*base, "--round", "r" * 21) == (
        1,
        f"Error: --round: longer than 20 characters: {'r' * 21!r}\n",
    )
    assert club.run(*base, "--event", "e" * 201)[1] == (
        f"Error: --event: longer than 200 characters: {'e' * 50!r}... (201 characters)\n"
    )
    assert club.run("player", "add", "n" * 201)[1] == (
        f"Error: NAME: longer than 200 characters: {'n' * 50!r}... (201 characters)\n"
    )
    assert club.run("player", "edit", "1", "--name", "n" * 201)[1] == (
        f"Error: --name: longer than 200 characters: {'n' * 50!r}... (201 characters)\n"
    )
    club.ok(*base, "--round", "r" * 20, "--event", "e" * 200)
    assert club.run("game", "edit", "1", "--round", "s" * 21) == (
        1,
        f"Error: --round: longer than 20 characters: {'s' * 21!r}\n",
    )
    club.ok("game", "edit", "1", "--round", "s" * 20)
    club.ok("player", "add", "n" * 200)
    club.ok("player", "edit", "1", "--name", "m" * 200)
    assert club.rows("SELECT round FROM games") == [("s" * 20,)]
    assert club.rows("SELECT name FROM events") == [("e" * 200,)]
    assert club.rows("SELECT length(name) FROM players ORDER BY id") == [(200,), (10,), (200,)]


def test_a_game_between_long_names_gets_an_event_name_that_fits(club: Club) -> None:
    club.player("W" * 200)
    club.player("B" * 200)
    club.ok("game", "add", "3", "4", "1-0", "--date", "2025-04-01")
    ((name,),) = club.rows("SELECT name FROM events")
    # the names are stored in full with the players; the label shortens them to fit
    assert name == "W" * 89 + "... - " + "B" * 89 + "..., 2025-04-01"
    assert len(name) <= 200
