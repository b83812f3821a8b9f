"""The tray: the part of the picture where dice count.

Outside the tray lie carpets, keyboards, hands, the tray's own rim and the dice of the game
next door; none of them should ever be read. A calibration keeps the tray as a polygon in
fractions of the picture's width and height (so it holds at any resolution the camera is set
to), drawn by hand on the calibration photo (``calibrate --tray``) or found on the empty-tray
frame (:func:`find_tray`). The reader looks only inside the polygon's bounding box and keeps
only the dice whose centre is inside the polygon.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

Polygon = list[list[float]]  # [[x, y], ...] in fractions of the picture's width and height

# The empty tray is looked at this many pixels wide: enough for its outline, blind to texture.
_FIND_SIDE = 160
# A pixel belongs to the tray when its Lab colour is within this of the tray's middle (L is
# shading and gets more room). Fixed, not relative to neighbours, so a soft edge cannot leak.
_TOLERANCE = (40, 14, 14)
# The tray's floor is grown by this many pixels (of the _FIND_SIDE-wide picture) to take in
# the foot of its walls.
_GROW = 3
# A found tray smaller than this share of the picture is more likely a patch of it.
_MIN_SHARE = 0.05


class TrayError(ValueError):
    """A tray that cannot be used or found, with what to do about it."""


def check(tray: Sequence[Sequence[float]]) -> Polygon:
    """A valid polygon (at least three corners, inside the picture) or :class:`TrayError`."""
    points = [[float(x), float(y)] for x, y in tray]
    if len(points) < 3:
        raise TrayError(f"a tray needs at least three corners, got {len(points)}")
    if not all(-0.01 <= v <= 1.01 for p in points for v in p):
        raise TrayError("tray corners are fractions of the picture's width and height (0 to 1)")
    return points


def from_pixels(points: Sequence[Sequence[float]], shape: tuple[int, ...]) -> Polygon:
    """A polygon given in pixels of a picture of ``shape``, as fractions."""
    h, w = shape[:2]
    return check([[x / w, y / h] for x, y in points])


def parse(text: str, shape: tuple[int, ...]) -> Polygon:
    """``"x,y x,y x,y ..."`` in pixels of the calibration photo, as read off it in any
    picture viewer; ``"x0,y0,x1,y1"`` is a rectangle."""
    try:
        numbers = [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise TrayError(
            f"cannot read {text!r} as tray corners: give 'x,y x,y x,y ...' in "
            "pixels of the calibration photo"
        ) from None
    if len(numbers) == 4:
        x0, y0, x1, y1 = numbers
        numbers = [x0, y0, x1, y0, x1, y1, x0, y1]
    if len(numbers) % 2:
        raise TrayError(f"{text!r}: corners come in x,y pairs")
    return from_pixels(list(zip(numbers[::2], numbers[1::2], strict=True)), shape)


def in_pixels(tray: Polygon, shape: tuple[int, ...]) -> np.ndarray:
    """The polygon in pixels of a picture of ``shape`` (N × 2, float32)."""
    h, w = shape[:2]
    return np.asarray(tray, np.float32) * np.asarray([w, h], np.float32)


def bounds(tray: Polygon, shape: tuple[int, ...], margin: float = 0.0) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)`` around the tray in pixels, widened by ``margin`` pixels, clipped."""
    h, w = shape[:2]
    pts = in_pixels(tray, shape)
    x0, y0 = np.floor(pts.min(axis=0) - margin).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0) + margin).astype(int)
    return max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))


def contains(tray: Polygon, shape: tuple[int, ...], point: tuple[float, float]) -> bool:
    """Whether ``point`` (pixels) lies inside the tray (or on its edge)."""
    pts = in_pixels(tray, shape).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(pts, (float(point[0]), float(point[1])), False) >= 0


def draw(bgr: np.ndarray, tray: Polygon) -> np.ndarray:
    """A copy of the picture with the tray outlined and what lies outside it darkened: the
    picture ``calibrate`` writes for a person to check the tray by eye."""
    pts = np.round(in_pixels(tray, bgr.shape)).astype(np.int32)
    mask = np.zeros(bgr.shape[:2], np.uint8)
    cv2.fillPoly(mask, [pts], 1)
    out = bgr.copy()
    out[mask == 0] = out[mask == 0] // 3
    cv2.polylines(out, [pts], True, (0, 255, 255), max(1, min(bgr.shape[:2]) // 200), cv2.LINE_AA)
    return out


def find_tray(empty: np.ndarray) -> Polygon:
    """The tray on a picture of the empty tray: the region of the middle's colour around the
    middle, as its convex outline (trays are boxes, hexagons and rounds, all convex).

    Raises :class:`TrayError` when nothing tray-like is there (then draw it: ``--tray``)."""
    h, w = empty.shape[:2]
    side = (_FIND_SIDE, max(1, round(_FIND_SIDE * h / w)))
    small = cv2.resize(empty, side, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.medianBlur(small, 5), cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    middle = lab[sh * 2 // 5 : sh * 3 // 5, sw * 2 // 5 : sw * 3 // 5].reshape(-1, 3)
    ref = np.median(middle, axis=0)
    near = np.all(np.abs(lab - ref) <= np.asarray(_TOLERANCE, np.float32), axis=2).astype(np.uint8)
    near = cv2.morphologyEx(near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(near)
    at_middle = labels[sh * 2 // 5 : sh * 3 // 5, sw * 2 // 5 : sw * 3 // 5]
    counts = np.bincount(at_middle.ravel(), minlength=n)
    counts[0] = 0
    if counts.max() == 0:
        raise TrayError(
            "no even region in the middle of the empty tray: is the camera "
            "centred on it? Otherwise give its corners with --tray"
        )
    region = (labels == int(counts.argmax())).astype(np.uint8)
    # Grown a little: a tray's walls slope up from its floor, and dice lean on them.
    region = cv2.dilate(region, np.ones((2 * _GROW + 1, 2 * _GROW + 1), np.uint8))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    if cv2.contourArea(hull) < _MIN_SHARE * sh * sw:
        raise TrayError(
            "the tray found on the empty frame is too small to be it; give its corners with --tray"
        )
    outline = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    # Pixel 0 to the last pixel span the whole picture (a tray to the edge is to the edge).
    return check([[float(x) / (sw - 1), float(y) / (sh - 1)] for x, y in outline])
