"""``ratings event ...``, ``game list``, ``import list|undo``: what is stored, with the ids the
corrections take, and the corrections that work on whole events and imports."""

from __future__ import annotations

import json
from decimal import Decimal

import click

from ratings.cli import App, pass_app
from ratings.cli.imports import import_
from ratings.cli.options import (
    ALLOW_FUTURE,
    LATE_OK,
    LISTS,
    ask,
    confirmed,
    correction_options,
    reading_if_any,
    say_corrected,
    say_note,
    today_unless,
)
from ratings.cli.records import game, parse_date
from ratings.cli.tables import FORMAT, emit_rows, plural
from ratings.service.corrections import edits as corrections
from ratings.service.reading import browse
from ratings.service.shared import audit
from ratings.service.titles.norms import EXEMPTION_CHOICES
from ratings.tiebreaks import tiebreak_names, tiebreak_text


def _score(halves: int) -> str:
    """A score as chess writes it: ``2½``, ``½``, ``3``."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _k_dr_sum(value: Decimal | None) -> str:
    return "" if value is None else f"{value:+.2f}"


@game.command("list")
@click.option("--event", "event_ref", metavar="EVENT", help="One event (id or exact name).")
@click.option("--player", "player_ref", metavar="PLAYER", help="One player's games.")
@click.option(
    "--period",
    metavar="YYYY-MM",
    help="The games the rating period rates (the period column: an event given a later "
    "period, or ending after the closing date, is listed under the period that rates it).",
)
@click.option("--played-in", metavar="YYYY-MM", help="The games played in one period.")
@FORMAT
@pass_app
def game_list(
    app: App,
    event_ref: str | None,
    player_ref: str | None,
    period: str | None,
    played_in: str | None,
    fmt: str,
) -> None:
    """List stored games with their ids (by date), with the rating period that rates each."""
    with app.session() as session:
        player_ref, note = reading_if_any(session, player_ref)
        games = browse.list_games(
            session,
            event_ref=event_ref,
            player_ref=player_ref,
            period_label=period,
            played_in=played_in,
        )
    say_note(note)
    emit_rows(
        ("id", "played_on", "period", "event_id", "event", "round", "white", "black", "result",
         "rated"),
        [
            (g.id, g.played_on, g.period, g.event_id, g.event, g.round, g.white, g.black,
             g.result, g.rated)
            for g in games
        ],
        fmt,
    )  # fmt: skip


@click.group("event")
def event() -> None:
    """List, show, edit and void events (tournaments, matches)."""


@event.command("list")
@FORMAT
@pass_app
def event_list(app: App, fmt: str) -> None:
    """List stored events with their ids, dates, rating period, list (time control) and
    games."""
    with app.session() as session:
        events = browse.list_events(session)
    emit_rows(
        (
            "id",
            "name",
            "start_date",
            "end_date",
            "period",
            "time_control",
            "games",
            "rated_games",
            "byes",
            "source",
            "import_id",
        ),
        [
            (
                e.id,
                e.name,
                e.start_date,
                e.end_date,
                e.period,
                e.time_control,
                e.games,
                e.rated_games,
                e.byes,
                e.source,
                e.import_id,
            )
            for e in events
        ],
        fmt,
    )


def _tiebreak(value: Decimal) -> str:
    """A tie-break's value: ``23½``, ``12.25``, ``3``."""
    return tiebreak_text(value)


@event.command("show")
@click.argument("event_ref", metavar="EVENT")
@FORMAT
@pass_app
def event_show(app: App, event_ref: str, fmt: str) -> None:
    """Show an event's crosstable: results by round, score, rating, performance, K x sum(dR).

    EVENT is an event id or an exact name. A cell is the opponent's rank, the colour and the
    result (3w1: won with white against number 3); a bye shows its code (H, F, U, Z, +, -).
    --format csv gives the table's rows (one column per round); json the event and its rows.
    """
    with app.session() as session:
        shown = browse.event_table(session, event_ref)
    e, table = shown.event, shown.table
    shown_tbs = [tb for tb in table.tiebreaks if tb.column]
    header = ["#", "name", "rating", *table.rounds, "score", *(tb.code for tb in shown_tbs),
              "perf", "K*sum(dR)"]  # fmt: skip
    rows = [
        [
            str(r.rank),
            shown.names.get(r.player_id, "?"),
            "" if r.rating is None else str(r.rating),
            *(" ".join(c.text for c in cells) for cells in r.cells),
            _score(r.score_half_points),
            *(_tiebreak(v) for v in r.tiebreak_values),
            "" if r.performance is None else str(r.performance),
            _k_dr_sum(r.k_dr_sum),
        ]
        for r in table.rows
    ]
    if fmt != "table":
        rounds = [f"round_{n}" for n in table.rounds]
        codes = [tb.code.lower().replace("-", "_") for tb in shown_tbs]
        columns = ["rank", "player_id", "name", "rating", *rounds, "score", *codes,
                   "performance", "k_dr_sum"]  # fmt: skip
        values = [
            [r.rank, r.player_id, shown.names.get(r.player_id, "?"), r.rating,
             *(" ".join(c.text for c in cells) for cells in r.cells),
             Decimal(r.score_half_points) / 2, *r.tiebreak_values, r.performance, r.k_dr_sum]
            for r in table.rows
        ]  # fmt: skip
        if fmt == "csv":
            emit_rows(columns, values, fmt)
            return
        click.echo(
            json.dumps(
                {
                    "event": {
                        "id": e.id, "name": e.name, "start_date": e.start_date.isoformat(),
                        "end_date": e.end_date.isoformat(), "period": e.period,
                        "period_rated": e.period_rated, "time_control": e.time_control,
                        "games": table.games, "rated_games": table.rated_games,
                    },
                    "tiebreaks": [{"code": tb.code, "name": tb.name, "article": tb.article}
                                  for tb in table.tiebreaks],
                    "rows": [
                        {c: (str(v) if isinstance(v, Decimal) else v)
                         for c, v in zip(columns, row, strict=True)}
                        for row in values
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
        )  # fmt: skip
        return
    state = "rated" if e.period_rated else "not rated yet"
    click.echo(f"Event {e.id}: {e.name}, {e.start_date} .. {e.end_date}")
    click.echo(
        f"Period {e.period} ({state}); {table.games} game{'' if table.games == 1 else 's'}, "
        f"{table.rated_games} rated"
    )
    click.echo(f"Time control: {e.time_control} (rated on the {e.time_control} list)")
    if table.tiebreaks:
        click.echo(f"Tie-breaks (FIDE C.07): {tiebreak_names(table.tiebreaks)}")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    left = {1}  # the names; numbers and cells to the right
    for row in [header, *rows]:
        cells = [
            v.ljust(w) if i in left else v.rjust(w)
            for i, (v, w) in enumerate(zip(row, widths, strict=True))
        ]
        click.echo("  ".join(cells).rstrip())


@event.command("edit")
@click.argument("event_ref", metavar="EVENT")
@click.option("--name", help="The event's new name.")
@click.option("--start", "start_text", metavar="YYYY-MM-DD", help="New start date.")
@click.option("--end", "end_text", metavar="YYYY-MM-DD", help="New end date.")
@click.option(
    "--period",
    metavar="YYYY-MM",
    help="The period whose list rates the event, when it was submitted for a later list "
    "(not before its end date's; '' for the default).",
)
@click.option(
    "--time-control",
    "time_control",
    type=click.Choice(LISTS, case_sensitive=False),
    help="The list that rates the event's games: standard, rapid or blitz.",
)
@click.option(
    "--norm-exemption",
    "norm_exemption",
    type=click.Choice(EXEMPTION_CHOICES, case_sensitive=False),
    help="The event's exemption from the federation rules of title norms (FIDE Title "
    "Regulations 1.4.3a-d), or none; see 'ratings norms'.",
)
@LATE_OK
@ALLOW_FUTURE
@correction_options
@pass_app
def event_edit(
    app: App,
    event_ref: str,
    name: str | None,
    start_text: str | None,
    end_text: str | None,
    period: str | None,
    time_control: str | None,
    norm_exemption: str | None,
    late_ok: bool,
    allow_future: bool,
    yes: bool,
    dry_run: bool,
    reason: str | None,
) -> None:
    """Correct an event's name, dates, period, time control or norm exemption (EVENT: id or
    exact name), printing each field old -> new.

    The dates must hold all its games. They decide how every game of the event is rated
    (the start picks the list, the end the period), and --time-control the list (standard,
    rapid or blitz) that rates them, so new dates or a new time control ask first.
    """
    start = parse_date(start_text, "--start") if start_text is not None else None
    end = parse_date(end_text, "--end") if end_text is not None else None
    today = today_unless(allow_future)

    def edit(allow_move: bool) -> tuple[corrections.EventEdit, list[str], str | None]:
        with app.session(commit=not dry_run) as session:
            done = corrections.edit_event(
                session,
                event_ref,
                name=name,
                start=start,
                end=end,
                today=today,
                allow_move=allow_move,
                reason=reason,
                period=period,
                time_control=time_control,
                late_ok=late_ok,
                norm_exemption=norm_exemption,
            )
            lines = audit.change_lines(session, audit.recorded(session))
            return done, lines, corrections.touched(session)

    (done, lines, marked), move = confirmed(edit, yes, dry_run=dry_run)
    if done.changed:
        verb = "Would change" if dry_run else "Changed"
        report = f"{verb} {', '.join(done.changed)} of event {done.event_id} ({done.name})"
    else:
        report = f"Nothing changed for event {done.event_id} ({done.name})"
    say_corrected(report, lines, move, marked, dry_run=dry_run, late=done.warnings)


@event.command("void")
@click.argument("event_ref", metavar="EVENT")
@correction_options
@pass_app
def event_void(app: App, event_ref: str, yes: bool, dry_run: bool, reason: str | None) -> None:
    """Remove an event recorded in error, with all its games and byes, naming each (asks
    first).

    Everything removed is kept in the corrections log ('ratings log').
    """
    if not yes and not dry_run:
        with app.session(commit=False) as session:
            e = browse.event_info(session, event_ref)
        ask(
            f"Void event {e.id} ({e.name}, {e.start_date} .. {e.end_date}) and its "
            f"{plural(e.games, 'game')} and {plural(e.byes, 'bye')}?",
        )
    with app.session(commit=not dry_run) as session:
        voided = corrections.void_event(session, event_ref, reason=reason)
        marked = corrections.touched(session)
    report = (
        f"{'Would void' if dry_run else 'Voided'} event {voided.event_id} ({voided.name}): "
        f"{plural(voided.games, 'game')} and {plural(voided.byes, 'bye')} "
        f"{'would be ' if dry_run else ''}removed"
    )
    say_corrected(report, voided.lines, None, marked, dry_run=dry_run)


IMPORT_COLUMNS = (
    "id", "kind", "file", "imported_at", "rows", "events", "games", "byes", "first_event",
    "undone_by",
)  # fmt: skip
"""``import list``'s columns (``undone_by``: the correction that undid the import)."""


@import_.command("list")
@FORMAT
@pass_app
def import_list(app: App, fmt: str) -> None:
    """List the imported files with their ids: kind, when, what each added; an undone
    import stays, undone_by naming the correction that undid it ('ratings log')."""
    with app.session() as session:
        imports = browse.list_imports(session)
    emit_rows(
        IMPORT_COLUMNS,
        [
            (
                i.id,
                i.kind,
                i.file_name,
                i.imported_at,
                i.rows,
                i.events,
                i.games,
                i.byes,
                i.first_event,
                i.undone_by,
            )
            for i in imports
        ],
        fmt,
    )


def register(group: click.Group) -> None:
    """Add these commands to the top-level group (``game list`` and ``import list`` join
    their groups when this module is imported)."""
    group.add_command(event)
