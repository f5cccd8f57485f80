"""The triggers and views ratings makes in a SQLite database at the newest revision, as their
SQL: what ``ratings check`` holds a database's own against, and what a rebuild creates in its
scratch database instead of copying the checked file's.

A trigger planted in the file (``AFTER INSERT ON rating_history ... SET rating_after =
rating_after + 100``) changes what every rate writes, and a view rewritten changes what
``player show`` and every SQL reader see; a rebuild that copied them would agree with the
lists they falsified. ``tests/test_migrations.py`` checks that the migrations make exactly
these, so that a new revision that adds one adds it here too. (The views are
:data:`ratings.views.VIEWS`; the triggers' SQL is their revisions', ``0009`` and ``0017``.)

Pure: no I/O. PostgreSQL keeps its own normal form of a view's SQL: the comparison is made
on SQLite only.
"""

from __future__ import annotations

from collections.abc import Iterable

from ratings.views import VIEWS

__all__ = ["SQLITE_TRIGGERS", "expected_sqlite_objects", "foreign_sqlite_objects"]

_CORRECTIONS = "corrections is append-only: its lines are never changed or deleted"
_SEALS = "list_seals is append-only: a seal is never changed or deleted"

SQLITE_TRIGGERS = {
    f"{table}_no_{event.lower()}": (
        f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )
    for table, message in (("corrections", _CORRECTIONS), ("list_seals", _SEALS))
    for event in ("UPDATE", "DELETE")
}
"""Trigger name -> its SQL as SQLite keeps it (``sqlite_master.sql``)."""


def _normal(sql: str) -> str:
    return " ".join(sql.split())


def expected_sqlite_objects() -> dict[tuple[str, str], str]:
    """(``trigger`` or ``view``, name) -> its SQL, white space collapsed."""
    expected = {("trigger", name): _normal(sql) for name, sql in SQLITE_TRIGGERS.items()}
    expected.update({("view", view.name): _normal(view.create_sql()) for view in VIEWS})
    return expected


def foreign_sqlite_objects(found: Iterable[tuple[str, str, str | None]]) -> list[str]:
    """What differs between a database's triggers and views (``sqlite_master``'s ``type``,
    ``name`` and ``sql`` rows of those types) and ratings' own: one line each, by name."""
    expected = expected_sqlite_objects()
    held = {(kind, name): _normal(sql or "") for kind, name, sql in found}
    lines = []
    for kind, name in sorted(held.keys() | expected.keys(), key=lambda k: (k[1], k[0])):
        if (kind, name) not in expected:
            lines.append(
                f"{kind} {name!r} is not one ratings makes: it can change what is stored or read"
            )
        elif (kind, name) not in held:
            lines.append(f"{kind} {name!r} is missing")
        elif held[kind, name] != expected[kind, name]:
            lines.append(f"{kind} {name!r} is not ratings' own: its SQL was changed")
    return lines
