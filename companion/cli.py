"""The ``companion`` command line."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    print("companion: not built yet")
    return 0
