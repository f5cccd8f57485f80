"""``ratings import undo``: remove what one import added.

An import of games (games CSV, TRF, PGN) added events, their games and byes, and may have
registered players and stored aliases (the decisions it was given: ``--match``, ``--new``,
prompt answers); an import of players (players CSV) registered players. Undo removes all
of that, marks the rated periods it touched for a re-rate, deletes the import's row (so that
a corrected file can be imported again) and writes every removed row to the corrections log.

The plan names every event, game, bye, player and alias it removes, and the games of the
import's events that were not in the file (added by hand since: ``games.import_id``). The
rows the removed players have on published lists go to ``superseded_ratings`` as
``withdrawn`` (the next re-rate reports them with its changes); each list that loses rows
gets a new version of its seal (docs/DESIGN.md#sealed-lists). The import's row stays,
marked undone by the correction (``imports.undone_by``); its file may be imported again.

It refuses, naming them, when later corrections depend on the import: a game or event of it
edited, a game side or bye of it moved by a merge, a player it registered that was merged,
edited, or plays in other events. What cannot be undone exactly is refused too: the changes
``import players --update`` made to registered players, and ``import fide-list`` refreshes
(their old values are in the corrections log; ``player edit`` puts them back).

Set-based: rows are read as tuples, deleted with a few statements per 500 ids, no ORM
object per game. Takes the session first and never commits.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, aliased

from ratings.errors import InvalidInputError
from ratings.models import (
    Bye,
    Correction,
    Event,
    Game,
    Import,
    MergeMove,
    Player,
    PlayerAlias,
    RatingHistory,
    RatingPeriod,
)
from ratings.results import Result
from ratings.service.corrections.edits import delete_events, mark_event
from ratings.service.corrections.logged import game_text, player_lines
from ratings.service.rating.marks import mark_for_rerate
from ratings.service.rating.seals import seal_lists
from ratings.service.rating.supersede import withdraw_players
from ratings.service.shared import audit
from ratings.service.shared.sql import to_date

__all__ = ["UndoGame", "UndoImportError", "UndoPlan", "plan_undo", "undo_import"]

_GAME_FIELDS = ("played_on", "round", "white_id", "black_id", "result", "rateable")
_SHOWN = 5
"""Problems named one by one; more are counted."""


class UndoImportError(InvalidInputError):
    """An import that cannot be undone (exactly, or without undoing later corrections)."""


@dataclass(frozen=True, slots=True)
class UndoGame:
    """A game an undo removes."""

    id: int
    played_on: dt.date
    round: str | None
    white_id: int
    white: str
    black_id: int
    black: str
    result: str
    in_file: bool
    """False for a game added by hand to the import's event (not in the file)."""

    def line(self) -> str:
        """``game 70: 2024-08-01 round 3, Alyx (id 3) - Bruno (id 4) 1-0``."""
        text = game_text(
            self.id,
            self.played_on,
            self.round,
            (self.white_id, self.white),
            (self.black_id, self.black),
            self.result,
        )
        return text if self.in_file else f"{text}: not in the file (added by hand)"


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """What undoing one import removes."""

    import_id: int
    file_name: str
    kind: str
    events: tuple[tuple[int, str, dt.date, dt.date], ...]
    """(id, name, start, end) of the events it created."""
    games: tuple[UndoGame, ...]
    byes: tuple[tuple[str, int, str, str], ...]
    """(round, player id, player name, code)."""
    players: tuple[tuple[int, str], ...]
    """The players it registered that go with it (id, name)."""
    aliases: tuple[tuple[int, str, int, str], ...] = ()
    """The aliases it stored (id, name as written, player id, player name)."""
    list_rows: int = 0
    """The rows of those players on published lists (they go to superseded_ratings)."""
    list_periods: tuple[str, str] | None = None
    """The first and the last period of those rows."""

    def describe(self) -> str:
        """``1 event, 38 games (1 not in the file), 4 byes, 3 players and 1 alias`` (what is
        there)."""
        by_hand = sum(1 for g in self.games if not g.in_file)
        games = _plural(len(self.games), "game") + (
            f" ({by_hand} not in the file)" if by_hand else ""
        )
        parts = [
            text
            for n, text in (
                (len(self.events), _plural(len(self.events), "event")),
                (len(self.games), games),
                (len(self.byes), _plural(len(self.byes), "bye")),
                (len(self.players), _plural(len(self.players), "player")),
                (
                    len(self.aliases),
                    "1 alias" if len(self.aliases) == 1 else f"{len(self.aliases)} aliases",
                ),
            )
            if n
        ]
        if not parts:
            return "nothing (it added nothing that is still stored)"
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def lines(self) -> list[str]:
        """One line for every event, game, bye, player and alias it removes, and one for the
        published list rows of the players."""
        lines = [f"event {eid} {name} ({start} .. {end})" for eid, name, start, end in self.events]
        lines += [g.line() for g in self.games]
        lines += [
            f"bye: round {rnd}, {name} (id {pid}) {code}" for rnd, pid, name, code in self.byes
        ]
        lines += [f"player {pid} {name}" for pid, name in self.players]
        lines += [
            f"alias {name!r} of player {pid} ({holder})" for _, name, pid, holder in self.aliases
        ]
        if self.list_periods is not None:
            first, last = self.list_periods
            span = first if first == last else f"{first} .. {last}"
            lists = "list" if first == last else "lists"
            lines.append(
                f"{self.list_rows} row{'s' if self.list_rows != 1 else ''} of those players on "
                f"the published {lists} {span} (kept in superseded_ratings, withdrawn)"
            )
        return lines


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _chunks(ids: Sequence[int]) -> Iterable[Sequence[int]]:
    for i in range(0, len(ids), 500):
        yield ids[i : i + 500]


def _refuse(item: Import, problems: list[str]) -> UndoImportError:
    shown = problems[:_SHOWN]
    more = len(problems) - len(shown)
    tail = f"; and {more} more" if more else ""
    return UndoImportError(
        f"import {item.id} ({item.file_name}) cannot be undone: later corrections depend on "
        f"it: {'; '.join(shown)}{tail}"
    )


def plan_undo(session: Session, import_id: int) -> UndoPlan:
    """What :func:`undo_import` would remove; checks that it may.

    :raises UndoImportError: for an unknown import, one that cannot be undone exactly
        (``import fide-list``, ``import players --update`` changes), or one that later
        corrections depend on (each named).
    """
    item = _undoable(session, import_id)
    events = tuple(
        session.scalars(sa.select(Event.id).where(Event.import_id == item.id).order_by(Event.id))
    )
    in_events = Game.event_id.in_(events) if events else sa.false()
    games = sa.select(Game.id).where(in_events)
    in_its_byes = Bye.event_id.in_(events) if events else sa.false()
    byes = sa.select(Bye.id).where(in_its_byes)
    registered = list(
        session.execute(
            sa.select(Player.id, Player.name, Player.merged_into_id)
            .where(Player.import_id == item.id)
            .order_by(Player.id)
        )
    )
    ids = [pid for pid, _, _ in registered]
    names = {pid: name for pid, name, _ in registered}
    problems = _later_changes(session, item, games, byes)
    problems += _players_held(session, item, registered, events, in_events)
    if problems:
        raise _refuse(item, problems)
    if item.kind == "players_csv" and not ids and item.rows:
        # made before schema 0005 recorded which players an import registers: removing
        # nothing and forgetting the import would look like an undo and be none
        raise UndoImportError(
            f"import {item.id} ({item.file_name}) registered players this database cannot "
            "trace back to it (imports made before schema 0005 did not record them); nothing "
            "was undone: remove its players with 'ratings player merge' or leave them"
        )
    return _plan(session, item, in_events, in_its_byes, ids, names)


def _undoable(session: Session, import_id: int) -> Import:
    """The import, if it is one :func:`undo_import` can undo exactly (not undone already,
    not a FIDE list, no ``import players --update`` changes)."""
    item = session.get(Import, import_id)
    if item is None:
        raise UndoImportError(f"no import with id {import_id}; 'ratings import list' shows them")
    if item.undone_by is not None:
        raise UndoImportError(
            f"import {item.id} ({item.file_name}) was undone already (correction "
            f"{item.undone_by}, 'ratings log')"
        )
    if item.kind == "fide_list":
        raise UndoImportError(
            f"import {item.id} ({item.file_name}) refreshed the register from FIDE's list, "
            "which cannot be undone exactly; the values it replaced are in 'ratings log': "
            "put back what must go back with 'ratings player edit'"
        )
    updated = session.scalars(
        sa.select(Correction.player_id)
        .where(Correction.import_id == item.id, Correction.action == "player_edit")
        .distinct()
        .order_by(Correction.player_id)
    ).all()
    if updated:
        raise UndoImportError(
            f"import {item.id} ({item.file_name}) changed "
            f"{_plural(len(updated), 'registered player')} (import players --update: "
            f"{', '.join(str(p) for p in updated[:_SHOWN])}"
            f"{', ...' if len(updated) > _SHOWN else ''}), which cannot be undone exactly; "
            "the old values are in 'ratings log': put them back with 'ratings player edit'"
        )
    return item


def _later_changes(
    session: Session, item: Import, games: sa.Select[Any], byes: sa.Select[Any]
) -> list[str]:
    """The corrections since that touched the import's games and events: edits, and merges
    that moved a player of its games or byes."""
    problems: list[str] = []
    for action, what, column, rows in (
        ("game_edit", "game", Correction.game_id, games),
        (
            "event_edit",
            "event",
            Correction.event_id,
            sa.select(Event.id).where(Event.import_id == item.id),
        ),
    ):
        for ref, batch in session.execute(
            sa.select(column, sa.func.min(Correction.batch))
            .where(Correction.action == action, column.in_(rows))
            .group_by(column)
            .order_by(column)
        ):
            problems.append(f"{what} {ref} was edited ('ratings log', correction {batch})")
    for batch, moved, row in session.execute(
        sa.select(MergeMove.batch, MergeMove.moved, MergeMove.row_id)
        .where(
            sa.or_(
                sa.and_(MergeMove.moved.in_(("white", "black")), MergeMove.row_id.in_(games)),
                sa.and_(MergeMove.moved == "bye", MergeMove.row_id.in_(byes)),
            )
        )
        .order_by(MergeMove.id)
    ):
        what = "bye" if moved == "bye" else "game"
        problems.append(f"a merge (correction {batch}) moved a player of {what} {row}")
    return problems


def _players_held(  # noqa: C901 (one branch per reason a player cannot go, so the refusal names them all)
    session: Session,
    item: Import,
    registered: Sequence[Any],
    events: tuple[int, ...],
    in_events: sa.ColumnElement[bool],
) -> list[str]:
    """Why the players the import registered cannot go: merged, kept in a merge, edited or
    merged later, in another event's games or byes, or holding an alias from elsewhere."""
    problems: list[str] = []
    ids = [pid for pid, _, _ in registered]
    names = {pid: name for pid, name, _ in registered}
    blocked: set[int] = set()

    def block(pid: int, why: str) -> None:
        blocked.add(pid)
        problems.append(f"player {pid} ({names[pid]}) it registered {why}")

    for pid, _, merged_into in registered:
        if merged_into is not None:
            block(pid, f"was merged into player {merged_into}")
    for chunk in _chunks(ids):
        for kept_id, other in session.execute(
            sa.select(Player.merged_into_id, Player.id)
            .where(Player.merged_into_id.in_(chunk))
            .order_by(Player.id)
        ):
            if kept_id is not None:
                block(kept_id, f"kept player {other} in a merge")
        for edited, action, batch in session.execute(
            sa.select(Correction.player_id, Correction.action, sa.func.min(Correction.batch))
            .where(
                Correction.player_id.in_(chunk),
                Correction.action.in_(("player_edit", "player_merge", "player_unmerge")),
            )
            .group_by(Correction.player_id, Correction.action)
            .order_by(Correction.player_id)
        ):
            if edited is not None and edited not in blocked:
                done = "edited" if action == "player_edit" else "merged"
                block(edited, f"was {done} later (correction {batch})")
        for side in (Game.white_id, Game.black_id):
            for pid, event_id in session.execute(
                sa.select(side, sa.func.min(Game.event_id))
                .where(side.in_(chunk), sa.not_(in_events))
                .group_by(side)
            ):
                if pid not in blocked:
                    block(pid, f"plays in event {event_id}")
        for pid, event_id in session.execute(
            sa.select(Bye.player_id, sa.func.min(Bye.event_id))
            .where(
                Bye.player_id.in_(chunk),
                sa.not_(Bye.event_id.in_(events) if events else sa.false()),
            )
            .group_by(Bye.player_id)
        ):
            if pid not in blocked:
                block(pid, f"has a bye in event {event_id}")
    for chunk in _chunks(ids):
        for holder, name, stored_by in session.execute(
            sa.select(PlayerAlias.player_id, PlayerAlias.name, PlayerAlias.import_id)
            .where(
                PlayerAlias.player_id.in_(chunk),
                sa.or_(PlayerAlias.import_id.is_(None), PlayerAlias.import_id != item.id),
            )
            .order_by(PlayerAlias.id)
        ):
            if holder not in blocked:
                given = f"import {stored_by}" if stored_by is not None else "'player alias add'"
                block(holder, f"has the alias {name!r} ({given})")
    return problems


def _plan(
    session: Session,
    item: Import,
    in_events: sa.ColumnElement[bool],
    in_its_byes: sa.ColumnElement[bool],
    ids: list[int],
    names: dict[int, str],
) -> UndoPlan:
    """Every row the undo removes, named for its prompt, and the published rows of the
    players it removes."""
    white, black = aliased(Player), aliased(Player)
    game_rows = session.execute(
        sa.select(
            Game.id, Game.played_on, Game.round, Game.white_id, white.name, Game.black_id,
            black.name, Game.result, Game.import_id,
        )
        .join(white, white.id == Game.white_id)
        .join(black, black.id == Game.black_id)
        .where(in_events)
        .order_by(Game.id)
    )  # fmt: skip
    games_removed = tuple(
        UndoGame(gid, to_date(day), rnd, w, wn, b, bn, Result(res).value, imp == item.id)
        for gid, day, rnd, w, wn, b, bn, res, imp in game_rows
    )
    byes_removed = tuple(
        (rnd, pid, name, code)
        for rnd, pid, name, code in session.execute(
            sa.select(Bye.round, Bye.player_id, Player.name, Bye.code)
            .join(Player, Player.id == Bye.player_id)
            .where(in_its_byes)
            .order_by(Bye.id)
        )
    )
    event_rows = tuple(
        (eid, name, to_date(start), to_date(end))
        for eid, name, start, end in session.execute(
            sa.select(Event.id, Event.name, Event.start_date, Event.end_date)
            .where(Event.import_id == item.id)
            .order_by(Event.id)
        )
    )
    aliases = session.execute(
        sa.select(PlayerAlias.id, PlayerAlias.name, PlayerAlias.player_id, Player.name)
        .join(Player, Player.id == PlayerAlias.player_id)
        .where(PlayerAlias.import_id == item.id)
        .order_by(PlayerAlias.id)
    )
    listed_rows, first, last = 0, None, None
    for chunk in _chunks(ids):
        count, low, high = session.execute(
            sa.select(
                sa.func.count(), sa.func.min(RatingPeriod.label), sa.func.max(RatingPeriod.label)
            )
            .select_from(RatingHistory)
            .join(RatingPeriod, RatingPeriod.id == RatingHistory.period_id)
            .where(RatingHistory.player_id.in_(chunk))
        ).one()
        if count:
            listed_rows += count
            first = low if first is None else min(first, low)
            last = high if last is None else max(last, high)
    return UndoPlan(
        item.id,
        item.file_name,
        item.kind,
        event_rows,
        games_removed,
        byes_removed,
        tuple((pid, names[pid]) for pid in ids),
        tuple((aid, name, pid, holder) for aid, name, pid, holder in aliases),
        listed_rows,
        None if first is None or last is None else (first, last),
    )


def undo_import(session: Session, import_id: int, *, reason: str | None = None) -> UndoPlan:
    """Remove what import ``import_id`` added: its
    events with their games (those added by hand too), byes and calculations, the players
    it registered and the aliases it stored. The removed players' rows on published lists
    go to ``superseded_ratings`` (``withdrawn``; the next re-rate reports them). The rated
    periods its events touch are marked for a re-rate, and so is the oldest rated period
    that lists a removed player. Every removed row goes to the corrections log with
    ``reason``; the import's row stays, ``undone_by`` that batch.

    :raises UndoImportError: see :func:`plan_undo`.
    :raises PeriodError: when an event of it lies before the rating history.
    :raises LimitError: for a bad ``reason``.
    """
    audit.check_reason(reason)
    plan = plan_undo(session, import_id)
    item = session.get(Import, import_id)
    assert item is not None  # plan_undo found it
    lines, spans = _event_lines(session, item.id)
    event_ids = [eid for eid, _, _, _ in plan.events]
    lines += _game_and_bye_lines(session, item.id, event_ids)
    removed = [pid for pid, _ in plan.players]
    for chunk in _chunks(removed):
        for player in session.scalars(
            sa.select(Player).where(Player.id.in_(chunk)).order_by(Player.id)
        ):
            lines += player_lines(player, item.id)
    listed_from = _mark_rerates(session, spans, removed)
    delete_events(session, event_ids)
    conn = session.connection()
    lines += [
        audit.Change(import_id=item.id, player_id=pid, field="alias", old=name)
        for _, name, pid, _ in plan.aliases
    ]
    for chunk in _chunks([aid for aid, _, _, _ in plan.aliases]):
        marks = ", ".join(str(int(a)) for a in chunk)
        conn.exec_driver_sql(f"DELETE FROM player_aliases WHERE id IN ({marks})")
    withdraw_players(session, removed)
    session.expire_all()
    lines.append(
        audit.Change(
            import_id=plan.import_id, field="import", old=f"{plan.kind} {plan.file_name}", new=None
        )
    )
    batch = audit.record(session, audit.Action.IMPORT_UNDO, *lines, reason=reason)
    conn.exec_driver_sql(f"UPDATE imports SET undone_by = {int(batch)} WHERE id = {int(item.id)}")
    if listed_from is not None:  # the lists lost rows: sealed again now, not at the re-rate
        session.flush()
        seal_lists(session, since=listed_from, cause="import undo withdrew its players' rows")
    return plan


_Span = tuple[tuple[dt.date, dt.date], dt.date | None]
"""An event's (start, end) and the day of its first game (None: no game)."""


def _event_lines(session: Session, import_id: int) -> tuple[list[audit.Change], list[_Span]]:
    """The log lines of the import's events (name, dates, source) and their spans."""
    lines: list[audit.Change] = []
    spans: list[_Span] = []
    for event_id, name, start, end, source, first in session.execute(
        sa.select(
            Event.id,
            Event.name,
            Event.start_date,
            Event.end_date,
            Event.source,
            sa.select(sa.func.min(Game.played_on))
            .where(Game.event_id == Event.id)
            .scalar_subquery(),
        )
        .where(Event.import_id == import_id)
        .order_by(Event.id)
    ):
        lines += [
            audit.Change(event_id=event_id, import_id=import_id, field=field, old=value)
            for field, value in (
                ("name", name), ("start_date", start), ("end_date", end), ("source", source),
            )
        ]  # fmt: skip
        spans.append(((start, end), None if first is None else to_date(first)))
    return lines, spans


def _game_and_bye_lines(
    session: Session, import_id: int, event_ids: Sequence[int]
) -> list[audit.Change]:
    """The log lines of every game (each field) and bye of the events removed."""
    if not event_ids:
        return []
    lines: list[audit.Change] = []
    for row in session.execute(
        sa.select(Game.id, Game.event_id, *(getattr(Game, f) for f in _GAME_FIELDS))
        .where(Game.event_id.in_(event_ids))
        .order_by(Game.id)
    ):
        game_id, event_id, *values = row
        sides = {"white_id": values[2], "black_id": values[3]}
        lines += [
            audit.Change(
                game_id=game_id,
                event_id=event_id,
                import_id=import_id,
                player_id=sides.get(field),
                field=field,
                old=value,
            )
            for field, value in zip(_GAME_FIELDS, values, strict=True)
        ]
    for event_id, round_, player_id, code in session.execute(
        sa.select(Bye.event_id, Bye.round, Bye.player_id, Bye.code)
        .where(Bye.event_id.in_(event_ids))
        .order_by(Bye.id)
    ):
        lines.append(
            audit.Change(
                event_id=event_id,
                import_id=import_id,
                player_id=player_id,
                field="bye",
                old=f"round {round_}: {code}",
            )
        )
    return lines


def _mark_rerates(
    session: Session, spans: Sequence[_Span], removed: Sequence[int]
) -> dt.date | None:
    """Mark the rated periods the events touch, and the oldest that lists a removed player
    (returned: None when no list has one)."""
    for span, first_game in spans:
        mark_event(session, [span], first_game)
    oldest: dt.date | None = None
    for chunk in _chunks(removed):
        found = session.scalar(
            sa.select(sa.func.min(RatingPeriod.start_date))
            .join(RatingHistory, RatingHistory.period_id == RatingPeriod.id)
            .where(RatingHistory.player_id.in_(chunk))
        )
        if found is not None:
            day = to_date(found)
            oldest = day if oldest is None else min(oldest, day)
    if oldest is not None:
        mark_for_rerate(session, oldest)
    return oldest
