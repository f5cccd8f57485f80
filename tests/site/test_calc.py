"""The calculators page: the rules' tables it carries, and in Chromium its
answers against ``ratings calc ... --format json``.

The fast tests check that ``assets/calc-rules.js`` is :mod:`ratings.rules`' tables and
constants, so a change of the rules that the page would not follow fails here. The browser
tests (slow; Chromium from the distribution, as tests/site/test_browser.py) open
``calculators.html`` from ``file://``, compare ``window.ratingsCalc`` with the CLI on 500
seeded random cases of each function and on the worked examples, and check the page at 1280
and 375 px: no sideways overflow, no console error, no request outside the site's folder.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ratings import rules
from ratings.cli.calc import calc
from ratings.rules.expected import _SCORE_TEXT, expected_units
from ratings.site.calculators import (
    RULES_SCRIPT,
    rules_data,
    rules_script,
    table_dp_rows,
    table_rows,
)
from tests.publish_helpers import demo, ok
from tests.site.test_browser import ARGS, CHROMIUM, shots, watch

CASES = 500


# --------------------------------------------------------------------------------------------
# the emitted tables are the rules' (fast)
# --------------------------------------------------------------------------------------------


def emitted() -> dict[str, Any]:
    """What ``assets/calc-rules.js`` gives the page, read back from the script."""
    text = rules_script().decode("ascii")
    head, _, body = text.partition("window.RATINGS_RULES = ")
    assert head.startswith("/*")
    assert body.endswith(";\n")
    data: dict[str, Any] = json.loads(body[:-2])
    return data


def test_the_script_is_the_data() -> None:
    assert emitted() == rules_data()


def test_table_8_1_2_is_the_rules() -> None:
    table = emitted()["table_8_1_2"]
    assert len(table) == rules.TABLE_MAX_DIFFERENCE + 1
    assert table == [rules.table_pd(d) for d in range(rules.TABLE_MAX_DIFFERENCE + 1)]
    # the page reads 100 beyond the table, as the rules do
    assert rules.table_pd(rules.TABLE_MAX_DIFFERENCE + 1) == emitted()["table_units"] == 100
    assert (table[0], table[3], table[4], table[400], table[735]) == (50, 50, 51, 92, 99)


def test_the_curve_is_the_rules() -> None:
    data = emitted()
    curve = data["curve"]
    assert data["curve_units"] == rules.CURVE_UNITS
    assert curve == [expected_units(d, True) for d in range(len(curve))]
    assert curve[-1] == rules.CURVE_UNITS > curve[-2]
    # beyond the last entry the page reads 1: so do the rules, up to any difference
    for d in (len(curve), len(curve) + 1, 4000, 4001, 10_000, 999_999):
        assert expected_units(d, True) == rules.CURVE_UNITS
    assert curve[400] == 909_090_909
    assert rules.curve_expected(400) == rules.points(curve[400], rules.CURVE_UNITS)


def test_table_8_1_1_and_constants_are_the_rules() -> None:
    data = emitted()
    assert data["table_8_1_1"] == [rules.dp(p) for p in range(101)]
    assert data["k"] == {
        "k10_mark": rules.K10_MARK,
        "junior_mark": rules.JUNIOR_MARK,
        "junior_max_age": rules.JUNIOR_MAX_AGE,
        "new_player_games": rules.NEW_PLAYER_GAMES,
        "unknown_games_k": rules.UNKNOWN_GAMES_K,
        "product_limit": rules.K_PRODUCT_LIMIT,
        "max": rules.K_MAX,
    }


def test_the_editions_are_the_rules() -> None:
    data = emitted()
    for name, editions in (
        ("standard", rules.RULE_SETS),
        ("rapid_blitz", rules.RAPID_BLITZ_RULE_SETS),
    ):
        assert data["rule_sets"][name] == [
            {
                "from": r.effective_from.isoformat(),
                "name": r.name,
                "cap": r.cap.value,
                "cap_difference": r.cap_difference,
                "cap_exempt_from": r.cap_exempt_from,
                "not_rated_difference": r.not_rated_difference,
                "not_rated_above": r.not_rated_above,
            }
            for r in editions
        ]
    for name, lists in (
        ("standard", rules.LIST_RULES),
        ("rapid_blitz", rules.RAPID_BLITZ_LIST_RULES),
    ):
        assert data["list_rules"][name] == [
            {"from": e.effective_from.isoformat(), "fixed_k": e.fixed_k} for e in lists
        ]
    # the page knows every kind of cap the rules have, and no other
    caps = {r["cap"] for editions in data["rule_sets"].values() for r in editions}
    assert caps <= {"all", "below_2650"}
    # plain Elo (`calc --plain`, the elo system): the rules' rule set without a cap
    assert data["uncapped"] == {
        "from": "0001-01-01", "name": "no 400-point rule", "cap": rules.UNCAPPED.cap.value,
        "cap_difference": rules.UNCAPPED.cap_difference, "cap_exempt_from":
        rules.UNCAPPED.cap_exempt_from, "not_rated_difference": None, "not_rated_above": None,
    }  # fmt: skip
    assert data["uncapped"]["cap"] not in caps


def test_the_printed_table_8_1_1() -> None:
    rows = table_dp_rows()
    printed = [cell for row in rows for cell in row if cell[0]]
    assert sorted(printed, key=lambda c: int(c[0][:-1])) == [
        (f"{p}%", str(rules.dp(p))) for p in range(101)
    ]
    assert rows[0] == (("0%", "-800"), ("51%", "7"))
    assert rows[-1] == (("50%", "0"), ("", ""))


def test_the_printed_table_8_1_2() -> None:
    rows = table_rows()
    assert rows[0] == ("0\u20133", "0.50", "0.50")
    assert ("392\u2013411", "0.92", "0.08") in rows
    assert rows[-2:] == [("620\u2013735", "0.99", "0.01"), ("> 735", "1.00", "0.00")]
    assert len(rows) == 51


# --------------------------------------------------------------------------------------------
# the CLI side of the comparison
# --------------------------------------------------------------------------------------------


def cli_json(*args: str) -> dict[str, Any] | str:
    """``ratings calc ARGS --format json`` in-process: the JSON, or the error line."""
    result = CliRunner().invoke(calc, [*args, "--format", "json"])
    if result.exit_code == 1:
        assert result.output.startswith("Error: "), result.output
        return result.output.removeprefix("Error: ").rstrip("\n")
    assert result.exit_code == 0, (args, result.output)
    data: dict[str, Any] = json.loads(result.output)
    return data


EDGES = [
    date(2009, 6, 30), date(2012, 1, 1), date(2022, 9, 30), date(2022, 10, 1),
    date(2024, 11, 30), date(2024, 12, 1), date(2025, 9, 30), date(2025, 10, 1),
]  # fmt: skip


def a_day(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return rng.choice(EDGES).isoformat()
    return (date(2005, 1, 1) + timedelta(days=rng.randrange(8000))).isoformat()


def a_rating(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice([0, 1, 2649, 2650, 2651, 9999, 123_456])
    if roll < 0.25:
        return rng.randrange(2300, 2900)
    return rng.randrange(1000, 2900)


SCORES = [(1, "1"), (0.5, "0.5"), (0, "0")]


def k_case(rng: random.Random) -> tuple[dict[str, Any], list[str]]:
    """The options of a change: K given, or the K rules' inputs (some left out)."""
    if rng.random() < 0.4:
        k = rng.randrange(1, 101)
        return {"k": k}, ["--k", str(k)]
    options: dict[str, Any] = {}
    args: list[str] = []
    if rng.random() < 0.7:
        options["games"] = rng.randrange(60)
        args += ["--games", str(options["games"])]
    if rng.random() < 0.6:
        options["birth_year"] = rng.randrange(1950, 2024)
        args += ["--birth-year", str(options["birth_year"])]
    if rng.random() < 0.15:
        options["k10"] = True
        args.append("--k10")
    return options, args


def change_cases(several: bool, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(CASES):
        own = a_rating(rng)
        day = a_day(rng)
        listed = rng.choice(["standard", "standard", "rapid", "blitz"])
        options, args = k_case(rng)
        options.update(date=day, list=listed)
        args += ["--date", day, "--list", listed]
        if rng.random() < 0.15:  # plain Elo: no 400-point rule
            options["plain"] = True
            args.append("--plain")
        n = rng.choice([1, 2, 3, 5, 9, 18, 25, 40]) if several else 1
        games = [(a_rating(rng), rng.choice(SCORES)) for _ in range(n)]
        if several:
            opponents = [opp for opp, _ in games]
            scores = [s for _, (s, _) in games]
            command = ["change", str(own), "--opponents", ",".join(map(str, opponents)),
                       "--results", ",".join(t for _, (_, t) in games), *args]  # fmt: skip
            call: list[Any] = [own, opponents, scores, options]
        else:
            ((opp, (score, text)),) = games
            command = ["change", str(own), str(opp), text, *args]
            call = [own, opp, score, options]
        cases.append({"call": call, "cli": command})
    return cases


def expected_cases(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(CASES):
        own, opp, day = a_rating(rng), a_rating(rng), a_day(rng)
        if rng.random() < 0.2:  # plain Elo: no 400-point rule
            command = ["expected", str(own), str(opp), "--date", day, "--plain"]
            cases.append({"call": [own, opp, day, {"plain": True}], "cli": command})
            continue
        cases.append(
            {"call": [own, opp, day], "cli": ["expected", str(own), str(opp), "--date", day]}
        )
    return cases


def performance_cases(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(CASES):
        opponents = [a_rating(rng) for _ in range(rng.randrange(1, 21))]
        halves = rng.randrange(2 * len(opponents) + 1)
        score = halves / 2
        command = ["performance", "--opponents", ",".join(map(str, opponents)),
                   "--score", str(score)]  # fmt: skip
        options: dict[str, Any] = {}
        if rng.random() < 0.6:
            options["rating"] = a_rating(rng)
            command += ["--rating", str(options["rating"])]
        cases.append({"call": [opponents, score, options], "cli": command})
    return cases


def test_the_cases_cover_the_rules() -> None:
    """The random cases reach the rules they are meant to check (so the comparison could
    fail on each): the 700 rule, the 600-point rule, the 2650 exemption, each K."""
    several = [cli_json(*c["cli"]) for c in change_cases(True, 2)[:200]]
    ks = {r["table"]["k"] for r in several if isinstance(r, dict)}
    assert {10, 20, 40} <= ks
    assert any(isinstance(k, int) and k not in (10, 20, 40) and k < 40 for k in ks)  # 700 rule
    assert any(
        isinstance(r, dict) and not all(g["rated"] for g in r["table"]["games"]) for r in several
    )
    single = [cli_json(*c["cli"]) for c in change_cases(False, 1)[:300]]
    assert any(isinstance(r, str) and r.startswith("game not rated") for r in single)
    exempt = [cli_json(*c["cli"]) for c in expected_cases(0)]
    assert any(isinstance(r, dict) and abs(r["table"]["difference"]) > 400 for r in exempt)
    plain = [c for c in expected_cases(0) if "--plain" in c["cli"]]
    assert any(
        abs(r["curve"]["difference"]) > 735  # beyond the table: the curve alone tells
        for r in map(lambda c: cli_json(*c["cli"]), plain)
        if isinstance(r, dict)
    )


# --------------------------------------------------------------------------------------------
# in Chromium (slow)
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def calc_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("calc")
    db = demo(folder)
    ok("publish", str(folder / "site"), "--db", str(db), "--title", "Demo Chess Club")
    return folder / "site"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium from the distribution, as tests/site/test_browser.py launches it."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).is_file():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
        if os.environ.get("RATINGS_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield launched
        launched.close()


def open_calculators(browser: Any, site: Path, width: int) -> tuple[Any, list[str], list[str]]:
    """The page at ``width`` px, with its console problems and every URL it requested."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems = watch(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((site / "calculators.html").as_uri())
    page.wait_for_selector("html.calc-ready")
    return page, problems, requests


def compare(page: Any, function: str, cases: list[dict[str, Any]]) -> None:
    """Each case through window.ratingsCalc[function] (an Error: its message) and the CLI."""
    answers = page.evaluate(
        """([name, calls]) => calls.map((args) => {
            try { return window.ratingsCalc[name](...args); }
            catch (e) { return e.message; }
        })""",
        [function, [c["call"] for c in cases]],
    )
    assert len(answers) == len(cases)
    for case, answer in zip(cases, answers, strict=True):
        assert answer == cli_json(*case["cli"]), case


@pytest.mark.slow
def test_the_page_gives_the_cli_numbers(browser: Any, calc_site: Path) -> None:
    page, problems, requests = open_calculators(browser, calc_site, 1280)
    compare(page, "expected", expected_cases(0))
    compare(page, "change", change_cases(False, 1))
    compare(page, "change", change_cases(True, 2))
    compare(page, "performance", performance_cases(3))
    assert problems == []
    root = calc_site.as_uri() + "/"
    assert requests
    assert all(url.startswith(root) for url in requests), requests
    page.close()


@pytest.mark.slow
def test_the_worked_examples(browser: Any, calc_site: Path) -> None:
    """The seeds' examples: 1600 beats 1400 at K 32: 1608 and 1392; a 400-point gap: table
    .92, curve .909."""
    page, problems, _ = open_calculators(browser, calc_site, 1280)
    won = page.evaluate("ratingsCalc.change(1600, 1400, 1, {k: 32})")
    lost = page.evaluate("ratingsCalc.change(1400, 1600, 0, {k: 32})")
    assert (won["table"]["new_rating"], lost["table"]["new_rating"]) == (1608, 1392)
    gap = page.evaluate("ratingsCalc.expected(2400, 2000, '2025-09-30')")
    assert gap == {
        "table": {"difference": 400, "expected": 0.92},
        "curve": {"difference": 400, "expected": 0.909090909},
    }
    # every spelling of a result the CLI takes, and one it refuses
    for text in [*_SCORE_TEXT, " 1/2 - 1/2 ", "+/-"]:
        answer = page.evaluate(
            "(t) => { try { return ratingsCalc.change(1500, 1500, t, "
            "{k: 20, date: '2025-01-01'}); } catch (e) { return e.message; } }",
            text,
        )
        assert answer == cli_json(
            "change", "1500", "1500", text, "--k", "20", "--date", "2025-01-01"
        )
    # the forms open on these examples and show them
    assert page.locator("#ex-result").inner_text().split("\n") == [
        "table 8.1.2\t400\t0.92",
        "curve\t400\t0.9091",
        "curve \u2212 table\t\t-0.0109",
    ]
    assert page.locator("#ch-result").inner_text().split("\n") == [
        "table\t32\t+7.68\t+8\t1608",
        "curve\t32\t+7.6881\t+8\t1608",
    ]
    # the loser's side, typed in
    page.fill("#ch-own", "1400")
    page.fill("#ch-games tr:first-child .ch-opp", "1600")
    page.select_option("#ch-games tr:first-child .ch-score", "0")
    assert page.locator("#ch-result tr:first-child").inner_text() == "table\t32\t-7.68\t-8\t1392"
    # K from the rules: a junior with several games, the 700 rule
    page.check("#ch-k-rules-on")
    page.fill("#ch-born", "2012")
    page.fill("#ch-date", "2025-03-01")
    for row in range(2, 4):
        page.fill(f"#ch-games tr:nth-child({row}) .ch-opp", "1400")
    assert page.locator("#change-status").inner_text().endswith("; K 40 (art. 8.3.3)")
    assert page.locator("#ch-result tr:first-child td:nth-child(2)").inner_text() == "40"
    for _ in range(15):
        page.click("#ch-add")
    for row in range(4, 19):
        page.fill(f"#ch-games tr:nth-child({row}) .ch-opp", "1500")
    assert (
        page.locator("#change-status")
        .inner_text()
        .endswith("; K 38 (art. 8.3.3, after the 700 rule)")
    )
    # a bad value is said in one line, not thrown
    page.fill("#ex-opp", "20x0")
    assert page.locator("#expected-status").inner_text() == (
        "No result: Opponent's rating: 20x0 is not a whole number"
    )
    page.fill("#ex-opp", "2000")
    page.fill("#pf-opps", "1500,1700,1900")
    page.fill("#pf-score", "2")
    assert page.locator("#pf-result").inner_text().split("\n") == [
        "FIDE (table 8.1.1)\t1825\t1700\t67%\t125",
        "algorithm of 400\t1833\t\t\t",
    ]
    assert problems == []
    page.close()


STALE = [
    # (field, what is typed, the results that go, the status line)
    ("#ch-k", "0", ("#ch-lines", "#ch-result"), "No result: K: 0 is not from 1 to 100"),
    ("#ch-own", "99999", ("#ch-lines", "#ch-result"),
     "No result: Own rating: 99999 is not from 0 to 3500"),
    ("#ch-games tr:first-child .ch-opp", "3501", ("#ch-lines", "#ch-result"),
     "No result: Opponent's rating, game 1: 3501 is not from 0 to 3500"),
    ("#ch-date", "2025-13-01", ("#ch-lines", "#ch-result"),
     "No result: Event start: 2025-13-01 is not a date written YYYY-MM-DD"),
    ("#ex-own", "-5", ("#ex-result",), "No result: Own rating: -5 is not a whole number"),
    ("#pf-score", "4", ("#pf-result",), "No result: Score: 4 is more than 3 games give"),
    ("#pf-opps", "1500,1700,9999", ("#pf-result",),
     "No result: Opponents' ratings: 9999 is not from 0 to 3500"),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 375])
def test_an_invalid_input_leaves_no_stale_result(browser: Any, calc_site: Path, width: int) -> None:
    """The moment an input is invalid its calculator's results go (K set to 0 showed the
    old +8 -> 1608; a performance score of 4 of 3 games, the result for the score before),
    the field is marked, and the line names the field and what was typed; a valid value
    brings the results back. Ratings are bounded as the CLI bounds them: 0 to 3500."""
    page, problems, _ = open_calculators(browser, calc_site, width)
    page.fill("#pf-opps", "1500,1700,1900")
    page.fill("#pf-score", "1")
    before = {s: page.locator(s).inner_text() for s in ("#ex-result", "#ch-lines", "#ch-result",
                                                        "#pf-result")}  # fmt: skip
    assert all(before.values()), before
    for field, typed, results, status in STALE:
        old = page.locator(field).input_value()
        page.fill(field, typed)
        line = page.locator(
            {"ch": "#change-status", "ex": "#expected-status", "pf": "#performance-status"}[
                results[0][1:3]
            ]
        )
        assert line.inner_text() == status, field
        for tbody in results:
            assert page.locator(tbody).inner_text() == "", (field, tbody)
        assert page.locator(field).get_attribute("aria-invalid") == "true"
        page.fill(field, old)
        assert page.locator(field).get_attribute("aria-invalid") is None
        for tbody in results:
            assert page.locator(tbody).inner_text() == before[tbody], (field, tbody)
    message = page.evaluate(
        "() => { try { ratingsCalc.change(1, 401, 0, {k: 40}); } catch (e) { return e.message; } }"
    )
    assert message == "the rating 1 and its change give a new rating below 0"
    assert message == cli_json("change", "1", "401", "0", "--k", "40")
    assert problems == []
    page.close()


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 375])
def test_the_page_reads_at(browser: Any, calc_site: Path, width: int, tmp_path: Path) -> None:
    page, problems, requests = open_calculators(browser, calc_site, width)
    assert page.title() == "Calculators \u00b7 Demo Chess Club"
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow == 0
    # every control is on screen and large enough to use
    for selector in ("#ex-own", "#ex-opp", "#ch-own", "#ch-k", "#ch-add", "#pf-opps"):
        box = page.locator(selector).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
        assert box["height"] >= 20
    # the nav of every page links here
    assert page.locator("nav a[href='calculators.html']").count() == 1
    name = "calculators.png" if width == 1280 else f"calculators-{width}px.png"
    page.screenshot(path=str(shots(tmp_path) / name))
    assert problems == []
    assert all(url.startswith(calc_site.as_uri() + "/") for url in requests), requests
    page.close()


def test_every_page_links_the_calculators(calc_site: Path) -> None:
    """calculators.html is in the site, with its script; every page's nav links it."""
    assert (calc_site / RULES_SCRIPT).read_bytes() == rules_script()
    assert (calc_site / "assets" / "calc.js").is_file()
    pages = sorted(calc_site.rglob("*.html"))
    assert len(pages) > 60
    for path in pages:
        root = "" if path.parent == calc_site else "../"
        text = path.read_text("utf-8")
        assert f'<a href="{root}calculators.html">Calculators</a>' in text, path


@pytest.mark.slow
def test_both_players_side_by_side(browser: Any, calc_site: Path) -> None:
    """One game for both players: each side is ``calc change`` of that player (K given),
    with the swing between them; plain Elo gives the pure logistic curve (800: 0.9901)."""
    page, problems, _ = open_calculators(browser, calc_site, 1280)
    page.fill("#ex-date", "2025-09-30")
    page.select_option("#ex-score", "0.5")
    page.fill("#ex-k-own", "10")
    page.fill("#ex-k-opp", "20")
    a = cli_json("change", "2400", "2000", "0.5", "--k", "10", "--date", "2025-09-30")
    b = cli_json("change", "2000", "2400", "0.5", "--k", "20", "--date", "2025-09-30")
    assert isinstance(a, dict)
    assert isinstance(b, dict)
    assert (a["table"]["new_rating"], b["table"]["new_rating"]) == (2396, 2008)
    assert page.locator("#ex-pair tr").all_inner_texts() == [
        "Rating\t2400\t2000",
        "Difference used\t400\t-400",
        "E, table 8.1.2\t0.92\t0.08",
        "E, curve\t0.9091\t0.0909",
        "K\t10\t20",
        "Change, table\t-4\t+8",
        f"New rating, table\t{a['table']['new_rating']}\t{b['table']['new_rating']}",
        "Change, curve\t-4\t+8",
        f"New rating, curve\t{a['curve']['new_rating']}\t{b['curve']['new_rating']}",
    ]
    assert (
        page.locator("#ex-swing")
        .inner_text()
        .startswith("Swing (table 8.1.2): -4 and +8, not zero-sum (+4 in all)")
    )
    page.select_option("#ex-score", "1")
    page.fill("#ex-k-own", "20")
    assert page.locator("#ex-swing").inner_text() == (
        "Swing (table 8.1.2): +2 and -2, zero-sum: one gains what the other loses"
    )
    # plain Elo, for club systems: the true difference, the curve's 0.99 at 800
    page.fill("#ex-opp", "1600")
    assert page.locator("#ex-result tr").nth(1).inner_text() == "curve\t400\t0.9091"
    page.select_option("#ex-rules", "plain")
    assert page.locator("#ex-result tr").all_inner_texts()[:2] == [
        "table 8.1.2\t800\t1.00",
        "curve\t800\t0.9901",
    ]
    assert page.locator("#expected-status").inner_text() == "rules: no 400-point rule"
    # a bad K clears the pair as it clears the rest
    page.fill("#ex-k-opp", "0")
    assert page.locator("#ex-pair").inner_text() == ""
    assert page.locator("#ex-swing").inner_text() == ""
    # the performance's working: Ra, p and dp (table 8.1.1, printed below)
    page.fill("#pf-opps", "1500,1700,1900")
    page.fill("#pf-score", "2")
    assert (
        page.locator("#pf-result tr").first.inner_text()
        == "FIDE (table 8.1.1)\t1825\t1700\t67%\t125"
    )
    assert page.locator("table.calc-dp").inner_text().count("%") == 101
    assert problems == []
    page.close()


@pytest.mark.slow
def test_a_player_page_opens_the_calculator_for_the_next_event(
    browser: Any, calc_site: Path
) -> None:
    """ "Calculate my next event" fills in the player's rating, K and games; an opponent is
    found by name (folded as the search box folds it) and added with the newest rating."""
    page = browser.new_page(viewport={"width": 375, "height": 900})
    problems = watch(page)
    page.goto((calc_site / "players/10.html").as_uri())
    details = dict(
        zip(
            page.locator("dl.details dt").all_inner_texts(),
            page.locator("dl.details dd").all_inner_texts(),
            strict=True,
        )
    )
    page.locator("a.calc-next").click()
    page.wait_for_selector("html.calc-ready")
    assert page.input_value("#ch-own") == details["Rating"]
    assert page.input_value("#ch-k") == details["Next K"]
    assert page.is_checked("#ch-k-given")
    assert page.input_value("#ch-played") == details["Total games"]
    assert page.locator("#change-status").inner_text() == ("No result: give an opponent's rating")
    page.fill("#ch-find", "ELARD")
    button = page.locator("#ch-found button").first
    button.wait_for()
    name, _, rating = button.inner_text().rpartition(" (")
    assert name == "Elard, Carl"
    button.click()
    assert page.input_value("#ch-games tr:first-child .ch-opp") == rating.rstrip(")")
    assert page.locator("#ch-result tr").count() == 2
    assert page.locator("#ch-found").is_hidden()
    assert problems == []
    page.close()
