"""``ratings import players|games|trf|pgn FILE``: bulk input, all or nothing."""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click
from sqlalchemy.orm import Session

from ratings import clock, files, service
from ratings.cli import App, pass_app
from ratings.cli.decisions import DECISIONS, MATCHES, DecisionOptions, deciding, decisions_of
from ratings.cli.options import ALLOW_FUTURE, LATE_OK, TIME_CONTROL, say_late, today_unless
from ratings.cli.progress import Progress
from ratings.cli.types import format_option
from ratings.io.csv import DATE_FORMATS, read_games_csv, read_players_csv
from ratings.service.imports.notices import (
    count_unknown_games,
    event_span_warnings,
    imported_events,
)
from ratings.service.imports.report import Matching
from ratings.service.rating.periods import import_rating_period
from ratings.service.register.identity import Decisions
from ratings.service.shared import audit

R = TypeVar("R")

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
    text = audit.as_text(value)
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


REPORT_FORMAT = format_option(
    "How the report is written: text, or one JSON object on standard output (the players "
    "taken other than by their exact name or FIDE id, the decisions, the counts).",
    choices=("text", "json"),
)


Work = Callable[[Session, Decisions, Callable[[str], None]], R]
"""An import's work in its transaction: the session, the decisions, and a callback that
advances the progress bar past a step (named)."""


def run_import(
    app: App,
    work: Work[R],
    *,
    decided: DecisionOptions,
    dry_run: bool,
    creates: bool,
    progress: str | None = None,
) -> R:
    """The one way an import runs: the decisions of the command line (``--match``,
    ``--match-file``, ``--new``; ``decided``) and the prompt's answers handed to ``work``
    in one transaction, committed unless ``dry_run`` (rolled back); on players that need a
    decision, asked on a terminal and run again (:func:`ratings.cli.decisions.deciding`),
    unless ``--yes``. A dry run never asks: its report lists them. ``progress``: the label
    of a progress bar of the work's two steps and the commit."""

    def run(answers: dict[str, int | None]) -> R:
        with Progress(3 if progress else 0, progress or "") as bar:
            with app.session(commit=not dry_run, bulk=True) as session:
                decisions = decisions_of(
                    session, decided.matches, decided.match_file, decided.new
                ).with_answers(answers)
                done = work(session, decisions, lambda item: bar.advance(item=item))
            bar.advance(item="saved")
        return done

    return deciding(run, never_ask=decided.never_ask or dry_run, creates=creates)


_FOUND = (
    ("folded", "by the name folded (accents, word order, punctuation)"),
    ("alias", "by alias"),
    ("match", "by your decisions"),
)


def found_line(matching: Matching) -> str | None:
    """``Players found 2 by the name folded (...), 1 by alias``: the players found beyond
    their exact name, counted (None when there is none)."""
    parts = [f"{matching.count(how)} {what}" for how, what in _FOUND if matching.count(how)]
    return f"Players found {', '.join(parts)}" if parts else None


def say_taken(matching: Matching) -> None:
    """One line per player taken other than by the exact registered name or FIDE id."""
    for item in matching.taken:
        click.echo(f"  {item}")


def say_kept(matching: Matching) -> None:
    """One line per alias the import stored (only once it is saved), and one per decision
    not kept as an alias."""
    for name, pid, registered in matching.aliases:
        click.echo(f"Alias {name!r} kept for player {pid} ({registered})")
    for line in matching.unkept:
        click.echo(f"Not kept: {line}")


def say_questions(matching: Matching) -> None:
    """A dry run's players that need a decision, one line each, with their candidates."""
    for q in matching.questions:
        options = ", ".join(map(str, q.options))
        click.echo(f"  line {q.line}: {q.name!r} is close to {options}; needs a decision")


def would_stop(matching: Matching, *, creates: bool = True) -> None:
    """A dry run's closing line when players need a decision."""
    n = len(matching.questions)
    if n:
        who = "1 player needs" if n == 1 else f"{n} players need"
        new = ", --new 'NAME' for a new one" if creates else ""
        click.echo(
            f"The import would stop: {who} a decision (--match 'NAME=ID' for a registered "
            f"player{new})",
            err=True,
        )


def emit_json(kind: str, file: Path | str, dry_run: bool, matching: Matching,
              **fields: object) -> None:  # fmt: skip
    """An import's report as one JSON object on standard output: what it was (``kind``,
    ``file``, ``dry_run``), its own counts (``fields``) and who it took for whom."""
    body: dict[str, object] = {"import": kind, "file": str(file), "dry_run": dry_run}
    body.update(fields)
    body.update(matching.as_json())
    click.echo(json.dumps(body, indent=2, ensure_ascii=False, default=_json_value))


def _json_value(value: object) -> object:
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"not JSON: {value!r}")


def say_matched(report: service.ImportReport) -> None:
    """How many names were found beyond their key (and who each was taken for), and the
    aliases kept (after the commit)."""
    line = found_line(report.matching)
    if line:
        click.echo(line)
    say_taken(report.matching)
    say_kept(report.matching)


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
    store: Callable[[Session, Sequence[Any], str, str, Decisions], service.ImportReport],
    stored: str,
    *,
    decided: DecisionOptions,
    dry_run: bool,
    creates: bool,
    repeat_ok: bool = False,
) -> service.ImportReport:
    """Read a CSV file and store its rows through :func:`run_import`, with a progress bar
    (``repeat_ok``: the service decides what the same bytes imported before mean)."""
    data = read_bytes(file)
    digest = service.content_hash(data)

    def work(
        session: Session, decisions: Decisions, advance: Callable[[str], None]
    ) -> service.ImportReport:
        if not repeat_ok:
            service.check_not_imported(session, digest, str(file))
        rows = read(data, str(file))
        advance("file read")
        report = store(session, rows, str(file), digest, decisions)
        advance(stored)
        return report

    return run_import(
        app,
        work,
        decided=decided,
        dry_run=dry_run,
        creates=creates,
        progress=f"Importing {file.name}",
    )


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
@DECISIONS
@REPORT_FORMAT
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
    decided: DecisionOptions,
    fmt: str,
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

    def store(
        session: Session, rows: Sequence[Any], name: str, digest: str, decisions: Decisions
    ) -> service.ImportReport:
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
            dry_run=dry_run,
        )

    report = _import_csv(
        app,
        file,
        read,
        store,
        "players stored",
        decided=decided,
        dry_run=dry_run,
        creates=not update,
        repeat_ok=update,
    )
    for warning in report.warnings:
        click.echo(f"Warning: {warning}", err=True)
    if fmt == "json":
        emit_json(
            "players", file, dry_run, report.matching,
            players_created=report.players_created, players_updated=report.players_updated,
            players_unchanged=report.players_unchanged, same_as_import=report.same_as_import,
            changes=[{"line": c.line, "player_id": c.player_id, "player": c.name,
                      "field": c.field, "old": c.old, "new": c.new, "kept": c.kept,
                      "corrected": c.corrected} for c in report.changes],
            marked_period=report.marked_period,
        )  # fmt: skip
        would_stop(report.matching, creates=not update)
    elif not _say_players(file, report, update=update, dry_run=dry_run):
        return
    if not dry_run:
        _summary(report)
        warn_unknown_games(app)


def _say_players(file: Path, report: service.ImportReport, *, update: bool, dry_run: bool) -> bool:
    """The text report of ``import players``; False when the sheet changed nothing."""
    if report.same_as_import is not None and not report.changes and not report.players_created:
        click.echo(
            f"{file}: nothing changed (imported before as import {report.same_as_import}, and "
            "the register still holds every value it gives)"
        )
        return False
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
    say_questions(report.matching)
    would_stop(report.matching, creates=not update)
    return True


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
@MATCHES
@REPORT_FORMAT
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
    decided: DecisionOptions,
    fmt: str,
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

    def store(
        session: Session, rows: Sequence[Any], name: str, digest: str, decisions: Decisions
    ) -> service.ImportReport:
        report = service.import_games(
            session,
            rows,
            name,
            digest,
            today=today,
            allow_duplicates=allow_duplicates,
            time_control=time_control,
            decisions=decisions,
            dry_run=dry_run,
        )
        if period is not None and not report.matching.questions:
            late[:] = import_rating_period(session, digest, period, late_ok=late_ok)
        return report

    report = _import_csv(
        app,
        file,
        read,
        store,
        "games stored",
        decided=decided,
        dry_run=dry_run,
        creates=False,
    )
    for warning in report.warnings:
        click.echo(f"Warning: {warning}", err=True)
    if fmt == "json":
        emit_json(
            "games", file, dry_run, report.matching,
            games=report.games, rated_games=report.rated_games,
            unrated_games=report.unrated_games, events=report.events_created,
            marked_period=report.marked_period, late=late,
        )  # fmt: skip
        would_stop(report.matching, creates=False)
    else:
        _say_games(file, report, late, dry_run=dry_run)
    if not dry_run:
        _summary(report)
        warn_unknown_games(app, content_hash=service.content_hash(read_bytes(file)))
    elif report.marked_period:
        click.echo(
            f"This would touch rated period {report.marked_period}: 'ratings rate' would "
            "re-rate from there",
            err=True,
        )


def _say_games(
    file: Path, report: service.ImportReport, late: Sequence[str], *, dry_run: bool
) -> None:
    """The text report of ``import games``."""
    what = (
        f"{_count(report.games, 'game')} ({report.rated_games} to rate, "
        f"{_count(report.unrated_games, 'forfeit')}) in {_count(report.events_created, 'event')}"
    )
    if dry_run:
        click.echo(f"Dry run of {file}: nothing was written")
        click.echo(f"Would import {what}")
    else:
        click.echo(f"Imported {what} from {file}")
    say_late(list(late))
    say_matched(report)
    say_questions(report.matching)
    would_stop(report.matching, creates=False)


def register(group: click.Group) -> None:
    """Add these commands to the top-level group."""
    group.add_command(import_)
