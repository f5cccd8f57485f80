"""``ratings rate``, ``preview``, ``list``, ``history``, ``card``, ``performance``."""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal
from typing import TYPE_CHECKING

import click

from ratings.cli import App, pass_app
from ratings.cli.options import LIST, list_option, on_list, reading, say_note
from ratings.cli.rating_list import blank, change_cell, change_value, print_list, signed
from ratings.cli.tables import FORMAT, Value, emit_rows
from ratings.errors import InvalidInputError
from ratings.io.csv_out import CsvWriter

if TYPE_CHECKING:
    from ratings.service.reading import cards

# each command imports the use cases it runs: `card` and `history` read stored rows and need
# neither the imports' matching nor the corrections (bench/startup.py, tests/test_startup.py)


@click.command("rate")
@click.option("--through", metavar="YYYY-MM", help="Last period to rate (default: newest game).")
@click.option(
    "--dry-run", is_flag=True, help="Show what rate would change (old -> new); write nothing."
)
@list_option(
    "With --dry-run: the changes of this list only (default: every list).",
    default=None,
)
@click.option(
    "--mark-from",
    "mark_from",
    metavar="YYYY-MM",
    help="Re-rate from this rated period on (the fix 'ratings check' names for hand edits).",
)
@pass_app
def rate(
    app: App, through: str | None, dry_run: bool, list_type: str | None, mark_from: str | None
) -> None:
    """Rate every period not yet rated (re-rating from the first corrected one), in order.

    A period that has not ended is rated only when --through names it. Every list is rated
    (standard, rapid, blitz); --dry-run --list shows one list's changes. --mark-from re-rates
    from a rated period as if a correction had touched it: the lists are rated again from the
    stored inputs, and the values they replace kept in superseded_ratings.
    """
    from ratings import clock, service
    from ratings.cli.imports import warn_unknown_games
    from ratings.cli.progress import Progress
    from ratings.cli.rate_report import rate_lines
    from ratings.service.rating.plan import mark_rerate_from

    if list_type is not None and not dry_run:
        # the lists are rated together (rapid and blitz players are seeded from the standard
        # list), so a rate of one list alone would not be what the next full rate writes
        raise InvalidInputError("--list goes with --dry-run only: rate rates every list")
    with app.session(commit=not dry_run, bulk=not dry_run) as session:
        last = service.parse_period(session, through) if through else None
        if mark_from is not None:
            mark_rerate_from(session, service.parse_period(session, mark_from))
        today = clock.today()
        with Progress(0, "Rating") as bar:  # its length comes from the service
            report = service.rate(
                session,
                through=last,
                today=today,
                progress=lambda period: bar.advance(item=period.label),
                planned=bar.resize,
            )
    # the report only once the rating is saved: the COMMIT can still fail ("database is
    # locked"), and a reader that stops early (`rate | head`) must not undo it
    if dry_run:
        click.echo("Dry run: nothing was written")
    lines = rate_lines(report, would=dry_run, only=list_type)
    for line in lines or ["Nothing to rate"]:
        click.echo(line)
    if report.held_back:
        first, newest = report.held_back[0], report.held_back[-1]
        what = (
            f"period {first} has not ended" if first == newest
            else f"periods {first} .. {newest} have not ended"
        )  # fmt: skip
        click.echo(
            f"Not rated: {what} (today is {today.isoformat()}); "
            f"'ratings rate --through {newest}' rates {'it' if first == newest else 'them'} now",
            err=True,
        )
    warn_unknown_games(app)


@click.command("preview")
@click.option("--all", "show_all", is_flag=True, help="Include unrated players.")
@FORMAT
@LIST
@pass_app
def preview(app: App, show_all: bool, fmt: str, list_type: str) -> None:
    """Show the list the next period would publish; nothing is written.

    When corrections wait for a re-rate, first what 'ratings rate' would change (old -> new).
    """
    from ratings.cli.rate_report import rate_lines
    from ratings.service.rating.rate import rerate_pending
    from ratings.service.reading import reports

    with app.session(commit=False) as session:
        pending = rerate_pending(session)
        result = reports.preview(session, include_unrated=show_all, time_control=list_type)
    if pending is not None:
        lines = rate_lines(pending, would=True)
        lines[0] = f"Corrections wait for a re-rate: {lines[0][0].lower()}{lines[0][1:]}"
        for line in lines:
            click.echo(line, err=fmt != "table")  # csv and json stay parseable
        if fmt == "table":
            click.echo()
    kind = on_list(list_type)
    print_list(
        result,
        fmt,
        f"Preview of {result.period}{kind} (list dated {result.list_date}; not saved)",
    )


@click.command("history")
@click.argument("player_ref", metavar="PLAYER")
@FORMAT
@LIST
@pass_app
def history(app: App, player_ref: str, fmt: str, list_type: str) -> None:
    """Show a player's rating on every rated period's list (standard, rapid or blitz)."""
    from ratings.service.reading import cards

    with app.session() as session:
        ref, note = reading(session, player_ref)
        player, rows = cards.history(session, ref, time_control=list_type)
    say_note(note)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "player": {"id": player.id, "name": player.name, "fide_id": player.fide_id},
                    "history": [
                        {
                            "period": r.period,
                            "list_date": r.list_date.isoformat(),
                            "rating_before": r.rating_before,
                            "rating": r.rating_after,
                            "change": change_value(r.list_status, r.change),
                            "k_used": r.k_used,
                            "period_games": r.period_games,
                            "total_games": r.total_games,
                            "score": float(r.score),  # half points: exact as a float
                            "list_status": r.list_status,
                        }
                        for r in rows
                    ],
                },
                indent=2,
            )
        )
        return
    if fmt == "csv":
        out = io.StringIO()
        writer = CsvWriter(out)  # neutralises formula-like cells
        writer.writerow(["period", "rating_before", "rating", "change", "k_used", "period_games",
                         "total_games", "score", "list_status"])  # fmt: skip
        for r in rows:
            writer.writerow([r.period, blank(r.rating_before), blank(r.rating_after),
                             blank(change_value(r.list_status, r.change)),
                             blank(r.k_used), r.period_games, blank(r.total_games),
                             float(r.score), r.list_status])  # fmt: skip
        click.echo(out.getvalue(), nl=False)
        return
    click.echo(f"{player.name} (id {player.id})")
    click.echo(
        f"{'period':<8} {'before':>6} {'after':>6} {'chg':>5} {'K used':>6} {'period games':>12}"
        "  list status"
    )
    for r in rows:
        click.echo(
            f"{r.period:<8} {blank(r.rating_before):>6} {blank(r.rating_after):>6} "
            f"{change_cell(r.list_status, r.change):>5} {blank(r.k_used):>6} {r.period_games:>12}  "
            f"{r.list_status}"
        )


_CARD_COLUMNS = (
    "played_on", "event", "round", "opponent", "opponent_rating", "own_rating", "score",
    "difference", "pd", "dr", "k_used", "k_dr", "counts_for",
)  # fmt: skip


def _card_values(line: cards.CardLine) -> list[Value]:
    return [
        line.played_on, line.event, line.round, line.opponent, line.opponent_rating,
        line.own_rating, Decimal(line.score_half_points) / 2, line.difference, line.pd,
        line.dr, line.k_used, line.k_dr, line.counts_for,
    ]  # fmt: skip


@click.command("card")
@click.argument("player_ref", metavar="PLAYER")
@click.option("--period", metavar="YYYY-MM", help="The rated period (default: newest).")
@LIST
@FORMAT
@pass_app
def card(app: App, player_ref: str, period: str | None, list_type: str, fmt: str) -> None:
    """Show the per-game calculation of a player's period (like FIDE's calculation page).

    --format csv gives one row per game; json the card with its games and totals."""
    from ratings.service.reading import cards

    with app.session() as session:
        ref, note = reading(session, player_ref)
        c = cards.card(session, ref, period, time_control=list_type)
    say_note(note)
    if fmt == "csv":
        emit_rows(_CARD_COLUMNS, [_card_values(x) for x in c.lines], fmt)
        return
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "player": {"id": c.player.id, "name": c.player.name},
                    "period": c.period,
                    "list": list_type,
                    "rating_before": c.rating_before,
                    "k_used": c.k_used,
                    "score": str(c.score),
                    "pd_sum": str(c.pd_sum),
                    "change": c.change,
                    "rating_after": c.rating_after,
                    "list_status": c.list_status,
                    "games": [
                        dict(zip(_CARD_COLUMNS, map(_json, _card_values(x)), strict=True))
                        for x in c.lines
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    on = on_list(list_type)
    click.echo(f"{c.player.name} (id {c.player.id}), period {c.period}{on}")
    click.echo(
        f"Rating {blank(c.rating_before) or 'unrated'}, K used {blank(c.k_used) or '-'}, "
        f"{len(c.lines)} game(s)"
    )
    click.echo(
        f"{'date':<10} {'opponent':<26} {'Ropp':>5} {'Rown':>5} {'S':>3} {'D':>5} "
        f"{'PD':>6} {'dR':>7} {'K used':>6} {'K*dR':>7}"
    )
    for line in c.lines:
        score = _HALF_POINTS[line.score_half_points]
        k_dr = "" if line.k_dr is None else f"{line.k_dr:+.2f}"
        click.echo(
            f"{line.played_on.isoformat():<10} {line.opponent[:26]:<26} "
            f"{line.opponent_rating:>5} {blank(line.own_rating):>5} {score:>3} "
            f"{blank(line.difference):>5} {_num(line.pd):>6} {_num(line.dr, True):>7} "
            f"{blank(line.k_used):>6} {k_dr:>7}"
        )
    if c.k_used is not None:
        total = c.dr_sum
        click.echo(
            f"Total: score {c.score:g}, expected {c.pd_sum:.2f}, sum dR {total:+.2f}, "
            f"K x sum = {c.k_used * total:+.2f} -> change {signed(c.change)}"
        )
    if c.first_rating is not None:
        _first_rating(c)
    if c.adjustment is not None:
        click.echo(
            f"FIDE's one-time adjustment of the list of {_day(c.adjustment.list_date)} "
            f"(below {c.adjustment.below}: + {c.adjustment.numerator}/"
            f"{c.adjustment.denominator} x ({c.adjustment.below} - R)): "
            f"{c.unadjusted} -> {c.rating_after}"
        )
    click.echo(f"New rating: {blank(c.rating_after) or 'unrated'} ({c.list_status})")


def _first_rating(c: cards.Card) -> None:
    """The whole calculation of a first rating (art. 7.1.4, 8.2), under the card's games."""
    from ratings import rules

    work = c.first_rating
    assert work is not None
    if c.pooled:
        click.echo("Pooled games of earlier periods (art. 7.1.4):")
        for line in c.pooled:
            score = _HALF_POINTS[line.score_half_points]
            click.echo(
                f"{line.played_on.isoformat():<10} {line.opponent[:26]:<26} "
                f"{line.opponent_rating:>5} {'':>5} {score:>3}"
            )
    click.echo("First rating (art. 8.2):")
    if work.dropped:
        click.echo(
            f"  first event '{c.first_event}': zero score, its {len(work.dropped)} game(s) "
            "disregarded"
        )
    n = len(work.games)
    edition = work.edition
    draws = edition.initial_method is rules.InitialMethod.HYPOTHETICAL_DRAWS
    if draws:
        click.echo(f"  {n} game(s) against rated opponents + 2 hypothetical draws against 1800")
    else:
        click.echo(f"  {n} game(s) against rated opponents ({edition.name})")
    if work.result is None:
        click.echo(f"  {rules.INITIAL_MIN_GAMES} games are needed: no rating yet")
        return
    r = work.result
    click.echo(f"  Ra = {work.rating_sum} / {work.divisor} = {r.ra}")
    points = f"{work.points.normalize():f}"
    over = int(2 * work.points) - work.divisor  # half points over 50% (before 2024)
    if draws or over < 0:
        click.echo(f"  p = {points} / {work.divisor} = {r.p}%, dp = {r.dp:+d}")
    elif over == 0:
        click.echo(f"  {points} of {work.divisor}: 50%, Ru = Ra")
    else:
        click.echo(f"  {points} of {work.divisor}: {over} half point(s) over 50%, 20 each: +{r.dp}")
    if work.capped:
        click.echo(f"  Ru = Ra + dp = {work.uncapped}, capped at {edition.initial_max}")
    else:
        click.echo(f"  Ru = Ra + dp = {r.rating}")
    if work.below_floor:
        click.echo(f"  {r.rating} is below {edition.rating_floor}: not published")


def _day(day: dt.date) -> str:
    """A date as ``1 March 2024``."""
    return f"{day.day} {day:%B %Y}"


_HALF_POINTS = {2: "1", 1: "½", 0: "0"}
"""A score in half points as a card shows it."""


def _json(value: object) -> object:
    """A card's value as JSON writes it: dates ISO, decimals as text (exact)."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _num(value: Decimal | None, signed: bool = False) -> str:
    if value is None:
        return ""
    text = f"{value:+.4f}" if signed else f"{value:.4f}"
    # table values have two decimals: drop the trailing zeros a curve value would need
    return text[:-2] if text.endswith("00") else text


@click.command("performance")
@click.argument("player_ref", metavar="PLAYER")
@click.option("--period", metavar="YYYY-MM", help="A rated period (default: newest).")
@click.option("--event", help="An event name.")
@click.option(
    "--method",
    type=click.Choice(["fide", "own", "400"]),
    default="fide",
    show_default=True,
    help="fide: Ra + dp; own: own rating + dp; 400: algorithm of 400.",
)
@LIST
@FORMAT
@pass_app
def performance(
    app: App,
    player_ref: str,
    period: str | None,
    event: str | None,
    method: str,
    list_type: str,
    fmt: str,
) -> None:
    """Show a player's performance rating over a period's games on one list, or over an
    event's rated games (on the event's list)."""
    from ratings.service.reading import cards

    with app.session() as session:
        ref, note = reading(session, player_ref)
        perf = cards.performance(
            session,
            ref,
            period_label=period,
            event_name=event,
            method=method,
            time_control=list_type,
        )
    say_note(note)
    if fmt != "table":
        columns = ("player_id", "name", "scope", "rated_games", "score", "average_opponent",
                   "method", "performance")  # fmt: skip
        values: tuple[Value, ...] = (
            perf.player.id, perf.player.name, perf.scope, perf.rated_games, perf.score.normalize(),
            perf.average_opponent, perf.method, perf.performance,
        )  # fmt: skip
        if fmt == "json":
            row = dict(zip(columns, map(_json, values), strict=True))
            click.echo(json.dumps(row, indent=2, ensure_ascii=False))
        else:
            emit_rows(columns, [values], fmt)
        return
    click.echo(
        f"{perf.player.name}, {perf.scope}: {perf.score.normalize():f}/{perf.rated_games}, "
        f"average opponent {perf.average_opponent}, performance ({perf.method}) "
        f"{perf.performance}"
    )


def register(group: click.Group) -> None:
    """Add these commands to the top-level group."""
    for command in (rate, preview, history, card, performance):
        group.add_command(command)
