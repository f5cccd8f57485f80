"""The published site's top lists (juniors, girls, women, seniors, federations, improvers)
and the JSON data beside the list and player pages."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ratings.service.reading import publish as data
from ratings.site import top_lists
from ratings.site.render_top import TOP_CSV_HEADER
from tests.publish_helpers import OUR_FILE, Page, ok, site_files

HOSTILE = '"Quote" </script><script>alert(1)</script>, O\'Neil'
FORMULA = '=HYPERLINK("http://x.example/?a","y")'

# name, birth year, sex, federation; entry rating 1800 + 10 x number, 30 games
PLAYERS = [
    ("Old, Senior", "1961", "m", "IRL"),  # 1: 65+ and 50+ in 2026
    ("Fifty, Boundary", "1976", "f", "ENG"),  # 2: 50+ (2026 - 50), a woman
    ("Fortynine, Not", "1977", "m", "IRL"),  # 3: no senior
    ("Junior, Twenty", "2006", "m", "IRL"),  # 4: U20 (2026 - 20), not U18
    ("Girl, Ten", "2016", "f", "IRL"),  # 5: U10, a girl and a woman
    ("Adult, Twentyone", "2005", "m", "ENG"),  # 6: no junior; plays in 2025-01 only
    (HOSTILE, "2010", "f", "IRL"),  # 7: U16, a girl
    (FORMULA, "1970", "m", "ENG"),  # 8: 50+
    ("No, Birthyear", None, "m", None),  # 9: in no age list, no federation
]
MONTHS = [f"2025-{m:02d}" for m in range(1, 13)] + ["2026-01", "2026-02"]
NEWEST = "2026-02"
BASE = "2025-02"  # 12 lists before the newest


def _build(db: Path) -> None:
    ok("--db", str(db), "init")
    for n, (name, born, sex, fed) in enumerate(PLAYERS, 1):
        extra = ["--birthdate", born] if born else []
        extra += ["--federation", fed] if fed else []
        ok("--db", str(db), "player", "add", name, "--rating", str(1800 + 10 * n),
           "--games", "30", "--sex", sex, *extra)  # fmt: skip
    for month in MONTHS:
        games = [("4", "3", "1-0"), ("7", "8", "1-0"), ("1", "2", "1/2-1/2"), ("9", "5", "1-0")]
        if month == MONTHS[0]:
            games.append(("6", "3", "1/2-1/2"))
        for white, black, result in games:
            ok("--db", str(db), "game", "add", white, black, result, "--date", f"{month}-10",
               "--event", f"Club {month}")  # fmt: skip
    ok("--db", str(db), "rate")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("club") / "club.db"
    _build(db)
    return db


@pytest.fixture(scope="module")
def site(club: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    ok("publish", str(out), "--db", str(club), "--show-birth-year")
    return out


def _cli_list(db: Path, period: str) -> dict[int, dict[str, Any]]:
    """``ratings list --format json`` of a period: the rows by player id."""
    rows = json.loads(ok("--db", str(db), "list", "--period", period, "--format", "json"))
    return {r["player_id"]: r for r in rows["players"]}


def _csv(site: Path, name: str) -> list[dict[str, str]]:
    text = (site / "lists" / name).read_text("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == TOP_CSV_HEADER
    return [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]


# --- the age rule ---------------------------------------------------------------------------


def _p(born: int | None, sex: str | None = "m") -> data.SitePlayer:
    return data.SitePlayer(1, "X", None, None, sex, None, born, False, None, None)


@pytest.mark.parametrize(
    ("key", "born", "sex", "expected"),
    [
        ("u20", 2006, "m", True),  # not yet 20 on 1 January 2026
        ("u20", 2005, "m", False),
        ("u10", 2016, "f", True),
        ("u10", 2015, "f", False),
        ("girls", 2006, "f", True),
        ("girls", 2006, "m", False),
        ("girls", 2005, "f", False),
        ("girls", None, "f", False),
        ("women", None, "f", True),
        ("women", 1990, None, False),
        ("50plus", 1976, "m", True),  # 50 in 2026
        ("50plus", 1977, "m", False),
        ("65plus", 1961, "f", True),
        ("65plus", 1962, "f", False),
        ("u20", None, "m", False),
        ("50plus", None, "m", False),
    ],
)
def test_fides_age_rule_from_the_birth_year(
    key: str, born: int | None, sex: str | None, expected: bool
) -> None:
    assert top_lists.in_category(key, _p(born, sex), 2026) is expected


def test_the_improvers_base_is_twelve_lists_earlier_or_the_oldest() -> None:
    assert [top_lists.base_index(i) for i in (0, 1, 11, 12, 13, 30)] == [None, 0, 0, 0, 1, 18]


# --- the top lists page and its CSV ---------------------------------------------------------


def test_each_list_has_its_top_lists_and_csv_linked(site: Path) -> None:
    for month in MONTHS:
        page = Page((site / f"lists/{month}.html").read_text("utf-8"))
        assert f"../lists/{month}-top.html" in page.links
        assert f"../lists/{month}.json" in page.links
        assert (site / f"lists/{month}-top.csv").is_file()
    assert all(OUR_FILE.fullmatch(n) for n in site_files(site))


def test_the_categories_of_the_newest_list(club: Path, site: Path) -> None:
    listed = _cli_list(club, NEWEST)
    rows = _csv(site, f"{NEWEST}-top.csv")
    by_category: dict[str, list[int]] = {}
    for r in rows:
        by_category.setdefault(r["category"], []).append(int(r["player_id"]))
        assert int(r["rank"]) == len(by_category[r["category"]])
        assert int(r["rating"]) == listed[int(r["player_id"])]["rating"]

    def order(*ids: int) -> list[int]:  # the list's order: rating, then name
        return sorted(ids, key=lambda i: (-listed[i]["rating"], listed[i]["name"].lower()))

    # 6 played only in 2025-01: inactive on the 2026-02 list, so on no top list
    assert by_category == {
        "u20": order(4, 5, 7),
        "u18": order(5, 7),
        "u16": order(5, 7),
        "u14": order(5),
        "u12": order(5),
        "u10": order(5),
        "girls": order(5, 7),
        "women": order(2, 5, 7),
        "50plus": order(1, 2, 8),
        "65plus": [1],
        "fed-ENG": order(2, 8),
        "fed-IRL": order(1, 3, 4, 5, 7),
        "improvers": by_category["improvers"],
    }
    assert list(by_category)[:10] == [key for key, _ in top_lists.AGE_CATEGORIES]


def test_the_improvers_are_the_gains_over_twelve_lists(club: Path, site: Path) -> None:
    newest, base = _cli_list(club, NEWEST), _cli_list(club, BASE)
    gains = {
        pid: newest[pid]["rating"] - base[pid]["rating"]
        for pid in newest
        if pid in base and newest[pid]["rating"] > base[pid]["rating"]
    }
    assert set(gains) == {4, 7, 9}  # the winners of every month
    expected = sorted(gains, key=lambda i: (-gains[i], -newest[i]["rating"]))
    rows = [r for r in _csv(site, f"{NEWEST}-top.csv") if r["category"] == "improvers"]
    assert [int(r["player_id"]) for r in rows] == expected
    for r in rows:
        pid = int(r["player_id"])
        assert (r["base_period"], int(r["base_rating"]), int(r["gain"])) == (
            BASE, base[pid]["rating"], gains[pid]
        )  # fmt: skip
    page = (site / f"lists/{NEWEST}-top.html").read_text("utf-8")
    assert f"<caption>Improvers, list {BASE} to {NEWEST}</caption>" in page
    first = (site / f"lists/{MONTHS[0]}-top.html").read_text("utf-8")
    assert "Improvers" not in first  # nothing before the first list
    assert not [r for r in _csv(site, f"{MONTHS[0]}-top.csv") if r["category"] == "improvers"]


def test_hostile_names_on_the_top_lists(site: Path) -> None:
    rows = _csv(site, f"{NEWEST}-top.csv")
    names = {r["name"] for r in rows}
    assert HOSTILE in names  # read back as the very name
    assert "'" + FORMULA in names  # neutralised as the list's CSV is
    assert FORMULA not in names
    text = (site / f"lists/{NEWEST}-top.html").read_text("utf-8")
    assert "</script><script>" not in text
    assert "&#34;Quote&#34; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text
    page = Page(text)
    assert [a for a, _ in page.scripts] == [a for a, _ in Page(
        (site / f"lists/{MONTHS[0]}-top.html").read_text("utf-8")).scripts]  # fmt: skip


# --- the JSON data --------------------------------------------------------------------------

LIST_KEYS = [
    "schema_version", "kind", "list", "period", "list_date", "seal", "seal_version", "columns",
    "players",
]  # fmt: skip
LIST_ROW_KEYS = [
    "rank", "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year",
    "rating", "change", "period_games", "total_games", "next_k", "k10", "list_status",
    "inactive",
]  # fmt: skip
PLAYER_KEYS = ["schema_version", "kind", "list", "player", "history", "games"]
PLAYER_ENTRY_KEYS = [
    "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year", "k10",
]  # fmt: skip
HISTORY_KEYS = [
    "period", "list_date", "rating_before", "rating", "change", "k_used", "period_games",
    "total_games", "score", "next_k", "k10", "list_status",
]  # fmt: skip
GAME_KEYS = [
    "period", "game_id", "played_on", "event_id", "event", "round", "color", "opponent_id",
    "opponent", "own_rating", "opponent_rating", "difference", "score", "pd", "dr", "k_used",
    "k_dr",
]  # fmt: skip


def _load(path: Path) -> Any:
    raw = path.read_bytes()
    return json.loads(raw.decode("utf-8"))  # strict UTF-8, valid JSON


def test_the_list_json_is_the_list(club: Path, site: Path) -> None:
    doc = _load(site / f"lists/{NEWEST}.json")
    assert list(doc) == LIST_KEYS
    assert doc["schema_version"] == 1
    assert (doc["kind"], doc["list"], doc["period"], doc["list_date"]) == (
        "list", "standard", NEWEST, "2026-03-01"
    )  # fmt: skip
    assert doc["columns"] == LIST_ROW_KEYS
    assert all(len(row) == len(LIST_ROW_KEYS) for row in doc["players"])
    mine = [dict(zip(doc["columns"], row, strict=True)) for row in doc["players"]]
    cli = json.loads(ok("--db", str(club), "list", "--period", NEWEST, "--format", "json"))
    assert [r["player_id"] for r in mine] == [r["player_id"] for r in cli["players"]]
    for rank, (row, theirs) in enumerate(zip(mine, cli["players"], strict=True), 1):
        assert row["rank"] == rank
        for key in ("name", "rating", "total_games", "next_k", "list_status"):
            assert row[key] == theirs[key], key
        assert row["inactive"] is (row["player_id"] == 6)
    assert HOSTILE in {r["name"] for r in mine}
    assert FORMULA in {r["name"] for r in mine}  # JSON is data: left as it is


def test_the_player_json_holds_the_history_and_games(club: Path, site: Path) -> None:
    doc = _load(site / "players/7.json")
    assert list(doc) == PLAYER_KEYS
    assert list(doc["player"]) == PLAYER_ENTRY_KEYS
    assert doc["player"]["name"] == HOSTILE
    assert doc["player"]["birth_year"] == 2010
    history = json.loads(ok("--db", str(club), "history", "7", "--format", "json"))["history"]
    # every period holds a game: each is in the file, as `ratings history` gives it
    assert [h["period"] for h in doc["history"]] == MONTHS
    for mine, theirs in zip(doc["history"], history, strict=True):
        assert list(mine) == HISTORY_KEYS
        assert {k: mine[k] for k in theirs} == theirs
    assert len(doc["games"]) == len(MONTHS)
    game = doc["games"][0]
    assert list(game) == GAME_KEYS
    assert (game["period"], game["played_on"], game["color"], game["opponent_id"]) == (
        MONTHS[0], f"{MONTHS[0]}-10", "white", 8
    )  # fmt: skip
    assert game["opponent"] == FORMULA
    assert game["event"] == f"Club {MONTHS[0]}"
    assert game["score"] == 1.0
    card = json.loads(
        ok("--db", str(club), "card", "7", "--period", MONTHS[0], "--format", "json")
    )["games"][0]
    for key in ("opponent_rating", "own_rating", "difference", "pd", "dr", "k_used", "k_dr"):
        assert game[key] == card[key], key


def test_a_quiet_player_has_one_history_entry(site: Path) -> None:
    doc = _load(site / "players/6.json")
    # 6 played in 2025-01 only: the page shows that period, then nothing changed
    assert [h["period"] for h in doc["history"]] == [MONTHS[0]]
    assert [g["period"] for g in doc["games"]] == [MONTHS[0]]


def test_the_json_is_written_the_same_way_twice(club: Path, site: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    ok("publish", str(again), "--db", str(club), "--show-birth-year")
    mine = {k: v for k, v in site_files(again).items() if k.endswith((".json", ".csv"))}
    assert mine == {k: v for k, v in site_files(site).items() if k in mine}


# --- incremental ----------------------------------------------------------------------------


def test_a_correction_in_the_improvers_base_list_rewrites_the_later_top_list(
    club: Path, tmp_path: Path
) -> None:
    db = tmp_path / "club.db"
    shutil.copyfile(club, db)
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(db))
    before = site_files(site)
    # game 6: 4 beat 3 in 2025-02, the base of the newest list's improvers (12 lists before)
    (game,) = [
        g
        for g in json.loads(ok("--db", str(db), "game", "list", "--format", "json"))
        if g["id"] == 6
    ]
    assert (game["played_on"], game["white"], game["black"]) == (
        "2025-02-10", PLAYERS[3][0], PLAYERS[2][0]
    )  # fmt: skip
    ok("--db", str(db), "game", "edit", "6", "--result", "0-1")
    ok("--db", str(db), "rate")
    ok("publish", str(site), "--db", str(db))
    after = site_files(site)
    assert before[f"lists/{NEWEST}-top.csv"] != after[f"lists/{NEWEST}-top.csv"]
    assert before["players/4.json"] != after["players/4.json"]
    fresh = tmp_path / "fresh"
    ok("publish", str(fresh), "--db", str(db))
    assert site_files(fresh) == after


def test_a_rename_rewrites_the_opponents_json(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    shutil.copyfile(club, db)
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(db))
    ok("--db", str(db), "player", "edit", "8", "--name", "Renamed, Eight")
    ok("publish", str(site), "--db", str(db))
    games = _load(site / "players/7.json")["games"]
    assert {g["opponent"] for g in games} == {"Renamed, Eight"}
    assert "Renamed, Eight" in {r[2] for r in _load(site / "lists/2025-01.json")["players"]}
    fresh = tmp_path / "fresh"
    ok("publish", str(fresh), "--db", str(db))
    assert site_files(fresh) == site_files(site)


def test_a_missing_json_is_written_again(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    shutil.copyfile(club, db)
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(db))
    before = site_files(site)
    for name in ("players/3.json", f"lists/{BASE}.json", f"lists/{BASE}-top.csv"):
        (site / name).unlink()
    ok("publish", str(site), "--db", str(db))
    assert site_files(site) == before


def test_the_readme_documents_every_key_in_order() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text("utf-8")
    section = readme.split("### The JSON data\n", 1)[1].split("\n## ", 1)[0]
    lists, players = section.split("`players/ID.json`:", 1)

    def keys(text: str, row: str, wanted: list[str]) -> list[str]:
        (line,) = [x for x in text.splitlines() if x.startswith(f"| `{row}` |")]
        found = [w for w in line.split("`")[1::2] if w in wanted]
        return list(dict.fromkeys(found))  # the first mention of each

    assert [r.split("`")[1] for r in lists.splitlines() if r.startswith("| `")] == LIST_KEYS
    assert keys(lists, "columns", LIST_ROW_KEYS) == LIST_ROW_KEYS
    assert [r.split("`")[1] for r in players.splitlines() if r.startswith("| `")] == PLAYER_KEYS
    assert keys(players, "player", PLAYER_ENTRY_KEYS) == PLAYER_ENTRY_KEYS
    assert keys(players, "history", HISTORY_KEYS) == HISTORY_KEYS
    assert keys(players, "games", GAME_KEYS) == GAME_KEYS
    assert "Schema version 1" in section
