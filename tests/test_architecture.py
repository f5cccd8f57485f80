"""The package's structure, read from its source with ``ast``
(docs/DESIGN.md#the-service-by-domain): the service's domains import only the domains
before them, no module of ``ratings`` is in an import circle (deferred imports inside
functions count too), and nothing imports the CLI but the CLI itself."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import ratings

PACKAGE = Path(ratings.__file__).parent

DOMAINS = ("shared", "rating", "register", "imports", "titles", "corrections", "reading")
"""The service's domain packages, in order: each may import those before it, never after."""


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported(
    tree: ast.Module,
    name: str,
    is_package: bool,
    modules: Collection[str],
    type_checking: bool = False,
) -> Iterator[tuple[str, int]]:
    """Every module an import statement of ``tree`` names (``from a import b``: ``a.b``
    when that is a module, else ``a``), with its line; ``TYPE_CHECKING`` blocks only when
    ``type_checking`` (they are never run, but a circle in types is still a circle)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if (
            not type_checking
            and isinstance(node, ast.If)
            and "TYPE_CHECKING" in ast.unparse(node.test)
        ):
            skip.update(id(n) for n in ast.walk(node))
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            if not all(n in modules for n in names):
                yield base, node.lineno
            for target in names:
                if target in modules:
                    yield target, node.lineno


def import_graph(root: Path, type_checking: bool = False) -> dict[str, dict[str, int]]:
    """Module -> {module of the package it imports: line} (``TYPE_CHECKING`` imports too
    when ``type_checking``)."""
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        edges: dict[str, int] = {}
        is_package = path.name == "__init__.py"
        for target, line in imported(tree, name, is_package, paths, type_checking):
            if target in paths and target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def domain_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["ratings", "service"] and len(parts) > 2 and parts[2] in DOMAINS:
        return parts[2]
    return None


def against_the_order(graph: Mapping[str, Mapping[str, int]]) -> list[str]:
    """``module:line imports target`` for each import of a later domain by an earlier one."""
    found = []
    for module, edges in graph.items():
        mine = domain_of(module)
        if mine is None:
            continue
        for target, line in edges.items():
            theirs = domain_of(target)
            if theirs is not None and DOMAINS.index(theirs) > DOMAINS.index(mine):
                found.append(f"{module}:{line} imports {target} ({mine} may not import {theirs})")
        if "ratings.service" in edges:
            found.append(f"{module}:{edges['ratings.service']} imports the service's facade")
    return sorted(found)


def circles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def without_packages(graph: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """The graph without the edges from a module to its own parent packages: importing
    ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first, so ``ratings.service`` lazily
    loading a name from a module of its own is no circle."""
    return {
        module: {
            target: line for target, line in edges.items() if not module.startswith(f"{target}.")
        }
        for module, edges in graph.items()
    }


def test_every_domain_is_a_package_with_its_rule_written() -> None:
    for domain in DOMAINS:
        init = PACKAGE / "service" / domain / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text("utf-8"))) or ""
        assert "May import:" in doc, f"{init}: say which domains it may import"
    flat = sorted(p.name for p in (PACKAGE / "service").glob("*.py"))
    assert flat == ["__init__.py"], f"service/ holds domains only: {flat}"


def test_the_domains_import_in_order() -> None:
    assert against_the_order(import_graph(PACKAGE, type_checking=True)) == []


def test_no_import_circle() -> None:
    """Not even in types: a circle drawn only for the type checker still ties two modules
    that should be read one after the other."""
    assert circles(without_packages(import_graph(PACKAGE, type_checking=True))) == []


def test_nothing_imports_the_cli() -> None:
    graph = import_graph(PACKAGE)
    bad = [
        f"{module} imports {target}"
        for module, edges in graph.items()
        if not module.startswith("ratings.cli") and module != "ratings.__main__"
        for target in edges
        if target.startswith("ratings.cli")
    ]
    assert bad == []


def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    root = tmp_path / "ratings"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


def test_the_walk_finds_an_import_against_the_order_and_a_circle(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "service/__init__.py": "",
            "service/rating/__init__.py": "",
            "service/rating/rate.py": "def f():\n    from ratings.service.reading import reports\n",
            "service/reading/__init__.py": "",
            "service/reading/reports.py": "from ratings.service.rating.rate import f\n",
            "service/reading/check.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from ratings.service.reading import reports\n"
            ),
        },
    )
    graph = import_graph(root)
    assert against_the_order(graph) == [
        "ratings.service.rating.rate:2 imports ratings.service.reading.reports "
        "(rating may not import reading)"
    ]
    assert circles(without_packages(graph)) == [
        ["ratings.service.rating.rate", "ratings.service.reading.reports"]
    ]
    assert "ratings.service.reading.reports" not in graph["ratings.service.reading.check"]
