"""Importing a TRF16 or TRF-2026 file as one event (README.md#trf-and-pgn-files): each ``001``
line's player through the one pipeline (:mod:`ratings.service.imports.pipeline`), the games
and byes in bulk."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, tiebreaks
from ratings.errors import (
    InputFileError,
    LimitError,
)
from ratings.federations import is_fide_federation
from ratings.io.notes import FileWarning
from ratings.io.trf import TrfPlayer, TrfTournament, parse_trf
from ratings.limits import TITLES
from ratings.models import Event
from ratings.service.imports.events import (
    EventSummary,
    PlayerMatch,
    TournamentReport,
    check_day,
    check_history,
    check_name,
    event_name,
    refuse_duplicates,
    store_events,
)
from ratings.service.imports.incoming import Incoming, NewPlayer
from ratings.service.imports.pipeline import Resolver, finish
from ratings.service.imports.storing import check_not_imported, content_hash, insert_games
from ratings.service.register.identity import Decisions
from ratings.service.shared.dates import future_problem
from ratings.service.shared.sql import bulk_insert, date_param

TRF_NAME_WIDTH = 33
"""The TRF's name column (columns 15-47): a name that fills it may have been cut."""

_TRF_TITLES = {"G": "GM", "M": "IM", "F": "FM", "C": "CM"}
_TRF_TITLES |= {"W" + k: "W" + v for k, v in _TRF_TITLES.items()}


def _new_trf_player(
    new: NewPlayer,
    p: TrfPlayer,
    file_name: str,
    errors: list[InputFileError],
    clubs: dict[str, list[int]],
) -> None:
    """Fill a player to create from the ``001`` line, checking what the register requires."""

    def problem(text: str, field: str) -> None:
        errors.append(InputFileError(file_name, p.line, text, field))

    checks: list[tuple[int | None, int, int, str]] = [
        (p.rating, limits.MIN_RATING, limits.MAX_RATING, "rating"),
        (p.birth_year, limits.MIN_BIRTH_YEAR, limits.MAX_BIRTH_YEAR, "birth date"),
    ]
    for value, low, high, field in checks:
        if value is not None:
            try:
                limits.check_range(value, low, high)
            except LimitError as exc:
                problem(str(exc), field)
    federation = None
    if p.federation and is_fide_federation(p.federation):
        federation = p.federation.upper()
    elif p.federation:
        try:  # kept as written (a club code), within the column and without control characters
            federation = limits.check_text(p.federation, limits.FEDERATION_LENGTH)
            clubs.setdefault(federation, []).append(p.line)
        except LimitError as exc:
            problem(str(exc), "federation")
    title = None
    if p.title:
        code = p.title.upper()
        title = code if code in TITLES else _TRF_TITLES.get(code)
    new.rating, new.birth_date, new.birth_year = p.rating, p.birth_date, p.birth_year
    new.sex, new.federation, new.title = p.sex, federation, title


@dataclass(frozen=True, slots=True)
class _TrfDates:
    """When a TRF event's games were played."""

    days: dict[int, dt.date]
    """Game date by round."""
    start: dt.date
    end: dt.date
    warning: FileWarning | None
    """Which date the games of rounds with an unusable ``132`` date take."""


def _trf_dates(
    t: TrfTournament,
    file_name: str,
    default_date: dt.date | None,
    errors: list[InputFileError],
) -> _TrfDates | None:
    """The dates of the games and the event; None (and the problems in ``errors``) when
    they cannot be had."""
    lines = t.record_lines
    found = len(errors)
    for day, record, field in [
        (t.start_date, "042", "start date"),
        (t.end_date, "052", "end date"),
        *((d, "132", f"round {n} date") for n, d in sorted(t.round_dates.items())),
    ]:
        if day is not None:
            try:
                check_day(day, file_name, lines.get(record), field)
            except InputFileError as exc:
                errors.append(exc)
    if t.start_date and t.end_date and t.end_date < t.start_date:
        errors.append(
            InputFileError(
                file_name,
                lines.get("052"),
                f"the end date {t.end_date} is before the start date {t.start_date}",
                "end date",
            )
        )
    round_dates = dict(t.round_dates)
    sources = [
        (t.start_date, "the start date, 042"),
        (min(round_dates.values()) if round_dates else None, "the first round date, 132"),
        (t.end_date, "the end date, 052"),
        (default_date, "--date"),
    ]
    base, source = next(((day, what) for day, what in sources if day is not None), (None, ""))
    if base is None:
        errors.append(
            InputFileError(
                file_name, None, "no event or round dates in the file; give --date YYYY-MM-DD"
            )
        )
        return None
    if base == default_date:
        try:
            check_day(base, file_name, None, "--date")
        except InputFileError as exc:
            errors.append(exc)
    if len(errors) > found:
        return None
    days = {g.round: round_dates.get(g.round, base) for g in t.games}
    played = list(days.values())
    start = min([*played, *([t.start_date] if t.start_date else [])], default=base)
    end = max([*played, *([t.end_date] if t.end_date else [])], default=start)
    undated = sorted({g.round for g in t.games} & set(t.undated_rounds))
    warning = None
    if undated:
        rounds = ", ".join(map(str, undated))
        warning = FileWarning(
            file_name,
            lines.get("132"),
            f"the games of round{'s' if len(undated) > 1 else ''} {rounds} are dated {base} "
            f"({source}), as their round dates are not used",
            "round dates",
        )
    return _TrfDates(days, start, max(start, end), warning)


def _trf_future(
    t: TrfTournament,
    file_name: str,
    default_date: dt.date | None,
    today: dt.date | None,
    errors: list[InputFileError],
) -> None:
    """The file's dates (and ``--date``) after ``today``, one error each."""
    if today is None:
        return
    lines = t.record_lines
    for day, record, field in [
        (t.start_date, "042", "start date"),
        (t.end_date, "052", "end date"),
        *((d, "132", f"round {n} date") for n, d in sorted(t.round_dates.items())),
        (default_date, None, "--date"),
    ]:
        problem = future_problem(day, today) if day is not None else None
        if problem:
            line = lines.get(record) if record else None
            errors.append(InputFileError(file_name, line, problem, field))


def import_trf(
    session: Session,
    data: bytes,
    file_name: str,
    *,
    default_date: dt.date | None = None,
    allow_duplicates: bool = False,
    dry_run: bool = False,
    today: dt.date | None = None,
    time_control: str | None = None,
    decisions: Decisions | None = None,
) -> TournamentReport:
    """Import one TRF16 or TRF-2026 file as one event, or nothing (README.md#trf-and-pgn-files).

    ``time_control`` is the event's list: standard (None: the default), rapid or blitz.

    Games are dated by their round's ``132`` date, else the event's start (``042``, else the
    first round date, else ``052``), else ``default_date``; a file with none of these and no
    ``default_date`` is refused. Played games (``1``/``=``/``0`` with colours ``w``/``b``) are
    rated; ``W``/``D``/``L`` and forfeits are stored unrated; entries without an opponent go
    to ``byes`` (a blank code is stored as ``?``). The event spans its games' days and the
    ``042``/``052`` dates.

    :param dry_run: resolve and check everything, write nothing (the players that need a
        decision are in the report, with ``how`` ``ask``).
    :param decisions: the administrator's answers about the file's players (``--match``,
        ``--new``, the prompt); each is stored as an alias.
    :param today: an event, round or ``--date`` date after it is an error (None: no check).
    :raises InputFileError: (or :class:`InputFileErrors`) for a malformed file, a player
        that cannot be matched, a date out of range, after ``today`` or before the rating
        history.
    :raises MatchQuestionsError: for players the matcher cannot tell for certain (with the
        file's other problems), before anything is written.
    :raises DuplicateImportError: when the same bytes were imported before, or (unless
        ``allow_duplicates``) the file's event is stored already: the same name, dates and
        players, as a file saved again with other line endings gives.
    """
    data_hash = content_hash(data)
    check_not_imported(session, data_hash, file_name)
    errors: list[InputFileError] = []
    t = parse_trf(data, file_name, errors=errors)
    # lines whose player data could not be read (already reported): not matched; a line
    # with a bad round block still names its player
    broken = {e.line for e in errors if not (e.field or "").startswith("round")}
    dates = _trf_dates(t, file_name, default_date, errors)
    _trf_future(t, file_name, default_date, today, errors)
    resolver = Resolver(session, file_name, decisions, ratings=True)
    players = _TrfPlayers(resolver, errors)
    for p in t.players:
        if p.line not in broken:
            players.add(p)
    finish(resolver, errors, dry_run=dry_run)
    assert dates is not None  # else an error was raised
    check_history(session, dates.end, file_name)
    name = event_name(t.name, file_name)
    if not allow_duplicates:
        event = (name, dates.start, dates.end, set(players.ids.values()))
        refuse_duplicates(session, file_name, [event])
    warnings = _trf_warnings(t, dates, players, file_name)
    if dry_run:
        return _trf_report(t, name, dates, players, warnings, dry_run=True)

    def insert_rows(import_id: int, created: dict[int, int], event_ids: dict[str, int]) -> None:
        if t.tiebreaks:
            session.execute(
                sa.update(Event)
                .where(Event.id == event_ids[name])
                .values(tiebreaks=",".join(t.tiebreaks))
            )
        _insert_trf_rows(session, event_ids[name], import_id, t, dates.days, players.id_of(created))

    rows = len(t.games) + len(t.byes)
    spans = {name: (dates.start, dates.end)}
    lists = {name: time_control or "standard"}
    event_ids, created, marked = store_events(
        session, resolver, "trf", data_hash, rows, spans, lists, insert_rows
    )
    return _trf_report(
        t, name, dates, players, warnings, event_id=event_ids[name], created=created,
        marked=marked, dry_run=False,
    )  # fmt: skip


class _TrfPlayers:
    """The players of a TRF file as :func:`import_trf` reads them, one ``001`` line at a
    time: resolved, their problems in ``errors``."""

    def __init__(self, resolver: Resolver, errors: list[InputFileError]) -> None:
        self.resolver, self.file_name, self.errors = resolver, resolver.file_name, errors
        self.ids: dict[int, int] = {}  # start number -> player id or placeholder
        self.owner: dict[int, TrfPlayer] = {}  # player id or placeholder -> its line
        self.matches: list[tuple[TrfPlayer, int, str]] = []
        self.clubs: dict[str, list[int]] = {}  # federation column values that are not FIDE's

    def add(self, p: TrfPlayer) -> None:
        """One ``001`` line: its player found, asked about or to create (filled from the
        line), or its problem in ``errors``."""
        file_name, errors = self.file_name, self.errors
        try:
            check_name(p.name, file_name, p.line)
            pid, how = self.resolver.resolve(
                Incoming(
                    p.line,
                    p.name,
                    fide_id=p.fide_id,
                    birth_year=p.birth_year,
                    sex=p.sex,
                    federation=p.federation,
                    rating=p.rating,
                    cut=len(p.name) >= TRF_NAME_WIDTH,
                )
            )
        except InputFileError as exc:
            errors.append(exc)
            return
        if pid in self.owner:
            first = self.owner[pid]
            errors.append(
                InputFileError(
                    file_name,
                    p.line,
                    f"player {p.start_no} ({p.name!r}) is the same player as {first.start_no} "
                    f"({first.name!r}) on line {first.line}",
                    "name",
                )
            )
            return
        if how == "new":
            _new_trf_player(self.resolver.new_player(pid), p, file_name, errors, self.clubs)
        self.owner[pid] = p
        self.ids[p.start_no] = pid
        self.matches.append((p, pid, how))

    def id_of(self, created: dict[int, int]) -> Callable[[int], int]:
        """A start number's player id, once the new players are ``created``."""

        def player_id(start_no: int) -> int:
            pid = self.ids[start_no]
            return created.get(pid, pid)

        return player_id


def _trf_warnings(
    t: TrfTournament, dates: _TrfDates, players: _TrfPlayers, file_name: str
) -> tuple[FileWarning, ...]:
    """What the import notices but does not refuse the file for, in line order: the
    reader's, the round dates not used, the matcher's, the club codes kept as federations and
    the tie-breaks not computed here."""
    warnings = [
        *t.warnings,
        *([dates.warning] if dates.warning else []),
        *players.resolver.warnings,
    ]
    for code, lines in players.clubs.items():
        count = "1 new player" if len(lines) == 1 else f"{len(lines)} new players"
        warnings.append(
            FileWarning(
                file_name,
                lines[0],
                f"{code!r} is not a FIDE federation code; kept as written ({count}, "
                f"first on line {lines[0]})",
                "federation",
            )
        )
    chosen, unknown = tiebreaks.named(t.tiebreaks)
    if unknown:
        ranks = ", ".join(tb.code for tb in chosen) if chosen else "the event's system's"
        warnings.append(
            FileWarning(
                file_name,
                t.record_lines.get("202"),
                f"tie-break{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} not computed "
                f"here: the crosstable ranks ties by {ranks} (the record is kept as written)",
                "tie-breaks",
            )
        )
    warnings.sort(key=lambda w: w.line or 0)
    return tuple(warnings)


def _trf_report(
    t: TrfTournament,
    name: str,
    dates: _TrfDates,
    players: _TrfPlayers,
    warnings: tuple[FileWarning, ...],
    *,
    dry_run: bool,
    event_id: int | None = None,
    created: dict[int, int] | None = None,
    marked: str | None = None,
) -> TournamentReport:
    """The import's report: with ``dry_run`` what it would store (the players that need a
    decision with their question), else what it stored (``created``: the new players' ids)."""
    resolver, created = players.resolver, created or {}
    asked = {q.line: q for q in resolver.questions}
    rated = sum(1 for g in t.games if g.rated)

    def match(p: TrfPlayer, pid: int, how: str) -> PlayerMatch:
        found = created.get(pid, pid)
        question = asked.get(p.line) if how == "ask" else None
        return PlayerMatch(p.name, p.line, found if found > 0 else None, how,
                           resolver.names[pid], p.start_no, question)  # fmt: skip

    return TournamentReport(
        file_name=resolver.file_name,
        dry_run=dry_run,
        events=(EventSummary(event_id, name, dates.start, dates.end, len(t.games)),),
        players=tuple(match(p, pid, how) for p, pid, how in players.matches),
        rated_games=rated,
        unrated_games=len(t.games) - rated,
        byes=len(t.byes),
        marked_period=marked,
        warnings=warnings,
        matching=resolver.matching(created),
    )


def _insert_trf_rows(
    session: Session,
    event_id: int,
    import_id: int,
    t: TrfTournament,
    days: dict[int, dt.date],
    player_id: Callable[[int], int],
) -> None:
    """The event's games and byes, each in one bulk insert."""
    insert_games(
        session,
        (
            (
                event_id,
                str(g.round),
                date_param(session, days[g.round]),
                player_id(g.white),
                player_id(g.black),
                g.result.value,
                g.rated,
                import_id,
            )
            for g in t.games
        ),
    )
    bulk_insert(
        session,
        "byes",
        ("event_id", "round", "player_id", "code"),
        ((event_id, str(b.round), player_id(b.player), b.code.strip() or "?") for b in t.byes),
    )
