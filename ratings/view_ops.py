"""The Alembic side of :mod:`ratings.views`: the operations ``op.create_view``,
``op.drop_view`` and ``op.replace_view(new, replaces=old)`` (Alembic cookbook, "Replaceable
Objects"), and the autogenerate comparison that makes ``alembic check`` (``ratings db check``)
report a view that is missing, extra or has other columns.

``migrations/env.py`` imports this module, which registers them. It is apart from
:mod:`ratings.views` so that the commands that only read the views' names (every command
checks the schema version; ``ratings sql`` grants the views) start without importing Alembic
(so that a fresh ``ratings history`` answers in under 1 s).
"""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import comparators, renderers
from alembic.autogenerate.api import AutogenContext
from alembic.operations import MigrateOperation, Operations
from alembic.operations.ops import UpgradeOps

from ratings import views
from ratings.views import VIEWS, View, view_names

__all__ = ["CreateViewOp", "DropViewOp"]


# --- operations (the cookbook's ReversibleOp, with the objects passed directly) -------------


class _ViewOp(MigrateOperation):
    """An operation on one view."""

    def __init__(self, view: View) -> None:
        self.view = view

    @classmethod
    def invoke_for_target(cls, operations: Operations, view: View) -> Any:
        """``op.create_view(view)`` / ``op.drop_view(view)``."""
        return operations.invoke(cls(view))

    @classmethod
    def replace(cls, operations: Operations, view: View, *, replaces: View) -> Any:
        """``op.replace_view(new, replaces=old)``: drop the old version, create the new."""
        operations.invoke(DropViewOp(replaces))
        return operations.invoke(CreateViewOp(view))


@Operations.register_operation("create_view", "invoke_for_target")
@Operations.register_operation("replace_view", "replace")
class CreateViewOp(_ViewOp):
    """Create a view (its reverse drops it)."""

    def reverse(self) -> MigrateOperation:
        return DropViewOp(self.view)

    def to_diff_tuple(self) -> tuple[Any, ...]:
        return ("create_view", self.view.name)


@Operations.register_operation("drop_view", "invoke_for_target")
class DropViewOp(_ViewOp):
    """Drop a view (its reverse creates it)."""

    def reverse(self) -> MigrateOperation:
        return CreateViewOp(self.view)

    def to_diff_tuple(self) -> tuple[Any, ...]:
        return ("drop_view", self.view.name)


@Operations.implementation_for(CreateViewOp)
def _create_view(operations: Operations, operation: CreateViewOp) -> None:
    operations.execute(operation.view.create_sql())


@Operations.implementation_for(DropViewOp)
def _drop_view(operations: Operations, operation: DropViewOp) -> None:
    operations.execute(f"DROP VIEW {operation.view.name}")


# --- autogenerate: compare the views at head with the database ------------------------------


def _normalized(sql: str) -> str:
    return " ".join(sql.split()).rstrip(";").strip().lower()


@comparators.dispatch_for("schema")
def _compare_views(autogen_context: AutogenContext, upgrade_ops: UpgradeOps, schemas: Any) -> None:
    """Missing, extra and changed views become create/drop operations, so that ``alembic
    check`` fails on them. Changed: other columns (both backends), or other SQL text (SQLite,
    which keeps the text it was given; PostgreSQL rewrites it)."""
    inspector = autogen_context.inspector
    connection = autogen_context.connection
    if inspector is None or connection is None:
        return
    existing = set(inspector.get_view_names())
    for view in VIEWS:
        if view.name not in existing:
            upgrade_ops.ops.append(CreateViewOp(view))
            continue
        columns = tuple(c["name"] for c in inspector.get_columns(view.name))
        changed = columns != view.columns
        if connection.dialect.name == "sqlite":
            stored = connection.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", (view.name,)
            ).scalar()
            changed = changed or _normalized(str(stored)) != _normalized(view.create_sql())
        if changed:
            upgrade_ops.ops.append(DropViewOp(_known(view.name, columns)))
            upgrade_ops.ops.append(CreateViewOp(view))
    for name in sorted(existing - set(view_names())):
        columns = tuple(c["name"] for c in inspector.get_columns(name))
        upgrade_ops.ops.append(DropViewOp(_known(name, columns)))


def _versions() -> list[View]:
    """Every version of every view defined in :mod:`ratings.views`."""
    return [v for v in vars(views).values() if isinstance(v, View)]


def _known(name: str, columns: tuple[str, ...]) -> View:
    """The version of view ``name`` with these columns, if :mod:`ratings.views` defines one (for the
    rendered ``op.drop_view``), else a stand-in with no SQL."""
    for view in reversed(_versions()):
        if view.name == name and view.columns == columns:
            return view
    return View(name, "", columns)


@renderers.dispatch_for(CreateViewOp)
def _render_create_view(autogen_context: AutogenContext, op: CreateViewOp) -> str:
    return f"op.create_view(views.{_constant(op.view)})  # add `from ratings import views`"


@renderers.dispatch_for(DropViewOp)
def _render_drop_view(autogen_context: AutogenContext, op: DropViewOp) -> str:
    return f"op.drop_view(views.{_constant(op.view)})  # the version the database holds"


def _constant(view: View) -> str:
    """The name of the constant of :mod:`ratings.views` that holds ``view``, or a placeholder
    to fill in."""
    for name, value in vars(views).items():
        if value is view:
            return name
    return view.name.upper() + "_UNKNOWN_VERSION"
