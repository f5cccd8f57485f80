"""The parts of a publish and the process pool that renders them: the plan cut into jobs,
and the worker processes (forked from a server process, or spawned; each with its own
read-only connection)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from sqlalchemy.engine import Engine

from ratings import files
from ratings.db import SessionFactory, make_engine
from ratings.errors import PeriodError
from ratings.service.reading import publish as data
from ratings.site.output import SiteFolder
from ratings.site.pages import Shared, environment
from ratings.site.plan import Plan, period_key
from ratings.site.render import Done, Job, Site

__all__ = [
    "CHUNK_PAGES",
    "PARALLEL_FROM",
    "render_in_pool",
    "run_job",
    "split_plan",
    "start_worker",
    "warm_up",
]


PARALLEL_FROM = 500
"""Pages to render from which ``jobs`` > 1 starts worker processes. They start from a
server process that imports this module once (:func:`_context`): one more month of the
5,000-player benchmark (about 900 pages) took 3.5 s in two forked workers (one run) and
5.3-6.1 s in this process (three runs), and a month of 530 pages on 2,000 players 2.2-2.7 s
instead of 2.5-3.2 s (bench/RESULTS-publish.md)."""

CHUNK_PAGES = 2500
"""Player or event pages per part at most (what one part holds in memory)."""

PAGE_COSTS = {"lists": 25, "events": 1, "players": 1}
"""What a page costs to render, in player pages, for cutting the parts of a parallel
publish: in one process, the 5,000-player benchmark's player pages took 5.2 ms each, its
event pages 4.5 ms and each list 125 ms with its downloads and top lists (one run,
bench/RESULTS-publish.md)."""

SMALLEST_PART = 100
"""The cost (:data:`PAGE_COSTS`) below which a parallel publish cuts no smaller part."""


def split_plan(plan: Plan, shared: Shared, workers: int = 1) -> list[Job]:
    """The plan cut into parts, in the order to hand them out. In one process: the player
    and event pages in parts of at most :data:`CHUNK_PAGES`, the lists in two. For
    ``workers`` processes, parts that shrink as the work left does (each about a
    ``2 * workers``-th of the cost left, :data:`PAGE_COSTS`, down to
    :data:`SMALLEST_PART`): the lists first, the players last (a part of players costs
    least to start), so that the workers finish about together. In a full publish a part
    of players or events is a span of ids (one range query, no ``IN`` list)."""
    lists = [p.id for p in shared.periods if p.id in plan.lists]
    kinds: list[tuple[str, Sequence[int]]] = [("lists", lists)]
    for kind, wanted, universe in (
        ("events", plan.events, sorted(shared.events)),
        ("players", plan.players, sorted(shared.register)),
    ):
        kinds.append((kind, universe if plan.full else sorted(set(wanted) & set(universe))))
    left = sum(PAGE_COSTS[kind] * len(ids) for kind, ids in kinds)
    jobs: list[Job] = []
    for kind, ids in kinds:
        cost = PAGE_COSTS[kind]
        start = 0
        while start < len(ids) or (kind == "lists" and not jobs):
            if workers > 1:
                part = max(SMALLEST_PART, left // (2 * workers)) // cost
            else:
                part = (len(ids) + 1) // 2 if kind == "lists" else CHUNK_PAGES
            chunk = ids[start : start + max(1, min(part, CHUNK_PAGES))]
            start += len(chunk)
            left -= cost * len(chunk)
            if kind == "lists":
                jobs.append(Job(kind, tuple(chunk), 40 * len(chunk) + 40 * (not jobs), not jobs))
                continue
            span: Collection[int] = range(chunk[0], chunk[-1] + 1) if plan.full else chunk
            jobs.append(Job(kind, span, len(chunk)))
    return jobs


_WORKER: tuple[Site, Engine] | None = None


def start_worker(shared: Shared, publisher: int) -> None:
    """A worker process: its own connection, its own view of the folder (the parent holds
    the lock); it ends when the process ``publisher`` (the publish) does."""
    global _WORKER
    die_with(publisher)
    engine = make_engine(shared.url, read_only=True, create=False)
    out = SiteFolder(shared.directory, force=True, database=shared.database, attach=shared.identity)
    out.__enter__()
    _WORKER = (Site(environment(), out, shared), engine)


WATCH_INTERVAL = 0.2
"""Seconds between two looks at the publish, where the system cannot say when a process
ends (no ``pidfd_open``)."""


def die_with(publisher: int) -> None:
    """End this process as soon as the process ``publisher`` ends, however it ends.

    A worker waits for its next part on a queue whose both ends it holds, so the end of the
    publish that started it (a kill) did not end it: the workers lived on, and so did the
    server they were forked from (it runs while a worker does). Seen: 3 processes and
    210 MB left by one ``kill -9`` of a publish, 13 and 730 MB after a series. A thread
    waits on a descriptor of the publish's process (Linux' ``pidfd_open``; elsewhere it
    looks every :data:`WATCH_INTERVAL` seconds) and then ends this process at once: what
    it wrote are temporary files the next publish removes."""
    try:
        pidfd = os.pidfd_open(publisher)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):
        pidfd = None

    def watch() -> None:
        if pidfd is not None:
            select.select([pidfd], [], [])
        else:
            while files.is_running(publisher):
                time.sleep(WATCH_INTERVAL)
        os._exit(1)

    threading.Thread(target=watch, name="publish-watch", daemon=True).start()


def run_job(job: Job) -> Done:
    """Run one part in a worker process (:func:`start_worker` ran first)."""
    assert _WORKER is not None
    site, engine = _WORKER
    out = site.out
    before = dict(out.files), out.written, out.unchanged, out.bytes_written
    with SessionFactory(bind=engine) as session, session.begin():
        now = [period_key(p) for p in data.periods(session, site.shared.time_control)]
        if now != [period_key(p) for p in site.periods]:
            raise PeriodError("the database was re-rated while it was published; publish again")
        done = site.run(session, job)
        session.rollback()
    out.flush()
    written = {k: v for k, v in out.files.items() if before[0].get(k) != v}
    return dataclasses.replace(
        done,
        files=written,
        staged=out.take_staged(),
        written=out.written - before[1],
        unchanged=out.unchanged - before[2],
        bytes_written=out.bytes_written - before[3],
    )


def _context() -> multiprocessing.context.BaseContext:
    """How the workers start: forked from a server process that imported this module once
    (each worker then starts in milliseconds, not the half second an import takes), where
    the system has one and it starts; else each spawned afresh. Never forked from this
    process, which runs threads (the folder's writers). The server is reached through a
    socket in the temporary folder: a TMPDIR too long for a socket's path (about 108 bytes)
    cannot hold one, and then the workers are spawned."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        from multiprocessing import forkserver  # not on every system

        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        try:
            forkserver.ensure_running()
        except OSError:
            pass
        else:
            return context
    return multiprocessing.get_context("spawn")


def warm_up(pages: int, jobs: int) -> None:
    """Start the fork server now (:func:`_context`) when a publish of a site of ``pages``
    pages and lists may need worker processes, so that its import of the renderer runs
    while this process plans the publish (about half a second of one more month)."""
    if jobs > 1 and pages >= PARALLEL_FROM:
        _context()


def render_in_pool(
    work: Sequence[Job],
    shared: Shared,
    jobs: int,
    out: SiteFolder,
    record: Callable[[Job, Done], None],
    *,
    meanwhile: Callable[[], None] | None = None,
) -> None:
    """Render the parts ``work`` in ``jobs`` worker processes (at most one per part), the
    files they wrote absorbed into ``out`` (which holds the lock); ``record(job, done)`` is
    called as each part is done. ``meanwhile()`` runs in this process once the parts are
    handed out (instead of after them: this process would only wait). On an error the parts
    still queued are cancelled."""
    context = _context()
    with ProcessPoolExecutor(
        min(jobs, len(work)), mp_context=context, initializer=start_worker,
        initargs=(shared, os.getpid()),
    ) as pool:  # fmt: skip
        futures = {pool.submit(run_job, job): job for job in work}
        try:
            if meanwhile is not None:
                meanwhile()
            for future in as_completed(futures):
                done = future.result()
                out.absorb(
                    done.files, done.written, done.unchanged, done.bytes_written, done.staged
                )
                record(futures[future], done)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)  # not the parts still queued
            raise
