"""One name, one meaning: the Python result types name what the schema
names with the schema's names (``k_used`` and ``next_k``, ``dr`` and ``change``,
``period_games`` and ``total_games``, ``list_status``), and no two classes share a name."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.service.reading import cards, check, crosstable, publish, reports, summary

RELATIONS = ("rating_lists", "current_ratings", "rating_calculations", "rating_history",
             "rating_breakdown", "rating_periods", "games")  # fmt: skip

CARD_OTHERS = ("player", "lines", "pooled", "first_rating", "first_event", "adjustment",
               "unadjusted", "dr_sum")  # fmt: skip

# type -> (the relations whose columns it holds, its fields that are no column)
TYPES: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {
    reports.ListRow: (("rating_lists", "current_ratings", "rating_history"), ()),
    cards.HistoryRow: (("rating_lists", "rating_history"), ()),
    cards.CardLine: (("rating_calculations", "rating_breakdown", "games"), ()),
    cards.Card: (("rating_lists", "rating_history"), CARD_OTHERS),
    summary.CurrentRating: (("current_ratings",), ()),
    publish.SiteListRow: (("rating_lists",), ()),
    publish.PeriodRow: (("rating_lists", "rating_history"), ()),
    publish.CardGame: (("rating_calculations", "rating_breakdown", "games"), ("white",)),
    publish.EventRating: (("rating_calculations", "rating_breakdown"), ()),
    publish.SitePeriod: (
        ("rating_periods", "list_seals"),
        ("start", "end", "stamp", "seal_version"),
    ),
    rules.ListEntry: (("rating_history",), ()),
    rules.BreakdownLine: (("rating_breakdown", "rating_calculations"), ()),
}


def _names(cls: type) -> list[str]:
    """A result type's fields and properties."""
    if dataclasses.is_dataclass(cls):
        fields = [f.name for f in dataclasses.fields(cls)]
    else:
        fields = list(cls._fields)  # type: ignore[attr-defined]
    return fields + [name for name, value in vars(cls).items() if isinstance(value, property)]


@pytest.mark.parametrize("cls", list(TYPES), ids=lambda cls: cls.__name__)
def test_result_types_use_the_schema_names(session: Session, cls: type) -> None:
    relations, others = TYPES[cls]
    inspector = sa.inspect(session.connection())
    columns = {c["name"] for name in relations for c in inspector.get_columns(name)}
    assert [n for n in _names(cls) if n not in columns and n not in others] == []


def test_retired_names_are_gone(session: Session) -> None:
    """The names that meant two things: none is a result type's field, nor a column."""
    inspector = sa.inspect(session.connection())
    columns = {c["name"] for name in RELATIONS for c in inspector.get_columns(name)}
    retired = {"k", "games", "state", "status", "expected", "weighted", "expected_sum",
               "sum_change"}  # fmt: skip
    used = {n for cls in TYPES for n in _names(cls)} | {
        n for cls in (cards.Performance, crosstable.CrossRow, check.Disagreement)
        for n in _names(cls)
    }  # fmt: skip
    assert used & retired <= {"status"}  # rating_periods.status
    assert columns & retired == {"status"}
    assert "status" not in _names(publish.SiteListRow) + _names(reports.ListRow)


def test_no_two_classes_share_a_name() -> None:
    """One ``ListEntry`` (the engine's ``rating_history`` row; the site's is ``SiteListRow``),
    one ``Standing`` (the engine's; ``player show`` reads a ``CurrentRating``)."""
    where: dict[str, list[str]] = {}
    package = Path(rules.__file__).parent.parent
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(str(path.relative_to(package)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
    assert where["ListEntry"] == ["rules/engine.py"]
