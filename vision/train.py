"""Training the die network (:mod:`vision.net`) from a labelled folder of photos.

    python -m vision.train DATASET [--out vision/] [--names FILE] [--steps N] [--face-steps N]

Needs PyTorch (CPU is enough), which is a *training* dependency only: the companion runs the
exported ONNX files through ONNX Runtime. Everything is seeded, so the same data, steps
and PyTorch version rebuild the same weights.

The network is a small fully convolutional net at stride 8 (CenterNet-style): for every 8×8 cell
it says whether a die's centre is there (heat), which face is up (six logits), where in the
cell the centre lies and how big the die is. What it must learn is kept to what a die *is*,
not what this data set looks like, by augmenting every crop:

- any rotation and mirror (a face's value does not change under either); the face
  classifier's crops are turned square to the die first (:mod:`vision.pose`), as at run
  time, and then by any quarter turn and maybe mirrored;
- die sizes from about 0.6× to 1.6× those photographed (other cameras, other heights);
- any hue (a die of a colour not in the set is the same die), saturation, brightness,
  contrast, gamma and swapped colour channels;
- for the detector also grey, sometimes a negative (dark mats, light pips on light dice),
  heavy blur and JPEG recompression; the face classifier gets a lighter set
  (:data:`FACE_JITTER`), since those can erase the very pips it must count;
- blur and sensor noise.

A fifth of the face classifier's crops are drawn dice (:mod:`vision.synthetic`): every legal
layout in any colours and shapes, and some with no legal face, its eighth class. The
settings live in :mod:`vision.augment` and are recorded in ``dice_net.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

try:
    import torch
    import torch.nn.functional as F
    from torch import nn
except ImportError:  # pragma: no cover - the runtime never imports this module
    sys.exit("vision.train needs PyTorch for training: pip install torch (CPU build is enough)")

from vision.augment import (
    DETECTOR_JITTER,
    DETECTOR_STEPS,
    FACE_DRAWN,
    FACE_GRID,
    FACE_ILLEGAL,
    FACE_JITTER,
    FACE_PLACING,
    FACE_STEPS,
    FACE_WIDTHS,
    colour_jitter,
    recipe,
)
from vision.evaluation import load_labels
from vision.pose import FACE_CROP, die_angle, face_crop
from vision.synthetic import drawn_die

STRIDE = 8
CROP = 256  # training crops: several dice and their surroundings, cheap to push through
DETECTOR_WIDTH = 32  # channels of the detector's 1/8-scale layers
OUTPUTS = 10  # heat, six value logits, x and y offset in the cell, log of the die size


def _cbr(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class DieNet(nn.Module):
    """Three stride-2 convolutions down to 1/8 scale, then three dilated ones (receptive field
    about 63 px, a whole large die), then a 1×1 head with :data:`OUTPUTS` maps."""

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _cbr(3, 8, 2), _cbr(8, 16, 2), _cbr(16, 24, 2),
            _cbr(24, width), _cbr(width, width, dilation=2), _cbr(width, width, dilation=4))
        self.head = nn.Conv2d(width, OUTPUTS, 1)
        # Start with "no die anywhere" (CenterNet's prior): keeps the early focal loss sane.
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -2.19

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


NOT_A_DIE = 6  # the classifier's seventh class; the eighth is synthetic.NO_FACE


class FaceNet(nn.Module):
    """Face classifier on one die's crop: faces 1..6, "not a die" (a phantom) and "a die
    with no legal face" (blank, smudged, cocked).

    Two 3×3 convolutions with 2× pooling, two more at quarter resolution (8×8 for the 32-px
    crop), then the means over a :data:`FACE_GRID` × :data:`FACE_GRID` grid of overlapping
    windows (each window 10 − 2·grid cells, 2 apart, so grid is 1 to 4: for 3, 4×4 windows
    centred where a squared die's pip rows and columns fall), and a layer that weighs each
    place apart."""

    def __init__(self, grid: int = FACE_GRID) -> None:
        super().__init__()
        a, b, c = FACE_WIDTHS
        self.body = nn.Sequential(
            _cbr(3, a), nn.MaxPool2d(2), _cbr(a, b), nn.MaxPool2d(2),
            _cbr(b, c), _cbr(c, c), nn.AvgPool2d(10 - 2 * grid, stride=2))
        self.head = nn.Conv2d(c, 8, grid)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x)).flatten(1)


# --- data ---------------------------------------------------------------------------------

class Photos:
    """The labelled photos in memory: BGR images and per image an array of (cx, cy, size, value)."""

    def __init__(self, folder: Path, names: list[str]) -> None:
        labels = load_labels(folder)
        self.images = []
        self.dice = []
        for name in names:
            img = cv2.imread(str(Path(folder) / name))
            if img is None:
                raise FileNotFoundError(f"cannot read {folder / name}")
            self.images.append(img)
            rows = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2,
                     math.sqrt(max(1, (b[2] - b[0]) * (b[3] - b[1]))), d["value"])
                    for d in labels[name] for b in [d["box"]]]
            self.dice.append(np.array(rows, np.float32).reshape(-1, 4))


def sample(photos: Photos, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One augmented training crop and its dice (cx, cy, size, value, whole) in crop pixels."""
    i = int(rng.integers(len(photos.images)))
    img, dice = photos.images[i], photos.dice[i]
    h, w = img.shape[:2]
    scale = math.exp(rng.uniform(math.log(0.6), math.log(1.6)))
    angle = rng.uniform(0, 360)
    if len(dice) and rng.random() < 0.8:
        cx, cy = dice[int(rng.integers(len(dice))), :2] + rng.normal(0, 40, 2)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, scale)
    m[:, 2] += (CROP / 2 - cx, CROP / 2 - cy)
    if rng.random() < 0.5:  # mirror
        m[0] = -m[0]
        m[0, 2] += CROP
    border = tuple(int(v) for v in img[int(rng.integers(h)), int(rng.integers(w))])
    crop = cv2.warpAffine(img, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    crop = colour_jitter(crop, rng, DETECTOR_JITTER)
    out = np.zeros((len(dice), 5), np.float32)
    if len(dice):
        pts = np.hstack([dice[:, :2], np.ones((len(dice), 1), np.float32)]) @ m.T
        out[:, :2] = pts
        out[:, 2] = dice[:, 2] * scale
        out[:, 3] = dice[:, 3]
        half = out[:, 2] / 2
        out[:, 4] = ((pts[:, 0] - half >= 0) & (pts[:, 1] - half >= 0)
                     & (pts[:, 0] + half < CROP) & (pts[:, 1] + half < CROP))
        inside = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < CROP) & (pts[:, 1] < CROP)
        out = out[inside]
    return crop, out


def targets(dice: np.ndarray, side: int) -> dict[str, np.ndarray]:
    """Maps at stride 8 for one crop: heat (a Gaussian per die centre), and for the cells near
    each centre its value, sub-cell offset and log size (nearest die wins)."""
    g = side // STRIDE
    heat = np.zeros((g, g), np.float32)
    value = np.full((g, g), -1, np.int64)
    reg = np.zeros((3, g, g), np.float32)
    reg_mask = np.zeros((g, g), np.float32)
    best = np.full((g, g), np.inf, np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for cx, cy, size, val, whole in dice:
        gx, gy = cx / STRIDE - 0.5, cy / STRIDE - 0.5  # in cell-centre coordinates
        sigma = max(0.6, size / STRIDE / 4)
        d2 = (xs - gx) ** 2 + (ys - gy) ** 2
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
    return {"heat": heat, "value": value, "reg": reg, "reg_mask": reg_mask}


def batch(photos: Photos, rng: np.random.Generator, n: int) -> dict[str, torch.Tensor]:
    crops, maps = [], []
    for _ in range(n):
        crop, dice = sample(photos, rng)
        crops.append(crop)
        maps.append(targets(dice, CROP))
    x = torch.from_numpy(np.stack(crops)).permute(0, 3, 1, 2).float() / 255.0
    out = {"x": x}
    for k in maps[0]:
        out[k] = torch.from_numpy(np.stack([m[k] for m in maps]))
    return out


def face_sample(photos: Photos, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """One augmented classifier crop, cut as :mod:`vision.net` cuts them (turned square by
    :func:`die_angle`, then any quarter turn and maybe mirrored): a drawn die
    (:data:`FACE_DRAWN` of the time), or from a photo a die (label 0..5) or, one time in
    five, not a die (background, a die's edge or a gap between dice: label
    :data:`NOT_A_DIE`)."""
    img = photos.images[int(rng.integers(len(photos.images)))]
    if rng.random() < FACE_DRAWN:
        h, w = img.shape[:2]
        side = int(2 * float(np.median(np.concatenate(photos.dice)[:, 2])) * rng.uniform(0.7, 1.4))
        x, y = int(rng.integers(0, w - side)), int(rng.integers(0, h - side))
        drawn = drawn_die(rng, img[y:y + side, x:x + side], 2 * FACE_CROP, FACE_ILLEGAL)
        img, (cx, cy), size, label = drawn.picture, drawn.centre, drawn.box, drawn.label
        dice = np.empty((0, 4), np.float32)
    else:
        while True:
            i = int(rng.integers(len(photos.images)))
            if len(photos.dice[i]):
                break
        img, dice = photos.images[i], photos.dice[i]
        cx, cy, size, value = dice[int(rng.integers(len(dice)))]
        label = int(value) - 1
    # Where the detector puts a die is a little off, and its size too.
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
        if (d < 0.45 * dice[:, 2]).any():
            label = int(dice[int(np.argmin(d)), 3]) - 1
    angle = die_angle(img, (cx, cy), size)
    turn = rng.integers(4) * math.pi / 2 + rng.normal(0, FACE_PLACING.turn)
    # Turned by a whole quarter more, a die is framed the same (the frame is square).
    crop = face_crop(img, (cx, cy), size, angle, turn=turn)
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[:, ::-1])
    return colour_jitter(crop, rng, FACE_JITTER), label


def train_faces(folder: Path, names: list[str], steps: int = FACE_STEPS, seed: int = 0,
                batch_size: int = 128, log: bool = True) -> FaceNet:
    """Train the face classifier from scratch; deterministic for a given seed."""
    _seed_everything(seed)
    rng = np.random.default_rng(seed + 1)
    photos = Photos(folder, names)

    def step_loss() -> torch.Tensor:
        crops, labels = zip(*(face_sample(photos, rng) for _ in range(batch_size)), strict=True)
        x = torch.from_numpy(np.stack(crops)).permute(0, 3, 1, 2).float() / 255.0
        return F.cross_entropy(net(x), torch.tensor(labels), label_smoothing=0.05)

    net = FaceNet()
    return _fit(net, step_loss, steps, "faces" if log else None)


def _fit(net: nn.Module, step_loss: Callable[[], torch.Tensor], steps: int,
         name: str | None) -> nn.Module:
    """The one training loop: AdamW with a one-cycle schedule, a loss per step from
    ``step_loss``, progress on stderr under ``name`` (None: quiet)."""
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps,
                                                pct_start=0.1)
    net.train()
    t0 = time.time()
    running = 0.0
    for step in range(steps):
        ls = step_loss()
        opt.zero_grad()
        ls.backward()
        opt.step()
        sched.step()
        running = 0.98 * running + 0.02 * ls.item() if step else ls.item()
        if name and (step % 200 == 0 or step == steps - 1):
            print(f"{name} {step:>5}/{steps}  loss {running:.3f}  {time.time() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    net.eval()
    return net


# --- loss and training ----------------------------------------------------------------------

def loss(pred: torch.Tensor, t: dict[str, torch.Tensor]) -> torch.Tensor:
    heat = torch.sigmoid(pred[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = t["heat"].eq(1).float()
    n_pos = pos.sum().clamp(min=1)
    # CenterNet's focal loss: cells near a centre are penalised less for saying "die".
    focal = -(pos * (1 - heat) ** 2 * torch.log(heat)
              + (1 - pos) * (1 - t["heat"]) ** 4 * heat ** 2 * torch.log(1 - heat)).sum() / n_pos
    logits = pred[:, 1:7].permute(0, 2, 3, 1).reshape(-1, 6)
    labels = t["value"].reshape(-1)
    value = (F.cross_entropy(logits, labels, ignore_index=-1, reduction="sum")
             / labels.ge(0).sum().clamp(min=1))
    m = t["reg_mask"].unsqueeze(1)
    reg = (F.smooth_l1_loss(pred[:, 7:10] * m, t["reg"] * m, reduction="sum", beta=0.1)
           / m.sum().clamp(min=1))
    return focal + value + reg


def _seed_everything(seed: int) -> None:
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    cv2.setRNGSeed(seed)  # cv2.randn (sensor noise) draws from OpenCV's own generator


def train(folder: Path, names: list[str], steps: int = DETECTOR_STEPS, seed: int = 0,
          batch_size: int = 16, log: bool = True, width: int = 32) -> DieNet:
    """Train from scratch on ``names`` (photos of ``folder``); deterministic for a given seed."""
    _seed_everything(seed)
    rng = np.random.default_rng(seed)
    photos = Photos(folder, names)

    def step_loss() -> torch.Tensor:
        b = batch(photos, rng, batch_size)
        return loss(net(b["x"]), b)

    net = DieNet(width)
    return _fit(net, step_loss, steps, "step" if log else None)


def export(net: nn.Module, path: Path, side: int) -> None:
    """Write one network as the ONNX file the reader runs (:mod:`vision.net`)."""
    torch.onnx.export(net, torch.zeros(1, 3, side, side), str(path), dynamo=False,
                      input_names=["bgr"], output_names=["out"], opset_version=13,
                      dynamic_axes={"bgr": {0: "n", 2: "h", 3: "w"}})


def build(dataset: Path, names: list[str], out: Path, steps: int = DETECTOR_STEPS,
          face_steps: int = FACE_STEPS, seed: int = 0, only: str | None = None,
          width: int = DETECTOR_WIDTH) -> None:
    """Train both networks on ``names`` and write them, with what they saw, into ``out``
    (``only`` = "detector" or "faces" retrains one and keeps the other file)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if only in (None, "detector"):
        export(train(dataset, names, steps=steps, seed=seed, width=width),
               out / "dice_net.onnx", 640)
    if only in (None, "faces"):
        export(train_faces(dataset, names, steps=face_steps, seed=seed),
               out / "dice_faces.onnx", FACE_CROP)
    meta = {"trained_on": sorted(names), "steps": steps, "face_steps": face_steps,
            "seed": seed, "torch": torch.__version__, **recipe()}
    (out / "dice_net.json").write_text(json.dumps(meta, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset", type=Path)
    p.add_argument("--out", type=Path, default=Path(__file__).parent,
                   help="folder for dice_net.onnx, dice_faces.onnx, dice_net.json")
    p.add_argument("--names", type=Path, help="train only on the photos listed (one a line)")
    p.add_argument("--steps", type=int, default=DETECTOR_STEPS, help="detector training steps")
    p.add_argument("--face-steps", type=int, default=FACE_STEPS,
                   help="classifier training steps")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--only", choices=["detector", "faces"], help="retrain one network only")
    p.add_argument("--width", type=int, default=DETECTOR_WIDTH,
                   help="channels of the detector's 1/8-scale layers")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    names = (args.names.read_text().split() if args.names
             else sorted(load_labels(args.dataset)))
    build(args.dataset, names, args.out, args.steps, args.face_steps, args.seed, args.only,
          args.width)
    print(f"wrote {args.out}/dice_net.onnx and dice_faces.onnx, trained on "
          f"{len(names)} photos", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
