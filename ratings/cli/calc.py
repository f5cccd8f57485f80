"""``ratings calc ...``: rating calculators, FIDE table and curve side by side (no database)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

import click

from ratings import rules
from ratings.cli.types import ASCII_INT

FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Output format.",
)
DATE = click.option(
    "--date",
    "day",
    type=click.DateTime(["%Y-%m-%d"]),
    metavar="YYYY-MM-DD",
    help="Event start date, which picks the FIDE rule edition (default: today).",
)


def _parse_ratings(ctx: click.Context, param: click.Parameter, value: str) -> list[int]:
    """``--opponents``: comma-separated integer ratings, e.g. ``1500,1700``."""
    parts = [p.strip() for p in value.split(",")]
    if parts == [""]:
        return []
    # ASCII digits only: int() also reads Arabic-Indic and full-width digits, and "1_500"
    if not all(_ASCII_INTEGER.fullmatch(p) for p in parts):
        raise click.BadParameter(f"not a comma-separated list of integer ratings: {value!r}")
    return [int(p) for p in parts]


_ASCII_INTEGER = re.compile(r"-?[0-9]{1,6}")
_ASCII_DECIMAL = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6})?|\.[0-9]{1,6}")


def _parse_total_score(ctx: click.Context, param: click.Parameter, value: str) -> Decimal:
    """``--score``: a decimal such as ``1.5``; a trailing ``½`` stands for ``.5`` (``2½``)."""
    text = value.strip()
    half = text.endswith("½")
    if half:
        text = text[:-1] or "0"
    # ASCII digits only: Decimal() also reads Arabic-Indic digits, "1_5" and "Infinity"
    if not _ASCII_DECIMAL.fullmatch(text):
        raise click.BadParameter(f"not a number: {value!r}")
    score = Decimal(text)
    return score + Decimal("0.5") if half else score


@contextmanager
def _rules_errors() -> Iterator[None]:
    """Report rules errors as ``Error: ...`` with exit code 1."""
    try:
        yield
    except rules.RulesError as exc:
        raise click.ClickException(str(exc)) from exc


def _event_day(day: datetime | None) -> date:
    """The --date value, or today's local date."""
    return day.date() if day is not None else datetime.now().astimezone().date()


def _signed(value: Decimal) -> str:
    """A change with its sign (``+0.80``, ``-3.20``, ``0.00``)."""
    return f"{value:+}" if value else f"{abs(value)}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain aligned table: first column left, the others right, two spaces apart."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _exact(value: Decimal | None) -> Decimal:
    """A value of the engine's breakdown line, which is never None for a rated game."""
    assert value is not None
    return value


_SHOWN_PLACES = Decimal("0.0001")


def _shown(value: Decimal | None) -> Decimal:
    """A value for the table: the curve's 10^-9 units shown to four places, as
    docs/RULES.md#the-logistic-curve quotes the curve (JSON keeps every digit); the table's
    hundredths as they are."""
    exact = _exact(value)
    exponent = exact.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -4:
        return exact.quantize(_SHOWN_PLACES, rounding=ROUND_HALF_UP)
    return exact


def _number(value: Decimal) -> float:
    """A Decimal as a JSON number; its shortest float spelling is the decimal's digits."""
    return float(value)


_METHODS = (("table", rules.ExpectedMethod.TABLE), ("curve", rules.ExpectedMethod.CURVE))


@click.group("calc")
def calc() -> None:
    """Rating calculators: FIDE table 8.1.2 and the Elo curve side by side (no database)."""


@calc.command("expected")
@click.argument("r1", type=ASCII_INT)
@click.argument("r2", type=ASCII_INT)
@DATE
@FORMAT
def expected_command(r1: int, r2: int, day: datetime | None, fmt: str) -> None:
    """Expected score of a player rated R1 against R2.

    Both methods use the difference after the 400-point rule in force on --date (from
    2025-10-01 a player rated 2650 or more uses the true difference).
    """
    with _rules_errors():
        rule_set = rules.rules_for(_event_day(day))
        results = {name: rules.expected(r1, r2, rule_set, method) for name, method in _METHODS}
    if fmt == "json":
        payload = {
            name: {"difference": e.difference, "expected": _number(e.expected)}
            for name, e in results.items()
        }
        click.echo(json.dumps(payload, indent=2))
        return
    rows = [[name, str(e.difference), str(_shown(e.expected))] for name, e in results.items()]
    click.echo(f"rules: {rule_set.name}")
    click.echo(_table(["method", "difference", "expected"], rows))


@calc.command("change")
@click.argument("r1", type=ASCII_INT)
@click.argument("r2", type=ASCII_INT)
@click.argument("result", metavar="RESULT")
@click.option("--k", "k", type=ASCII_INT, required=True, help="K factor of the player rated R1.")
@DATE
@FORMAT
def change_command(r1: int, r2: int, result: str, k: int, day: datetime | None, fmt: str) -> None:
    """Rating change of a player rated R1 for one game against R2.

    RESULT is R1's score: 1, 0.5 (also 1/2, = or ½) or 0, or the game's result with R1
    first, as other commands take it: 1-0, 1/2-1/2, 0-1. The change is K*dR = K x (S - PD),
    unrounded; NEW is R1 plus K*dR rounded half away from zero (art. 8.3.4).
    """
    with _rules_errors():
        half_points = int(rules.parse_score(result) * 2)
        event_start = _event_day(day)
        rule_set = rules.rules_for(event_start)
        games = {
            name: rules.rate_game(r1, r2, half_points, k=k, event_start=event_start, method=m)
            for name, m in _METHODS
        }
    if fmt == "json":
        payload = {
            name: {
                "difference": line.difference,
                "expected": _number(_exact(line.pd)),
                "k_dr": _number(_exact(line.k_dr)),
                "new_rating": entry.rating_after,
            }
            for name, (line, entry) in games.items()
        }
        click.echo(json.dumps(payload, indent=2))
        return
    rows = [
        [
            name,
            str(line.difference),
            str(_shown(line.pd)),
            _signed(_shown(line.k_dr)),
            str(entry.rating_after),
        ]
        for name, (line, entry) in games.items()
    ]
    click.echo(f"rules: {rule_set.name}")
    click.echo(_table(["method", "difference", "expected", "K*dR", "new"], rows))


@calc.command("performance")
@click.option(
    "--opponents",
    callback=_parse_ratings,
    required=True,
    help="Opponents' ratings, comma-separated (1500,1700).",
)
@click.option("--score", callback=_parse_total_score, required=True, help="Total score (1.5).")
@click.option("--rating", type=ASCII_INT, help="Own rating, for the own-rating method.")
@click.option(
    "--method",
    type=click.Choice(["fide", "own", "400"]),
    help="One method only (default: every method that applies; own needs --rating).",
)
@FORMAT
def performance_command(
    opponents: list[int], score: Decimal, rating: int | None, method: str | None, fmt: str
) -> None:
    """Performance rating over a set of games.

    fide: Ra + dp(p) (table 8.1.1), Ra and p rounded 0.5 up; own: own rating + dp(p);
    algorithm_400: Ra + 400 x (wins - losses) / games.
    """
    if method == "own" and rating is None:
        raise click.UsageError("--method own needs --rating")
    wanted = [method] if method else ["fide", "own", "400"]
    values: dict[str, int] = {}
    with _rules_errors():
        if "fide" in wanted:
            values["fide"] = rules.performance_fide(opponents, score)
        if "own" in wanted and rating is not None:
            values["own"] = rules.performance_own(rating, opponents, score)
        if "400" in wanted:
            values["algorithm_400"] = rules.performance_400(opponents, score)
    if fmt == "json":
        click.echo(json.dumps({name: {"performance": v} for name, v in values.items()}, indent=2))
        return
    rows = [[name, str(v)] for name, v in values.items()]
    click.echo(_table(["method", "performance"], rows))


def register(group: click.Group) -> None:
    """Add ``calc`` to the top-level group."""
    group.add_command(calc)
