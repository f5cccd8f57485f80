"""A site keeps its settings: ``publish DIR`` without ``--title`` (or
``--list``) publishes with the title (list) the folder's previous publish stored in
``DIR/.ratings-site.json``; an option given replaces the stored value.

Seen: ``publish site`` re-run without ``--title`` put back the title ``Ratings`` and rewrote
86 of 91 files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.publish_helpers import copy_demo, ok, run
from tests.reading.test_check import CLUB
from tests.support import invoke

REPORT = re.compile(r"Published .*; (\d+) file\(s\) written, (\d+) unchanged, (\d+) deleted")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small club (tests/reading/test_check.py): a standard and a rapid list; quick to publish."""
    db = tmp_path_factory.mktemp("club") / "club.db"
    for args in CLUB:
        assert invoke(db, *args)[0] == 0
    return db


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_demo(template, tmp_path)


def publish(db: Path, site: Path, *extra: str) -> tuple[int, int, int]:
    """Files written, unchanged, deleted."""
    found = REPORT.search(ok("publish", str(site), "--db", str(db), *extra))
    assert found is not None
    written, unchanged, deleted = map(int, found.groups())
    return written, unchanged, deleted


def title(site: Path) -> str:
    found = re.search(r"<title>([^<]*)</title>", (site / "index.html").read_text("utf-8"))
    assert found is not None
    return found[1]


def stored(site: Path) -> object:
    return json.loads((site / ".ratings-site.json").read_text("utf-8")).get("settings")


def test_the_title_is_kept(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site, "--title", "Ashford Chess Club")
    assert stored(site) == {"title": "Ashford Chess Club"}
    assert publish(db, site) == (0, 14, 0)  # nothing rewritten: the site is the same
    assert title(site) == "Rating list · Ashford Chess Club"
    written, _, _ = publish(db, site, "--title", "Ashford CC")  # an option replaces it
    assert written > 10
    assert title(site) == "Rating list · Ashford CC"
    assert publish(db, site) == (0, 14, 0)
    assert stored(site) == {"title": "Ashford CC"}


def test_a_site_without_stored_settings_gets_the_default(db: Path, tmp_path: Path) -> None:
    """A site published by an earlier version stored no settings: the title is Ratings, as
    it was, until an option says otherwise."""
    site = tmp_path / "site"
    publish(db, site)
    manifest = site / ".ratings-site.json"
    body = json.loads(manifest.read_text("utf-8"))
    del body["settings"]
    manifest.write_text(json.dumps(body), "utf-8")
    assert publish(db, site) == (0, 14, 0)
    assert title(site) == "Rating list · Ratings"


def test_a_stored_title_that_is_no_title_is_not_used(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site, "--title", "Ashford")
    manifest = site / ".ratings-site.json"
    for bad in (["Ashford"], "", "x" * 201, "A\x00B"):
        body = json.loads(manifest.read_text("utf-8"))
        body["settings"] = {"title": bad}
        manifest.write_text(json.dumps(body), "utf-8")
        publish(db, site)
        assert title(site) == "Rating list · Ratings", bad


def test_the_list_is_kept(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "rapid"
    ok("publish", str(site), "--db", str(db), "--list", "rapid", "--title", "Rapid")
    out = ok("publish", str(site), "--db", str(db))  # the rapid list again, not refused
    assert out.startswith(f"Published {site / 'index.html'} (rapid list): ")
    assert title(site) == "Rapid rating list · Rapid"
    refused = run("publish", str(site), "--db", str(db), "--list", "standard")
    assert refused.exit_code == 1
    assert refused.stderr.startswith(f"Error: '{site}' holds the website of the rapid list")
    # a new folder without --list: the standard list, as before
    ok("publish", str(tmp_path / "standard"), "--db", str(db))
    assert title(tmp_path / "standard") == "Rating list · Ratings"


def test_help_says_what_is_kept() -> None:
    text = " ".join(run("publish", "--help").stdout.split())
    assert "--title TEXT The site's name, shown on every page (e.g. the club's); default: " \
        "the title the folder's site was published with, else 'Ratings'" in text  # fmt: skip
    assert "default: the list the folder's site shows, else standard" in text
