"""Putting a published site in place: the pages a publish wrote wait as temporary files
(:class:`Staged`) until every one is written, then :func:`commit` renames them in an order
that keeps every link of the site whole at every moment (docs/RELIABILITY.md)."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from typing import Protocol

from ratings.errors import OutputFileError

__all__ = ["ENTRY_PAGES", "Placed", "Staged", "commit"]

ENTRY_PAGES = ("calculators.html", "events.html", "players.html", "index.html")
"""The pages a visitor starts from, renamed into place after every other page, in this
order (``index.html`` last)."""


class Placed(Protocol):
    """What :func:`commit` asks of a folder being written
    (:class:`ratings.site.output.SiteFolder`): a protocol, so that this module need not
    import the one that calls it."""

    state: str

    @property
    def built_beside(self) -> bool: ...

    def rename(self, phase: int) -> None: ...

    def complete(self) -> None: ...

    def cannot(self, exc: OSError, verb: str = ...) -> OutputFileError: ...


class Staged:
    """The pages written as temporary files and not yet renamed into place, by key
    (``folder/name``); thread-safe (the writer threads add to it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._order = itertools.count()
        self._pages: dict[str, tuple[int, str]] = {}

    def next_order(self) -> int:
        """A number that orders the pages as they were handed over."""
        with self._lock:
            return next(self._order)

    def add(self, key: str, tmp: str, order: int | None = None) -> str | None:
        """Note ``tmp`` as the page ``key`` handed over as number ``order`` (None: now);
        return the temporary file no longer wanted (a page handed over twice keeps the
        later one), if any."""
        with self._lock:
            if order is None:
                order = next(self._order)
            earlier = self._pages.get(key)
            if earlier is not None and earlier[0] > order:
                return tmp
            self._pages[key] = (order, tmp)
            return earlier[1] if earlier is not None else None

    def take(self) -> dict[str, str]:
        """Every page noted (``key -> temporary name``), forgotten here."""
        with self._lock:
            pages = {key: tmp for key, (_, tmp) in self._pages.items()}
            self._pages.clear()
        return pages

    def pop(self, key: str) -> str:
        """The temporary name of ``key``, forgotten here."""
        with self._lock:
            return self._pages.pop(key)[1]

    def phase(self, phase: int, existing: set[str]) -> list[str]:
        """The pages renamed in ``phase``, in order: 0 the pages new to the folder (not in
        ``existing``), 1 those that replace a file, 2 :data:`ENTRY_PAGES`."""
        with self._lock:
            if phase == 2:
                return [key for key in ENTRY_PAGES if key in self._pages]
            return sorted(
                key
                for key in self._pages
                if key not in ENTRY_PAGES and (key in existing) == (phase == 1)
            )


def commit(folders: Sequence[Placed]) -> None:
    """Put the sites written into ``folders`` in place (each
    :meth:`~ratings.site.output.SiteFolder.finish` ran without committing): the sites of
    one publish, the lists' sites inside the standard one first and the folder that holds
    them last.

    At every moment every link resolves: first the pages that are new to their folder
    (nothing links to them yet), then the new sites built beside their folder (each
    renamed in as a whole; the pages they link to are there), then the pages that
    change, then the pages a visitor starts from (:data:`ENTRY_PAGES`, ``index.html`` of
    the last folder last). Then each folder deletes what it no longer publishes and gets
    its manifest; a site withdrawn (the list no longer published) goes whole, its manifest
    and folder too, now that no page links to it.

    :raises OutputFileError: when a file cannot be renamed or deleted.
    """
    folder = folders[0]
    try:
        for folder in folders:
            folder.state = "committing"
        for folder in folders:
            if not folder.built_beside:
                folder.rename(0)
        for folder in folders:
            if folder.built_beside:
                folder.complete()
        for phase in (1, 2):
            for folder in folders:
                if folder.state != "done":
                    folder.rename(phase)
        for folder in folders:
            if folder.state != "done":
                folder.complete()
    except OSError as exc:
        raise folder.cannot(exc) from exc
