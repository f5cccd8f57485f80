"""``ratings import trf|pgn FILE`` and ``ratings export trf EVENT``: tournament files."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import click
from sqlalchemy.orm import Session

from ratings import files, service
from ratings.cli import App, pass_app
from ratings.cli.decisions import DECISIONS, DecisionOptions
from ratings.cli.imports import (
    FILE,
    PERIOD,
    REPORT_FORMAT,
    emit_json,
    import_,
    read_bytes,
    run_import,
    say_kept,
    say_taken,
    warn_unknown_games,
    would_stop,
)
from ratings.cli.options import (
    ALLOW_FUTURE,
    LATE_OK,
    TIME_CONTROL,
    bundle,
    say_late,
    stack,
    today_unless,
)
from ratings.cli.records import parse_date
from ratings.cli.tables import plural
from ratings.db import sqlite_path
from ratings.service.imports.events import EventSummary
from ratings.service.rating.periods import import_rating_period
from ratings.service.register.identity import Decisions

DATE = click.option(
    "--date",
    "date_text",
    metavar="YYYY-MM-DD",
    help="Date for games the file does not date (a file without event or round dates).",
)
DRY_RUN = click.option(
    "--dry-run", is_flag=True, help="Show what would be created and matched; write nothing."
)
ALLOW_DUPLICATES = click.option(
    "--allow-duplicates",
    is_flag=True,
    help="Import an event whose name, dates and players are already stored (refused "
    "otherwise: most are the same file saved again).",
)


class TournamentOptions(NamedTuple):
    """How ``import trf`` and ``import pgn`` store their file: the options they share."""

    dry_run: bool = False
    """``--dry-run``: show what would be stored, write nothing."""
    allow_duplicates: bool = False
    """``--allow-duplicates``: store an event that looks stored already."""
    allow_future: bool = False
    """``--allow-future``: accept game dates after today."""
    period: str | None = None
    """``--period YYYY-MM``: the period that rates the file's events."""
    late_ok: bool = False
    """``--late-ok``: let ``--period`` go beyond the 3rd list after an event's end."""
    time_control: str | None = None
    """``--time-control``: the list of the events created (None: standard)."""


_OPTIONS = stack(
    bundle(
        stack(DRY_RUN, ALLOW_DUPLICATES, ALLOW_FUTURE, PERIOD, LATE_OK, TIME_CONTROL),
        TournamentOptions,
        "how",
    ),
    DECISIONS,
    REPORT_FORMAT,
)
"""The options ``import trf`` and ``import pgn`` share, after their own: the command takes
them as ``how: TournamentOptions``, ``decided: DecisionOptions`` and ``fmt``."""


def _date(text: str | None) -> dt.date | None:
    return None if text is None else parse_date(text, "--date")


def _games(report: service.TournamentReport) -> str:
    text = f"{plural(report.games, 'game')} ({report.rated_games} to rate"
    if report.unrated_games:
        text += f", {report.unrated_games} not rated"
    return text + ")"


def _players(report: service.TournamentReport) -> str:
    created = "to create" if report.dry_run else "created"
    text = (
        f"Players: {report.count('new')} {created}, {report.count('fide_id')} matched by "
        f"FIDE id, {report.count('name')} matched by name"
    )
    for how, what in _MORE:
        if report.count(how):
            text += f", {report.count(how)} {what}"
    return text


_MORE = (
    ("folded", "by the name folded (accents, word order, punctuation)"),
    ("alias", "by alias"),
    ("match", "by your decisions"),
    ("ask", "need a decision"),
)
_BY = {"fide_id": "FIDE id", "name": "name", "folded": "folded name", "alias": "alias",
       "match": "decision"}  # fmt: skip


def _show_matches(report: service.TournamentReport) -> None:
    for p in report.players:
        who = f"{p.start_no:>4} {p.name}" if p.start_no is not None else p.name
        if p.how == "new":
            click.echo(f"  {who}: new player")
        elif p.how == "ask" and p.question is not None:
            options = ", ".join(map(str, p.question.options))
            click.echo(f"  {who}: close to {options}; needs --match or --new")
        else:
            click.echo(f"  {who}: player {p.player_id} ({p.registered_name}) by {_BY[p.how]}")


def _json(kind: str, file: Path, report: service.TournamentReport, late: list[str]) -> None:
    """``--format json`` of ``import trf|pgn``."""
    emit_json(
        kind, file, report.dry_run, report.matching,
        events=[{"event_id": e.event_id, "name": e.name, "start_date": e.start_date,
                 "end_date": e.end_date, "games": e.games} for e in report.events],
        games=report.games, rated_games=report.rated_games, unrated_games=report.unrated_games,
        byes=report.byes, skipped_unfinished=report.skipped_unfinished,
        skipped_phantom=report.skipped_phantom,
        players={how: report.count(how) for how in ("fide_id", "name", "folded", "alias",
                                                     "match", "new", "ask")},
        warnings=[str(w) for w in report.warnings], late=late,
        marked_period=report.marked_period,
    )  # fmt: skip


def _event(event: EventSummary) -> str:
    number = "" if event.event_id is None else f" {event.event_id}"
    return f"event{number} '{event.name}' ({event.start_date} .. {event.end_date})"


def _give_period(
    session: Session,
    data: bytes,
    report: service.TournamentReport,
    period: str | None,
    dry_run: bool,
    late_ok: bool,
) -> list[str]:
    """``--period``: the import's events rated in that period (a dry run only checks it);
    the warnings of those ``--late-ok`` lets through (art. 9.1)."""
    if period is None:
        return []
    ends = [(e.name, e.end_date) for e in report.events] if dry_run else []
    return import_rating_period(
        session, service.content_hash(data), period, dry_run=ends, late_ok=late_ok
    )


def _warnings(report: service.TournamentReport) -> None:
    for warning in report.warnings:
        click.echo(f"Warning: {warning}", err=True)


def _footer(report: service.TournamentReport) -> None:
    _warnings(report)
    if report.skipped_unfinished:
        click.echo(f"Skipped {plural(report.skipped_unfinished, 'unfinished game')}", err=True)
    if report.skipped_phantom:
        click.echo(
            f"Skipped {plural(report.skipped_phantom, 'empty game')} (text without tags)",
            err=True,
        )
    if report.marked_period:
        click.echo(
            f"This touches rated period {report.marked_period}: 'ratings rate' re-rates from there",
            err=True,
        )


def _store(
    app: App,
    importer: Callable[..., service.TournamentReport],
    file: Path,
    data: bytes,
    how: TournamentOptions,
    decided: DecisionOptions,
    **options: Any,
) -> tuple[service.TournamentReport, list[str]]:
    """One tournament file (TRF or PGN) imported in one unit of work by ``importer`` (with
    ``options``, its own), its events given ``--period``: the report, and the warnings of a
    period given late."""
    late: list[str] = []

    def work(session: Session, decisions: Decisions, _advance: object) -> service.TournamentReport:
        found = importer(
            session,
            data,
            str(file),
            dry_run=how.dry_run,
            allow_duplicates=how.allow_duplicates,
            today=today_unless(how.allow_future),
            time_control=how.time_control,
            decisions=decisions,
            **options,
        )
        late[:] = _give_period(session, data, found, how.period, how.dry_run, how.late_ok)
        return found

    report = run_import(app, work, decided=decided, dry_run=how.dry_run, creates=True)
    return report, late


@import_.command("trf")
@FILE
@DATE
@_OPTIONS
@pass_app
def import_trf(
    app: App,
    file: Path,
    date_text: str | None,
    how: TournamentOptions,
    decided: DecisionOptions,
    fmt: str,
) -> None:
    """Store one tournament from a FIDE TRF file (TRF16 or TRF-2026) as one event.

    Players are matched by FIDE id, then by name (an alias, or the one registered name that
    folds alike: accents, word order, punctuation); a player close to registered ones
    (initials, typos, two namesakes) stops the import, listed with its candidates, until
    --match or --new says who it is (asked on a terminal); unknown players are created with
    the file's data and its rating as their entry rating. Every problem of the file is
    listed at once. Unreadable round dates, federation codes that are not FIDE's (kept as
    written) and declared points that do not add up are warnings; a blank-result bye that
    the declared points show to be worth a half point is stored as H.
    """
    data = read_bytes(file)
    report, late = _store(
        app, service.import_trf, file, data, how, decided, default_date=_date(date_text)
    )
    dry_run = how.dry_run
    event = report.events[0]
    if fmt == "json":
        _json("trf", file, report, late)
    elif dry_run:
        click.echo(f"Dry run of {file}: nothing was written")
        click.echo(f"Would create {_event(event)}")
        click.echo(_players(report))
        _show_matches(report)
        click.echo(f"Games: {_games(report)}; byes: {report.byes}")
    else:
        click.echo(
            f"Imported {_games(report)} and {plural(report.byes, 'bye')} "
            f"in {_event(event)} from {file}"
        )
        click.echo(_players(report))
        say_taken(report.matching)
        say_late(late)
        say_kept(report.matching)
    if dry_run:
        _warnings(report)
        if fmt != "json":
            say_late(late)
        would_stop(report.matching)
        return
    _footer(report)
    warn_unknown_games(app, content_hash=service.content_hash(data))


@import_.command("pgn")
@FILE
@DATE
@click.option(
    "--entry-ratings",
    is_flag=True,
    help="Take WhiteElo/BlackElo (or a rating after the name) as the entry rating of "
    "players the import creates (each one's first game).",
)
@_OPTIONS
@pass_app
def import_pgn(
    app: App,
    file: Path,
    date_text: str | None,
    entry_ratings: bool,
    how: TournamentOptions,
    decided: DecisionOptions,
    fmt: str,
) -> None:
    """Store the games of a PGN file, read from their tags (one event per Event tag).

    Players are matched by FideId, then by name (an alias, or the one registered name that
    folds alike); a player close to registered ones stops the import until --match or --new
    says who it is (asked on a terminal); unknown players are created with name, FIDE id
    and title (WhiteTitle/BlackTitle), and no entry rating unless --entry-ratings is given.
    A rating in parentheses after a name ("Kasparov (2795)") is not part of the name.
    Unfinished games (*) are skipped.
    """
    data = read_bytes(file)
    report, late = _store(
        app, service.import_pgn, file, data, how, decided,
        default_date=_date(date_text), entry_ratings=entry_ratings,
    )  # fmt: skip
    dry_run = how.dry_run
    if fmt == "json":
        _json("pgn", file, report, late)
    else:
        events = plural(len(report.events), "event")
        if dry_run:
            click.echo(f"Dry run of {file}: nothing was written")
            click.echo(f"Games: {_games(report)} in {events}")
        else:
            click.echo(f"Imported {_games(report)} in {events} from {file}")
        for event in report.events:
            click.echo(f"  {_event(event)}: {plural(event.games, 'game')}")
        click.echo(_players(report))
        if dry_run:
            _show_matches(report)
        else:
            say_taken(report.matching)
            say_kept(report.matching)
        say_late(late)
    _footer(report)
    if dry_run:
        would_stop(report.matching)
    else:
        warn_unknown_games(app, content_hash=service.content_hash(data))


@click.group("export")
def export() -> None:
    """Write stored data as files other programs read."""


@export.command("trf")
@click.argument("event", metavar="EVENT")
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    help="File to write (default: standard output).",
)
@click.option("--force", is_flag=True, help="Replace an existing --output file.")
@pass_app
def export_trf(app: App, event: str, output: Path | None, force: bool) -> None:
    """Write one stored event (id or exact name) as a TRF16 file, with the ratings of the
    event's own list (standard, rapid or blitz)."""
    if output is not None:  # refused before the database is read, and checked again at the end
        files.check_destination(output, database=sqlite_path(app.url), force=force)
    with app.session() as session:
        exported = service.export_trf(session, event)
    if output is None:
        click.echo(exported.text, nl=False)
        return
    files.write_text(output, exported.text, force=force, database=sqlite_path(app.url))
    click.echo(
        f"Wrote event {exported.event_id} '{exported.event_name}' to {output} "
        f"({plural(exported.players, 'player')}, {plural(exported.games, 'game')}, "
        f"{plural(exported.byes, 'bye')})",
        err=True,
    )


def register(group: click.Group) -> None:
    """Add the ``export`` group to the top-level group (the imports join ``import``)."""
    group.add_command(export)
