"""Pictures to check the reader by eye: each photo annotated with what it read
(``read --draw``), and one sheet of every die it got wrong (``evaluate --mistakes``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.evaluation import Mistake
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
        cv2.putText(
            out,
            label,
            (x0, max(10, y0 - 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            colour,
            1,
            cv2.LINE_AA,
        )
    return out


TILE = 128  # a mistake's picture, pixels square, with its caption below
_CAPTION = 30
_KIND_COLOUR = {
    "wrong": (0, 0, 255),
    "unsure": (0, 160, 255),
    "missed": (255, 0, 255),
    "phantom": (255, 120, 0),
}


def mistake_sheet(folder: Path, mistakes: Sequence[Mistake], columns: int = 10) -> np.ndarray:
    """One picture of every mistake: the die and what is around it (twice its box), its box
    outlined in the colour of its kind, and below it what it is labelled and what was read,
    and the photo's name. A person sees at a glance which are misreads and which are labels
    to fix."""
    photos: dict[str, np.ndarray] = {}
    tiles = []
    for m in mistakes:
        if m.name not in photos:
            photo = cv2.imread(str(Path(folder) / m.name))
            if photo is None:
                raise FileNotFoundError(f"cannot read {Path(folder) / m.name}")
            photos[m.name] = photo
        x0, y0, x1, y1 = m.box
        side = max(x1 - x0, y1 - y0, 8)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        k = TILE / (2 * side)
        warp = np.array([[k, 0, TILE / 2 - k * cx], [0, k, TILE / 2 - k * cy]], np.float32)
        tile = cv2.warpAffine(
            photos[m.name],
            warp,
            (TILE, TILE),
            flags=cv2.INTER_CUBIC,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(255, 255, 255),
        )
        corner = (int(TILE / 2 - k * (cx - x0)), int(TILE / 2 - k * (cy - y0)))
        far = (int(TILE / 2 + k * (x1 - cx)), int(TILE / 2 + k * (y1 - cy)))
        cv2.rectangle(tile, corner, far, _KIND_COLOUR[m.kind], 1, cv2.LINE_AA)
        tile = cv2.copyMakeBorder(
            tile, 0, _CAPTION, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255)
        )
        for row, text in enumerate((m.caption(), Path(m.name).stem)):
            cv2.putText(
                tile,
                text,
                (3, TILE + 12 + 13 * row),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.33,
                (0, 0, 0),
                1,
                cv2.LINE_AA,
            )
        tiles.append(
            cv2.copyMakeBorder(tile, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=(200, 200, 200))
        )
    if not tiles:
        raise ValueError("no mistakes to draw")
    blank = np.full_like(tiles[0], 255)
    tiles += [blank] * (-len(tiles) % columns)
    return np.vstack([np.hstack(tiles[i : i + columns]) for i in range(0, len(tiles), columns)])
