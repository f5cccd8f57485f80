"""``ratings calc ...``: rating calculators, FIDE table and curve side by side (no database)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

import click

from ratings import limits, rules
from ratings.cli.types import ASCII_INT, format_option

FORMAT = format_option(choices=("table", "json"))
DATE = click.option(
    "--date",
    "day",
    type=click.DateTime(["%Y-%m-%d"]),
    metavar="YYYY-MM-DD",
    help="Event start date, which picks the FIDE rule edition (default: today).",
)


def _parse_ratings(ctx: click.Context, param: click.Parameter, value: str | None) -> list[int]:
    """``--opponents``: comma-separated integer ratings, e.g. ``1500,1700``."""
    if value is None:
        return []
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


PLAIN = click.option(
    "--plain",
    is_flag=True,
    help="Plain Elo, as club systems rate: the true difference in every game, no 400-point "
    "rule (nor rapid and blitz's 600-point rule).",
)


def _bounded(value: int, what: str = "rating") -> int:
    """A rating typed for a calculation, within the register's bounds (0 to 3500, as
    ``player add --rating``); ``assets/calc.js`` says the same of the same values.

    :raises rules.RulesError: for a rating outside them.
    """
    if not limits.MIN_RATING <= value <= limits.MAX_RATING:
        raise rules.InvalidRatingError(
            f"{what} must be a whole number from {limits.MIN_RATING} to {limits.MAX_RATING}: "
            f"{value}"
        )
    return value


def _below_zero(own: int) -> str:
    """Why no new rating is given: the change takes the rating below 0."""
    return f"the rating {own} and its change give a new rating below 0"


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
@PLAIN
@FORMAT
def expected_command(r1: int, r2: int, day: datetime | None, plain: bool, fmt: str) -> None:
    """Expected score of a player rated R1 against R2.

    Both methods use the difference after the 400-point rule in force on --date (from
    2025-10-01 a player rated 2650 or more uses the true difference); --plain, the true
    difference (800 points: the curve's 0.9901).
    """
    with _rules_errors():
        _bounded(r1)
        _bounded(r2, "opponent rating")
        rule_set = rules.UNCAPPED if plain else rules.rules_for(_event_day(day))
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


def _parse_results(ctx: click.Context, param: click.Parameter, value: str | None) -> list[int]:
    """``--results``: comma-separated game scores as RESULT takes them (``1,0.5,0``), as
    half points."""
    if value is None:
        return []
    try:
        return [int(rules.parse_score(part) * 2) for part in value.split(",")]
    except rules.RulesError as exc:
        raise click.BadParameter(f"{exc} in {value!r}") from exc


def _not_rated(own: int, opp: int, rule_set: rules.RuleSet) -> str:
    """Why a game is not rated (R&B art. 7.3.1: too far apart with a player above 2600)."""
    return (
        f"game not rated: {rule_set.not_rated_difference} points or more apart with a player "
        f"above {rule_set.not_rated_above} (R&B art. 7.3.1): {own} v {opp}"
    )


@calc.command("change")
@click.argument("r1", type=ASCII_INT)
@click.argument("r2", type=ASCII_INT, required=False)
@click.argument("result", metavar="[RESULT]", required=False)
@click.option(
    "--opponents",
    callback=_parse_ratings,
    help="Several games: the opponents' ratings, comma-separated (1500,1700), instead of R2.",
)
@click.option(
    "--results",
    callback=_parse_results,
    help="Several games: R1's score in each, in the order of --opponents (1,0.5).",
)
@click.option(
    "--k",
    "k",
    type=ASCII_INT,
    help="K factor of the player rated R1 (default: art. 8.3.3 from --games, --birth-year, --k10).",
)
@click.option("--games", "games_played", type=ASCII_INT, help="R1's rated games before the event.")
@click.option("--birth-year", type=ASCII_INT, help="R1's year of birth (juniors have K 40).")
@click.option("--k10", is_flag=True, help="R1 once had a published rating of 2400 or more (K 10).")
@click.option(
    "--list",
    "list_type",
    type=click.Choice(["standard", "rapid", "blitz"]),
    default="standard",
    show_default=True,
    help="The list rated (rapid and blitz: their 400-point and 600-point rules).",
)
@DATE
@PLAIN
@FORMAT
def change_command(
    r1: int,
    r2: int | None,
    result: str | None,
    opponents: list[int],
    results: list[int],
    k: int | None,
    games_played: int | None,
    birth_year: int | None,
    k10: bool,
    list_type: str,
    day: datetime | None,
    plain: bool,
    fmt: str,
) -> None:
    """Rating change of a player rated R1 for one game against R2, or for several games
    (--opponents and --results) of an event.

    RESULT is R1's score: 1, 0.5 (also 1/2, = or ½) or 0, or the game's result with R1
    first, as other commands take it: 1-0, 1/2-1/2, 0-1. Each game's change is K*dR = K x
    (S - PD), unrounded; NEW is R1 plus the sum of K*dR rounded once, half away from zero
    (art. 8.3.4). K is --k, or art. 8.3.3's (10 for a rating or --k10 at 2400, 40 for a junior
    below 2300 or fewer than 30 --games, else 20; an unknown count counts as 30 or more),
    then the 700 rule. The 400-point rule is the edition's in force on --date (art. 8.3.1);
    --plain: none (plain Elo).
    """
    several = bool(opponents) or bool(results)
    if several and r2 is not None:
        raise click.UsageError("give R2 RESULT or --opponents and --results, not both")
    if not several and (r2 is None or result is None):
        raise click.UsageError("give R2 RESULT, or --opponents and --results")
    if several and len(opponents) != len(results):
        raise click.UsageError(
            f"--results has {len(results)} results for {len(opponents)} opponents"
        )
    if k is not None and (games_played is not None or birth_year is not None or k10):
        raise click.UsageError("--k replaces the K rules: give --k or --games/--birth-year/--k10")
    with _rules_errors():
        _bounded(r1)
        for opponent in opponents if several else [r2] if r2 is not None else []:
            _bounded(opponent, "opponent rating")
        if several:
            games = list(zip(opponents, results, strict=True))
        else:
            assert r2 is not None  # checked above
            assert result is not None
            games = [(r2, int(rules.parse_score(result) * 2))]
        event_start = _event_day(day)
        rule_set = rules.UNCAPPED if plain else rules.rules_for(event_start, list_type)
        try:
            rated = {
                name: rules.rate_games(
                    r1, games, event_start=event_start, k=k, games_played=games_played,
                    birth_year=birth_year, k10=k10, method=m, list_type=list_type,
                    uncapped=plain,
                )
                for name, m in _METHODS
            }  # fmt: skip
        except rules.InvalidRatingError as exc:  # every rating given is checked above
            raise rules.RulesError(_below_zero(r1)) from exc
        if not several and rated["table"][0][0] is None:
            raise rules.RulesError(_not_rated(r1, games[0][0], rule_set))
    if several:
        _several_games(r1, games, rated, rule_set, fmt)
        return
    one = {name: (_line(lines[0]), entry) for name, (lines, entry) in rated.items()}
    if fmt == "json":
        payload = {
            name: {
                "difference": line.difference,
                "expected": _number(_exact(line.pd)),
                "k": line.k_used,
                "k_dr": _number(_exact(line.k_dr)),
                "new_rating": entry.rating_after,
            }
            for name, (line, entry) in one.items()
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
        for name, (line, entry) in one.items()
    ]
    click.echo(f"rules: {rule_set.name}")
    if k is None:
        click.echo(f"K: {one['table'][0].k_used} (art. 8.3.3)")
    click.echo(_table(["method", "difference", "expected", "K*dR", "new"], rows))


def _line(line: rules.BreakdownLine | None) -> rules.BreakdownLine:
    """A game's breakdown line, which a rated game has."""
    assert line is not None
    return line


Rated = dict[str, tuple[list["rules.BreakdownLine | None"], "rules.ListEntry"]]


def _several_games(
    own: int, games: Sequence[tuple[int, int]], rated: Rated, rule_set: rules.RuleSet, fmt: str
) -> None:
    """``calc change --opponents ... --results ...``: each game, then the period's change."""
    if fmt == "json":
        payload = {}
        for name, (lines, entry) in rated.items():
            total = sum(line.dr_units or 0 for line in lines if line is not None)
            payload[name] = {
                "k": entry.k_used,
                "games": [
                    _game_json(opp, halves, line)
                    for (opp, halves), line in zip(games, lines, strict=True)
                ],
                "k_dr": _number(rules.points((entry.k_used or 0) * total, entry.units_per_point)),
                "change": entry.change,
                "new_rating": entry.rating_after,
            }
        click.echo(json.dumps(payload, indent=2))
        return
    table_lines, curve_lines = rated["table"][0], rated["curve"][0]
    rows = []
    for (opp, halves), t, c in zip(games, table_lines, curve_lines, strict=True):
        score = str(Decimal(halves) / 2)
        if t is None or c is None:
            rows.append([str(opp), score, "not rated", "", "", "", ""])
            continue
        rows.append([
            str(opp), score, str(t.difference), str(_shown(t.pd)), _signed(_shown(t.k_dr)),
            str(_shown(c.pd)), _signed(_shown(c.k_dr)),
        ])  # fmt: skip
    click.echo(f"rules: {rule_set.name}")
    header = ["opponent", "score", "difference", "table", "K*dR", "curve", "K*dR"]
    click.echo(_table(header, rows))
    click.echo("")
    summary = []
    for name, (lines, entry) in rated.items():
        total = sum(line.dr_units or 0 for line in lines if line is not None)
        k_dr = rules.points((entry.k_used or 0) * total, entry.units_per_point)
        summary.append([
            name, "" if entry.k_used is None else str(entry.k_used), str(entry.period_games),
            _signed(_shown(k_dr)), f"{entry.change:+}" if entry.change else "0",
            str(entry.rating_after),
        ])  # fmt: skip
    click.echo(_table(["method", "K", "games", "K*dR", "change", "new"], summary))


def _game_json(opp: int, halves: int, line: rules.BreakdownLine | None) -> dict[str, object]:
    """One game of ``calc change --opponents``, as JSON (nulls for a game not rated)."""
    return {
        "opponent": opp,
        "score": halves / 2,
        "rated": line is not None,
        "difference": None if line is None else line.difference,
        "expected": None if line is None else _number(_exact(line.pd)),
        "k_dr": None if line is None else _number(_exact(line.k_dr)),
    }


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
    algorithm_400: Ra + 400 x (wins - losses) / games. Each with its working: Ra (fide), p
    and dp (fide, own).
    """
    if method == "own" and rating is None:
        raise click.UsageError("--method own needs --rating")
    wanted = [method] if method else ["fide", "own", "400"]
    values: dict[str, dict[str, int]] = {}
    with _rules_errors():
        for opponent in opponents:
            _bounded(opponent, "opponent rating")
        p = rules.percentage_score(opponents, score)
        dp = rules.dp(p)
        if "fide" in wanted:
            values["fide"] = {
                "performance": rules.performance_fide(opponents, score),
                "ra": rules.average_rating(opponents), "p": p, "dp": dp,
            }  # fmt: skip
        if rating is not None:
            _bounded(rating)
        if "own" in wanted and rating is not None:
            own = rules.performance_own(rating, opponents, score)
            values["own"] = {"performance": own, "p": p, "dp": dp}
        if "400" in wanted:
            values["algorithm_400"] = {"performance": rules.performance_400(opponents, score)}
    if fmt == "json":
        click.echo(json.dumps(values, indent=2))
        return
    rows = [
        [name, str(v["performance"]), *(str(v[x]) if x in v else "" for x in ("ra", "p", "dp"))]
        for name, v in values.items()
    ]
    click.echo(_table(["method", "performance", "Ra", "p", "dp"], rows))


def register(group: click.Group) -> None:
    """Add ``calc`` to the top-level group."""
    group.add_command(calc)
