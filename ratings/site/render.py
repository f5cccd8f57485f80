"""The renderer of a publish: the list, player and event pages in one object that renders one
part of the plan (:class:`Job`) at a time, in this process or in a worker."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from ratings.site.render_events import EventPages
from ratings.site.render_index import IndexPages
from ratings.site.render_lists import ListPages
from ratings.site.render_players import PlayerPages

__all__ = ["Done", "Job", "Site"]


@dataclass(frozen=True, slots=True)
class Job:
    """A part of a publish: some lists, players or events."""

    kind: str
    """lists | players | events."""
    ids: Collection[int] | None
    """Period, player or event ids (a ``range`` for a span of ids); None: all."""
    size: int
    """Pages it renders (about), for progress and balancing."""
    index: bool = False
    """Lists only: also the index page."""


@dataclass(frozen=True, slots=True)
class Done:
    """What a part published."""

    rendered: int
    bits: dict[int, int]
    files: dict[str, list[Any]]
    written: int
    unchanged: int
    bytes_written: int
    staged: dict[str, str] = field(default_factory=dict)
    """The files written and not yet in place (``key -> temporary name``), for the
    process that holds the folder to rename (:mod:`ratings.site.placing`)."""


class Site(ListPages, PlayerPages, EventPages, IndexPages):
    """Renders pages into the output folder."""

    def run(self, session: Session, job: Job) -> Done:
        """Render one part of the plan."""
        self.rendered = 0
        bits: dict[int, int] = {}
        if job.kind == "lists":
            assert job.ids is not None
            self.lists(session, job.ids, self.shared.window, self.shared.pending, index=job.index)
        elif job.kind == "players":
            bits = self.players(session, job.ids)
        else:
            self.events_pages(session, job.ids)
        return Done(self.rendered, bits, {}, 0, 0, 0)
