"""Camera dice reading on datasets/dice-photos, cross-validated by shooting session.

    .venv/bin/python benchmarks/vision.py [--folds 5] [--json] [--train] [--seed N] [--python PY]

Photos are grouped into shooting sessions by their timestamp names (a gap of more than 30 s
starts a new session) and whole sessions into ``--folds`` folds of about equal size, so
near-duplicate shots of one session never sit on both sides of a split. For each fold a die
network is trained on the *other* folds' photos only (``vision.train``, into
``build/vision-folds/``; each model's JSON lists the photos it was trained on and the jitter
it was trained with, both checked before use), and scored on the fold's photos. The figures
are the sums over the held-out folds: every photo is scored by a model that never saw its
session. The shipped ``vision/dice_net.onnx`` is trained on all photos and is *not* what
these figures measure.

Training needs PyTorch (``--python`` names an interpreter that has it; fold models already in
``build/vision-folds/`` are reused, ``--train`` rebuilds them). Beside the network the
benchmark scores the earlier hand-built pipeline and the blob-and-cluster baseline, which fit
nothing to data. Timing is on one core (``cv2.setNumThreads(1)``), per 640×640 image.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.augment import DETECTOR_STEPS, FACE_STEPS, recipe  # noqa: E402
from vision.baseline import read_baseline  # noqa: E402
from vision.draw import mistake_sheet  # noqa: E402
from vision.evaluation import (  # noqa: E402
    Score,
    evaluate,
    load_labels,
    session_folds,
    sessions,
    wilson,
)
from vision.reader import ClassicReader, DiceReader  # noqa: E402

DATASET = ROOT.parent / "shared" / "datasets" / "dice-photos"
MODELS = ROOT / "build" / "vision-folds"
NOTES_BASELINE = 0.608  # the research notes' own run of the blob-and-cluster recipe


def is_current(info: dict, train_names: list[str], steps: int = DETECTOR_STEPS,
               face_steps: int = FACE_STEPS, seed: int = 0) -> bool:
    """Whether a fold network's record says it was trained on ``train_names`` by today's
    recipe (steps, jitter, crop placing, drawn dice, widths) from ``seed``, so a stale one
    is never scored."""
    return (sorted(info.get("trained_on", [])) == sorted(train_names)
            and info.get("steps") == steps and info.get("face_steps") == face_steps
            and info.get("seed", 0) == seed
            and all(info.get(k) == v for k, v in recipe().items()))


def fold_model(i: int, train_names: list[str], python: str, steps: int, face_steps: int,
               retrain: bool, models: Path = MODELS, seed: int = 0) -> Path:
    """The fold's networks, trained on ``train_names`` only (reused when already built)."""
    path = models / f"fold{i}"
    meta = path / "dice_net.json"
    if not retrain and meta.exists() and is_current(json.loads(meta.read_text()), train_names,
                                                    steps, face_steps, seed):
        return path
    models.mkdir(parents=True, exist_ok=True)
    names = models / f"fold{i}-train.txt"
    names.write_text("\n".join(train_names) + "\n")
    print(f"fold {i}: training on {len(train_names)} photos ({steps} and {face_steps} "
          f"steps, seed {seed})...",
          file=sys.stderr, flush=True)
    subprocess.run([python, "-m", "vision.train", str(DATASET), "--names", str(names),
                    "--out", str(path), "--steps", str(steps), "--face-steps", str(face_steps),
                    "--seed", str(seed)],
                   cwd=ROOT, check=True)
    return path


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("--train", action="store_true", help="retrain the fold models")
    p.add_argument("--steps", type=int, default=DETECTOR_STEPS, help="detector training steps")
    p.add_argument("--face-steps", type=int, default=FACE_STEPS,
                   help="face classifier training steps")
    p.add_argument("--python", default=sys.executable,
                   help="interpreter with PyTorch, to train fold models")
    p.add_argument("--seed", type=int, default=0,
                   help="train the fold networks from this seed: a seed alone moves the "
                        "figures by about half a point, so judge a change over two")
    p.add_argument("--models", type=Path, default=None,
                   help="folder of the fold networks (fold0/, fold1/, ...; default "
                        "build/vision-folds, or build/vision-folds-seedN for --seed N)")
    p.add_argument("--views", type=int, default=None,
                   help="turns of each die the face classifier averages (default: the reader's)")
    p.add_argument("--no-compare", action="store_true",
                   help="skip the hand-built pipeline and the baseline")
    p.add_argument("--mistakes", metavar="FILE", type=Path,
                   help="draw every held-out die the network read wrong, was unsure of or "
                        "missed, and every phantom, into one picture")
    args = p.parse_args()
    if args.models is None:
        args.models = MODELS.with_name(f"vision-folds-seed{args.seed}" if args.seed else
                                       MODELS.name)
    if not DATASET.is_dir():
        print(f"error: no data set at {DATASET}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    names = sorted(load_labels(DATASET))
    parts = session_folds(names, args.folds)
    ours, classic, base = Score(), Score(), Score()
    per_fold = []
    for i, held_out in enumerate(parts):
        held = set(held_out)
        train_names = [n for n in names if n not in held]
        try:
            model = fold_model(i, train_names, args.python, args.steps, args.face_steps,
                               args.train, args.models, args.seed)
        except subprocess.CalledProcessError:
            print(f"error: training fold {i} failed; --python must name an interpreter with "
                  "PyTorch (pip install torch==2.13.0)", file=sys.stderr)
            return 2
        trained_on = set(json.loads((model / "dice_net.json").read_text())["trained_on"])
        assert not trained_on & held, f"fold {i}: model saw held-out photos"
        extra = {} if args.views is None else {"views": args.views}
        reader = DiceReader(models=model, **extra)
        # Load the networks before the clock starts, as the companion does once at start.
        reader.read(cv2.imread(str(DATASET / held_out[0])))
        s = evaluate(DATASET, reader.read, names=held_out)
        ours.merge(s)
        row = {"fold": i, "photos": len(held_out), "ours": s.value_accuracy}
        if not args.no_compare:
            c = evaluate(DATASET, ClassicReader().read, names=held_out)
            b = evaluate(DATASET, read_baseline, names=held_out)
            classic.merge(c)
            base.merge(b)
            row |= {"classic": c.value_accuracy, "baseline": b.value_accuracy}
        per_fold.append(row)
        print(f"fold {i}: {len(held_out):>3} photos  "
              + "  ".join(f"{k} {100 * v:5.1f}%" for k, v in row.items()
                          if k not in ("fold", "photos")), file=sys.stderr)
    if args.mistakes and ours.mistakes:
        cv2.imwrite(str(args.mistakes), mistake_sheet(DATASET, ours.mistakes))
        print(f"wrote {args.mistakes}: {len(ours.mistakes)} held-out dice to look at",
              file=sys.stderr)
    if args.json:
        out = {"sessions": len(sessions(names)), "folds": per_fold, "ours": ours.as_json()}
        if not args.no_compare:
            out |= {"classic": classic.as_json(mistakes=False),
                    "baseline": base.as_json(mistakes=False)}
        print(json.dumps(out, indent=1))
        return 0
    columns = [("network (held out)", ours)]
    if not args.no_compare:
        columns += [("hand-built", classic), ("blob+DBSCAN", base)]
    print(f"dice-photos: {ours.images} photos, {ours.labelled} dice, "
          f"{len(sessions(names))} sessions in {len(parts)} folds")
    print(f"{'':22}" + "".join(f"{name:>26}" for name, _ in columns))

    def cell(s: Score, k: int, interval: bool = False) -> str:
        text = f"{k} ({100 * k / max(s.labelled, 1):.1f}%)"
        if interval:
            lo, hi = wilson(k, s.labelled)
            text = f"{100 * k / max(s.labelled, 1):.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%)"
        return f"{text:>26}"

    print(f"{'dice read right':22}" + "".join(cell(s, s.right, True) for _, s in columns))
    for label, attr in (("read wrong", "wrong"), ("unsure", "abstained"),
                        ("missed", "missed"), ("phantom dice", "phantom")):
        print(f"{label:22}" + "".join(cell(s, getattr(s, attr)) for _, s in columns))
    print(f"{'exact images':22}" + "".join(f"{f'{s.exact_images}/{s.images}':>26}"
                                            for _, s in columns))
    print(f"{'ms per image (1 core)':22}" + "".join(f"{s.ms_per_image:>26.1f}"
                                                     for _, s in columns))
    print(f"{'  of which CPU time':22}" + "".join(f"{s.cpu_ms_per_image:>26.1f}"
                                                  for _, s in columns))
    print(f"the research notes' own run of blob+DBSCAN: {100 * NOTES_BASELINE:.1f}% read right")
    print("targets: >= 99% read right, < 1% phantom, < 15 ms per image")
    print()
    print(ours.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
