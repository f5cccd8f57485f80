"""Tests for ``ratings calc``: exact output, exit codes, JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from ratings.cli.calc import calc

BEFORE = "2025-09-30"
AFTER = "2025-10-01"
RULES_2009 = "rules: fide 2009-07, 400-point rule for every player\n"
RULES_2025 = "rules: fide 2025-10, 400-point rule below 2650 only\n"


def run(*args: str, exit_code: int = 0) -> Result:
    result = CliRunner().invoke(calc, list(args), catch_exceptions=exit_code != 0)
    assert result.exit_code == exit_code, result.output
    return result


# --------------------------------------------------------------------------------------------
# calc expected
# --------------------------------------------------------------------------------------------


def test_expected_table() -> None:
    assert run("expected", "2400", "2000", "--date", BEFORE).output == (
        RULES_2009 + "method  difference  expected\n"
        "table          400      0.92\n"
        "curve          400    0.9091\n"
    )


def test_expected_lower_player_capped() -> None:
    assert run("expected", "1500", "2900", "--date", AFTER).output == (
        RULES_2025 + "method  difference  expected\n"
        "table         -400      0.08\n"
        "curve         -400    0.0909\n"
    )


@pytest.mark.parametrize(
    ("day", "rules_line", "difference", "table", "curve", "curve_exact"),
    [
        pytest.param(BEFORE, RULES_2009, 400, "0.92", "0.9091", "0.909090909",
                     id="8.3.1-2025-09-30-capped"),
        pytest.param(AFTER, RULES_2025, 500, "0.96", "0.9468", "0.946759785",
                     id="8.3.1-2025-10-01-exempt"),
    ],
)  # fmt: skip
def test_expected_date_picks_the_edition(
    day: str, rules_line: str, difference: int, table: str, curve: str, curve_exact: str
) -> None:
    """2700 v 2200: capped at 400 before 1 Oct 2025, the true 500 from then on (art. 8.3.1)."""
    text = run("expected", "2700", "2200", "--date", day).output
    assert text == (
        rules_line + "method  difference  expected\n"
        f"table          {difference}      {table}\n"
        f"curve          {difference}    {curve}\n"
    )
    data = json.loads(run("expected", "2700", "2200", "--date", day, "--format", "json").output)
    assert data == {
        "table": {"difference": difference, "expected": float(table)},
        "curve": {"difference": difference, "expected": float(curve_exact)},
    }


def test_expected_default_date_is_today() -> None:
    # an equal pairing reads the same under every edition, so the test does not depend on today
    assert run("expected", "2000", "2000").output.endswith(
        "method  difference  expected\ntable            0      0.50\ncurve            0    0.5000\n"
    )


# --------------------------------------------------------------------------------------------
# calc change
# --------------------------------------------------------------------------------------------


def test_change_table_and_curve() -> None:
    assert run("change", "1500", "1900", "1", "--k", "40", "--date", BEFORE).output == (
        RULES_2009 + "method  difference  expected      K*dR   new\n"
        "table         -400      0.08    +36.80  1537\n"
        "curve         -400    0.0909  +36.3636  1536\n"
    )


@pytest.mark.parametrize("draw", ["0.5", "1/2", "=", "½"])
def test_change_draw_spellings(draw: str) -> None:
    assert run("change", "1500", "2000", draw, "--k", "20", "--date", BEFORE).output == (
        RULES_2009 + "method  difference  expected     K*dR   new\n"
        "table         -400      0.08    +8.40  1508\n"
        "curve         -400    0.0909  +8.1818  1508\n"
    )


def test_change_loss_and_zero() -> None:
    assert run("change", "1500", "1900", "0", "--k", "40", "--date", BEFORE).output == (
        RULES_2009 + "method  difference  expected     K*dR   new\n"
        "table         -400      0.08    -3.20  1497\n"
        "curve         -400    0.0909  -3.6364  1496\n"
    )
    assert run("change", "2800", "1800", "1", "--k", "10", "--date", AFTER).output == (
        RULES_2025 + "method  difference  expected     K*dR   new\n"
        "table         1000      1.00     0.00  2800\n"
        "curve         1000    0.9968  +0.0315  2800\n"
    )


@pytest.mark.parametrize(
    ("day", "difference", "table_expected", "table_change", "curve_expected", "curve_change"),
    [
        # docs/RULES.md#single-game-worked-examples: 2700 beats 2200 at K 10: +0.8 before Oct 2025,
        # +0.4 from then on
        pytest.param(BEFORE, 400, 0.92, 0.8, 0.909090909, 0.90909091, id="8.3.1-2025-09-30"),
        pytest.param(AFTER, 500, 0.96, 0.4, 0.946759785, 0.53240215, id="8.3.1-2025-10-01"),
    ],
)
def test_change_json(
    day: str,
    difference: int,
    table_expected: float,
    table_change: float,
    curve_expected: float,
    curve_change: float,
) -> None:
    result = run("change", "2700", "2200", "1", "--k", "10", "--date", day, "--format", "json")
    assert json.loads(result.output) == {
        "table": {
            "difference": difference,
            "expected": table_expected,
            "k_dr": table_change,
            "new_rating": 2701 if table_change > 0.5 else 2700,
        },
        "curve": {
            "difference": difference,
            "expected": curve_expected,
            "k_dr": curve_change,
            "new_rating": 2701,
        },
    }
    assert result.output.startswith('{\n  "table": {\n    "difference": ')


# --------------------------------------------------------------------------------------------
# calc performance
# --------------------------------------------------------------------------------------------


def test_performance_all_methods() -> None:
    assert run(
        "performance", "--opponents", "1500,1500", "--score", "1.5", "--rating", "1720"
    ).output == (
        "method         performance\n"
        "fide                  1693\n"
        "own                   1913\n"
        "algorithm_400         1700\n"
    )


def test_performance_without_rating_leaves_out_own() -> None:
    assert run("performance", "--opponents", "1500, 1700", "--score", "1").output == (
        "method         performance\nfide                  1600\nalgorithm_400         1600\n"
    )


@pytest.mark.parametrize(
    ("method", "key", "value"),
    [("fide", "fide", 2300), ("own", "own", 2600), ("400", "algorithm_400", 1900)],
)
def test_performance_one_method_json(method: str, key: str, value: int) -> None:
    args = ["--opponents", "1500", "--score", "1", "--rating", "1800", "--method", method]
    result = run("performance", *args, "--format", "json")
    assert json.loads(result.output) == {key: {"performance": value}}


def test_performance_json_shape() -> None:
    result = run(
        "performance", "--opponents", "1500,1500", "--score", "1½", "--rating", "1720",
        "--format", "json",
    )  # fmt: skip
    assert json.loads(result.output) == {
        "fide": {"performance": 1693},
        "own": {"performance": 1913},
        "algorithm_400": {"performance": 1700},
    }


# --------------------------------------------------------------------------------------------
# errors: rules errors exit 1, usage errors exit 2
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["change", "1500", "1900", "+/-", "--k", "40", "--date", BEFORE],
            "unknown result (use 1, 0.5, 1/2, = or 0, or 1-0, 1/2-1/2, 0-1): '+/-'",
        ),
        (
            ["change", "1500", "1900", "1", "--k", "0", "--date", BEFORE],
            "k must be an integer from 1 to 100: 0",
        ),
        (
            ["change", "--k", "20", "--date", BEFORE, "--", "-5", "1900", "1"],
            "rating must be a non-negative integer: -5",
        ),
        (
            ["expected", "--date", BEFORE, "--", "2000", "-1"],
            "opponent rating must be a non-negative integer: -1",
        ),
        (
            ["performance", "--opponents", "1500", "--score", "2"],
            "score must be a multiple of 0.5 from 0 to 1: Decimal('2')",
        ),
        (
            ["performance", "--opponents", "1500,1600", "--score", "0.3"],
            "score must be a multiple of 0.5 from 0 to 2: Decimal('0.3')",
        ),
        (
            ["performance", "--opponents", "", "--score", "0"],
            "a performance needs at least one opponent: []",
        ),
        (
            ["performance", "--opponents", "1500", "--score", "1", "--rating", "-3"],
            "rating must be a non-negative integer: -3",
        ),
    ],
)
def test_rules_errors_exit_1(args: list[str], message: str) -> None:
    assert run(*args, exit_code=1).output == f"Error: {message}\n"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ["expected", "2000", "abc"],
            "Invalid value for 'R2': 'abc' is not a valid integer (digits 0-9).",
        ),
        (
            ["expected", "\u0662\u0660\u0660\u0660", "2000"],  # Arabic-Indic digits
            "Invalid value for 'R1': '\u0662\u0660\u0660\u0660' is not a valid integer "
            "(digits 0-9).",
        ),
        (
            ["change", "2000", "2000", "1", "--k", "1_0"],
            "Invalid value for '--k': '1_0' is not a valid integer (digits 0-9).",
        ),
        (["expected", "2000"], "Missing argument 'R2'."),
        (["change", "2000", "2000", "1"], "Missing option '--k'."),
        (
            ["change", "2000", "2000", "1", "--k", "ten"],
            "Invalid value for '--k': 'ten' is not a valid integer (digits 0-9).",
        ),
        (
            ["expected", "2000", "2000", "--date", "2025-13-01"],
            "Invalid value for '--date': '2025-13-01' does not match the format '%Y-%m-%d'.",
        ),
        (
            ["expected", "2000", "2000", "--format", "csv"],
            "Invalid value for '--format': 'csv' is not one of 'table', 'json'.",
        ),
        (
            ["performance", "--opponents", "1500,x", "--score", "1"],
            "Invalid value for '--opponents': not a comma-separated list of integer ratings: "
            "'1500,x'",
        ),
        (
            ["performance", "--opponents", "1500", "--score", "abc"],
            "Invalid value for '--score': not a number: 'abc'",
        ),
        (
            ["performance", "--opponents", "1500", "--score", "1", "--method", "own"],
            "--method own needs --rating",
        ),
        (
            ["performance", "--opponents", "1500", "--score", "1", "--method", "tpr"],
            "Invalid value for '--method': 'tpr' is not one of 'fide', 'own', '400'.",
        ),
    ],
)
def test_usage_errors_exit_2(args: list[str], error: str) -> None:
    result = run(*args, exit_code=2)
    usage = {
        "expected": "Usage: calc expected [OPTIONS] R1 R2\nTry 'calc expected --help' for help.",
        "change": "Usage: calc change [OPTIONS] R1 R2 RESULT\nTry 'calc change --help' for help.",
        "performance": "Usage: calc performance [OPTIONS]\nTry 'calc performance --help' for help.",
    }[args[0]]
    assert result.output == f"{usage}\n\nError: {error}\n"


# --------------------------------------------------------------------------------------------
# help, and no database
# --------------------------------------------------------------------------------------------


def test_commands_have_help() -> None:
    """Every command has a docstring, which is its --help summary (sqlite-utils)."""
    assert calc.help
    assert isinstance(calc, click.Group)
    for name, command in calc.commands.items():
        assert command.help, f"calc {name} has no docstring"
        assert run(name, "--help").output.startswith(f"Usage: calc {name} ")


def test_calc_never_touches_the_database(tmp_path: Path) -> None:
    """Through the top-level group, with a --db that does not exist: nothing is created."""
    from ratings.cli import cli

    db = tmp_path / "missing.db"
    result = CliRunner().invoke(
        cli, ["--db", str(db), "calc", "expected", "2000", "2000", "--date", BEFORE]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith(RULES_2009)
    assert not db.exists()
    assert list(tmp_path.iterdir()) == []
