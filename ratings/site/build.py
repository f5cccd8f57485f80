"""Building the static site: the entry point of a publish, which plans it, renders it and
writes the manifest.

The parts: :mod:`ratings.site.plan` (what to render), :mod:`ratings.site.pool` (the plan cut
into parts, the worker processes), :mod:`ratings.site.render` with
:mod:`~ratings.site.render_lists`, :mod:`~ratings.site.render_players` and
:mod:`~ratings.site.render_events` (the pages), :mod:`ratings.site.downloads` (a list's CSV
and TXT), :mod:`ratings.site.assets` and :mod:`ratings.site.cells` (how a value is written).

Pages (file names come from ids and period labels, never from names)::

    index.html               the newest list, links to every list
    players.html             every player, rated or not, and the merged records
    events.html              every event
    seals.json               the chain of the lists' seals (docs/SEALS.md)
    lists/YYYY-MM.html       each published list; .csv, .txt (FIDE's layout) and .json
                             beside it, YYYY-MM-sealed.csv (the rows its seal covers), and
                             YYYY-MM-top.html/.csv (top lists, improvers)
    players/ID.html          a player: details, chart, every period, calculation cards
                             (a merged-away record: a page that points to the one kept);
                             ID.json beside it (:mod:`ratings.site.data_json`)
    events/ID.html           an event: crosstable
    calculators.html         expected score, rating change, performance (ratings.site.calculators)
    assets/                  style sheet, scripts, the Vega bundle and its license;
                             newest.css, the newest list every chart runs to

**Incremental publishing.** The manifest (:data:`ratings.site.output.MANIFEST`) records, for
every published period, when it was last rated and its state; for every player a fingerprint
of their register entry and a bitmap of the periods that show on their page (a row in the
period table, a card, or a change of their K); for every event a fingerprint; and the hash of
every file. A later publish re-renders only

- the lists of periods rated since (new, or re-rated after a correction) and of the 12 months
  after them (the inactivity flag looks back 12 months), and every list when a register entry
  changed;
- the players whose register entry changed, who played in one of those periods, or whose
  bitmap (old or new) marks one of them, and the opponents of a changed player;
- the events rated in those periods, new or changed events, and the events of a changed
  player;
- the list before a new one (its "next list" link),
- any page whose file is missing,

and the players and events pages, the search index and the merged records' pages
(:mod:`ratings.site.render_index`) every time; it writes a rendered page only when its
bytes differ from the file's recorded hash. A page
whose period table would end with "unchanged since" stays byte-identical month after month:
runs of periods in which nothing happened are folded into one row, and nothing on a player's
page names the newest list. Anything else (another version of ratings, another title, a
period that disappeared) renders every page, still writing only those that changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratings import __version__, sealing
from ratings.errors import OutputFileError, PeriodError
from ratings.io import published
from ratings.rules import INACTIVE_MONTHS
from ratings.service.reading import publish as data
from ratings.service.shared.config import get_config
from ratings.service.shared.text import list_name
from ratings.site import chart, pool, svg_chart
from ratings.site.assets import VEGA, VEGA_LICENSE, write_assets
from ratings.site.calculators import write_calculators
from ratings.site.output import SiteFolder
from ratings.site.pages import Linked, Shared, environment, linked_prefix
from ratings.site.plan import (
    dirty_bits,
    event_fingerprint,
    period_key,
    plan_publish,
    player_fingerprint,
)
from ratings.site.render import Done, Job, Site
from ratings.site.settings import ALL_LISTS, SiteSettings, held_list, manifest_settings
from ratings.site.svg_chart import NEWEST

SEALS_FILE = published.SEALS_FILE

__all__ = ["PublishReport", "publish_site", "withdraw_site", "withdrawn_lists"]

_SYSTEMS = {
    "fide": "FIDE Rating Regulations",
    "club": "club system (FIDE rules, fixed start rating)",
    "elo": "Elo system (logistic curve, fixed K)",
}


@dataclass(frozen=True, slots=True)
class PublishReport:
    """What a publish did."""

    pages: int
    """Files the site holds now (pages, downloads and assets)."""
    written: int
    unchanged: int
    """Files rendered but identical to what was there (not rewritten)."""
    deleted: int
    bytes_written: int
    full: bool
    """Whether every page was rendered (a new site, or a change that touches all)."""
    players: int
    """Player pages rendered."""
    events: int
    lists: int
    pending: str | None
    """The oldest period corrections marked for re-rating, if any (published as it is)."""
    time_control: str = "standard"
    """The list the site shows; ``all`` for :meth:`joined` reports."""

    def joined(self, others: Sequence[PublishReport]) -> PublishReport:
        """This report and those of the other lists of a site of every list, added up."""
        every = (self, *others)
        return PublishReport(
            pages=sum(r.pages for r in every),
            written=sum(r.written for r in every),
            unchanged=sum(r.unchanged for r in every),
            deleted=sum(r.deleted for r in every),
            bytes_written=sum(r.bytes_written for r in every),
            full=all(r.full for r in every),
            players=sum(r.players for r in every),
            events=sum(r.events for r in every),
            lists=sum(r.lists for r in every),
            pending=next((r.pending for r in every if r.pending is not None), None),
            time_control="all",
        )


def _build_key(site_title: str, system: str, time_control: str = "standard") -> str:
    """What every page depends on besides the data: this version's templates and assets,
    the title, the rating system and the list the site shows."""
    parts: list[bytes] = [
        __version__.encode(),
        site_title.encode(),
        system.encode(),
        time_control.encode(),
    ]
    package = resources.files("ratings.site")
    for folder in ("templates", "static"):
        for entry in sorted(package.joinpath(folder).iterdir(), key=lambda e: e.name):
            if entry.is_file():
                parts += [entry.name.encode(), entry.read_bytes()]
    parts.append(chart.__doc__.encode() if chart.__doc__ else b"")
    parts.append(svg_chart.__doc__.encode() if svg_chart.__doc__ else b"")
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:32]


def site_periods(session: Session, time_control: str = "standard") -> list[data.SitePeriod]:
    """The periods whose lists a site of the list ``time_control`` shows (oldest first).

    :raises PeriodError: when there is none: no period rated yet, or none published that
        list (a club that never played blitz has no blitz list).
    :raises InvalidInputError: for a list other than standard, rapid or blitz.
    """
    time_control = list_name(time_control)
    periods = data.periods(session, time_control)
    if periods:
        return periods
    if time_control == "standard" or not data.periods(session):
        raise PeriodError("nothing to publish: no period has been rated yet; run 'ratings rate'")
    raise PeriodError(
        f"there is no {time_control} list to publish: no rated period published one (no "
        f"{time_control} game or {time_control} rating yet); nothing was written"
    )


def check_site_list(out: SiteFolder, time_control: str) -> None:
    """Refuse to publish one list into the folder of another list's site.

    A folder holds the site of one list (the manifest says which; a site of an older
    version, without the word, is the standard list's). Publishing the rapid list over the
    standard site would replace every page, which is far more likely a wrong folder than
    what was meant; a half-written site (a publish that was killed) is completed whatever its
    list.

    :raises OutputFileError: when ``out`` holds a complete site of another list.
    """
    old = out.old or {}
    if old.get("complete") is not True:
        return
    held = old.get("list", "standard")
    if held != time_control:
        raise OutputFileError(
            f"'{out.path}' holds the website of the {held} list; publish the {time_control} "
            "list into another folder (or delete this one first); nothing was written"
        )


def withdrawn_lists(directory: Path, lists: Sequence[str]) -> list[str]:
    """The lists of a site of every list in ``directory`` that are no longer published
    (not in ``lists``) but whose site is still in their subfolder (``DIR/rapid`` after
    every rapid list was withdrawn): :func:`withdraw_site` takes them away, as a publish
    into an empty folder would not write them. A subfolder that is a symlink, or that holds
    no complete site of its own list, is not one of them (nothing in it is touched)."""
    found: list[str] = []
    for other in ("rapid", "blitz"):
        folder = directory / other
        if other in lists or folder.is_symlink() or not folder.is_dir():
            continue
        if held_list(folder) == other:
            found.append(other)
    return found


def withdraw_site(out: SiteFolder) -> PublishReport:
    """Take away the site ``out`` holds: a list of a site of every list that is no longer
    published (:func:`withdrawn_lists`; :meth:`SiteFolder.withdraw`)."""
    time_control = str((out.old or {}).get("list", "standard"))
    out.withdraw()
    return PublishReport(
        pages=0, written=0, unchanged=0, deleted=out.deleted, bytes_written=0, full=True,
        players=0, events=0, lists=0, pending=None, time_control=time_control,
    )  # fmt: skip


def publish_site(
    session: Session,
    out: SiteFolder,
    *,
    site_title: str = "Ratings",
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    url: str | None = None,
    time_control: str = "standard",
    site_lists: Sequence[str] = (),
    show_birth_year: bool = False,
) -> PublishReport:
    """Write the site for the database ``session`` reads into ``out`` (opened by the
    caller), rendering only what changed since the previous publish (module docstring).

    ``progress(done, total)`` is called as list, player and event pages are rendered.
    ``jobs`` > 1: render in that many worker processes when there are at least
    :data:`ratings.site.pool.PARALLEL_FROM` pages to render; each reads the database
    ``url`` (needed then) through its own read-only connection.
    ``time_control`` chooses the list the site shows (standard, rapid or blitz): its lists,
    the players who have a rating or a game on it, their histories and cards on it, and the
    events rated on it. A folder holds the site of one list (:func:`check_site_list`).
    ``show_birth_year``: the birth years are published (off: on no page or download).
    Nothing is written to the database.

    :raises PeriodError: when no period has been rated yet, or none published the list.
    :raises OutputFileError: when a file cannot be written, or ``out`` holds the site of
        another list.
    """
    time_control = list_name(time_control)
    periods = site_periods(session, time_control)
    check_site_list(out, time_control)
    config = get_config(session)
    system = _SYSTEMS.get(config.system.value, config.system.value)
    linked = linked_lists(session, time_control, site_lists)
    build = _build_key(
        site_title,
        system,
        " ".join([time_control, *(x.time_control for x in linked)])
        + (" birth-years" if show_birth_year else ""),
    )
    through = periods[-1].end
    register = data.register(session, time_control, through=through)
    if url is not None:
        pool.warm_up(len(register) + len(periods), jobs)
    events = data.events(session, through=through, time_control=time_control)
    window = max(1, INACTIVE_MONTHS // config.period_months)
    new_bits = dirty_bits(session, out, periods, time_control)
    plan = plan_publish(
        session, out, build, periods, register, events, new_bits, window, time_control
    )
    if not plan.full:  # a player's page links their pages on the other lists
        plan.players |= _linked_changes(out.old, linked) & set(register)
    pending = next((p.label for p in periods if p.status == "needs_rerate"), None)
    shared = Shared(
        periods, register, events, site_title, system, window, pending,
        url or "", out.workdir,
        out.identity, out.database, time_control, tuple(linked), show_birth_year,
    )  # fmt: skip
    site = Site(environment(), out, shared)
    out.put(NEWEST, svg_chart.newest_css(len(periods) - 1, periods[-1].label))
    work = pool.split_plan(plan, shared, jobs)
    total = sum(job.size for job in work)
    counts = {"lists": 0, "players": 0, "events": 0}
    bits: dict[int, int] = {}

    def record(job: Job, done: Done) -> None:
        bits.update(done.bits)
        counts[job.kind] += done.rendered
        if progress is not None:
            progress(sum(counts.values()), total)

    finish_assets: list[Callable[[], None]] = []

    def every_time() -> None:
        # the assets (making the Vega bundle holds this process's GIL for about a second:
        # in a parallel publish, while the workers render); the calculators; players,
        # events, the search index, merged records: always
        finish_assets.append(write_assets(out))
        write_calculators(site.t_list.environment, out, site.common)
        site.index_pages(session)
        out.put(SEALS_FILE, _seals_file(time_control, data.seal_chain(session, time_control)))

    if url is not None and jobs > 1 and total >= pool.PARALLEL_FROM and len(work) > 1:
        # this process renders them while it waits for the workers
        pool.render_in_pool(work, shared, jobs, out, record, meanwhile=every_time)
    else:
        for job in work:
            record(job, site.run(session, job))
        every_time()
    finish_assets[0]()
    out.flush()

    _finish(
        out, plan.full, register, events, periods, bits, time_control,
        SiteSettings(
            # the top folder remembers "every list"; DIR/rapid is a rapid site
            site_title, ALL_LISTS if site_lists and time_control == "standard" else time_control,
            show_birth_year,
        ),
        build, linked,
    )  # fmt: skip
    return PublishReport(
        pages=len(out.files),
        written=out.written,
        unchanged=out.unchanged,
        deleted=out.deleted,
        bytes_written=out.bytes_written,
        full=plan.full,
        players=counts["players"],
        events=counts["events"],
        lists=counts["lists"],
        pending=pending,
        time_control=time_control,
    )


def _finish(
    out: SiteFolder,
    full: bool,
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
    periods: Sequence[data.SitePeriod],
    bits: dict[int, int],
    time_control: str,
    settings: SiteSettings,
    build: str,
    linked: Sequence[Linked],
) -> None:
    """Check that every file of the previous publish not written again is still one of the
    site's, then write the new manifest and delete the files no longer published.

    ``bits``: the lists each player rendered now shows (the others keep the manifest's).
    """
    old_players = (out.old or {}).get("players") if not full else None
    players_manifest: dict[str, list[str]] = {}
    for pid, p in register.items():
        if pid in bits:
            mask = bits[pid]
        else:
            entry = (old_players or {}).get(str(pid))
            mask = int(entry[1], 16) if isinstance(entry, list) and len(entry) == 2 else 0
        players_manifest[str(pid)] = [player_fingerprint(p), f"{mask:x}"]
    # files of the previous publish that this one neither rendered nor replaced stay
    for key in out.old_files():
        if (
            key not in out.files
            and _still_published(key, register, events, periods)
            and not out.keep(key)
        ):
            raise AssertionError(f"{key} was not rendered but is missing")
    delete = [key for key in out.old_files() if key not in out.files]
    out.finish(
        {
            "complete": True,
            "list": time_control,
            "settings": manifest_settings(settings),
            "build": build,
            "assets": chart.bundle_version(),
            "periods": [[p.label, period_key(p)] for p in periods],
            "players": players_manifest,
            "events": {str(eid): event_fingerprint(e) for eid, e in events.items()},
            "linked": _linked_manifest(linked),
        },
        delete=delete,
    )


def _seals_file(time_control: str, records: list[sealing.SealRecord]) -> bytes:
    """``seals.json``: the chain of the site's list, one seal a line or so (it is read by
    people checking a list, and grows by a few seals a month)."""
    doc = published.seals_json(time_control, records)
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def linked_lists(session: Session, time_control: str, site_lists: Sequence[str]) -> list[Linked]:
    """The other lists of a site that holds ``site_lists`` (those some period published),
    with the players who have a page there and their ratings on its newest list."""
    found: list[Linked] = []
    for other in ("standard", "rapid", "blitz"):
        if other == time_control or other not in site_lists:
            continue
        its_periods = data.periods(session, other)
        if not its_periods:
            continue
        ratings = data.newest_ratings(session, other)
        players = data.register(session, other, through=its_periods[-1].end)
        found.append(
            Linked(
                other,
                linked_prefix(time_control, other),
                {pid: ratings.get(pid) for pid in sorted(players)},
                {pid: players[pid].name for pid in sorted(players)},
            )
        )
    return found


def _linked_manifest(linked: Sequence[Linked]) -> dict[str, dict[str, int | None]]:
    return {x.time_control: {str(k): v for k, v in x.ratings.items()} for x in linked}


def _linked_changes(old: dict[str, Any] | None, linked: Sequence[Linked]) -> set[int]:
    """The players whose links to (or ratings on) the other lists changed since the
    previous publish (the manifest's ``linked``)."""
    before = (old or {}).get("linked")
    before = before if isinstance(before, dict) else {}
    now = _linked_manifest(linked)
    changed: set[int] = set()
    for tc in set(before) | set(now):
        a = before.get(tc)
        a = a if isinstance(a, dict) else {}
        b = now.get(tc, {})
        changed.update(int(k) for k in set(a) | set(b) if a.get(k) != b.get(k) and k.isdigit())
    return changed


def _still_published(
    key: str,
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
    periods: Sequence[data.SitePeriod],
) -> bool:
    folder, _, name = key.partition("/")
    stem = name.rsplit(".", 1)[0].removesuffix("-top").removesuffix("-sealed")
    if folder == "players":
        return int(stem) in register
    if folder == "events":
        return int(stem) in events
    if folder == "lists":
        return any(p.label == stem for p in periods)
    return folder == "assets" and key in (VEGA, VEGA_LICENSE)
