"""Telling dice apart by body colour.

The body colour is the median Lab colour of the die's middle, so pips (a minority of the face)
and glare do not move it. Without calibration a die gets the nearest of a few everyday colour
names; with calibration each family's own dice define its colour (cameras and lights shift
hues too much for fixed names to separate, say, red from orange), and a die goes to the
nearest family. The game then checks the grouping: five dice per family and three red.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.finding import Rect
from vision.pips import warp_die

# OpenCV 8-bit Lab (L scaled to 0..255, a and b offset by 128) of plain dice under white light.
NAMED_COLOURS: dict[str, tuple[float, float, float]] = {
    "white": (235, 128, 128),
    "black": (35, 128, 128),
    "grey": (140, 128, 128),
    "red": (120, 180, 160),
    "orange": (160, 160, 180),
    "yellow": (225, 115, 200),
    "green": (130, 80, 150),
    "blue": (80, 145, 80),
    "purple": (70, 160, 100),
    "pink": (170, 170, 125),
    "brown": (100, 140, 155),
}

DICE_PER_FAMILY = 5
RED_DICE = 3


def body_colour(crop_lab: np.ndarray) -> np.ndarray:
    """Median Lab of the middle of a warped die (pips and edges are minorities there)."""
    c = crop_lab.shape[0]
    m = c // 5
    body: np.ndarray = np.median(crop_lab[m : c - m, m : c - m].reshape(-1, 3), axis=0)
    return body.astype(np.float32)


def die_colour(bgr: np.ndarray, rect: Rect) -> np.ndarray:
    """The body colour (:func:`body_colour`, Lab) of the die whose square is ``rect`` on a BGR
    picture: the one measure of a die's colour, so a palette calibrated from some dice
    matches the dice read later."""
    return body_colour(cv2.cvtColor(warp_die(bgr, rect), cv2.COLOR_BGR2LAB))


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    # Lightness counts half, as in finding: shading moves it more than it moves hue.
    d = np.asarray(a, np.float32) - np.asarray(b, np.float32)
    return float(np.sqrt(0.25 * d[0] ** 2 + d[1] ** 2 + d[2] ** 2))


def nearest_colour(
    lab: np.ndarray, palette: Mapping[str, Sequence[float]] = NAMED_COLOURS
) -> tuple[str, float]:
    """The palette entry nearest to ``lab`` and its distance."""
    names = list(palette)
    d = np.asarray([palette[k] for k in names], np.float32) - np.asarray(lab, np.float32)
    dist = np.sqrt(0.25 * d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)
    i = int(np.argmin(dist))
    return names[i], float(dist[i])


def calibrate_palette(samples: Mapping[str, Sequence[np.ndarray]]) -> dict[str, list[float]]:
    """Each family's colour: the median of its dice's body colours seen at setup."""
    return {
        name: np.median(np.asarray(cols, np.float32), axis=0).round(1).tolist()
        for name, cols in samples.items()
        if len(cols)
    }


def group_by_colour(colours: Sequence[np.ndarray], k: int) -> list[int]:
    """Split dice into ``k`` colour groups (k-means on a*b* and half-weighted L)."""
    if not colours:
        return []
    pts = np.asarray(colours, np.float32) * np.array([0.5, 1, 1], np.float32)
    k = min(k, len(pts))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.1)
    # OpenCV's stubs do not allow None (no initial labels) for bestLabels; the C++ does.
    _, assign, _ = cv2.kmeans(
        pts,
        k,
        None,
        criteria,
        5,  # type: ignore[call-overload]
        cv2.KMEANS_PP_CENTERS,
    )
    return [int(a) for a in assign.ravel()]


def check_families(colour_names: Sequence[str | None], red: str = "red") -> list[str]:
    """What is wrong with a full table of dice by the game's count: five per family, three red.

    Returns one message per problem; an empty list means the colours are consistent.
    """
    counts = Counter(c for c in colour_names if c is not None)
    problems = []
    for name, n in sorted(counts.items()):
        want = RED_DICE if name == red else DICE_PER_FAMILY
        if n != want:
            problems.append(f"{n} {name} dice seen, the game has {want}")
    unknown = sum(1 for c in colour_names if c is None)
    if unknown:
        problems.append(f"{unknown} dice of no known colour")
    return problems
