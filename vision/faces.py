"""The six legal faces of a pipped die, and a check that a set of pips forms one of them.

Counting blobs is not enough: glare adds a blob, two pips of a "6" merge, a pip of a
neighbouring die leaks in. Every legal face is a subset of a 3×3 grid that is symmetric about
the centre of the face, with fixed spacing, so a count is only believed when the pips sit
where that count's pips must sit. Everything here is rotation-invariant (dice land at any angle)
and tolerant of the mild perspective of a camera that is not exactly overhead.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

# Pip positions on the 3×3 grid, in units of the grid step (the distance from the centre of
# the face to the middle of an edge row).
LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], float),
    2: np.array([[-1, -1], [1, 1]], float),
    3: np.array([[-1, -1], [0, 0], [1, 1]], float),
    4: np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]], float),
    5: np.array([[-1, -1], [-1, 1], [0, 0], [1, -1], [1, 1]], float),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], float),
}


def _pair_profile(points: np.ndarray) -> np.ndarray:
    """Sorted pairwise distances divided by the largest: invariant to shift, turn and scale."""
    d = np.array([np.hypot(*(a - b)) for a, b in combinations(points, 2)])
    profile: np.ndarray = np.sort(d) / d.max()
    return profile


_PROFILES = {n: _pair_profile(p) for n, p in LAYOUTS.items() if n > 1}
# The span (largest pip-to-pip distance) of each face, in grid steps.
_SPAN = {
    n: (max(np.hypot(*(a - b)) for a, b in combinations(p, 2)) if n > 1 else 0.0)
    for n, p in LAYOUTS.items()
}


@dataclass(frozen=True, slots=True)
class FaceFit:
    """How well some pips match the legal face with as many pips.

    ``error`` is in grid steps (0 is a perfect face); ``legal`` says whether it is within the
    tolerance a real, slightly tilted photo needs.
    """

    value: int
    error: float
    legal: bool


def fit_face(
    pips: np.ndarray,
    step: float | None = None,
    centre: np.ndarray | None = None,
    tolerance: float = 0.28,
) -> FaceFit | None:
    """Check pip centres (N×2, pixels) against the legal face with N pips.

    ``step`` is the expected grid step in pixels when the die size is known (about 0.3 of the
    die's edge) and ``centre`` the die's centre; both make the check stricter, and a single pip
    can only be checked against them. Returns None for 0 or more than 6 pips.
    """
    pips = np.asarray(pips, float).reshape(-1, 2)
    n = len(pips)
    if n == 0 or n > 6:
        return None
    mid = pips.mean(axis=0)
    errors: list[float] = []
    if n == 1:
        if centre is not None and step is not None:
            errors.append(float(np.hypot(*(pips[0] - centre))) / step / 2)
    else:
        span = max(np.hypot(*(a - b)) for a, b in combinations(pips, 2))
        own_step = span / _SPAN[n]
        # Shape: the pairwise-distance profile, scaled back to grid steps.
        errors.append(float(np.abs(_pair_profile(pips) - _PROFILES[n]).max()) * _SPAN[n] / 2)
        # Every legal face is point-symmetric about its centre: each pip mirrored through the
        # middle lands on a pip. This catches layouts the distance profile alone lets through.
        mirrored = 2 * mid - pips
        gaps = np.sqrt(((mirrored[:, None, :] - pips[None, :, :]) ** 2).sum(-1)).min(axis=1)
        errors.append(float(gaps.max()) / own_step / 2)
        if step is not None:
            errors.append(abs(own_step / step - 1.0))
    if centre is not None and step is not None:
        errors.append(float(np.hypot(*(mid - centre))) / step / 2)
    error = max(errors) if errors else 0.0
    return FaceFit(n, error, error <= tolerance)
