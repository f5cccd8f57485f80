"""`ratings publish` and a damaged manifest, and a target that holds the database.

Seen: a damaged `.ratings-site.json` crashed publish (`ValueError: invalid literal for int()
with base 16`), other damage was refused with the wrong reason (`.ratings-site.json is
missing`); a publish refused because its target holds the database had already written 22
files.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.publish_helpers import ok, run, site_files
from tests.support import Club

MANIFEST = ".ratings-site.json"


@pytest.fixture(scope="module")
def club_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three players, two months of games, rated."""
    club = Club(tmp_path_factory.mktemp("club") / "club.db")
    for name, rating in (("Smith, Ann", "1800"), ("Jones, Bob", "1700"), ("Lee, Cho", "1600")):
        club.player(name, "--rating", rating, "--games", "40")
    club.game("Smith, Ann", "Jones, Bob", "1-0", "2026-01-10", "--event", "Cup", "--round", "1")
    club.game("Lee, Cho", "Smith, Ann", "0-1", "2026-01-17", "--event", "Cup", "--round", "2")
    club.game("Jones, Bob", "Lee, Cho", "1/2-1/2", "2026-02-07")
    club.ok("rate", "--through", "2026-02")
    return Path(club.db)


@pytest.fixture(scope="module")
def published(club_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site published into an empty folder, once for the module."""
    site = tmp_path_factory.mktemp("fresh") / "site"
    ok("publish", str(site), "--db", str(club_db), "--jobs", "1")
    return site


@pytest.fixture(scope="module")
def fresh(published: Path) -> dict[str, bytes]:
    """Its files."""
    return site_files(published)


@pytest.fixture
def site(published: Path, tmp_path: Path) -> Path:
    """A copy of the published site, for one test to damage."""
    path = tmp_path / "site"
    shutil.copytree(published, path)
    return path


def edit(site: Path, change: Callable[[dict[str, Any]], object]) -> None:
    manifest = json.loads((site / MANIFEST).read_text())
    change(manifest)
    (site / MANIFEST).write_text(json.dumps(manifest))


def set_player_mask(m: dict[str, Any]) -> None:
    m["players"]["1"][1] = "zz"


def set_files_entry(m: dict[str, Any]) -> None:
    m["files"]["index.html"] = "not a list"


def drop_period(m: dict[str, Any]) -> None:
    m["periods"] = [["2026-01"]]


def set_events(m: dict[str, Any]) -> None:
    m["events"] = ["not", "an", "object"]


def set_complete(m: dict[str, Any]) -> None:
    m["complete"] = "yes"


def set_format(m: dict[str, Any]) -> None:
    m["format"] = 99


DAMAGE: list[tuple[str, Callable[[Path], object], str]] = [
    ("hex mask", lambda s: edit(s, set_player_mask), "players: '1': not [fingerprint, hex mask]"),
    ("files entry", lambda s: edit(s, set_files_entry),
     "files: 'index.html': not [sha256, size]"),
    ("periods", lambda s: edit(s, drop_period), "periods: not a list of [label, state]"),
    ("events", lambda s: edit(s, set_events), "events: not an object"),
    ("complete", lambda s: edit(s, set_complete), "complete: not true or false"),
    ("format", lambda s: edit(s, set_format),
     "written by another version of ratings (format 99, this one writes 1)"),
    ("truncated", lambda s: (s / MANIFEST).write_bytes((s / MANIFEST).read_bytes()[:100]),
     "not valid JSON"),
    ("binary", lambda s: (s / MANIFEST).write_bytes(b"\xff\xfe\x00garbage"), "not valid JSON"),
    ("not an object", lambda s: (s / MANIFEST).write_text("[1, 2]"), "not a JSON object"),
    ("not ours", lambda s: (s / MANIFEST).write_text('{"generator": "other"}'),
     "not written by ratings"),
]  # fmt: skip


@pytest.mark.parametrize(("how", "damage", "problem"), DAMAGE, ids=[d[0] for d in DAMAGE])
def test_a_damaged_manifest_is_one_error(
    club_db: Path, site: Path, how: str, damage: Callable[[Path], None], problem: str
) -> None:
    damage(site)
    before = site_files(site)
    result = run("publish", str(site), "--db", str(club_db), "--jobs", "1")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: '{site / MANIFEST}' is damaged ({problem}); use --force to rebuild the site "
        "from scratch\n"
    )
    assert site_files(site) == before


REBUILT = [d for d in DAMAGE if d[0] in ("hex mask", "format", "truncated")]


@pytest.mark.parametrize(("how", "damage", "problem"), REBUILT, ids=[d[0] for d in REBUILT])
def test_force_rebuilds_the_site_from_scratch(
    club_db: Path,
    site: Path,
    fresh: dict[str, bytes],
    how: str,
    damage: Callable[[Path], None],
    problem: str,
) -> None:
    damage(site)
    (site / "index.html").write_text("stale")  # rewritten, whatever the damaged manifest said
    out = ok("publish", str(site), "--db", str(club_db), "--jobs", "1", "--force")
    assert out.startswith(f"Published {site / 'index.html'}: ")
    assert site_files(site) == fresh
    # and it is a site again: the next publish has nothing to write
    again = ok("publish", str(site), "--db", str(club_db), "--jobs", "1")
    assert again.endswith(
        f"0 file(s) written, 14 unchanged, 0 deleted ({len(fresh) - 1} in the site)\n"
    )


# --- the target holds the database ------------------------------------------------------


@pytest.mark.parametrize("name", ["index.html", "players/1.html", "lists/2026-01.csv"])
def test_a_target_that_holds_the_database_is_refused_before_anything_is_written(
    club_db: Path, tmp_path: Path, name: str
) -> None:
    site = tmp_path / "site"
    db = site / name
    db.parent.mkdir(parents=True)
    shutil.copyfile(club_db, db)
    before = site_files(site)
    result = run("publish", str(site), "--force", "--db", str(db), "--jobs", "1")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: '{site / name}' is the database or its journal, and publish would write a "
        "page of that name; publish elsewhere\n"
    )
    assert site_files(site) == before
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == sorted(
        {name, *(str(Path(name).parent) for _ in [1] if "/" in name)}
    )
