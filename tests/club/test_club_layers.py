"""The club is an outer layer: the table service knows nothing of it, and its sync and store
(``companion.club``) know nothing of Flask or the web; the club's web side is in ``web.club``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
    return names


def test_the_table_service_imports_nothing_of_the_club_or_the_network():
    names = imported(ROOT / "companion" / "table")
    assert not {
        n for n in names if n.startswith(("companion.club", "psycopg", "http", "urllib", "socket"))
    }


def test_the_clubs_sync_and_store_import_no_web_code():
    names = imported(ROOT / "companion" / "club")
    assert not {n for n in names if n.split(".")[0] in ("web", "flask", "werkzeug")}


def test_a_table_needs_no_database_driver_to_back_itself_up():
    """The Pi's side (sync, client, restore, wire) speaks HTTP with the standard library."""
    for name in ("sync", "client", "restore", "wire"):
        names = imported_file(ROOT / "companion" / "club" / f"{name}.py")
        assert not {n for n in names if n.startswith(("psycopg", "openskill"))}, name


def imported_file(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names
