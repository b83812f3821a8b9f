"""Annotated pictures for ``read --draw``: what the reader saw, to check it by eye."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.reader import DieFound

_SURE = (0, 200, 0)
_UNSURE = (0, 0, 255)


def annotate(bgr: np.ndarray, dice: Sequence[DieFound]) -> np.ndarray:
    """A copy of the picture with each die's rotated box and value ("?" when unsure)."""
    out = bgr.copy()
    for die in dice:
        colour = _SURE if die.value is not None else _UNSURE
        box = cv2.boxPoints(die.rect).astype(np.int32)
        cv2.polylines(out, [box], True, colour, 1, cv2.LINE_AA)
        label = str(die.value) if die.value is not None else "?"
        x0, y0, _, _ = die.box
        cv2.putText(out, label, (x0, max(10, y0 - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour,
                    1, cv2.LINE_AA)
    return out
