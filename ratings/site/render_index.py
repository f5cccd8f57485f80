"""The way in to everyone: ``players.html`` (every player the site has a page
for, rated or not, with the ratings of the newest lists), ``events.html`` (every event), the
search box's index (``assets/players-index.js``) and a page for each merged-away record at
its old address, pointing to the record it was merged into.

These pages are rendered by every publish (one page each, a few milliseconds for thousands
of players) and written only when their bytes changed, so that what they show (a new
player, a merge, a new event, a new list) is always current without a dependency of its own
in the incremental plan (:mod:`ratings.site.plan`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from markupsafe import Markup, escape
from sqlalchemy.orm import Session

from ratings.matching import fold, sort_key
from ratings.service.reading import publish as data
from ratings.site.pages import Linked, Pages
from ratings.site.search import fold_table

__all__ = [
    "LISTS",
    "NEWEST_RATINGS",
    "IndexPages",
    "by_name",
    "newest_ratings_script",
    "search_index",
]

LISTS = ("standard", "rapid", "blitz")


def by_name(register: dict[int, data.SitePlayer]) -> list[int]:
    """The ids of ``register`` in the order of their names (the matcher's sort key)."""
    return sorted(register, key=lambda i: (sort_key(register[i].name), i))


def search_index(
    register: dict[int, data.SitePlayer],
    order: list[int] | None = None,
    linked: Sequence[Linked] = (),
) -> str:
    """The search box's index, a script that sets ``window.ratingsIndex``: the table that
    folds a typed query (:func:`ratings.site.search.fold_table`, from the matcher's own
    folding) and every player as ``[id, name, forms]``, ``forms`` being the folded forms of
    the name (:func:`ratings.matching.fold`) as words joined by spaces, forms by ``|``.
    ``order``: :func:`by_name` of ``register``, when known.

    In a site of several lists (``linked``: the other lists' sites), the players with no
    page on this one follow as ``[id, name, forms, prefix]``, ``prefix`` the way to the
    first other site that has their page: the box finds every player from any of them."""
    players: list[list[object]] = []
    names = []
    for pid in by_name(register) if order is None else order:
        name = register[pid].name
        names.append(name)
        forms = "|".join(" ".join(form) for form in fold(name).forms)
        players.append([pid, name, forms])
    elsewhere: dict[int, tuple[str, str]] = {}
    for other in linked:
        for pid, name in other.names.items():
            if pid not in register:
                elsewhere.setdefault(pid, (name, other.prefix))
    for pid in sorted(elsewhere, key=lambda i: (sort_key(elsewhere[i][0]), i)):
        name, prefix = elsewhere[pid]
        names.append(name)
        forms = "|".join(" ".join(form) for form in fold(name).forms)
        players.append([pid, name, forms, prefix])
    if elsewhere:  # one order by name, whichever site has the page
        players.sort(key=lambda p: (sort_key(str(p[1])), int(str(p[0]))))
    body = json.dumps(
        {"fold": fold_table(names), "players": players},
        ensure_ascii=True,
        separators=(",", ":"),
        sort_keys=True,
    )
    # ensure_ascii leaves no line separator; nothing in it can end a script either
    body = body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    head = "/* ratings publish: the players the search box finds */\n"
    return f"{head}window.ratingsIndex = {body};\n"


NEWEST_RATINGS = "assets/newest-ratings.js"


def newest_ratings_script(ratings: dict[int, int | None]) -> bytes:
    """``assets/newest-ratings.js``: the rating of each player on this site's newest list
    (id -> rating), for the calculators' "find an opponent by name" (the names and their
    folding are the search box's index); loaded only when that box is used."""
    rated = {str(pid): r for pid, r in sorted(ratings.items()) if r is not None}
    body = json.dumps(rated, separators=(",", ":"))
    head = "/* ratings publish: the newest list's ratings */\n"
    return f"{head}window.ratingsNewest = {body};\n".encode()


def _cell(value: object) -> str:
    return "" if value is None else str(escape(str(value)))


class IndexPages(Pages):
    """Renders the players and events pages, the search index and the merged records."""

    def index_pages(self, session: Session) -> None:
        t_players = self.env.get_template("players.html.j2")
        t_events = self.env.get_template("events.html.j2")
        t_merged = self.env.get_template("merged.html.j2")
        ratings: dict[str, dict[int, int | None]] = {
            self.time_control: dict(data.newest_ratings(session, self.time_control))
        }
        ratings.update((x.time_control, x.ratings) for x in self.shared.linked)
        published = [tc for tc in LISTS if tc in ratings]  # the lists this site holds
        rows = []
        order = by_name(self.register)
        for pid in order:
            p = self.public[pid]
            cells = "".join(f"<td>{_cell(ratings[tc].get(pid))}</td>" for tc in published)
            rows.append(
                f'<tr><th scope="row"><a href="players/{int(pid)}.html">{self._name(pid)}</a>'
                f"</th><td>{self._html(p.title)}</td><td>{self._html(p.federation)}</td>"
                f"<td>{_cell(p.birth_year)}</td>{cells}</tr>\n"
            )
        merged = [
            (old, name, kept, self.register[kept].name)
            for old, (kept, name) in sorted(data.merged_players(session).items())
            if kept in self.register
        ]
        page = t_players.render(
            self.common, root="", title="Players", rows=Markup("".join(rows)),
            count=len(rows), lists=published, merged=merged,
        )  # fmt: skip
        self.out.put("players.html", page.encode("utf-8"))
        for old, name, kept, kept_name in merged:
            page = t_merged.render(
                self.common, root="../", title=self._titled(name), name=name, old=old,
                kept=kept, kept_name=kept_name,
            )  # fmt: skip
            self.out.put(f"players/{old}.html", page.encode("utf-8"))
        self.out.put(
            "assets/players-index.js",
            search_index(self.register, order, self.shared.linked).encode("utf-8"),
        )
        self.out.put(NEWEST_RATINGS, newest_ratings_script(ratings[self.time_control]))

        counts = data.event_counts(session, self.events)
        events = sorted(self.events.values(), key=lambda e: (e.end_date, e.id), reverse=True)
        lines = []
        for e in events:
            label, _ = self._rated_in(e)
            # each date kept on one line when a phone wraps the cell; sorted by the end
            # date, the order the page starts in
            dates = (
                f"<time>{e.start_date.isoformat()}</time>"
                if e.start_date == e.end_date
                else f"<time>{e.start_date.isoformat()}</time> to "
                f"<time>{e.end_date.isoformat()}</time>"
            )
            count = counts[e.id]
            period_cell = (
                f'<a href="lists/{escape(label)}.html">{escape(label)}</a>' if label else ""
            )
            lines.append(
                f'<tr><th scope="row"><a href="events/{int(e.id)}.html">{self.event_names[e.id]}'
                f'</a></th><td data-sort="{e.end_date.isoformat()}">{dates}</td>'
                f"<td>{period_cell}</td>"
                f"<td>{escape(self.time_control)}</td><td>{count.players}</td>"
                f"<td>{count.games}</td></tr>\n"
            )
        page = t_events.render(
            self.common, root="", title="Events", rows=Markup("".join(lines)), count=len(lines)
        )
        self.out.put("events.html", page.encode("utf-8"))
