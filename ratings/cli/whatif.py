"""``ratings whatif``: who would move if a rule, a setting or an event were different."""

from __future__ import annotations

import json

import click

from ratings.cli import App, pass_app
from ratings.cli.options import list_option
from ratings.cli.tables import FORMAT, emit_rows
from ratings.rules import VARIANT_KEYS


@click.command("whatif")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help=f"A setting or a rule to change (repeatable). Keys: {', '.join(VARIANT_KEYS)}, and "
    "the settings k, start-rating, expected, closing-days.",
)
@click.option(
    "--without-event",
    "without",
    multiple=True,
    metavar="EVENT",
    help="Leave this event out, its games and byes (id or exact name; repeatable).",
)
@click.option(
    "--move-event",
    "move",
    multiple=True,
    metavar="EVENT",
    help="Rate this event in the period of the --period given after it (repeatable).",
)
@click.option(
    "--period",
    "move_to",
    multiple=True,
    metavar="YYYY-MM",
    help="With --move-event: the period that rates it.",
)
@click.option(
    "--from",
    "first",
    metavar="YYYY-MM",
    help="The first period compared; the rules' keys apply from it on (default: the oldest).",
)
@click.option("--through", metavar="YYYY-MM", help="The last period compared (default: newest).")
@list_option("The list compared.")
@click.option(
    "--top",
    type=click.IntRange(1, 1000),
    default=10,
    show_default=True,
    help="How many of the biggest movers to show.",
)
@FORMAT
@pass_app
def whatif(
    app: App,
    sets: tuple[str, ...],
    without: tuple[str, ...],
    move: tuple[str, ...],
    move_to: tuple[str, ...],
    first: str | None,
    through: str | None,
    list_type: str,
    top: int,
    fmt: str,
) -> None:
    """Show who would move, and by how much, if a rule, a setting or an event were different.

    Every list is rated again from the stored inputs in a scratch database, with the change
    made there: --set a setting (k, start-rating, expected, closing-days) or a rule
    (junior-k, new-player-k, established-k, top-k, cap, cap-exempt-from; from --from on),
    --without-event, --move-event E --period P. Each list from --from through --through is
    compared with the published one: per period, who moved and the mean change; at the
    newest list, the biggest movers, the distribution of the changes, the players who gain
    or lose 2300 or 2400 (K and titles) and the mean change (inflation or deflation). The
    database is only read.

    --format csv: one row per player and period whose rating differs; json: everything.
    """
    from ratings.service.reading.whatif import what_if, what_if_change

    if len(move) != len(move_to):
        raise click.UsageError("give each --move-event its --period, in that order")
    if not (sets or without or move):
        raise click.UsageError("nothing to change: give --set, --without-event or --move-event")
    moves = list(zip(move, move_to, strict=True))
    change = what_if_change(sets, without_events=without, moves=moves)
    with app.session(commit=False) as session:
        report = what_if(
            session, change, first=first, through=through, time_control=list_type, top=top
        )
    if fmt == "json":
        click.echo(json.dumps(_as_json(report), indent=2, ensure_ascii=False))
    elif fmt == "csv":
        emit_rows(
            ("period", "list", "player_id", "name", "published", "what_if", "difference"),
            [
                (
                    p.period,
                    report.time_control,
                    m.player_id,
                    m.name,
                    m.published,
                    m.what_if,
                    m.difference,
                )
                for p in report.periods
                for m in p.movers
            ],
            "csv",
        )
    else:
        _table(report)


def _signed(value: object) -> str:
    if value is None:
        return ""
    text = str(value)
    return text if text.startswith("-") or text == "0" or text == "0.00" else f"+{text}"


def _who(m: object) -> str:
    from ratings.service.reading.whatif import Mover

    assert isinstance(m, Mover)
    return f"{_signed(m.difference)} {m.name} (id {m.player_id})"


def _table(report: object) -> None:
    from ratings.service.reading.whatif import WhatIfReport

    assert isinstance(report, WhatIfReport)
    periods = report.periods
    span = periods[0].period
    if len(periods) > 1:
        span = f"{span} .. {periods[-1].period}"
    click.echo(f"What if: {'; '.join(report.change)}")
    click.echo(f"The {report.time_control} lists {span}, published and with the change:")
    click.echo()
    emit_rows(
        ("period", "rated", "moved", "mean", "largest rise", "largest fall"),
        [
            (
                p.period,
                p.rated,
                p.moved,
                p.mean,
                "" if p.up is None else _who(p.up),
                "" if p.down is None else _who(p.down),
            )
            for p in periods
        ],
        "table",
    )
    last = report.newest
    trend = "inflation" if last.total > 0 else "deflation" if last.total < 0 else "no change"
    click.echo()
    click.echo(
        f"The newest list, {last.period}: {last.rated} players rated both ways, {last.moved} "
        f"moved; mean change {_signed(last.mean)} ({trend}), {_signed(last.total)} in all"
    )
    if report.biggest:
        click.echo()
        click.echo("Biggest movers:")
        emit_rows(
            ("player", "id", "published", "what-if", "change"),
            [(m.name, m.player_id, m.published, m.what_if, m.difference) for m in report.biggest],
            "table",
        )
    click.echo()
    click.echo("Distribution of the changes:")
    emit_rows(("change", "players"), list(report.distribution), "table")
    click.echo()
    if not report.crossings:
        click.echo("Nobody gains or loses 2300 or 2400.")
        return
    click.echo("2300 and 2400, reached by the newest list:")
    for c in report.crossings:
        verb = "reaches" if c.gained else "no longer reaches"
        click.echo(
            f"  {c.name} (id {c.player_id}) {verb} {c.mark} ({c.published} -> {c.what_if}): "
            f"{c.consequence}"
        )


def _mover(m: object) -> dict[str, object]:
    from ratings.service.reading.whatif import Mover

    assert isinstance(m, Mover)
    return {
        "player_id": m.player_id,
        "name": m.name,
        "published": m.published,
        "what_if": m.what_if,
        "difference": m.difference,
    }


def _as_json(report: object) -> dict[str, object]:
    from ratings.service.reading.whatif import WhatIfReport

    assert isinstance(report, WhatIfReport)
    last = report.newest
    return {
        "change": list(report.change),
        "list": report.time_control,
        "periods": [
            {
                "period": p.period,
                "rated": p.rated,
                "moved": p.moved,
                "mean": str(p.mean),
                "total": p.total,
                "largest_rise": None if p.up is None else _mover(p.up),
                "largest_fall": None if p.down is None else _mover(p.down),
                "rated_with_the_change_only": p.gained,
                "rated_as_published_only": p.lost,
                "movers": [_mover(m) for m in p.movers],
            }
            for p in report.periods
        ],
        "newest": {
            "period": last.period,
            "rated": last.rated,
            "moved": last.moved,
            "mean": str(last.mean),
            "total": last.total,
            "biggest": [_mover(m) for m in report.biggest],
            "distribution": dict(report.distribution),
            "crossings": [
                {
                    "player_id": c.player_id,
                    "name": c.name,
                    "mark": c.mark,
                    "gained": c.gained,
                    "published": c.published,
                    "what_if": c.what_if,
                    "consequence": c.consequence,
                }
                for c in report.crossings
            ],
        },
    }


def register(group: click.Group) -> None:
    """Add ``whatif`` to the top-level group."""
    group.add_command(whatif)
