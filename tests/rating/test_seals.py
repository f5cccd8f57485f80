"""Sealed lists (docs/DESIGN.md#sealed-lists): every list a rate publishes is sealed in an
append-only chain; a correction's re-rate adds versions naming the correction, ``unrate``
adds withdrawals, and ``ratings verify`` finds a database edited behind the product's back."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from ratings import sealing
from ratings.db import make_engine
from tests.conftest import BOTH_BACKENDS, new_database, table_rows
from tests.publish_helpers import demo
from tests.support import invoke, ok


def edit(db: Path, *statements: str) -> None:
    """A hand edit with the sqlite3 shell's defaults: no product code."""
    conn = sqlite3.connect(db)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


SEALS = (
    "SELECT period, time_control, version, kind, seal, previous_seal, replaces, "
    "correction_batch, reason FROM list_seals ORDER BY id"
)


@pytest.fixture
def demo_db(tmp_path: Path) -> Path:
    return demo(tmp_path)


def test_every_list_is_sealed_in_one_chain(demo_db: Path) -> None:
    seals = table_rows(demo_db, SEALS)
    assert [(p, tc, v, k) for p, tc, v, k, *_ in seals] == [
        (f"2025-{m:02d}", "standard", 1, "sealed") for m in range(1, 13)
    ]
    previous = None
    for _, _, _, _, seal, before, replaces, batch, reason in seals:
        assert before == previous
        assert (replaces, batch, reason) == (None, None, None)
        previous = seal
    assert ok(demo_db, "verify") == (
        "Verified the database " + str(demo_db) + ": 12 lists, 12 seals and 448 rows "
        "checked; every one is as sealed\n"
    )


def test_a_seal_is_the_sha256_of_its_documented_text(demo_db: Path) -> None:
    """The seal, the rows digest and the inputs digest are what the canonical texts give,
    recomputed here from the stored rows with plain SQL and hashlib."""
    (row,) = table_rows(
        demo_db,
        "SELECT s.seal, s.rows_digest, s.inputs_digest, s.previous_seal, s.games_digest, "
        "s.byes_digest, s.register_digest, s.settings_digest, p.id FROM list_seals s "
        "JOIN rating_periods p ON p.label = s.period WHERE s.period = '2025-03'",
    )
    seal, rows_digest, inputs_digest, previous, games, byes, register, settings, pid = row
    listed = table_rows(
        demo_db,
        "SELECT player_id, rating_after, change, period_games, total_games, next_k, k10, "
        f"list_status FROM rating_history WHERE period_id = {pid} AND rating_after IS NOT "
        "NULL ORDER BY player_id",
    )
    text = "player_id,rating,change,period_games,total_games,next_k,k10,list_status\n" + "".join(
        f"{p},{r},{'' if s == 'first_rating' else c},{g},{'' if t is None else t},"
        f"{'' if k is None else k},{'true' if k10 else 'false'},{s}\n"
        for p, r, c, g, t, k, k10, s in listed
    )
    assert sealing.digest(text) == rows_digest
    inputs = (
        "ratings inputs 1\nlist standard 2025-03 2025-04-01\n"
        f"games {games}\nbyes {byes}\nregister {register}\nsettings {settings}\n"
    )
    assert sealing.digest(inputs) == inputs_digest
    assert (
        sealing.digest(
            "ratings seal 1\nlist standard 2025-03 2025-04-01\nversion 1\n"
            f"rows {rows_digest}\ninputs {inputs_digest}\nprevious {previous}\n"
        )
        == seal
    )
    (settings_row,) = table_rows(
        demo_db,
        "SELECT system, coalesce(k_factor, ''), coalesce(start_rating, ''), expected_method, "
        "period_months, closing_days FROM settings",
    )
    assert sealing.digest(
        "system,k_factor,start_rating,expected_method,period_months,closing_days\n"
        + ",".join(map(str, settings_row)) + "\n"
    ) == settings  # fmt: skip


def test_the_chain_across_a_correction(demo_db: Path) -> None:
    """A result corrected in May: May's list and every later one get version 2, naming
    version 1 and the correction's batch; the versions before stay, April keeps its seal,
    and the database verifies before the re-rate (the correction pending) and after it."""
    before = table_rows(demo_db, SEALS)
    (game,) = table_rows(
        demo_db,
        "SELECT g.id FROM games g JOIN events e ON e.id = g.event_id "
        "WHERE e.end_date BETWEEN '2025-05-01' AND '2025-05-28' AND g.result = '1-0' "
        "ORDER BY g.id LIMIT 1",
    )
    ok(demo_db, "game", "edit", str(game[0]), "--result", "0-1", "-y")
    pending = ok(demo_db, "verify")
    assert pending.count("note: ") == 1  # May's games; the later lists' inputs are as sealed
    assert "note: standard list 2025-05 (games): its games changed since it was sealed; a " \
        "correction marked period 2025-05 for a re-rate, which seals the list again " \
        "('ratings rate')\n" in pending  # fmt: skip
    ok(demo_db, "rate")
    after = table_rows(demo_db, SEALS)
    assert after[:12] == before
    (batch,) = table_rows(demo_db, "SELECT max(batch) FROM corrections")
    new = after[12:]
    assert [(p, v, replaces, b) for p, _, v, _, _, _, replaces, b, _ in new] == [
        (f"2025-{m:02d}", 2, 1, batch[0]) for m in range(5, 13)
    ]
    assert new[0][-1] == (
        f"rated again: its rows and its inputs changed; after correction batch {batch[0]} "
        "(game_edit)"
    )
    assert str(new[1][-1]).startswith("rated again: its rows and the previous list's seal changed")
    assert new[0][5] == before[3][4]  # May's version 2 follows April's only version
    for older, newer in itertools.pairwise(new):
        assert newer[5] == older[4]
    code, out, _ = invoke(demo_db, "verify")
    assert code == 0, out
    assert "12 lists, 20 seals" in out


def test_a_rerate_that_changes_nothing_keeps_every_seal(demo_db: Path) -> None:
    before = table_rows(demo_db, SEALS)
    ok(demo_db, "rate", "--mark-from", "2025-03")
    assert table_rows(demo_db, SEALS) == before


def test_unrate_withdraws_the_seals_and_the_next_rate_seals_again(demo_db: Path) -> None:
    """The seals of withdrawn lists stay; each list gets a withdrawn version naming the
    unrate's batch; rated again, each is published again as a new version."""
    before = table_rows(demo_db, SEALS)
    ok(demo_db, "unrate", "--from", "2025-11", "-y")
    after = table_rows(demo_db, SEALS)
    assert after[:12] == before
    (batch,) = table_rows(demo_db, "SELECT max(batch) FROM corrections WHERE action = 'unrate'")
    withdrawn = after[12:]
    assert [(p, v, k, prev, r, b) for p, _, v, k, _, prev, r, b, _ in withdrawn] == [
        ("2025-11", 2, "withdrawn", None, 1, batch[0]),
        ("2025-12", 2, "withdrawn", None, 1, batch[0]),
    ]
    assert withdrawn[0][-1] == f"withdrawn by unrate; after correction batch {batch[0]} (unrate)"
    assert withdrawn[0][4] == sealing.digest(
        f"ratings seal 1\nlist standard 2025-11 2025-12-01\nversion 2\nwithdraws {before[10][4]}\n"
    )
    assert ok(demo_db, "verify").endswith("10 lists, 14 seals and 370 rows checked; every one "
                                          "is as sealed\n")  # fmt: skip
    ok(demo_db, "rate")
    again = table_rows(demo_db, SEALS)[14:]
    assert [(p, v, k, r) for p, _, v, k, _, _, r, _, _ in again] == [
        ("2025-11", 3, "sealed", 2), ("2025-12", 3, "sealed", 2)
    ]  # fmt: skip
    assert again[0][-1] == "published again after version 2 withdrew it; no correction logged " \
        "since version 2"  # fmt: skip
    assert again[0][5] == before[9][4]  # November follows October again
    assert ok(demo_db, "verify").endswith("12 lists, 16 seals and 448 rows checked; every one "
                                          "is as sealed\n")  # fmt: skip


def test_the_seals_are_append_only(demo_db: Path) -> None:
    engine = make_engine(f"sqlite:///{demo_db}")
    try:
        for statement in (
            "UPDATE list_seals SET reason = 'x'",
            "DELETE FROM list_seals WHERE version = 1",
        ):
            with (
                pytest.raises(sa.exc.IntegrityError, match="list_seals is append-only"),
                engine.begin() as conn,
            ):
                conn.exec_driver_sql(statement)
    finally:
        engine.dispose()


def test_lists_published_before_seals_are_sealed_by_the_next_rate(demo_db: Path) -> None:
    """A database upgraded to revision 0017 has lists and no seals (made here by dropping
    the trigger and the seals): verify says so; the next rate, with nothing to rate, seals
    them, saying why."""
    edit(demo_db, "DROP TRIGGER list_seals_no_delete", "DELETE FROM list_seals")
    code, out, err = invoke(demo_db, "verify")
    assert code == 1
    assert out.splitlines()[0] == (
        "standard list 2025-01: published, but the chain has no seal: 'ratings rate' seals it"
    )
    assert err == (
        f"Error: 12 differences between the database {demo_db} and its seals (12 lists, 0 "
        "seals and 448 rows checked)\n"
    )
    assert ok(demo_db, "rate") == "Sealed 12 lists published before lists were sealed\n"
    reasons = table_rows(demo_db, "SELECT DISTINCT version, reason FROM list_seals")
    assert reasons == [(1, "published before lists were sealed")]
    assert invoke(demo_db, "verify")[0] == 0


# --- a database edited behind the product's back ---------------------------------------------


def test_verify_finds_a_list_row_edited_by_hand(demo_db: Path) -> None:
    edit(
        demo_db,
        "UPDATE rating_history SET rating_after = rating_after + 1 WHERE player_id = 18 AND "
        "period_id = (SELECT id FROM rating_periods WHERE label = '2025-06')",
    )
    code, out, err = invoke(demo_db, "verify")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(
        "standard list 2025-06 (rating_history): its rows are not those sealed in version 1 "
    )
    assert lines[1:] == [
        "note: standard list 2025-06: the rebuild says: 2025-06 Braley, Zoe (id 18): "
        "published 1858, the games give 1857; rating 1858 is not 1802 +55"
    ]
    assert err.startswith(f"Error: 1 difference between the database {demo_db} and its seals")


def test_verify_finds_a_game_edited_by_hand(demo_db: Path) -> None:
    edit(demo_db, "UPDATE games SET result = '0-1' WHERE id = 301")
    code, out, _ = invoke(demo_db, "verify")
    assert code == 1
    assert out.splitlines() == [
        "standard list 2025-06 (games): its games are not those it was sealed with (version "
        "1), and no correction explains it: changed outside ratings",
        "note: standard list 2025-06: the rebuild says: 2025-06 Eloos, Levon (id 38): "
        "published 1690, the games give 1710; game 301 result 0-1 in the games table, "
        "scored 0 in the breakdown",
        "note: standard list 2025-06: the rebuild says: 2025-06 Joriston, Rafael (id 27): "
        "published 2307, the games give 2287; game 301 result 0-1 in the games table, "
        "scored 1 in the breakdown",
    ]


def test_verify_finds_the_register_and_the_settings_edited_by_hand(demo_db: Path) -> None:
    edit(demo_db, "UPDATE players SET birth_year = 2012 WHERE id = 18",
         "UPDATE settings SET expected_method = 'curve'")  # fmt: skip
    code, out, _ = invoke(demo_db, "verify")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 24  # each of the 12 lists: its register and its settings
    assert lines[:2] == [
        "standard list 2025-01 (players): the register fields it read are not those it was "
        "sealed with (version 1), and no correction explains it: changed outside ratings",
        "standard list 2025-01 (settings): the settings it was rated under are not those it "
        "was sealed with (version 1), and no correction explains it: changed outside ratings",
    ]


def test_a_setting_changed_through_ratings_that_changes_no_list_is_a_note(
    demo_db: Path,
) -> None:
    """``settings closing-days`` that moves no event marks nothing: the lists stand, the
    settings' digest no longer matches the seals, and the corrections log says why."""
    out = ok(demo_db, "settings", "closing-days", "1", "--yes")
    assert "marks" not in out
    assert "touches" not in out
    code, out, _ = invoke(demo_db, "verify")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == (
        "note: standard list 2025-01 (settings): the settings it was rated under changed "
        "since it was sealed, by 1 line(s) of the corrections log since; none of it changes "
        "the list (a change that does marks it for a re-rate)"
    )
    # the rebuild confirms it: a correction explains a change only where the lists stand
    assert lines[-2] == "note: the rebuild: the stored lists are what their stored inputs give"
    assert len(lines) == 14


def test_a_correction_does_not_explain_a_register_edit_made_outside_ratings(
    demo_db: Path,
) -> None:
    """Seen: a federation edited through ratings, then an entry rating raised by 200 outside
    it: `verify` took the correction for the explanation of both and passed (`none of it
    changes the list`), while `check` found 353 differences."""
    ok(demo_db, "player", "edit", "2", "--federation", "GER")
    edit(demo_db, "UPDATE players SET entry_rating = entry_rating + 200 WHERE id = 2")
    code, out, _ = invoke(demo_db, "verify")
    assert code == 1
    assert any(
        line.startswith("standard list 2025-01: the rebuild says: ") for line in (out.splitlines())
    ), out


@pytest.mark.parametrize("backend", BOTH_BACKENDS)
def test_the_chain_on_both_backends(tmp_path: Path, backend: str) -> None:
    """The same seals on SQLite and PostgreSQL (dates, booleans and NULLs are written the
    same way), across a correction and an unrate."""
    db = str(tmp_path / "club.db") if backend == "sqlite" else new_database()
    ok(db, "init", "--system", "club")
    for name in ("Ann", "Bob", "Cat"):
        ok(db, "player", "add", name, "--rating", "1800", "--games", "40", "--birthdate", "2010")
    for white, black, result, day in (
        ("Ann", "Bob", "1-0", "2026-01-10"),
        ("Bob", "Cat", "1/2-1/2", "2026-02-10"),
        ("Cat", "Ann", "1-0", "2026-03-10"),
    ):
        ok(db, "game", "add", white, black, result, "--date", day)
    ok(db, "rate", "--through", "2026-03")
    ok(db, "game", "edit", "2", "--result", "1-0", "-y")
    ok(db, "rate", "--through", "2026-03")
    ok(db, "unrate", "--from", "2026-03", "-y")
    assert ok(db, "verify").startswith("Verified the database")
    seals = table_rows(db, "SELECT period, version, kind, seal FROM list_seals ORDER BY id")
    assert [(p, v, k) for p, v, k, _ in seals] == [
        ("2026-01", 1, "sealed"), ("2026-02", 1, "sealed"), ("2026-03", 1, "sealed"),
        ("2026-02", 2, "sealed"), ("2026-03", 2, "sealed"), ("2026-03", 3, "withdrawn"),
    ]  # fmt: skip
    assert [seal for *_, seal in seals] == EXPECTED_SEALS


EXPECTED_SEALS = [
    "53e01d54ef9a0db669f8965ee8c070eaadf2dba328fd2146d401bf72175f2b54",
    "45fda96fb32b7b653231bfa8e4a3be3a8ed328478f6c81600dd789fb9830dd2b",
    "964fcd8ce136f434b192c99367d3a9e1a7d7e524ad85919e27b3c9a4b6decb88",
    "3913475fb45dbffa14486bd6231382dfae28419e039e67496696d1586b7a8d61",
    "4701fd88b4a84fb683c0a938e8e5d2f6b64cad86fbfcb4a0b943c4fd5245c4d5",
    "cd4cba29e898c63a15d266059da536ed24ff5582ed3a0bd928a58b866159f812",
]
"""The seals the sequence gives, as written by the SQLite run (no clock, no path, no id
that depends on the backend enters a seal): PostgreSQL must give the same."""


def test_an_import_undo_seals_the_lists_it_changes(tmp_path: Path) -> None:
    """``import undo`` takes its players' rows off the published lists at once (the re-rate
    comes later): each list it changes gets a new version then, naming the undo, so the
    database verifies before the re-rate and after it."""
    db = tmp_path / "club.db"
    ok(db, "init", "--system", "club")
    ok(db, "player", "add", "Hand, Ann", "--rating", "1800", "--games", "40")
    ok(db, "player", "add", "Hand, Bob", "--rating", "1700", "--games", "40")
    trf = Path(__file__).parents[1] / "data" / "trf" / "held_swiss_9.trf"
    ok(db, "import", "trf", str(trf))
    (first,) = table_rows(db, "SELECT min(played_on) FROM games")
    ok(db, "game", "add", "Hand, Ann", "Hand, Bob", "1-0", "--date", str(first[0]))
    ok(db, "rate")
    sealed = table_rows(db, SEALS)
    ok(db, "import", "undo", "1", "--yes")
    (batch,) = table_rows(db, "SELECT max(batch) FROM corrections")
    new = table_rows(db, SEALS)[len(sealed) :]
    assert new
    assert {(v, b) for _, _, v, _, _, _, _, b, _ in new} == {(2, batch[0])}
    assert str(new[0][-1]).startswith(
        "import undo withdrew its players' rows: its rows and its inputs changed; after "
        f"correction batch {batch[0]} (import_undo)"
    )
    assert invoke(db, "verify")[0] == 0
    ok(db, "rate")
    assert invoke(db, "verify")[0] == 0


@pytest.mark.parametrize("backend", BOTH_BACKENDS)
def test_the_sql_rows_are_the_canonical_rows(tmp_path: Path, backend: str) -> None:
    """The seal step makes each list's canonical rows in SQL; they are the text
    ``sealing.rows_text`` makes of the same rows (first ratings, unknown totals, negative
    changes, K=10 flags and unrated rows among them)."""
    import ratings
    from ratings.service.rating.seals import list_rows

    db = str(tmp_path / "club.db") if backend == "sqlite" else new_database()
    ok(db, "init")
    ok(db, "player", "add", "Top, Tia", "--rating", "2450", "--games", "300", "--k10")
    ok(db, "player", "add", "Old, Oz", "--rating", "1900")  # total games unknown
    ok(db, "player", "add", "New, Ned")
    for n in range(5):
        ok(db, "game", "add", "New, Ned", "Old, Oz", "1/2-1/2", "--date", f"2026-01-{10 + n}")
    ok(db, "game", "add", "Top, Tia", "Old, Oz", "0-1", "--date", "2026-01-20")
    ok(db, "rate")
    rows = table_rows(
        db,
        "SELECT player_id, rating_after, change, period_games, total_games, next_k, k10, "
        "list_status FROM rating_history ORDER BY player_id",
    )
    expected = sealing.rows_text(
        sealing.SealedRow._make((*r[:6], bool(r[6]), r[7])) for r in rows if r[1] is not None
    )
    assert {str(r[-1]) for r in rows} >= {"listed", "first_rating"}
    assert any(r[4] is None for r in rows)
    with ratings.open_session(db) as session:
        (period_id,) = session.execute(sa.text("SELECT id FROM rating_periods")).one()
        text, count, ids = list_rows(session, int(period_id), "standard")
    assert text == expected
    assert count == sum(1 for r in rows if r[1] is not None)
    assert ids == [str(r[0]) for r in rows]
