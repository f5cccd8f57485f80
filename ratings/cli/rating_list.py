"""``ratings list``, and the list printing ``ratings preview`` shares.

Light to import: ``ratings list`` on a SQLite file reads it without SQLAlchemy
(:func:`ratings.rating_lists.read_published`); the service is imported only where that read
leaves the answer to it.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import click

from ratings.cli import App, pass_app
from ratings.cli.options import LIST
from ratings.io.csv_out import CsvWriter
from ratings.rating_lists import LIST_CSV_COLUMNS, ListRow, RatingList, read_published

if TYPE_CHECKING:
    from ratings.io.fide_txt import FideTxtRow


def blank(value: object) -> str:
    return "" if value is None else str(value)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def change_cell(status: str, change: int, games: int = 1) -> str:
    """The change column: ``new`` for a first rating, blank for an unrated player (or a
    period without games), else signed (``0`` was shown for both)."""
    if status == "first_rating":
        return "new"
    if status == "unrated" or not games:
        return ""
    return signed(change)


def change_value(status: str, change: int) -> int | None:
    """The change for CSV and JSON: none where there was no rating before, or none now."""
    return None if status in ("first_rating", "unrated") else change


def print_list(result: RatingList, fmt: str, title: str) -> None:
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "period": result.period,
                    "list_date": result.list_date.isoformat() if result.list_date else None,
                    "players": [
                        {
                            "player_id": r.player_id,
                            "name": r.name,
                            "fide_id": r.fide_id,
                            "federation": r.federation,
                            "title": r.title,
                            "birth_year": r.birth_year,
                            "rating": r.rating,
                            "change": change_value(r.list_status, r.change),
                            "period_games": r.period_games,
                            "total_games": r.total_games,
                            "next_k": r.next_k,
                            "k10": r.k10,
                            "flag": r.flag,
                            "list_status": r.list_status,
                        }
                        for r in result.rows
                    ],
                },
                indent=2,
            )
        )
        return
    if fmt == "csv":
        out = io.StringIO()
        writer = CsvWriter(out)  # neutralises formula-like cells (names such as "=cmd")
        writer.writerow(LIST_CSV_COLUMNS)
        for r in result.rows:
            writer.writerow(
                [r.name, blank(r.fide_id), blank(r.federation), blank(r.title),
                 blank(r.birth_year), blank(r.rating),
                 blank(change_value(r.list_status, r.change)), r.period_games,
                 blank(r.total_games), blank(r.next_k), "true" if r.k10 else "false"]
            )  # fmt: skip
        click.echo(out.getvalue(), nl=False)
        return
    click.echo(title)
    click.echo(
        f"{'#':>4}  {'name':<30} {'fide id':>10} {'rating':>6} {'chg':>5} {'total games':>11} "
        f"{'next K':>6}  flag"
    )
    if result.rows:  # one write, not a click.echo per row (600,000 rows at world size)
        click.echo("\n".join(_table_line(i, r) for i, r in enumerate(result.rows, 1)))


def _table_line(i: int, r: ListRow) -> str:
    rank = str(i) if r.rating is not None else ""
    return (
        f"{rank:>4}  {r.name:<30} {blank(r.fide_id):>10} {blank(r.rating):>6} "
        f"{change_cell(r.list_status, r.change, r.period_games):>5} {blank(r.total_games):>11} "
        f"{blank(r.next_k):>6}" + (f"  {r.flag}" if r.flag else "")
    )


@click.command("list")
@click.option(
    "--period", metavar="YYYY-MM", help="The period whose list to show (default: newest)."
)
@click.option("--all", "show_all", is_flag=True, help="Include unrated players.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json", "fide-txt"]),
    default="table",
    show_default=True,
    help="Output format (fide-txt: the fixed-width layout of FIDE's TXT rating lists).",
)
@LIST
@pass_app
def list_(app: App, period: str | None, show_all: bool, fmt: str, list_type: str) -> None:
    """Show the rating list (standard, rapid or blitz) published by a period."""
    # a SQLite file read with sqlite3 when it can be (the command starts in a fraction of the
    # time SQLAlchemy's import takes), else the full path: the same list, every backend, and
    # the one place that says what is wrong with a database (ratings.rating_lists)
    result = read_published(app.db, period, include_unrated=show_all, time_control=list_type)
    if result is None:
        from ratings.service.reading import reports

        with app.session() as session:
            result = reports.rating_list(
                session, period, include_unrated=show_all, time_control=list_type
            )
    if result.rerate_pending is not None:
        click.echo(
            f"Warning: corrections touched period {result.rerate_pending}; "
            "run 'ratings rate' to re-rate before publishing",
            err=True,
        )
    if fmt == "fide-txt":
        from ratings.io.fide_txt import format_fide_txt  # it imports the rules

        click.echo(
            format_fide_txt(
                map(_fide_row, result.rows), list_date=result.list_date, list_type=list_type
            ),
            nl=False,
        )
        return
    if list_type == "standard" and result.period is None:
        title = "Register (no period rated yet): entry ratings"
    elif list_type == "standard":
        title = f"Rating list {result.period} (list dated {result.list_date})"
    elif result.period is None:
        title = f"Register (no {list_type} list published yet): {list_type} entry ratings"
    else:
        title = (
            f"{list_type.capitalize()} rating list {result.period} (list dated {result.list_date})"
        )
    print_list(result, fmt, title)


def _fide_row(r: ListRow) -> FideTxtRow:
    """A list row in FIDE's TXT layout: Gms is the period's rated games; flag w for women, i
    for no rated game in the 12 months up to the list, wi for both."""
    from ratings.io.fide_txt import FideTxtRow

    return FideTxtRow(
        fide_id=r.fide_id,
        name=r.name,
        federation=r.federation,
        sex=r.sex,
        title=r.title,
        rating=r.rating,
        period_games=r.period_games,
        next_k=r.next_k,
        birth_year=r.birth_year,
        flag=r.flag,
    )


def register(group: click.Group) -> None:
    """Add ``list`` to the top-level group."""
    group.add_command(list_)
