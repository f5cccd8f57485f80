"""The library's public names are listed once (:mod:`ratings.public`): both facades load
them from there, and the imports their type checkers read say the same, name for name."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import ratings
from ratings import service
from ratings.public import PUBLIC, SERVICE

PACKAGE = Path(ratings.__file__).parent


def typed_imports(path: Path) -> dict[str, str]:
    """Name -> module of the ``from M import N as N`` lines of ``path``'s
    ``if TYPE_CHECKING:`` block."""
    tree = ast.parse(path.read_text("utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom), ast.unparse(stmt)
                assert stmt.module is not None
                for alias in stmt.names:
                    assert alias.asname == alias.name, f"{alias.name}: re-export it as itself"
                    found[alias.name] = stmt.module
    return found


def test_the_type_checkers_read_the_one_list() -> None:
    assert typed_imports(PACKAGE / "__init__.py") == PUBLIC
    assert typed_imports(PACKAGE / "service" / "__init__.py") == SERVICE


def test_every_public_name_is_loaded_from_its_module() -> None:
    assert ratings.__all__ == ["__version__", *sorted(PUBLIC)]
    assert service.__all__ == sorted(SERVICE)
    for name, module in PUBLIC.items():
        value = getattr(importlib.import_module(module), name)
        assert getattr(ratings, name) is value, name
        if name in SERVICE:
            assert getattr(service, name) is value, name


def test_the_service_exports_the_use_cases_and_nothing_of_the_layers_around_it() -> None:
    outside = {name for name, module in PUBLIC.items() if name not in SERVICE}
    assert {PUBLIC[name].split(".")[1] for name in outside} == {
        "errors",
        "library",
        "results",
        "rules",
    }
