"""The parts of a publish and the process pool that renders them: the plan cut into jobs,
and the worker processes (forked from a server process, or spawned; each with its own
read-only connection)."""

from __future__ import annotations

import dataclasses
import multiprocessing
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from sqlalchemy.engine import Engine

from ratings.db import SessionFactory, make_engine
from ratings.errors import PeriodError
from ratings.service import publish as data
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
]


PARALLEL_FROM = 500
"""Pages to render from which ``jobs`` > 1 starts worker processes. They start from a
server process that imports this module once (:func:`_context`): one more month of the
5,000-player benchmark (about 900 pages) took 3.5 s in two forked workers (one run) and
5.3-6.1 s in this process (three runs), and a month of 530 pages on 2,000 players 2.2-2.7 s
instead of 2.5-3.2 s (bench/RESULTS-publish.md)."""

CHUNK_PAGES = 2500
"""Player or event pages per part of a parallel publish."""


def split_plan(plan: Plan, shared: Shared, workers: int = 1) -> list[Job]:
    """The plan cut into parts, the largest first: the player and event pages in parts of
    at most :data:`CHUNK_PAGES`, and fewer pages a part when that gives each of ``workers``
    a part of the players (one more month's few hundred pages). In a full publish a part is
    a span of ids (one range query, no ``IN`` list)."""
    jobs: list[Job] = []
    for kind, wanted, universe in (
        ("players", plan.players, sorted(shared.register)),
        ("events", plan.events, sorted(shared.events)),
    ):
        ids = universe if plan.full else sorted(set(wanted) & set(universe))
        size = CHUNK_PAGES
        if kind == "players" and workers > 1:
            size = max(1, min(CHUNK_PAGES, -(-len(ids) // workers)))
        for start in range(0, len(ids), size):
            chunk = ids[start : start + size]
            span: Collection[int] = range(chunk[0], chunk[-1] + 1) if plan.full else chunk
            jobs.append(Job(kind, span, len(chunk)))
    lists = [p.id for p in shared.periods if p.id in plan.lists]
    half = (len(lists) + 1) // 2
    jobs.append(Job("lists", tuple(lists[:half]), 40 * half + 40, index=True))
    if lists[half:]:
        jobs.append(Job("lists", tuple(lists[half:]), 40 * (len(lists) - half)))
    jobs.sort(key=lambda job: -job.size)
    return jobs


_WORKER: tuple[Site, Engine] | None = None


def start_worker(shared: Shared) -> None:
    """A worker process: its own connection, its own view of the folder (the parent holds
    the lock)."""
    global _WORKER
    engine = make_engine(shared.url, read_only=True, create=False)
    out = SiteFolder(shared.directory, force=True, database=shared.database, attach=shared.identity)
    out.__enter__()
    _WORKER = (Site(environment(), out, shared), engine)


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
    files = {k: v for k, v in out.files.items() if before[0].get(k) != v}
    return dataclasses.replace(
        done,
        files=files,
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
        initargs=(shared,),
    ) as pool:  # fmt: skip
        futures = {pool.submit(run_job, job): job for job in work}
        try:
            if meanwhile is not None:
                meanwhile()
            for future in as_completed(futures):
                done = future.result()
                out.absorb(done.files, done.written, done.unchanged, done.bytes_written)
                record(futures[future], done)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)  # not the parts still queued
            raise
