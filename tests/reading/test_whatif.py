"""``ratings whatif`` (docs/DESIGN.md#what-if): a change tried in a scratch database gives the
lists that making the same change for real on a copy and rating gives; the database is never
written; the rules' what-if keys change exactly what they name."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ratings import rules
from ratings.rules import KTable, RuleVariant
from tests.conftest import BOTH_BACKENDS, new_database, table_rows
from tests.publish_helpers import demo
from tests.support import invoke, ok


def whatif(db: Path | str, *args: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(ok(db, "whatif", *args, "--format", "json"))
    return doc


def newest_list(db: Path | str) -> dict[int, int | None]:
    """The newest standard list's ratings by player."""
    return {
        int(str(pid)): None if rating is None else int(str(rating))
        for pid, rating in table_rows(
            db,
            "SELECT h.player_id, h.rating_after FROM rating_history h JOIN rating_periods p "
            "ON p.id = h.period_id WHERE h.time_control = 'standard' AND p.start_date = "
            "(SELECT max(start_date) FROM rating_periods)",
        )
    }


def what_if_list(db: Path | str, doc: dict[str, Any]) -> dict[int, int | None]:
    """The newest list as the what-if gives it: the published one, with the movers'."""
    ratings = newest_list(db)
    for m in doc["periods"][-1]["movers"]:
        ratings[m["player_id"]] = m["what_if"]
    return ratings


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo(tmp_path_factory.mktemp("whatif"))


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return Path(shutil.copyfile(template, tmp_path / "demo.db"))


def _for_real(db: Path, tmp_path: Path, *commands: tuple[str, ...]) -> dict[int, int | None]:
    copy = Path(shutil.copyfile(db, tmp_path / "copy.db"))
    for command in commands:
        ok(copy, *command)
    ok(copy, "rate")
    return newest_list(copy)


@pytest.mark.parametrize(
    ("args", "commands"),
    [
        pytest.param(
            ("--without-event", "Stonehaven Masters 2025 #3"),
            [("event", "void", "Stonehaven Masters 2025 #3", "-y")],
            id="an event removed",
        ),
        pytest.param(
            ("--move-event", "3", "--period", "2025-04"),
            [("event", "edit", "3", "--period", "2025-04", "-y")],
            id="an event rated two periods later",
        ),
        pytest.param(
            ("--set", "closing-days=10"),
            [("settings", "closing-days", "10", "-y")],
            id="the closing days",
        ),
        pytest.param(
            ("--set", "k=25", "--set", "expected=curve"),
            [("settings", "k", "25", "-y"), ("settings", "expected", "curve", "-y")],
            id="a fixed K and the curve",
        ),
    ],
)
def test_what_if_is_the_change_made_for_real(
    db: Path, tmp_path: Path, args: tuple[str, ...], commands: list[tuple[str, ...]]
) -> None:
    before = db.read_bytes()
    doc = whatif(db, *args)
    assert db.read_bytes() == before  # the database is only read
    assert doc["newest"]["moved"] > 0
    assert what_if_list(db, doc) == _for_real(db, tmp_path, *commands)


def test_the_rules_keys_equal_a_rate_with_the_variant(db: Path, tmp_path: Path) -> None:
    """junior-k=30 from 2025-07: a copy re-rated from July with the same variant through the
    library gives the what-if's lists, and the lists before July do not move."""
    doc = whatif(db, "--set", "junior-k=30", "--from", "2025-07")
    assert [p["period"] for p in doc["periods"]] == [f"2025-{m:02d}" for m in range(7, 13)]
    assert doc["periods"][0]["moved"] > 0
    import ratings
    from ratings.service.rating.plan import mark_rerate_from

    copy = Path(shutil.copyfile(db, tmp_path / "copy.db"))
    variant = RuleVariant(k=KTable(junior=30), applies_from=dt.date(2025, 7, 1))
    with ratings.open_session(str(copy)) as session:
        mark_rerate_from(session, rules.Period(dt.date(2025, 1, 1)))
        ratings.rate(session, variant=variant)
    assert what_if_list(db, doc) == newest_list(copy)
    june = whatif(db, "--set", "junior-k=30", "--from", "2025-07", "--through", "2025-07")
    assert june["periods"][0]["movers"] == doc["periods"][0]["movers"]


@pytest.mark.parametrize(
    "change",
    [
        ("--set", "junior-k=40"),
        ("--set", "new-player-k=40", "--set", "established-k=20", "--set", "top-k=10"),
        ("--set", "cap=400"),
        ("--set", "cap-exempt-from=2650", "--from", "2025-10"),
    ],
)
def test_fide_s_own_values_move_nobody(db: Path, change: tuple[str, ...]) -> None:
    doc = whatif(db, *change)
    assert all(p["moved"] == 0 and p["movers"] == [] for p in doc["periods"])
    assert doc["newest"]["distribution"]["0"] == doc["newest"]["rated"]


def test_the_2650_exemption_off_and_on(db: Path) -> None:
    """Off (the 400-point rule for everyone): no event of the demo is after October 2025 with
    a 2650 player, so nobody moves; on from 2000 in every edition, the strongest players
    keep the true difference and move."""
    off = whatif(db, "--set", "cap-exempt-from=none")
    assert off["newest"]["moved"] == 0
    on = whatif(db, "--set", "cap-exempt-from=2000")
    assert on["newest"]["moved"] > 0
    published = newest_list(db)
    for m in on["periods"][0]["movers"]:
        assert published[m["player_id"]] is not None


def test_the_table(db: Path) -> None:
    out = ok(db, "whatif", "--set", "junior-k=30", "--through", "2025-03", "--top", "2")
    assert out.splitlines()[:8] == [
        "What if: junior-k = 30 (FIDE: 40)",
        "The standard lists 2025-01 .. 2025-03, published and with the change:",
        "",
        "period   rated  moved   mean  largest rise             largest fall",
        "-------  -----  -----  -----  -----------------------  ---------------------------",
        "2025-01     28      3  -0.11  +8 Valer, Adam (id 24)   -6 Braley, Zoe (id 18)",
        "2025-02     32      6   0.06  +10 Valer, Adam (id 24)  -6 Braley, Zoe (id 18)",
        "2025-03     34      6  -0.18  +8 Valer, Adam (id 24)   -10 Linovberg, David (id 9)",
    ]
    assert "The newest list, 2025-03: 34 players rated both ways, 6 moved; mean change -0.18 " \
        "(deflation), -6 in all" in out  # fmt: skip
    assert "Biggest movers:" in out
    assert out.count(" (id ") >= 6


def test_the_csv_neutralises_names(db: Path) -> None:
    ok(db, "player", "edit", "18", "--name", "=HYPERLINK(1)")
    out = ok(db, "whatif", "--set", "junior-k=30", "--through", "2025-01", "--format", "csv")
    assert out.splitlines()[0] == "period,list,player_id,name,published,what_if,difference"
    assert "2025-01,standard,18,'=HYPERLINK(1)," in out


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--set", "junior-k"), "Error: --set takes KEY=VALUE: 'junior-k'\n"),
        (("--set", "junior-k=0"), "Error: junior-k must be a whole number from 1 to 100: '0'\n"),
        (
            ("--set", "system=elo"),
            "Error: unknown what-if key 'system' (use k, start-rating, "
            "expected, closing-days, junior-k, new-player-k, established-k, top-k, cap or "
            "cap-exempt-from)\n",
        ),
        (
            ("--set", "cap-exempt-from=high"),
            "Error: cap-exempt-from must be a rating from 0 to 3500, or none: 'high'\n",
        ),
        (
            ("--set", "start-rating=1200"),
            "Error: the fide system computes initial ratings "
            "(art. 8.2); a start rating is not allowed: 1200\n",
        ),
        (("--without-event", "Nowhere Open"), "Error: no event 'Nowhere Open'\n"),
        (
            ("--move-event", "3", "--period", "2025-01"),
            "Error: event '3' ends 2025-02-27: the earliest period that may rate it is 2025-02, "
            "not 2025-01\n",
        ),
        (
            ("--set", "junior-k=30", "--from", "2024-01"),
            "Error: period 2024-01 is not rated (rated: 2025-01 .. 2025-12)\n",
        ),
        (
            ("--set", "junior-k=30", "--from", "2025-05", "--through", "2025-02"),
            "Error: --from 2025-05 is after --through 2025-02\n",
        ),
    ],
)
def test_bad_changes(db: Path, args: tuple[str, ...], error: str) -> None:
    before = db.read_bytes()
    code, out, err = invoke(db, "whatif", *args)
    assert (code, out, err) == (1, "", error)
    assert db.read_bytes() == before


def test_nothing_to_change(db: Path) -> None:
    code, _, err = invoke(db, "whatif")
    assert code == 2
    assert "nothing to change" in err


@pytest.mark.parametrize("backend", BOTH_BACKENDS)
def test_what_if_on_both_backends(tmp_path: Path, backend: str) -> None:
    """The scratch copy of a PostgreSQL database is made through the session; the what-if
    is the same as on SQLite."""
    db = str(tmp_path / "club.db") if backend == "sqlite" else new_database()
    ok(db, "init")
    ok(db, "player", "add", "Young", "--rating", "1900", "--games", "40", "--birthdate", "2012")
    ok(db, "player", "add", "Old", "--rating", "2000", "--games", "40", "--birthdate", "1970")
    ok(db, "game", "add", "Young", "Old", "1-0", "--date", "2026-01-10")
    ok(db, "game", "add", "Old", "Young", "1-0", "--date", "2026-02-10")
    ok(db, "rate")
    doc = whatif(db, "--set", "junior-k=30")
    movers = [(m["name"], m["published"], m["what_if"]) for m in doc["periods"][-1]["movers"]]
    assert movers == [("Young", 1909, 1907)]


def test_the_readme_examples(db: Path) -> None:
    """The README's what-if commands run on the demo, and its excerpt is what they print."""
    readme = (Path(__file__).parents[2] / "README.md").read_text("utf-8")
    section = readme[readme.index("## What if: a rule change") : readme.index("## Title norms")]
    commands = [
        line.split()[2:]
        for line in section.split("```sh", 1)[1].split("```", 1)[0].splitlines()
        if line.startswith("ratings whatif ")
    ]
    assert len(commands) == 4
    outputs = {}
    for command in commands:
        args = [a.strip('"') for a in " ".join(command).split('"') if a.strip()]
        args = [w for a in args for w in ([a] if " " in a and "--" not in a else a.split())]
        outputs[args[1]] = ok(db, "whatif", *args)
    excerpt = section.split("```\nWhat if:", 1)[1].split("```", 1)[0]
    excerpt = "What if:" + excerpt
    junior = outputs["junior-k=30"]
    for line in excerpt.splitlines():
        if line != "...":
            assert line in junior.splitlines(), line
    assert "0 moved" in outputs["cap-exempt-from=none"]
    assert "0 moved" in outputs["cap-exempt-from=2650"]
    removed = outputs["Stonehaven Masters 2025 #3"]
    assert "2025-12: 39 players rated both ways, 32 moved; mean change -4.67" in removed
    assert "Morovov, Magnus  39       1605     1558     -47" in removed
