"""Reading a picture at every scale: the picture halved again and again (an image pyramid).

The detector learnt dice from :data:`BAND` [0] to [1] pixels across (their upright box, as the
data sets label them); a picture's dice may be anything from about 12 to 300 pixels, and the
picture up to 4032 pixels wide. Each level of the pyramid halves the one before with a 2×2
mean (``INTER_AREA``: no aliasing), so a die of any size lies inside the band on one or two
levels, and the detector reads every level it may be on. Reading all levels costs 1 + 1/4 +
1/16 + … ≈ 4/3 of the finest, so the cost grows with the pixels read, never with the number
of scales searched. The detector also reads the levels of the picture scaled by
:data:`HALF_OCTAVE` (:func:`half_octave`), half as many pixels again: on a rig it never saw,
it is surest of dice in a narrower band than it learnt, and steps of √2 put every die near
that band's middle on some level.

Which levels are read:

- with a calibrated die size, the levels where a die of half to twice that size is inside
  the band (:data:`CALIBRATED_SPREAD`): on a 640-px photo two to four levels of the five;
- without one, every level from the finest down to where the picture is no bigger than a
  die, the finest being the picture itself, or, in a picture of more than
  :data:`MAX_SEARCH_PIXELS`, the first half that fits (on a 12-megapixel photo, a quarter:
  dice of 40 pixels and more, which is what such a photo of a tray shows).

The face classifier cuts each die from the level where its side is still at least
:data:`CROP_SIDE` pixels: the crop is never shrunk more than twice, so a 300-pixel die is read
as sharply as a 40-pixel one.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# The die sizes (upright box, pixels) the detector is trained to find on one level; the two
# neighbouring levels overlap on 20-40 px, so every die is in the band once or twice.
BAND = (10.0, 40.0)
# Where the band's dice are surest: the geometric middle.
BAND_MIDDLE = math.sqrt(BAND[0] * BAND[1])
# A calibrated die size is one camera's typical die; the dice it sees run from about half to
# twice that (nearer and farther from the lens, a calibration on one die of the set), and
# the detector reads the levels where any such die is in the band. One level only (the one
# nearest the band's middle) missed them: held out, 47.2% of the five rigs' dice read right
# against 58.3% for the whole search; these levels read as many as the whole search.
CALIBRATED_SPREAD = 2.0
# Without a calibration, the finest level read has at most this many pixels (about
# 1280 × 1024): on this machine the detector reads that in ~20 ms, and a 12-megapixel
# photo at full size in ~700 ms.
MAX_SEARCH_PIXELS = 1_310_720
# Between each level and the next the detector also reads the picture scaled by HALF_OCTAVE
# and halved as often (half_octave, read at its own search_levels): the scale search steps
# by √2, not 2. On a rig it never saw, the detector's heat falls off well inside the band it
# learnt: leaving pxl-tray out (dice boxed whole, 48-64 px), its dice's median heat is 0.47
# at 32-40 px and 0.26 at 16 px; leaving roboflow-public out (the top face boxed), 0.6 at
# 16-25 px and 0.43 at 40. Where a rig's dice fall on whole levels is chance, so some rigs'
# dice are found on no level at their surest. Held out (thirty-third session's folds, as
# read), 6,313 of the five rigs' 10,043 dice read right against 6,133 on whole levels
# (62.9% against 61.1%), 312 wrong against 300, 886 phantoms against 830: pxl-tray 2,086
# against 1,963, box-gray 1,619 against 1,575, dice-photos 1,231 against 1,209,
# roboflow-public as many, single-grey 397 against 406 (docs/vision.md, *Half octaves*),
# for two fifths more CPU (33-49% by rig, quiet, side by side; a 12-megapixel photo a fifth
# more). The half-octave finds kept only where no whole-level find lies gained a third as
# much; the picture scaled once, so that the dice read surely on the whole levels are at the
# band's middle, half as much at a second reading's cost.
HALF_OCTAVE = 2**-0.5
# A die is cut for the face classifier from the coarsest level where its upright box is at
# least this (the classifier's 32-px crop holds 1.15 sides: a die cut from there is shrunk by
# at most two, and a die smaller than this is enlarged).
CROP_SIDE = 28.0
# A level of a picture scaled by other than a half (the half-octave picture, a picture
# unstretched: Scaled) is scaled from the source's level bilinearly. OpenCV's exact area
# mean (INTER_AREA) is fast only for whole factors: at 1/√2 it took 2.8 ms for a 640-px
# photo against 0.36, and 82 ms at 12 megapixels against 12. It reads as many dice: held
# out (thirty-fourth session's folds, as read), 6,374 right against 6,339 with the 8-bit
# networks (259 wrong against 261, 743 phantoms against 774) and 6,345 against 6,334 with
# the float ones (249 wrong against 240, 769 phantoms against 744), for 1-14% less CPU by
# rig side by side; a 12-megapixel photo 137-146 ms against 151-154 (docs/vision.md,
# *Levels scaled bilinearly*).
SCALING = cv2.INTER_LINEAR


class Pyramid:
    """A picture and its halves, each made from the one before when first asked for."""

    def __init__(self, bgr: np.ndarray) -> None:
        self._levels: dict[int, np.ndarray] = {0: bgr}
        # The picture's shape (level 0), known without making it (Scaled).
        self.shape: tuple[int, ...] = bgr.shape

    def level(self, k: int) -> np.ndarray:
        """The picture halved ``k`` times (pixel (x, y) of level k is (x, y)·2^k of the picture).

        An odd last row or column is dropped before halving, so each step is an exact 2×2 mean
        (OpenCV's fast path) and coordinates scale by exactly two."""
        if k not in self._levels:
            self._levels[k] = self._make(k)
        return self._levels[k]

    def _make(self, k: int) -> np.ndarray:
        img = self.level(k - 1)
        h, w = img.shape[:2]
        img = img[: h // 2 * 2, : w // 2 * 2]
        return cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)

    @property
    def built(self) -> int:
        """How many levels exist so far (the picture itself counts): what reading cost."""
        return len(self._levels)


class Scaled(Pyramid):
    """The pyramid of ``source``'s picture scaled by ``fx`` across and ``fy`` down (to whole
    pixels: the factors kept are the ones the rounding gives): a point (x, y) of the picture
    is ((x + ½)·``fx`` − ½, (y + ½)·``fy`` − ½) here.

    Each level is made only when asked for: halved from the level before if a finer one is
    made, else scaled from ``source``'s own level (:data:`SCALING`). So the picture scaled is
    never made whole unless its finest level is read, and a picture read from its full size
    gets the very levels that scaling it whole and halving would give."""

    def __init__(self, source: Pyramid, fx: float, fy: float) -> None:
        h, w = source.shape[:2]
        width, height = max(1, round(w * fx)), max(1, round(h * fy))
        self.fx, self.fy = width / w, height / h
        self.shape = (height, width, *source.shape[2:])
        self._levels = {}
        self._source = source

    def _make(self, k: int) -> np.ndarray:
        if any(j < k for j in self._levels):
            return super()._make(k)
        h, w = self.shape[:2]
        size = (max(1, w >> k), max(1, h >> k))
        return cv2.resize(self._source.level(k), size, interpolation=SCALING)

    def to_source(self, point: tuple[float, float]) -> tuple[float, float]:
        """A point of this picture in pixels of ``source``'s picture."""
        return ((point[0] + 0.5) / self.fx - 0.5, (point[1] + 0.5) / self.fy - 0.5)


def half_octave(pyramid: Pyramid) -> Scaled:
    """``pyramid``'s picture scaled by :data:`HALF_OCTAVE`: its levels lie between the
    picture's own, and the detector reads them too (:meth:`vision.net.Detector.search`)."""
    return Scaled(pyramid, HALF_OCTAVE, HALF_OCTAVE)


def search_levels(shape: tuple[int, ...], die_box: float | None = None) -> list[int]:
    """The levels the detector reads on a picture of ``shape``, finest first.

    ``die_box`` is the calibrated die size (upright box, pixels): then the levels where a die
    of 1/:data:`CALIBRATED_SPREAD` to :data:`CALIBRATED_SPREAD` times it is inside the band,
    the picture itself included (small dice on a big photo are what a calibration is for).
    """
    h, w = shape[:2]
    finest = 0
    while not die_box and (h >> finest) * (w >> finest) > MAX_SEARCH_PIXELS:
        finest += 1
    levels = [finest]
    # Down to where the whole picture is about one die of the band's largest size.
    while min(h, w) >> (levels[-1] + 1) >= BAND[1]:
        levels.append(levels[-1] + 1)
    if not die_box:
        return levels
    low, high = die_box / CALIBRATED_SPREAD, die_box * CALIBRATED_SPREAD
    inside = [k for k in levels if BAND[0] * 2**k < high and BAND[1] * 2**k > low]
    return inside or [min(calibrated_level(die_box), levels[-1])]


def calibrated_level(die_box: float) -> int:
    """The level on which a die of ``die_box`` pixels is nearest :data:`BAND_MIDDLE`."""
    return max(0, round(math.log2(die_box / BAND_MIDDLE)))


def crop_level(die_box: float) -> int:
    """The coarsest level on which a die of ``die_box`` (upright box) is still
    :data:`CROP_SIDE` across."""
    return max(0, math.floor(math.log2(max(die_box, 1.0) / CROP_SIDE)))


def smallest_die(shape: tuple[int, ...]) -> float:
    """The smallest die (upright box, pixels) found without a calibration on a picture of
    ``shape``: the band's lower end on the finest level read."""
    return float(BAND[0] * 2 ** search_levels(shape)[0])
