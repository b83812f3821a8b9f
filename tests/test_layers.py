"""The layers import inwards only (docs/architecture.md), read from the source itself.

- A game imports the standard library, the protocol and its own package: nothing else.
- The protocol imports the standard library and itself.
- The table service imports no dice, web, vision or Bluetooth code.
- Nothing under ``companion`` imports ``web`` or ``vision`` (outer layers plug in through entry
  points), and ``vision`` meets the rest only through dice readings.
- No two modules import each other, directly or round a cycle.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "web", "vision")
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, at module level?) for every import in ``path``."""
    tree = ast.parse(path.read_text("utf-8"))
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top_level = {id(node) for node in tree.body}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, id(node) in top_level) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            out.append((target, id(node) in top_level))
    return out


MODULES = {
    module_name(p): p
    for pkg in PACKAGES
    for p in (ROOT / pkg).rglob("*.py")
    if "build" not in p.parts
}


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_every_game_imports_only_the_standard_library_the_protocol_and_itself():
    games = {m.split(".")[2] for m in MODULES if m.startswith("companion.games.")}
    assert "new_don" in games
    bad = []
    for module, path in MODULES.items():
        if not within(module, "companion.games") or module == "companion.games":
            continue
        own = ".".join(module.split(".")[:3])
        for target, _ in imports(path):
            root = target.split(".")[0]
            if root in STDLIB or within(target, "companion.protocol") or within(target, own):
                continue
            bad.append(f"{module} imports {target}")
    assert not bad, "\n".join(bad)


def test_the_protocol_imports_only_the_standard_library():
    bad = [
        f"{m} imports {t}"
        for m, p in MODULES.items()
        if within(m, "companion.protocol")
        for t, _ in imports(p)
        if t.split(".")[0] not in STDLIB and not within(t, "companion.protocol")
    ]
    assert not bad, "\n".join(bad)


def test_the_table_service_imports_no_dice_web_vision_or_bluetooth_code():
    banned = ("web", "vision", "bleak", "companion.dice", "companion.die", "serial", "flask")
    bad = [
        f"{m} imports {t}"
        for m, p in MODULES.items()
        if within(m, "companion.table")
        for t, _ in imports(p)
        if any(within(t, b) for b in banned)
    ]
    assert not bad, "\n".join(bad)


def test_companion_imports_no_outer_layer_and_vision_only_dice_readings():
    bad = [
        f"{m} imports {t}"
        for m, p in MODULES.items()
        if within(m, "companion")
        for t, _ in imports(p)
        if within(t, "web") or within(t, "vision")
    ]
    bad += [
        f"{m} imports {t}"
        for m, p in MODULES.items()
        if within(m, "vision")
        for t, _ in imports(p)
        if within(t, "web") or (within(t, "companion") and t != "companion.dice.reading")
    ]
    assert not bad, "\n".join(bad)


def test_no_import_cycles():
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in MODULES.items():
        for target, at_top in imports(path):
            if not at_top:
                continue  # an import inside a function runs later: it cannot make a cycle
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != module and not module.startswith(target + "."):
                graph[module].add(target)
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        seen[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in seen and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        seen[node] = 2
        return None

    for module in sorted(MODULES):
        if module not in seen and (cycle := visit(module)):
            raise AssertionError("import cycle: " + " -> ".join(cycle))
