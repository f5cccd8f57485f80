"""Least privilege for ``ratings sql`` on PostgreSQL: the reader role and its query function.

A ``READ ONLY`` transaction stops writes to tables, but a superuser can still run
``COPY ... TO PROGRAM``, write files with ``COPY ... TO '/path'`` and read them with
``pg_read_file``. So every ``init`` and ``db upgrade`` on PostgreSQL:

* creates, if it is missing, the role :data:`READER_ROLE`: ``NOLOGIN``, no attributes, a member
  of no role. Roles belong to the whole cluster: several ratings databases share it, and it is
  never dropped;
* grants it ``USAGE`` on the schema and ``SELECT`` on the product's tables and views, and
  nothing else in that schema (refreshed every time, so new tables and views are covered);
* (re)creates :data:`QUERY_FUNCTION`, a ``SECURITY DEFINER`` function owned by the role that
  runs one query and returns its rows as JSON.

``ratings sql`` then enters the role with ``SET LOCAL ROLE`` inside its read-only transaction
and runs the query through the function. ``SET ROLE`` alone is not enough when the login is a
superuser: the query itself could call ``set_config('role', 'postgres', true)`` and then run
dynamic SQL (``query_to_xml('SELECT pg_read_file(...)', ...)``) with the login's privileges,
since PostgreSQL checks ``SET ROLE`` against the session user. Inside a security-definer
function PostgreSQL refuses to change ``role`` or ``session_authorization`` at all ("cannot set
parameter ... within security-definer function").

A connecting user without ``CREATEROLE`` cannot create the role: the upgrade still succeeds,
and ``ratings sql`` explains what to run.

The reader also holds what ``PUBLIC`` holds, and PostgreSQL lets ``PUBLIC`` run a few
functions that write even inside a read-only transaction: large objects (``lo_create``,
``lo_from_bytea`` ...; rolled back with the transaction) and ``pg_logical_emit_message``
(which wrote 50 MB of WAL from ``ratings sql``). The upgrade revokes
``EXECUTE`` on those (:data:`WRITING_FUNCTIONS`) from ``PUBLIC`` in the database where it may
(a superuser); where it may not, ``ratings sql`` warns and names the statement to run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, exc

from ratings import views
from ratings.errors import RatingsError
from ratings.models import Base

__all__ = [
    "PRODUCT_VIEWS",
    "QUERY_FUNCTION",
    "READER_ROLE",
    "WRITING_FUNCTIONS",
    "ReaderRoleError",
    "enter_reader_role",
    "product_relations",
    "refresh_reader_role",
    "writing_functions",
    "writing_functions_warning",
]

READER_ROLE = "ratings_sql_reader"
"""The NOLOGIN role ``ratings sql`` runs as on PostgreSQL (one per cluster, shared)."""

QUERY_FUNCTION = "ratings_sql_query"
"""The security-definer function, owned by :data:`READER_ROLE`, that runs the query."""

PRODUCT_VIEWS = views.view_names()
"""Views the migrations create, from :data:`ratings.views.VIEWS` (tests check that this list
matches the schema)."""

VERSION_TABLE = "alembic_version"

WRITING_FUNCTIONS = (
    "lo_creat",
    "lo_create",
    "lo_from_bytea",
    "lo_put",
    "lo_truncate",
    "lo_truncate64",
    "lo_unlink",
    "lowrite",
    "pg_logical_emit_message",
)
"""``pg_catalog`` functions ``PUBLIC`` may run by default that write in a read-only
transaction (``lo_import`` and ``lo_export`` are the superuser's already)."""

# the function's body, compared at run time so that an old or altered one is not used. The
# statement runs as it was written (its trailing ";" and comments too); a STABLE function's
# SPI refuses anything but a query, and row_to_json keeps every column, repeated names
# included, in order.
_FUNCTION_BODY = """
DECLARE
  ratings_sql_row record;
BEGIN
  FOR ratings_sql_row IN EXECUTE $1 LOOP
    RETURN NEXT row_to_json(ratings_sql_row)::text;
  END LOOP;
END
"""


class ReaderRoleError(RatingsError):
    """``ratings sql`` cannot drop its privileges on PostgreSQL."""


def product_relations() -> frozenset[str]:
    """The tables and views the reader may SELECT from."""
    return frozenset(Base.metadata.tables) | set(PRODUCT_VIEWS) | {VERSION_TABLE}


def _ident(name: str) -> str:
    """A PostgreSQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


def _scalar(conn: Connection, sql: str, **params: Any) -> Any:
    result = conn.exec_driver_sql(sql, params) if params else conn.exec_driver_sql(sql)
    return result.scalar()


def _attempt(conn: Connection, *statements: str) -> bool:
    """Run ``statements`` in a savepoint; False (and nothing done) if the server refuses."""
    savepoint = conn.begin_nested()
    try:
        for statement in statements:
            conn.exec_driver_sql(statement)
    except exc.DBAPIError:
        savepoint.rollback()
        return False
    savepoint.commit()
    return True


def _role_exists(conn: Connection, role: str) -> bool:
    return bool(_scalar(conn, "SELECT count(*) FROM pg_roles WHERE rolname = %(r)s", r=role))


def refresh_reader_role(conn: Connection) -> bool:
    """After a migration, in its transaction: the reader role, its grants and the query
    function (PostgreSQL only; a no-op elsewhere).

    Idempotent. Returns False, having changed nothing it could not finish, when the
    connecting user may not create the role or grant to it; ``ratings sql`` then refuses
    with the reason.
    """
    if conn.dialect.name != "postgresql":
        return True
    role = READER_ROLE
    schema = _scalar(conn, "SELECT current_schema()")
    if schema is None:
        return False
    if not _role_exists(conn, role):
        # a concurrent init elsewhere in the cluster may create it first: then this fails
        # (duplicate key) and the role is there all the same
        _attempt(
            conn,
            f"CREATE ROLE {_ident(role)} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
            "NOINHERIT NOREPLICATION NOBYPASSRLS",
        )
        if not _role_exists(conn, role):
            return False
    superuser = bool(_scalar(conn, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"))
    if not superuser and not _scalar(conn, "SELECT pg_has_role(%(r)s, 'MEMBER')", r=role):
        # SET ROLE needs membership (a superuser needs none)
        _attempt(conn, f"GRANT {_ident(role)} TO CURRENT_USER")
    existing = {
        name
        for (name,) in conn.exec_driver_sql(
            "SELECT relname FROM pg_class WHERE relnamespace = %(s)s::regnamespace "
            "AND relkind IN ('r', 'v', 'm', 'p', 'f')",
            {"s": _ident(schema)},
        )
    }
    relations = sorted(product_relations() & existing)
    s, r = _ident(schema), _ident(role)
    function = f"{s}.{_ident(QUERY_FUNCTION)}(text)"
    statements = [
        # exactly the product's tables and views: whatever else it held here goes
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {r}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM {r}",
        f"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA {s} FROM {r}",
        f"GRANT USAGE ON SCHEMA {s} TO {r}",
    ]
    if not set(relations) - {VERSION_TABLE}:  # downgraded to base: nothing left to read
        return _attempt(conn, *statements, f"DROP FUNCTION IF EXISTS {function}")
    statements += [
        f"GRANT SELECT ON {', '.join(s + '.' + _ident(n) for n in relations)} TO {r}",
        f"CREATE OR REPLACE FUNCTION {function} RETURNS SETOF text LANGUAGE plpgsql STABLE "
        f"SECURITY DEFINER AS $ratings${_FUNCTION_BODY}$ratings$",
        # a new owner must be able to create in the schema (superusers skip that check)
        f"GRANT CREATE ON SCHEMA {s} TO {r}",
        f"ALTER FUNCTION {function} OWNER TO {r}",
        f"REVOKE CREATE ON SCHEMA {s} FROM {r}",
        f"REVOKE ALL ON FUNCTION {function} FROM PUBLIC",
        f"GRANT EXECUTE ON FUNCTION {function} TO {r}",
    ]
    done = _attempt(conn, *statements)
    if done:
        # superusers only (the functions belong to the bootstrap superuser); without it,
        # ratings sql warns
        revokes = [
            f"REVOKE EXECUTE ON FUNCTION {sig} FROM PUBLIC" for sig in writing_functions(conn)
        ]
        if revokes:
            _attempt(conn, *revokes)
    return done


def writing_functions(conn: Connection) -> list[str]:
    """The signatures of :data:`WRITING_FUNCTIONS` that the reader role may run."""
    if not _role_exists(conn, READER_ROLE):
        return []
    return [
        str(sig)
        for (sig,) in conn.exec_driver_sql(
            "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = "
            "'pg_catalog'::regnamespace AND p.proname = ANY(%(names)s) AND "
            "has_function_privilege(%(r)s, p.oid, 'EXECUTE') ORDER BY 1",
            {"names": list(WRITING_FUNCTIONS), "r": READER_ROLE},
        )
    ]


def writing_functions_warning(conn: Connection) -> str | None:
    """Why ``ratings sql`` is not read-only on this database yet, or None."""
    signatures = writing_functions(conn)
    if not signatures:
        return None
    names = sorted({sig.partition("(")[0] for sig in signatures})
    return (
        f"the role {READER_ROLE!r} may still run {', '.join(names)}, which write even in a "
        "read-only transaction; a superuser should run 'ratings db upgrade', or: REVOKE "
        f"EXECUTE ON FUNCTION {', '.join(signatures)} FROM PUBLIC"
    )


@dataclass(frozen=True, slots=True)
class _Role:
    superuser: bool
    createrole: bool
    createdb: bool
    replication: bool
    bypassrls: bool
    member_of: tuple[str, ...]


def _create_advice(user: str) -> str:
    role = READER_ROLE
    return (
        f"run 'ratings db upgrade' as a user with CREATEROLE (or a superuser), or have an "
        f"administrator run: CREATE ROLE {role} NOLOGIN; GRANT {role} TO {_ident(user)}; "
        "then 'ratings db upgrade'"
    )


def enter_reader_role(conn: Connection) -> str:
    """Inside ``ratings sql``'s read-only transaction: check the reader role, switch to it
    (``SET LOCAL ROLE``), and return the query function's qualified name.

    :raises ReaderRoleError: when the role is missing, has more than its grants, cannot be
        entered, or the query function is missing or not the one this version installs.
    """
    role = READER_ROLE
    user = str(_scalar(conn, "SELECT session_user"))
    row = conn.exec_driver_sql(
        "SELECT r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls, "
        "ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid "
        "WHERE m.member = r.oid ORDER BY 1) FROM pg_roles r WHERE r.rolname = %(r)s",
        {"r": role},
    ).one_or_none()
    if row is None:
        raise ReaderRoleError(
            f"the PostgreSQL role {role!r} is missing, and ratings sql does not run queries "
            f"with the privileges of {user!r}; {_create_advice(user)}"
        )
    found = _Role(
        superuser=bool(row[0]),
        createrole=bool(row[1]),
        createdb=bool(row[2]),
        replication=bool(row[3]),
        bypassrls=bool(row[4]),
        member_of=tuple(str(name) for name in row[5]),
    )
    extra = [
        name
        for name, present in (
            ("SUPERUSER", found.superuser),
            ("CREATEROLE", found.createrole),
            ("CREATEDB", found.createdb),
            ("REPLICATION", found.replication),
            ("BYPASSRLS", found.bypassrls),
        )
        if present
    ]
    if extra or found.member_of:
        what = ", ".join([*extra, *(f"member of {name}" for name in found.member_of)])
        fixes = []
        if extra:
            fixes.append(f"ALTER ROLE {role} " + " ".join("NO" + name for name in extra))
        fixes += [f"REVOKE {_ident(name)} FROM {role}" for name in found.member_of]
        raise ReaderRoleError(
            f"the PostgreSQL role {role!r} must hold SELECT grants only, but has: {what}; "
            f"an administrator should run: {'; '.join(fixes)}"
        )
    try:
        conn.exec_driver_sql(f"SET LOCAL ROLE {_ident(role)}")
    except exc.DBAPIError as error:
        raise ReaderRoleError(
            f"ratings sql cannot switch to the PostgreSQL role {role!r} "
            f"({_first_line(error)}); have an administrator run: "
            f"GRANT {role} TO {_ident(user)}"
        ) from error
    function = conn.exec_driver_sql(
        "SELECT p.prosecdef, pg_get_userbyid(p.proowner), p.prosrc, "
        "quote_ident(n.nspname) || '.' || quote_ident(p.proname) FROM pg_proc p "
        "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.oid = to_regprocedure("
        "quote_ident(current_schema()) || '.' || quote_ident(%(f)s) || '(text)')",
        {"f": QUERY_FUNCTION},
    ).one_or_none()
    if function is None or not (
        function[0] and function[1] == role and function[2] == _FUNCTION_BODY
    ):
        state = "missing" if function is None else "not the one this version of ratings installs"
        raise ReaderRoleError(
            f"the function {QUERY_FUNCTION!r} that runs ratings sql's queries as {role!r} is "
            f"{state}; run 'ratings db upgrade' as the owner of the database's tables or a "
            "superuser"
        )
    return str(function[3])


def _first_line(error: exc.DBAPIError) -> str:
    text = str(error.orig).strip()
    return text.splitlines()[0] if text else repr(error.orig)
