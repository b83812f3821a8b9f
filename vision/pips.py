"""Reading the pips of one die, whatever the colours of its body and pips.

The die is cut out along its rotated box and warped to a small square, so pips have about the
same size in pixels on every rig. A pip is a small spot that differs from the ring around it:
the centre-minus-ring difference (a box-filter difference of Gaussians) is taken in Lab colour,
so black pips on white, white pips on red and yellow pips on green all respond alike, while the
flat body does not. Only spots of the die's majority polarity count (darker or lighter than the
body), which rejects glare on dice with dark pips. The spots must then form a legal face
(:mod:`vision.faces`); otherwise the die is read as unsure.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.faces import fit_face
from vision.finding import Rect

CROP = 48  # side of the warped die, in pixels; a pip is then about 8 px across
_INNER_K, _OUTER_K = 5, 11  # centre and ring box sizes: about one and two pip widths
# Die corners and edges also look like spots; pip centres are never this close to the edge.
_EDGE_MARGIN = 0.17
_MIN_RESPONSE = 12.0  # Lab units: below this a spot is JPEG noise, not a pip
# Pips on one die have similar contrast: spots much weaker than the strongest are texture.
_RELATIVE_RESPONSE = 0.45


@dataclass(frozen=True, slots=True)
class PipReading:
    """The value read from one die (None when unsure), its pips in crop pixels, and why."""

    value: int | None
    pips: np.ndarray
    confidence: float
    reason: str


def warp_die(
    image: np.ndarray, rect: Rect, size: int = CROP, interpolation: int = cv2.INTER_LINEAR
) -> np.ndarray:
    """Cut the die's rotated box out of ``image`` as a ``size``×``size`` square."""
    box = cv2.boxPoints(rect).astype(np.float32)
    dst = np.array([[0, size - 1], [0, 0], [size - 1, 0], [size - 1, size - 1]], np.float32)
    m = cv2.getPerspectiveTransform(box, dst)
    return cv2.warpPerspective(
        image, m, (size, size), flags=interpolation, borderMode=cv2.BORDER_REPLICATE
    )


def spot_response(crop_lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centre-minus-ring colour difference: its magnitude, and the signed difference per channel."""
    f = crop_lab.astype(np.float32)
    f[:, :, 0] *= 0.8  # lightness a little less: it carries the shading of tilted faces
    inner = cv2.blur(f, (_INNER_K, _INNER_K))
    outer = cv2.blur(f, (_OUTER_K, _OUTER_K))
    a_in, a_out = _INNER_K * _INNER_K, _OUTER_K * _OUTER_K
    ring = (outer * a_out - inner * a_in) / (a_out - a_in)
    diff = inner - ring
    return np.sqrt((diff * diff).sum(axis=2)), diff


def find_pips(crop_lab: np.ndarray, crop_mask: np.ndarray | None = None) -> np.ndarray:
    """Centres (N×2, crop pixels) of the pips on a warped die."""
    c = crop_lab.shape[0]
    response, diff = spot_response(crop_lab)
    m = int(c * 0.12)
    r = np.zeros_like(response)
    r[m : c - m, m : c - m] = response[m : c - m, m : c - m]
    if crop_mask is not None:
        r[cv2.erode(crop_mask, np.ones((5, 5), np.uint8)) == 0] = 0
    peak = float(r.max())
    if peak < _MIN_RESPONSE:
        return np.zeros((0, 2))
    spots = (r >= max(_MIN_RESPONSE, _RELATIVE_RESPONSE * peak)).astype(np.uint8)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(spots)
    found = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < 3:
            continue
        x, y = centres[i]
        if min(x, y, c - 1 - x, c - 1 - y) < _EDGE_MARGIN * c:
            continue
        sel = labels == i
        found.append((x, y, float(r[sel].max()), float(diff[:, :, 0][sel].mean())))
    if not found:
        return np.zeros((0, 2))
    spots_arr = np.array(found)
    strength, lightness = spots_arr[:, 2], spots_arr[:, 3]
    lighter = strength[lightness > 0].sum() >= strength[lightness <= 0].sum()
    keep = lightness > 0 if lighter else lightness <= 0
    return spots_arr[keep, :2]


def read_pips(lab: np.ndarray, rect: Rect, mask: np.ndarray | None = None) -> PipReading:
    """Read one die from the whole picture (Lab) and its rotated box."""
    crop = warp_die(lab, rect)
    crop_mask = warp_die(mask, rect, interpolation=cv2.INTER_NEAREST) if mask is not None else None
    pips = find_pips(crop, crop_mask)
    n = len(pips)
    if n == 0:
        return PipReading(None, pips, 0.0, "no pips")
    if n > 6:
        return PipReading(None, pips, 0.0, f"{n} spots: more than a face has")
    centre = np.array([(CROP - 1) / 2, (CROP - 1) / 2])
    # A lone pip is only a "1" when it sits in the middle; the others are checked by shape.
    fit = fit_face(
        pips, step=0.3 * CROP if n == 1 else None, centre=centre if n == 1 else None, tolerance=0.3
    )
    assert fit is not None
    confidence = float(max(0.0, 1.0 - fit.error / 0.6))
    if not fit.legal:
        return PipReading(None, pips, confidence, f"{n} pips not in a legal layout")
    return PipReading(fit.value, pips, confidence, "legal face")
