"""A stored event written back as a TRF16 file."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import (
    InvalidInputError,
)
from ratings.io.trf import TrfBye, TrfGame, TrfPlayer, TrfTournament, write_trf
from ratings.models import Bye, Game, Player, RatingHistory, RatingPeriod
from ratings.service.register.events import get_event


@dataclass(frozen=True, slots=True)
class TrfExport:
    """A stored event written as a TRF16 file."""

    event_id: int
    event_name: str
    text: str
    """The file (LF line endings)."""
    players: int
    games: int
    byes: int


def _round_number(value: str | None, what: str, fix: str) -> int:
    """A stored round as TRF's round number; ``fix``: the command that gives it one."""
    if value is None or not value.strip().isdigit() or int(value) < 1:
        has = "no round" if value is None else f"round {value!r}"
        raise InvalidInputError(
            f"{what} has {has}; a TRF file needs round numbers 1, 2, 3...: {fix}"
        )
    return int(value)


def _ratings_at(
    session: Session, ids: Sequence[int], day: dt.date, time_control: str
) -> dict[int, int | None]:
    """Each player's rating on the ``time_control`` list in force on ``day`` (the entry
    rating of that list before any)."""
    period = session.scalar(
        sa.select(RatingPeriod)
        .where(RatingPeriod.list_date <= day)
        .order_by(RatingPeriod.start_date.desc())
        .limit(1)
    )
    entry = (
        Player.entry_rating
        if time_control == "standard"
        else getattr(Player, f"{time_control}_entry_rating")
    )
    ratings: dict[int, int | None] = {
        pid: rating
        for pid, rating in session.execute(sa.select(Player.id, entry).where(Player.id.in_(ids)))
    }
    if period is not None:
        for pid, rating in session.execute(
            sa.select(RatingHistory.player_id, RatingHistory.rating_after).where(
                RatingHistory.period_id == period.id,
                RatingHistory.time_control == time_control,
                RatingHistory.player_id.in_(ids),
            )
        ):
            ratings[pid] = rating
    return ratings


def export_trf(session: Session, ref: str) -> TrfExport:
    """Write one stored event as a TRF16 file that :func:`import_trf` reads back to the
    same games and byes.

    Start numbers follow the rating in force at the event's start on the event's own list
    (standard, rapid or blitz; highest first, then name); each round is dated by its first
    game. Games must have whole round numbers.

    :raises InvalidInputError: for an unknown or ambiguous event, a game without a round
        number, or a value that does not fit its TRF column (a name over 33 characters...).
    """
    event = get_event(session, ref)
    games = list(
        session.scalars(sa.select(Game).where(Game.event_id == event.id).order_by(Game.id))
    )
    byes = list(session.scalars(sa.select(Bye).where(Bye.event_id == event.id).order_by(Bye.id)))
    ids = sorted(
        {g.white_id for g in games} | {g.black_id for g in games} | {b.player_id for b in byes}
    )
    players = {p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(ids)))}
    ratings = _ratings_at(session, ids, event.start_date, event.time_control)
    order = sorted(ids, key=lambda i: (-(ratings[i] or 0), players[i].name.lower(), i))
    start_no = {pid: n for n, pid in enumerate(order, start=1)}
    round_dates: dict[int, dt.date] = {}
    trf_games = []
    for g in games:
        number = _round_number(g.round, f"game {g.id}", f"'ratings game edit {g.id} --round N'")
        round_dates[number] = min(round_dates.get(number, g.played_on), g.played_on)
        trf_games.append(
            TrfGame(number, start_no[g.white_id], start_no[g.black_id], g.result, g.rateable, 0, 0)
        )
    trf_byes = [
        TrfBye(
            _round_number(
                b.round,
                f"the bye of player {b.player_id}",
                "correct the file it came from and import it again ('ratings import undo')",
            ),
            start_no[b.player_id],
            " " if b.code == "?" else b.code,
            0,
        )
        for b in byes
    ]
    tournament = TrfTournament(
        name=event.name,
        start_date=event.start_date,
        end_date=event.end_date,
        round_dates=round_dates,
        players=tuple(
            TrfPlayer(
                start_no=start_no[pid],
                name=players[pid].name,
                sex=players[pid].sex,
                title=players[pid].title,
                rating=ratings[pid],
                federation=players[pid].federation,
                fide_id=players[pid].fide_id,
                birth_date=players[pid].birth_date,
                birth_year=players[pid].birth_year,
                line=0,
            )
            for pid in order
        ),
        games=tuple(trf_games),
        byes=tuple(trf_byes),
    )
    try:
        text = write_trf(tournament)
    except ValueError as exc:
        raise InvalidInputError(f"event {event.id} cannot be written as TRF: {exc}") from None
    return TrfExport(event.id, event.name, text, len(order), len(games), len(byes))
