"""An event's time control shown and corrected: ``event list`` and ``event show``
say which list rates an event; ``event edit --time-control`` moves its games from one list to
another, asked, logged, and marks its rated periods for a re-rate."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from ratings import service
from ratings.cli.options import NOT_CONFIRMED
from ratings.results import Result
from ratings.rules.time_control import InvalidTimeControlError
from ratings.service.corrections import edits as corrections
from ratings.service.corrections.moves import EventMoveError
from tests.support import Club, invoke

REFUSED = f"Error: {NOT_CONFIRMED}\n"

MARKED = "This touches rated period 2025-02: 'ratings rate' re-rates from there\n"

MOVE = (
    "event 'Feb Open' (id 1): 2025-02-03 .. 2025-02-17; "
    "its 3 games rated on the rapid list, not standard"
)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """A standard February Open (event 1, 3 games), a blitz game in January (event 2),
    rated."""
    club = Club(tmp_path / "club.db", "--system", "club")
    for name in ("Ann", "Bob", "Cat"):
        club.player(name, "--rating", "1800", "--games", "40", "--rapid-rating", "1700",
                    "--rapid-games", "40")  # fmt: skip
    for day, white, black in (("03", "Ann", "Bob"), ("10", "Bob", "Cat"), ("17", "Cat", "Ann")):
        club.game(white, black, "1-0", f"2025-02-{day}", "--event", "Feb Open")
    club.game("Ann", "Cat", "1/2-1/2", "2025-01-15", "--event", "Jan Blitz",
              "--time-control", "blitz")  # fmt: skip
    club.ok("rate")
    return club


def _list(club: Club, list_type: str) -> dict[str, dict[str, object]]:
    data = json.loads(club.ok("list", "--all", "--format", "json", "--list", list_type))
    return {p["name"]: p for p in data["players"]}


def test_event_list_and_show_give_the_time_control(club: Club) -> None:
    table = club.ok("event", "list").splitlines()
    assert table[0].split() == [
        "id", "name", "start_date", "end_date", "period", "time_control", "games", "rated_games",
        "byes", "source", "import_id",
    ]  # fmt: skip
    assert table[2].split()[:7] == ["2", "Jan", "Blitz", "2025-01-15", "2025-01-15", "2025-01",
                                    "blitz"]  # fmt: skip
    assert table[3].split()[:7] == ["1", "Feb", "Open", "2025-02-03", "2025-02-17", "2025-02",
                                    "standard"]  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(club.ok("event", "list", "--format", "csv"))))
    assert [(r["name"], r["time_control"]) for r in rows] == [
        ("Jan Blitz", "blitz"), ("Feb Open", "standard"),
    ]  # fmt: skip
    data = json.loads(club.ok("event", "list", "--format", "json"))
    assert [(e["name"], e["time_control"]) for e in data] == [
        ("Jan Blitz", "blitz"), ("Feb Open", "standard"),
    ]  # fmt: skip
    shown = club.ok("event", "show", "Jan Blitz").splitlines()
    assert shown[2] == "Time control: blitz (rated on the blitz list)"
    assert club.ok("event", "show", "Feb Open").splitlines()[2] == (
        "Time control: standard (rated on the standard list)"
    )


def test_event_edit_time_control_asks_logs_and_moves_the_games(club: Club) -> None:
    event = "1"
    standard_before, rapid_before = _list(club, "standard"), _list(club, "rapid")
    assert standard_before["Ann"]["period_games"] == 2
    assert all(p["period_games"] == 0 for p in rapid_before.values())
    before = club.state()
    args = ("event", "edit", "Feb Open", "--time-control", "rapid", "--reason", "was rapid")
    move = MOVE
    # refused without confirmation: nothing changes
    code, out, err = invoke(club, *args, input="n\n")
    assert (code, out, err) == (1, "", f"This moves {move}. Go ahead? [y/N]: n\n{REFUSED}")
    assert club.state() == before
    code, out, err = invoke(club, *args)  # no answer (a script): refused too
    assert (code, out) == (1, "")
    assert err.endswith(REFUSED)
    assert club.state() == before
    # confirmed
    code, out, err = invoke(club, *args, input="y\n")
    assert (code, out) == (
        0, f"Changed time_control of event {event} (Feb Open)\n"
        f"  event {event} (Feb Open): time_control standard -> rapid\nMoved {move}\n",
    )  # fmt: skip
    assert err == f"This moves {move}. Go ahead? [y/N]: y\n{MARKED}"
    assert club.rows(
        "SELECT event_id, field, old_value, new_value, reason FROM corrections "
        "WHERE action = 'event_edit'"
    ) == [(1, "time_control", "standard", "rapid", "was rapid")]
    assert club.rows("SELECT status FROM rating_periods WHERE label = '2025-02'") == [
        ("needs_rerate",)
    ]
    assert club.ok("rate").startswith("Re-rated period 2025-02 after corrections;")
    standard, rapid = _list(club, "standard"), _list(club, "rapid")
    # the standard list loses the games, the rapid list gets them
    assert all(p["period_games"] == 0 for p in standard.values())
    assert {n: standard[n]["rating"] for n in standard} == {"Ann": 1800, "Bob": 1800,
                                                            "Cat": 1800}  # fmt: skip
    assert {n: rapid[n]["period_games"] for n in rapid} == {"Ann": 2, "Bob": 2, "Cat": 2}
    assert {n: rapid[n]["rating"] for n in rapid} == {"Ann": 1700, "Bob": 1700, "Cat": 1700}
    assert club.rows("SELECT count(*) FROM rating_calculations WHERE time_control = 'rapid'") == [
        (6,)
    ]
    assert club.rows(
        "SELECT count(*) FROM rating_calculations WHERE time_control = 'standard' "
        "AND period = '2025-02'"
    ) == [(0,)]
    shown = club.ok("event", "show", "Feb Open").splitlines()
    assert shown[2] == "Time control: rapid (rated on the rapid list)"
    # and back, with --yes: no question
    code, out, err = invoke(club, "event", "edit", event, "--time-control", "standard", "--yes")
    back = move.replace("rapid list, not standard", "standard list, not rapid")
    assert (code, out, err) == (
        0, f"Changed time_control of event {event} (Feb Open)\n"
        f"  event {event} (Feb Open): time_control rapid -> standard\nMoved {back}\n", MARKED,
    )  # fmt: skip
    club.ok("rate")
    assert _list(club, "standard") == standard_before


def test_event_edit_to_the_same_time_control_changes_nothing(club: Club) -> None:
    before = club.state()
    for value in ("standard", "STANDARD"):
        assert invoke(club, "event", "edit", "Feb Open", "--time-control", value) == (
            0, "Nothing changed for event 1 (Feb Open)\n", "",
        )  # fmt: skip
    assert club.state() == before  # nothing logged, no period marked
    code, _, err = invoke(club, "event", "edit", "Feb Open", "--time-control", "bullet")
    assert code == 2
    assert "'bullet' is not one of 'standard', 'rapid', 'blitz'" in err


# --- the service function --------------------------------------------------------------------


def test_edit_event_time_control_service(session: Session) -> None:
    for name in ("Ann", "Bob"):
        service.add_player(session, name, rating=1800, games=40)
    service.add_game(session, "Ann", "Bob", Result.DRAW, dt.date(2025, 2, 3), event_name="Cup")
    with pytest.raises(EventMoveError) as caught, session.begin_nested():
        corrections.edit_event(session, "Cup", time_control="blitz", allow_move=False)
    assert caught.value.move.moves_rating
    assert caught.value.move.describe().endswith("its 1 game rated on the blitz list, not standard")
    with pytest.raises(InvalidTimeControlError):
        corrections.edit_event(session, "Cup", time_control="bullet")
    done = corrections.edit_event(session, "Cup", time_control="Blitz", reason="blitz")
    assert done.changed == ("time_control",)
    assert done.move is not None
    assert (done.move.old_time_control, done.move.new_time_control) == ("standard", "blitz")
    again = corrections.edit_event(session, "Cup", time_control="blitz")
    assert (again.changed, again.move) == ((), None)
