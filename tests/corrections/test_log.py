"""``ratings log``: every correction on record, shown oldest first; game
void and event void write the log too.

Seen: ``game void`` deleted with no record, and nothing showed what had been corrected.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

import ratings.clock
from ratings.db import SessionFactory, database_url, make_engine
from ratings.errors import PlayerNotFoundError
from ratings.service.corrections import log
from tests.support import Club, invoke

TODAY = dt.date(2026, 11, 30)


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """Every kind of correction once: player edit, game edit, game void, event void,
    unrate."""
    club = Club(tmp_path / "club.db", "--system", "club")
    for name in ("Ann", "Bob", "Cat"):
        club.player(name, "--rating", "1800", "--games", "40")
    club.game("Ann", "Bob", "1-0", "2026-09-10", "--event", "Sep Cup")
    club.game("Bob", "Cat", "1-0", "2026-10-10")
    club.game("Cat", "Ann", "1-0", "2026-10-11")
    club.ok("rate")
    club.ok("player", "edit", "Ann", "--rating", "1810", "--reason", "typo")
    club.ok("game", "edit", "2", "--result", "0-1", "--yes")
    club.ok("game", "void", "3", "--yes", "--reason", "not played")
    club.ok("event", "void", "Sep Cup", "--yes")
    club.ok("unrate", "--from", "2026-10", "--yes")
    return club


def test_every_correction_is_logged_and_shown(club: Club) -> None:
    assert club.rows("SELECT action FROM corrections GROUP BY action ORDER BY min(batch)") == [
        ("player_edit",), ("game_edit",), ("game_void",), ("event_void",), ("unrate",),
    ]  # fmt: skip
    code, out, err = invoke(club, "log", "--format", "json")
    assert (code, err) == (0, "")
    lines = json.loads(out)
    assert [(x["batch"], x["action"], x["what"], x["field"], x["old"], x["new"]) for x in lines
            if x["field"] in ("entry_rating", "result", "list")] == [
        (1, "player_edit", "player 1", "entry_rating", "1800", "1810"),
        (2, "game_edit", "game 2", "result", "1-0", "0-1"),
        (3, "game_void", "game 3", "result", "1-0", None),
        (4, "event_void", "game 1", "result", "1-0", None),
        (5, "unrate", "period 2026-10", "list", "list of 2026-11-01: 3 entries", None),
    ]  # fmt: skip
    assert lines[0]["reason"] == "typo"
    assert [x["batch"] for x in lines] == sorted(x["batch"] for x in lines)  # oldest first
    code, out, _ = invoke(club, "log")
    header = out.splitlines()[0].split()
    assert (code, header) == (0, ["batch", "when", "action", "what", "field", "old", "new",
                                  "reason"])  # fmt: skip
    assert len(out.splitlines()) > len(lines)


def test_log_of_one_player(club: Club) -> None:
    code, out, _ = invoke(club, "log", "--player", "Ann", "--format", "csv")
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == "batch,when,action,what,field,old,new,reason"
    assert [r.split(",")[2] for r in rows[1:]] == [
        "player_edit", "game_void", "event_void",
    ]  # fmt: skip
    assert invoke(club, "log", "--player", "Nobody")[0] == 1


def test_log_lines_service(club: Club) -> None:
    engine = make_engine(database_url(str(club.db)))
    with SessionFactory(bind=engine) as session, session.begin():
        every = log.log_lines(session)
        bob = log.log_lines(session, "Bob")
        with pytest.raises(PlayerNotFoundError):
            log.log_lines(session, "Nobody")
    engine.dispose()
    assert [line.id for line in every] == sorted(line.id for line in every)
    assert {line.action for line in bob} == {"game_edit", "event_void"}
    assert all(line.what for line in every)
