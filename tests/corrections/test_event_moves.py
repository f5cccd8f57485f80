"""A game's date moves its whole event: an edit that changes an event's
dates or its period says so and needs confirmation (or ``--yes``); every command that marks
a rated period says so.

Seen: ``game edit 50 --date 2026-03-31`` pushed the February Swiss's end into March; all its
32 games were re-rated in March and 27 published ratings changed; the command printed only
"Changed game 50".
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from ratings import service
from ratings.cli.options import NOT_CONFIRMED
from ratings.results import Result
from ratings.service.corrections.moves import EventMoveError
from tests.support import Club, invoke

REFUSED = f"Error: {NOT_CONFIRMED}\n"

MARKED = "This touches rated period 2025-02: 'ratings rate' re-rates from there\n"


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """A February Swiss (3 to 24 February 2025; games 1 to 4, event 1) and a January game,
    rated."""
    club = Club(tmp_path / "club.db", "--system", "club")  # no closing days: by end date
    for name in ("Ann", "Bob", "Cat", "Dan"):
        club.player(name, "--rating", "1800", "--games", "40")
    for day, white, black in (("03", "Ann", "Bob"), ("10", "Cat", "Dan"), ("17", "Ann", "Cat"),
                              ("24", "Bob", "Dan")):  # fmt: skip
        club.game(white, black, "1-0", f"2025-02-{day}", "--event", "Feb Swiss")
    club.game("Ann", "Dan", "1/2-1/2", "2025-01-15")  # so that January is rated too
    club.ok("rate")
    return club


TO_MARCH = (
    "  game 4: played_on 2025-02-24 -> 2025-03-31\n"
    "  event 1 (Feb Swiss): end_date 2025-02-24 -> 2025-03-31\n"
)
"""The old -> new lines of game 4 moved to 31 March, its event's end with it."""
MOVE = (
    "event 'Feb Swiss' (id 1): 2025-02-03 .. 2025-02-24 -> 2025-02-03 .. 2025-03-31; "
    "its 4 games rated in period 2025-03, not 2025-02"
)


def test_a_date_that_moves_the_event_asks_first(club: Club) -> None:
    before = club.state()
    code, out, err = invoke(club, "game", "edit", "4", "--date", "2025-03-31", input="n\n")
    assert (code, out) == (1, "")
    assert err == f"This moves {MOVE}. Go ahead? [y/N]: n\n{REFUSED}"
    assert club.state() == before  # nothing changed

    code, out, err = invoke(club, "game", "edit", "4", "--date", "2025-03-31", input="y\n")
    assert (code, out) == (0, f"Changed game 4\n{TO_MARCH}Moved {MOVE}\n")
    assert err == f"This moves {MOVE}. Go ahead? [y/N]: y\n{MARKED}"
    assert club.rows("SELECT start_date, end_date FROM events WHERE id = 1") == [
        ("2025-02-03", "2025-03-31")
    ]


def test_yes_moves_without_asking_and_says_so(club: Club) -> None:
    code, out, err = invoke(club, "game", "edit", "4", "--date", "2025-03-31", "--yes")
    assert (code, out, err) == (0, f"Changed game 4\n{TO_MARCH}Moved {MOVE}\n", MARKED)
    # and back: the end follows its last game again
    code, out, err = invoke(club, "game", "edit", "4", "--date", "2025-02-24", "--yes")
    assert out == (
        "Changed game 4\n  game 4: played_on 2025-03-31 -> 2025-02-24\n"
        "  event 1 (Feb Swiss): end_date 2025-03-31 -> 2025-02-24\n"
        "Moved event 'Feb Swiss' (id 1): 2025-02-03 .. 2025-03-31 -> "
        "2025-02-03 .. 2025-02-24; its 4 games rated in period 2025-02, not 2025-03\n"
    )


def test_without_a_terminal_the_move_is_refused(club: Club) -> None:
    """A script that gives no answer (no --yes) changes nothing."""
    code, out, err = invoke(club, "game", "edit", "4", "--date", "2025-03-31", input="")
    assert (code, out) == (1, "")
    assert err.endswith(f"\n{REFUSED}")


def test_an_edit_within_the_event_asks_nothing_and_says_what_it_marked(club: Club) -> None:
    assert invoke(club, "game", "edit", "2", "--date", "2025-02-11") == (
        0, "Changed game 2\n  game 2: played_on 2025-02-10 -> 2025-02-11\n", MARKED,
    )  # fmt: skip
    # marked already: the command touched it all the same, and says so
    assert invoke(club, "game", "edit", "2", "--result", "0-1") == (
        0, "Changed game 2\n  game 2: result 1-0 -> 0-1\n", MARKED,
    )  # fmt: skip


def test_an_end_date_that_moves_within_the_period_asks_too(club: Club) -> None:
    _, out, _ = invoke(club, "game", "edit", "4", "--date", "2025-02-27", "--yes")
    assert out == (
        "Changed game 4\n  game 4: played_on 2025-02-24 -> 2025-02-27\n"
        "  event 1 (Feb Swiss): end_date 2025-02-24 -> 2025-02-27\n"
        "Moved event 'Feb Swiss' (id 1): 2025-02-03 .. 2025-02-24 -> 2025-02-03 .. 2025-02-27\n"
    )


def test_a_start_that_moves_to_another_list_says_so(club: Club) -> None:
    _, out, _ = invoke(club, "game", "edit", "1", "--date", "2025-01-31", "--yes")
    assert out == (
        "Changed game 1\n  game 1: played_on 2025-02-03 -> 2025-01-31\n"
        "  event 1 (Feb Swiss): start_date 2025-02-03 -> 2025-01-31\n"
        "Moved event 'Feb Swiss' (id 1): 2025-02-03 .. 2025-02-24 -> "
        "2025-01-31 .. 2025-02-24; its 4 games use the list of 2025-01-01, not 2025-02-01\n"
    )


def test_voiding_the_last_game_moves_the_end(club: Club) -> None:
    code, out, err = invoke(club, "game", "void", "4", input="y\n")
    assert code == 0
    assert out == (
        "Voided game 4\n  game 4: 2025-02-24, Bob (id 2) - Dan (id 4) 1-0 -> removed\n"
        "  event 1 (Feb Swiss): end_date 2025-02-24 -> 2025-02-17\n"
        "Moved event 'Feb Swiss' (id 1): 2025-02-03 .. 2025-02-24 -> "
        "2025-02-03 .. 2025-02-17\n"
    )
    assert err.endswith(MARKED)
    assert invoke(club, "game", "void", "2") == (
        0, "Voided game 2\n  game 2: 2025-02-10, Cat (id 3) - Dan (id 4) 1-0 -> removed\n", MARKED,
    )  # fmt: skip


def test_a_game_added_to_the_event_in_its_period_asks_nothing(club: Club) -> None:
    assert invoke(club, "game", "add", "Cat", "Bob", "1-0", "--date", "2025-02-26", "--event",
                  "Feb Swiss") == (0, "Added game 6\n", MARKED)  # fmt: skip


def test_a_game_added_in_the_next_period_asks_first(club: Club) -> None:
    args = ("game", "add", "Cat", "Bob", "1-0", "--date", "2025-03-02", "--event", "Feb Swiss")
    code, out, err = invoke(club, *args, input="n\n")
    assert (code, out) == (1, "")
    assert err.startswith(
        "This moves event 'Feb Swiss' (id 1): 2025-02-03 .. 2025-02-24 -> 2025-02-03 .. "
        "2025-03-02; its 5 games rated in period 2025-03, not 2025-02. Go ahead?"
    )
    assert club.rows("SELECT count(*) FROM games") == [(5,)]
    assert invoke(club, *args, "--yes")[0] == 0


def test_the_date_of_a_game_of_its_own_asks_nothing(club: Club) -> None:
    """A game without an event is an event of its own: no other game follows it."""
    assert invoke(club, "game", "edit", "5", "--date", "2025-01-16") == (
        0, "Changed game 5\n  game 5: played_on 2025-01-15 -> 2025-01-16\n"
        "  event 2 (Ann - Dan, 2025-01-15): start_date 2025-01-15 -> 2025-01-16\n"
        "  event 2 (Ann - Dan, 2025-01-15): end_date 2025-01-15 -> 2025-01-16\n",
        "This touches rated period 2025-01: 'ratings rate' re-rates from there\n",
    )  # fmt: skip
    # to another period it asks: the game is rated elsewhere
    code, _, err = invoke(club, "game", "edit", "5", "--date", "2025-02-16", input="n\n")
    assert (code, err) == (1, f"{err.split('[y/N]: ')[0]}[y/N]: n\n{REFUSED}")


def test_a_declared_span_stays_when_a_result_is_corrected(tmp_path: Path) -> None:
    """An imported event whose declared dates (TRF 042/052) are wider than its games keeps
    them: a result correction used to shrink it to its games' days."""
    club = Club(tmp_path / "trf.db")
    trf = Path(__file__).parents[1] / "data" / "trf" / "held_swiss_9.trf"
    club.ok("import", "trf", str(trf), "--date", "2024-08-01")
    (span,) = club.rows("SELECT start_date, end_date FROM events")
    code, out, err = invoke(club, "game", "edit", "1", "--result", "0-1")
    assert (code, out, err) == (0, "Changed game 1\n  game 1: result 1-0 -> 0-1\n", "")
    assert club.rows("SELECT start_date, end_date FROM events") == [span]


# --- the service functions -------------------------------------------------------------------


@pytest.fixture
def swiss(session: Session) -> None:
    for name in ("Ann", "Bob"):
        service.add_player(session, name, rating=1800, games=40)
    for day in (3, 24):
        service.add_game(session, "Ann", "Bob", Result.DRAW, dt.date(2025, 2, day),
                         event_name="Swiss")  # fmt: skip


def test_edit_game_refuses_an_unconfirmed_move(session: Session, swiss: None) -> None:
    with pytest.raises(EventMoveError, match=r"this moves event 'Swiss' \(id 1\)") as caught:
        service.edit_game(session, 2, played_on=dt.date(2025, 3, 20), allow_move=False)
    move = caught.value.move
    assert (move.old, move.new, move.old_period, move.new_period, move.games) == (
        (dt.date(2025, 2, 3), dt.date(2025, 2, 24)),
        (dt.date(2025, 2, 3), dt.date(2025, 3, 20)),
        "2025-02", "2025-03", 2,
    )  # fmt: skip
    assert move.moves_rating


def test_edit_game_logs_what_it_changed(session: Session, swiss: None) -> None:
    from ratings.service.shared import audit

    service.edit_game(session, 2, played_on=dt.date(2025, 3, 20), reason="a typo")
    lines = audit.entries(session, game_id=2) + audit.entries(session, event_id=1)
    assert {(c.field, c.old_value, c.new_value, c.reason) for c in lines} == {
        ("played_on", "2025-02-24", "2025-03-20", "a typo"),
        ("end_date", "2025-02-24", "2025-03-20", "a typo"),
    }
