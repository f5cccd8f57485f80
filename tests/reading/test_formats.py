"""`--format table|csv|json` on `player show`, `card`, `performance`, `event show`, and what
`player show` adds: the current rating on each list, next K, rated games,
and an unrated player's progress towards a first rating."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import PgDatabase, copy_database, new_test_database
from tests.support import invoke


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    db = new_test_database(tmp_path_factory.mktemp("formats") / "club.db")
    assert invoke(db, "init")[0] == 0
    invoke(db, "player", "add", "Ash, Ann", "--rating", "1800", "--games", "40")
    invoke(db, "player", "add", "Birch, Bo", "--rating", "1700", "--games", "40")
    invoke(db, "player", "add", "Cedar, Cy")
    for white, black, result, day in (
        ("Ash, Ann", "Birch, Bo", "1-0", "2025-01-10"),
        ("Cedar, Cy", "Ash, Ann", "1/2-1/2", "2025-01-11"),
        ("Cedar, Cy", "Birch, Bo", "1-0", "2025-01-12"),
    ):
        args = ("game", "add", white, black, result, "--date", day, "--event", "Jan Cup")
        assert invoke(db, *args)[0] == 0
    assert invoke(db, "rate", "--through", "2025-01")[0] == 0
    return db


@pytest.fixture
def db(tmp_path: Path, rated: Path | PgDatabase) -> Path | PgDatabase:
    return copy_database(rated, tmp_path / "club.db")


def test_player_show_gives_the_standing_and_the_way_to_a_first_rating(db: Path) -> None:
    code, out, _ = invoke(db, "player", "show", "Ash, Ann")
    assert code == 0
    assert out.splitlines()[11:] == [
        "rating:        1807 (list of period 2025-01)",
        "next K:        20",
        "total games:   41",
    ]
    code, out, _ = invoke(db, "player", "show", "Cedar, Cy")
    assert out.splitlines()[11:] == [
        "rating:        unrated (list of period 2025-01)",
        "next K:        ",
        "total games:   2",  # the games pooled towards the first rating
        "first rating:  2 of 5 games against rated opponents, the first on 2025-01-11",
    ]
    shown = json.loads(invoke(db, "player", "show", "Cedar, Cy", "--format", "json")[1])
    assert shown["first_rating"] == "2/5"
    assert shown["rating"] is None
    assert shown["entry_games"] is None
    assert (shown["next_k"], shown["total_games"]) == (None, 2)  # the schema's names
    code, out, _ = invoke(db, "player", "show", "1", "--format", "csv")
    header, row = out.splitlines()
    assert header.startswith("id,name,fide_id,born,sex,federation,title,entry_rating,")
    assert row.startswith('1,"Ash, Ann",,,,,,1800,40,false,')


def test_player_show_keeps_its_columns_with_a_rapid_list(db: Path) -> None:
    """Seen: `rapid total games:1`, its label longer than the column, had no space."""
    args = ("game", "add", "Ash, Ann", "Birch, Bo", "1-0", "--date", "2025-02-10")
    assert invoke(db, *args, "--event", "Feb Rapid", "--time-control", "rapid")[0] == 0
    assert invoke(db, "rate", "--through", "2025-02")[0] == 0
    code, out, _ = invoke(db, "player", "show", "Ash, Ann")
    assert code == 0
    lines = out.splitlines()
    assert "rapid total games: 1" in lines
    values = [line.split(":", 1)[1] for line in lines]
    # every value starts in one column
    assert (
        len(
            {
                len(line) - len(v.lstrip())
                for line, v in zip(lines, values, strict=True)
                if v.strip()
            }
        )
        == 1
    )


def test_card_performance_and_event_show_in_csv_and_json(db: Path) -> None:
    code, out, _ = invoke(db, "card", "Ash, Ann", "--format", "csv")
    assert code == 0
    assert out.splitlines() == [
        "played_on,event,round,opponent,opponent_rating,own_rating,score,difference,pd,dr,k_used,"
        "k_dr,counts_for",
        '2025-01-10,Jan Cup,,"Birch, Bo",1700,1800,1,100,0.64,0.36,20,7.20,change',
    ]
    card = json.loads(invoke(db, "card", "Ash, Ann", "--format", "json")[1])
    assert {key: value for key, value in card.items() if key != "games"} == {
        "player": {"id": 1, "name": "Ash, Ann"},
        "period": "2025-01",
        "list": "standard",
        "rating_before": 1800,
        "k_used": 20,
        "score": "1",
        "pd_sum": "0.64",
        "change": 7,
        "rating_after": 1807,
        "list_status": "listed",
    }
    assert card["games"] == [
        {
            "played_on": "2025-01-10", "event": "Jan Cup", "round": None, "opponent": "Birch, Bo",
            "opponent_rating": 1700, "own_rating": 1800, "score": "1", "difference": 100,
            "pd": "0.64", "dr": "0.36", "k_used": 20, "k_dr": "7.20", "counts_for": "change",
        }
    ]  # fmt: skip
    perf = json.loads(invoke(db, "performance", "Ash, Ann", "--format", "json")[1])
    assert perf == {
        "player_id": 1,
        "name": "Ash, Ann",
        "scope": perf["scope"],
        "rated_games": 1,
        "score": "1",
        "average_opponent": 1700,
        "method": "fide",
        "performance": 2500,
    }
    assert invoke(db, "performance", "1", "--format", "csv")[1].splitlines()[0] == (
        "player_id,name,scope,rated_games,score,average_opponent,method,performance"
    )
    code, out, _ = invoke(db, "event", "show", "Jan Cup", "--format", "csv")
    header = out.splitlines()[0].split(",")
    table = invoke(db, "event", "show", "Jan Cup")[1].splitlines()[4].split()
    rounds = [f"round_{n}" for n in table[3:-6]]
    tiebreaks = ["win", "sb", "ks"]  # a round robin's
    assert header == ["rank", "player_id", "name", "rating", *rounds, "score", *tiebreaks,
                      "performance", "k_dr_sum"]  # fmt: skip
    shown = json.loads(invoke(db, "event", "show", "1", "--format", "json")[1])
    assert shown["event"] == {
        "id": 1, "name": "Jan Cup", "start_date": "2025-01-10", "end_date": "2025-01-12",
        "period": "2025-01", "period_rated": True, "time_control": "standard", "games": 3,
        "rated_games": 3,
    }  # fmt: skip
    assert [t["code"] for t in shown["tiebreaks"]] == ["DE", "WIN", "SB", "KS"]
    assert [(row["name"], row["score"]) for row in shown["rows"]][2] == ("Birch, Bo", "0")
    assert {row["name"] for row in shown["rows"]} == {"Ash, Ann", "Birch, Bo", "Cedar, Cy"}
