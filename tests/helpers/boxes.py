"""Box geometry the vision tests share: a die's side face, found as a die of its own, lies
beside the die, its box touching the die's."""

from __future__ import annotations

from collections.abc import Sequence


def touching(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether boxes ``a`` and ``b`` (x0, y0, x1, y1) overlap or touch."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
