"""Drawn scenes for the detector: drawn dice of one size scattered on a drawn table.

The rigs' photos teach the detector what dice look like on five tables. A share of its
training pictures are drawn here instead: a table from :mod:`vision.backgrounds` (carpets,
wood, keys, dots, clutter) with drawn dice (:func:`vision.synthetic.draw_die`: any colours,
pip layouts, bevels, side faces, shadows, glare) at any size and turn, some touching. So the
detector meets dice designs and tables no rig shows, and learns that a key, a dot or a
speckle is not a die because the dice beside it are.

Only numpy and OpenCV; the runtime never imports this module.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.backgrounds import background
from vision.synthetic import draw_die, illegal_layout

# Dice smaller than this are drawn at twice the size and shrunk (pips of a few pixels need it).
_SUPERSAMPLE_BELOW = 40.0
# The share of drawn dice showing no legal face (blank, smudged): still dice to the detector.
ILLEGAL = 0.1


def _paste_die(
    canvas: np.ndarray,
    rng: np.random.Generator,
    centre: tuple[float, float],
    side: float,
    angle: float,
    value: int,
    layout: tuple[tuple[float, float], ...] | None,
) -> None:
    """Draw one die into ``canvas`` (float32 BGR) around ``centre``, changing only the pixels
    the die and its shadow cover."""
    h, w = canvas.shape[:2]
    half = math.ceil(side * 1.3)
    x0, y0 = int(centre[0]) - half, int(centre[1]) - half
    n = 2 * half + 1
    m = n  # the table is reflected out this far, so a die at its edge is drawn whole
    pad = cv2.copyMakeBorder(canvas, m, m, m, m, cv2.BORDER_REFLECT)
    local = pad[y0 + m : y0 + m + n, x0 + m : x0 + m + n].copy()
    k = 2 if side < _SUPERSAMPLE_BELOW else 1
    big = cv2.resize(local, (n * k, n * k), interpolation=cv2.INTER_LINEAR) if k > 1 else local
    before = big.copy()
    at = np.array([(centre[0] - x0 + 0.5) * k - 0.5, (centre[1] - y0 + 0.5) * k - 0.5], np.float32)
    draw_die(big, rng, at, side * k, angle, value, layout)
    # Only what drawing changed goes back: the table around the die stays as sharp as it was.
    change: np.ndarray = big - before
    if k > 1:
        change = cv2.resize(change, (n, n), interpolation=cv2.INTER_AREA)
    ys, xs = slice(max(0, y0), min(h, y0 + n)), slice(max(0, x0), min(w, x0 + n))
    canvas[ys, xs] += change[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0]


def scene(rng: np.random.Generator, side: int, die_box: float) -> tuple[np.ndarray, np.ndarray]:
    """A drawn table ``side`` pixels square with up to a dozen drawn dice whose upright boxes
    are about ``die_box`` pixels; returns the picture (BGR uint8) and its dice as rows of
    (cx, cy, size, value, whole) in pixels, as :func:`vision.train.sample` gives them
    (value 0 and whole 0 for a die with no legal face: a die, but no value to learn)."""
    canvas = background(rng, side).astype(np.float32)
    placed: list[tuple[float, float, float, int, int]] = []
    for _ in range(int(rng.integers(0, 13))):
        angle = float(rng.uniform(0, 2 * math.pi))
        box = die_box * float(rng.uniform(0.85, 1.15))
        die = box / (abs(math.cos(angle)) + abs(math.sin(angle)))
        for _try in range(10):
            if placed and rng.random() < 0.3:  # touching a die already there
                px, py, pbox, *_ = placed[int(rng.integers(len(placed)))]
                a = rng.uniform(0, 2 * math.pi)
                d = (pbox + box) / 2 * rng.uniform(0.75, 0.95)
                cx, cy = px + d * math.cos(a), py + d * math.sin(a)
            else:
                cx, cy = rng.uniform(0, side), rng.uniform(0, side)
            if (
                0 <= cx < side
                and 0 <= cy < side
                and all(
                    math.hypot(cx - px, cy - py) >= 0.7 * (box + pbox) / 2
                    for px, py, pbox, *_ in placed
                )
            ):
                break
        else:
            continue
        value = int(rng.integers(1, 7))
        layout = illegal_layout(rng) if rng.random() < ILLEGAL else None
        _paste_die(canvas, rng, (cx, cy), die, angle, value, layout)
        legal = layout is None
        whole = legal and min(cx, cy) >= box / 2 and max(cx, cy) + box / 2 < side
        placed.append((cx, cy, box, value if legal else 0, int(whole)))
    picture = np.clip(canvas, 0, 255).astype(np.uint8)
    return picture, np.array(placed, np.float32).reshape(-1, 5)
