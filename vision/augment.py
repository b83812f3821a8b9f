"""The training recipe's settings: how crops are jittered (colour, light, camera quality),
how far off the face classifier's crops are placed, how many of them are drawn dice, and
how wide the face classifier is and on what grid its last layer sees the crop.

Kept apart from :mod:`vision.train` (which needs PyTorch) so that what a network was trained
with can be checked without it: :mod:`vision.train` records :func:`recipe` in
``dice_net.json``, and the benchmark retrains a fold network whose record differs.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np

from vision.pyramid import BAND


@dataclass(frozen=True)
class Jitter:
    """How far the colour and quality of training crops are pushed (probabilities and ranges)."""

    hue: float  # chance of turning the hue anywhere (and scaling saturation)
    swap: float  # chance of swapping the colour channels
    grey: float  # chance of dropping colour altogether
    negative: float  # chance of a negative
    gamma: tuple[float, float]
    contrast: tuple[float, float]
    brightness: float  # ± this much of full scale
    white_balance: float  # each channel's gain within 1 ± this
    blur: float  # chance of a Gaussian blur of sigma in ``blur_sigma`` pixels
    blur_sigma: tuple[float, float]
    noise: tuple[float, float]  # sensor noise sigma range, half of the crops
    jpeg: float  # chance of JPEG recompression at quality 40-95


# The detector only has to tell a die from the tray, so it gets everything: grey, negatives,
# heavy blur and JPEG. The face classifier must still see the pips after jittering: held out
# by session, the heavy set made it underfit (83% read right on fold 0 and 80% on fold 1
# against 88% and 85% with this lighter set), so it keeps colour changes that leave pips
# visible and drops those that can erase red pips on a dark die. Three of the five rigs are
# grey cameras, so both see grey crops of colour photos.
DETECTOR_JITTER = Jitter(
    hue=0.8,
    swap=0.3,
    grey=0.25,
    negative=0.1,
    gamma=(0.6, 1.6),
    contrast=(0.6, 1.3),
    brightness=0.2,
    white_balance=0.15,
    blur=0.3,
    blur_sigma=(0.4, 1.2),
    noise=(1, 8),
    jpeg=0.3,
)
FACE_JITTER = Jitter(
    hue=0.8,
    swap=0.3,
    grey=0.15,
    negative=0.0,
    gamma=(0.7, 1.4),
    contrast=(0.7, 1.2),
    brightness=0.15,
    white_balance=0.1,
    blur=0.2,
    blur_sigma=(0.3, 0.7),
    noise=(1, 5),
    jpeg=0.0,
)


def colour_jitter(img: np.ndarray, rng: np.random.Generator, j: Jitter) -> np.ndarray:
    """``img`` (BGR, uint8) with its colour and quality pushed at random as ``j`` allows."""
    if rng.random() < j.hue:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hue = ((np.arange(256) + rng.integers(0, 180)) % 180).astype(np.uint8)
        sat = np.clip(np.arange(256) * rng.uniform(0.5, 1.5), 0, 255).astype(np.uint8)
        ident = np.arange(256, dtype=np.uint8)
        hsv = cv2.LUT(hsv, np.stack([hue, sat, ident], axis=1).reshape(256, 1, 3))
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < j.swap:
        img = np.ascontiguousarray(img[:, :, rng.permutation(3)])
    if rng.random() < j.grey:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    # Gamma, contrast, brightness and a white-balance error, as one table per channel.
    x = np.arange(256, dtype=np.float32) / 255.0
    x = x ** rng.uniform(*j.gamma)
    x = (x - 0.5) * rng.uniform(*j.contrast) + 0.5 + rng.uniform(-j.brightness, j.brightness)
    if rng.random() < j.negative:
        x = 1.0 - x  # a negative: light pips on light dice, dice on a dark mat
    gains = rng.uniform(1 - j.white_balance, 1 + j.white_balance, size=3)
    lut = (
        np.stack([np.clip(x * g * 255, 0, 255) for g in gains], axis=1)
        .astype(np.uint8)
        .reshape(256, 1, 3)
    )
    out = cv2.LUT(img, lut)
    if rng.random() < j.blur:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(*j.blur_sigma))
    if rng.random() < 0.5:
        noise = np.empty(out.shape, np.int16)
        # A number given to cv2.randn is the scalar (σ, 0, 0, 0): the noise has always been
        # on the first (blue) channel only, and the shipped networks learnt it so.
        sigma = np.array([[rng.uniform(*j.noise)], [0.0], [0.0], [0.0]])
        cv2.randn(noise, np.zeros((4, 1)), sigma)
        out = cv2.add(out, noise, dtype=cv2.CV_8U)
    if rng.random() < j.jpeg:
        _ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR)
        assert decoded is not None  # it was encoded just above
        out = decoded
    return out


@dataclass(frozen=True)
class Placing:
    """How far off a training crop is cut, as the detector would place it: centre error
    (standard deviation, per axis, in die sizes), size error (standard deviation of its
    logarithm), and a turn error (standard deviation, radians) on top of the errors
    :func:`vision.pose.die_angle` itself makes on such crops."""

    centre: float
    size: float
    turn: float


# The detector's own errors on held-out sessions (1,486 dice): centre 0.041 die sizes per
# axis, log size 0.146 (5-95%: 0.79-1.27x). The face classifier's crops are placed as badly.
# die_angle is within 4.3° of a drawn die's true turn nine times in ten (median 1.1°); the
# extra 0.05 rad (3°) keeps the classifier from relying on perfectly square crops.
FACE_PLACING = Placing(centre=0.06, size=0.15, turn=0.05)
# The share of the face classifier's training crops that are drawn dice (vision.synthetic),
# and the share of those drawn with no legal face (blank, a smudge, an impossible layout).
# Held out (sixteenth session, two folds), 0.35 read 2-3 points fewer right, with fewer
# wrong and phantoms; 0.1 read -0.5 and +2.5, with more wrong on both.
FACE_DRAWN = 0.2
FACE_ILLEGAL = 0.15
# Training steps of each network (batches of 16 pictures for the detector, 128 crops for the
# face classifier).
DETECTOR_STEPS = 4000
FACE_STEPS = 6000
# The face classifier's channels at full, half and quarter resolution. On squared crops,
# 24-48-64 read 95.9% of held-out dice against 95.0% for 16-32-48, better on every fold,
# for 1.3 ms more a photo.
FACE_WIDTHS = (24, 48, 64)
# The face classifier's first convolution steps by FACE_FIRST_STRIDE. 1: at full resolution
# and then a 2x max pooling (the classifier shipped until 2026-11-24), where that layer, three
# channels in at 32x32, was 40% of the 8-bit classifier's time; 2: it steps by 2 with no
# pooling after it, 64 crops in 3.4 ms against 5.0. Held out (faces-only retrains of the
# five folds), 58.3% of dice read right pooled against 58.1%, 2.8% wrong against 3.4%.
FACE_FIRST_STRIDE = 2
# The face classifier's last layer sees its features as a FACE_GRID × FACE_GRID grid of
# places on the crop (means over overlapping windows) rather than one mean over the whole
# crop: a squared die's pips sit on a 3×3 grid, and where a pip is tells a 2 from a 3 as much
# as how many there are. 1 is the global mean the classifier had before. Held out, 3 read
# 97.8% of dice right against 97.2% (more on four folds, as many on the fifth) and was
# unsure of half as many (13 against 26), but read 19 wrong against 15.
FACE_GRID = 3
# The face classifier's outputs: eight classes (faces 1..6, "not a die", "no legal face") and
# then where the die lies in its crop: its centre's offset from the crop's middle across and
# down (in crop sides) and the log of its size over the size it was cut for. Held out, the
# detector places dice on a rig it never saw 0.10-0.24 label sides off per axis and sizes
# them with a log error of 0.25-0.28, three times what it does on the rigs it learnt; the
# reader moves each die to where the classifier says it is (vision.net._placed). 8 trains no
# where outputs (the classifier shipped until 2026-11-23). Held out, 11 with the move reads
# 2-4 points more right than 8 with FACE_MINED 0.1, but its surer second look read an emblem
# die and two patterns on the reader's own test photos as faces; with FACE_MINED 0.2 it keeps
# those three "no die here" promises and reads as many dice right as 8 did, with fewer wrong
# and fewer phantoms (docs/vision.md, "The face classifier says where the die is").
FACE_OUTPUTS = 11

# The detector's training pictures show a photo scaled so that its dice are from
# DETECTOR_SIZES[0] to [1] pixels across (log-uniform): inside the band it must find
# (vision.pyramid.BAND), and beyond it on both sides, where it must stay quiet: a die too big
# for the band is found on a coarser level, and its pips must not pass for small dice here.
# Up to 90 px, leaving box-gray out, the pips of its 150-250 px dice (pips of 25-40 px, as
# big as no training die's) were found as dice on the finer levels.
DETECTOR_SIZES = (5.0, 250.0)
# Dice this close to the band's edges (a factor of the edge) are neither taught as dice nor
# as background: the neighbouring level finds them.
BAND_MARGIN = 1.4
# Photos of all the rigs are stretched by up to this (standard deviation of the log of the
# aspect): two of the rigs were exported stretched to a square, and cameras at a slant
# foreshorten dice.
STRETCH = 0.12
# The share of the face classifier's crops shrunk to a smaller die than photographed (down to
# SMALL_DIE pixels across) before they are cut, as dice far from the camera are.
# Held out (seventeenth session, two folds), 0.6 read 0.6 points fewer right on
# roboflow-public and as many on single-grey.
FACE_SHRINK = 0.3
SMALL_DIE = 10.0
# The share of the face classifier's crops that are the detector's own phantoms on the
# training photos (what it took for a die where no die is labelled): "not a die". 0.2 with the
# where outputs, held out against 0.1 with them: 2.3 points fewer read right, 3.2 fewer
# phantom dice, 0.5 fewer wrong, 2.4 more missed (small dice in loose crops taken for "not a
# die"); against 0.1 without them (shipped before), as many right, fewer of all the rest
# but the missed. 0.15 (sixteenth session, two folds): 1.3-1.5 points more right, 0.2-0.6
# more wrong, 0.6-1.3 more phantoms: the same trade.
FACE_MINED = 0.2
# The share of the detector's training pictures that are drawn scenes (vision.scenes: drawn
# dice on drawn tables) rather than photos, and of the face classifier's crops that are a
# drawn table (vision.backgrounds) and "not a die". Half the drawn dice the classifier sees
# lie on a drawn table, the other half on a patch of a training photo.
DETECTOR_DRAWN = 0.2
FACE_TABLES = 0.05
# How many scenes, dice and tables are drawn when training starts, to be used again and again
# (each use turned, cut and jittered anew): each scene is used about a dozen times, each die
# about twenty.
DRAWN_SCENES = 1000
DRAWN_DICE = 8000
DRAWN_TABLES = 300


def recipe() -> dict[str, Any]:
    """Every setting above, as ``dice_net.json`` records it (JSON types): a network whose
    record differs was trained by another recipe. The detector's threshold is in it too: the
    face classifier learns the detector's phantoms above it as "not a die". So is how the
    trained networks are made 8-bit (:mod:`vision.quantize`)."""
    from vision.net import MIN_HEAT  # the runtime's threshold; vision.net does not import this
    from vision.quantize import settings as int8

    settings: dict[str, Any] = json.loads(
        json.dumps(
            {
                "min_heat": MIN_HEAT,
                "detector_jitter": asdict(DETECTOR_JITTER),
                "face_jitter": asdict(FACE_JITTER),
                "face_placing": asdict(FACE_PLACING),
                "face_drawn": FACE_DRAWN,
                "face_illegal": FACE_ILLEGAL,
                "face_widths": FACE_WIDTHS,
                "face_first_stride": FACE_FIRST_STRIDE,
                "face_grid": FACE_GRID,
                "face_outputs": FACE_OUTPUTS,
                "band": BAND,
                "detector_sizes": DETECTOR_SIZES,
                "band_margin": BAND_MARGIN,
                "stretch": STRETCH,
                "face_shrink": FACE_SHRINK,
                "small_die": SMALL_DIE,
                "face_mined": FACE_MINED,
                "detector_drawn": DETECTOR_DRAWN,
                "face_tables": FACE_TABLES,
                "drawn_scenes": DRAWN_SCENES,
                "drawn_dice": DRAWN_DICE,
                "drawn_tables": DRAWN_TABLES,
                "int8": int8(),
            }
        )
    )
    return settings
