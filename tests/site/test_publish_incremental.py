"""`ratings publish` over an earlier site: only what changed is rendered and written, and the
result is byte for byte the site a publish into an empty folder would give."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ratings.site import pool
from tests.publish_helpers import copy_demo, demo, ok, run, site_files


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_demo(template, tmp_path)


def publish(db: Path, site: Path, *extra: str) -> str:
    return ok("publish", str(site), "--db", str(db), *extra)


def assert_same_as_fresh(db: Path, site: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    publish(db, fresh)
    assert site_files(site) == site_files(fresh)


def written(out: str) -> tuple[int, int, int, int, int]:
    """(lists, players, events rendered; files written, deleted) from publish's report."""
    words = out.replace("(", " ").replace(";", " ").replace(",", " ").split()
    numbers = [int(w) for w in words if w.isdigit()]
    return numbers[0], numbers[1], numbers[2], numbers[3], numbers[5]


def test_one_more_month_rewrites_only_what_changed(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site)
    before = {k: v for k, v in site_files(site).items()}
    ok("--db", str(db), "game", "add", "Toreley, Dina", "Toraros, Oscar", "1-0",
       "--date", "2026-01-10", "--event", "New Year Rapid")  # fmt: skip
    ok("--db", str(db), "rate")
    out = publish(db, site)
    # the new list (page, CSV, TXT, JSON, top lists and their CSV, the sealed rows), the
    # list before it ("next list"), the index, two players (page and JSON), the unrated
    # player (page and JSON: the unrated stretch runs to the newest list), one new event,
    # the players and events pages (new ratings, a new event), the newest list that every
    # chart runs to (assets/newest.css), its ratings for the calculator
    # (assets/newest-ratings.js) and the chain of seals (one more)
    assert written(out) == (2, 3, 1, 21, 0)
    after = site_files(site)
    changed = {k for k in after if before.get(k) != after[k]} - {".ratings-site.json"}
    assert changed == {
        "index.html", "lists/2026-01.html", "lists/2026-01.csv", "lists/2026-01.txt",
        "lists/2026-01.json", "lists/2026-01-top.html", "lists/2026-01-top.csv",
        "lists/2026-01-sealed.csv", "lists/2025-12.html", "players/1.html", "players/1.json",
        "players/2.html", "players/2.json", "events/16.html", "players.html", "events.html",
        "players/36.html", "players/36.json", "assets/newest.css", "seals.json",
        "assets/newest-ratings.js",
    }  # fmt: skip
    assert_same_as_fresh(db, site, tmp_path)


def test_a_correction_in_an_old_period(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site)
    ok("--db", str(db), "game", "edit", "14", "--result", "1/2-1/2")
    ok("--db", str(db), "rate")
    out = publish(db, site)
    lists, players, _, files, _ = written(out)
    assert 0 < players < 40 or lists == 12  # re-rated from January: every list
    assert files > 0
    assert_same_as_fresh(db, site, tmp_path)


def test_a_renamed_player(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site)
    ok("--db", str(db), "player", "edit", "1", "--name", "Toreley-Smith, Dina")
    out = publish(db, site)
    assert written(out)[0] == 12  # the name is on every list
    assert "Toreley-Smith, Dina" in (site / "players/1.html").read_text("utf-8")
    assert_same_as_fresh(db, site, tmp_path)


def test_a_merge_replaces_the_merged_page(db: Path, tmp_path: Path) -> None:
    """The merged record's page stays at its address, saying where the player is now."""
    site = tmp_path / "site"
    publish(db, site)
    ok("--db", str(db), "player", "add", "Toreley, D.", "--rating", "1400")
    ok("--db", str(db), "game", "add", "Toreley, D.", "Toraros, Oscar", "1-0",
       "--date", "2026-01-11", "--event", "Blitz")  # fmt: skip
    ok("--db", str(db), "rate")
    publish(db, site)
    assert (site / "players/41.html").is_file()
    ok("--db", str(db), "player", "merge", "1", "41", "--yes")
    ok("--db", str(db), "rate")
    out = publish(db, site)
    page = (site / "players/41.html").read_text("utf-8")
    assert 'was merged into <a href="1.html">Toreley, Dina</a>' in page
    assert not (site / "players/41.json").exists()  # the data is the kept record's
    assert written(out)[4] == 1
    assert_same_as_fresh(db, site, tmp_path)


def test_a_voided_game_deletes_its_event(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    ok("--db", str(db), "game", "add", "Toreley, Dina", "Toraros, Oscar", "1-0",
       "--date", "2026-01-10", "--event", "One game")  # fmt: skip
    ok("--db", str(db), "rate")
    publish(db, site)
    assert "One game" in (site / "events/16.html").read_text("utf-8")
    game = json.loads(ok("--db", str(db), "sql", "SELECT max(id) AS id FROM games",
                         "--format", "json"))[0]["id"]  # fmt: skip
    ok("--db", str(db), "game", "void", str(game))
    ok("--db", str(db), "rate")
    publish(db, site)
    assert not (site / "events/16.html").exists()
    assert_same_as_fresh(db, site, tmp_path)


def test_a_deleted_page_is_written_again(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site)
    (site / "players/7.html").unlink()
    (site / "lists/2025-03.txt").unlink()
    out = publish(db, site)
    assert written(out)[3] == 2  # the page and the TXT; the list's page and CSV are unchanged
    assert_same_as_fresh(db, site, tmp_path)


def test_worker_processes_give_the_same_site(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = tmp_path / "serial"
    publish(db, serial, "--jobs", "1")
    monkeypatch.setattr(pool, "PARALLEL_FROM", 1)
    monkeypatch.setattr(pool, "CHUNK_PAGES", 12)
    parallel = tmp_path / "parallel"
    publish(db, parallel, "--jobs", "2")
    assert site_files(parallel) == site_files(serial)
    # into the existing site: the workers' pages are put in place by this process
    publish(db, parallel, "--jobs", "2", "--title", "New")
    publish(db, serial, "--jobs", "1", "--title", "New")
    assert site_files(parallel) == site_files(serial)
    assert [p.name for p in tmp_path.rglob("*") if ".ratings-tmp-" in p.name] == []


def _plan_and_shared(full: bool, lists: int, events: int, players: int) -> tuple[Any, Any]:
    """What :func:`pool.split_plan` reads of a plan and of what the parts share."""
    shared = SimpleNamespace(
        periods=[SimpleNamespace(id=i) for i in range(1, 122)],
        events=dict.fromkeys(range(1, 2959)),
        register=dict.fromkeys(range(1, 5001)),
    )
    plan = SimpleNamespace(
        full=full,
        lists=set(range(122 - lists, 122)),
        events=set(range(1, events + 1)),
        players=set(range(1, 2 * players + 1, 2)),
    )
    return plan, shared


@pytest.mark.parametrize("full", [True, False])
@pytest.mark.parametrize("workers", [1, 2, 4])
def test_the_parts_of_a_publish_hold_every_page_once(full: bool, workers: int) -> None:
    """The benchmark's shape (121 lists, 2,958 events, 5,000 players): every page in one
    part; for several workers, parts that shrink towards the end so that the workers
    finish about together (bench/RESULTS-publish.md), the lists first."""
    plan, shared = _plan_and_shared(full, 121 if full else 2, 2958 if full else 29, 761)
    jobs = pool.split_plan(plan, shared, workers)
    ids = [list(job.ids or ()) for job in jobs]  # (None: every id; never in a split)
    for kind, wanted in (
        ("lists", plan.lists),
        ("events", shared.events if full else plan.events),
        ("players", shared.register if full else plan.players),
    ):
        got = [i for job, part in zip(jobs, ids, strict=True) if job.kind == kind for i in part]
        got = [i for i in got if i in wanted]
        assert sorted(got) == sorted(wanted)  # each once (a span may hold ids not wanted)
    assert [job.index for job in jobs] == [True] + [False] * (len(jobs) - 1)
    assert jobs[0].kind == "lists"
    assert all(len(part) <= pool.CHUNK_PAGES for part in ids)
    if workers == 1:
        assert [job.kind for job in jobs].count("lists") == 2  # in halves
        return
    costs = [pool.PAGE_COSTS[job.kind] * len(part) for job, part in zip(jobs, ids, strict=True)]
    total = sum(costs)
    assert costs[0] <= total // (2 * workers) + pool.PAGE_COSTS["lists"]
    assert costs[-1] <= pool.SMALLEST_PART  # the last part is small
    players = [c for job, c in zip(jobs, costs, strict=True) if job.kind == "players"]
    assert players == sorted(players, reverse=True)


def test_a_publish_with_no_list_to_render_still_renders_the_index() -> None:
    plan, shared = _plan_and_shared(False, 0, 0, 3)
    for workers in (1, 2):
        jobs = pool.split_plan(plan, shared, workers)
        assert [(job.kind, tuple(job.ids or ()), job.index) for job in jobs] == [
            ("lists", (), True),
            ("players", (1, 3, 5), False),
        ]


def test_the_fork_server_starts_early_only_for_a_site_that_may_need_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int] = []
    monkeypatch.setattr(pool, "_context", lambda: started.append(1))
    pool.warm_up(pool.PARALLEL_FROM - 1, 4)
    pool.warm_up(pool.PARALLEL_FROM, 1)  # --jobs 1: never a worker
    assert started == []
    pool.warm_up(pool.PARALLEL_FROM, 2)
    assert started == [1]


@pytest.mark.slow  # a publish in a process of its own: 4 s, out of the test loop
def test_workers_start_where_the_temporary_folder_cannot_hold_a_socket(
    db: Path, tmp_path: Path
) -> None:
    """The workers fork from a server reached through a socket in the temporary folder; a
    TMPDIR too long for a socket's path (about 108 bytes) gets spawned workers instead of
    an error, and the same site."""
    serial = tmp_path / "serial"
    publish(db, serial, "--jobs", "1")
    long_tmp = tmp_path / ("t" * 120)
    long_tmp.mkdir()
    parallel = tmp_path / "parallel"
    script = (
        "import sys\n"
        "from ratings.site import pool\n"
        "pool.PARALLEL_FROM = 1\n"
        "pool.CHUNK_PAGES = 12\n"
        "from ratings.cli import cli\n"
        "cli(sys.argv[1:])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "--db", str(db), "publish", str(parallel), "--jobs", "2"],
        env={**os.environ, "TMPDIR": str(long_tmp)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert site_files(parallel) == site_files(serial)


def test_a_pending_correction_is_announced_on_every_later_list(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site)
    ok("--db", str(db), "game", "edit", "14", "--result", "1/2-1/2")  # marks a period
    result = run("publish", str(site), "--db", str(db))
    assert result.exit_code == 0
    assert result.stderr.startswith("Warning: corrections touched period 2025-")
    notice = "are waiting to be rated: this list may still change"
    assert notice in (site / "index.html").read_text("utf-8")
    assert notice in (site / "lists/2025-12.html").read_text("utf-8")
    assert_same_as_fresh(db, site, tmp_path)
    ok("--db", str(db), "rate")
    publish(db, site)
    assert notice not in (site / "lists/2025-12.html").read_text("utf-8")
    (tmp_path / "again").mkdir()
    assert_same_as_fresh(db, site, tmp_path / "again")


def test_a_list_no_longer_published_takes_its_sub_site_away(db: Path, tmp_path: Path) -> None:
    """A site of every list whose rapid (then blitz) lists were all withdrawn: the next
    publish deletes DIR/rapid (then DIR/blitz), as a publish into an empty folder has none."""
    site = tmp_path / "site"
    ok("--db", str(db), "game", "add", "Elard, Carl", "Isstein, Felix", "1-0", "--date",
       "2025-11-20", "--event", "Blitz", "--time-control", "blitz", "--yes")  # fmt: skip
    ok("--db", str(db), "game", "add", "Elard, Carl", "Kelescu, Peter", "1-0", "--date",
       "2025-12-20", "--event", "Rapid", "--time-control", "rapid", "--yes")  # fmt: skip
    ok("--db", str(db), "rate")
    publish(db, site, "--list", "all")
    assert (site / "rapid/lists/2025-12.html").is_file()
    assert (site / "blitz/lists/2025-11.html").is_file()

    ok("--db", str(db), "unrate", "--from", "2025-12", "--yes")  # every rapid list
    out = publish(db, site)
    assert not (site / "rapid").exists()
    assert (site / "blitz/lists/2025-11.html").is_file()
    assert "rapid" not in (site / "index.html").read_text("utf-8")
    assert written(out)[4] > 0
    publish(db, tmp_path / "fresh", "--list", "all")
    assert site_files(site) == site_files(tmp_path / "fresh")

    ok("--db", str(db), "unrate", "--from", "2025-11", "--yes")  # every blitz list
    publish(db, site)
    assert sorted(p.name for p in site.iterdir() if p.is_dir()) == [
        "assets", "events", "lists", "players"
    ]  # fmt: skip
    publish(db, tmp_path / "again", "--list", "all")
    assert site_files(site) == site_files(tmp_path / "again")
    assert ok("verify", str(site)).startswith(f"Verified {site}: 10 lists, ")


@pytest.mark.slow  # three publishes of every list: 2 s; the loop keeps the withdrawal above
def test_a_withdrawn_list_s_folder_keeps_what_is_not_the_site_s(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    ok("--db", str(db), "game", "add", "Elard, Carl", "Kelescu, Peter", "1-0", "--date",
       "2025-12-20", "--event", "Rapid", "--time-control", "rapid", "--yes")  # fmt: skip
    ok("--db", str(db), "rate")
    publish(db, site, "--list", "all")
    (site / "rapid/players/notes.txt").write_text("the club's notes\n")
    ok("--db", str(db), "unrate", "--from", "2025-12", "--yes")
    publish(db, site)
    assert [p.relative_to(site).as_posix() for p in sorted((site / "rapid").rglob("*"))] == [
        "rapid/.ratings-site.json", "rapid/players", "rapid/players/notes.txt"
    ]  # fmt: skip
    assert json.loads((site / "rapid/.ratings-site.json").read_bytes())["complete"] is False
    # rated again: the rapid list's next publish completes its folder, the notes kept
    ok("--db", str(db), "rate")
    publish(db, site)
    assert (site / "rapid/lists/2025-12.html").is_file()
    assert (site / "rapid/players/notes.txt").read_text() == "the club's notes\n"
    (site / "rapid/players/notes.txt").unlink()
    publish(db, tmp_path / "fresh", "--list", "all")
    assert site_files(site) == site_files(tmp_path / "fresh")
