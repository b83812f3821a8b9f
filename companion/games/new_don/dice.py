"""Dice as the rules see them, and the sets they make.

A die here is only what matters to the rules: its face, and whether a Free Reroll favor has
touched it (such dice "can now only be used to make sets", Appendix: Free Reroll). Which
physical die it is belongs to the dice layer, not the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True, slots=True, order=True)
class Die:
    """One die in a pool. ``sets_only`` marks dice rerolled by the Free Reroll favor."""

    face: int
    sets_only: bool = False
    imaginary: bool = False  # the extra die of favor 5; gone at clean-up like every die


def faces(dice: Iterable[Die]) -> list[int]:
    return sorted(d.face for d in dice)


def is_straight(values: Iterable[int], wrap: bool = False) -> bool:
    """Three different faces in a row: 3-4-5; with ``wrap``, also 5-6-1 and 6-1-2."""
    vals = sorted(values)
    if len(vals) != 3 or len(set(vals)) != 3:
        return False
    if vals[2] - vals[0] == 2:
        return True
    return wrap and vals in ([1, 5, 6], [1, 2, 6])


def _straights(face: int, wrap: bool) -> tuple[tuple[int, int, int], ...]:
    found: list[tuple[int, int, int]] = []
    for start in range(1, 7):
        low, mid, high = sorted(((start - 1 + i) % 6) + 1 for i in range(3))
        run = (low, mid, high)
        if face in run and is_straight(run, wrap) and run not in found:
            found.append(run)
    return tuple(found)


# Every straight of three containing a face, worked out once: (face, wrap) -> straights.
STRAIGHTS = {(f, w): _straights(f, w) for f in FACES for w in (False, True)}


def straights_containing(face: int, wrap: bool = False) -> tuple[tuple[int, int, int], ...]:
    """Every straight of three that includes ``face``, low to high."""
    return STRAIGHTS[(face, wrap)]


def take(pool: tuple[Die, ...], wanted: Iterable[int], for_sets: bool) -> tuple[Die, ...] | None:
    """Remove dice showing ``wanted`` faces from ``pool``; None if the pool lacks them.

    Which of two equal faces goes matters only through ``sets_only``: sets spend the
    restricted dice first (keeping the free ones for recruiting and betting), while recruits
    and bets may not use them at all.
    """
    remaining = list(pool)
    for face in sorted(wanted):
        candidates = [d for d in remaining if d.face == face and (for_sets or not d.sets_only)]
        if not candidates:
            return None
        # Sets prefer restricted and imaginary dice; other uses may only take free dice.
        candidates.sort(key=lambda d: (not d.sets_only, not d.imaginary))
        remaining.remove(candidates[0])
    return tuple(remaining)


def sub_multisets(values: Iterable[int]) -> list[tuple[int, ...]]:
    """Every non-empty sub-multiset of ``values``, each sorted: the ways to spend some dice."""
    counts = sorted(Counter(values).items())
    result: list[tuple[int, ...]] = [()]
    for face, n in counts:
        result = [r + (face,) * k for r in result for k in range(n + 1)]
    return [tuple(sorted(r)) for r in result if r]
