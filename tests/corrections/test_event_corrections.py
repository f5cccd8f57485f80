"""``event edit`` and ``event void``: a whole event corrected at once,
new dates said and confirmed, everything on record in the corrections log.

Seen: ``game void`` takes one id, so undoing a wrong 38-game event took 38 commands.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from ratings import service
from ratings.cli.options import NOT_CONFIRMED
from ratings.errors import FutureDateError, InvalidInputError
from ratings.results import Result
from ratings.service.corrections import edits as corrections
from ratings.service.corrections.moves import EventMoveError
from ratings.service.shared import audit
from tests.support import Club, invoke

REFUSED = f"Error: {NOT_CONFIRMED}\n"

MARKED = "This touches rated period 2025-02: 'ratings rate' re-rates from there\n"


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """A February Open (event 1, games 1 to 3, 3 to 17 February 2025), a January game
    (event 2), rated."""
    club = Club(tmp_path / "club.db", "--system", "club")
    for name in ("Ann", "Bob", "Cat"):
        club.player(name, "--rating", "1800", "--games", "40")
    for day, white, black in (("03", "Ann", "Bob"), ("10", "Bob", "Cat"), ("17", "Cat", "Ann")):
        club.game(white, black, "1-0", f"2025-02-{day}", "--event", "Feb Open")
    club.game("Ann", "Cat", "1/2-1/2", "2025-01-15")
    club.ok("rate")
    return club


def test_event_edit_renames_without_asking(club: Club) -> None:
    assert invoke(club, "event", "edit", "Feb Open", "--name", "February Open") == (
        0, "Changed name of event 1 (February Open)\n"
        "  event 1 (February Open): name Feb Open -> February Open\n", "",
    )  # fmt: skip
    assert invoke(club, "event", "edit", "1", "--name", "February Open") == (
        0, "Nothing changed for event 1 (February Open)\n", "",
    )  # fmt: skip


def test_event_edit_of_the_dates_asks_and_says_what_moves(club: Club) -> None:
    before = club.state()
    args = ("event", "edit", "1", "--end", "2025-03-02", "--reason", "closing round")
    code, out, err = invoke(club, *args, input="n\n")
    move = (
        "event 'Feb Open' (id 1): 2025-02-03 .. 2025-02-17 -> 2025-02-03 .. 2025-03-02; "
        "its 3 games rated in period 2025-03, not 2025-02"
    )
    assert (code, out, err) == (1, "", f"This moves {move}. Go ahead? [y/N]: n\n{REFUSED}")
    assert club.state() == before
    code, out, err = invoke(club, *args, "--yes")
    assert (code, out, err) == (
        0, "Changed end_date of event 1 (Feb Open)\n"
        f"  event 1 (Feb Open): end_date 2025-02-17 -> 2025-03-02\nMoved {move}\n", MARKED,
    )  # fmt: skip
    assert club.rows(
        "SELECT field, old_value, new_value, reason FROM corrections WHERE action = 'event_edit'"
    ) == [("end_date", "2025-02-17", "2025-03-02", "closing round")]


def test_event_edit_keeps_every_game_inside(club: Club) -> None:
    assert invoke(club, "event", "edit", "1", "--end", "2025-02-15", "--yes") == (
        1, "",
        "Error: 1 game of event 1 (Feb Open) would lie outside 2025-02-03 .. 2025-02-15, "
        "first game 3 on 2025-02-17; move it first ('ratings game edit 3 --date YYYY-MM-DD')\n",
    )  # fmt: skip
    assert invoke(club, "event", "edit", "1", "--start", "2025-02-20", "--yes")[2] == (
        "Error: the end 2025-02-17 is before the start 2025-02-20\n"
    )
    assert invoke(club, "event", "edit", "nope", "--name", "x")[2] == "Error: no event 'nope'\n"


def test_event_void_asks_then_removes_everything_on_record(club: Club) -> None:
    before = club.state()
    code, out, err = invoke(club, "event", "void", "Feb Open", input="n\n")
    assert (code, out) == (1, "")
    assert err == (
        "Void event 1 (Feb Open, 2025-02-03 .. 2025-02-17) and its 3 games and 0 byes? "
        f"[y/N]: n\n{REFUSED}"
    )
    assert club.state() == before
    args = ("event", "void", "Feb Open", "--reason", "wrong file")
    code, out, err = invoke(club, *args, input="y\n")
    assert (code, out) == (
        0, "Voided event 1 (Feb Open): 3 games and 0 byes removed\n"
        "  event 1 Feb Open (2025-02-03 .. 2025-02-17)\n"
        "  game 1: 2025-02-03, Ann (id 1) - Bob (id 2) 1-0\n"
        "  game 2: 2025-02-10, Bob (id 2) - Cat (id 3) 1-0\n"
        "  game 3: 2025-02-17, Cat (id 3) - Ann (id 1) 1-0\n",
    )  # fmt: skip
    assert err.endswith(MARKED)
    assert club.rows("SELECT count(*) FROM games") == [(1,)]
    assert club.rows("SELECT count(*) FROM events") == [(1,)]
    logged = club.rows(
        "SELECT game_id, field, old_value FROM corrections WHERE action = 'event_void' "
        "AND field = 'result' ORDER BY game_id"
    )
    assert logged == [(1, "result", "1-0"), (2, "result", "1-0"), (3, "result", "1-0")]
    # the next rate re-rates February without the event
    assert club.ok("rate").startswith("Re-rated period 2025-02 after corrections;")


# --- the service functions -------------------------------------------------------------------


@pytest.fixture
def cup(session: Session) -> None:
    for name in ("Ann", "Bob"):
        service.add_player(session, name, rating=1800, games=40)
    for day in (3, 17):
        service.add_game(session, "Ann", "Bob", Result.DRAW, dt.date(2025, 2, day),
                         event_name="Cup")  # fmt: skip


def test_edit_event_service(session: Session, cup: None) -> None:
    with pytest.raises(EventMoveError), session.begin_nested():
        corrections.edit_event(session, "Cup", start=dt.date(2025, 1, 31), allow_move=False)
    with pytest.raises(FutureDateError, match="--end 2030-01-01 is after today"):
        corrections.edit_event(session, "Cup", end=dt.date(2030, 1, 1), today=dt.date(2026, 1, 1))
    with pytest.raises(InvalidInputError, match="an event needs a name"):
        corrections.edit_event(session, "Cup", name="  ")
    done = corrections.edit_event(session, "Cup", name="Club Cup", end=dt.date(2025, 2, 20))
    assert (done.name, done.changed) == ("Club Cup", ("name", "end_date"))
    assert done.move is not None
    assert not done.move.moves_rating


def test_void_event_service(session: Session, cup: None) -> None:
    voided = corrections.void_event(session, "Cup", reason="test")
    assert (voided.name, voided.games, voided.byes) == ("Cup", 2, 0)
    lines = audit.entries(session, event_id=voided.event_id)
    assert {line.field for line in lines} >= {"name", "white_id", "black_id", "result"}
    assert all(line.reason == "test" for line in lines)
