"""Camera dice reading on datasets/dice-photos: our pipeline beside the blob-and-cluster baseline.

    .venv/bin/python benchmarks/vision.py [--folds 5] [--json]

Photos are grouped into shooting sessions by their timestamp names (a gap of more than
``SESSION_GAP_S`` seconds starts a new session), and the sessions into contiguous folds, so
near-duplicate shots of one session never sit in two folds. Each fold is scored with a reader
set up without that fold's photos. Our pipeline fits nothing to data (every constant is a
ratio of the die size or a colour-noise floor, set by hand), so the folds measure how much the
figure varies across sessions; the residual optimism is that those constants were chosen while
looking at this set. Timing is on one core (``cv2.setNumThreads(1)``), per 640×640 image.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from datetime import datetime
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.baseline import read_baseline  # noqa: E402
from vision.evaluation import Score, evaluate, load_labels, wilson  # noqa: E402
from vision.reader import DiceReader  # noqa: E402

DATASET = ROOT.parent / "shared" / "datasets" / "dice-photos"
SESSION_GAP_S = 30
_STAMP = re.compile(r"(\d{8})_(\d{6})")


def sessions(names: list[str], gap_s: float = SESSION_GAP_S) -> list[list[str]]:
    """Photos grouped by shooting session: consecutive timestamps less than ``gap_s`` apart."""
    stamped = []
    for name in names:
        m = _STAMP.search(name)
        if not m:
            raise ValueError(f"{name}: no YYYYMMDD_HHMMSS timestamp in the name")
        stamped.append((datetime.strptime("".join(m.groups()), "%Y%m%d%H%M%S"), name))
    stamped.sort()
    groups: list[list[str]] = []
    last = None
    for when, name in stamped:
        if last is None or (when - last).total_seconds() > gap_s:
            groups.append([])
        groups[-1].append(name)
        last = when
    return groups


def folds(groups: list[list[str]], k: int) -> list[list[str]]:
    """``k`` folds of whole, time-contiguous sessions with about equal numbers of photos."""
    total = sum(len(g) for g in groups)
    out: list[list[str]] = [[]]
    for g in groups:
        if len(out[-1]) >= total / k and len(out) < k:
            out.append([])
        out[-1].extend(g)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if not DATASET.is_dir():
        print(f"error: no data set at {DATASET}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    names = sorted(load_labels(DATASET))
    groups = sessions(names)
    parts = folds(groups, args.folds)
    ours, base = Score(), Score()
    per_fold = []
    for i, held_out in enumerate(parts):
        # Nothing is fitted to the training folds: the reader is built from constants alone.
        reader = DiceReader()
        s = evaluate(DATASET, reader.read, names=held_out)
        b = evaluate(DATASET, read_baseline, names=held_out)
        ours.merge(s)
        base.merge(b)
        per_fold.append({"fold": i, "photos": len(held_out), "ours": s.value_accuracy,
                         "baseline": b.value_accuracy})
        print(f"fold {i}: {len(held_out):>3} photos  ours {100 * s.value_accuracy:5.1f}%  "
              f"baseline {100 * b.value_accuracy:5.1f}%", file=sys.stderr)
    if args.json:
        print(json.dumps({"sessions": len(groups), "folds": per_fold, "ours": ours.as_json(),
                          "baseline": base.as_json()}, indent=1))
        return 0
    lo, hi = wilson(ours.right, ours.labelled)
    blo, bhi = wilson(base.right, base.labelled)
    print(f"dice-photos: {ours.images} photos, {ours.labelled} dice, {len(groups)} sessions "
          f"in {len(parts)} folds")
    print(f"{'':24}{'ours':>22}{'baseline (blob+DBSCAN)':>26}")
    print(f"{'dice read right':24}{100 * ours.value_accuracy:>8.1f}% "
          f"({100 * lo:.1f}–{100 * hi:.1f}%)"
          f"{100 * base.value_accuracy:>12.1f}% ({100 * blo:.1f}–{100 * bhi:.1f}%)")
    for label, a, b in (("read wrong", ours.wrong, base.wrong),
                        ("unsure", ours.abstained, base.abstained),
                        ("missed", ours.missed, base.missed),
                        ("phantom dice", ours.phantom, base.phantom)):
        print(f"{label:24}{a:>10} ({100 * a / ours.labelled:4.1f}%){b:>16} "
              f"({100 * b / base.labelled:4.1f}%)")
    print(f"{'exact images':24}{ours.exact_images:>10}/{ours.images}{base.exact_images:>18}/"
          f"{base.images}")
    print(f"{'ms per image (1 core)':24}{ours.ms_per_image:>15.1f}{base.ms_per_image:>22.1f}")
    print("targets: >= 99% read right, < 1% phantom, < 15 ms per image")
    return 0


if __name__ == "__main__":
    sys.exit(main())
