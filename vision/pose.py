"""How a found die lies in the picture, and its crop turned square to the crop's edges.

A die seen from above is a square at some turn. The face classifier is shown each die turned
so that its edges run along the crop's edges, and framed by the die's own side rather than by
its upright box (which is up to √2 larger for a die at 45°). Pips then sit on the same 3×3
grid in every crop, whatever the die's turn, and the classifier only has to learn the four
quarter turns and the mirror (it averages over some of them at run time,
:data:`vision.net.VIEWS`) instead of every angle.

The turn comes from the die's edges, not from anything learnt: gradient directions θ are
taken four times over (4θ), which folds a square's four edge directions into one, and the
magnitude-weighted mean of 4θ over the die and a little around it gives the edge direction
modulo 90°. Round pips add every direction equally and cancel out; the outline of the die
against the tray dominates. It works on any die colour, since each pixel's gradient is taken
in the colour channel where it is strongest.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

FACE_CROP = 32  # the face classifier's input side, pixels
FACE_MARGIN = 1.15  # the crop's side per die side: a rim of tray or neighbours around the die
# The turn is measured on the die scaled so its upright box is _ANGLE_PX pixels, in a window
# _WINDOW times that, out to _RADIUS box sizes from the centre (a die's corner at 45° is 0.5
# box sizes out; a little more allows for the centre being off).
_ANGLE_PX = 32
_WINDOW = 1.6
_RADIUS = 0.75


def _window_mask() -> np.ndarray:
    side = int(_ANGLE_PX * _WINDOW)
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) - side / 2 + 0.5
    mask: np.ndarray = (np.hypot(xx, yy) < _RADIUS * _ANGLE_PX).astype(np.float32)
    return mask


_MASK = _window_mask()
_MASK_FLAT = _MASK.ravel().astype(np.float64)


def die_angle(bgr: np.ndarray, centre: tuple[float, float], size: float) -> float:
    """The turn of the die at ``centre`` (its upright box ``size`` pixels across), in radians
    in [-π/4, π/4]: turning the picture by it (counter-clockwise positive, as
    :func:`cv2.getRotationMatrix2D`) brings the die's edges square."""
    side = _MASK.shape[0]
    k = _ANGLE_PX / max(size, 1.0)
    m = np.array([[k, 0, side / 2 - k * centre[0]], [0, k, side / 2 - k * centre[1]]])
    crop = cv2.warpAffine(
        bgr, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0).reshape(-1, 3)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1).reshape(-1, 3)
    # Each pixel's strongest channel (the first of equals, as argmax takes it), picked with
    # comparisons: with argmax and a gather by index this function took 0.147 ms, not 0.124.
    energy = gx * gx + gy * gy
    first = (energy[:, 0] >= energy[:, 1]) & (energy[:, 0] >= energy[:, 2])
    second = ~first & (energy[:, 1] >= energy[:, 2])
    x = np.where(first, gx[:, 0], np.where(second, gx[:, 1], gx[:, 2])).astype(np.float64)
    y = np.where(first, gy[:, 0], np.where(second, gy[:, 1], gy[:, 2])).astype(np.float64)
    # cos 4θ and sin 4θ weighted by the magnitude, from the gradient without an atan2 per
    # pixel: with z = x + i·y, z⁴/|z|³ has angle 4θ and length |z|; z² = (x² − y²) + i·2xy.
    # (In real arithmetic: numpy's complex powers took a fifth of the time. |z|³ as |z|²·|z|
    # and the sums as dot products: a power and a product and sum per term took 30 µs, this
    # 20, of the 95 the whole function takes.)
    xx, yy, xy = x * x, y * y, x * y
    c2 = xx - yy
    r2 = np.maximum(xx + yy, 1e-12)
    weight = _MASK_FLAT / (r2 * np.sqrt(r2))
    cos4 = float(np.dot(c2 * c2 - 4 * xy * xy, weight))
    sin4 = float(np.dot(4 * c2 * xy, weight))
    return math.atan2(sin4, cos4) / 4


def die_side(size: float, angle: float) -> float:
    """The side of a square die whose upright box is ``size`` when it lies at ``angle``."""
    return size / (abs(math.cos(angle)) + abs(math.sin(angle)))


def crop_matrix(
    centre: tuple[float, float], size: float, angle: float, turn: float = 0.0
) -> np.ndarray:
    """The affine map (2×3) from picture pixels to :func:`face_crop`'s pixels: the reader
    inverts it to carry where the classifier says the die is back onto the picture."""
    m = cv2.getRotationMatrix2D(
        (float(centre[0]), float(centre[1])),
        math.degrees(angle + turn),
        FACE_CROP / (FACE_MARGIN * die_side(size, angle)),
    )
    m[:, 2] += np.array([FACE_CROP / 2 - centre[0], FACE_CROP / 2 - centre[1]])
    return m


def face_crop(
    bgr: np.ndarray, centre: tuple[float, float], size: float, angle: float, turn: float = 0.0
) -> np.ndarray:
    """The die at ``centre`` (upright box ``size``, turn ``angle`` from :func:`die_angle`)
    turned square (and then by ``turn`` more) and scaled so that its side times
    :data:`FACE_MARGIN` fills :data:`FACE_CROP` pixels (:func:`crop_matrix`).

    Bilinear, without smoothing first: ``cv2.warpAffine`` takes ``INTER_AREA`` for
    ``INTER_LINEAR``, and a blur before the cut (σ up to 2·(1/scale − 1) pixels) read as
    many dice right held out, so the crops stay as the shipped classifier learnt them."""
    return cv2.warpAffine(
        bgr,
        crop_matrix(centre, size, angle, turn),
        (FACE_CROP, FACE_CROP),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
