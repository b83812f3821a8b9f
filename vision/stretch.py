"""A picture stretched along one axis: how much, found from its dice, and undone before reading.

Some pictures show every die stretched the same way: photos exported to a square by a
labelling tool (two of the five rigs: boxes 0.35 to 2.5 times as wide as high, each photo
its own stretch), a webcam in a non-square pixel mode, a camera at a slant. The networks
learnt dice nearly square (:data:`vision.augment.STRETCH`), and held out they lose the
stretched ones: leaving `single-grey` out, 1% of its dice stretched more than 2.2:1 were read
right, against 62% of those under 1.65:1. Read with each photo unstretched by its labels'
own stretch, `single-grey` read 44.7% of its dice right against 36.5%.

How much a picture is stretched comes from the dice the detector finds on it, with nothing
learnt: a square turned any way has as much edge across as along, so over the dice of one
picture the energy of the horizontal gradient equals that of the vertical one. Stretching
the picture by s across divides horizontal gradients by s, and half the log of the ratio
(vertical over horizontal) is the log of the stretch. Measured in the detector's square
boxes, on photos exported stretched it comes out at about half the labels' stretch (slope
0.47, correlation 0.82 over 291 photos of `single-grey`), so it is doubled (:data:`GAIN`);
on a sharp photo stretched by resizing it comes out at nearly the whole stretch, and doubled
it overshoots (up to 2.3 times). So the measure only proposes: the reader reads the picture
scaled by e^(−s/2) across and e^(s/2) down (the same area, so a calibrated die size still
holds) as well as as it is, and keeps whichever reading has more dice read surely
(:meth:`vision.net.DieNet.read`). Held out, that read `single-grey` 45.9% right against
36.5% as photographed, and more than reading every photo unstretched by its labels' own
stretch (44.7%): a photo the networks read well as it is stays as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.pyramid import Pyramid, Scaled

# The measured anisotropy is about half the true stretch on photos exported stretched (see
# above). Held out, read both ways: 2 read `single-grey` 45.9% right and `roboflow-public`
# 45.8%; 1.5 read them 44.1% and 46.7% (and unstretched alone, before both ways were read,
# 1 and 2 read `single-grey` 44.1% and 44.2%).
GAIN = 2.0
# Pictures stretched less than this (log of the stretch, after GAIN: 1.35:1) are read only as
# they are: dice a little stretched are read well enough (held out, 0.2 read `single-grey`
# 46.0% right and 0.1 46.4%, against 45.9%), and on unstretched rigs the estimate wanders
# that far on a few photos (box-gray: 5% of them), each costing a second reading.
MIN_STRETCH = 0.3
# No picture is unstretched by more than this (log: 3.3:1); the labelled rigs go to 2.7:1.
MAX_STRETCH = 1.2
# Only finds the detector is this sure of measure the stretch: unsure ones are more often
# tray edges and patterns, whose edges run one way.
SURE_HEAT = 0.5


def stretch_of(bgr: np.ndarray, dice: Sequence[tuple[tuple[float, float], float]]) -> float:
    """The log of how much wider than high the dice on ``bgr`` are ((centre, size) each, in
    pixels): 0 for square dice or when there are none, clipped to ±:data:`MAX_STRETCH`."""
    h, w = bgr.shape[:2]
    across = down = 0.0
    for (cx, cy), size in dice:
        r = size / 2
        x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
        x1, y1 = min(w, int(cx + r) + 1), min(h, int(cy + r) + 1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        # Only the dice made grey: on a 12-megapixel photo the whole picture took 9 ms.
        patch = cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
        across += float(np.square(cv2.Sobel(patch, cv2.CV_32F, 1, 0)).sum())
        down += float(np.square(cv2.Sobel(patch, cv2.CV_32F, 0, 1)).sum())
    if across <= 0 or down <= 0:
        return 0.0
    return float(np.clip(GAIN * 0.5 * math.log(down / across), -MAX_STRETCH, MAX_STRETCH))


def labelled_stretch(boxes: Sequence[Sequence[float]]) -> float:
    """The log of how much wider than high a photo's labelled dice are (their upright boxes
    [x0, y0, x1, y1]; the median, 0 without any): a square turned any way has a square upright
    box, so a box's shape is the picture's stretch. It is the truth :func:`stretch_of` is
    checked against; training does not use it (networks trained on photos unstretched by
    it read worse held out: docs/vision.md, *Stretched photos*)."""
    logs = [math.log((b[2] - b[0]) / (b[3] - b[1])) for b in boxes if b[2] > b[0] and b[3] > b[1]]
    return float(np.median(logs)) if logs else 0.0


class Unstretched(Scaled):
    """The pyramid of ``source``'s picture with a stretch of e^``stretch`` across undone at
    the same area (:class:`vision.pyramid.Scaled`).

    A 12-megapixel photo is searched from its quarter, so its full picture unstretched is
    made only for the crops of dice under 56 px, if there are any (unstretching it whole took
    20 ms of a 173-ms reading)."""

    def __init__(self, source: Pyramid, stretch: float) -> None:
        super().__init__(source, math.exp(-stretch / 2), math.exp(stretch / 2))
