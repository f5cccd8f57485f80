"""The folder a publish writes (:class:`ratings.site.output.SiteFolder`): what it does to the
process around its writer threads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ratings.site import output, placing
from ratings.site.output import SiteFolder


def test_the_switch_interval_is_short_while_the_writers_run_and_restored_after(
    tmp_path: Path,
) -> None:
    before = sys.getswitchinterval()
    with SiteFolder(tmp_path / "site", force=False, database=None) as out:
        assert sys.getswitchinterval() == before  # no writer yet: untouched
        out.put("index.html", b"<!doctype html>\n")
        assert sys.getswitchinterval() == pytest.approx(min(before, output._SWITCH_INTERVAL))
        out.finish({}, delete=())
    assert sys.getswitchinterval() == before
    assert (tmp_path / "site" / "index.html").read_bytes() == b"<!doctype html>\n"


def test_the_switch_interval_is_restored_after_a_refused_write(tmp_path: Path) -> None:
    before = sys.getswitchinterval()
    with SiteFolder(tmp_path / "site", force=False, database=None) as out:
        out.put("index.html", b"x")
        with pytest.raises(ValueError, match="not a site file name"):
            out.put("../outside.html", b"x")
        assert sys.getswitchinterval() != before
    assert sys.getswitchinterval() == before
    assert not (tmp_path / "outside.html").exists()


# --- a site put in place whole ------------------------------------------------------------


def _names(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


class Boom(Exception):
    pass


def _fail(out: SiteFolder, pages: dict[str, bytes]) -> None:
    """Write ``pages``, then fail as a publish does half-way."""
    for key, data in pages.items():
        out.put(key, data)
    out.flush()
    raise Boom


def test_a_new_site_appears_whole_when_it_is_complete(tmp_path: Path) -> None:
    """Built in a folder of its own beside DIR; DIR (made empty at the start, to hold the
    lock) gets the pages only with the rename of that folder onto it."""
    site = tmp_path / "site"
    with SiteFolder(site, force=False, database=None) as out:
        assert out.built_beside
        assert out.workdir.parent == tmp_path
        assert out.workdir.name.startswith(".site.ratings-tmp-")
        out.put("index.html", b"<!doctype html>\n")
        out.put("players/1.html", b"one\n")
        out.flush()
        assert _names(site) == []
        out.finish({"complete": True}, delete=())
    assert _names(tmp_path) == [
        "site",
        "site/.ratings-site.json",
        "site/assets",
        "site/events",
        "site/index.html",
        "site/lists",
        "site/players",
        "site/players/1.html",
    ]


def test_a_new_site_that_fails_leaves_nothing(tmp_path: Path) -> None:
    site = tmp_path / "site"
    with pytest.raises(Boom), SiteFolder(site, force=False, database=None) as out:
        _fail(out, {"index.html": b"<!doctype html>\n"})
    assert _names(tmp_path) == []


def test_an_empty_folder_that_fails_stays_empty_and_keeps_its_mode(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir(mode=0o750)
    site.chmod(0o750)
    with pytest.raises(Boom), SiteFolder(site, force=False, database=None) as out:
        _fail(out, {"index.html": b"x"})
    assert _names(tmp_path) == ["site"]
    with SiteFolder(site, force=False, database=None) as out:
        out.put("index.html", b"x")
        out.finish({"complete": True}, delete=())
    assert (site / "index.html").read_bytes() == b"x"
    assert site.stat().st_mode & 0o777 == 0o750


def test_an_earlier_killed_publish_is_cleared_away(tmp_path: Path) -> None:
    """What a kill leaves: DIR empty, and the new site's folder of a process that ended."""
    site = tmp_path / "site"
    site.mkdir()
    dead = _dead_pid()
    left = tmp_path / f".site.ratings-tmp-{dead}-abcd"
    (left / "players").mkdir(parents=True)
    (left / "players" / "1.html").write_bytes(b"half")
    (site / f".index.html.ratings-tmp-{dead}-ef01").write_bytes(b"half")
    with SiteFolder(site, force=False, database=None) as out:
        assert out.built_beside
        out.put("index.html", b"x")
        out.finish({"complete": True}, delete=())
    assert [n for n in _names(tmp_path) if "ratings-tmp" in n] == []


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(proc.stdout)


@pytest.fixture
def existing(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    with SiteFolder(site, force=False, database=None) as out:
        for key in ("index.html", "players.html", "players/1.html", "lists/2026-01.html"):
            out.put(key, b"old " + key.encode())
        out.finish({"complete": True}, delete=())
    return site


def test_pages_go_in_place_new_ones_first_index_last(
    existing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New pages first (nothing links to them yet), then the pages that change, then the
    pages a visitor starts from (index.html last), the deletions, the manifest."""
    done: list[str] = []
    real_replace = os.replace

    def replace(src: object, dst: object, **kw: object) -> None:
        done.append(str(dst))
        real_replace(src, dst, **kw)  # type: ignore[arg-type]  # the os.replace signature

    def unlink(name: object, **kw: object) -> None:
        done.append(f"-{name}")
        real_unlink(name, **kw)  # type: ignore[arg-type]  # the os.unlink signature

    real_unlink = os.unlink
    with SiteFolder(existing, force=False, database=None) as out:
        assert not out.built_beside
        for key in ("index.html", "players.html", "players/1.html", "players/2.html"):
            out.put(key, b"new " + key.encode())
        out.put("lists/2026-02.html", b"new")
        out.flush()
        assert (existing / "index.html").read_bytes() == b"old index.html"
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "unlink", unlink)
        out.finish({"complete": True}, delete=["lists/2026-01.html"])
    assert done == [
        "2026-02.html",
        "2.html",
        "1.html",
        "players.html",
        "index.html",
        "-2026-01.html",
        ".ratings-site.json",
    ]
    assert (existing / "index.html").read_bytes() == b"new index.html"


def test_an_existing_site_that_fails_stays_as_it_was(existing: Path) -> None:
    before = {n: (existing / n).read_bytes() for n in _names(existing) if (existing / n).is_file()}
    with pytest.raises(Boom), SiteFolder(existing, force=False, database=None) as out:
        _fail(out, {"index.html": b"new", "players/2.html": b"new"})
    after = {n: (existing / n).read_bytes() for n in _names(existing) if (existing / n).is_file()}
    assert after == before


def test_the_sites_of_every_list_go_in_place_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``publish --list all``: the new pages of every site, then a site new to its folder
    as a whole, then the changed pages of every site, then the entry pages, the folder
    that holds the others last."""
    top_path = tmp_path / "site"
    with SiteFolder(top_path, force=False, database=None) as out:
        out.put("index.html", b"old")
        out.put("players/1.html", b"old")
        out.finish({"complete": True}, delete=())
    done: list[str] = []
    real_replace, real_rename = os.replace, os.rename

    def replace(src: object, dst: object, **kw: object) -> None:
        done.append(str(dst))
        real_replace(src, dst, **kw)  # type: ignore[arg-type]  # the os.replace signature

    def rename(src: object, dst: object, **kw: object) -> None:
        done.append(f"{dst}/")
        real_rename(src, dst, **kw)  # type: ignore[arg-type]  # the os.rename signature

    with (
        SiteFolder(top_path, force=False, database=None, hold=True) as top,
        SiteFolder(top_path / "rapid", force=False, database=None, hold=True) as rapid,
    ):
        assert rapid.built_beside
        for out in (top, rapid):
            out.put("index.html", b"new")
            out.put("players/1.html", b"new")
            out.put("players/2.html", b"new")
        for out in (rapid, top):
            out.finish({"complete": True}, delete=())
            assert _names(top_path / "rapid") == []
        assert (top_path / "index.html").read_bytes() == b"old"
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "rename", rename)
        placing.commit([rapid, top])
    monkeypatch.undo()
    assert done == [
        "2.html",  # the top site's new page
        "1.html",  # the rapid site, built beside, then put in place whole
        "2.html",
        "index.html",
        ".ratings-site.json",
        "rapid/",
        "1.html",  # the top site's changed page
        "index.html",
        ".ratings-site.json",
    ]
    assert (top_path / "rapid" / "players" / "2.html").read_bytes() == b"new"
    assert [p.name for p in tmp_path.rglob("*") if ".ratings-tmp-" in p.name] == []


def test_a_symlink_to_an_empty_folder_stays_a_symlink(tmp_path: Path) -> None:
    """The new site replaces the folder the link points to; the link is left as it is."""
    real = tmp_path / "www"
    real.mkdir()
    link = tmp_path / "site"
    link.symlink_to(real)
    with SiteFolder(link, force=False, database=None) as out:
        assert out.built_beside
        assert out.workdir.parent == tmp_path
        out.put("index.html", b"x")
        out.finish({"complete": True}, delete=())
    assert link.is_symlink()
    assert (real / "index.html").read_bytes() == b"x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "www"]
