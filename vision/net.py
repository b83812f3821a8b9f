"""The die networks at run time: ONNX Runtime runs the shipped ONNX files, OpenCV and numpy
do the rest.

Two small networks, both trained by :mod:`vision.train`:

1. The **detector** (``dice_net.onnx``) looks at the whole picture at once and, for every
   8×8-pixel cell, says how likely a die's centre is in the cell (heat), where in the cell it
   lies and how big the die is. A die is a local maximum of heat of at least ``min_heat``.
2. The **face classifier** (``dice_faces.onnx``) looks at each found die alone, cut out
   turned square to the crop (:mod:`vision.pose`) and scaled to 32×32 pixels, and gives the
   probability of each face, of "not a die" and of "a die with no legal face" (blank,
   smudged, an impossible layout). A find that is more likely not a die than a die is
   dropped (a phantom); otherwise the value is the most likely face when its probability is
   at least ``min_value``, and the die is reported as unsure when it is not. A die read at
   under :data:`SECOND_LOOK_BELOW` is first looked at again, from crops moved a little each
   way and a tighter one.

The network learnt dice from about 24 to 65 px across (the photographed sizes times the
training's scale range). Pictures whose dice are outside that range are scaled to the
middle of it: from the calibrated die size when there is one, else from the sizes the
network itself reports on a first pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.pose import die_angle, die_side, face_crop

MODELS = Path(__file__).parent  # the shipped dice_net.onnx and dice_faces.onnx
STRIDE = 8
# The die size (pixels, square root of the box area) the network saw most: the middle of the
# training range. Sizes from TRUSTED_SIZE[0] to TRUSTED_SIZE[1] are read as they are.
TYPICAL_DIE_PX = 39.0
TRUSTED_SIZE = (26.0, 60.0)
# Both are probabilities, set at "more likely than not" rather than fitted to the photos.
MIN_HEAT = 0.5
MIN_VALUE = 0.5
# Each die is classified this many times, turned by a quarter each time (and mirrored past
# four), and the probabilities averaged: a face is the same face turned, the errors are not.
# Held out, two views read as many dice right as four (97.2%) with one wrong fewer, in half
# the classifier's time; one view read 0.2 points fewer and 10 more wrong.
VIEWS = 2
# A die the classifier is not clearly sure of (best face below SECOND_LOOK_BELOW) is looked
# at again before MIN_VALUE decides whether it is unsure: from crops
# moved SECOND_LOOK of its side each way, twice the detector's centre error (0.041 per axis,
# vision.augment.FACE_PLACING), to see past a crop that is a little off; and from a crop
# SECOND_LOOK_ZOOM of its size, since the detector sizes the whole visible die (side faces
# and shadow too, as the data set's boxes do) and a tighter crop shows the top face alone.
# Held out, the moved crops read 6 more of 1,487 dice right at no more wrong (0.05 and 0.12
# each 5 more); the tighter one 2 more and 1 more wrong, and it reads touching drawn dice
# the detector oversizes by half (tests/vision/test_vision_reader.py). Looking again at dice
# read at under 0.9 too, not only at the unsure ones, turned 4 of 15 held-out wrong reads into
# unsure ones and read as many right (under 0.7: the same); it costs a few second looks a photo.
SECOND_LOOK = 0.08
SECOND_LOOK_ZOOM = 0.8
SECOND_LOOK_BELOW = 0.9


@dataclass(frozen=True, slots=True)
class NetDie:
    """One die the network found: centre and size in picture pixels, face probabilities."""

    centre: tuple[float, float]
    size: float
    heat: float
    probabilities: np.ndarray  # eight: faces 1..6, "not a die", "a die with no legal face"
    angle: float = 0.0  # its turn (vision.pose.die_angle), radians, once classified

    @property
    def not_a_die(self) -> float:
        return float(self.probabilities[6])

    @property
    def no_face(self) -> float:
        return float(self.probabilities[7])

    @property
    def best(self) -> int:
        return int(np.argmax(self.probabilities[:6])) + 1

    @property
    def best_probability(self) -> float:
        return float(np.max(self.probabilities[:6]))


class DieNet:
    """The two networks in ``models`` (the shipped ones, or e.g. a benchmark fold's)."""

    def __init__(self, models: Path | str = MODELS, min_heat: float = MIN_HEAT,
                 views: int = VIEWS) -> None:
        models = Path(models)
        files = [models / "dice_net.onnx", models / "dice_faces.onnx"]
        for f in files:
            if not f.exists():
                raise FileNotFoundError(
                    f"no die network at {f}: rebuild it with `python -m vision.train`")
        self.models = models
        # One thread each: the companion serves phones beside the reader, and a still frame
        # is read once. (ONNX Runtime runs these nets 3-5x faster than cv2.dnn; see pyproject.)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.net, self.faces = (
            ort.InferenceSession(str(f), options, providers=["CPUExecutionProvider"])
            for f in files)
        self.min_heat = min_heat
        self.views = views

    def maps(self, bgr: np.ndarray) -> np.ndarray:
        """The raw output maps (10 × H/8 × W/8) for a BGR picture."""
        h, w = bgr.shape[:2]
        ph, pw = -h % STRIDE, -w % STRIDE
        if ph or pw:
            bgr = cv2.copyMakeBorder(bgr, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        blob = bgr.transpose(2, 0, 1)[None].astype(np.float32) * np.float32(1 / 255)
        return self.net.run(None, {"bgr": blob})[0][0]

    def _find(self, bgr: np.ndarray, scale: float) -> list[NetDie]:
        """The detector's dice on ``bgr`` shrunk or grown by ``scale``, in picture pixels,
        before the face classifier has seen them."""
        if scale != 1.0:
            small = cv2.resize(bgr, None, fx=scale, fy=scale,
                               interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        else:
            small = bgr
        out = self.maps(small)
        heat = 1 / (1 + np.exp(-out[0]))
        peaks = (heat >= self.min_heat) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        found = []
        for gy, gx in zip(*np.nonzero(peaks), strict=True):
            cx = (gx + 0.5 + out[7, gy, gx]) * STRIDE / scale
            cy = (gy + 0.5 + out[8, gy, gx]) * STRIDE / scale
            size = float(np.exp(np.clip(out[9, gy, gx], -3, 4))) * STRIDE / scale
            found.append(NetDie((float(cx), float(cy)), size, float(heat[gy, gx]),
                                np.zeros(8)))
        # Two peaks on one die: keep the stronger (dice cannot overlap by more than half).
        found.sort(key=lambda d: -d.heat)
        kept: list[NetDie] = []
        for d in found:
            if all(np.hypot(d.centre[0] - k.centre[0], d.centre[1] - k.centre[1])
                   >= 0.5 * min(d.size, k.size) for k in kept):
                kept.append(d)
        return kept

    def _classify(self, bgr: np.ndarray, dice: list[NetDie]) -> list[NetDie]:
        """Each die's face probabilities from its own crop, turned square
        (:mod:`vision.pose`); phantoms (more likely not a die than a die, with or without a
        legal face) dropped. A die it is not clearly sure of gets a second look
        (:data:`SECOND_LOOK_BELOW`, :data:`SECOND_LOOK`)."""
        if not dice:
            return []
        angles = [die_angle(bgr, d.centre, d.size) for d in dice]
        p = self._faces(np.stack([face_crop(bgr, d.centre, d.size, a)
                                  for d, a in zip(dice, angles, strict=True)]))
        kept = [NetDie(d.centre, d.size, d.heat, q, a)
                for d, q, a in zip(dice, p, angles, strict=True) if q[6] < q[:6].sum() + q[7]]
        return [self._second_look(bgr, d) if d.best_probability < SECOND_LOOK_BELOW else d
                for d in kept]

    def _second_look(self, bgr: np.ndarray, d: NetDie) -> NetDie:
        """``d`` with its probabilities averaged over its own crop and five more: moved
        :data:`SECOND_LOOK` of its side left, right, up and down, and one
        :data:`SECOND_LOOK_ZOOM` of its size."""
        shift = SECOND_LOOK * die_side(d.size, d.angle)
        crops = [face_crop(bgr, (d.centre[0] + dx * shift, d.centre[1] + dy * shift), d.size,
                           d.angle) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        crops.append(face_crop(bgr, d.centre, d.size * SECOND_LOOK_ZOOM, d.angle))
        p = (d.probabilities + self._faces(np.stack(crops)).sum(axis=0)) / (1 + len(crops))
        return NetDie(d.centre, d.size, d.heat, p, d.angle)

    def _faces(self, crops: np.ndarray) -> np.ndarray:
        """The face classifier's probabilities for each crop, averaged over its views."""
        views = np.concatenate(
            [np.rot90(crops if k < 4 else crops[:, :, ::-1], k % 4, axes=(1, 2))
             for k in range(self.views)])
        blob = views.transpose(0, 3, 1, 2).astype(np.float32) * np.float32(1 / 255)
        logits = self.faces.run(None, {"bgr": np.ascontiguousarray(blob)})[0]
        logits = logits.reshape(self.views, len(crops), 8).astype(np.float64)
        p = np.exp(logits - logits.max(axis=2, keepdims=True))
        return (p / p.sum(axis=2, keepdims=True)).mean(axis=0)

    def find(self, bgr: np.ndarray, die_px: float | None = None) -> list[NetDie]:
        """Every die on the picture, in picture pixels.

        The detector looks at the picture as it is when its dice are a size it learnt
        (:data:`TRUSTED_SIZE`), else scaled so they are :data:`TYPICAL_DIE_PX` across; the
        size comes from the calibration when there is one, else from a first look. The
        face classifier always cuts its crops from the picture as it is, once.
        """
        if die_px is None:
            first = self._find(bgr, 1.0)
            sizes = [d.size for d in first]
            if not sizes or TRUSTED_SIZE[0] <= float(np.median(sizes)) <= TRUSTED_SIZE[1]:
                return self._classify(bgr, first)
            die_px = float(np.median(sizes))
        scale = 1.0 if TRUSTED_SIZE[0] <= die_px <= TRUSTED_SIZE[1] else TYPICAL_DIE_PX / die_px
        return self._classify(bgr, self._find(bgr, scale))
