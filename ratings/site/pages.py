"""What every page renderer shares: the data of a publish (:class:`Shared`, sent to the
worker processes), the Jinja2 environment, and :class:`Pages`, the base of the list, player
and event renderers (the escaped names, the common template values)."""

from __future__ import annotations

import bisect
import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from ratings import __version__
from ratings.service.reading import publish as data
from ratings.site.data_json import JsonTexts
from ratings.site.downloads import DownloadTexts
from ratings.site.output import SiteFolder

__all__ = ["Linked", "Pages", "Shared", "environment", "linked_prefix", "list_title"]


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("ratings.site", "templates"),
        autoescape=True,  # every page is HTML: every value is escaped, in text and attributes
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


def list_title(time_control: str) -> str:
    """What the site calls its list: "Rating list" (standard), "Rapid rating list", ..."""
    return (
        "Rating list" if time_control == "standard" else f"{time_control.capitalize()} rating list"
    )


@dataclass(frozen=True, slots=True)
class Shared:
    """What every part of a publish needs (picklable: sent to the worker processes)."""

    periods: Sequence[data.SitePeriod]
    register: dict[int, data.SitePlayer]
    events: dict[int, data.SiteEvent]
    site_title: str
    system: str
    window: int
    pending: str | None
    url: str
    directory: Path
    identity: tuple[int, int]
    database: Path | None
    time_control: str = "standard"
    """The list the site shows."""
    linked: tuple[Linked, ...] = ()
    """The other lists of a site that holds several (``publish DIR --list all``)."""
    show_birth_year: bool = False
    """``publish --show-birth-year``: the birth years (and a player page's sex) are
    published; off, no page or download holds a birth year (the age categories of the top
    lists are still made from them)."""


@dataclass(frozen=True, slots=True)
class Linked:
    """Another list's site beside this one (``publish DIR --list all``: the standard list's
    site in DIR, the rapid and blitz lists' in DIR/rapid and DIR/blitz)."""

    time_control: str
    prefix: str
    """From this site's folder to that one's: ``rapid/``, ``../``, ``../blitz/``."""
    ratings: dict[int, int | None]
    """The players with a page there: id -> their rating on its newest list (None: not
    rated there)."""
    names: dict[int, str] = dataclasses.field(default_factory=dict)
    """The same players' names (the search box of this site finds them there)."""


def linked_prefix(here: str, there: str) -> str:
    """The way from the folder of the list ``here``'s site to that of ``there``'s, in a site
    that holds several lists (the standard one at the top, the others in folders named
    after them)."""
    up = "" if here == "standard" else "../"
    return up if there == "standard" else f"{up}{there}/"


class Pages:
    """Renders pages into the output folder: the state the renderers share."""

    def __init__(self, env: jinja2.Environment, out: SiteFolder, shared: Shared) -> None:
        self.out = out
        self.env = env
        self.shared = shared
        self.periods = shared.periods
        self.index = {p.id: i for i, p in enumerate(shared.periods)}
        self.by_id = {p.id: p for p in shared.periods}
        self.register = shared.register
        # what the pages and downloads may show of the register: without the birth years
        # unless the administrator publishes them
        self.public = (
            shared.register
            if shared.show_birth_year
            else {
                pid: dataclasses.replace(p, birth_year=None) for pid, p in shared.register.items()
            }
        )
        self.events = shared.events
        self.time_control = shared.time_control
        self.list_title = list_title(shared.time_control)
        self.common = {
            "site_title": shared.site_title, "system": shared.system, "version": __version__,
            "list_title": self.list_title,
            "list_name": "" if shared.time_control == "standard" else shared.time_control,
            "show_birth_year": shared.show_birth_year,
            "other_sites": [
                (f"{x.time_control.capitalize()} list", x.prefix) for x in shared.linked
            ],
        }  # fmt: skip
        # each name escaped once, not once per row (ratings.site.rows)
        self.names = {pid: escape(p.name) for pid, p in shared.register.items()}
        self.event_names = {eid: escape(e.name) for eid, e in shared.events.items()}
        self.labels = {p.id: escape(p.label) for p in shared.periods}
        self._escaped: dict[str | None, Markup] = {}
        self.t_list = env.get_template("list.html.j2")
        self.t_player = env.get_template("player.html.j2")
        self.t_event = env.get_template("event.html.j2")
        self.t_top = env.get_template("top.html.j2")
        self.rendered = 0

    @functools.cached_property
    def _json_texts(self) -> JsonTexts:
        """The JSON of the names and labels the data files share (made once each)."""
        return JsonTexts(self.events, self.public)

    @functools.cached_property
    def _download_texts(self) -> DownloadTexts:
        """The register's cells of the lists' CSV and TXT lines (made once each)."""
        return DownloadTexts(self.public)

    def _html(self, text: str | None) -> Markup:
        """``text`` escaped, remembered (titles, federations, rounds, flags: few values)."""
        found = self._escaped.get(text)
        if found is None:
            found = self._escaped[text] = escape(text or "")
        return found

    def _name(self, player_id: int) -> Markup:
        found = self.names.get(player_id)
        return found if found is not None else escape(f"#{player_id}")

    def _titled(self, name: str) -> str:
        """A player's or event's page title: the name, and which list unless standard."""
        return name if self.time_control == "standard" else f"{name} ({self.time_control} list)"

    def _tick(self, kind: str) -> None:
        self.rendered += 1

    def _rated_in(self, e: data.SiteEvent) -> tuple[str, str]:
        """The labels of the first and last periods that rate an event's games (the same for
        all but an event longer than 90 days), as the rate rated them
        (:func:`ratings.service.reading.publish.event_periods`); empty when this list has no such
        period."""
        labels = []
        for day in (e.rated_from, e.rated_to):
            period = None if day is None else self._period_of(day)
            labels.append(period.label if period is not None else "")
        return labels[0], labels[1]

    def _period_of(self, day: Any) -> data.SitePeriod | None:
        """The period whose days hold ``day`` (periods do not overlap; oldest first)."""
        at = bisect.bisect_right(self._starts, day) - 1
        if at >= 0 and day <= self.periods[at].end:
            return self.periods[at]
        return None

    @functools.cached_property
    def _starts(self) -> list[Any]:
        return [p.start for p in self.periods]
