"""``ratings check``: the published lists against their per-game breakdown."""

from __future__ import annotations

import click

from ratings.cli import App, CommandError, pass_app
from ratings.cli.options import LISTS
from ratings.cli.tables import Value, emit_rows
from ratings.service.check import CheckReport, Disagreement, check_lists

COLUMNS = (
    "period",
    "list",
    "player_id",
    "name",
    "published_change",
    "published_k_used",
    "change_games",
    "recomputed_change",
    "recomputed_k_used",
)


@click.command("check")
@click.option(
    "--period",
    metavar="YYYY-MM",
    help="The rated period to check (default: the newest rated period).",
)
@click.option(
    "--list",
    "list_type",
    type=click.Choice(LISTS, case_sensitive=False),
    help="Check this list only (default: every list the period published).",
)
@click.option("--all", "every_period", is_flag=True, help="Check every rated period.")
@pass_app
def check(app: App, period: str | None, list_type: str | None, every_period: bool) -> None:
    """Check a period's lists against their per-game breakdown (default: the newest rated
    period; --all: every period).

    Every change must be K x the sum of dR of the player's games on that list, rounded once
    (art. 8.3.4), with one K; a player without games keeps his rating (no change, no K).
    Exit 0 when every row agrees; else exit 1, listing each row that disagrees. Run it after
    'ratings rate'.
    """
    if every_period and period is not None:
        raise click.UsageError("--all checks every period; give --period or --all")
    with app.session(commit=False) as session:
        report = check_lists(session, period, time_control=list_type, every_period=every_period)
    scope = _scope(report, every_period)
    counts = f"{_plural(report.players, 'player')}, {_plural(report.games, 'game')}"
    if report.agrees:
        click.echo(
            f"Checked {counts} of {scope}: every change, K and carry agrees with the breakdown"
        )
        return
    emit_rows(COLUMNS, [_row(d) for d in report.disagreements], "table")
    n = len(report.disagreements)
    raise CommandError(
        f"{n} of {_plural(report.list_rows, 'list row')} of {scope} "
        f"{'disagrees' if n == 1 else 'disagree'} with the breakdown (checked {counts})"
    )


def _scope(report: CheckReport, every_period: bool) -> str:
    """``period 2025-02 (every list)``, ``2 periods 2025-01 .. 2025-02 (rapid list)``."""
    periods = report.periods
    if len(periods) == 1 and not every_period:
        what = f"period {periods[0]}"
    elif len(periods) == 1:
        what = f"1 period {periods[0]}"
    else:
        what = f"{len(periods)} periods {periods[0]} .. {periods[-1]}"
    lists = "every list" if report.time_control is None else f"{report.time_control} list"
    return f"{what} ({lists})"


def _row(d: Disagreement) -> tuple[Value, ...]:
    k: Value = d.recomputed_k_used
    if d.recomputed_k_used is not None and d.recomputed_k_used != d.recomputed_k_used_max:
        k = f"{d.recomputed_k_used}..{d.recomputed_k_used_max}"  # games of one period, two K
    return (
        d.period,
        d.time_control,
        d.player_id,
        d.name,
        d.published_change,
        d.published_k_used,
        d.change_games,
        d.recomputed_change,
        k,
    )


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def register(group: click.Group) -> None:
    """Add ``check`` to the top-level group."""
    group.add_command(check)
