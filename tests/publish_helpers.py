"""Helpers for the publish tests: the demo database, running the CLI, reading a site."""

from __future__ import annotations

import atexit
import html.parser
import os
import posixpath
import re
import shutil
import tempfile
from pathlib import Path

from click.testing import Result

from tests import support

OUR_FILE = re.compile(
    r"\.ratings-site\.json|index\.html|calculators\.html|players\.html|events\.html|seals\.json"
    r"|players/[0-9]+\.html|events/[0-9]+\.html"
    r"|lists/[0-9]{4}-[0-9]{2}\.(html|csv|txt)|assets/[a-z0-9.-]+\.(css|js|txt)"
    r"|lists/[0-9]{4}-[0-9]{2}(\.json|-top\.(html|csv)|-sealed\.csv)|players/[0-9]+\.json"
)


def run(*args: str) -> Result:
    """The CLI with ``--db`` among ``args`` (:func:`tests.support.run`), stderr kept apart."""
    return support.run(None, *args)


def ok(*args: str) -> str:
    """The CLI's stdout; fails the test on a non-zero exit (:func:`tests.support.ok`)."""
    return support.ok(None, *args)


_DEMO: list[Path] = []


def demo(folder: Path) -> Path:
    """A demo database in ``folder``: built by ``ratings demo`` the first time in this
    process, a copy of that one afterwards (a database holds no path of its own)."""
    db = folder / "demo.db"
    if _DEMO:
        return copy_demo(_DEMO[0], folder)
    ok("demo", "--db", str(db))
    keep = Path(tempfile.mkdtemp(prefix="ratings-demo-"))
    atexit.register(shutil.rmtree, keep, ignore_errors=True)
    _DEMO.append(keep / "demo.db")
    shutil.copyfile(db, _DEMO[0])
    return db


def copy_demo(template: Path, folder: Path) -> Path:
    """A copy of a demo database (faster than building one)."""
    db = folder / "demo.db"
    shutil.copyfile(template, db)
    return db


def site_files(site: Path) -> dict[str, bytes]:
    """Every file of a site by its path relative to the site, symlinks not followed."""
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


class Page(html.parser.HTMLParser):
    """What the tests check in an HTML page: links, ids, header cells, the html tag."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.th: list[dict[str, str | None]] = []
        self.html_attrs: dict[str, str | None] = {}
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.text: list[str] = []
        self._script: dict[str, str | None] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.html_attrs = a
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
        link = a.get("src") or a.get("href")
        # a data: URL (the favicon) is in the page itself: no file to link to
        if tag in ("script", "link") and link and not str(link).startswith("data:"):
            self.links.append(str(link))
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "th":
            self.th.append(a)
        if tag == "script":
            self._script = a

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts.append((self._script, data))
        else:
            self.text.append(data)


ENTRY_PAGES = ("index.html", "players.html", "events.html", "calculators.html")
"""The pages a visitor starts from."""

_LINK = re.compile(rb'(?:href|src)="([^"]*)"')


def broken_links(site: Path) -> list[str]:
    """Every link of the site that leads to no file, as ``page -> target``: the pages a
    visitor can reach from the entry pages that are there, followed link by link (each
    ``href`` and ``src`` within the folder; anchors and queries left off)."""
    present: set[str] = set()
    for folder, _, names in os.walk(site):
        rel = Path(folder).relative_to(site).as_posix()
        present.update(n if rel == "." else f"{rel}/{n}" for n in names)
    todo = [page for page in ENTRY_PAGES if page in present]
    seen = set(todo)
    broken: list[str] = []
    while todo:
        page = todo.pop()
        for match in _LINK.finditer((site / page).read_bytes()):
            url = match.group(1).decode("utf-8")
            target = url.split("#", 1)[0].split("?", 1)[0]
            if not target or ":" in target or target.startswith("/"):
                continue
            key = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
            if key.startswith("../"):
                continue  # another list's site, checked on its own
            if key not in present:
                broken.append(f"{page} -> {url}")
            elif key.endswith(".html") and key not in seen:
                seen.add(key)
                todo.append(key)
    return sorted(broken)
