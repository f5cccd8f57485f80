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
            "k": 10,
            "k_dr": table_change,
            "new_rating": 2701 if table_change > 0.5 else 2700,
        },
        "curve": {
            "difference": difference,
            "expected": curve_expected,
            "k": 10,
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
        "method         performance    Ra   p   dp\n"
        "fide                  1693  1500  75  193\n"
        "own                   1913        75  193\n"
        "algorithm_400         1700\n"
    )  # with the working: Ra, p and dp of table 8.1.1


def test_performance_without_rating_leaves_out_own() -> None:
    assert run("performance", "--opponents", "1500, 1700", "--score", "1").output == (
        "method         performance    Ra   p  dp\nfide                  1600  1600  50   0\n"
        "algorithm_400         1600\n"
    )


@pytest.mark.parametrize(
    ("method", "key", "value"),
    [
        ("fide", "fide", {"performance": 2300, "ra": 1500, "p": 100, "dp": 800}),
        ("own", "own", {"performance": 2600, "p": 100, "dp": 800}),
        ("400", "algorithm_400", {"performance": 1900}),
    ],
)
def test_performance_one_method_json(method: str, key: str, value: dict[str, int]) -> None:
    args = ["--opponents", "1500", "--score", "1", "--rating", "1800", "--method", method]
    result = run("performance", *args, "--format", "json")
    assert json.loads(result.output) == {key: value}


def test_performance_json_shape() -> None:
    result = run(
        "performance", "--opponents", "1500,1500", "--score", "1½", "--rating", "1720",
        "--format", "json",
    )  # fmt: skip
    assert json.loads(result.output) == {
        "fide": {"performance": 1693, "ra": 1500, "p": 75, "dp": 193},
        "own": {"performance": 1913, "p": 75, "dp": 193},
        "algorithm_400": {"performance": 1700},
    }


def test_plain_elo_is_the_pure_logistic_curve() -> None:
    """--plain: no 400-point rule, for club systems: a gap of 800 is 800 (0.99 on the
    curve, 1.00 in table 8.1.2 beyond 735), on any date, and the change follows."""
    capped = json.loads(run("expected", "2400", "1600", "--date", AFTER, "--format", "json").output)
    assert capped["curve"] == {"difference": 400, "expected": 0.909090909}
    plain = json.loads(run("expected", "2400", "1600", "--plain", "--format", "json").output)
    assert plain == {
        "table": {"difference": 800, "expected": 1.0},
        "curve": {"difference": 800, "expected": 0.990099010},
    }
    assert run("expected", "2400", "1600", "--plain").output == (
        "rules: no 400-point rule\n"
        "method  difference  expected\n"
        "table          800      1.00\n"
        "curve          800    0.9901\n"
    )
    lost = json.loads(
        run("change", "2400", "1600", "0", "--k", "20", "--plain", "--format", "json").output
    )
    assert (lost["curve"]["k_dr"], lost["curve"]["new_rating"]) == (-19.8019802, 2380)


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
            "rating must be a whole number from 0 to 3500: -5",
        ),
        (
            ["change", "3501", "1900", "1", "--k", "20", "--date", BEFORE],
            "rating must be a whole number from 0 to 3500: 3501",
        ),
        (
            ["change", "1900", "--opponents", "1500,99999", "--results", "1,0", "--k", "20"],
            "opponent rating must be a whole number from 0 to 3500: 99999",
        ),
        (
            ["expected", "--date", BEFORE, "--", "2000", "-1"],
            "opponent rating must be a whole number from 0 to 3500: -1",
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
            "rating must be a whole number from 0 to 3500: -3",
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
        (["change", "2000", "2000"], "give R2 RESULT, or --opponents and --results"),
        (
            ["change", "2000", "2000", "1", "--opponents", "1500", "--results", "1"],
            "give R2 RESULT or --opponents and --results, not both",
        ),
        (
            ["change", "2000", "--opponents", "1500,1600", "--results", "1"],
            "--results has 1 results for 2 opponents",
        ),
        (
            ["change", "2000", "--opponents", "1500", "--results", "2"],
            "Invalid value for '--results': unknown result (use 1, 0.5, 1/2, = or 0, or 1-0, "
            "1/2-1/2, 0-1): '2' in '2'",
        ),
        (
            ["change", "2000", "2000", "1", "--k", "20", "--games", "3"],
            "--k replaces the K rules: give --k or --games/--birth-year/--k10",
        ),
        (
            ["change", "2000", "2000", "1", "--list", "bullet"],
            "Invalid value for '--list': 'bullet' is not one of 'standard', 'rapid', 'blitz'.",
        ),
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
        "change": "Usage: calc change [OPTIONS] R1 [R2] [RESULT]\n"
        "Try 'calc change --help' for help.",
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


# --------------------------------------------------------------------------------------------
# calc change: several games, K from the rules, the list's rules
# --------------------------------------------------------------------------------------------


def test_change_worked_example_1600_beats_1400_at_k_32() -> None:
    """The seeds' example: 1600 beats 1400 at K 32: 1608 and 1392 (table 8.1.2: .76 / .24)."""
    winner = json.loads(run("change", "1600", "1400", "1", "--k", "32", "--format", "json").output)
    loser = json.loads(run("change", "1400", "1600", "0", "--k", "32", "--format", "json").output)
    assert (winner["table"]["new_rating"], loser["table"]["new_rating"]) == (1608, 1392)
    assert (winner["table"]["k_dr"], loser["table"]["k_dr"]) == (7.68, -7.68)


SEVERAL = ["change", "1600", "--opponents", "1400,1700,2700", "--results", "1,0.5,0"]


def test_change_several_games_table() -> None:
    """Each game's K*dR, then the sum rounded once (art. 8.3.4); K 40 for a junior (8.3.3)."""
    assert run(*SEVERAL, "--date", "2025-01-01", "--birth-year", "2012").output == (
        RULES_2009 + "opponent  score  difference  table   K*dR   curve     K*dR\n"
        "1400          1         200   0.76  +9.60  0.7597  +9.6101\n"
        "1700        0.5        -100   0.36  +5.60  0.3599  +5.6026\n"
        "2700          0        -400   0.08  -3.20  0.0909  -3.6364\n"
        "\n"
        "method   K  games      K*dR  change   new\n"
        "table   40      3    +12.00     +12  1612\n"
        "curve   40      3  +11.5764     +12  1612\n"
    )


def test_change_several_games_json() -> None:
    result = run(*SEVERAL, "--date", "2025-01-01", "--games", "40", "--format", "json")
    data = json.loads(result.output)
    assert data["table"] == {
        "k": 20,
        "games": [
            {"opponent": 1400, "score": 1, "rated": True, "difference": 200, "expected": 0.76,
             "k_dr": 4.8},
            {"opponent": 1700, "score": 0.5, "rated": True, "difference": -100,
             "expected": 0.36, "k_dr": 2.8},
            {"opponent": 2700, "score": 0, "rated": True, "difference": -400, "expected": 0.08,
             "k_dr": -1.6},
        ],
        "k_dr": 6.0,
        "change": 6,
        "new_rating": 1606,
    }  # fmt: skip
    assert data["curve"]["k_dr"] == 5.78817964
    assert [g["expected"] for g in data["curve"]["games"]] == [0.759746927, 0.359935, 0.090909091]


@pytest.mark.parametrize(
    ("options", "k"),
    [
        pytest.param([], 20, id="8.3.3-unknown-count-20"),
        pytest.param(["--games", "29"], 40, id="8.3.3-fewer-than-30-games"),
        pytest.param(["--games", "30"], 20, id="8.3.3-30-games"),
        pytest.param(["--games", "5", "--k10"], 10, id="8.3.3-k10-flag"),
        pytest.param(["--birth-year", "2007", "--games", "99"], 40, id="8.3.3-junior-18"),
        pytest.param(["--birth-year", "2006", "--games", "99"], 20, id="8.3.3-junior-19"),
    ],
)
def test_change_k_from_the_rules(options: list[str], k: int) -> None:
    args = ["change", "1800", "1800", "1", "--date", "2025-05-05", "--format", "json", *options]
    assert json.loads(run(*args).output)["table"]["k"] == k


def test_change_k_rules_rating_2400_and_junior_2300() -> None:
    base = ["--date", "2025-05-05", "--birth-year", "2015", "--format", "json"]
    assert json.loads(run("change", "2400", "2400", "1", *base).output)["table"]["k"] == 10
    assert json.loads(run("change", "2300", "2300", "1", *base).output)["table"]["k"] == 20
    # a junior at 2300 with an unknown count: the count counts as established (K 20)
    assert run("change", "2300", "2300", "1", "--date", "2025-05-05").output == (
        RULES_2009 + "K: 20 (art. 8.3.3)\n"
        "method  difference  expected      K*dR   new\n"
        "table            0      0.50    +10.00  2310\n"
        "curve            0    0.5000  +10.0000  2310\n"
    )


def test_change_700_rule() -> None:
    """30 games at a junior's K 40: K x n = 1200 > 700, K becomes 700 // 30 = 23 (8.3.3)."""
    args = ["--opponents", ",".join(["1400"] * 30), "--results", ",".join(["1"] * 30)]
    data = json.loads(
        run("change", "1500", *args, "--birth-year", "2010", "--date", "2025-01-01",
            "--format", "json").output
    )  # fmt: skip
    assert (data["table"]["k"], data["table"]["change"], data["table"]["new_rating"]) == (
        23,
        248,  # 30 x .36 x 23 = 248.4
        1748,
    )


def test_change_rapid_600_point_rule() -> None:
    """Rapid from 1 Dec 2024: 600 or more apart with a player above 2600 is not rated (R&B
    art. 7.3.1); the day before, and on the standard list, it is."""
    result = run("change", "2700", "2000", "1", "--list", "rapid", "--date", "2024-12-01",
                 exit_code=1)  # fmt: skip
    assert result.output == (
        "Error: game not rated: 600 points or more apart with a player above 2600 "
        "(R&B art. 7.3.1): 2700 v 2000\n"
    )
    before = run("change", "2700", "2000", "1", "--list", "rapid", "--date", "2024-11-30",
                 "--format", "json")  # fmt: skip
    assert json.loads(before.output)["table"]["difference"] == 400
    data = json.loads(
        run("change", "2700", "--opponents", "2000,2600", "--results", "1,1/2", "--list",
            "blitz", "--date", "2025-01-01", "--format", "json").output
    )  # fmt: skip
    assert data["table"]["games"][0] == {
        "opponent": 2000, "score": 1, "rated": False, "difference": None, "expected": None,
        "k_dr": None,
    }  # fmt: skip
    assert (data["table"]["k"], data["table"]["change"], data["table"]["new_rating"]) == (
        10,
        -1,
        2699,
    )


def test_change_rapid_2650_not_exempt() -> None:
    """The 2650 exemption of art. 8.3.1 (from 1 Oct 2025) is standard chess's only."""
    standard = run("change", "2700", "2200", "1", "--date", AFTER, "--format", "json")
    rapid = run("change", "2700", "2200", "1", "--date", AFTER, "--list", "rapid",
                "--format", "json")  # fmt: skip
    assert json.loads(standard.output)["table"]["difference"] == 500
    assert json.loads(rapid.output)["table"]["difference"] == 400


def test_change_rapid_fixed_k_before_october_2022() -> None:
    """The rapid and blitz lists had K 20 for everyone before 1 October 2022."""
    args = ["change", "1500", "1500", "1", "--list", "rapid", "--games", "0", "--format", "json"]
    assert json.loads(run(*args, "--date", "2022-09-30").output)["table"]["k"] == 20
    assert json.loads(run(*args, "--date", "2022-10-01").output)["table"]["k"] == 40


def test_change_the_opponent_is_not_rated() -> None:
    """Only R1 is rated: an opponent rated 1 who loses would fall below 0, which is no
    reason to refuse R1's change (it was: "rating must be a non-negative integer: -9")."""
    assert run("change", "1", "1", "1", "--k", "20", "--date", BEFORE).output == (
        RULES_2009 + "method  difference  expected      K*dR  new\n"
        "table            0      0.50    +10.00   11\n"
        "curve            0    0.5000  +10.0000   11\n"
    )
    # R1's own new rating below 0 is refused, in words about what was typed
    result = run("change", "5", "5", "0", "--k", "20", "--date", BEFORE, exit_code=1)
    assert result.output == "Error: the rating 5 and its change give a new rating below 0\n"
