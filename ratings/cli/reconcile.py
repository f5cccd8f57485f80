"""``ratings reconcile``: FIDE's list against ours, each difference explained."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ratings.cli import App, pass_app
from ratings.cli.options import list_option
from ratings.cli.tables import FORMAT, emit_rows


@click.command("reconcile")
@click.argument("fide_list", metavar="FIDE_LIST_FILE", type=click.Path(path_type=Path))
@click.option(
    "--month",
    required=True,
    metavar="YYYY-MM",
    help="The month of FIDE's list: it is compared with our list of the same date.",
)
@click.option(
    "--previous",
    metavar="FILE",
    type=click.Path(path_type=Path),
    help="FIDE's list of the month before: FIDE's change and start rating.",
)
@list_option("The list compared.")
@FORMAT
@pass_app
def reconcile(
    app: App, fide_list: Path, month: str, previous: Path | None, list_type: str, fmt: str
) -> None:
    """Compare FIDE's rating list with ours, explaining each difference.

    For every player with a FIDE id on both lists (ours of the same date as FIDE's), our
    published rating, change and games are compared with FIDE's, and each difference is
    put into a class with its evidence: FIDE rated games we do not hold; we rated games
    FIDE did not; a different start rating (needs --previous, FIDE's list before); per-event
    rounding; a K difference; unexplained. Prints the counts per class and a row per player
    that differs (--format csv, json). FIDE's list is a TXT or XML download, plain or
    zipped, as 'ratings import fide-list' reads it. The database is only read.
    """
    from ratings.service.reading.reconcile import DifferenceClass, reconcile

    with app.session(commit=False) as session:
        report = reconcile(session, fide_list, month, previous=previous, time_control=list_type)
    rows = [
        (
            d.fide_id,
            d.player_id,
            d.name,
            d.ours[0],
            d.ours[1],
            d.ours[2],
            d.fide[0],
            d.fide[1],
            d.fide[2],
            d.cls.value,
            d.evidence,
        )
        for d in report.differences
    ]
    columns = (
        "fide_id",
        "player_id",
        "name",
        "rating",
        "change",
        "games",
        "fide_rating",
        "fide_change",
        "fide_games",
        "class",
        "evidence",
    )
    if fmt == "csv":
        emit_rows(columns, rows, "csv")
        return
    counts = report.counts
    if fmt == "json":
        doc = {
            "list_date": report.list_date.isoformat(),
            "period": report.period,
            "list": report.time_control,
            "compared": report.compared,
            "agree": report.agree,
            "not_on_fide_list": report.only_ours,
            "classes": {c.value: counts[c] for c in DifferenceClass},
            "differences": [dict(zip(columns, row, strict=True)) for row in rows],
        }
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    click.echo(
        f"FIDE's {report.time_control} list of {report.list_date:%Y-%m} against ours of "
        f"{report.list_date.isoformat()} (period {report.period}): {report.compared} players "
        f"with a FIDE id on both, {report.agree} agree, {len(report.differences)} differ"
        + (f"; {report.only_ours} of ours not on FIDE's list" if report.only_ours else "")
    )
    click.echo()
    emit_rows(("class", "players"), [(c.title, counts[c]) for c in DifferenceClass], "table")
    if not rows:
        return
    click.echo()
    for d in report.differences:
        ours = f"{_shown(d.ours[0])} ({_signed(d.ours[1])}, {d.ours[2]} games)"
        theirs = f"{_shown(d.fide[0])} ({_signed(d.fide[1])}, {d.fide[2]} games)"
        click.echo(
            f"{d.name} (id {d.player_id}, FIDE {d.fide_id}): ours {ours}, FIDE {theirs}: "
            f"{d.cls.title}: {d.evidence}"
        )


def _shown(value: int | None) -> str:
    return "unrated" if value is None else str(value)


def _signed(value: int | None) -> str:
    return "change unknown" if value is None else f"{value:+d}"


def register(group: click.Group) -> None:
    """Add ``reconcile`` to the top-level group."""
    group.add_command(reconcile)
