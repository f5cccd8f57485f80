"""A site's settings, kept in its folder: the title and the list a
publish used, so that the next ``publish DIR`` without ``--title`` or ``--list`` publishes
the same site (and rewrites only what changed).

They live in the manifest (:data:`ratings.site.output.MANIFEST`): the list under ``list``
(which also keeps another list out of the folder, :func:`ratings.site.build.check_site_list`)
and the title under ``settings``. A value that is not one a publish could have written
(another type, a blank or over-long title) is not used: the default is.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ratings import limits, rules
from ratings.errors import LimitError

__all__ = [
    "ALL_LISTS",
    "DEFAULT_LIST",
    "DEFAULT_TITLE",
    "SiteSettings",
    "held_list",
    "manifest_settings",
    "resolve",
]

DEFAULT_TITLE = "Ratings"
DEFAULT_LIST = "standard"
ALL_LISTS = "all"
"""``publish DIR --list all``: one site of every list published."""

_MANIFEST_LIMIT = 256 * 2**20
"""The most of a manifest read (as the folder's own reader does)."""


@dataclass(frozen=True, slots=True)
class SiteSettings:
    """What a site is published with."""

    title: str
    time_control: str
    """The list the site shows: standard, rapid or blitz; ``all``: every list published,
    the standard one in DIR and the others in DIR/rapid and DIR/blitz."""
    show_birth_year: bool = False
    """``publish --show-birth-year``: the birth years are published (kept until
    ``--hide-birth-year``)."""


def manifest_settings(settings: SiteSettings) -> dict[str, Any]:
    """The manifest's ``settings`` entry for ``settings`` (the list has its own key; a site
    of every list says so, ``"lists": "all"``)."""
    entry: dict[str, Any] = {"title": settings.title}
    if settings.time_control == ALL_LISTS:
        entry["lists"] = ALL_LISTS
    if settings.show_birth_year:
        entry["birth_years"] = True
    return entry


def resolve(
    directory: Path,
    *,
    title: str | None,
    time_control: str | None,
    show_birth_year: bool | None = None,
) -> SiteSettings:
    """The settings of a publish into ``directory``: each option given, else the value the
    folder's previous publish stored, else the default (``Ratings``, the standard list, no
    birth years).

    Reads the manifest only (nothing is created or written); a folder without one, or one
    that cannot be read, gives the defaults (opening the folder reports its problems).
    """
    stored = _read(directory / ".ratings-site.json")
    if title is None:
        title = _title(stored.get("settings")) or DEFAULT_TITLE
    if time_control is None:
        every = isinstance(stored.get("settings"), dict) and (
            stored["settings"].get("lists") == ALL_LISTS
        )
        time_control = ALL_LISTS if every else (_list(stored) or DEFAULT_LIST)
    if show_birth_year is None:
        kept = stored.get("settings")
        show_birth_year = isinstance(kept, dict) and kept.get("birth_years") is True
    return SiteSettings(title, time_control, show_birth_year)


def held_list(directory: Path) -> str | None:
    """The list whose complete site ``directory`` holds (by its manifest; nothing is
    written); None: no site, a half-written one, or a manifest that cannot be read."""
    return _list(_read(directory / ".ratings-site.json"))


def _read(path: Path) -> dict[str, Any]:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return {}
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return {}
        raw = f.read(_MANIFEST_LIMIT)
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    if not isinstance(data, dict) or data.get("generator") != "ratings":
        return {}
    return data


def _title(settings: object) -> str | None:
    if not isinstance(settings, dict):
        return None
    value = settings.get("title")
    if not isinstance(value, str):
        return None
    try:
        checked = limits.check_text(value.strip(), limits.MAX_NAME_LENGTH)
    except LimitError:
        return None
    return checked or None


def _list(stored: dict[str, Any]) -> str | None:
    value = stored.get("list")
    if stored.get("complete") is not True or not isinstance(value, str):
        return None
    try:
        return rules.time_control(value).value
    except rules.InvalidTimeControlError:
        return None
