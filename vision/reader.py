"""One picture in, the dice on it out: the whole single-image pipeline.

find the dice (:mod:`vision.finding`) → read each one's pips (:mod:`vision.pips`) → name its
colour (:mod:`vision.colour`). A die whose pips do not form a legal face is still reported,
with ``value`` None: the table must know a die is there even when its face cannot be trusted.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.colour import NAMED_COLOURS, body_colour, nearest_colour
from vision.finding import find_dice
from vision.pips import read_pips, warp_die


@dataclass(frozen=True, slots=True)
class DieFound:
    """One die on one picture. ``value`` is None when the reader is unsure of the face."""

    value: int | None
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels
    centre: tuple[float, float]
    rect: tuple  # the rotated box ((cx, cy), (w, h), angle)
    colour: str
    lab: tuple[float, float, float]
    confidence: float
    reason: str

    def as_json(self) -> dict:
        return {"value": self.value, "box": list(self.box), "colour": self.colour,
                "confidence": round(self.confidence, 3),
                **({} if self.value is not None else {"unsure": self.reason})}


class DiceReader:
    """Reads pictures of one rig; holds its calibration so each call needs only the picture."""

    def __init__(self, calibration: Calibration | None = None) -> None:
        self.calibration = calibration or Calibration()

    def read(self, bgr: np.ndarray) -> list[DieFound]:
        """Every die on a BGR picture, in reading order (top to bottom, left to right)."""
        if bgr is None or bgr.ndim != 3 or bgr.shape[2] != 3:
            raise ValueError("expected a BGR colour picture (H×W×3)")
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
        cal = self.calibration
        candidates, mask, _ = find_dice(lab, cal.die_px, cal.empty_lab(lab.shape))
        palette = cal.palette or NAMED_COLOURS
        found = []
        for cand in candidates:
            pips = read_pips(lab, cand.rect, mask)
            colour_lab = body_colour(warp_die(lab, cand.rect))
            name, _ = nearest_colour(colour_lab, palette)
            found.append(DieFound(
                value=pips.value, box=cand.box, centre=cand.centre, rect=cand.rect,
                colour=name, lab=tuple(float(x) for x in colour_lab),
                confidence=pips.confidence * cand.squareness, reason=pips.reason))
        found.sort(key=lambda d: (round(d.centre[1] / 20), d.centre[0]))
        return found


def read_image(bgr: np.ndarray, calibration: Calibration | None = None) -> list[DieFound]:
    """Convenience: read one picture with an optional calibration."""
    return DiceReader(calibration).read(bgr)
