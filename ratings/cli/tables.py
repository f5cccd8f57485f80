"""Rows as a plain table, CSV or JSON: the listing commands' output (``--format``)."""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Sequence
from decimal import Decimal

import click

from ratings.cli.types import format_option as format_option
from ratings.io.csv_out import CsvWriter

FORMAT = format_option()

Value = str | int | bool | dt.date | dt.datetime | Decimal | None


def plural(n: int, noun: str) -> str:
    """``1 game``, ``3 games``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def counted(n: int, noun: str) -> str:
    """:func:`plural` with the count's thousands separated (``1,204 players``), for counts
    that run that high (a check's rows, FIDE's list)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        return f"{value:%Y-%m-%d %H:%M}"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _json(value: Value) -> object:
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def emit_rows(columns: Sequence[str], rows: Sequence[Sequence[Value]], fmt: str) -> None:
    """Write rows: ``table`` (aligned under a header, numbers to the right; booleans yes/no;
    times to the minute), ``csv`` (a header row, formula-like cells neutralised; booleans
    true/false) or ``json`` (a list of objects; None is null)."""
    if fmt == "json":
        objects = [{c: _json(v) for c, v in zip(columns, row, strict=True)} for row in rows]
        click.echo(json.dumps(objects, indent=2, ensure_ascii=False))
        return
    if fmt == "csv":
        out = io.StringIO()
        writer = CsvWriter(out)
        writer.writerow(list(columns))
        for row in rows:
            writer.writerow(
                ["true" if v is True else "false" if v is False else _text(v) for v in row]
            )
        click.echo(out.getvalue(), nl=False)
        return
    texts = [[_text(v) for v in row] for row in rows]
    numeric = [
        bool(rows)
        and all(
            isinstance(row[i], int | Decimal) and not isinstance(row[i], bool)
            for row in rows
            if row[i] is not None
        )
        for i in range(len(columns))
    ]
    widths = [max([len(c), *(len(t[i]) for t in texts)]) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        cells = [
            v.rjust(w) if right else v.ljust(w)
            for v, w, right in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(cells).rstrip()

    click.echo(line(columns))
    click.echo(line(["-" * w for w in widths]))
    for t in texts:
        click.echo(line(t))
