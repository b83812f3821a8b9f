"""One picture in, the dice on it out: the whole single-image pipeline.

:class:`DiceReader` finds and reads the dice with the die networks (:mod:`vision.net`, two
small learned models shipped as ONNX files and run by ONNX Runtime), at whatever scale they
are and only on the tray when the calibration knows where it is, then names each die's
colour (:mod:`vision.colour`). A die whose face the network is not sure of is still reported,
with ``value`` None: the table must know a die is there even when its face cannot be trusted.

:class:`ClassicReader` is the earlier hand-built pipeline (find the dice by colour difference
from the tray, :mod:`vision.finding`; read the pips, :mod:`vision.pips`; check the layout,
:mod:`vision.faces`), kept for comparison in the benchmark.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.calibration import Calibration, fingerprint
from vision.colour import NAMED_COLOURS, die_colour, nearest_colour
from vision.finding import Rect, find_dice
from vision.net import MIN_VALUE, MODELS, VIEWS, DieNet
from vision.pips import read_pips
from vision.pose import die_side
from vision.tray import contains

log = logging.getLogger(__name__)
_NETS: dict[str, DieNet] = {}


def _net(
    models: Path | str,
    views: int,
    faces: bytes | None = None,
    min_heat: float | None = None,
    not_a_die_from: float | None = None,
) -> DieNet:
    # One loaded pair of networks per folder (and adapted classifier and thresholds): readers
    # are cheap to make, networks are not.
    adapted = fingerprint(faces) if faces else ""
    key = f"{Path(models).resolve()}:{views}:{adapted}:{min_heat}:{not_a_die_from}"
    if key not in _NETS:
        _NETS[key] = DieNet(
            models, min_heat=min_heat, views=views, faces=faces, not_a_die_from=not_a_die_from
        )
    return _NETS[key]


def _faces(calibration: Calibration, models: Path | str) -> bytes | None:
    """The calibration's adapted classifier if it was made from the one in ``models``."""
    if calibration.faces_from is None:
        return None
    shipped = fingerprint((Path(models) / "dice_faces.onnx").read_bytes())
    adapted = calibration.adapted_faces(shipped)
    if adapted is None:
        log.warning(
            "the calibration's face classifier was adapted from other networks than those "
            "in %s: using theirs unadapted (run `python -m vision adapt` to adapt them)",
            models,
        )
    return adapted


@dataclass(frozen=True, slots=True)
class DieFound:
    """One die on one picture. ``value`` is None when the reader is unsure of the face."""

    value: int | None
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels
    centre: tuple[float, float]
    rect: Rect  # the rotated box ((cx, cy), (w, h), angle)
    colour: str
    lab: tuple[float, float, float]
    confidence: float
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "box": list(self.box),
            "colour": self.colour,
            "confidence": round(self.confidence, 3),
            **({} if self.value is not None else {"unsure": self.reason}),
        }


class DiceReader:
    """Reads pictures of one rig; holds its calibration so each call needs only the picture.

    ``models`` is the folder of the networks' ONNX files (the shipped ones by default);
    ``min_value`` is the face probability below which a die is reported as unsure; ``views``
    how many turns of each die the face classifier averages (fewer is faster, and wrong
    more often).
    """

    def __init__(
        self,
        calibration: Calibration | None = None,
        models: Path | str = MODELS,
        min_value: float = MIN_VALUE,
        views: int = VIEWS,
    ) -> None:
        self.calibration = calibration or Calibration()
        self.models = models
        self.min_value = min_value
        self.views = views
        self.faces = _faces(self.calibration, models)

    def read(self, bgr: np.ndarray, count: int | None = None) -> list[DieFound]:
        """Every die on a BGR picture, in reading order (top to bottom, left to right).
        ``count``, when known, is how many dice are in view (a roll the table waits for):
        finding fewer, the reader looks harder for the rest."""
        _check_picture(bgr)
        cal = self.calibration
        # The rig's "not a die" cut was chosen for its adapted classifier, and goes with it;
        # its threshold, if it has one, holds (else the classifier's own: vision.net.DieNet).
        cut = cal.not_a_die_from if self.faces is not None else None
        net = _net(self.models, self.views, self.faces, cal.min_heat, cut)
        net_dice = net.find(bgr, cal.die_px, cal.tray, count)
        palette = cal.palette or NAMED_COLOURS
        found = []
        for d in net_dice:
            side = die_side(d.size, d.angle)
            # A die on a stretched picture (vision.stretch) is outlined as the unstretched
            # die's square stretched along the picture's axes, near enough for drawing.
            wide, high = math.exp(d.stretch / 2), math.exp(-d.stretch / 2)
            rect: Rect = (d.centre, (side * wide, side * high), float(np.degrees(d.angle)))
            # Measured as calibrate measures its palette's dice (vision.colour.die_colour).
            colour_lab = die_colour(bgr, rect)
            name, _ = nearest_colour(colour_lab, palette)
            p = d.best_probability
            sure = p >= self.min_value
            if sure:
                reason = f"face {d.best} at p={p:.2f}"
            elif d.no_face > p:
                reason = f"no legal face (p={d.no_face:.2f}): blank, smudged or cocked"
            else:
                reason = f"face {d.best} only at p={p:.2f}"
            found.append(
                DieFound(
                    value=d.best if sure else None,
                    box=_box(d.centre, d.size * wide, d.size * high),
                    centre=d.centre,
                    rect=rect,
                    colour=name,
                    lab=_lab(colour_lab),
                    confidence=d.heat * p,
                    reason=reason,
                )
            )
        found.sort(key=lambda d: (round(d.centre[1] / 20), d.centre[0]))
        return found


class ClassicReader:
    """The hand-built pipeline (no learned parts), kept to compare against in the benchmark."""

    def __init__(self, calibration: Calibration | None = None) -> None:
        self.calibration = calibration or Calibration()

    def read(self, bgr: np.ndarray) -> list[DieFound]:
        """Every die on a BGR picture, in reading order (top to bottom, left to right)."""
        _check_picture(bgr)
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
        cal = self.calibration
        candidates, mask, _ = find_dice(lab, cal.die_px, cal.empty_lab(lab.shape))
        if cal.tray is not None:
            candidates = [c for c in candidates if contains(cal.tray, bgr.shape, c.centre)]
        palette = cal.palette or NAMED_COLOURS
        found = []
        for cand in candidates:
            pips = read_pips(lab, cand.rect, mask)
            colour_lab = die_colour(bgr, cand.rect)
            name, _ = nearest_colour(colour_lab, palette)
            found.append(
                DieFound(
                    value=pips.value,
                    box=cand.box,
                    centre=cand.centre,
                    rect=cand.rect,
                    colour=name,
                    lab=_lab(colour_lab),
                    confidence=pips.confidence * cand.squareness,
                    reason=pips.reason,
                )
            )
        found.sort(key=lambda d: (round(d.centre[1] / 20), d.centre[0]))
        return found


def _check_picture(bgr: np.ndarray) -> None:
    if bgr is None or bgr.ndim != 3 or bgr.shape[2] != 3:
        raise ValueError("expected a BGR colour picture (H×W×3)")


def _box(centre: tuple[float, float], width: float, height: float) -> tuple[int, int, int, int]:
    x, y = centre
    w, h = width / 2, height / 2
    return int(np.floor(x - w)), int(np.floor(y - h)), int(np.ceil(x + w)), int(np.ceil(y + h))


def read_image(bgr: np.ndarray, calibration: Calibration | None = None) -> list[DieFound]:
    """Convenience: read one picture with an optional calibration."""
    return DiceReader(calibration).read(bgr)


def _lab(colour: np.ndarray) -> tuple[float, float, float]:
    lab_l, a, b = (float(x) for x in colour)
    return lab_l, a, b
