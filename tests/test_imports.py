"""termrl's modules import each other without cycles (module-level imports, read with ast)."""

from __future__ import annotations

import ast
from pathlib import Path

import termrl

PACKAGE = Path(termrl.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _runtime_imports(tree: ast.Module, module: str, is_package: bool) -> list[str]:
    """Modules named by imports that run when ``module`` is imported: not those inside functions
    or under ``if TYPE_CHECKING:``."""
    found: list[str] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                found.extend(f"{base}.{alias.name}" for alias in node.names)
                found.append(base)
            for field in ("body", "orelse", "finalbody", "handlers"):
                visit(getattr(node, field, []) or [])

    visit(tree.body)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the termrl modules importing it runs first: each target, and the packages above a
    target (their ``__init__`` runs too) except the importer's own packages (already running)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        edges: set[str] = set()
        for target in _runtime_imports(ast.parse(path.read_text()), name, path.name == "__init__.py"):
            while target and target not in modules:  # `from pkg.mod import name`: the module is pkg.mod
                target = target.rpartition(".")[0]
            if not target.startswith("termrl"):
                continue
            parts = target.split(".")
            for i in range(2, len(parts) + 1):  # the root package's __init__ is left out: it imports everything
                step = ".".join(parts[:i])
                if step in modules and step not in own and step != name:
                    edges.add(step)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := dfs(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := dfs(node)):
            return cycle
    return None


def test_the_graph_sees_the_imports():
    graph = import_graph()
    assert "termrl.types" in graph["termrl.rollout.episode"]
    assert "termrl.rewards" in graph["termrl.rollout.episode"]  # the package __init__ of rewards.base runs too
    assert "termrl.cli.app" in graph["termrl.cli.run"] and "termrl.cli" not in graph["termrl.cli.run"]
    assert graph["termrl.types"] == set()


def test_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles_inside_termrl():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
