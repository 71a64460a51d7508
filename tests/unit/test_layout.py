"""The package layout holds: no import cycle among app's modules, the domain free of the web and
storage stacks, the services free of the HTTP layers, the API and the pages apart, the
middleware free of both, no module grown past 400 lines and no function past 60, and no module
reaching into another's private names.

The import graph is read from the source with `ast` (every import, at module level or inside a
function), so a lazy import counts as much as a top-level one.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP_DIR = Path(__file__).resolve().parents[2] / "app"
MAX_LINES = 400
# Modules allowed past MAX_LINES, each with its reason.
LONG_MODULES = {
    "app.domain.chainmail.sheet": "rule text data: the Chainmail sheet's tables and wording",
}
MAX_FUNCTION_LINES = 60
# Functions allowed past MAX_FUNCTION_LINES ("module:function"), each with its reason.
LONG_FUNCTIONS: dict[str, str] = {}
DOMAIN_FORBIDDEN = ("app.storage", "app.services", "app.api", "app.web", "app.http",
                    "app.exports", "fastapi", "sqlmodel", "sqlalchemy", "jinja2", "starlette")
# Each layer, and the layers it may not import.
FORBIDDEN = {
    "app.services": ("app.api", "app.web", "app.http"),
    "app.api": ("app.web",),
    "app.web": ("app.api",),
    "app.http": ("app.api", "app.web"),
}
# Imports across those lines that are allowed, each with its reason.
ALLOWED: dict[tuple[str, str], str] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(APP_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(APP_DIR.rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module `name` imports: `from a.b import c` is a.b.c when that is a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in known else base)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _within(target: str, prefixes: tuple[str, ...]) -> bool:
    return any(target == prefix or target.startswith(prefix + ".") for prefix in prefixes)


def test_the_graph_sees_the_packages() -> None:
    graph = _graph()
    for package in ("app.domain", "app.storage", "app.services", "app.exports", "app.http",
                    "app.api", "app.web"):
        assert package in graph
    assert "app.storage.db" in graph["app.lifespan"]
    assert "app.exports.common" in graph["app.exports.chainmail"]


def test_no_import_cycle() -> None:
    graph = _graph()
    edges = {name: {t for t in targets if t in graph and t != name}
             for name, targets in graph.items()}
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> None:
        path.append(node)
        on_path.add(node)
        for target in sorted(edges[node]):
            if target in on_path:
                cycle = path[path.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in done:
                visit(target)
        on_path.discard(node)
        path.pop()
        done.add(node)

    for name in sorted(edges):
        if name not in done:
            visit(name)


def test_domain_imports_no_outer_layer() -> None:
    bad = {name: sorted(t for t in targets if _within(t, DOMAIN_FORBIDDEN))
           for name, targets in _graph().items() if _within(name, ("app.domain",))}
    assert {name: targets for name, targets in bad.items() if targets} == {}


def test_layers_import_only_what_they_may() -> None:
    graph = _graph()
    bad = {name: sorted(t for t in targets if _within(t, forbidden) and (name, t) not in ALLOWED)
           for layer, forbidden in FORBIDDEN.items()
           for name, targets in graph.items() if _within(name, (layer,))}
    assert {name: targets for name, targets in bad.items() if targets} == {}
    assert all(target in graph.get(name, ()) for name, target in ALLOWED), \
        "an allowed import is gone"


def test_no_module_over_the_line_limit() -> None:
    long = {name: len(path.read_text(encoding="utf-8").splitlines())
            for name, path in _modules().items()}
    over = {name: lines for name, lines in long.items()
            if lines > MAX_LINES and name not in LONG_MODULES}
    assert over == {}
    assert all(name in long for name in LONG_MODULES), "an allowlisted module is gone"


def test_no_function_over_the_line_limit() -> None:
    lengths = {
        f"{name}:{node.name}": node.end_lineno - node.lineno + 1  # type: ignore[operator]
        for name, path in _modules().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    over = {where: lines for where, lines in lengths.items()
            if lines > MAX_FUNCTION_LINES and where not in LONG_FUNCTIONS}
    assert over == {}
    assert all(lengths.get(where, 0) > MAX_FUNCTION_LINES for where in LONG_FUNCTIONS), \
        "an allowlisted function is gone or back under the limit"


def test_no_module_imports_another_modules_private_names() -> None:
    # A name a module shares is public: `_name` says "only here", so importing it hides a
    # dependency the next engineer cannot see from the name.
    private = sorted(
        f"{name} imports {node.module}.{alias.name}"
        for name, path in _modules().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("app")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__"))
    assert private == []
