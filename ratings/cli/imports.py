"""``ratings import players|games|trf|pgn FILE``: bulk input, all or nothing."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from sqlalchemy.orm import Session

from ratings import clock, files, service
from ratings.cli import App, pass_app
from ratings.cli.decisions import MATCH, MATCH_FILE, NEVER_ASK, NEW, deciding, decisions_of
from ratings.cli.options import ALLOW_FUTURE, LATE_OK, TIME_CONTROL, say_late, today_unless
from ratings.cli.progress import Progress
from ratings.io.csv import DATE_FORMATS, read_games_csv, read_players_csv
from ratings.service.notices import count_unknown_games, event_span_warnings, imported_events
from ratings.service.rating_periods import import_rating_period

FILE = click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
DATE_FORMAT = click.option(
    "--date-format",
    type=click.Choice(DATE_FORMATS),
    default="YYYY-MM-DD",
    show_default=True,
    help="How the file writes its dates, as spreadsheets save them (03/12/2026 is "
    "DD/MM/YYYY in most of Europe, MM/DD/YYYY in the USA).",
)
PERIOD = click.option(
    "--period",
    metavar="YYYY-MM",
    help="Rate the events in this period: the list they were submitted for, when later than "
    "their end date gives (the games still use the list in force at each event's start).",
)


def read_bytes(path: Path) -> bytes:
    """A file's bytes, or a located error (a line too long: as soon as it is met)."""
    return files.read_input(path)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _value(value: object) -> str:
    text = service.audit.as_text(value)
    return "(none)" if text is None else text


UNKNOWN_GAMES_WARNING = (
    "Warning: {n} rated player{s} without a known count of prior rated games: K 20 unless "
    "junior or 2400 (README, 'Unknown game counts'); 'ratings player list --unknown-games' "
    "lists them, 'ratings player edit PLAYER --games N' or 'ratings import fide-list FILE' "
    "(FIDE's K) settles them"
)
"""Printed on stderr by every import and ``rate`` while such players are registered."""


def warn_unknown_games(
    app: App,
    events: Sequence[
        tuple[str, dt.date, dt.date] | tuple[str, dt.date, dt.date, dt.date | None]
    ] = (),
    content_hash: str | None = None,
) -> None:
    """The one warning about rated players whose count of prior games is unknown; before it,
    one per imported event that spans more than one period (``events``, or those of the
    import of ``content_hash``)."""
    with app.session(commit=False) as session:
        n = count_unknown_games(session)
        if content_hash is not None:
            events = imported_events(session, content_hash)
        spans = event_span_warnings(service.get_config(session), events)
    for warning in spans:
        click.echo(f"Warning: {warning}", err=True)
    if n:
        click.echo(UNKNOWN_GAMES_WARNING.format(n=n, s="" if n == 1 else "s"), err=True)


_FOUND = (
    ("folded", "by the name folded (accents, word order, punctuation)"),
    ("alias", "by alias"),
    ("match", "by your decisions"),
)


def say_taken(taken: Sequence[service.Taken]) -> None:
    """One line per player taken other than by the exact registered name or FIDE id."""
    for item in taken:
        click.echo(f"  {item}")


def say_matched(report: service.ImportReport) -> None:
    """How many names were found beyond their key (and who each was taken for), and the
    aliases kept (after the commit)."""
    counts = dict(report.matched)
    parts = [f"{counts[how]} {what}" for how, what in _FOUND if counts.get(how)]
    if parts:
        click.echo(f"Players found {', '.join(parts)}")
    say_taken(report.taken)
    for name, pid in report.aliases:
        click.echo(f"Alias {name!r} kept for player {pid}")
    for line in report.unkept:
        click.echo(f"Not kept: {line}")


def _summary(report: service.ImportReport) -> None:
    if report.marked_period:
        click.echo(
            f"This touches rated period {report.marked_period}: 'ratings rate' re-rates from there",
            err=True,
        )


@click.group("import")
def import_() -> None:
    """Bulk input from CSV, TRF and PGN files (a whole file goes in, or nothing)."""


def _import_csv(
    app: App,
    file: Path,
    read: Callable[[bytes, str], Sequence[Any]],
    store: Callable[[Session, Sequence[Any], str, str], service.ImportReport],
    stored: str,
    *,
    dry_run: bool = False,
    repeat_ok: bool = False,
) -> service.ImportReport:
    """Read a CSV file and store its rows in one transaction, with a progress bar
    (``dry_run``: the same work, rolled back; ``repeat_ok``: the service decides what the
    same bytes imported before mean)."""
    data = read_bytes(file)
    digest = service.content_hash(data)
    with Progress(3, f"Importing {file.name}") as bar:
        with app.session(commit=not dry_run, bulk=True) as session:
            if not repeat_ok:
                service.check_not_imported(session, digest, str(file))
            rows = read(data, str(file))
            bar.advance(item="file read")
            report = store(session, rows, str(file), digest)
            bar.advance(item=stored)
        bar.advance(item="saved")
    return report


@import_.command("players")
@FILE
@click.option(
    "--update",
    is_flag=True,
    help="Refresh the register: rows that find a registered player (id, FIDE id, else the "
    "name) change the values they give; the others are added.",
)
@click.option(
    "--allow-same-name",
    is_flag=True,
    help="Add players whose name is registered (told apart by FIDE id or birthdate).",
)
@click.option(
    "--take-sheet",
    is_flag=True,
    help="With --update: take the sheet's value where the register's was corrected since "
    "the sheet was made (by default the correction, newer than the sheet, stays).",
)
@click.option("--keep-corrected", is_flag=True, hidden=True)  # the default now; still accepted
@click.option(
    "--dry-run", is_flag=True, help="Check the file and show what would change; write nothing."
)
@DATE_FORMAT
@MATCH
@MATCH_FILE
@NEW
@NEVER_ASK
@pass_app
def import_players(
    app: App,
    file: Path,
    update: bool,
    allow_same_name: bool,
    take_sheet: bool,
    keep_corrected: bool,
    dry_run: bool,
    date_format: str,
    matches: tuple[str, ...],
    match_file: Path | None,
    new: tuple[str, ...],
    never_ask: bool,
) -> None:
    """Register the players of a CSV file (name, birthdate, fide_id, rating, games, k10...).

    Without --update a row that is already registered (its name folded: accents, word order)
    is an error, and one close to a registered name waits for --new. With --update a row
    finds its player by id (the first column of 'player list --format csv'), FIDE id or name;
    every change is printed as field: register -> sheet and recorded in the corrections log;
    a changed birthdate or entry rating re-rates, as 'player edit' does. A value corrected
    in the register since the sheet was made stays (said per row) unless --take-sheet. The
    same sheet again with --update changes nothing and says so.
    """
    if (take_sheet or keep_corrected) and not update:
        flag = "--take-sheet" if take_sheet else "--keep-corrected"
        raise click.UsageError(f"{flag} goes with --update")
    if take_sheet and keep_corrected:
        raise click.UsageError("--take-sheet and --keep-corrected say the opposite")
    read = functools.partial(read_players_csv, date_format=date_format)

    def run(answers: dict[str, int | None]) -> service.ImportReport:
        def store(
            session: Session, rows: Sequence[Any], name: str, digest: str
        ) -> service.ImportReport:
            decisions = decisions_of(session, matches, match_file, new).with_answers(answers)
            return service.import_players(
                session,
                rows,
                name,
                digest,
                update=update,
                allow_same_name=allow_same_name,
                decisions=decisions,
                take_sheet=take_sheet,
                today=clock.today(),
            )

        return _import_csv(
            app, file, read, store, "players stored", dry_run=dry_run, repeat_ok=update
        )

    report = deciding(run, never_ask=never_ask, creates=not update)
    if report.same_as_import is not None and not report.changes and not report.players_created:
        click.echo(
            f"{file}: nothing changed (imported before as import {report.same_as_import}, and "
            "the register still holds every value it gives)"
        )
        return
    if dry_run:
        click.echo(f"Dry run of {file}: nothing was written")
    for change in report.changes:
        text = f"Player {change.player_id} ({change.name}): {change.field} "
        if change.kept:
            click.echo(
                f"{text}{_value(change.old)} kept (corrected since the sheet was made, "
                f"correction {change.corrected}; the sheet has {_value(change.new)}; "
                "--take-sheet takes it)"
            )
            continue
        note = ""
        if change.corrected is not None:
            note = (
                f" (the sheet's older value: correction {change.corrected} set "
                f"{_value(change.old)} since)"
            )
        click.echo(f"{text}{_value(change.old)} -> {_value(change.new)}{note}")
    done = "Would import" if dry_run else "Imported"
    if update:
        updated = "update" if dry_run else "updated"
        click.echo(
            f"{done} {_count(report.players_created, 'new player')}, {updated} "
            f"{report.players_updated} ({report.players_unchanged} unchanged) from {file}"
        )
    else:
        click.echo(f"{done} {report.players_created} players from {file}")
    say_matched(report)
    if dry_run:
        return
    _summary(report)
    warn_unknown_games(app)


@import_.command("games")
@FILE
@ALLOW_FUTURE
@click.option(
    "--allow-duplicates",
    is_flag=True,
    help="Import rows identical to stored games (refused otherwise: most are the same file "
    "saved again).",
)
@PERIOD
@LATE_OK
@TIME_CONTROL
@DATE_FORMAT
@click.option(
    "--dry-run", is_flag=True, help="Check the file and show what would be stored; write nothing."
)
@MATCH
@MATCH_FILE
@NEVER_ASK
@pass_app
def import_games(
    app: App,
    file: Path,
    allow_future: bool,
    allow_duplicates: bool,
    period: str | None,
    late_ok: bool,
    time_control: str | None,
    date_format: str,
    dry_run: bool,
    matches: tuple[str, ...],
    match_file: Path | None,
    never_ask: bool,
) -> None:
    """Store the games of a CSV file (date, white, black, result, event, round, and
    optionally time_control: standard, rapid or blitz, one per event).

    White and black are FIDE ids or names: a name is found by its key, else by the matcher
    (an alias, the one registered name that folds alike); a name close to registered ones
    (initials, typos, namesakes) stops the import until --match says who it is (asked on a
    terminal).
    """
    today = today_unless(allow_future)
    late: list[str] = []
    read = functools.partial(read_games_csv, date_format=date_format)

    def run(answers: dict[str, int | None]) -> service.ImportReport:
        def store(
            session: Session, rows: Sequence[Any], name: str, digest: str
        ) -> service.ImportReport:
            decisions = decisions_of(session, matches, match_file, ()).with_answers(answers)
            report = service.import_games(
                session,
                rows,
                name,
                digest,
                today=today,
                allow_duplicates=allow_duplicates,
                time_control=time_control,
                decisions=decisions,
            )
            if period is not None:
                late[:] = import_rating_period(session, digest, period, late_ok=late_ok)
            return report

        return _import_csv(app, file, read, store, "games stored", dry_run=dry_run)

    report = deciding(run, never_ask=never_ask, creates=False)
    what = (
        f"{_count(report.games, 'game')} ({report.rated_games} to rate, "
        f"{_count(report.unrated_games, 'forfeit')}) in {_count(report.events_created, 'event')}"
    )
    for warning in report.warnings:
        click.echo(f"Warning: {warning}", err=True)
    if dry_run:
        click.echo(f"Dry run of {file}: nothing was written")
        click.echo(f"Would import {what}")
        say_late(late)
        say_matched(report)
        if report.marked_period:
            click.echo(
                f"This would touch rated period {report.marked_period}: 'ratings rate' would "
                "re-rate from there",
                err=True,
            )
        return
    click.echo(f"Imported {what} from {file}")
    say_late(late)
    say_matched(report)
    _summary(report)
    warn_unknown_games(app, content_hash=service.content_hash(read_bytes(file)))


def register(group: click.Group) -> None:
    """Add these commands to the top-level group."""
    group.add_command(import_)
