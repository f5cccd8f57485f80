"""``export trf`` of a rapid or blitz event writes the ratings of that event's list: the start
numbers and the ``001`` ratings come from the list the event is rated on,
never from the standard list."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import service
from ratings.io.trf import parse_trf
from ratings.models import Player, RatingHistory
from ratings.results import Result
from ratings.rules import Period


def _register(session: Session) -> None:
    # Standard order Ann > Bob; rapid order Bob > Ann; blitz: Ann unrated, Bob 1500.
    service.add_player(session, "Ann", rating=2000, games=30, rapid_rating=1600, rapid_games=30)
    service.add_player(
        session,
        "Bob",
        rating=1700,
        games=30,
        rapid_rating=1900,
        rapid_games=30,
        blitz_rating=1500,
        blitz_games=30,
    )


def _game(
    session: Session, event: str, result: Result, day: dt.date, time_control: str | None = None
) -> None:
    """A game of Ann (white) against Bob in round 1 of ``event``."""
    service.add_game(
        session, "Ann", "Bob", result, day, event_name=event, round="1", time_control=time_control
    )


def _exported(session: Session, event: str) -> dict[str, int | None]:
    text = service.export_trf(session, event).text
    tournament = parse_trf(text.encode(), "x.trf")
    by_start = sorted(tournament.players, key=lambda p: p.start_no)
    return {p.name: p.rating for p in by_start}


def test_a_rapid_event_exports_entry_ratings_of_the_rapid_list(session: Session) -> None:
    _register(session)
    _game(session, "Rapid", Result.DRAW, dt.date(2025, 1, 10), "rapid")
    _game(session, "Blitz", Result.DRAW, dt.date(2025, 1, 10), "blitz")
    _game(session, "Classic", Result.DRAW, dt.date(2025, 1, 10))
    rapid = _exported(session, "Rapid")
    assert rapid == {"Bob": 1900, "Ann": 1600}
    assert list(rapid) == ["Bob", "Ann"]  # start numbers by the rapid rating
    assert _exported(session, "Blitz") == {"Bob": 1500, "Ann": None}
    assert list(_exported(session, "Classic")) == ["Ann", "Bob"]
    assert _exported(session, "Classic") == {"Ann": 2000, "Bob": 1700}


def test_a_rapid_event_exports_the_rapid_list_in_force(session: Session) -> None:
    _register(session)
    _game(session, "January rapid", Result.WHITE_WIN, dt.date(2025, 1, 10), "rapid")
    _game(session, "January standard", Result.WHITE_WIN, dt.date(2025, 1, 11))
    service.rate(session, through=Period.from_string("2025-01"))
    _game(session, "February rapid", Result.DRAW, dt.date(2025, 2, 10), "rapid")
    rapid_list = dict(
        session.execute(
            sa.select(Player.name, RatingHistory.rating_after)
            .join(Player, Player.id == RatingHistory.player_id)
            .where(RatingHistory.time_control == "rapid")
        ).all()
    )
    ann, bob = rapid_list["Ann"], rapid_list["Bob"]
    assert ann is not None
    assert ann > 1600  # Ann won the rapid game
    assert bob is not None
    assert bob < 1900
    assert _exported(session, "February rapid") == rapid_list
