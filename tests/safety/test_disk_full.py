"""``ratings publish`` on a full disk: one ``Error:`` line, exit 1, and the folder as it was.

Seen: a publish into a new or an empty folder on a 12 MB tmpfs filled to its last block
ended in a traceback (``OSError: [Errno 28] No space left on device`` from the site's
output) and left 4 empty folders; with a little space left it stopped with the proper error
but left a half site, ``index.html`` among its files. An existing site on a full disk got
the proper error.

These mount a tmpfs (tests/mounts.py): they need root, and skip without it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.mounts import FILLER, fill, tmpfs
from tests.publish_helpers import demo, ok, run, site_files
from tests.site.test_publish_lists import club


@pytest.fixture
def disk(tmp_path: Path) -> object:
    with tmpfs(tmp_path / "disk") as mount:
        yield mount


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return demo(folder)


def _contents(mount: Path) -> dict[str, bytes]:
    return {k: v for k, v in site_files(mount).items() if k != FILLER} | {
        p.relative_to(mount).as_posix() + "/": b"" for p in mount.rglob("*") if p.is_dir()
    }


def _publish_fails(db: Path, site: Path, *args: str) -> None:
    result = run("--db", str(db), "publish", str(site), "--jobs", "1", *args)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr == f"Error: cannot write in '{site}': No space left on device\n"


@pytest.mark.parametrize("leave", [0, 8192, 200_000], ids=["full", "8 KB free", "200 KB free"])
def test_a_publish_into_a_new_folder_on_a_full_disk(disk: Path, db: Path, leave: int) -> None:
    fill(disk, leave)
    _publish_fails(db, disk / "site")
    assert _contents(disk) == {}


@pytest.mark.parametrize("leave", [0, 200_000], ids=["full", "200 KB free"])
def test_a_publish_into_an_empty_folder_on_a_full_disk(disk: Path, db: Path, leave: int) -> None:
    (disk / "site").mkdir()
    fill(disk, leave)
    _publish_fails(db, disk / "site")
    assert _contents(disk) == {"site/": b""}


@pytest.mark.parametrize("leave", [0, 200_000], ids=["full", "200 KB free"])
def test_an_existing_site_on_a_full_disk_stays_as_it_was(
    disk: Path, db: Path, tmp_path: Path, leave: int
) -> None:
    """Every page is rendered again under a new title: none of them may replace its old
    version before all are written (a replaced page frees its space, so the publish used
    to get far into a site of both titles)."""
    site = disk / "site"
    ok("--db", str(db), "publish", str(site), "--jobs", "1", "--title", "Old")
    before = _contents(disk)
    fill(disk, leave)
    _publish_fails(db, site, "--title", "New")
    assert _contents(disk) == before
    # with the space back, the publish goes through
    (disk / FILLER).unlink()
    ok("--db", str(db), "publish", str(site), "--jobs", "1")
    fresh = tmp_path / "fresh"
    ok("--db", str(db), "publish", str(fresh), "--jobs", "1", "--title", "Old")
    assert site_files(site) == site_files(fresh)
    shutil.rmtree(fresh)


@pytest.mark.parametrize("leave", [0, 150_000], ids=["full", "150 KB free"])
def test_every_list_into_a_new_folder_on_a_full_disk(
    disk: Path, tmp_path: Path, leave: int
) -> None:
    """``--list all``: the three sites are put in place together, or none of them."""
    (tmp_path / "lists").mkdir()
    db = club(tmp_path / "lists")
    fill(disk, leave)
    result = run("--db", str(db), "publish", str(disk / "site"), "--list", "all", "--jobs", "1")
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: cannot write in '")
    assert result.stderr.endswith("': No space left on device\n")
    assert _contents(disk) == {}


def test_every_list_of_an_existing_site_on_a_full_disk(disk: Path, tmp_path: Path) -> None:
    (tmp_path / "lists").mkdir()
    db = club(tmp_path / "lists")
    site = disk / "site"
    ok("--db", str(db), "publish", str(site), "--list", "all", "--jobs", "1", "--title", "Old")
    assert (site / "rapid" / "index.html").exists()
    before = _contents(disk)
    fill(disk, 20_000)
    result = run("--db", str(db), "publish", str(site), "--jobs", "1", "--title", "New")
    assert result.exit_code == 1, result.output
    assert _contents(disk) == before
