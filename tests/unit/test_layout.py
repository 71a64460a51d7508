"""The package layout holds as docs/architecture.md's table says: every module under app/ on
one layer, each layer importing only itself and the layers its row names, and none of the
libraries its row forbids; no import cycle among app's modules, no module grown past 400 lines
and no function past 60, and no module reaching into another's private names.

The table is read from the document itself, so the two cannot drift apart. The import graph
is read from the source with `ast` (every import, at module level or inside a function), so a
lazy import counts as much as a top-level one.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

APP_DIR = Path(__file__).resolve().parents[2] / "app"
DOC = APP_DIR.parent / "docs" / "architecture.md"
MAX_LINES = 400
# Modules allowed past MAX_LINES, each with its reason.
LONG_MODULES = {
    "app.systems.chainmail.sheet": "rule text data: the Chainmail sheet's tables and wording",
}
MAX_FUNCTION_LINES = 60
# Functions allowed past MAX_FUNCTION_LINES ("module:function"), each with its reason.
LONG_FUNCTIONS: dict[str, str] = {}
# The layers whose routes meet the database only as the `Session` SessionDep hands them.
SESSION_TYPE_ONLY = ("http", "api", "web")


@dataclass(frozen=True)
class Layer:
    name: str
    modules: tuple[str, ...]  # module names; a package stands for every module below it
    packages: tuple[str, ...]
    may_import: frozenset[str]  # other layers' names, or "everything"
    never: frozenset[str]  # libraries


def _code(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _names(cell: str) -> frozenset[str]:
    return frozenset(word.strip() for word in cell.split(",") if word.strip() not in ("", "—"))


def _table() -> dict[str, Layer]:
    """docs/architecture.md's table of layers: | layer | modules | what it holds | may import |
    never imports |."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| layer | modules |"))
    layers = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        name, modules, _, may_import, never = (c.strip() for c in line.strip("|").split("|"))
        paths = _code(modules)
        layers[name] = Layer(
            name,
            modules=tuple(_module_name(APP_DIR.parent / p) for p in paths if p.endswith(".py")),
            packages=tuple(p.rstrip("/").replace("/", ".") for p in paths if p.endswith("/")),
            may_import=_names(may_import), never=frozenset(_code(never)))
    return layers


def _layer_of(module: str, layers: dict[str, Layer]) -> str | None:
    """The layer a module is on: named itself, or under the deepest package named."""
    for layer in layers.values():
        if module in layer.modules:
            return layer.name
    found = [(len(package), layer.name) for layer in layers.values()
             for package in layer.packages if _within(module, (package,))]
    return max(found)[1] if found else None


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
    assert "app.domain.text_writing" in graph["app.systems.chainmail.text"]


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


def _libraries(path: Path) -> dict[str, set[str]]:
    """The libraries (not app) a module imports, each with the names it takes from it
    ("*" for a plain `import`)."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.setdefault(alias.name.split(".")[0], set()).add("*")
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = {alias.name for alias in node.names}
            found.setdefault(node.module.split(".")[0], set()).update(names)
    return {library: names for library, names in found.items() if library != "app"}


def test_every_module_is_on_a_layer_of_the_table() -> None:
    layers = _table()
    assert {"domain", "storage", "services", "http", "api", "web"} <= set(layers)
    modules = _modules()
    assert [name for name in modules if _layer_of(name, layers) is None] == []
    listed = [m for layer in layers.values() for m in (*layer.modules, *layer.packages)]
    assert [name for name in listed if name not in modules] == [], "the table names a module gone"


def test_layers_import_only_what_the_table_allows() -> None:
    layers = _table()
    bad = sorted(
        f"{name} ({layer}) imports {target} ({target_layer})"
        for name, targets in _graph().items()
        for layer in [_layer_of(name, layers)]
        if layer is not None and "everything" not in layers[layer].may_import
        for target in targets if target.split(".")[0] == "app"
        for target_layer in [_layer_of(target, layers)]
        if target_layer != layer and target_layer not in layers[layer].may_import)
    assert bad == []


def _library_imports(layers: dict[str, Layer]) -> list[tuple[str, str, str, set[str]]]:
    """(module, its layer, a library it imports, the names it takes from it)."""
    return [(name, layer, library, names) for name, path in _modules().items()
            for layer in [_layer_of(name, layers)] if layer is not None
            for library, names in _libraries(path).items()]


def test_no_layer_imports_a_library_its_row_forbids() -> None:
    layers = _table()
    bad = sorted(f"{name} ({layer}) imports {library}"
                 for name, layer, library, _ in _library_imports(layers)
                 if library in layers[layer].never)
    assert bad == []


def test_above_the_services_sqlmodel_gives_only_the_session_type() -> None:
    bad = sorted(f"{name} imports {sorted(names)} of sqlmodel"
                 for name, layer, library, names in _library_imports(_table())
                 if layer in SESSION_TYPE_ONLY and library == "sqlmodel" and names != {"Session"})
    assert bad == []


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


# The modules outside a rule system's own package that may name a system's id, with why.
NAMING_A_SYSTEM = {
    "app.systems": "the registry: one import and one entry a system",
    # Formation Density's melee calculator reads stored rosters' units, which a system's pure
    # calculator (app/domain/calculator.py) cannot: its page and its operation are routes.
    "app.web.calculators.melee": "the melee calculator's page, over stored rosters",
    "app.api.calculators": "the melee calculator's operation, over stored rosters",
}
MAX_NAMING_A_SYSTEM = 3


def _system_ids() -> list[str]:
    systems = APP_DIR / "systems"
    return sorted(path.parent.name for path in systems.glob("*/__init__.py")
                  if (path.parent / "templates").is_dir())


def test_only_the_registry_names_a_rule_system() -> None:
    """A rule system is asked for through the RuleSystem contract, never by its id: outside
    `app/systems/<id>/`, no module's code names one (its words, in comments and docstrings,
    may), so a new system is a folder and a registry line."""
    ids = _system_ids()
    assert {"chainmail", "line_and_square", "formation_density"} <= set(ids)
    said = re.compile(r"\b(" + "|".join(ids) + r")\b")
    naming = set()
    for name, path in _modules().items():
        if any(_within(name, (f"app.systems.{id_}",)) for id_ in ids):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                           ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            words: list[str] = []
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docstrings:
                words = [node.value]
            elif isinstance(node, ast.ImportFrom):
                words = [node.module or "", *(alias.name for alias in node.names)]
            elif isinstance(node, ast.Import):
                words = [alias.name for alias in node.names]
            if any(said.search(word) for word in words):
                naming.add(name)
    assert naming <= set(NAMING_A_SYSTEM), sorted(naming - set(NAMING_A_SYSTEM))
    assert len(NAMING_A_SYSTEM) <= MAX_NAMING_A_SYSTEM
