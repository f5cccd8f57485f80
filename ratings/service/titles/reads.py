"""What the norm checks of an event read (docs/TITLES.md): its games and byes, the register's
norm columns of its players, and the standard list in force on a day.
:mod:`ratings.service.titles.norms`
reads them for one event; a site's event pages hand over the games and byes their
page has read, and share one :class:`NormReads` for the lists, so that a publish reads each
list's ratings of a player once instead of once per event."""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.models import Bye, Game, Player, RatingHistory, RatingPeriod
from ratings.results import Result

__all__ = [
    "EventRows",
    "ListsInForce",
    "NormByeRow",
    "NormGameRow",
    "NormReads",
    "Registered",
    "players_of",
    "read_event_rows",
]

_CHUNK = 500
"""Player ids per ``IN (...)`` list."""


class NormGameRow(NamedTuple):
    """One game of an event as the norm checks read it."""

    round: str | None
    played_on: dt.date
    white_id: int
    black_id: int
    result: Result
    rateable: bool


class NormByeRow(NamedTuple):
    """One bye of an event as the norm checks read it."""

    player_id: int
    round: str
    code: str


@dataclass(frozen=True, slots=True)
class EventRows:
    """An event's games (in the order played: by day, then by id) and byes, when the caller
    has read them already (a site's event page)."""

    games: Sequence[NormGameRow]
    byes: Sequence[NormByeRow]


def read_event_rows(session: Session, event_id: int) -> EventRows:
    """An event's games, in the order played, and its byes, read from the database."""
    games = session.execute(
        sa.select(
            Game.round, Game.played_on, Game.white_id, Game.black_id, Game.result, Game.rateable
        )
        .where(Game.event_id == event_id)
        .order_by(Game.played_on, Game.id)
    )
    byes = session.execute(
        sa.select(Bye.player_id, Bye.round, Bye.code).where(Bye.event_id == event_id)
    )
    return EventRows([NormGameRow(*r) for r in games], [NormByeRow(*r) for r in byes])


class NormReads:
    """The reads the norm checks of many events share (a site's event pages): the
    list dates, read once, and each list's ratings of the players already asked for, so that
    an event reads only its players that an earlier event did not. The ratings of the
    :data:`_KEPT_LISTS` lists asked for last are kept (events come in about the order they
    were played)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        rows = session.execute(
            sa.select(RatingPeriod.list_date, RatingPeriod.id).order_by(RatingPeriod.list_date)
        ).all()
        self.dates = [r[0] for r in rows]
        self.period_ids = [r[1] for r in rows]
        self._read: dict[int, tuple[set[int], dict[int, int | None]]] = {}

    def list_ratings(self, list_date: dt.date, ids: Sequence[int]) -> dict[int, int | None]:
        """The standard ratings on the list of ``list_date`` of those of ``ids`` who have a
        row on it (None: unrated on it)."""
        period_id = self.period_ids[self.dates.index(list_date)]
        found = self._read.pop(period_id, None)
        asked, ratings = found if found is not None else (set(), {})
        self._read[period_id] = (asked, ratings)  # the newest asked for, last
        while len(self._read) > _KEPT_LISTS:
            del self._read[next(iter(self._read))]
        missing = [pid for pid in ids if pid not in asked]
        for i in range(0, len(missing), _CHUNK):
            chunk = missing[i : i + _CHUNK]
            for pid, rating in self.session.execute(
                sa.select(RatingHistory.player_id, RatingHistory.rating_after).where(
                    RatingHistory.period_id == period_id,
                    RatingHistory.time_control == "standard",
                    RatingHistory.player_id.in_(chunk),
                )
            ):
                ratings[pid] = rating
        asked.update(missing)
        return ratings


_KEPT_LISTS = 16
"""The lists whose ratings :class:`NormReads` keeps."""


class ListsInForce:
    """The standard list in force on a day (the newest published list dated on or before
    it; before any, the register's entry ratings), each read once."""

    def __init__(self, reads: NormReads, entry: dict[int, int | None], ids: Sequence[int]):
        self.reads = reads
        self.entry = entry
        self.ids = ids
        self.dates = reads.dates
        self.read: dict[dt.date | None, dict[int, int | None]] = {}

    def date_on(self, day: dt.date) -> dt.date | None:
        i = bisect.bisect_right(self.dates, day)
        return self.dates[i - 1] if i else None

    def ratings(self, list_date: dt.date | None) -> dict[int, int | None]:
        found = self.read.get(list_date)
        if found is not None:
            return found
        ratings = dict(self.entry)
        if list_date is not None:
            on_list = self.reads.list_ratings(list_date, self.ids)
            ratings.update((pid, on_list[pid]) for pid in self.ids if pid in on_list)
        self.read[list_date] = ratings
        return ratings


Registered = tuple[str, str | None, str | None, str | None, int | None]
"""A player's name, federation, title, sex and entry rating."""


def players_of(session: Session, ids: Sequence[int]) -> dict[int, Registered]:
    """(name, federation, title, sex, entry rating) by id."""
    found: dict[int, Registered] = {}
    for i in range(0, len(ids), _CHUNK):
        for pid, name, fed, title, sex, entry in session.execute(
            sa.select(
                Player.id,
                Player.name,
                Player.federation,
                Player.title,
                Player.sex,
                Player.entry_rating,
            ).where(Player.id.in_(ids[i : i + _CHUNK]))
        ):
            found[pid] = (name, fed, title, sex, entry)
    return found
