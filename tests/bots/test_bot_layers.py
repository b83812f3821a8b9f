"""Bots live outside the games and reach them through the protocol and the registry only: a
bot cannot read an engine's state or secrets by importing it (read from the source itself)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = ("companion.bots", "companion.protocol", "companion.gamefiles", "companion.table")


def imported(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative imports hide where things come from"
            out.append(node.module or "")
    return out


def test_bots_import_games_only_through_the_protocol_and_the_registry() -> None:
    bad = []
    for path in sorted((ROOT / "companion" / "bots").glob("*.py")):
        for name in imported(path):
            root = name.split(".")[0]
            if root in sys.stdlib_module_names or root == "__future__":
                continue
            if name == "companion.games" or any(
                name == a or name.startswith(a + ".") for a in ALLOWED
            ):
                continue
            bad.append(f"{path.name} imports {name}")
    assert not bad, "\n".join(bad)
