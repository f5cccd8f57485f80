"""``ratings check``: the published lists against a rebuild from the stored inputs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from ratings import files
from ratings.cli import App, CommandError, pass_app
from ratings.cli.options import list_option
from ratings.cli.tables import counted, format_option
from ratings.db import sqlite_path
from ratings.service.rating.rebuild import Rebuilt, write_rebuild
from ratings.service.reading.check import CheckReport, Difference, check_lists


@click.command("check")
@click.option(
    "--period",
    metavar="YYYY-MM",
    help="The rated period to check (default: the newest rated period).",
)
@list_option(
    "Check this list only (default: every list the period published).",
    default=None,
)
@click.option("--all", "every_period", is_flag=True, help="Check every rated period.")
@click.option(
    "--rebuild-into",
    "rebuild_into",
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the rebuilt database to FILE (SQLite, the same schema), to diff with SQL.",
)
@click.option("--force", is_flag=True, help="With --rebuild-into: replace an existing FILE.")
@click.option(
    "--breakdown-only",
    is_flag=True,
    help="No rebuild: each row against its own breakdown only (fast on a large register).",
)
@format_option(
    "Output format.",
    choices=("text", "json"),
)
@pass_app
def check(
    app: App,
    period: str | None,
    list_type: str | None,
    every_period: bool,
    rebuild_into: Path | None,
    force: bool,
    breakdown_only: bool,
    fmt: str,
) -> None:
    """Check the published lists against a rebuild from the stored inputs (default: the
    newest rated period; --all: every period).

    Every list is rated again from scratch, in a scratch database, from what the database
    holds as inputs: the register and its corrections, the events, games and byes, the
    settings and the FIDE lists imported. Each published row is compared with the rebuilt
    one field by field (rating before and after, change, K, next K, games, list status) and
    so is each breakdown row; every change must also be K x the sum of dR of its games,
    rounded once (art. 8.3.4). The database checked is only read.

    Exit 0 when everything agrees; else exit 1, listing each difference with the games
    behind it, the first period that differs, and the fix. Run it after 'ratings rate'.

    --breakdown-only skips the rebuild: each change against its own breakdown, each carried
    row unchanged, each rating its rating before plus its change (what a register of
    hundreds of thousands can check in seconds).
    """
    if every_period and period is not None:
        raise click.UsageError("--all checks every period; give --period or --all")
    if force and rebuild_into is None:
        raise click.UsageError("--force goes with --rebuild-into")
    if breakdown_only and rebuild_into is not None:
        raise click.UsageError("--breakdown-only makes no rebuild to write: give one or the other")
    keep: Callable[[Rebuilt], None] | None = None
    if rebuild_into is not None:
        dest = rebuild_into
        database = sqlite_path(app.url)
        # refused before the work: a name that will not be written (the database, a journal)
        files.check_destination(dest, database=database, force=force, sqlite=True)

        def keep(rebuilt: Rebuilt) -> None:
            write_rebuild(rebuilt, dest, force=force, database=database)

    with app.session(commit=False) as session:
        report = check_lists(
            session,
            period,
            time_control=list_type,
            every_period=every_period,
            keep_rebuild=keep,
            breakdown_only=breakdown_only,
        )
    if fmt == "json":
        click.echo(json.dumps(_as_json(report), indent=2))
    else:
        for problem in report.schema:
            click.echo(f"schema: {problem}")
        for difference in report.differences:
            click.echo(difference.line)
    if rebuild_into is not None:
        click.echo(f"Wrote the rebuilt database to {rebuild_into}", err=fmt == "json")
    if report.agrees:
        if fmt == "text":
            click.echo(_agreement(report, breakdown_only))
        return
    raise CommandError(_verdict(report, breakdown_only))


def _scope(report: CheckReport) -> str:
    """``period 2025-02 (every list)``, ``2 periods 2025-01 .. 2025-02 (rapid list)``."""
    periods = report.periods
    if len(periods) == 1:
        what = f"period {periods[0]}"
    else:
        what = f"{len(periods)} periods {periods[0]} .. {periods[-1]}"
    lists = "every list" if report.time_control is None else f"{report.time_control} list"
    return f"{what} ({lists})"


def _agreement(report: CheckReport, breakdown_only: bool) -> str:
    if breakdown_only:
        return (
            f"Checked {_scope(report)} against their breakdown (no rebuild): "
            f"{counted(report.list_rows, 'list row')} of {counted(report.players, 'player')} "
            f"and {counted(report.breakdown_rows, 'breakdown row')} of "
            f"{counted(report.games, 'game')}; every change is K x the sum of dR of its games"
        )
    return (
        f"Checked {_scope(report)} against a rebuild from the stored inputs: "
        f"{counted(report.list_rows, 'list row')} of {counted(report.players, 'player')} and "
        f"{counted(report.breakdown_rows, 'breakdown row')} of {counted(report.games, 'game')} "
        "agree; every change is K x the sum of dR of its games"
    )


def _verdict(report: CheckReport, breakdown_only: bool) -> str:
    if report.schema:
        n = len(report.schema)
        what = "a trigger or view" if n == 1 else f"{n} triggers or views"
        also = counted(len(report.differences), "difference")
        first_off = report.first_difference or report.periods[0]
        return (
            f"{what} of the database {'is' if n == 1 else 'are'} not ratings' own, with {also} "
            f"in the lists: drop {'it' if n == 1 else 'them'} (or restore a backup made "
            f"before), then 'ratings rate --mark-from {first_off}' rates the lists again"
        )
    first = report.first_difference
    n = len(report.differences)
    against = "their breakdown" if breakdown_only else "a rebuild from the stored inputs"
    head = (
        f"{counted(n, 'difference')} between the published lists of {_scope(report)} and "
        f"{against}, from period {first} on"
    )
    pending = report.pending_from
    if pending is not None and first is not None and first >= pending:
        return f"{head}: a correction marked period {pending} for a re-rate; run 'ratings rate'"
    return (
        f"{head}: if the lists or the breakdown were edited by hand, 'ratings rate --mark-from "
        f"{first}' rates them again from the stored inputs (the replaced values go to "
        "superseded_ratings); if the games or the register were, report this to whoever "
        "edited the database"
    )


def _as_json(report: CheckReport) -> dict[str, object]:
    return {
        "periods": list(report.periods),
        "list": report.time_control,
        "agrees": report.agrees,
        "first_difference": report.first_difference,
        "pending_rerate_from": report.pending_from,
        "compared": {
            "list_rows": report.list_rows,
            "players": report.players,
            "breakdown_rows": report.breakdown_rows,
            "games": report.games,
        },
        "differences": [_difference(d) for d in report.differences],
        "schema": list(report.schema),
    }


def _difference(d: Difference) -> dict[str, object]:
    return {
        "period": d.period,
        "list": d.time_control,
        "player_id": d.player_id,
        "name": d.name,
        "what": d.what,
        "why": list(d.why),
    }


def register(group: click.Group) -> None:
    """Add ``check`` to the top-level group."""
    group.add_command(check)
