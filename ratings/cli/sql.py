"""``ratings sql "QUERY"``: administrators' queries on a read-only connection, streamed."""

from __future__ import annotations

import datetime as dt
import io
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from json.encoder import encode_basestring_ascii
from types import FrameType
from typing import Any

import click

from ratings import migrate
from ratings.cli import App, CommandError, pass_app, silence_stdout
from ratings.cli.tables import format_option
from ratings.db import make_engine
from ratings.io.csv_out import CsvWriter
from ratings.service.reading.sql import HEAP_LIMIT, QueryStream, QueryTimeoutError, open_query

DEFAULT_TIMEOUT = 20.0
"""Seconds a query may take by default. Writers wait up to 30 s for SQLite's lock
(``ratings.db.BUSY_TIMEOUT_MS``), so a query that holds its read lock for at most 20 s can
never make one of them fail, and the 10 s left cover the writer's own work."""

ALARM_GRACE = 1.0
"""Seconds after the time limit at which a blocked write to the output is interrupted."""


def _text(value: Any) -> str:
    """A value as table or CSV text: NULL is blank, booleans are true/false."""
    kind = type(value)
    if kind is str:  # the common cases first: this runs for every cell
        return str(value)
    if kind is int or kind is float:
        return str(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    if isinstance(value, dict | list):  # a json column on PostgreSQL
        return json.dumps(value, default=str)
    return str(value)


def _json_value(value: Any) -> Any:
    """A value as JSON: numbers stay numbers, dates become ISO text, blobs hex."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    return _text(value)


def _json_text(value: Any) -> str:
    """A value as JSON text, exactly as ``json.dumps(..., indent=2)`` writes it inside an
    object of a list (the C string encoder: the pure-Python one that indent uses is slow)."""
    kind = type(value)
    if kind is str:
        return str(encode_basestring_ascii(value))
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is float:
        if value != value:
            return "NaN"
        if value in (math.inf, -math.inf):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    converted = _json_value(value)
    if isinstance(converted, dict | list):
        return json.dumps(converted, indent=2).replace("\n", "\n    ")
    return _json_text(converted)


def _unique(columns: tuple[str, ...]) -> list[str]:
    """Column names as JSON keys: a repeated name gets a suffix (id, id_2)."""
    seen: dict[str, int] = {}
    keys = []
    for name in columns:
        seen[name] = seen.get(name, 0) + 1
        keys.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return keys


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _write_table(stream: QueryStream, emit: Callable[[str], None]) -> int:
    """Aligned columns under a header: numbers to the right, text to the left.

    Widths and alignment come from the first batch (at most 1,000 rows); a longer value
    later is written whole and pushes its line out of alignment, never cut.
    """
    batches = stream.batches()
    first = next(batches, [])
    columns = stream.columns
    numeric = [
        bool(first) and all(_is_number(row[i]) for row in first if row[i] is not None)
        for i in range(len(columns))
    ]
    widths = [
        max([len(name), *(len(_text(row[i])) for row in first)]) for i, name in enumerate(columns)
    ]

    def line(values: list[str]) -> str:
        parts = [
            value.rjust(width) if right else value.ljust(width)
            for value, width, right in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip() + "\n"

    emit(line(list(columns)) + line(["-" * w for w in widths]))
    count = 0
    batch = first
    while batch:
        emit("".join(line([_text(v) for v in row]) for row in batch))
        count += len(batch)
        batch = next(batches, [])
    return count


def _write_csv(stream: QueryStream, emit: Callable[[str], None]) -> int:
    """A header row and plain values, every cell neutralised against formula injection."""
    count = 0
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(stream.columns)
    for batch in stream.batches():
        writer.writerows([_text(v) for v in row] for row in batch)
        emit(out.getvalue())
        out.seek(0)
        out.truncate()
        count += len(batch)
    emit(out.getvalue())  # the header, when there were no rows
    return count


def _write_json(stream: QueryStream, emit: Callable[[str], None]) -> int:
    """One JSON array of objects, written row by row, byte for byte as
    ``json.dumps(rows, indent=2)`` would write the whole list."""
    prefixes = [f"\n    {encode_basestring_ascii(key)}: " for key in _unique(stream.columns)]
    count = 0
    for batch in stream.batches():
        parts = []
        for row in batch:
            members = ",".join(
                prefix + _json_text(value) for prefix, value in zip(prefixes, row, strict=True)
            )
            parts.append(("[\n  {" if count == 0 else ",\n  {") + members + "\n  }")
            count += 1
        emit("".join(parts))
    emit("\n]\n" if count else "[]\n")
    return count


WRITERS: dict[str, Callable[[QueryStream, Callable[[str], None]], int]] = {
    "table": _write_table,
    "csv": _write_csv,
    "json": _write_json,
}


class _Alarm:
    """Interrupt a write to the output that blocks past the time limit.

    The query checks its clock whenever it reads rows, but a reader that stops reading (a
    pager waiting on its first screen) blocks the write itself, and the query's read lock
    would stay. SIGALRM ends that write with the time-out error. Only in the main thread
    of a system that has it; elsewhere the clock checks remain.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.fired = False

    def _expire(self, _signum: int, _frame: FrameType | None) -> None:
        self.fired = True
        raise QueryTimeoutError(self.timeout)

    @contextmanager
    def armed(self, deadline: float | None) -> Iterator[None]:
        """Set the alarm ``ALARM_GRACE`` after ``deadline`` for the duration of the block."""
        if (
            deadline is None
            or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()
        ):
            yield
            return
        previous = signal.signal(signal.SIGALRM, self._expire)
        signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0) + ALARM_GRACE)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


class _Watchdog:
    """End the process ``ALARM_GRACE`` after the time limit if the query is still running
    (so a query holds its read lock at most 21 s by default, and writers wait up to 30 s).

    The clock is read between SQLite instructions, but one instruction can run for minutes
    (``trim`` of two 100 KB texts compares every character of one with every character of
    the other; ``instr`` of two long ones is quadratic too), and neither the progress
    handler nor a signal handler runs until it returns. The connection only reads, so ending
    the process loses nothing: the error is written and the process exits with code 1. Only
    when the process is the command's own (its standard output is the process's): never
    inside a program that runs the command, such as a test's CliRunner.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    @contextmanager
    def armed(self) -> Iterator[None]:
        if not self.timeout or sys.stdout is not sys.__stdout__:
            yield
            return
        done = threading.Event()
        delay = self.timeout + ALARM_GRACE

        def watch() -> None:
            if not done.wait(delay):
                os.write(2, f"Error: {QueryTimeoutError(self.timeout)}\n".encode())
                os._exit(1)

        threading.Thread(target=watch, name="ratings-sql-watchdog", daemon=True).start()
        try:
            yield
        finally:
            done.set()


def _heap_limit() -> int | None:
    """SQLite's memory limit for the query (:data:`ratings.service.reading.sql.HEAP_LIMIT`), set
    for the whole process and never raised again: only when the process is the command's
    own (its standard output is the process's), never inside a program that runs it."""
    return HEAP_LIMIT if sys.stdout is sys.__stdout__ else None


def _check_timeout(_ctx: click.Context, _param: click.Parameter, value: float) -> float:
    if not math.isfinite(value):
        raise click.BadParameter(f"{value!r} is not a number of seconds")
    return value


@click.command("sql")
@click.argument("query")
@format_option("Output format (json: a list of objects).")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=DEFAULT_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    callback=_check_timeout,
    help="Stop the query after this many seconds, time spent writing the output included "
    "(0: no limit).",
)
@pass_app
def sql(app: App, query: str, fmt: str, timeout: float) -> None:
    """Run one read-only SQL statement (SELECT, PRAGMA table_info ...) and print the rows.

    Anything that would write (INSERT, UPDATE, DELETE, CREATE, DROP, ATTACH, PRAGMA
    writable_schema ...) is refused and changes nothing. On PostgreSQL the query runs as
    the role ratings_sql_reader (SELECT on the ratings tables and views only), and COPY is
    refused. Rows are streamed as they come. Tables and views are described in the
    README's SQL cookbook.
    """
    app.tidy()
    engine = make_engine(app.url, read_only=True)
    stdout = sys.stdout  # (CliRunner swaps it too)

    def emit(text: str) -> None:
        if text:
            stdout.write(text)
            stdout.flush()

    count = 0
    alarm = _Alarm(timeout)
    try:
        migrate.ensure_current(engine)
        with (
            _Watchdog(timeout).armed(),
            open_query(engine, query, timeout=timeout, heap_limit=_heap_limit()) as stream,
            alarm.armed(stream.deadline),
        ):
            for warning in stream.warnings:
                click.echo(f"Warning: {warning}", err=True)
            if stream.columns:
                count = WRITERS[fmt](stream, emit)
            else:  # still run it: an error shows, a statement without columns prints nothing
                count = sum(len(batch) for batch in stream.batches())
                emit("[]\n" if fmt == "json" else "")
    except QueryTimeoutError:
        if alarm.fired:
            # the output is blocked: what is still buffered would block the exit too
            silence_stdout()
        raise
    except MemoryError:
        # a single huge value (zeroblob, repeat): streaming bounds everything else
        raise CommandError(
            "out of memory while reading the rows; select fewer or smaller columns"
        ) from None
    finally:
        engine.dispose()
    if fmt == "table":
        click.echo(f"({count} row{'' if count == 1 else 's'})", err=True)


def register(group: click.Group) -> None:
    """Add this command to the top-level group."""
    group.add_command(sql)
