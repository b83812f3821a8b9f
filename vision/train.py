"""Training the die networks (:mod:`vision.net`) from labelled rigs.

    python -m vision.train RIG... [--out vision/] [--steps N] [--face-steps N] [--seed S]

Each RIG is a folder of photos with a ``labels.json`` (:mod:`vision.rigs`); the networks learn
from all of them, each rig drawn as often as any other however many photos it has. Needs
PyTorch (CPU is enough), which is a *training* dependency only: the companion runs the
exported ONNX files through ONNX Runtime. Everything is seeded, so the same rigs, steps and
PyTorch version rebuild the same weights.

The detector is a small fully convolutional net at stride 8 (CenterNet-style): for every 8×8
cell it says whether a die's centre is there (heat), which face is up (six logits), where in
the cell the centre lies and how big the die is. It is taught to find dice of the sizes in
:data:`vision.pyramid.BAND` only, and to stay quiet on bigger ones (their pips included) and
smaller ones: the reader runs it on every level of an image pyramid, so each die is found on
the level where it has a size the detector knows. What it must learn is kept to what a die
*is*, not what these rigs look like, by augmenting every crop:

- any rotation and mirror (a face's value does not change under either); the face
  classifier's crops are turned square to the die first (:mod:`vision.pose`), as at run
  time, and then by any quarter turn and maybe mirrored;
- any die size (the band and beyond it), and a stretch (cameras at a slant, photos exported
  to a square);
- any hue (a die of a colour not in the set is the same die), saturation, brightness,
  contrast, gamma, swapped colour channels and grey;
- for the detector also sometimes a negative (dark mats, light pips on light dice), heavy
  blur and JPEG recompression; the face classifier gets a lighter set
  (:data:`FACE_JITTER`), since those can erase the very pips it must count;
- blur and sensor noise.

The face classifier's crops are cut as the reader cuts them (from the pyramid level where
the die is still sharp), some shrunk to dice far smaller than photographed. A fifth of them
are drawn dice (:mod:`vision.synthetic`): every legal layout in any colours and shapes, and
some with no legal face, its eighth class. Its "not a die" class learns from crops off the
dice of every rig and from the detector's own phantoms on the training photos. The settings
live in :mod:`vision.augment` and are recorded in ``dice_net.json``. Both networks are
then made 8-bit (:mod:`vision.quantize`), which is what the reader runs; the float ones stay
in ``float/`` beside them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

try:
    import torch
    import torch.nn.functional as F
    from torch import nn
except ImportError:  # pragma: no cover - the runtime never imports this module
    sys.exit("vision.train needs PyTorch for training: pip install torch (CPU build is enough)")

from vision.augment import (
    BAND_MARGIN,
    DETECTOR_DRAWN,
    DETECTOR_JITTER,
    DETECTOR_SIZES,
    DETECTOR_STEPS,
    DRAWN_DICE,
    DRAWN_SCENES,
    DRAWN_TABLES,
    FACE_DRAWN,
    FACE_FIRST_STRIDE,
    FACE_GRID,
    FACE_ILLEGAL,
    FACE_JITTER,
    FACE_MINED,
    FACE_OUTPUTS,
    FACE_PLACING,
    FACE_SHRINK,
    FACE_STEPS,
    FACE_TABLES,
    FACE_WIDTHS,
    SMALL_DIE,
    STRETCH,
    colour_jitter,
    recipe,
)
from vision.backgrounds import background
from vision.net import Detector
from vision.pose import FACE_CROP, crop_matrix, die_angle, face_crop
from vision.pyramid import BAND, Pyramid, crop_level, search_levels
from vision.quantize import float_networks, quantize
from vision.rigs import Rig, rig_sizes
from vision.scenes import scene
from vision.synthetic import drawn_die

STRIDE = 8
Net = TypeVar("Net", bound=nn.Module)  # what _fit trains is what it returns
CROP = 256  # training crops: several dice and their surroundings, cheap to push through
DETECTOR_WIDTH = 32  # channels of the detector's 1/8-scale layers
OUTPUTS = 10  # heat, six value logits, x and y offset in the cell, log of the die size


def _cbr(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class DieNet(nn.Module):
    """Three stride-2 convolutions down to 1/8 scale, then three dilated ones (receptive field
    about 63 px, a whole large die), then a 1×1 head with :data:`OUTPUTS` maps."""

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _cbr(3, 8, 2),
            _cbr(8, 16, 2),
            _cbr(16, 24, 2),
            _cbr(24, width),
            _cbr(width, width, dilation=2),
            _cbr(width, width, dilation=4),
        )
        self.head = nn.Conv2d(width, OUTPUTS, 1)
        # Start with "no die anywhere" (CenterNet's prior): keeps the early focal loss sane.
        bias = self.head.bias
        assert bias is not None  # Conv2d has one unless told bias=False
        nn.init.constant_(bias, 0.0)
        with torch.no_grad():
            bias[0] = -2.19

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.body(x))
        return out


NOT_A_DIE = 6  # the classifier's seventh class; the eighth is synthetic.NO_FACE


class FaceNet(nn.Module):
    """Face classifier on one die's crop: faces 1..6, "not a die" (a phantom) and "a die
    with no legal face" (blank, smudged, cocked).

    Two 3×3 convolutions down to quarter resolution (the first steps by 2, the second is
    pooled 2×: :data:`FACE_FIRST_STRIDE`), two more there (8×8 for the 32-px crop), then
    the means over a :data:`FACE_GRID` × :data:`FACE_GRID` grid of overlapping windows
    (each window 10 − 2·grid cells, 2 apart, so grid is 1 to 4: for 3, 4×4 windows centred
    where a squared die's pip rows and columns fall), and a layer that weighs each place
    apart. Its :data:`FACE_OUTPUTS` are the eight classes' logits and then where the die
    lies in the crop (:func:`face_sample`)."""

    def __init__(self, grid: int = FACE_GRID) -> None:
        super().__init__()
        a, b, c = FACE_WIDTHS
        # Down to half resolution: in the first convolution's steps, or pooling after it.
        first = [_cbr(3, a, 2)] if FACE_FIRST_STRIDE == 2 else [_cbr(3, a), nn.MaxPool2d(2)]
        self.body = nn.Sequential(
            *first,
            _cbr(a, b),
            nn.MaxPool2d(2),
            _cbr(b, c),
            _cbr(c, c),
            nn.AvgPool2d(10 - 2 * grid, stride=2),
        )
        self.head = nn.Conv2d(c, FACE_OUTPUTS, grid)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.body(x)).flatten(1)
        return out


# --- data ---------------------------------------------------------------------------------


class Photos:
    """The labelled photos of some rigs in memory: BGR images, per image an array of
    (cx, cy, size, value), and which photos each rig has (a rig is drawn as often as any
    other, however many photos it has: what is learnt is dice, not the biggest rig)."""

    def __init__(self, rigs: Sequence[Rig]) -> None:
        self.rigs = list(rigs)
        self.images: list[np.ndarray] = []
        self.dice: list[np.ndarray] = []
        self.by_rig: list[list[int]] = []
        for rig in self.rigs:
            labels = rig.labels()
            mine = []
            for name in sorted(labels):
                img = cv2.imread(str(rig.folder / name))
                if img is None:
                    raise FileNotFoundError(f"cannot read {rig.folder / name}")
                rows = [
                    (
                        (b[0] + b[2]) / 2,
                        (b[1] + b[3]) / 2,
                        math.sqrt(max(1, (b[2] - b[0]) * (b[3] - b[1]))),
                        d["value"],
                    )
                    for d in labels[name]
                    for b in [d["box"]]
                ]
                mine.append(len(self.images))
                self.images.append(img)
                self.dice.append(np.array(rows, np.float32).reshape(-1, 4))
            if not mine:
                raise ValueError(f"{rig.folder}: no labelled photos")
            self.by_rig.append(mine)
        # Each photo's typical die (its median; a photo without dice takes its rig's).
        self.typical = np.zeros(len(self.images), np.float32)
        for mine in self.by_rig:
            sizes = np.concatenate([self.dice[i][:, 2] for i in mine])
            fallback = float(np.median(sizes)) if len(sizes) else 40.0
            for i in mine:
                d = self.dice[i]
                self.typical[i] = float(np.median(d[:, 2])) if len(d) else fallback

    def pick(self, rng: np.random.Generator, with_dice: bool = False) -> int:
        """A photo: a rig at random, then one of its photos (one with dice if asked)."""
        while True:
            mine = self.by_rig[int(rng.integers(len(self.by_rig)))]
            i = mine[int(rng.integers(len(mine)))]
            if not with_dice or len(self.dice[i]):
                return i


class Patch:
    """Part of a picture around a point, scaled (``INTER_AREA`` when shrinking, as the
    pyramid does), with the map from picture pixels to the patch's pixels."""

    def __init__(
        self,
        img: np.ndarray,
        centre: tuple[float, float],
        radius: float,
        fx: float,
        fy: float,
        border: tuple[int, ...] | None = None,
    ) -> None:
        h, w = img.shape[:2]
        x0, y0 = math.floor(centre[0] - radius), math.floor(centre[1] - radius)
        x1, y1 = math.ceil(centre[0] + radius) + 1, math.ceil(centre[1] + radius) + 1
        # The part inside the picture is scaled; what lies outside is padded on afterwards
        # (scaling a mostly padded region would cost more than the crop is worth).
        cx0, cy0 = min(w - 1, max(0, x0)), min(h - 1, max(0, y0))
        cx1, cy1 = max(cx0 + 1, min(w, x1)), max(cy0 + 1, min(h, y1))
        region = img[cy0:cy1, cx0:cx1]
        rh, rw = region.shape[:2]
        size = (max(1, round(rw * fx)), max(1, round(rh * fy)))
        shrink = size[0] * size[1] < rw * rh
        scaled = cv2.resize(
            region, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
        )
        self.fx, self.fy = size[0] / rw, size[1] / rh
        pads = [
            max(0, round((cy0 - y0) * self.fy)),
            max(0, round((y1 - cy1) * self.fy)),
            max(0, round((cx0 - x0) * self.fx)),
            max(0, round((x1 - cx1) * self.fx)),
        ]
        if any(pads):
            top, bottom, left, right = pads
            scaled = (
                cv2.copyMakeBorder(scaled, top, bottom, left, right, cv2.BORDER_REPLICATE)
                if border is None
                else cv2.copyMakeBorder(
                    scaled, top, bottom, left, right, cv2.BORDER_CONSTANT, value=border
                )
            )
        self.picture = scaled
        # Picture point (x, y) is at ((x - cx0 + 0.5)·fx - 0.5 + left pad, ...) in the patch.
        self.x0, self.y0 = cx0 - pads[2] / self.fx, cy0 - pads[0] / self.fy

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A picture point in the patch's pixels (pixel centres at whole numbers)."""
        return (x - self.x0 + 0.5) * self.fx - 0.5, (y - self.y0 + 0.5) * self.fy - 0.5

    @property
    def scale(self) -> float:
        """How much a die's size changes (the geometric mean of the two axes)."""
        return math.sqrt(self.fx * self.fy)


def _stretch(rng: np.random.Generator, scale: float) -> tuple[float, float]:
    s = math.exp(rng.normal(0, STRETCH))
    return scale * s, scale / s


def _target(rng: np.random.Generator) -> float:
    """A die size for a training picture (:data:`DETECTOR_SIZES`, log-uniform)."""
    return math.exp(rng.uniform(math.log(DETECTOR_SIZES[0]), math.log(DETECTOR_SIZES[1])))


class Drawings:
    """Drawn scenes, dice and tables, drawn once when training starts and used many times
    (drawing one costs as much as a training step; each use is turned, cut and jittered
    anew, so no two uses look alike)."""

    def __init__(
        self,
        photos: Photos,
        rng: np.random.Generator,
        scenes: int = 0,
        dice: int = 0,
        tables: int = 0,
    ) -> None:
        self.scenes = [scene(rng, CROP, _target(rng)) for _ in range(scenes)]
        self.dice = [_drawn(photos, rng) for _ in range(dice)]
        self.tables = [background(rng, 4 * FACE_CROP) for _ in range(tables)]

    def scene(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """A drawn scene turned by a random quarter and maybe mirrored, and its dice."""
        picture, dice = self.scenes[int(rng.integers(len(self.scenes)))]
        dice = dice.copy()
        last = picture.shape[0] - 1
        for _ in range(int(rng.integers(4))):  # np.rot90: (x, y) goes to (y, last - x)
            picture = np.rot90(picture)
            dice[:, 0], dice[:, 1] = dice[:, 1], last - dice[:, 0].copy()
        if rng.random() < 0.5:
            picture = picture[:, ::-1]
            dice[:, 0] = last - dice[:, 0]
        return np.ascontiguousarray(picture), dice


def sample(
    photos: Photos, rng: np.random.Generator, drawings: Drawings | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """One augmented training crop and its dice (cx, cy, size, value, whole) in crop pixels:
    a photo scaled so its dice have a random size, or (:data:`DETECTOR_DRAWN` of the time) a
    drawn scene (:func:`vision.scenes.scene`)."""
    target = _target(rng)
    if drawings and drawings.scenes and rng.random() < DETECTOR_DRAWN:
        picture, dice = drawings.scene(rng)
        return colour_jitter(picture, rng, DETECTOR_JITTER), dice
    i = photos.pick(rng)
    img, dice = photos.images[i], photos.dice[i]
    h, w = img.shape[:2]
    fx, fy = _stretch(rng, target / float(photos.typical[i]))
    angle = rng.uniform(0, 360)
    if len(dice) and rng.random() < 0.8:
        cx, cy = dice[int(rng.integers(len(dice))), :2] + rng.normal(0, CROP / 6, 2) / (fx, fy)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    border = tuple(int(v) for v in img[int(rng.integers(h)), int(rng.integers(w))])
    # Wide enough that the crop, turned any way, is inside the patch.
    patch = Patch(img, (float(cx), float(cy)), 0.75 * CROP / min(fx, fy), fx, fy, border)
    px, py = patch.point(cx, cy)
    m = cv2.getRotationMatrix2D((px, py), angle, 1.0)
    m[:, 2] += np.array([CROP / 2 - px, CROP / 2 - py])
    if rng.random() < 0.5:  # mirror
        m[0] = -m[0]
        m[0, 2] += CROP
    crop = cv2.warpAffine(
        patch.picture,
        m,
        (CROP, CROP),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=border,
    )
    crop = colour_jitter(crop, rng, DETECTOR_JITTER)
    out = np.zeros((len(dice), 5), np.float32)
    if len(dice):
        at = np.array([patch.point(x, y) for x, y in dice[:, :2]], np.float32)
        pts = np.hstack([at, np.ones((len(dice), 1), np.float32)]) @ m.T
        out[:, :2] = pts
        out[:, 2] = dice[:, 2] * patch.scale
        out[:, 3] = dice[:, 3]
        half = out[:, 2] / 2
        out[:, 4] = (
            (pts[:, 0] - half >= 0)
            & (pts[:, 1] - half >= 0)
            & (pts[:, 0] + half < CROP)
            & (pts[:, 1] + half < CROP)
        )
        inside = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < CROP) & (pts[:, 1] < CROP)
        out = out[inside]
    return crop, out


def targets(dice: np.ndarray, side: int) -> dict[str, np.ndarray]:
    """Maps at stride 8 for one crop: heat (a Gaussian per die centre of the band's sizes),
    and for the cells near each such centre its value, sub-cell offset and log size (nearest
    die wins); ``weight`` is 0 around dice just outside the band, which are taught neither as
    dice nor as background (the next level finds them)."""
    g = side // STRIDE
    heat = np.zeros((g, g), np.float32)
    weight = np.ones((g, g), np.float32)
    value = np.full((g, g), -1, np.int64)
    reg = np.zeros((3, g, g), np.float32)
    reg_mask = np.zeros((g, g), np.float32)
    best = np.full((g, g), np.inf, np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for cx, cy, size, val, whole in dice:
        gx, gy = cx / STRIDE - 0.5, cy / STRIDE - 0.5  # in cell-centre coordinates
        d2 = (xs - gx) ** 2 + (ys - gy) ** 2
        if not BAND[0] <= size <= BAND[1]:
            if BAND[0] / BAND_MARGIN <= size <= BAND[1] * BAND_MARGIN:
                weight[d2 <= max(1.0, (size / STRIDE / 2) ** 2)] = 0.0
            continue
        sigma = max(0.6, size / STRIDE / 4)
        heat = np.maximum(heat, np.exp(-d2 / (2 * sigma * sigma)))
        ix, iy = int(np.rint(gx)), int(np.rint(gy))
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
        near = (d2 <= max(1.0, (size / STRIDE / 4) ** 2)) & (d2 < best)
        best[near] = d2[near]
        value[near] = int(val) - 1 if whole else -1
        reg[0][near] = gx - xs[near]
        reg[1][near] = gy - ys[near]
        reg[2][near] = math.log(size / STRIDE)
        reg_mask[near] = 1.0
    return {"heat": heat, "weight": weight, "value": value, "reg": reg, "reg_mask": reg_mask}


def batch(
    photos: Photos, rng: np.random.Generator, n: int, drawings: Drawings | None = None
) -> dict[str, torch.Tensor]:
    crops, maps = [], []
    for _ in range(n):
        crop, dice = sample(photos, rng, drawings)
        crops.append(crop)
        maps.append(targets(dice, CROP))
    x = torch.from_numpy(np.stack(crops)).permute(0, 3, 1, 2).float() / 255.0
    out = {"x": x}
    for k in maps[0]:
        out[k] = torch.from_numpy(np.stack([m[k] for m in maps]))
    return out


Phantom = tuple[int, float, float, float]  # photo, centre x and y, size


def mine_phantoms(photos: Photos, detector: Path) -> list[Phantom]:
    """What the trained detector takes for a die on the training photos where no die is
    labelled (tray rims, carpets, shadows, pips of big dice): the face classifier learns
    them as "not a die". Read as the reader reads (every pyramid level)."""
    det = Detector(detector)
    out = []
    for i, img in enumerate(photos.images):
        dice = photos.dice[i]
        for d in det.find(Pyramid(img), search_levels(img.shape)):
            x, y = d.centre
            if len(dice) and (np.hypot(dice[:, 0] - x, dice[:, 1] - y) < 0.5 * dice[:, 2]).any():
                continue
            out.append((i, x, y, d.size))
    return out


def _drawn(
    photos: Photos, rng: np.random.Generator
) -> tuple[np.ndarray, tuple[float, float], float, int]:
    """A drawn die on a patch of a training photo or on a drawn table: picture, centre,
    size, label."""
    if rng.random() < 0.5:
        patch = background(rng, 2 * FACE_CROP)
    else:
        img = photos.images[photos.pick(rng)]
        h, w = img.shape[:2]
        side = min(h, w, int(rng.integers(48, 160)))
        x, y = int(rng.integers(0, w - side + 1)), int(rng.integers(0, h - side + 1))
        patch = img[y : y + side, x : x + side]
    drawn = drawn_die(rng, patch, 2 * FACE_CROP, FACE_ILLEGAL)
    return drawn.picture, drawn.centre, drawn.box, drawn.label


def _table(
    table: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, tuple[float, float], float, int]:
    """A place on a drawn table with no die on it: picture, the place, a die's size there,
    and :data:`NOT_A_DIE`."""
    side = table.shape[0]
    size = math.exp(rng.uniform(math.log(SMALL_DIE), math.log(side / 2)))
    x, y = (float(v) for v in rng.uniform(size, side - size, 2))
    return table, (x, y), size, NOT_A_DIE


def face_sample(
    photos: Photos,
    rng: np.random.Generator,
    phantoms: Sequence[Phantom] = (),
    drawings: Drawings | None = None,
) -> tuple[np.ndarray, int, np.ndarray]:
    """One augmented classifier crop, its label and where its die lies in it, cut as
    :mod:`vision.net` cuts them (from the pyramid level where the die is still sharp, turned
    square by :func:`die_angle`, then any quarter turn and maybe mirrored): a drawn die
    (:data:`FACE_DRAWN` of the time), a drawn table (:data:`FACE_TABLES`) or one of the
    detector's phantoms (:data:`FACE_MINED`), both labelled :data:`NOT_A_DIE`, or from a photo
    a die (label 0..5) or, one time in five, not a die (background, a die's edge or a gap
    between dice).

    Where is the die's centre in the crop, from the crop's middle, across and down in crop
    sides, and the log of the die's size over the size the crop was cut for: what the reader
    needs to move a die the detector placed a little off (:func:`vision.net._placed`). It is
    NaN for a crop of no die (nothing to learn there)."""
    r = rng.random()
    dice = np.empty((0, 4), np.float32)
    placed = True
    true: tuple[float, float, float] | None = None  # the die's centre and size, if a die
    if r < FACE_DRAWN:
        img, (cx, cy), size, label = (
            drawings.dice[int(rng.integers(len(drawings.dice)))]
            if drawings and drawings.dice
            else _drawn(photos, rng)
        )
        if label != NOT_A_DIE:
            true = (cx, cy, size)
    elif r < FACE_DRAWN + FACE_TABLES:
        table = (
            drawings.tables[int(rng.integers(len(drawings.tables)))]
            if drawings and drawings.tables
            else background(rng, 4 * FACE_CROP)
        )
        img, (cx, cy), size, label = _table(table, rng)
    elif r < FACE_DRAWN + FACE_TABLES + FACE_MINED and phantoms:
        i, cx, cy, size = phantoms[int(rng.integers(len(phantoms)))]
        img, label, placed = photos.images[i], NOT_A_DIE, False
    else:
        i = photos.pick(rng, with_dice=True)
        img, dice = photos.images[i], photos.dice[i]
        cx, cy, size, value = (float(v) for v in dice[int(rng.integers(len(dice)))])
        label = int(value) - 1
        true = (cx, cy, size)
    if placed:  # where the detector puts a die is a little off, and its size too
        cx += rng.normal(0, FACE_PLACING.centre * size)
        cy += rng.normal(0, FACE_PLACING.centre * size)
        size *= math.exp(rng.normal(0, FACE_PLACING.size))
    if len(dice) and rng.random() < 0.2:
        h, w = img.shape[:2]
        label = NOT_A_DIE
        if rng.random() < 0.5:  # off the die by at least half a die
            a = rng.uniform(0, 2 * math.pi)
            r = size * rng.uniform(0.55, 1.5)
            cx, cy = cx + r * math.cos(a), cy + r * math.sin(a)
        else:  # anywhere, unless that is on a die
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        d = np.hypot(dice[:, 0] - cx, dice[:, 1] - cy)
        true = None
        if (d < 0.45 * dice[:, 2]).any():
            tx, ty, tsize, value = (float(v) for v in dice[int(np.argmin(d))])
            label, true = int(value) - 1, (tx, ty, tsize)
    # Cut from the level the reader would cut it from; some dice shrunk further first.
    scale = 0.5 ** crop_level(size)
    if rng.random() < FACE_SHRINK and size * scale > SMALL_DIE:
        scale *= math.exp(rng.uniform(math.log(SMALL_DIE), math.log(size * scale))) / (size * scale)
    patch = Patch(img, (cx, cy), 1.5 * size, *_stretch(rng, scale))
    at, s = patch.point(cx, cy), size * patch.scale
    angle = die_angle(patch.picture, at, s)
    turn = rng.integers(4) * math.pi / 2 + rng.normal(0, FACE_PLACING.turn)
    # Turned by a whole quarter more, a die is framed the same (the frame is square).
    crop = face_crop(patch.picture, at, s, angle, turn=turn)
    where = np.full(3, np.nan, np.float32)
    if true is not None:
        u, v = crop_matrix(at, s, angle, turn=turn) @ (*patch.point(true[0], true[1]), 1.0)
        where[:] = (u / FACE_CROP - 0.5, v / FACE_CROP - 0.5, math.log(true[2] / size))
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[:, ::-1])
        where[0] = -where[0] - 1 / FACE_CROP  # pixel u is pixel FACE_CROP - 1 - u mirrored
    return colour_jitter(crop, rng, FACE_JITTER), label, where


def train_faces(
    rigs: Sequence[Rig],
    steps: int = FACE_STEPS,
    seed: int = 0,
    batch_size: int = 128,
    log: bool = True,
    detector: Path | None = None,
) -> FaceNet:
    """Train the face classifier from scratch; deterministic for a given seed. With a
    trained ``detector`` (its ONNX file), its phantoms on the photos are learnt as "not a
    die"."""
    _seed_everything(seed)
    rng = np.random.default_rng(seed + 1)
    photos = Photos(rigs)
    phantoms = mine_phantoms(photos, detector) if detector else []
    if log and detector:
        print(
            f"faces: {len(phantoms)} phantoms of the detector on {len(photos.images)} "
            "training photos",
            file=sys.stderr,
            flush=True,
        )
    drawings = Drawings(
        photos,
        rng,
        dice=min(DRAWN_DICE, steps * batch_size),
        tables=min(DRAWN_TABLES, steps * batch_size),
    )

    def step_loss() -> torch.Tensor:
        crops, labels, where = zip(
            *(face_sample(photos, rng, phantoms, drawings) for _ in range(batch_size)), strict=True
        )
        x = torch.from_numpy(np.stack(crops)).permute(0, 3, 1, 2).float() / 255.0
        return face_loss(net(x), torch.tensor(labels), torch.from_numpy(np.stack(where)))

    net = FaceNet()
    return _fit(net, step_loss, steps, "faces" if log else None)


def face_loss(out: torch.Tensor, labels: torch.Tensor, where: torch.Tensor) -> torch.Tensor:
    """The classes' cross-entropy, plus a smooth L1 loss on where the die is, over the crops
    of a die (``where`` is NaN on the others). Its β of 0.05 (a twentieth of a crop, or 5% of
    size) keeps the few crops cut far off a die from pulling the small offsets most have."""
    loss = F.cross_entropy(out[:, :8], labels, label_smoothing=0.05)
    if out.shape[1] > 8:
        known = ~where.isnan().any(dim=1)
        if known.any():
            loss = loss + F.smooth_l1_loss(out[known, 8:], where[known], beta=0.05)
    return loss


def _fit(net: Net, step_loss: Callable[[], torch.Tensor], steps: int, name: str | None) -> Net:
    """The one training loop: AdamW with a one-cycle schedule, a loss per step from
    ``step_loss``, progress on stderr under ``name`` (None: quiet)."""
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    net.train()
    t0 = time.time()
    running = 0.0
    for step in range(steps):
        ls = step_loss()
        opt.zero_grad()
        torch.autograd.backward(ls)
        opt.step()
        sched.step()
        running = 0.98 * running + 0.02 * ls.item() if step else ls.item()
        if name and (step % 200 == 0 or step == steps - 1):
            print(
                f"{name} {step:>5}/{steps}  loss {running:.3f}  {time.time() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    net.eval()
    return net


# --- loss and training ----------------------------------------------------------------------


def loss(pred: torch.Tensor, t: dict[str, torch.Tensor]) -> torch.Tensor:
    heat = torch.sigmoid(pred[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = t["heat"].eq(1).float()
    n_pos = pos.sum().clamp(min=1)
    # CenterNet's focal loss: cells near a centre are penalised less for saying "die"; cells
    # near a die just outside the band (weight 0) not at all.
    focal = (
        -(
            pos * (1 - heat) ** 2 * torch.log(heat)
            + (1 - pos) * t["weight"] * (1 - t["heat"]) ** 4 * heat**2 * torch.log(1 - heat)
        ).sum()
        / n_pos
    )
    logits = pred[:, 1:7].permute(0, 2, 3, 1).reshape(-1, 6)
    labels = t["value"].reshape(-1)
    value = F.cross_entropy(logits, labels, ignore_index=-1, reduction="sum") / labels.ge(
        0
    ).sum().clamp(min=1)
    m = t["reg_mask"].unsqueeze(1)
    reg = F.smooth_l1_loss(
        pred[:, 7:10] * m, t["reg"] * m, reduction="sum", beta=0.1
    ) / m.sum().clamp(min=1)
    return focal + value + reg


def _seed_everything(seed: int) -> None:
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    cv2.setRNGSeed(seed)  # cv2.randn (sensor noise) draws from OpenCV's own generator


def train(
    rigs: Sequence[Rig],
    steps: int = DETECTOR_STEPS,
    seed: int = 0,
    batch_size: int = 16,
    log: bool = True,
    width: int = DETECTOR_WIDTH,
) -> DieNet:
    """Train the detector from scratch on ``rigs``; deterministic for a given seed."""
    _seed_everything(seed)
    rng = np.random.default_rng(seed)
    photos = Photos(rigs)
    drawings = Drawings(photos, rng, scenes=min(DRAWN_SCENES, steps * batch_size))

    def step_loss() -> torch.Tensor:
        b = batch(photos, rng, batch_size, drawings)
        return loss(net(b["x"]), b)

    net = DieNet(width)
    return _fit(net, step_loss, steps, "step" if log else None)


def export(net: nn.Module, path: Path, side: int) -> None:
    """Write one network as the ONNX file the reader runs (:mod:`vision.net`)."""
    torch.onnx.export(
        net,
        (torch.zeros(1, 3, side, side),),
        str(path),
        dynamo=False,
        input_names=["bgr"],
        output_names=["out"],
        opset_version=13,
        dynamic_axes={"bgr": {0: "n", 2: "h", 3: "w"}},
    )


def build(
    rigs: Sequence[Rig],
    out: Path,
    steps: int = DETECTOR_STEPS,
    face_steps: int = FACE_STEPS,
    seed: int = 0,
    only: str | None = None,
    width: int = DETECTOR_WIDTH,
) -> None:
    """Train both networks on ``rigs`` and write them, with what they saw, into ``out``
    (``only`` = "detector" or "faces" retrains one and keeps the other file): the float
    networks into ``out/float`` and the 8-bit ones the reader runs (:mod:`vision.quantize`)
    into ``out``. The face classifier is trained after the detector, on its phantoms too."""
    out = Path(out)
    floats = float_networks(out)
    if only in (None, "detector"):
        export(train(rigs, steps=steps, seed=seed, width=width), floats / "dice_net.onnx", 640)
    if only in (None, "faces"):
        export(
            train_faces(rigs, steps=face_steps, seed=seed, detector=floats / "dice_net.onnx"),
            floats / "dice_faces.onnx",
            FACE_CROP,
        )
    meta = {
        "trained_on": rig_sizes(rigs),
        "steps": steps,
        "face_steps": face_steps,
        "seed": seed,
        "torch": torch.__version__,
        **recipe(),
    }
    (out / "dice_net.json").write_text(json.dumps(meta, indent=1) + "\n")
    quantize(out, list(rigs), seed=seed)  # what the reader runs: the networks in 8 bits


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "rigs", type=Path, nargs="+", help="folders of photos with a labels.json, one per rig"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).parent,
        help="folder for dice_net.onnx, dice_faces.onnx, dice_net.json",
    )
    p.add_argument("--steps", type=int, default=DETECTOR_STEPS, help="detector training steps")
    p.add_argument("--face-steps", type=int, default=FACE_STEPS, help="classifier training steps")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--only", choices=["detector", "faces"], help="retrain one network only")
    p.add_argument(
        "--width",
        type=int,
        default=DETECTOR_WIDTH,
        help="channels of the detector's 1/8-scale layers",
    )
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rigs = [Rig(Path(r)) for r in args.rigs]
    build(rigs, args.out, args.steps, args.face_steps, args.seed, args.only, args.width)
    print(
        f"wrote {args.out}/dice_net.onnx and dice_faces.onnx (8-bit; float ones in "
        f"{args.out}/float), trained on "
        + ", ".join(f"{n} ({k} photos)" for n, k in rig_sizes(rigs).items()),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
