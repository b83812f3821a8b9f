"""Why a held-out rig's dice are missed or left unsure: each one traced through the reader.

    .venv/bin/python benchmarks/vision_misses.py [--rigs single-grey] [--models DIR]
                                                 [--datasets DIR] [--json]

Leaving one rig out, about two dice in five are missed and one in five left unsure
(docs/vision.md, "Many rigs"). A fix needs to know *where* in the reader a die is lost, so
this follows every missed die through its steps (:class:`vision.net.DieNet`), on a fold's
cached networks (``build/vision-rigs/<rig>/``, trained on the other rigs), and says at which
step the last find inside the die's box went away:

- **found beside its box**: a phantom lies within :data:`BESIDE` label sides of the die: the
  die was found and reported, but with its centre outside its box, so scoring counts a
  miss and a phantom;
- **not found**: no cell of the detector's heat inside the box reaches the reader's
  threshold (``READ_FROM``) on any pyramid level read (its best heat there is recorded);
- **peak off the die**: heat in the box reaches the threshold but no peak's centre lands in
  the box (a neighbour's peak is higher, or the offset throws the centre out);
- **size out of band**: a peak in the box, but sized outside the band its level keeps;
- **merged across levels**: a find in the box, removed as the same die as a stronger find
  (on another level, or a neighbouring peak) whose centre lies outside the box;
- **not a die**: the face classifier dropped every find in the box as more likely not a die,
  or, under ``SURE_ONLY_BELOW``, did not read it at ``LOW_SURE`` nor from ``MIN_VALUE`` sure
  it is a die and coloured like one read surely (``FAINT_NOT_A_DIE``, ``FAINT_COLOUR``), or
  left it unread: a die read surely over it, or the dice's size far off, ``FAINT_SIZE``;
- **merged by size**: kept by the classifier, but removed by the rule that prefers a find
  read surely, then the bigger, among finds in one place;
- **smaller than the dice**: read, but its side is far under that of the dice read surely on
  the photo (``SMALL_SIDE``): taken for a pip, a speck or a side face;
- **taken by another label**: a find survives in the box but scoring paired it with another
  die (it lies in both boxes).

Unsure dice are broken down by how the classifier spread its probability: the true face
first but under ``MIN_VALUE``, another face first, or most of it on "no legal face" or "not a
die". Sizes are the label's upright box (the square root of its area); for the dice found it
also prints the detector's size over the label's, which frames the classifier's crop. It
reads the whole picture without a calibration, as the benchmark's first column does, and
takes about 15 seconds a rig here.

The staged reconstruction is checked against ``DieNet.find`` on every photo (the same finds),
so this script cannot drift from the reader without saying so; and
``tests/vision/test_vision_misses.py`` holds its counts to the benchmark's scoring of the
reader on the test photos of every rig.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.evaluation import match  # noqa: E402
from vision.net import (  # noqa: E402
    MIN_VALUE,
    NOT_A_DIE_FROM,
    READ_FROM,
    STRIDE,
    DieNet,
    NetDie,
    _found_once,
    _from_level,
    _without_small,
)
from vision.pyramid import BAND, Pyramid, Scaled, half_octave, search_levels  # noqa: E402
from vision.rigs import DATASETS, find_rigs  # noqa: E402

BUILD = ROOT / "build" / "vision-rigs"
MISS_STEPS = (
    "found beside its box",
    "not found",
    "peak off the die",
    "size out of band",
    "merged across levels",
    "not a die",
    "merged by size",
    "smaller than the dice",
    "taken by another label",
)
UNSURE_KINDS = ("true face first", "another face first", "no legal face", "not a die")
SIZE_BINS = (0, 12, 16, 20, 28, 40, 80, 160, 10_000)
# A phantom whose centre is within this many label sides of a missed die's centre is taken
# for that die found off its box (a neighbouring die is at least a side away, edge to edge).
BESIDE = 1.0


@dataclass
class Trace:
    """What happened to each labelled die of one rig."""

    labelled: int = 0
    right: int = 0
    wrong: int = 0
    missed: Counter[str] = field(default_factory=Counter)
    unsure: Counter[str] = field(default_factory=Counter)
    best_heat: list[float] = field(default_factory=list)  # of the dice never found
    sizes: dict[str, list[float]] = field(default_factory=dict)  # outcome: label sizes
    not_a_die_p: list[float] = field(default_factory=list)  # of dice dropped as not a die
    unsure_best: list[float] = field(default_factory=list)  # best face probability
    beside: list[float] = field(default_factory=list)  # how far off, in label sides
    oversize: list[tuple[float, float]] = field(default_factory=list)  # label side, find/label

    def size(self, outcome: str, side: float) -> None:
        self.sizes.setdefault(outcome, []).append(side)


def _inside(point: tuple[float, float], box: list[float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _heat_in_box(heats: list[tuple[float, float, np.ndarray]], box: list[float]) -> float:
    """The highest heat of any cell whose centre lies in ``box``, over the levels' ``heats``
    (:func:`_heats`)."""
    best = 0.0
    for fx, fy, heat in heats:
        # Cell (gx, gy) has its centre at ((gx + 0.5)·fx, (gy + 0.5)·fy), near enough.
        x0, y0 = int(np.ceil(box[0] / fx - 0.5)), int(np.ceil(box[1] / fy - 0.5))
        x1, y1 = int(np.floor(box[2] / fx - 0.5)) + 1, int(np.floor(box[3] / fy - 0.5)) + 1
        cells = heat[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]
        if cells.size:
            best = max(best, float(cells.max()))
    return best


def _into(x: float, y: float, fx: float, fy: float) -> tuple[float, float]:
    """A photo point in the pixels of the picture read, the photo scaled by (``fx``, ``fy``)
    (pixel centres at whole numbers, as ``DieNet.find`` maps them back)."""
    return ((x + 0.5) * fx - 0.5, (y + 0.5) * fy - 0.5)


def _pictures(pyramid: Pyramid) -> list[tuple[Pyramid, list[int], Scaled | None]]:
    """The pictures the detector searches (``Detector.search``), each with its levels: the
    picture's pyramid, and its half-octave picture (then also given as the :class:`Scaled`
    that carries its points back)."""
    half = half_octave(pyramid)
    return [(pyramid, search_levels(pyramid.shape), None), (half, search_levels(half.shape), half)]


def _heats(net: DieNet, pyramid: Pyramid) -> list[tuple[float, float, np.ndarray]]:
    """Each level's heat map, with the size of its cells across and down in the picture's
    pixels."""
    return [
        (cell / (s.fx if s else 1.0), cell / (s.fy if s else 1.0), heat)
        for p, levels, s in _pictures(pyramid)
        for k in levels
        for cell, heat in [(2**k * STRIDE, 1 / (1 + np.exp(-net.detector.maps(p.level(k))[0])))]
    ]


def _stages(net: DieNet, pyramid: Pyramid) -> dict[str, list[NetDie]]:
    """The finds after each step of ``DieNet.find`` (no tray, no calibration)."""
    peaks, banded = [], []
    for picture, levels, scaled in _pictures(pyramid):
        for k in levels:
            low = BAND[0] * (0.6 if k == levels[0] else 0.75)
            high = BAND[1] * (np.inf if k == levels[-1] else 1.3)
            for cx, cy, size, heat in net.detector.peaks(picture.level(k)):
                d = NetDie(_from_level((cx, cy), k), size * 2**k, heat, np.zeros(8))
                if scaled:  # carried back as Detector.search carries them
                    d = replace(d, centre=scaled.to_source(d.centre), size=d.size / scaled.fx)
                peaks.append(d)
                if low <= size <= high:
                    banded.append(d)
    merged = _found_once(banded)
    scored = net.scored(pyramid, merged)
    return {
        "peaks": peaks,
        "banded": banded,
        "merged": merged,
        "scored": scored,
        "kept": [d for d in scored if d.not_a_die < NOT_A_DIE_FROM],
        "classified": (classified := net._classify(pyramid, merged)),
        "final": _without_small(classified),
    }


def _beside(box: list[float], side: float, phantoms: list[NetDie]) -> tuple[float, NetDie] | None:
    """The nearest phantom within :data:`BESIDE` label sides of the box's centre, and how far
    off it is: the die itself, found with its centre just outside its box."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    near = [(float(np.hypot(d.centre[0] - cx, d.centre[1] - cy)) / side, d) for d in phantoms]
    near = [n for n in near if n[0] < BESIDE]
    return min(near, key=lambda n: n[0]) if near else None


def _miss_step(box: list[float], stages: dict[str, list[NetDie]], heat: float) -> str:
    """The step at which the last find in ``box`` went away (:data:`MISS_STEPS`)."""

    def any_in(name: str) -> bool:
        return any(_inside(d.centre, box) for d in stages[name])

    if not any_in("peaks"):
        return "not found" if heat < READ_FROM else "peak off the die"
    for step, stage in (
        ("size out of band", "banded"),
        ("merged across levels", "merged"),
        ("not a die", "kept"),
        ("merged by size", "classified"),
        ("smaller than the dice", "final"),
    ):
        if not any_in(stage):
            return step
    return "taken by another label"


def _unsure_kind(d: NetDie, true: int) -> str:
    p = d.probabilities
    if p[6] >= max(p[:6].max(), p[7]):
        return "not a die"
    if p[7] >= p[:6].max():
        return "no legal face"
    return "true face first" if d.best == true else "another face first"


def trace_rig(folder: Path, models: Path) -> Trace:
    """Every labelled die of the rig in ``folder`` followed through the reader."""
    net = DieNet(models)
    labels = json.loads((folder / "labels.json").read_text())
    trace = Trace()
    for name in sorted(labels):
        bgr = cv2.imread(str(folder / name))
        if bgr is None:
            raise FileNotFoundError(folder / name)
        # Traced on the picture the reader reads: unstretched when that read its dice better
        # (vision.stretch, DieNet.read), with the labels' boxes unstretched alike.
        read = net.read(bgr)
        pyramid, fx, fy = read.pyramid, read.fx, read.fy
        stages = _stages(net, pyramid)
        final = stages["final"]
        found = [d.centre for d in net.find(bgr)]
        reader_finds = [_into(x, y, fx, fy) for x, y in found]
        if len(reader_finds) != len(final) or not np.allclose(
            reader_finds, [d.centre for d in final], atol=1e-3
        ):
            raise RuntimeError(f"{name}: this trace no longer follows DieNet.find")
        # Scored as the benchmark scores, on the photo (an unstretched picture's distances
        # pair a die in two boxes otherwise); traced on the picture read, its boxes mapped as
        # its points are.
        taken, phantoms = match(found, [lb["box"] for lb in labels[name]])
        boxes = [
            [*_into(b[0], b[1], fx, fy), *_into(b[2], b[3], fx, fy)]
            for b in (lb["box"] for lb in labels[name])
        ]
        heats = _heats(net, pyramid) if len(taken) < len(boxes) else []
        for i, lb in enumerate(labels[name]):
            box = boxes[i]
            side = float(np.sqrt((box[2] - box[0]) * (box[3] - box[1])))
            trace.labelled += 1
            if i not in taken:
                heat = _heat_in_box(heats, box)
                near = _beside(box, side, [final[p] for p in phantoms])
                step = "found beside its box" if near else _miss_step(box, stages, heat)
                if near:
                    trace.beside.append(near[0])
                    phantoms = [p for p in phantoms if final[p] is not near[1]]
                trace.missed[step] += 1
                trace.size("missed", side)
                trace.size(f"missed: {step}", side)
                if step == "not found":
                    trace.best_heat.append(heat)
                if step == "not a die":
                    trace.not_a_die_p += [
                        d.not_a_die for d in stages["scored"] if _inside(d.centre, box)
                    ]
                continue
            d = final[taken[i]]
            trace.oversize.append((side, d.size / side))
            if d.best_probability < MIN_VALUE:
                trace.unsure[_unsure_kind(d, lb["value"])] += 1
                trace.unsure_best.append(d.best_probability)
                trace.size("unsure", side)
            elif d.best == lb["value"]:
                trace.right += 1
                trace.size("right", side)
            else:
                trace.wrong += 1
                trace.size("wrong", side)
    return trace


def _share(k: int, n: int) -> str:
    return f"{k:5d} ({100 * k / max(n, 1):5.1f}%)"


def _histogram(values: list[float], edges: tuple[float, ...]) -> str:
    counts, _ = np.histogram(values, bins=np.array(edges, float))
    return "  ".join(
        f"{lo:g}-{hi:g}: {c}" for lo, hi, c in zip(edges[:-1], edges[1:], counts, strict=True)
    )


def report(rig: str, t: Trace) -> str:
    """The breakdown, as printed."""
    n = t.labelled
    missed = sum(t.missed.values())
    unsure = sum(t.unsure.values())
    lines = [
        f"{rig}: {n} labelled dice; right {_share(t.right, n)}, wrong {_share(t.wrong, n)}, "
        f"unsure {_share(unsure, n)}, missed {_share(missed, n)}",
        f"missed, by the step that lost them (share of the {missed} missed):",
    ]
    lines += [f"  {step:24}{_share(t.missed[step], missed)}" for step in MISS_STEPS]
    if t.best_heat:
        lines.append(
            "  best heat in the box of dice not found: "
            + _histogram(t.best_heat, (0, 0.05, 0.1, 0.2, 0.3))
        )
    if t.not_a_die_p:
        lines.append(
            f"  'not a die' probability of the dropped finds: median "
            f"{np.median(t.not_a_die_p):.2f}, "
            + _histogram(t.not_a_die_p, (0.5, 0.6, 0.7, 0.8, 0.9, 1.0))
        )
    lines.append(f"unsure, by how the classifier spread its probability ({unsure}):")
    lines += [f"  {kind:24}{_share(t.unsure[kind], unsure)}" for kind in UNSURE_KINDS]
    if t.unsure_best:
        lines.append(
            "  best face probability: " + _histogram(t.unsure_best, (0, 0.2, 0.3, 0.4, 0.5))
        )
    if t.beside:
        lines.append(
            f"  found beside its box: centre off by a median {np.median(t.beside):.2f} label sides"
        )
    lines.append("the detector's size over the label's, found dice (median, by label size):")
    sides = np.array([o[0] for o in t.oversize])
    ratios = np.array([o[1] for o in t.oversize])
    for lo, hi in pairwise(SIZE_BINS):
        inside = (sides >= lo) & (sides < hi)
        if inside.any():
            lines.append(f"  {lo:g}-{hi:g} px: {np.median(ratios[inside]):.2f} ({inside.sum()})")
    lines.append("die sizes (label box, px):")
    for outcome in sorted(t.sizes):
        sizes = t.sizes[outcome]
        lines.append(
            f"  {outcome:32}{len(sizes):5d}  median {np.median(sizes):5.1f}  "
            + _histogram(sizes, SIZE_BINS)
        )
    return "\n".join(lines)


def as_json(t: Trace) -> dict[str, Any]:
    return {
        "labelled": t.labelled,
        "right": t.right,
        "wrong": t.wrong,
        "missed": dict(t.missed),
        "unsure": dict(t.unsure),
        "best_heat_not_found": [round(h, 3) for h in t.best_heat],
        "sizes": {k: [round(s, 1) for s in v] for k, v in t.sizes.items()},
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rigs", default="single-grey", help="comma-separated rigs held out")
    p.add_argument(
        "--models", type=Path, default=BUILD, help="one subfolder of networks per rig held out"
    )
    p.add_argument("--datasets", type=Path, default=DATASETS)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    cv2.setNumThreads(1)
    rigs = {r.name: r for r in find_rigs(args.datasets)}
    out = {}
    for name in args.rigs.split(","):
        models = args.models / name
        if not (models / "dice_net.onnx").exists():
            print(f"error: no fold for {name} in {models}", file=sys.stderr)
            return 2
        trained_on = json.loads((models / "dice_net.json").read_text())["trained_on"]
        if name in trained_on:
            print(f"error: {models} was trained on {name}", file=sys.stderr)
            return 2
        t = trace_rig(rigs[name].folder, models)
        out[name] = as_json(t)
        if not args.json:
            print(report(name, t))
            print()
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
