"""Building the static site: which pages to render, rendering them, and the manifest.

About 1,130 lines, kept whole for now: the plan of an incremental publish, the worker jobs and
the page renderer share private state (the plan, the shared data, the site) that a split would
have to make public.

Pages (file names come from ids and period labels, never from names)::

    index.html               the newest list, links to every list
    lists/YYYY-MM.html       each published list; .csv and .txt (FIDE's layout) beside it
    players/ID.html          a player: details, chart, every period, calculation cards
    events/ID.html           an event: crosstable
    assets/                  style sheet, scripts, the Vega bundle and its license

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
- any page whose file is missing,

and writes a rendered page only when its bytes differ from the file's recorded hash. A page
whose period table would end with "unchanged since" stays byte-identical month after month:
runs of periods in which nothing happened are folded into one row, and nothing on a player's
page names the newest list. Anything else (another version of ratings, another title, a
period that disappeared) renders every page, still writing only those that changed.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import multiprocessing
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ratings import __version__
from ratings.db import SessionFactory, make_engine
from ratings.errors import OutputFileError, PeriodError
from ratings.io.csv_out import CsvWriter
from ratings.io.fide_txt import FideTxtRow, format_fide_txt
from ratings.rules import INACTIVE_MONTHS
from ratings.service import publish as data
from ratings.service.common import get_config, list_name
from ratings.service.crosstable import CrossCell, crosstable
from ratings.service.reports import LIST_CSV_COLUMNS
from ratings.site import chart
from ratings.site.norms import event_norm_rows
from ratings.site.output import SiteFolder
from ratings.site.rows import card_line, crosstable_row, history_gap, history_row, list_row
from ratings.site.settings import SiteSettings, manifest_settings

__all__ = ["PublishReport", "publish_site"]

_STATIC = ("site.css", "site.js", "chart.js")
_VEGA = "assets/vega.js"
_VEGA_LICENSE = "assets/vega-license.txt"
_STATES = {
    "listed": "rated",
    "first_rating": "first rating",
    "unrated": "unrated",
    "below_floor": "below the floor: unrated",
}
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
    """The list the site shows."""


# --- formatting -----------------------------------------------------------------------------


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("ratings.site", "templates"),
        autoescape=True,  # every page is HTML: every value is escaped, in text and attributes
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


def _blank(value: object) -> str:
    return "" if value is None else str(value)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


_UP = Markup(' class="up"')
_DOWN = Markup(' class="down"')


def _trend(value: int | Decimal | None) -> Markup:
    """The class attribute of a rating change's cell (colour as well as the sign)."""
    if not value:
        return Markup()
    return _UP if value > 0 else _DOWN


@functools.lru_cache(maxsize=1024)
def _score(value: Decimal) -> str:
    """A score in halves as chess writes it: ``2½``, ``½``, ``3``."""
    whole = int(value)
    if value == whole:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _halves(halves: int) -> str:
    return _score(Decimal(halves) / 2)


@functools.lru_cache(maxsize=65536)
def _fraction(value: Decimal | None, *, signed: bool = False) -> str:
    """PD and dR: two decimals (table 8.1.2), four when the curve needs them."""
    if value is None:
        return ""
    text = f"{value:+.4f}" if signed else f"{value:.4f}"
    return text[:-2] if text.endswith("00") else text


@functools.lru_cache(maxsize=65536)
def _k_dr(k: int, dr: Decimal) -> str:
    """K x dR, two decimals."""
    return f"{k * dr:+.2f}"


def _fingerprint(*values: object) -> str:
    return hashlib.blake2b(repr(values).encode("utf-8"), digest_size=8).hexdigest()


def _player_fingerprint(p: data.SitePlayer) -> str:
    return _fingerprint(*dataclasses.astuple(p))


def _event_fingerprint(e: data.SiteEvent) -> str:
    return _fingerprint(*dataclasses.astuple(e))


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
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:32]


# --- the plan -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Plan:
    """What to render."""

    full: bool
    lists: set[int]
    """Period ids whose list to render."""
    players: set[int]
    events: set[int]
    dirty: set[int]
    """Period ids rated since the previous publish."""


def _period_key(p: data.SitePeriod) -> str:
    return f"{p.stamp} {p.status}"


def _plan(
    session: Session,
    out: SiteFolder,
    build: str,
    periods: Sequence[data.SitePeriod],
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
    new_bits: dict[int, int],
    window: int,
    time_control: str = "standard",
) -> _Plan:
    old = out.old or {}
    old_periods = old.get("periods")
    labels = [p.label for p in periods]
    everything = _Plan(True, {p.id for p in periods}, set(register), set(events), set())
    if (
        old.get("build") != build
        or not isinstance(old_periods, list)
        or not all(isinstance(x, list) and len(x) == 2 for x in old_periods)
        or labels[: len(old_periods)] != [label for label, _ in old_periods]
    ):
        return everything
    old_players = old.get("players")
    old_events = old.get("events")
    if not isinstance(old_players, dict) or not isinstance(old_events, dict):
        return everything
    index = {p.id: i for i, p in enumerate(periods)}
    dirty = {
        p.id
        for i, p in enumerate(periods)
        if i >= len(old_periods) or old_periods[i][1] != _period_key(p)
    }
    if 2 * len(dirty) > len(periods):
        return everything  # most of the history was re-rated: read it all in one pass
    dirty_mask = sum(1 << index[pid] for pid in dirty)

    changed = {
        pid for pid, p in register.items() if _old_fp(old_players, pid) != _player_fingerprint(p)
    }
    known = {pid for pid in changed if str(pid) in old_players}  # changed, not new
    players = set(changed)
    players |= {pid for pid, bits in new_bits.items() if bits & dirty_mask}
    for key, entry in old_players.items():
        if isinstance(entry, list) and len(entry) == 2 and int(entry[1], 16) & dirty_mask:
            players.add(int(key))
    players |= data.players_in_periods(session, dirty, time_control)
    if known:
        players |= data.opponents_of(session, known, time_control)

    changed_events = {
        eid for eid, e in events.items() if old_events.get(str(eid)) != _event_fingerprint(e)
    }
    spans = [(p.start, p.end) for p in periods if p.id in dirty]
    event_ids = changed_events | (data.events_in_periods(session, spans) & set(events))
    if known:
        event_ids |= data.events_of_players(session, known) & set(events)
    old_changed_events = {eid for eid in changed_events if str(eid) in old_events}
    if old_changed_events:
        players |= data.players_of_events(session, old_changed_events)

    lists = set(dirty)
    for pid in dirty:
        lists.update(p.id for p in periods[index[pid] : index[pid] + window])
    if known:
        lists = {p.id for p in periods}
    pending = next((i for i, p in enumerate(periods) if p.status == "needs_rerate"), None)
    if pending is not None:  # every list from there on says it may still change
        lists.update(p.id for p in periods[pending:])

    players |= {pid for pid in register if not out.exists(f"players/{pid}.html")}
    event_ids |= {eid for eid in events if not out.exists(f"events/{eid}.html")}
    for p in periods:
        if not all(out.exists(f"lists/{p.label}.{ext}") for ext in ("html", "csv", "txt")):
            lists.add(p.id)
    players &= set(register)
    return _Plan(False, lists, players, event_ids, dirty)


def _old_fp(old_players: dict[str, Any], pid: int) -> str | None:
    entry = old_players.get(str(pid))
    return entry[0] if isinstance(entry, list) and len(entry) == 2 else None


# --- publishing -----------------------------------------------------------------------------


def list_title(time_control: str) -> str:
    """What the site calls its list: "Rating list" (standard), "Rapid rating list", ..."""
    return (
        "Rating list" if time_control == "standard" else f"{time_control.capitalize()} rating list"
    )


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


def publish_site(
    session: Session,
    out: SiteFolder,
    *,
    site_title: str = "Ratings",
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    url: str | None = None,
    time_control: str = "standard",
) -> PublishReport:
    """Write the site for the database ``session`` reads into ``out`` (opened by the
    caller), rendering only what changed since the previous publish (module docstring).

    ``progress(done, total)`` is called as list, player and event pages are rendered.
    ``jobs`` > 1: render in that many worker processes when there are at least
    :data:`PARALLEL_FROM` pages to render; each reads the database ``url`` (needed then)
    through its own read-only connection.
    ``time_control`` chooses the list the site shows (standard, rapid or blitz): its lists,
    the players who have a rating or a game on it, their histories and cards on it, and the
    events rated on it. A folder holds the site of one list (:func:`check_site_list`).
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
    build = _build_key(site_title, system, time_control)
    through = periods[-1].end
    register = data.register(session, time_control, through=through)
    events = data.events(session, through=through, time_control=time_control)
    window = max(1, INACTIVE_MONTHS // config.period_months)
    new_bits = _dirty_bits(session, out, periods, time_control)
    plan = _plan(session, out, build, periods, register, events, new_bits, window, time_control)
    pending = next((p.label for p in periods if p.status == "needs_rerate"), None)
    shared = _Shared(
        periods, register, events, site_title, system, window, pending,
        url or "", out.path,
        out.identity, out.database, time_control,
    )  # fmt: skip
    site = _Site(_environment(), out, shared)
    finish_assets = site.assets()
    work = _jobs(plan, shared)
    total = sum(job.size for job in work)
    counts = {"lists": 0, "players": 0, "events": 0}
    bits: dict[int, int] = {}

    def record(job: _Job, done: _Done) -> None:
        bits.update(done.bits)
        counts[job.kind] += done.rendered
        if progress is not None:
            progress(sum(counts.values()), total)

    if url is not None and jobs > 1 and total >= PARALLEL_FROM and len(work) > 1:
        context = multiprocessing.get_context("spawn")  # no fork of a process with threads
        with ProcessPoolExecutor(
            min(jobs, len(work)), mp_context=context, initializer=_start_worker,
            initargs=(shared,),
        ) as pool:  # fmt: skip
            futures = {pool.submit(_run_job, job): job for job in work}
            try:
                for future in as_completed(futures):
                    done = future.result()
                    out.absorb(done.files, done.written, done.unchanged, done.bytes_written)
                    record(futures[future], done)
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)  # not the parts still queued
                raise
    else:
        for job in work:
            record(job, site.run(session, job))
    finish_assets()
    out.flush()

    old_players = (out.old or {}).get("players") if not plan.full else None
    players_manifest: dict[str, list[str]] = {}
    for pid, p in register.items():
        if pid in bits:
            mask = bits[pid]
        else:
            entry = (old_players or {}).get(str(pid))
            mask = int(entry[1], 16) if isinstance(entry, list) and len(entry) == 2 else 0
        players_manifest[str(pid)] = [_player_fingerprint(p), f"{mask:x}"]
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
            "settings": manifest_settings(SiteSettings(site_title, time_control)),
            "build": build,
            "assets": chart.bundle_version(),
            "periods": [[p.label, _period_key(p)] for p in periods],
            "players": players_manifest,
            "events": {str(eid): _event_fingerprint(e) for eid, e in events.items()},
        },
        delete=delete,
    )
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


def _still_published(
    key: str,
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
    periods: Sequence[data.SitePeriod],
) -> bool:
    folder, _, name = key.partition("/")
    stem = name.rsplit(".", 1)[0]
    if folder == "players":
        return int(stem) in register
    if folder == "events":
        return int(stem) in events
    if folder == "lists":
        return any(p.label == stem for p in periods)
    return folder == "assets" and key in (_VEGA, _VEGA_LICENSE)


def _dirty_bits(
    session: Session,
    out: SiteFolder,
    periods: Sequence[data.SitePeriod],
    time_control: str = "standard",
) -> dict[int, int]:
    """For the periods rated since the previous publish: which players' pages they show on
    (bit per period index), from those periods' rows and the row before them."""
    old = (out.old or {}).get("periods")
    if not isinstance(old, list):
        return {}
    index = {p.id: i for i, p in enumerate(periods)}
    dirty = [
        i
        for i, p in enumerate(periods)
        if i >= len(old) or not isinstance(old[i], list) or old[i][1:] != [_period_key(p)]
    ]
    if not dirty or 2 * len(dirty) > len(periods):
        return {}
    wanted = {periods[i].id for i in dirty} | {periods[i - 1].id for i in dirty if i > 0}
    rows: dict[int, list[data.PeriodRow]] = {}
    for player_id, row in data.period_rows(session, wanted, time_control):
        rows.setdefault(player_id, []).append(row)
    bits: dict[int, int] = {}
    for player_id, player_rows in rows.items():
        player_rows.sort(key=lambda r: index[r.period_id])
        mask = 0
        previous: data.PeriodRow | None = None
        for row in player_rows:
            i = index[row.period_id]
            adjacent = previous is not None and index[previous.period_id] == i - 1
            if (
                row.period_id in wanted
                and i in dirty
                and _shows(previous if adjacent else None, row, i)
            ):
                mask |= 1 << i
            previous = row
        if mask:
            bits[player_id] = mask
    return bits


def _shows(previous: data.PeriodRow | None, row: data.PeriodRow, index: int) -> bool:
    """Whether a period shows on the player's page: a table row (games, a new rating or
    state, the first entry) or a change of the K the details give."""
    return _table_row(previous, row) or (previous is not None and row.next_k != previous.next_k)


def _table_row(previous: data.PeriodRow | None, row: data.PeriodRow) -> bool:
    return (
        previous is None
        or row.period_games > 0
        or row.rating_after != previous.rating_after
        or row.list_status != previous.list_status
        or row.k10 != previous.k10
    )


@dataclass(frozen=True, slots=True)
class _Shared:
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


@dataclass(frozen=True, slots=True)
class _Job:
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
class _Done:
    """What a part published."""

    rendered: int
    bits: dict[int, int]
    files: dict[str, list[Any]]
    written: int
    unchanged: int
    bytes_written: int


PARALLEL_FROM = 3000
"""Pages to render from which ``jobs`` > 1 starts worker processes (each costs a second)."""

_CHUNK_PAGES = 2500
"""Player or event pages per part of a parallel publish."""


def _jobs(plan: _Plan, shared: _Shared) -> list[_Job]:
    """The plan cut into parts, the largest first. In a full publish a part is a span of
    ids (one range query, no ``IN`` list)."""
    jobs: list[_Job] = []
    for kind, wanted, universe in (
        ("players", plan.players, sorted(shared.register)),
        ("events", plan.events, sorted(shared.events)),
    ):
        ids = universe if plan.full else sorted(set(wanted) & set(universe))
        for start in range(0, len(ids), _CHUNK_PAGES):
            chunk = ids[start : start + _CHUNK_PAGES]
            span: Collection[int] = range(chunk[0], chunk[-1] + 1) if plan.full else chunk
            jobs.append(_Job(kind, span, len(chunk)))
    lists = [p.id for p in shared.periods if p.id in plan.lists]
    half = (len(lists) + 1) // 2
    jobs.append(_Job("lists", tuple(lists[:half]), 40 * half + 40, index=True))
    if lists[half:]:
        jobs.append(_Job("lists", tuple(lists[half:]), 40 * (len(lists) - half)))
    jobs.sort(key=lambda job: -job.size)
    return jobs


_WORKER: tuple[_Site, Engine] | None = None


def _start_worker(shared: _Shared) -> None:
    """A worker process: its own connection, its own view of the folder (the parent holds
    the lock)."""
    global _WORKER
    engine = make_engine(shared.url, read_only=True, create=False)
    out = SiteFolder(shared.directory, force=True, database=shared.database, attach=shared.identity)
    out.__enter__()
    _WORKER = (_Site(_environment(), out, shared), engine)


def _run_job(job: _Job) -> _Done:
    """Run one part in a worker process (:func:`_start_worker` ran first)."""
    assert _WORKER is not None
    site, engine = _WORKER
    out = site.out
    before = dict(out.files), out.written, out.unchanged, out.bytes_written
    with SessionFactory(bind=engine) as session, session.begin():
        now = [_period_key(p) for p in data.periods(session, site.shared.time_control)]
        if now != [_period_key(p) for p in site.periods]:
            raise PeriodError("the database was re-rated while it was published; publish again")
        done = site.run(session, job)
        session.rollback()
    out.flush()
    files = {k: v for k, v in out.files.items() if before[0].get(k) != v}
    return dataclasses.replace(
        done,
        files=files,
        written=out.written - before[1],
        unchanged=out.unchanged - before[2],
        bytes_written=out.bytes_written - before[3],
    )


class _Site:
    """Renders pages into the output folder."""

    def __init__(self, env: jinja2.Environment, out: SiteFolder, shared: _Shared) -> None:
        self.out = out
        self.shared = shared
        self.periods = shared.periods
        self.index = {p.id: i for i, p in enumerate(shared.periods)}
        self.by_id = {p.id: p for p in shared.periods}
        self.register = shared.register
        self.events = shared.events
        self.time_control = shared.time_control
        self.list_title = list_title(shared.time_control)
        self.common = {
            "site_title": shared.site_title, "system": shared.system, "version": __version__,
            "list_title": self.list_title,
            "list_name": "" if shared.time_control == "standard" else shared.time_control,
        }  # fmt: skip
        # each name escaped once, not once per row (ratings.site.rows)
        self.names = {pid: escape(p.name) for pid, p in shared.register.items()}
        self.event_names = {eid: escape(e.name) for eid, e in shared.events.items()}
        self.labels = {p.id: escape(p.label) for p in shared.periods}
        self._escaped: dict[str | None, Markup] = {}
        self.t_list = env.get_template("list.html.j2")
        self.t_player = env.get_template("player.html.j2")
        self.t_event = env.get_template("event.html.j2")
        self.rendered = 0

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

    def run(self, session: Session, job: _Job) -> _Done:
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
        return _Done(self.rendered, bits, {}, 0, 0, 0)

    def _period_of(self, day: Any) -> data.SitePeriod | None:
        for p in self.periods:
            if p.start <= day <= p.end:
                return p
        return None

    # --- assets -------------------------------------------------------------------------

    def assets(self) -> Callable[[], None]:
        """Write the assets; returns what completes them (call it after the pages): the Vega
        bundle takes seconds to make, on a thread of its own (vl-convert releases the GIL)
        while the pages are rendered."""
        static = resources.files("ratings.site").joinpath("static")
        for name in _STATIC:
            self.out.put(f"assets/{name}", static.joinpath(name).read_bytes())
        version = chart.bundle_version()
        old = self.out.old or {}
        if old.get("assets") == version and self.out.keep(_VEGA) and self.out.keep(_VEGA_LICENSE):
            return lambda: None
        maker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vega-bundle")
        bundle = maker.submit(chart.vega_bundle)
        maker.shutdown(wait=False)
        return lambda: self._finish_assets(version, bundle.result())

    def _finish_assets(self, version: str, bundle: str) -> None:
        self.out.put(_VEGA, bundle.encode("utf-8"))
        notice = (
            "assets/vega.js bundles Vega, Vega-Lite and Vega-Embed (BSD-3-Clause, "
            "Copyright (c) the University of Washington Interactive Data Lab and the Vega "
            "contributors) and the libraries they use (d3 modules: ISC; others: MIT or "
            f"BSD), as bundled by vl-convert-python {version}, whose license follows.\n\n"
        )
        self.out.put(_VEGA_LICENSE, (notice + chart.bundle_license()).encode("utf-8"))

    # --- lists --------------------------------------------------------------------------

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
            context = {
                **self.common,
                "period": p.label,
                "list_date": p.list_date.isoformat(),
                "previous": previous,
                "pending": pending if pending is not None and pending <= p.label else None,
                "count": len(flagged),
            }
            if period_id in wanted:
                page = self.t_list.render(
                    context, root="../", rows=self._list_rows("../", flagged),
                    title=f"{self.list_title} {p.label}",
                    heading=f"{self.list_title} {p.label}", lists=(),
                )  # fmt: skip
                self.out.put(f"lists/{p.label}.html", page.encode("utf-8"))
                self.out.put(f"lists/{p.label}.csv", _csv(flagged, self.register).encode("utf-8"))
                self.out.put(
                    f"lists/{p.label}.txt",
                    _txt(flagged, self.register, p, self.time_control).encode("utf-8"),
                )
                self._tick("lists")
            if index and period_id == newest.id:
                every = [(q.label, q.list_date.isoformat()) for q in reversed(self.periods)]
                page = self.t_list.render(
                    context, root="", rows=self._list_rows("", flagged),
                    title=self.list_title, heading=f"{self.list_title} {p.label}", lists=every,
                )  # fmt: skip
                self.out.put("index.html", page.encode("utf-8"))

    def _flags(self, e: data.SiteListRow, inactive: set[int]) -> str:
        player = self.register[e.player_id]
        flag = ("w" if player.sex == "f" else "") + ("i" if e.player_id in inactive else "")
        return f"{flag} new".strip() if e.list_status == "first_rating" else flag

    def _list_rows(self, root: str, flagged: list[tuple[data.SiteListRow, str]]) -> Markup:
        """The list's table rows (see :mod:`ratings.site.rows` for why not cell by cell)."""
        register, html = self.register, self._html
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
                    _signed(e.change) if played else "",
                    _trend(e.change if played else 0),
                    e.period_games,
                    e.next_k,
                    html(flags),
                )
            )
        return Markup("".join(out))

    # --- players ------------------------------------------------------------------------

    def players(self, session: Session, wanted: Collection[int] | None) -> dict[int, int]:
        """Render the player pages (``wanted`` None: all); returns their period bitmaps."""
        bits: dict[int, int] = {}
        histories = data.history_rows(session, wanted, self.time_control)
        cards = data.card_games(session, wanted, self.time_control)
        ids = sorted(pid for pid in self.register if wanted is None or pid in wanted)
        for pid, rows, games in _merge(ids, histories, cards):
            bits[pid] = self._player(self.register[pid], rows, games)
            self._tick("players")
        return bits

    def _player(
        self, p: data.SitePlayer, rows: list[data.PeriodRow], games: list[data.CardGame]
    ) -> int:
        index = self.index
        rows = sorted((r for r in rows if r.period_id in index), key=lambda r: index[r.period_id])
        by_period: dict[int, list[data.CardGame]] = {}
        for g in games:
            by_period.setdefault(g.period_id, []).append(g)
        mask = 0
        shown: list[data.PeriodRow] = []
        previous: data.PeriodRow | None = None
        for row in rows:
            adjacent = (
                previous
                if previous is not None and index[previous.period_id] == index[row.period_id] - 1
                else None
            )
            card = row.period_id in by_period
            if _table_row(adjacent, row) or card:
                shown.append(row)
                mask |= 1 << index[row.period_id]
            elif _shows(adjacent, row, index[row.period_id]):
                mask |= 1 << index[row.period_id]
            previous = row
        for period_id in by_period:
            if period_id in index:
                mask |= 1 << index[period_id]
        table: list[str] = []
        for n, newer in enumerate(shown):
            if n > 0 and index[newer.period_id] - index[shown[n - 1].period_id] > 1:
                since = self.periods[index[shown[n - 1].period_id] + 1].id
                until = self.periods[index[newer.period_id] - 1].id
                table.append(history_gap(self.labels[since], self.labels[until]))
            table.append(self._history_row(newer, newer.period_id in by_period))
        table.reverse()
        latest = rows[-1] if rows else None
        points = [
            (self.by_id[r.period_id].list_date, self.by_id[r.period_id].label, r.rating_after)
            for r in shown
            if r.rating_after is not None
        ]
        if shown and shown[0].rating_before is not None:
            start = self.by_id[shown[0].period_id]  # the rating the history starts from
            points.insert(0, (start.start, f"before {start.label}", shown[0].rating_before))
        spec = chart.rating_chart([chart.Series(p.name, points)], title=None) if points else None
        cards = [
            self._card(
                self.by_id[period_id],
                by_period[period_id],
                next((r for r in rows if r.period_id == period_id), None),
            )
            for period_id in sorted(by_period, key=lambda x: -index.get(x, -1))
            if period_id in index
        ]
        if latest is not None:
            rating = _blank(latest.rating_after) or "unrated"
            total_games, next_k, k10 = (
                latest.total_games,
                _blank(latest.next_k) or "\N{EN DASH}",
                latest.k10,
            )
        else:
            rating = f"{p.entry_rating} (entry rating)" if p.entry_rating else "unrated"
            total_games, next_k, k10 = p.entry_games, "\N{EN DASH}", p.k10
        page = self.t_player.render(
            self.common, root="../", title=self._titled(p.name), p=p, rating=rating,
            total_games=total_games, next_k=next_k, k10=k10, spec=spec,
            rows=Markup("".join(table)), cards=cards,
        )  # fmt: skip
        self.out.put(f"players/{p.id}.html", page.encode("utf-8"))
        return mask

    def _history_row(self, r: data.PeriodRow, card: bool) -> str:
        played = r.period_games > 0
        status = _STATES.get(r.list_status, r.list_status)
        return history_row(
            self.labels[r.period_id], card, r.rating_before, r.rating_after,
            _signed(r.change) if played else "", _trend(r.change if played else 0), r.k_used,
            r.period_games, _score(r.score) if played else "", self._html(status),
        )  # fmt: skip

    def _card(
        self, period: data.SitePeriod, games: list[data.CardGame], row: data.PeriodRow | None
    ) -> dict[str, object]:
        games.sort(key=lambda g: (g.played_on, g.game_id))
        rated = [g for g in games if g.k_used is not None and g.dr is not None]
        event_names, html, name = self.event_names, self._html, self._name
        lines = []
        for g in games:
            lines.append(
                card_line(
                    g.played_on.isoformat(),
                    g.event_id,
                    event_names.get(g.event_id, Markup()),
                    html(g.round),
                    g.opponent_id,
                    name(g.opponent_id),
                    g.white,
                    g.opponent_rating,
                    g.difference,
                    _fraction(g.pd),
                    _score(g.score),
                    _fraction(g.dr, signed=True),
                    g.k_used,
                    _k_dr(g.k_used, g.dr) if g.k_used is not None and g.dr is not None else "",
                )
            )
        k_used = rated[0].k_used if rated else None
        dr_sum = sum((g.dr for g in rated if g.dr is not None), Decimal(0))
        return {
            "label": period.label,
            "rated": bool(rated),
            "before": _blank(row.rating_before) if row else "",
            "after": (_blank(row.rating_after) or "unrated") if row else "",
            "k_used": _blank(k_used),
            "lines": Markup("".join(lines)),
            "count": len(lines),
            "pd_sum": _fraction(sum((g.pd for g in rated if g.pd is not None), Decimal(0))),
            "score": _score(sum((g.score for g in games), Decimal(0))),
            "dr_sum": _fraction(dr_sum, signed=True),
            "k_dr_sum": f"{k_used * dr_sum:+.2f}" if k_used is not None else "",
            "change": _signed(row.change) if row else "",
        }

    # --- events -------------------------------------------------------------------------

    def events_pages(self, session: Session, wanted: Collection[int] | None) -> None:
        for ev in data.event_data(session, wanted):
            event = self.events.get(ev.event_id)
            if event is None:
                continue  # ends after the newest rated period: published once rated
            self._event(event, ev, event_norm_rows(session, ev.event_id, self.time_control))
            self._tick("events")

    def _event(
        self, e: data.SiteEvent, ev: data.EventData, norms: Sequence[dict[str, object]] = ()
    ) -> None:
        name = self._name

        def sort_name(pid: int) -> str:
            player = self.register.get(pid)
            return player.name.lower() if player is not None else ""

        table = crosstable(ev, sort_name)
        players: list[str] = []
        for row in table.rows:
            row_cells = []
            for results in row.cells:
                found = [self._cross_cell(c) for c in results]
                if len(found) == 1:
                    row_cells.append(found[0])
                else:  # several games in one round (or none)
                    row_cells.append(
                        (
                            Markup(" ").join(c[0] for c in found),
                            Markup("; ").join(c[1] for c in found),
                        )
                    )
            delta = row.k_dr_sum
            players.append(
                crosstable_row(
                    row.rank,
                    row.player_id,
                    name(row.player_id),
                    row.rating,
                    row_cells,
                    _halves(row.score_half_points),
                    row.performance,
                    f"{delta:+.2f}" if delta is not None else "",
                    _trend(delta),
                )
            )
        period = self._period_of(e.end_date)
        page = self.t_event.render(
            self.common, root="../", title=self._titled(e.name), e=e,
            players=Markup("".join(players)), count=len(players), rounds=list(table.rounds),
            games=table.games, rated=table.rated_games, period=period.label if period else "",
            norms=norms,
        )  # fmt: skip
        self.out.put(f"events/{e.id}.html", page.encode("utf-8"))

    def _cross_cell(self, c: CrossCell) -> tuple[Markup, Markup]:
        """A crosstable cell: opponent's rank, colour, result (or a bye's code); the
        opponent's name as its note."""
        if c.opponent_id is None:
            return self._html(c.mark), _BYE
        opponent = self._name(c.opponent_id)
        # c.text is built from numbers and this package's marks: nothing to escape
        return Markup(c.text), opponent if c.rated else opponent + _NOT_RATED


_BYE = Markup("bye")
_NOT_RATED = Markup(" (not rated)")


def _merge(
    ids: Sequence[int],
    histories: Iterator[tuple[int, list[data.PeriodRow]]],
    cards: Iterator[tuple[int, list[data.CardGame]]],
) -> Iterator[tuple[int, list[data.PeriodRow], list[data.CardGame]]]:
    """Join two id-ordered streams with the ids wanted (ascending)."""
    h = next(histories, None)
    c = next(cards, None)
    for pid in ids:
        while h is not None and h[0] < pid:
            h = next(histories, None)
        while c is not None and c[0] < pid:
            c = next(cards, None)
        rows = h[1] if h is not None and h[0] == pid else []
        games = c[1] if c is not None and c[0] == pid else []
        yield pid, rows, games


# --- downloads ------------------------------------------------------------------------------

_CSV_HEADER = (*LIST_CSV_COLUMNS, "flags")
"""The columns of ``ratings list --format csv``, then the flags the page shows."""


def _csv(rows: Iterable[tuple[data.SiteListRow, str]], register: dict[int, data.SitePlayer]) -> str:
    """The list as ``ratings list --format csv`` writes it, plus the flags; every cell
    neutralised against formula injection (:mod:`ratings.io.csv_out`)."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(_CSV_HEADER)
    for e, flags in rows:
        p = register[e.player_id]
        writer.writerow(
            (p.name, p.fide_id, p.federation, p.title, p.birth_year, e.rating, e.change,
             e.period_games, e.total_games, e.next_k, "true" if e.k10 else "false", flags)
        )  # fmt: skip
    return out.getvalue()


def _txt(
    rows: Iterable[tuple[data.SiteListRow, str]],
    register: dict[int, data.SitePlayer],
    period: data.SitePeriod,
    time_control: str = "standard",
) -> str:
    """The list in FIDE's TXT layout (:mod:`ratings.io.fide_txt`) of its list (rapid and
    blitz: FIDE's rapid and blitz headers, as ``ratings list --format fide-txt``)."""
    fide_rows = []
    for e, flags in rows:
        p = register[e.player_id]
        flag = flags.replace("new", "").strip() or None
        fide_rows.append(
            FideTxtRow(
                fide_id=p.fide_id, name=p.name, federation=p.federation, sex=p.sex,
                title=p.title, rating=e.rating, period_games=e.period_games, next_k=e.next_k,
                birth_year=p.birth_year, flag=flag,
            )
        )  # fmt: skip
    return format_fide_txt(fide_rows, list_date=period.list_date, list_type=time_control)
