"""``ratings sql "QUERY"``: administrators' queries on a read-only connection."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from decimal import Decimal
from typing import Any

import click

from ratings import migrate
from ratings.cli import App, pass_app
from ratings.db import make_engine
from ratings.service.sql import QueryResult, run_query


def _text(value: Any) -> str:
    """A value as table or CSV text: NULL is blank, booleans are true/false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    return str(value)


def _json_value(value: Any) -> Any:
    """A value as JSON: numbers stay numbers, dates become ISO text, blobs hex."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return _text(value)


def _unique(columns: tuple[str, ...]) -> list[str]:
    """Column names as JSON keys: a repeated name gets a suffix (id, id_2)."""
    seen: dict[str, int] = {}
    keys = []
    for name in columns:
        seen[name] = seen.get(name, 0) + 1
        keys.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return keys


def _table(result: QueryResult) -> str:
    """Aligned columns under a header: numbers to the right, text to the left."""
    cells = [[_text(v) for v in row] for row in result.rows]
    numeric = [
        bool(result.rows)
        and all(
            isinstance(row[i], int | float | Decimal) and not isinstance(row[i], bool)
            for row in result.rows
            if row[i] is not None
        )
        for i in range(len(result.columns))
    ]
    widths = [
        max([len(name), *(len(row[i]) for row in cells)]) for i, name in enumerate(result.columns)
    ]

    def line(values: list[str]) -> str:
        parts = [
            value.rjust(width) if right else value.ljust(width)
            for value, width, right in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    lines = [line(list(result.columns)), line(["-" * w for w in widths])]
    lines.extend(line(row) for row in cells)
    return "\n".join(lines) + "\n"


@click.command("sql")
@click.argument("query")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="Output format (json: a list of objects).",
)
@pass_app
def sql(app: App, query: str, fmt: str) -> None:
    """Run one read-only SQL statement (SELECT, PRAGMA table_info ...) and print the rows.

    Anything that would write (INSERT, UPDATE, DELETE, CREATE, DROP, ATTACH, PRAGMA
    writable_schema ...) is refused and changes nothing. Tables and views are described
    in the README's SQL cookbook.
    """
    engine = make_engine(app.url, read_only=True)
    try:
        migrate.ensure_current(engine)
        result = run_query(engine, query)
    finally:
        engine.dispose()
    if fmt == "json":
        keys = _unique(result.columns)
        objects = [
            {key: _json_value(value) for key, value in zip(keys, row, strict=True)}
            for row in result.rows
        ]
        click.echo(json.dumps(objects, indent=2))
    elif fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        if result.columns:
            writer.writerow(result.columns)
        writer.writerows([_text(v) for v in row] for row in result.rows)
        click.echo(out.getvalue(), nl=False)
    else:
        if result.columns:
            click.echo(_table(result), nl=False)
        n = len(result.rows)
        click.echo(f"({n} row{'' if n == 1 else 's'})", err=True)


def register(group: click.Group) -> None:
    """Add this command to the top-level group."""
    group.add_command(sql)
