"""The die networks at run time: ONNX Runtime runs the shipped ONNX files, OpenCV and numpy
do the rest.

Two small networks, both trained by :mod:`vision.train`:

1. The **detector** (``dice_net.onnx``) looks at the whole picture at once and, for every
   8×8-pixel cell, says how likely a die's centre is in the cell (heat), where in the cell it
   lies and how big the die is. A die is a local maximum of heat of at least ``min_heat``
   (:data:`READ_FROM`, or a calibration's); one under the threshold the classifier was
   trained beside (:data:`SURE_ONLY_BELOW`) is kept only when its face is read surely.
2. The **face classifier** (``dice_faces.onnx``) looks at each found die alone, cut out
   turned square to the crop (:mod:`vision.pose`) and scaled to 32×32 pixels, and gives the
   probability of each face, of "not a die" and of "a die with no legal face" (blank,
   smudged, an impossible layout). A find more likely not a die than a die is dropped (a
   phantom; :data:`NOT_A_DIE_FROM`); otherwise the value is the most likely face when its
   probability is at least ``min_value``, and the die is reported as unsure when it is not.
   A die read at under :data:`SECOND_LOOK_BELOW` is first looked at again, from crops moved
   a little each way and a tighter one.

The detector reads every level of the picture's pyramid where a die can be, and of the
picture scaled by 1/√2 between them (:mod:`vision.pyramid`, :meth:`Detector.search`): dice
of any size are on some level near the size it is surest of. The face
classifier cuts each die from the level where it is still sharp but no larger than it needs.
With a calibrated tray (:mod:`vision.tray`) only the tray is read. A picture whose dice look
stretched along one axis (:mod:`vision.stretch`) is read unstretched too, and the reading
with more dice read surely is kept (:meth:`DieNet.read`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]

from vision.colour import die_colour, nearest_colour
from vision.pose import FACE_CROP, crop_matrix, die_angle, die_side, face_crop
from vision.pyramid import BAND, Pyramid, crop_level, half_octave, search_levels
from vision.stretch import MIN_STRETCH, SURE_HEAT, Unstretched, stretch_of
from vision.tray import Polygon, bounds, contains

MODELS = Path(__file__).parent  # the shipped dice_net.onnx and dice_faces.onnx
STRIDE = 8
# A find is a die candidate from MIN_HEAT: on a rig the detector never saw it is less sure
# than on those it learnt (leaving pxl-tray out, its dice peaked at 0.3-0.5 and only 62% of
# them reached 0.5; 93% reached 0.3), and the face classifier, trained on the detector's own
# phantoms, is the judge of what is a die. MIN_VALUE is "more likely than not".
MIN_HEAT = 0.3
MIN_VALUE = 0.5
# A find the face classifier puts this much or more on "not a die" is dropped: more likely
# not a die than a die. Held out, 0.4 read 0.3 points fewer dice right pooled with a quarter
# fewer phantoms (6.5% against 8.8%), but on pxl-tray's test photos a green 4 dropped left
# its side face to be read as a 6 in its place. The classifier adapted to a rig
# (vision.adapt) reads more dice right, and is less sure that a phantom is not a die: held
# out (adapted all the way, BLEND 1), dropping from 0.5 it read 1.9 points more phantoms
# pooled than the trained one, from 0.4 (NOT_A_DIE_FROM_ADAPTED) 0.5 fewer, for 0.3 points
# of the dice it read right (docs/vision.md, *The face classifier adapted at calibration*).
NOT_A_DIE_FROM = 0.5
NOT_A_DIE_FROM_ADAPTED = 0.4
# The reader reads from under MIN_HEAT (READ_FROM; a calibration chooses its rig's from
# vision.adapt.HEATS); a find under this heat, which the detector as trained would not have
# made, is kept only when the classifier reads its face surely. Held out, calibrated
# (twentieth session, the rolls choosing the threshold and cut), 63.4 / 2.8 / 13.1 / 20.8 /
# 7.1 pooled against 62.0 / 2.5 / 13.8 / 21.6 / 7.5 without: at any one threshold no die is
# read otherwise and only finds reported unsure go (phantoms, or dice then missed), and on
# fewer phantoms the rolls' counts let pxl-tray be read from 0.25.
SURE_ONLY_BELOW = MIN_HEAT
# The reader with the classifier as trained reads from READ_FROM, under the threshold the
# classifier learnt its phantoms above (MIN_HEAT): on a rig it never saw, many dice peak just
# under it (leaving box-gray out, 77 of the 90 dice never found peaked at 0.2-0.3; pxl-tray
# 381 of 477). A find under SURE_ONLY_BELOW is classified only when it overlaps no die read
# surely over it (what overlaps a die is its pips, a side face or the die framed loosely),
# with one look, and kept only when that look reads its face at LOW_SURE or more: the finds
# the trained detector would not have made are mostly specks, holes and pips, which the
# classifier reads as 1s. Held out (twenty-fourth session), 59.4 / 2.8 / 16.5 / 21.3 / 9.2
# pooled against 58.2 / 2.8 / 16.7 / 22.3 / 9.1 from MIN_HEAT (box-gray 83.3% read right
# against 79.8%, its few-pip faces), for 4-11% more CPU on four rigs and 36-41% on pxl-tray.
# From 0.2 with every find classified alike, 61.5% right but 3.7% wrong and 11.1% phantoms;
# each find under 0.3 classified and looked at again as the others, 59.6% for 18-96% more CPU.
READ_FROM = 0.2
LOW_SURE = 0.9
# Nor is a faint find looked at when its size is off the median of the dice read surely over
# SURE_ONLY_BELOW on the photo (two or more) by more than FAINT_SIZE either way: the dice on
# one table are alike, and what the detector finds faintly at another size is mostly specks
# and holes, which the classifier reads as 1s. Held out, dice-photos' phantoms 6.3 -> 5.5%
# and wrong reads 2.2 -> 2.0% (5.4 and 2.0 from MIN_HEAT), box-gray 83.3 -> 83.0% read right,
# 59.3 / 2.8 / 16.5 / 21.3 / 9.1 pooled, and pxl-tray's photos 5-10% cheaper; 1.5 read 0.1
# point fewer right pooled again.
FAINT_SIZE = 2.0
# A faint find read at MIN_VALUE to LOW_SURE is kept too when the classifier is all but sure
# it is a die (*not a die* under FAINT_NOT_A_DIE) and its body colour (vision.colour's median
# and distance, on its face crop) is within FAINT_COLOUR of a die's read surely over
# SURE_ONLY_BELOW: the dice on one table look alike, specks and holes do not look like them
# (a faint die of a colour no die read surely shares, a family's only die, needs LOW_SURE).
# Held out (twenty-fifth session), 60.4 / 2.9 / 16.5 / 20.2 / 9.2 pooled against 59.3 / 2.8 /
# 16.5 / 21.3 / 9.1 (pxl-tray 51.1% read right against 48.7%, box-gray 83.8 against 83.0),
# at no cost measurable side by side; without the colour, 60.6% but dice-photos' phantoms
# 6.0% against 5.6. Both bars chosen leaving each rig out: on the other four rigs' faint
# finds, 0.1 and 30 did best for four of the five.
FAINT_NOT_A_DIE = 0.1
FAINT_COLOUR = 30.0
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
# Finds closer than half a die are one die found twice when their sizes are within this
# factor (two levels of the pyramid see a die alike); of unlike sizes, the face classifier
# decides which is the die.
SAME_SIZE = 2.0
# Of dice the classifier kept, two whose top faces (squares of die_side turned by their
# angle) overlap by more than OVERLAP_MOST of the smaller one are one die and what lies on or
# beside it: its pips, a heap it belongs to, or its side face, which a camera at a slant
# shows as a strip beside the top face and the detector may find as a die of its own. The
# rule before it (a find dropped when its centre lay in the middle half of a better one's
# box) let side faces through, their centres half a side off. Held out, 0.3 read 0.6 points
# fewer phantoms pooled (1.2-1.5 on roboflow-public and single-grey; 0.4 fewer read as a
# face) for 0.1 fewer read right (adjacent dice the detector oversized, now overlapping);
# 0.2 took another 0.3 points of phantoms and another 0.1 of dice read right. With the
# stride-2 classifier (fifteenth session), 0.15 against 0.3: 56 fewer phantoms of 10,043
# dice (38 fewer read as a face), 15 more photos read wholly right (918 of 2,010), for 15
# fewer dice read right (0.1 points; 0.2 calibrated) and one more wrong. A phantom read as a
# face adds a die to the roll unnoticed; a die missed is asked about (unsure over wrong).
OVERLAP_MOST = 0.15
SECOND_LOOK = 0.08
SECOND_LOOK_ZOOM = 0.8
# Told how many dice are in view (a camera's roll: the dice hub knows how many it lacks), a
# reading that kept fewer dice looks for the rest among the detector's faint finds (from
# FILL_FROM to SURE_ONLY_BELOW) that lie on no die kept and are about the size of the dice
# read surely (FAINT_SIZE), every look given, and adds those the classifier reads at
# MIN_VALUE or more (a 1 at LOW_SURE: specks and holes read as 1s) and is all but sure are
# dice (FAINT_NOT_A_DIE, the faint finds' bar), the likeliest first: a die filled in is
# counted in the roll without a word. Held out (thirty-first session's folds, each photo
# told its labelled count), box-gray read 1,630 dice right against 1,594, pxl-tray 2,036
# against 1,942 (9 more wrong, 9 more phantoms), dice-photos and roboflow-public as before
# (docs/vision.md, *Told how many dice are in view*). With the reader's own "not a die" cut
# (NOT_A_DIE_FROM), pxl-tray read 20 more right but 11 more wrong and 56 more phantoms,
# nearly all read as 6s; with 1s at MIN_VALUE, box-gray and dice-photos read a few more
# right and 2 and 6 more phantoms.
FILL_FROM = 0.1
SECOND_LOOK_BELOW = 0.9
# The second look's five crops are seen once each, each in another of the classifier's views
# (DieNet._faces: k quarter turns, mirrored from 4), in the order right, left, down, up and
# the tighter one: the five crops of one die are nearly the same picture, so turning each
# another way keeps what averaging over views is for, in half the classifier's time. Held
# out (twenty-seventh session's folds), with the looks again no last look could make a die
# (DieNet._phantom_anyway, which changes nothing read): 6,113 dice read right against 6,107,
# 272 wrong against 280, 890 phantoms against 887, and side by side 2-10% less CPU a photo
# by rig (pxl-tray 51.5-53.1 ms against 57.8-59.1). The five crops all in the first view
# (thirteenth session) read 0.2 points fewer right and 0.2 more wrong.
SECOND_LOOK_VIEWS = (0, 1, 2, 3, 4)
# A find read surely but under HEAP_BELOW that covers two or more finds read surely, each
# under HEAP_PART of its size, one of them with more than one pip, is a heap of dice taken
# for one big die: it is dropped, and the dice in it are read. (A die's pips, found alone,
# look like 1s, so a die over its pips stays.) Held out, read right: `dice-photos` 70.6% ->
# 74.3%, `box-gray` 73.4% -> 75.0%, `roboflow-public` 45.8% -> 46.3%, `single-grey` the same
# (45.9 -> 46.0%), wrong reads no more; phantoms 0.5-1 point more on the last two, fewer on
# `dice-photos`. Without the "more than one pip" condition `box-gray` lost 1.1 points (dice
# over their pips dropped); without HEAP_BELOW, phantoms rose by 1.3-1.7 points.
HEAP_BELOW = 0.9
HEAP_PART = 0.6
# Nor is a find read under HEAP_BELOW one die when it is more than HEAP_SIZE times the size of
# the dice read at HEAP_BELOW on the photo (their median, two or more; 1s left out, which may
# be pips): the dice on one table are alike, and such a find is a heap or a patch of the
# table that, kept, pushes the dice under it out (no two dice overlap, and _apart keeps the
# bigger of two finds read alike). Held out (twenty-seventh session's folds), dice-photos
# read 5 more dice right, 4 fewer wrong and 11 fewer phantoms, the other rigs as many right
# (a die or two moved between wrong, unsure, missed and phantom): pooled 6,118 right against
# 6,113, 267 wrong against 272, 879 phantoms against 890. With 1s counted in the median, 3
# more right (but a die over two pips read as 1s would go), and 2 times their size 2 fewer
# than 3 times.
HEAP_SIZE = 3.0
# Nor is an unsure find (under MIN_VALUE) less than SPECK_SIZE times the size of those dice: a
# speck, a hole or a pip on its own. Held out (twenty-ninth session's folds), 0.5 read as many
# dice right on every rig and one more wrong (dice-photos), with 65 fewer phantoms of 880
# (pxl-tray 326 -> 296, roboflow-public 290 -> 278; single-grey 100 -> 89, which with box-gray
# was not used in choosing it); box-gray, whose dice are at times found only as a pip, had 25
# dice reported unsure missed instead. At 0.6, 5 fewer right; under 0.9 rather than
# MIN_VALUE, roboflow-public read 9 fewer right.
SPECK_SIZE = 0.5
# And once a reading is made, no find, read surely or not, whose side is under SMALL_SIDE
# times the median side of the dice it read surely (two or more; 1s left out) is kept: the
# dice on one table are one size, and such a find is a pip, a speck or a side face. (The
# speck rule above runs before the looks, on the upright boxes, so those looks are not spent
# on specks.) Chosen on the pxl-tray and roboflow-public folds (0.5: 3 fewer right, 77 fewer
# phantoms; 0.7: 32 fewer right, 206 fewer phantoms). Held out (thirty-fourth session's
# folds, as read), pooled 6,339 right against 6,362, 261 wrong against 270, 774 phantoms
# against 963: pxl-tray 373 -> 252, dice-photos 81 -> 48, box-gray 87 -> 68; single-grey,
# whose photos hold two or three dice, read 6 fewer right for 1 fewer phantom
# (docs/vision.md, *Finds far smaller than the dice*).
SMALL_SIDE = 0.6
# A classifier with where outputs (vision.augment.FACE_OUTPUTS) says where in its crop the die
# lies; the reader moves each find there before any rule that compares finds, by at most
# PLACE_MOST of a crop side each way and e^±PLACE_MOST in size: it learnt small errors, and
# a find far off a die is better left to the rules than carried onto a neighbour.
PLACE_MOST = 0.5
# A find the classifier moved by more than LOOK_AGAIN (of its size, in centre or in the log of
# its size) is cut again where the classifier says the die is and classified again, up to
# LOOK_AGAIN_ROUNDS times, its probabilities the mean of its looks. On a rig it never saw,
# the detector places small dice loosely (1.4 times too big, median, among those the
# classifier took for "not a die"; cut where their labels say, half of those are read as
# dice). Held out, two rounds read 1.8-3.5 points more dice right on every rig, wrong reads
# fewer on four rigs, phantoms within a point; one round gained half as much, and moves of
# 0.1 and 0.2 of a die less than 0.05. Taking the last look alone, not the mean, gained
# another 2 points on roboflow-public but read box-gray's emblem die as a 4: the first
# look's doubt must count. A find whose looks so far put so much on "not a die" that no
# last look could bring it under the cut is not looked at again (DieNet._phantom_anyway):
# nothing read changes, and on pxl-tray 43% of the finds over 0.3 are dropped as phantoms.
LOOK_AGAIN = 0.05
LOOK_AGAIN_ROUNDS = 2
# A die looked at again is cut at the turn measured before (vision.pose.die_angle) unless it
# moved more than TURN_AGAIN (as LOOK_AGAIN): the turn is measured from the edges in a window
# the die's size across around its centre, which a small move hardly changes (0.5-2.2° by
# rig, median), and measuring it costs a third of a look. Held out (twenty-sixth session),
# against measuring it at every look: 6,071 dice read right against 6,070, 291 wrong against
# 292, 928 phantoms against 922, and side by side 1-9% less CPU a photo by rig (pxl-tray
# 63.5-65.2 ms against 69.0-69.9), since most looks again on every rig moved less than 0.2.
# Never measured again: as many read right, but a find the classifier grew by a third kept
# the turn of its crop on two pips (8° off a drawn die's edges, test_vision_reader.py).
TURN_AGAIN = 0.2
# With a calibrated die size, a find is cut for the classifier at no more than SIZED_MOST
# times that size, nor less than its inverse: on a rig it never saw, the detector sizes dice
# 1.4 times too big (median), and a crop framed that loosely shows a small die as "not a
# die"; it also finds parts of big dice, which framed as big as a die are the die. Held out,
# each photo calibrated with its own dice's size: box-gray 79.0 -> 83.2% read right,
# dice-photos 80.5 -> 83.1%, pxl-tray 47.3 -> 48.1% (phantoms 10.8 -> 7.6%), roboflow-public
# 47.3 -> 47.0% and single-grey 46.0 -> 45.0% (labelled by the top face alone, smaller than
# the die a calibration outlines); 1.25 gained more on the first two and lost more on the
# last two; only shrinking finds gained a fifth as much.
SIZED_MOST = 1.5


@dataclass(frozen=True, slots=True)
class NetDie:
    """One die the network found: centre and size in picture pixels, face probabilities."""

    centre: tuple[float, float]
    size: float
    heat: float
    probabilities: np.ndarray  # eight: faces 1..6, "not a die", "a die with no legal face"
    angle: float = 0.0  # its turn (vision.pose.die_angle), radians, once classified
    # The log of how much wider than high it is in the picture (vision.stretch): 0 unless the
    # picture was read unstretched; ``size`` and ``angle`` are then the unstretched die's.
    stretch: float = 0.0

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


def _session(path: Path | bytes) -> ort.InferenceSession:
    if isinstance(path, Path) and not path.exists():
        raise FileNotFoundError(
            f"no die network at {path}: rebuild it with `python -m vision.train`"
        )
    # One thread: the companion serves phones beside the reader, and a still frame is read
    # once. (ONNX Runtime runs these nets 3-5x faster than cv2.dnn; see pyproject.)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    # The 8-bit networks (vision.quantize) exactly on every x86 CPU: without VNNI (AMD Zen 1-3,
    # Intel before Ice Lake) ONNX Runtime's fast 8-bit kernel saturates its 16-bit sums and
    # reads differently (on the tests' photos of five rigs, on a Zen 3: 9 phantoms against 5,
    # a pxl-tray die read wrong). This makes it use its exact kernel there, about as slow as
    # the float networks; it changes nothing with VNNI or on a Pi's ARM cores.
    options.add_session_config_entry("session.x64quantprecision", "1")
    model = path if isinstance(path, bytes) else str(path)
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


class Detector:
    """The detector alone (``dice_net.onnx``): where the dice are and how big, on the levels
    of a picture's pyramid. Training uses it alone to find what it takes for dice."""

    def __init__(self, path: Path | str, min_heat: float = MIN_HEAT) -> None:
        self.session = _session(Path(path))
        self.min_heat = min_heat

    def maps(self, bgr: np.ndarray) -> np.ndarray:
        """The raw output maps (10 × H/8 × W/8) for a BGR picture."""
        h, w = bgr.shape[:2]
        ph, pw = -h % STRIDE, -w % STRIDE
        if ph or pw:
            bgr = cv2.copyMakeBorder(bgr, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        # Channel planes in C order, as ONNX Runtime takes them: a transposed view converted
        # and scaled in one numpy expression cost as much as the 8-bit detector's run itself;
        # each plane copied into place and then scaled in place costs half what stacking the
        # planes and scaling into a new array did (0.36 against 0.72 ms at 640×640).
        blob = np.empty((1, 3, *bgr.shape[:2]), np.float32)
        for i, plane in enumerate(cv2.split(bgr)):
            blob[0, i] = plane
        blob *= np.float32(1 / 255)
        out: np.ndarray = self.session.run(None, {"bgr": blob})[0][0]
        return out

    def peaks(
        self, img: np.ndarray, min_heat: float | None = None
    ) -> list[tuple[float, float, float, float]]:
        """The detector's dice on one picture as it is: (cx, cy, size, heat) in its pixels,
        from its threshold (or ``min_heat``)."""
        out = self.maps(img)
        heat = 1 / (1 + np.exp(-out[0]))
        floor = self.min_heat if min_heat is None else min_heat
        peaks = (heat >= floor) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        found = []
        for gy, gx in zip(*np.nonzero(peaks), strict=True):
            cx = (gx + 0.5 + out[7, gy, gx]) * STRIDE
            cy = (gy + 0.5 + out[8, gy, gx]) * STRIDE
            size = float(np.exp(np.clip(out[9, gy, gx], -3, 4))) * STRIDE
            found.append((float(cx), float(cy), size, float(heat[gy, gx])))
        return found

    def find(
        self,
        pyramid: Pyramid,
        levels: list[int],
        tray: Polygon | None = None,
        min_heat: float | None = None,
    ) -> list[NetDie]:
        """The dice on each of ``levels`` (only those in the band it learnt, and only inside
        the tray) from its threshold (or ``min_heat``), in picture pixels, without face
        probabilities yet. (Training finds its phantoms so, on whole octaves: :meth:`search`
        is what the reader reads.)"""
        return _found_once(self.banded(pyramid, levels, tray, min_heat))

    def search(
        self,
        pyramid: Pyramid,
        die_box: float | None = None,
        tray: Polygon | None = None,
        min_heat: float | None = None,
    ) -> list[NetDie]:
        """The dice on the levels of ``pyramid`` where dice can be
        (:func:`vision.pyramid.search_levels`) and on those of its half-octave picture
        between them (:func:`vision.pyramid.half_octave`), as :meth:`find` finds them, in
        ``pyramid``'s picture pixels."""
        whole = self.banded(pyramid, search_levels(pyramid.shape, die_box), tray, min_heat)
        half = half_octave(pyramid)
        between = [
            replace(d, centre=half.to_source(d.centre), size=d.size / half.fx)
            for d in self.banded(
                half, search_levels(half.shape, die_box and die_box * half.fx), tray, min_heat
            )
        ]
        return _found_once(whole + between)

    def banded(
        self,
        pyramid: Pyramid,
        levels: list[int],
        tray: Polygon | None = None,
        min_heat: float | None = None,
    ) -> list[NetDie]:
        """:meth:`find`'s dice before those found twice are merged."""
        shape = pyramid.shape
        found = []
        for k in levels:
            img = pyramid.level(k)
            x0 = y0 = 0
            if tray is not None:
                # Some tray around the tray's edge, so the detector sees a die there whole.
                f = 0.5**k
                x0, y0, x1, y1 = (round(v * f) for v in bounds(tray, shape, BAND[1] / f))
                img = img[y0:y1, x0:x1]
                if min(img.shape[:2]) < STRIDE:
                    continue
            # Dice at the band's edges are found on the next level too; below the finest
            # level and above the coarsest there is no next level.
            low = BAND[0] * (0.6 if k == levels[0] else 0.75)
            high = BAND[1] * (np.inf if k == levels[-1] else 1.3)
            for cx, cy, size, heat in self.peaks(img, min_heat):
                if low <= size <= high:
                    found.append(
                        NetDie(_from_level((cx + x0, cy + y0), k), size * 2**k, heat, np.zeros(8))
                    )
        if tray is not None:
            found = [d for d in found if contains(tray, shape, d.centre)]
        # One die found twice (on two levels, or two peaks on one) is merged by the caller,
        # the stronger kept (_found_once). Finds of unlike sizes in one place (a die and its
        # pip, or a heap of dice and the dice in it) are all kept: the face classifier tells
        # which is a die (_classify).
        return found


class DieNet:
    """The two networks in ``models`` (the shipped ones, or e.g. a benchmark fold's), or its
    detector with the classifier ``faces`` instead (ONNX bytes: one adapted to a rig,
    :mod:`vision.adapt`)."""

    def __init__(
        self,
        models: Path | str = MODELS,
        min_heat: float | None = None,
        views: int = VIEWS,
        faces: bytes | None = None,
        not_a_die_from: float | None = None,
    ) -> None:
        models = Path(models)
        self.models = models
        # The classifier as trained reads from READ_FROM, keeping only what it reads surely
        # under SURE_ONLY_BELOW; an adapted one is seldom that sure, and reads from the
        # threshold its calibration chose from the rig's rolls (vision.adapt.pick_thresholds).
        self.adapted = faces is not None
        if min_heat is None:
            min_heat = MIN_HEAT if self.adapted else READ_FROM
        self.detector = Detector(models / "dice_net.onnx", min_heat)
        self.faces = _session(models / "dice_faces.onnx" if faces is None else faces)
        self.views = views
        # An adapted classifier is less sure that a phantom is not a die (NOT_A_DIE_FROM); a
        # calibration may say from how much for its rig (vision.adapt.pick_thresholds).
        default = NOT_A_DIE_FROM if faces is None else NOT_A_DIE_FROM_ADAPTED
        self.not_a_die_from = default if not_a_die_from is None else not_a_die_from

    def _classify(self, pyramid: Pyramid, dice: list[NetDie]) -> list[NetDie]:
        """Each die's face probabilities from its own crop, turned square
        (:mod:`vision.pose`) and cut from the level where it is still sharp
        (:func:`vision.pyramid.crop_level`); phantoms (:data:`NOT_A_DIE_FROM` or more on *not
        a die*, :data:`NOT_A_DIE_FROM_ADAPTED` for an adapted classifier) dropped. A die it is
        not clearly sure of gets a second look (:data:`SECOND_LOOK_BELOW`,
        :data:`SECOND_LOOK`), and one under :data:`SURE_ONLY_BELOW` is kept only when read
        surely after it."""
        scored = self.scored(pyramid, dice)
        kept = _without_heaps([d for d in scored if d.not_a_die < self.not_a_die_from])
        # Of finds that overlap, a die read surely over one that is not, and then the bigger:
        # a die lies inside no other die, so what is inside a die read surely is part of it
        # (its pips, which alone look like 1s), and a heap of dice taken for one big die is
        # mostly not read surely (and when it is, _without_heaps has dropped it); a side
        # face is smaller than the top face it belongs to.
        kept = _apart(kept, key=lambda d: (float(d.best_probability >= MIN_VALUE), d.size))
        kept.sort(key=lambda d: -d.heat)
        again = [i for i, d in enumerate(kept) if d.best_probability < SECOND_LOOK_BELOW]
        for i, d in zip(again, self._second_look(pyramid, [kept[i] for i in again]), strict=True):
            kept[i] = d
        # Under SURE_ONLY_BELOW only dice read surely, after every look (:meth:`_score_low`).
        return [d for d in kept if d.heat >= SURE_ONLY_BELOW or d.best_probability >= MIN_VALUE]

    def scored(self, pyramid: Pyramid, dice: list[NetDie]) -> list[NetDie]:
        """The finds ``dice`` the classifier looks at, scored, nothing dropped yet but the
        faint ones (under :data:`SURE_ONLY_BELOW`) it does not look at or keep
        (:meth:`_score_low`)."""
        scored = self.score(pyramid, [d for d in dice if d.heat >= SURE_ONLY_BELOW])
        return scored + self._score_low(
            pyramid, [d for d in dice if d.heat < SURE_ONLY_BELOW], scored
        )

    def _score_low(self, pyramid: Pyramid, low: list[NetDie], scored: list[NetDie]) -> list[NetDie]:
        """The finds ``low`` under :data:`SURE_ONLY_BELOW` scored, beside the finds over it
        already ``scored``. An adapted classifier scores them all (:meth:`_classify` keeps
        those it reads surely); the trained one only those that overlap no die it read surely
        and are about their size (:data:`FAINT_SIZE`), with one look each, and keeps those it
        reads at :data:`LOW_SURE` (:data:`READ_FROM`), or from :data:`MIN_VALUE` when it is
        all but sure they are dice (:data:`FAINT_NOT_A_DIE`) and they are coloured like a die
        read surely (:data:`FAINT_COLOUR`)."""
        if not low or self.adapted:
            return self.score(pyramid, low)
        sure = [
            d
            for d in scored
            if d.best_probability >= MIN_VALUE and d.not_a_die < self.not_a_die_from
        ]
        faces = [_face(d) for d in sure]
        free = [d for d in low if not any(_overlap(_face(d), face) for face in faces)]
        if len(sure) >= 2:
            size = float(np.median([d.size for d in sure]))
            free = [d for d in free if size / FAINT_SIZE <= d.size <= size * FAINT_SIZE]
        read = self._score(pyramid, free)
        maybe = [
            MIN_VALUE <= d.best_probability < LOW_SURE and d.not_a_die < FAINT_NOT_A_DIE
            for d in read
        ]
        # The dice's colours only when needed: most photos have no such faint find.
        colours = [_body(pyramid, d).tolist() for d in sure] if any(maybe) else []
        palette = {str(i): c for i, c in enumerate(colours)}
        return [
            d
            for d, m in zip(read, maybe, strict=True)
            if d.best_probability >= LOW_SURE
            or (m and palette and nearest_colour(_body(pyramid, d), palette)[1] < FAINT_COLOUR)
        ]

    def score(self, pyramid: Pyramid, dice: list[NetDie]) -> list[NetDie]:
        """``dice`` with their turn and the face classifier's probabilities, each moved to
        where the classifier says it lies (and cut and classified there again when that is
        more than :data:`LOOK_AGAIN` off, at the turn measured before unless it moved more
        than :data:`TURN_AGAIN`, and unless no look could make it a die:
        :meth:`_phantom_anyway`), nothing dropped yet."""
        scored = self._score(pyramid, dice)
        cut = list(dice)
        looks = [1] * len(dice)
        for round_ in range(LOOK_AGAIN_ROUNDS):
            last = round_ == LOOK_AGAIN_ROUNDS - 1
            again = [
                i
                for i, (c, d) in enumerate(zip(cut, scored, strict=True))
                if _moved(c, d) and not self._phantom_anyway(d, looks[i], last)
            ]
            turns = [
                None if _moved(cut[i], scored[i], TURN_AGAIN) else scored[i].angle for i in again
            ]
            looked = self._score(pyramid, [scored[i] for i in again], turns)
            for i, d in zip(again, looked, strict=True):
                # The looks' probabilities averaged: a die the first look doubted stays
                # doubted unless the next look is sure enough for both.
                p = (scored[i].probabilities * looks[i] + d.probabilities) / (looks[i] + 1)
                cut[i], scored[i] = scored[i], replace(d, probabilities=p)
                looks[i] += 1
        return scored

    def _phantom_anyway(self, d: NetDie, looks: int, last: bool) -> bool:
        """Whether ``d``, its probabilities the mean of ``looks`` looks, would be dropped as
        not a die whatever one more look said: its mean could then fall to ``looks`` /
        (``looks`` + 1) of what it is and no lower, so when that is still at the cut and no
        later look follows (``last``), the look would be spent on a phantom."""
        return last and looks * d.not_a_die >= (looks + 1) * self.not_a_die_from

    def _score(
        self, pyramid: Pyramid, dice: list[NetDie], turns: list[float | None] | None = None
    ) -> list[NetDie]:
        """``dice`` with their turn (from ``turns``, or where that is None measured by
        :func:`vision.pose.die_angle`) and the face classifier's probabilities for one crop
        each, moved to where it says each die lies (:func:`_placed`)."""
        if not dice:
            return []
        angles = [
            die_angle(pyramid.level(k), _to_level(d.centre, k), d.size * 0.5**k)
            if turn is None
            else turn
            for d, turn in zip(dice, turns or [None] * len(dice), strict=True)
            for k in [crop_level(d.size)]
        ]
        p, where = self._faces(
            np.stack(
                [_cut(pyramid, d.centre, d.size, a) for d, a in zip(dice, angles, strict=True)]
            )
        )
        return [
            _placed(NetDie(d.centre, d.size, d.heat, q, a), w)
            for d, q, a, w in zip(dice, p, angles, where, strict=True)
        ]

    def _second_look(self, pyramid: Pyramid, dice: list[NetDie]) -> list[NetDie]:
        """``dice`` with their probabilities averaged over their own crop and five more each:
        moved :data:`SECOND_LOOK` of its side left, right, up and down, and one
        :data:`SECOND_LOOK_ZOOM` of its size, each seen once and the five each turned
        another way (:data:`SECOND_LOOK_VIEWS`; all dice's crops in one run of the
        network)."""
        if not dice:
            return []
        crops = []
        for d in dice:
            shift = SECOND_LOOK * die_side(d.size, d.angle)
            crops += [
                _cut(pyramid, (d.centre[0] + dx * shift, d.centre[1] + dy * shift), d.size, d.angle)
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            ]
            crops.append(_cut(pyramid, d.centre, d.size * SECOND_LOOK_ZOOM, d.angle))
        five = np.stack(crops).reshape(len(dice), 5, FACE_CROP, FACE_CROP, 3)
        views = np.stack([_view(five[:, j], k) for j, k in enumerate(SECOND_LOOK_VIEWS)], axis=1)
        out = self._run(views.reshape(-1, FACE_CROP, FACE_CROP, 3))
        p = _softmax(out[:, :8]).reshape(len(dice), 5, 8).sum(axis=1)
        return [
            NetDie(d.centre, d.size, d.heat, (d.probabilities + q) / 6, d.angle)
            for d, q in zip(dice, p, strict=True)
        ]

    def _faces(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The face classifier's probabilities for each crop, and where its die lies in the
        crop (offset across and down in crop sides, log size: zeros from a classifier
        without where outputs), each averaged over its views."""
        views = np.concatenate([_view(crops, k) for k in range(self.views)])
        out = self._run(views).reshape(self.views, len(crops), -1)
        mean: np.ndarray = _softmax(out[:, :, :8]).mean(axis=0)
        if out.shape[2] == 8:
            return mean, np.zeros((len(crops), 3))
        where = np.mean([_unview(out[k, :, 8:11], k) for k in range(self.views)], axis=0)
        return mean, where

    def _run(self, views: np.ndarray) -> np.ndarray:
        """The face classifier's outputs (logits, then where outputs) for crops as given."""
        blob = views.transpose(0, 3, 1, 2).astype(np.float32, order="C") * np.float32(1 / 255)
        out: np.ndarray = self.faces.run(None, {"bgr": blob})[0]
        return out.astype(np.float64)

    def find(
        self,
        bgr: np.ndarray,
        die_px: float | None = None,
        tray: Polygon | None = None,
        count: int | None = None,
    ) -> list[NetDie]:
        """Every die on the picture, in picture pixels.

        The detector reads the levels of the picture's pyramid where its dice can be
        (:func:`vision.pyramid.search_levels`), and its half-octave picture's
        (:meth:`Detector.search`): all of them, or with a calibrated die side ``die_px``
        those where a die of half to twice that side is a size it knows. With a
        ``tray`` (a polygon, :mod:`vision.tray`) it reads only around the tray and keeps only
        the dice inside it. Told that ``count`` dice are in view and finding fewer, it looks
        harder for the rest (:data:`FILL_FROM`).
        """
        read = self.read(bgr, die_px, tray, count)
        if not read.stretch:
            return read.dice
        return [
            replace(
                d,
                centre=((x + 0.5) / read.fx - 0.5, (y + 0.5) / read.fy - 0.5),
                stretch=read.stretch,
            )
            for d in read.dice
            for x, y in [d.centre]
        ]

    def read(
        self,
        bgr: np.ndarray,
        die_px: float | None = None,
        tray: Polygon | None = None,
        count: int | None = None,
    ) -> Reading:
        """What :meth:`find` reads, in the pixels of the picture it read: ``bgr`` itself, or,
        when its dice look stretched (:mod:`vision.stretch`) and ``bgr`` unstretched has more
        dice read surely, that picture.

        The measure of a stretch is rough (near the truth on photos exported stretched, up
        to 2.3 times it on a sharp photo resized), and networks that learnt a rig's photos
        stretched read them best as they are; so both
        readings are made and the one with more dice read surely is kept (as photographed
        on a tie), which costs a second reading only on pictures that look stretched.
        """
        # A calibrated size is the die's side; the detector sizes a die by its upright box,
        # which for a square turned at random is on average 4/π of its side.
        box = die_px * 4 / np.pi if die_px else None
        as_is = self._read(Pyramid(bgr), box, tray)
        stretch = stretch_of(bgr, [(d.centre, d.size) for d in as_is.finds if d.heat >= SURE_HEAT])
        chosen = as_is
        if abs(stretch) >= MIN_STRETCH:
            # Every die on the picture is stretched alike: read it unstretched too (the same
            # area, so a calibrated size holds; the tray is in fractions of the picture).
            pyramid = Unstretched(as_is.pyramid, stretch)
            unstretched = replace(
                self._read(pyramid, box, tray), fx=pyramid.fx, fy=pyramid.fy, stretch=stretch
            )
            if unstretched.sureness > as_is.sureness:
                chosen = unstretched
        chosen = replace(chosen, dice=_without_small(chosen.dice))
        # A die the reader kept but could not read is in view; the camera reports it unsure.
        lacking = 0 if count is None else count - len(chosen.dice)
        return self._filled(chosen, lacking, box, tray) if lacking > 0 else chosen

    def _filled(
        self, read: Reading, lacking: int, box: float | None, tray: Polygon | None
    ) -> Reading:
        """``read`` with up to ``lacking`` more dice read surely (:data:`FILL_FROM`)."""
        pyramid = read.pyramid
        finds = self._finds(pyramid, box, tray, FILL_FROM)
        sure = [d.size for d in read.dice if d.best_probability >= MIN_VALUE]
        size = float(np.median(sure)) if sure else None
        faces = [_face(d) for d in read.dice]

        def free(d: NetDie) -> bool:
            # About the dice's size, and on no die kept (before the looks and where they
            # moved it).
            alike = size is None or size / FAINT_SIZE <= d.size <= size * FAINT_SIZE
            return alike and not any(_overlap(_face(d), face) for face in faces)

        # A find from SURE_ONLY_BELOW was looked at as every die is, and would read the same.
        faint = [d for d in finds if d.heat < SURE_ONLY_BELOW and free(d)]
        found = [
            d
            for d in self.score(pyramid, faint)
            if free(d)
            and d.not_a_die < FAINT_NOT_A_DIE
            and d.best_probability >= (LOW_SURE if d.best == 1 else MIN_VALUE)
        ]
        found = _apart(found, key=lambda d: (d.heat * d.best_probability,))[:lacking]
        return replace(read, dice=read.dice + found)

    def _read(self, pyramid: Pyramid, box: float | None, tray: Polygon | None) -> Reading:
        finds = self._finds(pyramid, box, tray)
        return Reading(pyramid, finds, self._classify(pyramid, finds))

    def _finds(
        self,
        pyramid: Pyramid,
        box: float | None,
        tray: Polygon | None,
        min_heat: float | None = None,
    ) -> list[NetDie]:
        """The detector's finds on the levels where dice can be, from its threshold (or
        ``min_heat``), each framed within :data:`SIZED_MOST` of a calibrated ``box``."""
        finds = self.detector.search(pyramid, box, tray, min_heat)
        if box:
            low, high = box / SIZED_MOST, box * SIZED_MOST
            finds = [replace(d, size=min(high, max(low, d.size))) for d in finds]
        return finds


@dataclass(frozen=True)
class Reading:
    """One reading of a picture by :class:`DieNet`: its pyramid, the detector's finds and the
    dice kept, in the pixels of the picture read, which is the photo scaled by (``fx``,
    ``fy``) to undo a stretch of e^``stretch`` across (1, 1, 0: the photo as it was)."""

    pyramid: Pyramid
    finds: list[NetDie]
    dice: list[NetDie]
    fx: float = 1.0
    fy: float = 1.0
    stretch: float = 0.0

    @property
    def sureness(self) -> tuple[int, float]:
        """How many dice it read surely, then their summed probability: which of two
        readings of one photo to believe."""
        sure = [d.best_probability for d in self.dice if d.best_probability >= MIN_VALUE]
        return len(sure), float(sum(sure))


def _without_heaps(dice: list[NetDie]) -> list[NetDie]:
    """``dice`` without heaps of dice taken for one die (:data:`HEAP_BELOW`), finds far
    bigger than the dice read surely (:data:`HEAP_SIZE`), and unsure finds far smaller
    (:data:`SPECK_SIZE`)."""
    sure = [d.size for d in dice if d.best_probability >= HEAP_BELOW and d.best != 1]
    typical = float(np.median(sure)) if len(sure) >= 2 else None
    most = math.inf if typical is None else HEAP_SIZE * typical
    least = 0.0 if typical is None else SPECK_SIZE * typical

    def heap(h: NetDie) -> bool:
        if h.best_probability >= HEAP_BELOW:
            return False
        if h.size > most:
            return True
        if h.best_probability < MIN_VALUE:
            return h.size < least  # a speck; an unsure find of a die's size stays
        inside = [
            d
            for d in dice
            if d is not h
            and d.best_probability >= MIN_VALUE
            and d.size < HEAP_PART * h.size
            and math.hypot(d.centre[0] - h.centre[0], d.centre[1] - h.centre[1]) < 0.5 * h.size
        ]
        return len(inside) >= 2 and any(d.best != 1 for d in inside)

    return [d for d in dice if not heap(d)]


def _without_small(dice: list[NetDie]) -> list[NetDie]:
    """``dice`` without the finds far smaller than the dice read surely
    (:data:`SMALL_SIDE`)."""
    sure = [
        die_side(d.size, d.angle) for d in dice if d.best_probability >= MIN_VALUE and d.best != 1
    ]
    if len(sure) < 2:
        return dice
    least = SMALL_SIDE * float(np.median(sure))
    return [d for d in dice if die_side(d.size, d.angle) >= least]


def _found_once(dice: list[NetDie]) -> list[NetDie]:
    """``dice`` without those found twice: a weaker find whose centre lies in the middle
    half of a stronger one's box, their sizes within a factor :data:`SAME_SIZE`.

    The pairs are compared in one numpy step and only finds that clash with a stronger one
    are walked in order: on ``pxl-tray``, read from :data:`READ_FROM`, a photo has a few
    hundred finds, and the loop over every pair took 4% of its reading."""
    order = sorted(dice, key=lambda d: d.heat, reverse=True)
    if len(order) < 2:
        return order
    centres = np.array([d.centre for d in order])
    sizes = np.array([d.size for d in order])
    apart = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    small = np.minimum(sizes[:, None], sizes[None, :])
    big = np.maximum(sizes[:, None], sizes[None, :])
    # clash[i, j]: find i is find j (stronger, j < i) found again.
    clash = np.tril((apart < 0.5 * small) & (big <= SAME_SIZE * small), -1)
    kept = np.ones(len(order), bool)
    for i in np.flatnonzero(clash.any(axis=1)):
        kept[i] = not (clash[i] & kept).any()
    return [d for d, k in zip(order, kept, strict=True) if k]


def _square(d: NetDie) -> np.ndarray:
    """The corners of ``d``'s top face: a square of its side, turned by its angle (the
    rotated box the reader reports as ``DieFound.rect``)."""
    side = die_side(d.size, d.angle)
    corners: np.ndarray = cv2.boxPoints((d.centre, (side, side), float(np.degrees(d.angle))))
    return corners


def _face(d: NetDie) -> tuple[np.ndarray, float]:
    """``d``'s top face (:func:`_square`) and its area."""
    return _square(d), die_side(d.size, d.angle) ** 2


def _overlap(a: tuple[np.ndarray, float], b: tuple[np.ndarray, float]) -> bool:
    """Whether two top faces (:func:`_face`) overlap by more than :data:`OVERLAP_MOST` of
    the smaller: one die and what lies on or beside it, never two dice."""
    return bool(cv2.intersectConvexConvex(a[0], b[0])[0] > OVERLAP_MOST * min(a[1], b[1]))


def _apart(dice: list[NetDie], key: Callable[[NetDie], tuple[float, ...]]) -> list[NetDie]:
    """``dice`` without those whose top face overlaps a better one's (by ``key``, best first
    kept) by more than :data:`OVERLAP_MOST` of the smaller face: dice lie side by side,
    never on top of each other."""
    kept: list[tuple[NetDie, tuple[np.ndarray, float]]] = []
    for d in sorted(dice, key=key, reverse=True):
        face = _face(d)
        if not any(_overlap(face, k) for _, k in kept):
            kept.append((d, face))
    return [d for d, _ in kept]


def _to_level(point: tuple[float, float], k: int) -> tuple[float, float]:
    """A picture point in pixels of level ``k`` (pixel centres at whole numbers)."""
    f = 0.5**k
    return ((point[0] + 0.5) * f - 0.5, (point[1] + 0.5) * f - 0.5)


def _from_level(point: tuple[float, float], k: int) -> tuple[float, float]:
    """A point in pixels of level ``k`` in picture pixels."""
    f = 2**k
    return ((point[0] + 0.5) * f - 0.5, (point[1] + 0.5) * f - 0.5)


def _view(crops: np.ndarray, k: int) -> np.ndarray:
    """View ``k`` of crops (N × side × side × 3): turned ``k`` % 4 quarters by ``np.rot90``,
    mirrored first from 4. A face is the same face in every view; the classifier's errors
    are not."""
    turned: np.ndarray = np.rot90(crops if k < 4 else crops[:, :, ::-1], k % 4, axes=(1, 2))
    return turned


def _softmax(logits: np.ndarray) -> np.ndarray:
    """Probabilities from logits along the last axis."""
    p = np.exp(logits - logits.max(axis=-1, keepdims=True))
    out: np.ndarray = p / p.sum(axis=-1, keepdims=True)
    return out


def _unview(where: np.ndarray, k: int) -> np.ndarray:
    """Where a die lies in view ``k`` of its crop (:meth:`DieNet._faces`: turned ``k`` % 4
    quarters by ``np.rot90``, mirrored first from 4) as where it lies in the crop itself.

    ``np.rot90`` takes the crop's pixel (x, y) to (y, side − 1 − x): in crop sides from the
    middle, (dx, dy) to (dy, −dx − 1/side), undone here one quarter at a time; mirroring takes
    dx to −dx − 1/side. The size is the same in every view."""
    out = np.array(where, dtype=np.float64, copy=True)
    for _ in range(k % 4):
        out[:, 0], out[:, 1] = -out[:, 1] - 1 / FACE_CROP, out[:, 0].copy()
    if k >= 4:
        out[:, 0] = -out[:, 0] - 1 / FACE_CROP
    return out


def _moved(before: NetDie, after: NetDie, by: float = LOOK_AGAIN) -> bool:
    """Whether ``after`` lies more than ``by`` off ``before``: its centre by that much of
    ``before``'s size, or its size by that much in log."""
    off = math.hypot(after.centre[0] - before.centre[0], after.centre[1] - before.centre[1])
    return bool(off > by * before.size or abs(np.log(after.size / before.size)) > by)


def _placed(die: NetDie, where: np.ndarray) -> NetDie:
    """``die`` moved and sized to where the classifier says it lies in its crop (offset in
    crop sides, log size; each kept within :data:`PLACE_MOST`), in picture pixels: the crop's
    point carried back through the map :func:`_cut` cut it with."""
    dx, dy, log_size = np.clip(where, -PLACE_MOST, PLACE_MOST)
    if not (dx or dy or log_size):
        return die
    k = crop_level(die.size)
    m = crop_matrix(_to_level(die.centre, k), die.size * 0.5**k, die.angle)
    x, y = cv2.invertAffineTransform(m) @ ((0.5 + dx) * FACE_CROP, (0.5 + dy) * FACE_CROP, 1.0)
    return replace(
        die, centre=_from_level((float(x), float(y)), k), size=die.size * float(np.exp(log_size))
    )


def _body(pyramid: Pyramid, d: NetDie) -> np.ndarray:
    """``d``'s body colour (:func:`vision.colour.die_colour`), cut from the level its face
    crop is cut from."""
    k = crop_level(d.size)
    side = die_side(d.size, d.angle) * 0.5**k
    return die_colour(
        pyramid.level(k), (_to_level(d.centre, k), (side, side), math.degrees(d.angle))
    )


def _cut(pyramid: Pyramid, centre: tuple[float, float], size: float, angle: float) -> np.ndarray:
    """The face classifier's crop of a die (:func:`vision.pose.face_crop`), cut from the
    coarsest level where the die is still :data:`vision.pyramid.CROP_SIDE` across."""
    k = crop_level(size)
    return face_crop(pyramid.level(k), _to_level(centre, k), size * 0.5**k, angle)
