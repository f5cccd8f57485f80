"""The calculators page (``calculators.html``): expected score, rating change and performance
rating in the browser, with the numbers of ``ratings calc ... --format json``.

The arithmetic in ``assets/calc.js`` works in the same integer units as :mod:`ratings.rules`
(hundredths for table 8.1.2, 10^-9 for the curve), and every table and constant it uses comes
from :mod:`ratings.rules` at publish time (:func:`rules_data`, written as
``assets/calc-rules.js``): nothing is copied by hand, so a change of the rules changes the
page at the next publish. ``tests/site/test_calc.py`` checks the emitted data against the
rules and, in Chromium, the page's answers against the CLI's.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import jinja2

from ratings import limits, rules
from ratings.rules.expected import expected_units
from ratings.site.output import SiteFolder

__all__ = [
    "CALCULATORS",
    "RULES_SCRIPT",
    "rules_data",
    "rules_script",
    "table_dp_rows",
    "write_calculators",
]

CALCULATORS = "calculators.html"
RULES_SCRIPT = "assets/calc-rules.js"


def _curve_units() -> list[int]:
    """The curve's expected score of the higher rated player, in units of 10^-9, for every
    difference up to the first one at which it reaches 1 (beyond it, 1)."""
    units: list[int] = []
    while not units or units[-1] < rules.CURVE_UNITS:
        units.append(expected_units(len(units), True))
    return units


def _day(day: date) -> str:
    return day.isoformat()


def _rule_set(rule_set: rules.RuleSet) -> dict[str, Any]:
    return {
        "from": _day(rule_set.effective_from),
        "name": rule_set.name,
        "cap": rule_set.cap.value,
        "cap_difference": rule_set.cap_difference,
        "cap_exempt_from": rule_set.cap_exempt_from,
        "not_rated_difference": rule_set.not_rated_difference,
        "not_rated_above": rule_set.not_rated_above,
    }


def _list_rules(editions: tuple[rules.ListRules, ...]) -> list[dict[str, Any]]:
    return [{"from": _day(e.effective_from), "fixed_k": e.fixed_k} for e in editions]


def rules_data() -> dict[str, Any]:
    """Every table and constant the calculators use, from :mod:`ratings.rules`."""
    return {
        "table_8_1_2": [rules.table_pd(d) for d in range(rules.TABLE_MAX_DIFFERENCE + 1)],
        "table_8_1_1": [rules.dp(p) for p in range(101)],
        "curve": _curve_units(),
        "table_units": rules.TABLE_UNITS,
        "min_rating": limits.MIN_RATING,
        "max_rating": limits.MAX_RATING,
        "curve_units": rules.CURVE_UNITS,
        "rule_sets": {
            "standard": [_rule_set(r) for r in rules.RULE_SETS],
            "rapid_blitz": [_rule_set(r) for r in rules.RAPID_BLITZ_RULE_SETS],
        },
        # plain Elo (the elo system's, and `ratings calc --plain`): no 400-point rule
        "uncapped": _rule_set(rules.UNCAPPED),
        "list_rules": {
            "standard": _list_rules(rules.LIST_RULES),
            "rapid_blitz": _list_rules(rules.RAPID_BLITZ_LIST_RULES),
        },
        "k": {
            "k10_mark": rules.K10_MARK,
            "junior_mark": rules.JUNIOR_MARK,
            "junior_max_age": rules.JUNIOR_MAX_AGE,
            "new_player_games": rules.NEW_PLAYER_GAMES,
            "unknown_games_k": rules.UNKNOWN_GAMES_K,
            "product_limit": rules.K_PRODUCT_LIMIT,
            "max": rules.K_MAX,
        },
    }


def rules_script() -> bytes:
    """``assets/calc-rules.js``: :func:`rules_data` as a script (a page opened from file://
    may not read a JSON file), read by ``assets/calc.js``."""
    text = json.dumps(rules_data(), separators=(",", ":"), sort_keys=True)
    return (
        "/* the tables and constants of the rating rules, written by ratings publish */\n"
        f"window.RATINGS_RULES = {text};\n"
    ).encode("ascii")


def table_rows() -> list[tuple[str, str, str]]:
    """Table 8.1.2 as FIDE prints it: the range of D, PD of the higher and of the lower rated
    player, one row per PD (the last row: above 735)."""
    rows: list[tuple[str, str, str]] = []
    low = 0
    pds = [rules.table_pd(d) for d in range(rules.TABLE_MAX_DIFFERENCE + 1)]
    for d in range(len(pds)):
        if d + 1 == len(pds) or pds[d + 1] != pds[d]:
            rows.append((f"{low}\u2013{d}", _hundredths(pds[d]), _hundredths(100 - pds[d])))
            low = d + 1
    rows.append((f"> {rules.TABLE_MAX_DIFFERENCE}", "1.00", "0.00"))
    return rows


def table_dp_rows() -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Table 8.1.1 as the page prints it: p and dp, 0 to 50 beside 51 to 100 (the last row
    100 alone)."""
    pairs = [(f"{p}%", str(rules.dp(p))) for p in range(101)]
    left, right = pairs[:51], pairs[51:]
    return [(a, right[i] if i < len(right) else ("", "")) for i, a in enumerate(left)]


def _hundredths(units: int) -> str:
    return f"{units // 100}.{units % 100:02d}"


def write_calculators(env: jinja2.Environment, out: SiteFolder, common: dict[str, Any]) -> None:
    """Write ``calculators.html`` and ``assets/calc-rules.js`` into ``out``."""
    page = env.get_template("calculators.html.j2").render(
        common, root="", title="Calculators", table=table_rows(), table_dp=table_dp_rows()
    )
    out.put(CALCULATORS, page.encode("utf-8"))
    out.put(RULES_SCRIPT, rules_script())
