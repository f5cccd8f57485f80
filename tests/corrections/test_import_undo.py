"""``ratings import undo ID``: what one import added removed in one
command, the rated periods it touched marked, refused (naming them) when later corrections
depend on it or when it cannot be undone exactly.

Seen: ``game void`` takes one id, so undoing a wrong 38-game import took 38 commands.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import ratings.clock
from ratings.cli.options import NOT_CONFIRMED
from ratings.db import SessionFactory, database_url, make_engine
from ratings.service.corrections import edits as corrections
from ratings.service.corrections import undo
from ratings.service.shared import audit
from tests.support import Club, invoke

TODAY = dt.date(2026, 11, 30)
TRF = Path(__file__).parents[1] / "data" / "trf" / "held_swiss_9.trf"


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """Two players registered by hand with a game; the TRF file imported (import 1), rated."""
    club = Club(tmp_path / "club.db", "--system", "club")
    club.player("Hand, Ann", "--rating", "1800", "--games", "40")
    club.player("Hand, Bob", "--rating", "1700", "--games", "40")
    club.ok("import", "trf", str(TRF))
    return club


def counts(club: Club) -> tuple[int, ...]:
    return tuple(_count(club, t) for t in ("players", "events", "games", "byes", "imports"))


def _count(club: Club, table: str) -> int:
    ((n,),) = club.rows(f"SELECT count(*) FROM {table}")
    assert isinstance(n, int)
    return n


def test_import_undo_removes_what_the_import_added(club: Club) -> None:
    first = club.rows("SELECT min(played_on) FROM games")[0][0]
    club.game("Hand, Ann", "Hand, Bob", "1-0", str(first))
    club.ok("rate")
    players, events, games, byes, _ = counts(club)
    created = players - 2
    assert created > 0
    before = club.state()
    code, out, err = invoke(club, "import", "undo", "1", input="n\n")
    what = f"1 event, {games - 1} games, {byes} byes and {created} players"
    assert (code, out) == (1, "")
    assert err.startswith(f"Undo import 1 ({TRF}) removes {what}:\n  event 1 ")
    assert err.endswith(f"\nRemove them? [y/N]: n\nError: {NOT_CONFIRMED}\n")
    assert club.state() == before

    code, out, err = invoke(club, "import", "undo", "1", "--yes", "--reason", "wrong file")
    assert code == 0
    assert out.startswith(f"Undid import 1 ({TRF}): removed {what}\n  event 1 ")
    assert err.startswith("This touches rated period ")
    assert counts(club) == (2, 1, 1, 0, 1)  # the import stays, undone
    assert club.rows("SELECT name FROM players ORDER BY id") == [("Hand, Ann",), ("Hand, Bob",)]
    logged = club.rows(
        "SELECT count(DISTINCT batch), count(DISTINCT game_id), max(reason) FROM corrections "
        "WHERE action = 'import_undo'"
    )
    assert logged == [(1, games - 1, "wrong file")]
    assert club.rows(
        "SELECT count(*) FROM corrections WHERE action = 'import_undo' AND field = 'name' "
        "AND player_id IS NOT NULL"
    ) == [(created,)]
    # re-rated without it; the same file can be imported again
    assert "Re-rated" in club.ok("rate")
    assert counts(club) == (2, 1, 1, 0, 1)
    club.ok("import", "trf", str(TRF))
    assert counts(club) == (players, events, games, byes, 2)


def test_import_undo_refuses_when_later_corrections_depend_on_it(club: Club) -> None:
    game_id, white = club.rows("SELECT id, white_id FROM games ORDER BY id LIMIT 1")[0]
    name = club.rows(f"SELECT name FROM players WHERE id = {white}")[0][0]
    club.ok("game", "edit", str(game_id), "--result", "1/2-1/2", "--yes")
    club.ok("game", "add", str(white), "Hand, Ann", "1-0", "--date", "2026-11-02")
    before = club.state()
    code, out, err = invoke(club, "import", "undo", "1", "--yes")
    assert (code, out) == (1, "")
    assert err == (
        f"Error: import 1 ({TRF}) cannot be undone: later corrections depend on it: "
        f"game {game_id} was edited ('ratings log', correction 1); player {white} ({name}) it "
        "registered plays in event 2\n"
    )
    assert club.state() == before


def test_import_undo_refuses_what_cannot_be_undone_exactly(club: Club, tmp_path: Path) -> None:
    register = tmp_path / "register.csv"
    register.write_text(
        "name,rating,games\nHand, Ann,1850,40\nNew, Nora,1600,10\n".replace(
            "Hand, Ann", '"Hand, Ann"'
        ).replace("New, Nora", '"New, Nora"'),
        encoding="utf-8",
    )
    club.ok("import", "players", str(register), "--update")
    assert invoke(club, "import", "undo", "2", "--yes") == (
        1, "", f"Error: import 2 ({register}) changed 1 registered player (import players "
        "--update: 1), which cannot be undone exactly; the old values are in 'ratings log': "
        "put them back with 'ratings player edit'\n",
    )  # fmt: skip
    assert invoke(club, "import", "undo", "9", "--yes") == (
        1, "", "Error: no import with id 9; 'ratings import list' shows them\n",
    )  # fmt: skip
    assert invoke(club, "import", "undo", "x", "--yes")[0] == 2


def test_import_undo_of_a_player_register(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db", "--system", "club")
    register = tmp_path / "register.csv"
    register.write_text('name,rating,games\n"New, Nora",1600,10\n"New, Ned",1500,5\n',
                        encoding="utf-8")  # fmt: skip
    club.ok("import", "players", str(register))
    club.player("Hand, Ann", "--rating", "1800", "--games", "40")
    assert invoke(club, "import", "undo", "1", "--yes") == (
        0, f"Undid import 1 ({register}): removed 2 players\n  player 1 New, Nora\n"
        "  player 2 New, Ned\n", "",
    )  # fmt: skip
    assert club.rows("SELECT name FROM players") == [("Hand, Ann",)]


def test_import_undo_refuses_a_register_made_before_players_were_traced(tmp_path: Path) -> None:
    """A players CSV imported before schema 0005 left no players.import_id: undoing it would
    have removed nothing and deleted the import row, reporting success."""
    club = Club(tmp_path / "club.db", "--system", "club")
    register = tmp_path / "register.csv"
    register.write_text('name,rating,games\n"New, Nora",1600,10\n', encoding="utf-8")
    club.ok("import", "players", str(register))
    engine = make_engine(database_url(str(club.db)))
    with engine.begin() as conn:  # as the 0005 upgrade leaves the players of older imports
        conn.exec_driver_sql("UPDATE players SET import_id = NULL")
    engine.dispose()
    before = counts(club)
    assert invoke(club, "import", "undo", "1", "--yes") == (
        1, "", f"Error: import 1 ({register}) registered players this database cannot trace "
        "back to it (imports made before schema 0005 did not record them); nothing was "
        "undone: remove its players with 'ratings player merge' or leave them\n",
    )  # fmt: skip
    assert counts(club) == before


EVENT = "FIDE C.07 2023 Tie-Break Exercises"


def test_import_undo_names_everything_and_what_was_not_in_the_file(club: Club) -> None:
    """Seen: the prompt said `remove 1 event and 16 games`, and the undo also removed a game
    added by hand to the imported event, and 10 players who stood on three published lists,
    with no word of them in the re-rate's report and no row in superseded_ratings."""
    club.game("Hand, Ann", "Hand, Bob", "1-0", "2024-10-05")
    club.game("Alyx", "Bruno", "1-0", "2024-08-01", "--event", EVENT)  # by hand, game 70
    club.ok("rate")
    assert club.rows("SELECT label FROM rating_periods ORDER BY label") == [
        ("2024-08",), ("2024-09",), ("2024-10",),
    ]  # fmt: skip
    names = {
        int(str(pid)): str(name)
        for pid, name in club.rows("SELECT id, name FROM players WHERE id > 2")
    }
    games = club.rows(
        "SELECT g.id, g.played_on, g.round, g.white_id, w.name, g.black_id, b.name, g.result "
        "FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id "
        "WHERE g.event_id = 1 ORDER BY g.id"
    )
    byes = club.rows(
        "SELECT y.round, y.player_id, p.name, y.code FROM byes y "
        "JOIN players p ON p.id = y.player_id ORDER BY y.id"
    )
    listed = [
        f"  event 1 {EVENT} (2024-08-01 .. 2024-08-01)",
        *(
            f"  game {gid}: {day}{f' round {rnd}' if rnd else ''}, {wn} (id {w}) - "
            f"{bn} (id {b}) {result}" + (": not in the file (added by hand)" if gid == 70 else "")
            for gid, day, rnd, w, wn, b, bn, result in games
        ),
        *(f"  bye: round {rnd}, {name} (id {pid}) {code}" for rnd, pid, name, code in byes),
        *(f"  player {pid} {name}" for pid, name in sorted(names.items())),
        "  48 rows of those players on the published lists 2024-08 .. 2024-10 (kept in "
        "superseded_ratings, withdrawn)",
    ]
    assert listed[69] == "  game 70: 2024-08-01, Alyx (id 3) - Bruno (id 4) 1-0: not in the " \
        "file (added by hand)"  # fmt: skip
    summary = "1 event, 69 games (1 not in the file), 8 byes and 16 players"
    code, out, err = invoke(club, "import", "undo", "1", input="n\n")
    assert (code, out) == (1, "")
    assert err == "\n".join(
        [f"Undo import 1 ({TRF}) removes {summary}:", *listed,
         "Remove them? [y/N]: n", f"Error: {NOT_CONFIRMED}", ""]
    )  # fmt: skip

    code, out, err = invoke(club, "import", "undo", "1", "--yes")
    assert code == 0
    assert out == "\n".join([f"Undid import 1 ({TRF}): removed {summary}", *listed, ""])
    assert err == "This touches rated period 2024-08: 'ratings rate' re-rates from there\n"
    # their published rows are kept, withdrawn, with their names
    kept = club.rows(
        "SELECT period, player_id, name, kind, new_rating, new_change, period_id IS NOT NULL "
        "FROM superseded_ratings ORDER BY period, player_id"
    )
    assert kept == [
        (period, pid, names[pid], "withdrawn", None, None, 1)
        for period in ("2024-08", "2024-09", "2024-10")
        for pid in sorted(names)
    ]
    # the re-rate names them
    out = club.ok("rate")
    assert out.startswith(
        "Re-rated 3 periods 2024-08 .. 2024-10 after corrections; 0 published ratings changed; "
        "16 players withdrawn from published lists\n"
    ), out
    assert out.splitlines()[1:] == [
        f"  {name} (id {pid}): withdrawn from lists 2024-08 .. 2024-10"
        for pid, name in sorted(names.items(), key=lambda item: (item[1], item[0]))
    ]
    assert club.ok("rate") == "Nothing to rate\n"
    # the import stays listed, undone by correction 1; the file can be imported again
    batch = club.rows("SELECT max(batch) FROM corrections WHERE action = 'import_undo'")[0][0]
    assert club.rows("SELECT id, undone_by FROM imports") == [(1, batch)]
    listing = club.ok("import", "list", "--format", "csv").splitlines()
    assert listing[0].endswith(",undone_by")
    assert listing[1].startswith("1,trf,")
    assert listing[1].endswith(f",{batch}")
    club.ok("import", "trf", str(TRF))
    assert club.rows("SELECT id, undone_by FROM imports ORDER BY id") == [(1, batch), (2, None)]
    code, out, err = invoke(club, "import", "undo", "1", "--yes")
    assert (code, out) == (1, "")
    assert err == (
        f"Error: import 1 ({TRF}) was undone already (correction {batch}, 'ratings log')\n"
    )


def test_import_undo_dry_run_shows_the_same_and_writes_nothing(club: Club) -> None:
    club.ok("rate")
    before = club.state()
    code, dry, err = invoke(club, "import", "undo", "1", "--dry-run")
    assert (code, club.state()) == (0, before)
    code, out, err_done = invoke(club, "import", "undo", "1", "--yes")
    assert code == 0
    head, *lines = out.splitlines()
    assert dry.splitlines() == [
        "Dry run: nothing was changed",
        head.replace("Undid import", "Would undo import").replace("removed", "remove"),
        *lines,
    ]
    assert err == err_done.replace("This touches", "This would touch").replace(
        "re-rates", "would re-rate"
    )


# --- the service ---------------------------------------------------------------------------


def test_undo_import_service(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db", "--system", "club")
    club.player("Ann", "--rating", "1800", "--games", "40")
    club.player("Bob", "--rating", "1800", "--games", "40")
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result,event\n2025-02-03,Ann,Bob,1-0,Cup\n"
                     "2025-02-04,Bob,Ann,1-0,Cup\n", encoding="utf-8")  # fmt: skip
    club.ok("import", "games", str(games))
    club.ok("rate")
    engine = make_engine(database_url(str(club.db)))
    with SessionFactory(bind=engine) as session, session.begin():
        plan = undo.plan_undo(session, 1)
        assert (plan.kind, len(plan.events), len(plan.games), plan.byes, plan.players) == (
            "games_csv", 1, 2, (), (),
        )  # fmt: skip
        assert [game.line() for game in plan.games] == [
            "game 1: 2025-02-03, Ann (id 1) - Bob (id 2) 1-0",
            "game 2: 2025-02-04, Bob (id 2) - Ann (id 1) 1-0",
        ]
        assert plan.describe() == "1 event and 2 games"
        assert undo.undo_import(session, 1, reason="twice") == plan
        assert corrections.waiting(session) == {"2025-02"}
        lines = audit.entries(session, action=audit.Action.IMPORT_UNDO)
        assert {line.field for line in lines} >= {"name", "result", "import"}
        assert {line.reason for line in lines} == {"twice"}
        with pytest.raises(undo.UndoImportError, match="was undone already"):
            undo.plan_undo(session, 1)
    engine.dispose()
