"""The list pages: one per published period (and the index, the newest list), with the
inactivity and new-player flags and the downloads beside each."""

from __future__ import annotations

from collections.abc import Collection

from markupsafe import Markup
from sqlalchemy.orm import Session

from ratings.rules import Period
from ratings.service.reading import publish as data
from ratings.service.shared.config import get_config
from ratings.site.cells import signed, trend
from ratings.site.data_json import list_json
from ratings.site.downloads import list_csv, list_txt, sealed_csv
from ratings.site.render_top import TopPages
from ratings.site.rows import list_row

__all__ = ["ListPages"]


class ListPages(TopPages):
    """Renders the list pages (and the top lists beside each, :class:`TopPages`)."""

    def lists(
        self,
        session: Session,
        wanted: Collection[int],
        window: int,
        pending: str | None,
        *,
        index: bool = True,
    ) -> None:
        """Render the lists of the periods ``wanted`` (pages and downloads) and, with
        ``index``, the index page (the newest list)."""
        newest = self.periods[-1]
        # the newest list's page says when the next one is due: the day after the period
        # that follows the newest one
        months = get_config(session).period_months
        due = Period(newest.list_date, months).list_date.isoformat()
        active = data.active_players(session, self.time_control)
        last_active: dict[int, int] = {}
        inactive_at: dict[int, set[int]] = {}
        render = set(wanted) | ({newest.id} if index else set())
        for i, p in enumerate(self.periods):
            for pid in active.get(p.id, ()):
                last_active[pid] = i
            if p.id in render:
                if i + 1 < window:
                    inactive_at[p.id] = set()  # too little history to tell
                else:
                    inactive_at[p.id] = {
                        pid for pid in self.register if last_active.get(pid, -1) <= i - window
                    }
        for period_id, entries in data.list_rows(session, render, self.time_control):
            p = self.by_id[period_id]
            rows = sorted(
                (e for e in entries if e.player_id in self.register),
                key=lambda e: (
                    -(e.rating or 0),
                    self.register[e.player_id].name.lower(),
                    e.player_id,
                ),
            )
            flagged = [(e, self._flags(e, inactive_at[period_id])) for e in rows]
            i = self.index[period_id]
            previous = self.periods[i - 1].label if i > 0 else None
            following = self.periods[i + 1].label if i + 1 < len(self.periods) else None
            context = {
                **self.common,
                "period": p.label,
                "list_date": p.list_date.isoformat(),
                "previous": previous,
                "pending": pending if pending is not None and pending <= p.label else None,
                "count": len(flagged),
                "next_date": due if period_id == newest.id else None,
            }
            if period_id in wanted:
                page = self.t_list.render(
                    context, root="../", rows=self._list_rows("../", flagged),
                    title=f"{self.list_title} {p.label}",
                    heading=f"{self.list_title} {p.label}", lists=(), following=following,
                )  # fmt: skip
                self.out.put(f"lists/{p.label}.html", page.encode("utf-8"))
                texts = self._download_texts
                csv = list_csv(flagged, self.public, texts, p.seal)
                self.out.put(f"lists/{p.label}.csv", csv.encode("utf-8"))
                self.out.put(f"lists/{p.label}-sealed.csv", sealed_csv(flagged).encode("ascii"))
                self.out.put(
                    f"lists/{p.label}.txt",
                    list_txt(flagged, self.public, p, self.time_control, texts).encode("utf-8"),
                )
                self.out.put(
                    f"lists/{p.label}.json",
                    list_json(
                        p,
                        self.time_control,
                        flagged,
                        self.public,
                        inactive_at[period_id],
                        self._json_texts,
                    ),
                )
                self.top_page(session, p, flagged, context)
                self._tick("lists")
            if index and period_id == newest.id:
                every = [(q.label, q.list_date.isoformat()) for q in reversed(self.periods)]
                page = self.t_list.render(
                    context, root="", rows=self._list_rows("", flagged),
                    title=self.list_title, heading=f"{self.list_title} {p.label}", lists=every,
                    following=None,
                )  # fmt: skip
                self.out.put("index.html", page.encode("utf-8"))

    def _flags(self, e: data.SiteListRow, inactive: set[int]) -> str:
        player = self.register[e.player_id]
        flag = ("w" if player.sex == "f" else "") + ("i" if e.player_id in inactive else "")
        return f"{flag} new".strip() if e.list_status == "first_rating" else flag

    def _list_rows(self, root: str, flagged: list[tuple[data.SiteListRow, str]]) -> Markup:
        """The list's table rows (see :mod:`ratings.site.rows` for why not cell by cell)."""
        register, html = self.public, self._html
        out = []
        for rank, (e, flags) in enumerate(flagged, 1):
            p = register[e.player_id]
            played = e.period_games > 0
            out.append(
                list_row(
                    root,
                    rank,
                    e.player_id,
                    self.names[e.player_id],
                    html(p.title),
                    html(p.federation),
                    p.birth_year,
                    e.rating,
                    "new"
                    if e.list_status == "first_rating"
                    else signed(e.change)
                    if played
                    else "",
                    trend(e.change if played and e.list_status != "first_rating" else 0),
                    e.period_games,
                    e.next_k,
                    html(flags),
                )
            )
        return Markup("".join(out))
