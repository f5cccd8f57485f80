"""``ratings check`` rebuilds every list from the stored inputs and compares (docs/DESIGN.md,
"The rebuild"): each hand edit that the old breakdown-only check passed is found, with the
games behind it, and the first period that differs and the fix are named."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ratings.db import Base
from ratings.service.rating.rebuild import INPUT_TABLES, OUTPUT_TABLES
from tests.conftest import BACKEND
from tests.publish_helpers import demo
from tests.support import Club, invoke, ok


def edit(db: Path, *statements: str) -> None:
    """A hand edit with the sqlite3 shell's defaults: no foreign keys, no product code."""
    conn = sqlite3.connect(db)
    try:
        for statement in statements:
            assert conn.execute(statement).rowcount >= 1, statement
        conn.commit()
    finally:
        conn.close()


@pytest.fixture
def demo_db(tmp_path: Path) -> Path:
    return demo(tmp_path)


def test_every_table_is_an_input_or_an_output() -> None:
    """A new table is classed before a rebuild can forget it."""
    tables = set(Base.metadata.tables)
    assert set(INPUT_TABLES) | set(OUTPUT_TABLES) == tables
    assert not set(INPUT_TABLES) & set(OUTPUT_TABLES)


def test_the_demo_agrees_with_its_rebuild(demo_db: Path) -> None:
    """The counts are what the published tables hold, read here with SQL."""
    conn = sqlite3.connect(demo_db)
    rows, players, lines, games = conn.execute(
        "SELECT (SELECT count(*) FROM rating_history), "
        "(SELECT count(DISTINCT player_id) FROM rating_history), "
        "(SELECT count(*) FROM rating_breakdown), "
        "(SELECT count(DISTINCT game_id) FROM rating_breakdown)"
    ).fetchone()
    conn.close()
    assert (rows, players, lines, games) == (480, 40, 1308, 703)
    out = ok(demo_db, "check", "--all")
    assert out == (
        "Checked 12 periods 2025-01 .. 2025-12 (every list) against a rebuild from the stored "
        "inputs: 480 list rows of 40 players and 1,308 breakdown rows of 703 games agree; "
        "every change is K x the sum of dR of its games\n"
    )


def test_a_rerate_keeps_the_rapid_list_a_first_rate_published(demo_db: Path) -> None:
    """Reproduced first: the re-rate of the same data dropped the 2026-01 rapid list that the
    first rate had published, and reported its 41 rows as withdrawn."""
    ok(demo_db, "player", "add", "Topov, Magnus", "--rating", "2700", "--games", "100",
       "--rapid-rating", "2750", "--rapid-games", "100")  # fmt: skip
    ok(demo_db, "game", "add", "Topov, Magnus", "Elard, Carl", "1-0", "--date", "2026-01-10",
       "--event", "Jan Open")  # fmt: skip
    ok(demo_db, "game", "add", "Topov, Magnus", "Elard, Carl", "1/2-1/2", "--date",
       "2026-02-10", "--event", "Feb Rapid", "--time-control", "rapid")  # fmt: skip
    ok(demo_db, "rate")
    first = ok(demo_db, "list", "--list", "rapid", "--period", "2026-01", "--format", "csv")
    assert "Topov, Magnus" in first
    ok(demo_db, "check", "--all")
    ok(demo_db, "game", "edit", "1", "--result", "1-0", "-y")
    rerate = ok(demo_db, "rate")
    assert "withdrawn" not in rerate
    assert ok(demo_db, "list", "--list", "rapid", "--period", "2026-01", "--format", "csv") == (
        first
    )
    ok(demo_db, "check", "--all")


def rated_game(result: str) -> str:
    """SQL: the newest demo game with this result that counted for both players."""
    return (
        "(SELECT max(g.id) FROM games g WHERE g.result = '" + result + "' AND "
        "(SELECT count(*) FROM rating_breakdown b WHERE b.game_id = g.id "
        "AND b.counts_for = 'change') = 2)"
    )


ROW_2025_06 = (
    "(SELECT h.id FROM rating_history h JOIN rating_periods rp ON rp.id = h.period_id "
    "WHERE rp.label = '2025-06' AND h.player_id = 1 AND h.time_control = 'standard')"
)


INSERT_GAME = (
    "INSERT INTO games (event_id, round, played_on, white_id, black_id, result, rateable) "
    "SELECT event_id, '99', played_on, 3, 7, '1-0', 1 FROM games WHERE id = 300"
)
RAISE_RATING = (
    f"UPDATE rating_history SET rating_after = rating_after + 50 WHERE id = {ROW_2025_06}"
)
CHANGE_WHITE = f"UPDATE games SET white_id = 7 WHERE id = {rated_game('1-0')} AND black_id <> 7"
CHANGE_OPPONENT_RATING = (
    "UPDATE rating_breakdown SET opponent_rating = opponent_rating + 100 "
    "WHERE id = (SELECT min(id) FROM rating_breakdown WHERE counts_for = 'change')"
)
BREAK_CHAIN = (
    f"UPDATE rating_history SET rating_before = rating_before - 30 WHERE id = {ROW_2025_06}"
)
HAND_EDITS = [
    pytest.param(
        [f"UPDATE games SET result = '1-0' WHERE id = {rated_game('0-1')}"],
        "2025-12",
        ["result 1-0 in the games table, scored 0 in the breakdown"],
        id="a-result-flipped",
    ),
    pytest.param(
        [INSERT_GAME],
        "2025-05",
        ["is in the games table and not in the breakdown"],
        id="a-game-inserted",
    ),
    pytest.param([RAISE_RATING], "2025-06", ["the games give", "is not"], id="a-rating-raised"),
    pytest.param(
        [CHANGE_WHITE],
        "2025-12",
        ["is counted for them in the breakdown; the games table has"],
        id="a-white-player-changed",
    ),
    pytest.param(
        [CHANGE_OPPONENT_RATING],
        "2025-01",
        ["opponent rating", "in the breakdown, the list in force gives"],
        id="an-opponent-rating-changed",
    ),
    pytest.param(
        [BREAK_CHAIN],
        "2025-06",
        ["rating before", "is not the 2025-05 list's"],
        id="a-rating-before-off-the-chain",
    ),
    pytest.param(
        ["DELETE FROM rating_breakdown WHERE game_id = 700", "DELETE FROM games WHERE id = 700"],
        "2025-12",
        ["the list counts 10 game(s), the breakdown 9"],
        id="a-game-deleted-with-its-breakdown",
    ),
]


@pytest.mark.parametrize(("statements", "first", "expected"), HAND_EDITS)
def test_each_hand_edit_is_found(
    demo_db: Path, statements: list[str], first: str, expected: list[str]
) -> None:
    """Each of these passed the breakdown-only check (and ``rate --dry-run`` said "Nothing to
    rate"); now each is a difference from the rebuild, exit 1."""
    edit(demo_db, *statements)
    code, out, err = invoke(demo_db, "check", "--all")
    assert code == 1, out
    for words in expected:
        assert words in out, out
    assert f"from period {first} on" in err, err
    assert f"'ratings rate --mark-from {first}'" in err


def test_a_difference_names_the_row_and_the_game(demo_db: Path) -> None:
    """On the demo: game 705 (Toreley v Falesen, 0-1) made 1-0; K 20 x 1 more point."""
    edit(demo_db, "UPDATE games SET result = '1-0' WHERE id = 705")
    code, out, err = invoke(demo_db, "check", "--period", "2025-12")
    assert code == 1
    lines = out.splitlines()
    assert lines == [
        "2025-12 Falesen, David (id 25): published 2070, the games give 2050; game 705 result "
        "1-0 in the games table, scored 1 in the breakdown",
        "2025-12 Toreley, Dina (id 1): published 1491, the games give 1511; game 705 result "
        "1-0 in the games table, scored 0 in the breakdown",
    ]
    assert err == (
        "Error: 2 differences between the published lists of period 2025-12 (every list) and a "
        "rebuild from the stored inputs, from period 2025-12 on: if the lists or the breakdown "
        "were edited by hand, 'ratings rate --mark-from 2025-12' rates them again from the "
        "stored inputs (the replaced values go to superseded_ratings); if the games or the "
        "register were, report this to whoever edited the database\n"
    )


def test_a_pending_rerate_is_named_as_the_fix(demo_db: Path) -> None:
    ok(demo_db, "game", "edit", "301", "--result", "1/2-1/2", "-y")
    code, _, err = invoke(demo_db, "check", "--all")
    assert code == 1
    assert err.endswith("a correction marked period 2025-06 for a re-rate; run 'ratings rate'\n")
    ok(demo_db, "rate")
    ok(demo_db, "check", "--all")


def test_mark_from_rates_a_hand_edit_away(demo_db: Path) -> None:
    edit(demo_db, RAISE_RATING)
    assert invoke(demo_db, "check", "--all")[0] == 1
    out = ok(demo_db, "rate", "--mark-from", "2025-06")
    assert out.startswith("Re-rated 7 periods 2025-06 .. 2025-12")
    ok(demo_db, "check", "--all")


def test_the_check_only_reads(demo_db: Path) -> None:
    edit(demo_db, "UPDATE games SET result = '1-0' WHERE id = 705")
    before = demo_db.read_bytes()
    assert invoke(demo_db, "check", "--all")[0] == 1
    assert demo_db.read_bytes() == before


def test_rebuild_into_writes_a_database_to_diff(demo_db: Path, tmp_path: Path) -> None:
    edit(demo_db, "UPDATE games SET result = '1-0' WHERE id = 705")
    dest = tmp_path / "rebuilt 100% #1.db"
    code, out, err = invoke(demo_db, "check", "--rebuild-into", str(dest))
    assert code == 1
    assert f"Wrote the rebuilt database to {dest}\n" in out
    # the rebuilt file is a ratings database that agrees with itself
    ok(dest, "check", "--all")
    conn = sqlite3.connect(dest)
    conn.execute("ATTACH DATABASE ? AS published", (str(demo_db),))
    (changed,) = conn.execute(
        "SELECT count(*) FROM rating_history r JOIN rating_periods rp ON rp.id = r.period_id "
        "JOIN published.rating_periods pp ON pp.start_date = rp.start_date "
        "JOIN published.rating_history p ON p.period_id = pp.id AND p.player_id = r.player_id "
        "AND p.time_control = r.time_control WHERE p.rating_after IS NOT r.rating_after"
    ).fetchone()
    conn.close()
    assert changed == 2  # the two players of game 705
    # an existing file only with --force; never the database itself
    code, _, err = invoke(demo_db, "check", "--rebuild-into", str(dest))
    assert (code, err.splitlines()[-1]) == (
        1, f"Error: '{dest}' already exists; use --force to replace it"
    )  # fmt: skip
    assert invoke(demo_db, "check", "--rebuild-into", str(dest), "--force")[0] == 1
    code, _, err = invoke(demo_db, "check", "--rebuild-into", str(demo_db), "--force")
    assert (code, err) == (1, f"Error: '{demo_db}' is the database; choose another file\n")


def test_json_lists_the_differences(demo_db: Path) -> None:
    import json

    edit(demo_db, "UPDATE games SET result = '1-0' WHERE id = 705")
    code, out, _ = invoke(demo_db, "check", "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["agrees"] is False
    assert data["first_difference"] == "2025-12"
    (elard,) = [d for d in data["differences"] if d["player_id"] == 1]
    assert elard["why"] == ["game 705 result 1-0 in the games table, scored 0 in the breakdown"]


def test_breakdown_only_checks_each_row_against_its_own_breakdown(demo_db: Path) -> None:
    """No rebuild: a flipped result is not seen (the breakdown agrees with the list), a
    change edited by hand is (and its rating is no longer its rating before plus it)."""
    edit(demo_db, "UPDATE games SET result = '1-0' WHERE id = 705")
    out = ok(demo_db, "check", "--all", "--breakdown-only")
    assert out.startswith("Checked 12 periods 2025-01 .. 2025-12 (every list) against their "
                          "breakdown (no rebuild): 480 list rows")  # fmt: skip
    edit(demo_db, f"UPDATE rating_history SET change = change + 1 WHERE id = {ROW_2025_06}")
    code, out, err = invoke(demo_db, "check", "--all", "--breakdown-only")
    assert code == 1
    assert out == (
        "2025-06 Toreley, Dina (id 1): change +1 with no game behind it in the breakdown; "
        "rating 1456 is not 1456 +1\n"
    )
    assert err.startswith("Error: 1 difference between the published lists of 12 periods "
                          "2025-01 .. 2025-12 (every list) and their breakdown, from period "
                          "2025-06 on")  # fmt: skip


def test_breakdown_only_finds_a_rating_that_is_not_its_rating_before_plus_its_change(
    demo_db: Path,
) -> None:
    """Seen: a rating after edited by hand, 50 above its rating before plus its change, and
    `check --breakdown-only` agreed (its change is still K x the sum of dR). The demo's first
    ratings, ratings under the floor and unrated rows break the chain on purpose: no
    difference there."""
    edit(demo_db, f"UPDATE rating_history SET rating_after = rating_after + 50 WHERE id = "
                  f"{ROW_2025_06}")  # fmt: skip
    code, out, err = invoke(demo_db, "check", "--all", "--breakdown-only")
    assert code == 1
    assert out == "2025-06 Toreley, Dina (id 1): rating 1506 is not 1456 +0\n"
    assert err.startswith("Error: 1 difference between the published lists of 12 periods "
                          "2025-01 .. 2025-12 (every list) and their breakdown, from period "
                          "2025-06 on")  # fmt: skip


@pytest.mark.skipif(BACKEND != "sqlite", reason="a hand edit with sqlite3")
def test_breakdown_only_follows_the_adjustment_of_1_march_2024(tmp_path: Path) -> None:
    """FIDE's one-time adjustment of the list of 1 March 2024 raises a rating after above its
    rating before plus its change, on purpose: `check --breakdown-only` passes it, and finds
    a rating edited by hand on that list."""
    club = Club(tmp_path / "club.db")
    for name, rating in (("Adams", 1500), ("Baker", 1900), ("Quiet", 1200), ("Strong", 2100)):
        club.player(name, "--rating", str(rating), "--games", "100", "--birthdate", "1980")
    club.game("Adams", "Baker", "1-0", "2024-01-10")
    club.game("Baker", "Adams", "1-0", "2024-02-10")
    club.ok("rate")
    assert club.entry("Quiet", "2024-02")["rating"] == 1520
    club.ok("check", "--all", "--breakdown-only")
    edit(
        Path(str(club.db)),
        "UPDATE rating_history SET rating_after = 1521 WHERE player_id = 3 AND period_id = "
        "(SELECT id FROM rating_periods WHERE label = '2024-02')",
    )
    code, out = club.run("check", "--all", "--breakdown-only")
    assert code == 1
    assert out.splitlines()[0] == (
        "2024-02 Quiet (id 3): rating 1521 is not 1200 +0 raised by FIDE's one-time adjustment "
        "of the list (1520)"
    )


# --- what an exploratory run found the check did not see ------------------------------------

BONUS = (
    "CREATE TRIGGER zz_bonus AFTER INSERT ON rating_history WHEN NEW.player_id = 3 AND "
    "NEW.time_control = 'standard' AND NEW.period_id = (SELECT id FROM rating_periods WHERE "
    "start_date = '2025-12-01') BEGIN UPDATE rating_history SET rating_after = rating_after "
    "+ 100 WHERE id = NEW.id; END"
)


def test_a_trigger_planted_in_the_file_is_found_and_never_acts_in_the_rebuild(
    demo_db: Path,
) -> None:
    """Seen: a trigger added by hand, then an ordinary unrate and rate: player 3's 2025-12
    rating 100 above its own breakdown, and `check --all` agreed, the rebuild having made the
    trigger from the file's own SQL."""
    conn = sqlite3.connect(demo_db)
    conn.execute(BONUS)
    conn.commit()
    conn.close()
    ok(demo_db, "unrate", "--from", "2025-12", "--yes")
    ok(demo_db, "rate")
    code, out, err = invoke(demo_db, "check", "--all")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == (
        "schema: trigger 'zz_bonus' is not one ratings makes: it can change what is stored or read"
    )
    assert any(line.startswith("2025-12 ") and "(id 3)" in line for line in lines[1:]), out
    assert err.startswith("Error: a trigger or view of the database is not ratings' own, with ")
    assert "then 'ratings rate --mark-from 2025-12' rates the lists again" in err
    # dropped, and rated again as the error says: one answer
    conn = sqlite3.connect(demo_db)
    conn.execute("DROP TRIGGER zz_bonus")
    conn.commit()
    conn.close()
    ok(demo_db, "rate", "--mark-from", "2025-12")
    assert invoke(demo_db, "check", "--all")[0] == 0


def test_a_view_rewritten_by_hand_is_found(demo_db: Path) -> None:
    """Seen: `current_ratings` rewritten to add 100 to one player: `player show` said 1548,
    the list 1448, and `check` agreed."""
    conn = sqlite3.connect(demo_db)
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'current_ratings'").fetchone()
    conn.execute("DROP VIEW current_ratings")
    conn.execute(sql.replace("h.rating_after END AS rating", "h.rating_after + 100 END AS rating"))
    conn.commit()
    conn.close()
    code, out, _ = invoke(demo_db, "check", "--breakdown-only")
    assert code == 1
    assert out.splitlines() == [
        "schema: view 'current_ratings' is not ratings' own: its SQL was changed"
    ]


def test_a_period_deleted_from_the_middle_is_a_difference(demo_db: Path) -> None:
    """Seen: 2025-06's list rows, breakdown and period row deleted: `check --all` checked the
    11 periods left and agreed; that period's games were rated on no list."""
    edit(
        demo_db,
        "DELETE FROM rating_breakdown WHERE period_id = (SELECT id FROM rating_periods WHERE "
        "label = '2025-06')",
        "DELETE FROM rating_history WHERE period_id = (SELECT id FROM rating_periods WHERE "
        "label = '2025-06')",
        "DELETE FROM rating_periods WHERE label = '2025-06'",
    )
    code, out, _ = invoke(demo_db, "check", "--all")
    assert code == 1
    assert "2025-06: the rebuild rates this period; the database publishes no list for it" in (
        out.splitlines()
    )


def test_a_list_date_edited_by_hand_is_a_difference(demo_db: Path) -> None:
    """Seen: 2025-12's list date set to 2026-02-01: `list` and the site said so, and `check`
    agreed."""
    edit(demo_db, "UPDATE rating_periods SET list_date = '2026-02-01' WHERE label = '2025-12'")
    code, out, _ = invoke(demo_db, "check")
    assert code == 1
    assert out.splitlines() == [
        "2025-12: published with the list date 2026-02-01, the settings give 2026-01-01"
    ]
