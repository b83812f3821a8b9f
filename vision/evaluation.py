"""Scoring the reader against labelled photos, the way the data set defines a hit.

A labelled die is found when a predicted die's centre falls inside its box (each prediction
and each label used once, nearest centre first). Predictions that find no die are phantoms.
Rates come with Wilson 95% intervals, which stay honest near 0% and 100%.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.reader import DieFound
from vision.rigs import Rig

UNSURE = 0  # confusion-matrix column for "found, but read as unsure"
MISSED = 7  # confusion-matrix column for "not found at all"
# Dice are counted by size too (the longer side of the label's box, pixels), since size is
# what most decides whether a die can be read at all: these are the upper edges of the
# bands, the last band open. Columns of ``Score.by_size``: right, wrong, unsure, missed.
SIZE_EDGES = (16, 24, 32, 48, 64, 96, 128, 192)
OUTCOMES = ("right", "wrong", "unsure", "missed")


def size_band(box: Sequence[float]) -> int:
    """The band of :data:`SIZE_EDGES` a labelled box falls in (by its longer side)."""
    return bisect_right(SIZE_EDGES, max(box[2] - box[0], box[3] - box[1]))


def band_name(band: int) -> str:
    """A band of :data:`SIZE_EDGES` in words: "under 16 px", "16-24 px", "192 px and more"."""
    if band == 0:
        return f"under {SIZE_EDGES[0]} px"
    if band == len(SIZE_EDGES):
        return f"{SIZE_EDGES[-1]} px and more"
    return f"{SIZE_EDGES[band - 1]}-{SIZE_EDGES[band]} px"


def load_labels(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """``labels.json`` of a folder in the format of ``datasets/dice-photos``, checked."""
    return Rig(Path(folder)).labels()


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95% interval for k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def match(
    predicted: Sequence[tuple[float, float]], boxes: Sequence[Sequence[float]]
) -> tuple[dict[int, int], list[int]]:
    """Pair predictions with labelled boxes: {label: prediction} and the unmatched predictions."""
    pairs = []
    for p, (x, y) in enumerate(predicted):
        for lbl, (x0, y0, x1, y1) in enumerate(boxes):
            if x0 <= x <= x1 and y0 <= y <= y1:
                pairs.append((math.hypot(x - (x0 + x1) / 2, y - (y0 + y1) / 2), lbl, p))
    taken: dict[int, int] = {}
    used: set[int] = set()
    for _, lbl, p in sorted(pairs):
        if lbl not in taken and p not in used:
            taken[lbl] = p
            used.add(p)
    return taken, [p for p in range(len(predicted)) if p not in used]


@dataclass(frozen=True)
class Mistake:
    """One labelled die not read right, or one phantom: a die to look at by eye (a misread,
    or a label that is wrong)."""

    name: str  # the photo
    box: tuple[int, int, int, int]  # the label's box, or the phantom's, in pixels
    kind: str  # "wrong", "unsure", "missed" or "phantom"
    true: int | None  # the label's value; None for a phantom
    read: int | None  # the value read; None when unsure or missed
    confidence: float  # the reader's, 0 when missed

    def caption(self) -> str:
        if self.kind == "wrong":
            return f"{self.true} read as {self.read} ({self.confidence:.2f})"
        if self.kind == "unsure":
            return f"{self.true} unsure ({self.confidence:.2f})"
        if self.kind == "missed":
            return f"{self.true} missed"
        shown = "?" if self.read is None else self.read
        return f"phantom {shown} ({self.confidence:.2f})"

    def as_json(self) -> dict[str, Any]:
        return {
            "image": self.name,
            "box": list(self.box),
            "kind": self.kind,
            "true": self.true,
            "read": self.read,
            "confidence": round(self.confidence, 3),
        }


@dataclass
class Score:
    """Counts over many photos; ``confusion[true][read]`` with 0 = unsure and 7 = missed."""

    images: int = 0
    labelled: int = 0
    right: int = 0
    wrong: int = 0
    abstained: int = 0
    missed: int = 0
    phantom: int = 0
    exact_images: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # process CPU time: what the reading costs when others share the CPU
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((7, 8), int))
    # Labelled dice by size band (:data:`SIZE_EDGES`) and outcome (:data:`OUTCOMES`).
    by_size: np.ndarray = field(default_factory=lambda: np.zeros((len(SIZE_EDGES) + 1, 4), int))
    failures: list[str] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)

    def add(
        self, name: str, dice: Sequence[DieFound], labels: Sequence[dict[str, Any]], seconds: float
    ) -> None:
        taken, phantoms = match([d.centre for d in dice], [lb["box"] for lb in labels])
        right = 0
        for i, lb in enumerate(labels):
            true = lb["value"]
            box = tuple(round(v) for v in lb["box"])
            band = size_band(lb["box"])
            if i not in taken:
                self.missed += 1
                self.confusion[true, MISSED] += 1
                self.by_size[band, OUTCOMES.index("missed")] += 1
                self.mistakes.append(Mistake(name, box, "missed", true, None, 0.0))
                continue
            die = dice[taken[i]]
            value = die.value
            self.confusion[true, UNSURE if value is None else value] += 1
            if value is None:
                self.abstained += 1
                self.by_size[band, OUTCOMES.index("unsure")] += 1
                self.mistakes.append(Mistake(name, box, "unsure", true, None, die.confidence))
            elif value == true:
                right += 1
                self.by_size[band, OUTCOMES.index("right")] += 1
            else:
                self.wrong += 1
                self.by_size[band, OUTCOMES.index("wrong")] += 1
                self.mistakes.append(Mistake(name, box, "wrong", true, value, die.confidence))
        self.mistakes += [
            Mistake(name, dice[p].box, "phantom", None, dice[p].value, dice[p].confidence)
            for p in phantoms
        ]
        self.images += 1
        self.labelled += len(labels)
        self.right += right
        self.phantom += len(phantoms)
        self.seconds += seconds
        if right == len(labels) and not phantoms:
            self.exact_images += 1
        else:
            self.failures.append(name)

    def merge(self, other: Score) -> None:
        for k in (
            "images",
            "labelled",
            "right",
            "wrong",
            "abstained",
            "missed",
            "phantom",
            "exact_images",
            "seconds",
            "cpu_seconds",
        ):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.confusion += other.confusion
        self.by_size += other.by_size
        self.failures += other.failures
        self.mistakes += other.mistakes

    @property
    def value_accuracy(self) -> float:
        return self.right / self.labelled if self.labelled else 0.0

    @property
    def phantom_rate(self) -> float:
        """Phantom dice per labelled die."""
        return self.phantom / self.labelled if self.labelled else 0.0

    @property
    def ms_per_image(self) -> float:
        return 1000 * self.seconds / self.images if self.images else 0.0

    @property
    def cpu_ms_per_image(self) -> float:
        return 1000 * self.cpu_seconds / self.images if self.images else 0.0

    def as_json(self, mistakes: bool = True) -> dict[str, Any]:
        """The counts, rates and confusion, and (unless ``mistakes`` is False) every
        :class:`Mistake`."""
        return {
            "images": self.images,
            "labelled": self.labelled,
            "value_accuracy": round(self.value_accuracy, 4),
            "value_accuracy_95": [round(x, 4) for x in wilson(self.right, self.labelled)],
            "right": self.right,
            "wrong": self.wrong,
            "missed": self.missed,
            "phantom": self.phantom,
            "phantom_rate": round(self.phantom_rate, 4),
            "exact_images": self.exact_images,
            "exact_images_95": [round(x, 4) for x in wilson(self.exact_images, self.images)],
            "abstained": self.abstained,
            "ms_per_image": round(self.ms_per_image, 2),
            "cpu_ms_per_image": round(self.cpu_ms_per_image, 2),
            "confusion": {
                "rows": "true value 1..6",
                "columns": ["unsure", 1, 2, 3, 4, 5, 6, "missed"],
                "counts": self.confusion[1:].tolist(),
            },
            "by_size": {
                band_name(b): dict(zip(OUTCOMES, row.tolist(), strict=True))
                for b, row in enumerate(self.by_size)
                if row.any()
            },
        } | ({"mistakes": [m.as_json() for m in self.mistakes]} if mistakes else {})

    def report(self) -> str:
        """The human-readable summary ``evaluate`` prints."""
        n, m = self.labelled, self.images

        def rate(k: int, total: int) -> str:
            lo, hi = wilson(k, total)
            pct = 100 * k / max(total, 1)
            return f"{k}/{total} = {pct:.1f}% (95% {100 * lo:.1f}–{100 * hi:.1f}%)"

        lines = [
            f"dice read right   {rate(self.right, n)}",
            f"read wrong        {rate(self.wrong, n)}",
            f"unsure            {rate(self.abstained, n)}",
            f"missed            {rate(self.missed, n)}",
            f"phantom dice      {self.phantom} ({100 * self.phantom_rate:.1f}% of labelled dice)",
            f"exact images      {rate(self.exact_images, m)}",
            f"time              {self.ms_per_image:.1f} ms per image "
            f"({self.cpu_ms_per_image:.1f} ms of CPU)",
            "",
            "confusion (rows: true value; columns: read as)",
            "true  unsure     1     2     3     4     5     6  missed",
        ]
        for true in range(1, 7):
            lines.append(f"{true:>4}  " + " ".join(f"{c:>5}" for c in self.confusion[true]))
        lines += [
            "",
            "by die size (the longer side of its box): dice, % right / wrong / unsure / missed",
        ]
        for band, row in enumerate(self.by_size):
            if row.any():
                shares = " / ".join(f"{100 * k / row.sum():.1f}" for k in row)
                lines.append(f"{band_name(band):>16}  {row.sum():>5}  {shares}")
        return "\n".join(lines)


def evaluate(
    folder: Path,
    read: Callable[[np.ndarray], Sequence[DieFound]],
    names: Iterable[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Score:
    """Run ``read`` over the labelled photos of ``folder`` (or the ``names`` among them)."""
    folder = Path(folder)
    labels = load_labels(folder)
    todo = sorted(labels) if names is None else list(names)
    score = Score()
    for i, name in enumerate(todo):
        image = cv2.imread(str(folder / name))
        if image is None:
            raise FileNotFoundError(f"cannot read {folder / name}")
        t0, c0 = time.perf_counter(), time.process_time()
        dice = read(image)
        cpu = time.process_time() - c0
        score.add(name, dice, labels[name], time.perf_counter() - t0)
        score.cpu_seconds += cpu
        if progress:
            progress(i + 1, len(todo))
    return score
