"""Finding dice: where on the picture is there a die, and how is it turned.

A die is a compact, roughly square patch that differs from the tray around it. Without a
calibration the tray is estimated from the picture itself (a median filter much wider than a
die erases the dice and keeps the mat, its shading and its frame); with an empty-tray frame the
difference is taken against that frame instead, which also copes with a patterned mat.

Touching dice form one patch. It is split into k parts (k-means on the pixel positions) for the
smallest k whose parts all look like single dice (square and well filled), so the split needs
no knowledge of how the dice touch, only that each die is square.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# A rotated box as cv2.minAreaRect gives it: centre, size (width, height), angle in degrees.
Rect = tuple[tuple[float, float], tuple[float, float], float]

# The median filter must be wider than any die and its halo, so that dice do not leak into the
# background estimate: a quarter of the picture is several die widths on a typical rig.
_BACKGROUND_FRACTION = 1 / 4
# Below this Lab distance a pixel is never a die, whatever Otsu says: the noise floor of a
# JPEG of an evenly lit mat.
_MIN_CONTRAST = 18.0
# A patch counts as one die when both its fill of its rotated box and its box's aspect are
# at least this (a square die seen from above gives about 0.9).
_SQUARE_ENOUGH = 0.8
_MAX_DICE_PER_PATCH = 12


@dataclass(frozen=True, slots=True)
class Candidate:
    """A patch that may be one die: its rotated box ``((cx, cy), (w, h), angle)`` in pixels."""

    rect: Rect
    squareness: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.rect[0]

    @property
    def box(self) -> tuple[int, int, int, int]:
        """Axis-aligned ``(x0, y0, x1, y1)`` around the rotated box."""
        pts = cv2.boxPoints(self.rect)
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        return int(x0), int(y0), int(x1), int(y1)


def lab_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per-pixel colour distance between two Lab images.

    Lightness counts for half: shading and shadows change lightness much more than hue, and
    a white die on a white mat still differs in its shading edge and pips.
    """
    d = cv2.absdiff(a, b).astype(np.float32)
    return cv2.sqrt(0.5 * d[:, :, 0] ** 2 + d[:, :, 1] ** 2 + d[:, :, 2] ** 2)


def estimate_background(lab: np.ndarray) -> np.ndarray:
    """The tray without dice, estimated from one picture by a wide median filter."""
    h, w = lab.shape[:2]
    small = cv2.resize(lab, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    k = max(3, int(min(small.shape[:2]) * _BACKGROUND_FRACTION) // 2 * 2 + 1)
    bg = cv2.merge([cv2.medianBlur(c, k) for c in cv2.split(small)])
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def foreground_mask(lab: np.ndarray, empty_lab: np.ndarray | None = None) -> np.ndarray:
    """1 where something other than the tray is, holes filled (pips are part of the die)."""
    background = empty_lab if empty_lab is not None else estimate_background(lab)
    dist = lab_distance(lab, background)
    otsu, _ = cv2.threshold(
        np.clip(dist, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
    )
    mask = (dist > max(_MIN_CONTRAST, otsu)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=-1)
    return filled


def squareness(n_pixels: int, rect: Rect) -> float:
    """How much a patch looks like one die: min(fill of its rotated box, box aspect)."""
    (_, _), (rw, rh), _ = rect
    if min(rw, rh) < 1:
        return 0.0
    return float(min(n_pixels / (rw * rh), min(rw, rh) / max(rw, rh)))


def _rect(points: np.ndarray) -> Rect:
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    return (cx, cy), (w, h), angle


def estimate_die_size(labels: np.ndarray, stats: np.ndarray, image_side: int) -> float | None:
    """The typical die edge in pixels: the median side of the patches that are clearly one die."""
    sides = []
    lo, hi = (0.02 * image_side) ** 2, (0.15 * image_side) ** 2
    for i in range(1, len(stats)):
        x0, y0, bw, bh, area = stats[i]
        if not lo <= area <= hi:
            continue
        ys, xs = np.nonzero(labels[y0 : y0 + bh, x0 : x0 + bw] == i)
        rect = _rect(np.column_stack([xs, ys]).astype(np.float32))
        if squareness(int(area), rect) >= _SQUARE_ENOUGH:
            sides.append(np.sqrt(area))
    return float(np.median(sides)) if sides else None


def _split(points: np.ndarray, max_k: int) -> list[tuple[np.ndarray, Rect, float]]:
    """Split a patch into the fewest parts that each look like one die."""
    best: tuple[float, list[tuple[np.ndarray, Rect, float]]] | None = None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    for k in range(1, max(1, max_k) + 1):
        if k == 1:
            groups = [points]
        else:
            # k-means on a sample of the pixels (a few hundred place the centres as well as
            # thousands), then every pixel goes to its nearest centre.
            sample = points[:: max(1, len(points) // 300)]
            # OpenCV's stubs do not allow None (no initial labels) for bestLabels.
            _, _, centres = cv2.kmeans(
                sample,
                k,
                None,
                criteria,
                2,  # type: ignore[call-overload]
                cv2.KMEANS_PP_CENTERS,
            )
            d2 = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
            assign = d2.argmin(axis=1)
            groups = [points[assign == j] for j in range(k)]
            groups = [g for g in groups if len(g) >= 5]
        parts = [(g, r, squareness(len(g), r)) for g in groups for r in [_rect(g)]]
        score = min(p[2] for p in parts)
        # A split must be clearly better than fewer parts: ties keep dice whole.
        if best is None or score > best[0] + 0.02:
            best = (score, parts)
        if score >= _SQUARE_ENOUGH:
            break
    assert best is not None
    return best[1]


def find_dice(
    lab: np.ndarray, die_px: float | None = None, empty_lab: np.ndarray | None = None
) -> tuple[list[Candidate], np.ndarray, float]:
    """Every patch that may be a die, the foreground mask, and the die size used.

    ``die_px`` is the calibrated die edge; without it the size is estimated from the picture
    (falling back to 6% of its side, a die on a typical tray photo).
    """
    mask = foreground_mask(lab, empty_lab)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    side = min(lab.shape[:2])
    if die_px is None:
        die_px = estimate_die_size(labels, stats, side) or 0.06 * side
    s = float(die_px)
    found: list[Candidate] = []
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        # Too small for a die, or bigger than the largest heap we split (a tray wall, a hand).
        if area < 0.35 * s * s or area > 1.2 * _MAX_DICE_PER_PATCH * s * s:
            continue
        ys, xs = np.nonzero(labels[y0 : y0 + bh, x0 : x0 + bw] == i)
        points = np.column_stack([xs + x0, ys + y0]).astype(np.float32)
        max_k = min(_MAX_DICE_PER_PATCH, int(area / (0.6 * s * s)))
        for part, rect, square in _split(points, max_k):
            (_, _), (rw, rh), _ = rect
            if len(part) < 0.4 * s * s:
                continue
            if max(rw, rh) > 2.0 * s or min(rw, rh) < 0.5 * s:
                continue
            found.append(Candidate(rect, square))
    return found, mask, s
